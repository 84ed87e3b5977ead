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
/// own memory since it started `churn`. (`wait4`'s `ru_maxrss` will not do: `posix_spawn` starts the child sharing
/// this process's memory until it runs `churn`, and the kernel counts that memory as the child's.)
package struct MeasuredRun: Sendable {
    package var result: ChurnCommand.Result
    package var seconds: Double
    /// Peak resident set, in MB (10⁶ bytes).
    package var peakMB: Double
    /// Whether the kill asked for landed while the process still ran.
    package var wasKilled: Bool { result.signal == SIGKILL }

    /// The failure to start the process.
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `churn` with `arguments` and `environment` (added to this process's, as ``ChurnCommand/run(_:in:environment:)``
    /// does), its output kept in files of a scratch directory.
    /// - Parameter killAfter: seconds after which the process gets `SIGKILL` if it still runs; nil to let it end.
    package static func churn(
        _ arguments: [String], environment: [String: String?] = [:], killAfter: Double? = nil
    ) throws -> MeasuredRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("churn-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutPath = scratch.appendingPathComponent("stdout").path
        let stderrPath = scratch.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let executable = ChurnCommand.executable.path
        let variables = ChurnCommand.variables(adding: environment).map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let clock = ContinuousClock()
        let started = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        let peak = HighWaterMark(pid: pid)
        if let killAfter {
            // A process that has ended but is not reaped yet is a zombie: the signal then changes nothing.
            Thread.sleep(forTimeInterval: killAfter)
            kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        var usage = rusage()
        // Waits without reaping, so the last reading of the mark is of this process and not of a later one with its
        // number; then reaps.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        let peakKB = peak.stop()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // The wait status: the low 7 bits name the signal that ended the process, else the exit code is the next byte.
        let signal = status & 0x7f
        let result = ChurnCommand.Result(
            status: signal == 0 ? (status >> 8) & 0xff : signal,
            signal: signal == 0 ? nil : signal,
            stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        )
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
