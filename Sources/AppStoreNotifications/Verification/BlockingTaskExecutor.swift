import Dispatch
import Synchronization

/// Runs an async operation to completion from synchronous code, on a private serial dispatch queue.
///
/// swift-certificates' `Verifier.validate` is async, while ``JWSVerifier`` is called from plain worker threads.
/// The operation runs in a task whose executor preference is this executor, so each of its jobs (the first one and
/// any after a suspension) goes to the private queue, never to Swift's cooperative pool. A caller may therefore block
/// any thread, a cooperative one included, while it waits: the work it waits for needs no thread of the pool.
///
/// - Important: The operation must not hop to an actor with its own executor (such as the main actor) and then wait
///   for a thread the caller holds. `Verifier.validate` with an in-memory `CertificateStore` does not suspend at all.
final class BlockingTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "AppStoreNotifications.BlockingTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }

    /// Runs `operation` in a new task on this executor and blocks the calling thread until it returns.
    ///
    /// - Returns: the operation's result; nil only if the task ended without producing one, which the caller treats as
    ///   a failure.
    func run<Result: Sendable>(_ operation: sending @escaping () async -> Result) -> Result? {
        let outcome = Outcome<Result>()
        Task(executorPreference: self) {
            let result = await operation()
            outcome.value.withLock { $0 = result }
            outcome.done.signal()
        }
        outcome.done.wait()
        return outcome.value.withLock { $0 }
    }

    /// Hands the result from the task to the waiting thread.
    private final class Outcome<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
}
