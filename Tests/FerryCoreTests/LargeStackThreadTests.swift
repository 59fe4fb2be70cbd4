import Synchronization
import Testing

@testable import FerryCore

/// `LargeStackThread.each`: every index runs once, whatever the threads.
@Suite struct LargeStackThreadTests {
    /// Counts of each index's runs, shared by the threads.
    final class Runs: Sendable {
        let counts: Mutex<[Int]>
        init(_ count: Int) { counts = Mutex(Array(repeating: 0, count: count)) }
    }

    @Test(arguments: [(0, 2), (1, 4), (4, 1), (4, 2), (4, 4), (8, 2), (3, 8)])
    func everyIndexRunsOnce(count: Int, threads: Int) {
        let runs = Runs(count)
        LargeStackThread.each(count, threads: threads) { index in
            runs.counts.withLock { $0[index] += 1 }
        }
        #expect(runs.counts.withLock { $0 } == Array(repeating: 1, count: count))
    }
}
