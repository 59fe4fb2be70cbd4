#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Synchronization

/// Threads with a stack large enough for the deepest nesting a user may allow.
///
/// Readers and writers of nested values recurse once a level. At the default
/// limit of 512 levels that fits any stack, but `--max-depth` can raise the
/// limit, and debug and sanitizer builds use several kilobytes a level; the
/// main thread's 8 MiB (and a dispatch worker's) would run out before the
/// limit does. So Ferry does its reading and writing on threads with a 1 GiB
/// stack. The memory is only reserved: pages are touched, and counted, only
/// as deep recursion reaches them.
package enum LargeStackThread {
    /// The stack size of the threads.
    package static let stackSize = 1 << 30

    /// Runs `body` on a new thread with a large stack and waits for it.
    /// Runs it on the calling thread if no such thread can be made.
    package static func run<Result>(_ body: () -> Result) -> Result {
        withoutActuallyEscaping(body) { escapable in
            let box = Box(work: escapable)
            guard start(box, detached: false), let result = box.result else { return escapable() }
            return result
        }
    }

    /// Starts `body` on a new thread with a large stack and returns at once.
    /// Runs it on the calling thread, and returns when it is done, only if
    /// no thread can be made.
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        let box = Box<Void>(work: body)
        if !start(box, detached: true) { body() }
    }

    /// Runs `second` on a new thread with a large stack while `first` runs
    /// on the calling thread, and returns when both are done: the two
    /// halves of one job, one on each core. Runs `second` after `first`, on
    /// the calling thread, if no thread can be made.
    package static func both(_ first: () -> Void, _ second: @escaping @Sendable () -> Void) {
        let box = Box<Void>(work: second)
        guard let thread = spawn(box) else {
            first()
            return second()
        }
        first()
        pthread_join(thread, nil)
    }

    /// Runs `body(0)` to `body(count - 1)` on at most `threads` threads:
    /// the calling thread and new ones with a large stack, each taking the
    /// next index not yet taken until none is left; returns when all are
    /// done. The parts of one job, at once: with more parts than threads,
    /// a thread that the system slows takes fewer. The calling thread does
    /// them all if no thread can be made.
    package static func each(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let next = NextIndex()
        let work: @Sendable () -> Void = {
            while true {
                let index = next.value.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
        var started: [pthread_t] = []
        for _ in 1..<max(min(threads, count), 1) {
            guard let thread = spawn(Box<Void>(work: work)) else { break }
            started.append(thread)
        }
        work()
        for thread in started { pthread_join(thread, nil) }
    }

    /// The next index `each` hands out.
    private final class NextIndex: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The work and its result, handed to the new thread.
    fileprivate final class Box<Result>: @unchecked Sendable, Performing {
        let work: () -> Result
        var result: Result?
        init(work: @escaping () -> Result) { self.work = work }
        func perform() { result = work() }
    }

    private static func start<Result>(_ box: Box<Result>, detached: Bool) -> Bool {
        guard let thread = spawn(box) else { return false }
        if detached {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
        return true
    }

    /// A new joinable thread running `box`'s work, or nil when none can be made.
    private static func spawn<Result>(_ box: Box<Result>) -> pthread_t? {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return nil }
        let context = Unmanaged.passRetained(box as AnyObject).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                let object = Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue()
                (object as? Performing)?.perform()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<AnyObject>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}

private protocol Performing: AnyObject { func perform() }
