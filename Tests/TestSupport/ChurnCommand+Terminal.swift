import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChurnCommand {
    /// Runs `churn` as ``run(_:in:environment:)`` does, but with its stderr on a pseudo-terminal `columns` wide, as
    /// at an interactive terminal; `stderr` of the result is what the terminal received (with the terminal's
    /// `\r\n` for each newline).
    package static func runOnTerminal(
        _ arguments: [String],
        columns: Int,
        in directory: URL? = nil,
        environment: [String: String?] = [:]
    ) throws -> Result {
        let terminal = try PseudoTerminal(columns: columns)
        defer { terminal.closeController() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("churn-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutPath = scratch.appendingPathComponent("stdout").path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", #"cd "$1" && shift && exec "$@" > "\#(stdoutPath)" < /dev/null"#, "sh", (directory ?? scratch).path]
            + [executable.path] + arguments
        process.environment = variables(adding: environment)
        process.standardError = FileHandle(fileDescriptor: terminal.device, closeOnDealloc: false)
        try process.run()
        // The child has its own copy now; with ours closed, reading ends when the child's side closes.
        terminal.closeDevice()
        let received = terminal.readUntilClosed()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: String(decoding: received, as: UTF8.self)
        )
    }
}

/// A pseudo-terminal pair: the controller end this process reads, the device end the child writes to.
private final class PseudoTerminal {
    let controller: Int32
    private(set) var device: Int32

    init(columns: Int) throws {
        #if canImport(Glibc)
            // Glibc's module leaves out posix_openpt, grantpt, unlockpt and ptsname (X/Open extensions), so do what
            // they do on Linux: open the multiplexer, unlock the new terminal and ask its number (TIOCSPTLCK and
            // TIOCGPTN, whose values are those of <asm-generic/ioctls.h>: x86 and ARM).
            controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard controller >= 0, ioctl(controller, 0x4004_5431, &unlock) == 0,
                ioctl(controller, 0x8004_5430, &number) == 0
            else {
                throw PseudoTerminalError(reason: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
            }
            let path = "/dev/pts/\(number)"
        #else
            controller = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard controller >= 0, grantpt(controller) == 0, unlockpt(controller) == 0, let name = ptsname(controller)
            else {
                throw PseudoTerminalError(reason: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
            }
            let path = String(cString: name)
        #endif
        device = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard device >= 0 else {
            throw PseudoTerminalError(reason: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var size = winsize()
        size.ws_row = 24
        size.ws_col = UInt16(columns)
        #if canImport(Glibc)
            let status = ioctl(device, UInt(TIOCSWINSZ), &size)
        #else
            let status = ioctl(device, TIOCSWINSZ, &size)
        #endif
        guard status == 0 else {
            throw PseudoTerminalError(reason: "cannot set the terminal's size: \(String(cString: strerror(errno)))")
        }
    }

    func closeDevice() {
        if device >= 0 { close(device) }
        device = -1
    }

    func closeController() {
        closeDevice()
        close(controller)
    }

    /// Everything written to the device end until every copy of it is closed (Linux then reports EIO).
    func readUntilClosed() -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return received
            }
        }
    }
}

private struct PseudoTerminalError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
