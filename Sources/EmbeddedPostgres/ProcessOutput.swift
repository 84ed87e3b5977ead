import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Held while a pipe is made and a child spawned (see ``ProcessOutput/run(_:_:)``).
private let spawnLock = Mutex(())

/// A finished child process: exit status and combined output.
///
/// Uses `posix_spawn` and `waitpid` directly: simple, and safe to call from any thread.
struct ProcessOutput {
    var status: Int32
    var output: String

    static func run(_ executable: URL, _ arguments: [String]) throws -> ProcessOutput {
        // The pipe is close-on-exec, and pipes are made and children spawned under one lock, so a child spawned
        // by another thread (the postmaster, which lives on) never holds this pipe open.
        let (readEnd, pid) = try spawnLock.withLock { _ in try spawn(executable, arguments) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, written out: the C macros are not imported into Swift.
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessOutput(status: exitStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Spawns `executable` with its standard output and error on a new pipe.
    /// - Returns: the pipe's read end and the child's pid.
    private static func spawn(_ executable: URL, _ arguments: [String]) throws -> (Int32, pid_t) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw EmbeddedClusterError.systemCallFailed("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        // An opaque pointer on Darwin, a struct on Glibc.
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])

        let argv = [executable.path] + arguments
        var pid: pid_t = 0
        let spawnResult: Int32 = withSpawnArguments(argv) { arguments in
            posix_spawn(&pid, executable.path, &actions, nil, arguments, environment)
        }
        close(ends[1])
        guard spawnResult == 0 else {
            close(ends[0])
            throw EmbeddedClusterError.systemCallFailed(
                "cannot run \(executable.path): \(String(cString: strerror(spawnResult)))"
            )
        }
        return (ends[0], pid)
    }

    /// This process's environment, which the child inherits (Darwin has no `environ` symbol for Swift).
    private static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
            _NSGetEnviron().pointee
        #else
            environ
        #endif
    }

    private static func withSpawnArguments<Result>(
        _ arguments: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        defer {
            for index in 0..<arguments.count { free(pointers[index]) }
            pointers.deallocate()
        }
        for (index, argument) in arguments.enumerated() { pointers[index] = strdup(argument) }
        pointers[arguments.count] = nil
        return body(UnsafePointer(pointers))
    }
}
