import Foundation
import Logging

/// Bootstraps swift-log exactly once per process.
enum LoggingBootstrap {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var done = false

    static func run(format: LogFormat) {
        lock.lock()
        defer { lock.unlock() }
        guard !done else { return }
        done = true
        switch format {
        case .text:
            LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
        case .json:
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
    }
}
