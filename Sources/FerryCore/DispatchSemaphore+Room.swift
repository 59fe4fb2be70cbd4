import Dispatch

extension DispatchSemaphore {
    /// A semaphore of `count` free places (at least one) for a producer
    /// thread that runs ahead of its consumer: made at 0 and signalled
    /// `count` times, never made at `count`. libdispatch traps (SIGILL) when
    /// a semaphore is freed below the value it was made with, which one
    /// made at `count` is whenever the consumer stops early and frees it
    /// while the producer holds places: `convert` of a gzip'd file of NULs,
    /// refused at its first byte, died so in 9 of 30 runs.
    package static func room(for count: Int) -> DispatchSemaphore {
        let semaphore = DispatchSemaphore(value: 0)
        for _ in 0..<max(count, 1) { semaphore.signal() }
        return semaphore
    }
}
