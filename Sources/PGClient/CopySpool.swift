#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// COPY rows held back for a later `COPY … FROM STDIN` while the connection is busy with another one: in memory up
/// to a limit, then in an anonymous temporary file, so memory stays flat however many rows there are.
///
/// The file (from `tmpfile()`) has no name and disappears when the spool is dropped or the process dies.
package final class CopySpool {
    private let memoryLimit: Int
    private var memory: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    /// Bytes appended so far.
    package private(set) var count = 0
    /// Whether the rows went to the temporary file.
    package var isInFile: Bool { file != nil }

    /// - Parameter memoryLimit: bytes kept in memory before the rows move to a temporary file.
    package init(memoryLimit: Int = 4 << 20) {
        self.memoryLimit = memoryLimit
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Appends encoded rows.
    /// - Throws: ``PGError`` of kind `copyFailed` when the temporary file cannot be created or written.
    package func append(_ rows: [UInt8]) throws(PGError) {
        guard !rows.isEmpty else { return }
        count += rows.count
        if file == nil, memory.count + rows.count <= memoryLimit {
            memory.append(contentsOf: rows)
            return
        }
        let file = try openFile()
        if !memory.isEmpty {
            try Self.write(memory, to: file)
            memory = []
        }
        try Self.write(rows, to: file)
    }

    /// Sends everything appended, in order, through `writer`.
    /// - Throws: ``PGError`` when the temporary file cannot be read or the server refuses the data.
    package func send(to writer: inout PGCopyWriter) throws(PGError) {
        guard let file else {
            try writer.write(memory)
            return
        }
        guard fflush(file) == 0, fseek(file, 0, SEEK_SET) == 0 else { throw Self.ioError("rewind") }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if read > 0 { try writer.write(chunk[0..<read]) }
            if read < chunk.count {
                if ferror(file) != 0 { throw Self.ioError("read") }
                break
            }
        }
    }

    private func openFile() throws(PGError) -> UnsafeMutablePointer<FILE> {
        if let file { return file }
        guard let opened = tmpfile() else { throw Self.ioError("create") }
        file = opened
        return opened
    }

    private static func write(_ bytes: [UInt8], to file: UnsafeMutablePointer<FILE>) throws(PGError) {
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw ioError("write") }
    }

    private static func ioError(_ operation: String) -> PGError {
        let reason = String(cString: strerror(errno))
        return PGError(kind: .copyFailed, message: "could not \(operation) the temporary file for COPY rows: \(reason)")
    }
}
