import Dispatch

/// Runs the jobs of the tasks that prefer it on a serial dispatch queue of its own, one at a time.
///
/// libpq blocks the thread that calls it. A task that works on a connection (a load, a fetch) prefers this executor,
/// so its calls on the connection hold this queue's thread and never a thread of Swift's cooperative pool, which
/// stays free for reading and decoding (tasks that prefer ``globalConcurrentExecutor`` instead), and a task waiting
/// for another one's lock cannot starve the pool.
package final class ConnectionExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "churn.connection")

    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
