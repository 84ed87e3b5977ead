import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `churn` executable as a user would, capturing its exit status, stdout and stderr.
package struct ChurnCommand {
    /// What a run of the command did.
    package struct Result: Sendable {
        /// The exit status, or the number of the signal that ended the process.
        package var status: Int32
        /// The signal that ended the process; nil when it exited.
        package var signal: Int32?
        package var stdout: String
        package var stderr: String
    }

    /// `.build/debug/churn` (or `$CHURN_BINARY`), built before the tests because the test target depends on it.
    package static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["CHURN_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // The test bundle lives in the same build products directory as the executable.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = products.appendingPathComponent("churn")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Repository.root.appendingPathComponent(".build/debug/churn")
    }

    /// Runs `churn` with `arguments` in `directory`, with `environment` added to (or, for nil values, removed from)
    /// this process's environment.
    package static func run(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String?] = [:]
    ) throws -> Result {
        try start(arguments, in: directory, environment: environment).wait()
    }

    /// Starts `churn` as ``run(_:in:environment:)`` does and returns at once; ``Running/wait()`` gives its result.
    package static func start(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String?] = [:]
    ) throws -> Running {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("churn-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let stdoutPath = scratch.appendingPathComponent("stdout").path
        let stderrPath = scratch.appendingPathComponent("stderr").path

        let script = """
            cd "$1" && shift && exec "$@" > "\(stdoutPath)" 2> "\(stderrPath)" < /dev/null
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", (directory ?? scratch).path, executable.path] + arguments
        process.environment = variables(adding: environment)
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
        return Running(process: process, scratch: scratch)
    }

    /// A `churn` process started by ``start(_:in:environment:)``.
    package final class Running {
        let process: Process
        let scratch: URL

        init(process: Process, scratch: URL) {
            self.process = process
            self.scratch = scratch
        }

        /// Whether the process has not ended yet.
        package var isRunning: Bool { process.isRunning }

        /// Waits for the process to end and returns what it did.
        package func wait() -> Result {
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: scratch) }
            return Result(
                status: process.terminationStatus,
                signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
                stdout: (try? String(contentsOfFile: scratch.appendingPathComponent("stdout").path, encoding: .utf8))
                    ?? "",
                stderr: (try? String(contentsOfFile: scratch.appendingPathComponent("stderr").path, encoding: .utf8))
                    ?? ""
            )
        }
    }

    /// This process's environment with `environment` added (nil values removed), and without the variables that
    /// name a database unless `environment` gives them: a test never reaches the developer's own database by
    /// accident.
    package static func variables(adding environment: [String: String?]) -> [String: String] {
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        for key in ["DATABASE_URL", "PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE"] where environment[key] == nil {
            variables[key] = nil
        }
        return variables
    }
}
