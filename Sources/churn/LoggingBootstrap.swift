import Logging
import Synchronization

/// Bootstraps swift-log exactly once per process.
enum LoggingBootstrap {
    private static let done = Mutex(false)

    static func run(format: LogFormat) {
        Console.use(format)
        // Bootstraps under the lock, so no caller logs before the first one has set up logging.
        done.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in StderrLogHandler(label: label, format: format) }
        }
    }
}
