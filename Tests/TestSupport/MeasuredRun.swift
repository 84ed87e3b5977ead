import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of the built `churn` with what it cost: its wall time and its peak resident memory, and, when asked, a
/// `SIGKILL` after a delay.
///
/// The peak is the process's `VmHWM` (`/proc/<pid>/status`), read every 5 ms while it runs: the high-water mark of its
/// own memory since it started `churn`. (The kernel's `ru_maxrss` will not do: a child starts sharing this process's
/// memory until it runs `churn`, and the kernel counts that memory as the child's.)
package struct MeasuredRun: Sendable {
    package var result: ChurnCommand.Result
    package var seconds: Double
    /// Peak resident set, in MB (10⁶ bytes).
    package var peakMB: Double
    /// Whether the kill asked for landed while the process still ran.
    package var wasKilled: Bool { result.signal == SIGKILL }

    /// Runs `churn` with `arguments` and `environment` as ``ChurnCommand/run(_:in:environment:)`` does, through
    /// Foundation's `Process` like every other run of the tests (one reaper for every child: a second one, waiting
    /// for its own children beside it, can make it miss the end of one of its own).
    /// - Parameter killAfter: seconds after which the process gets `SIGKILL` if it still runs; nil to let it end.
    package static func churn(
        _ arguments: [String], environment: [String: String?] = [:], killAfter: Double? = nil
    ) throws -> MeasuredRun {
        let clock = ContinuousClock()
        let started = clock.now
        let running = try ChurnCommand.start(arguments, environment: environment)
        // The shell the command starts in runs `exec churn`: the process is churn's from then on.
        let pid = running.process.processIdentifier
        let peak = HighWaterMark(pid: pid)
        if let killAfter {
            Thread.sleep(forTimeInterval: killAfter)
            if running.isRunning { kill(pid, SIGKILL) }
        }
        let result = running.wait()
        let elapsed = clock.now - started
        let peakKB = peak.stop()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return MeasuredRun(result: result, seconds: seconds, peakMB: Double(peakKB) * 1024 / 1e6)
    }

    /// Reads a process's `VmHWM` (kB) every 5 ms on a thread of its own until stopped.
    private final class HighWaterMark: Sendable {
        private let state = Mutex((stopped: false, kilobytes: 0))
        private let done = DispatchSemaphore(value: 0)

        init(pid: pid_t) {
            let path = "/proc/\(pid)/status"
            Thread.detachNewThread { [self] in
                while !state.withLock({ $0.stopped }) {
                    if let kilobytes = Self.read(path) {
                        state.withLock { $0.kilobytes = max($0.kilobytes, kilobytes) }
                    }
                    usleep(5_000)
                }
                done.signal()
            }
        }

        /// Stops reading; the highest mark read (the last reading at most 5 ms before the process ended).
        func stop() -> Int {
            state.withLock { $0.stopped = true }
            done.wait()
            return state.withLock { $0.kilobytes }
        }

        private static func read(_ path: String) -> Int? {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return nil }
            return Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
    }
}
