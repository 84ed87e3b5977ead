import Foundation

/// A file written atomically: bytes go to a temporary file next to the destination, which replaces the
/// destination only on ``commit()``. A file that is never committed is removed, so a failed run leaves no
/// half-written export behind.
final class OutputFile {
    let path: String
    private let temporaryPath: String
    private let handle: FileHandle
    private var isOpen = true
    private(set) var bytesWritten = 0

    /// Creates the temporary file.
    /// - Throws: ``SimulationError/output(path:reason:)`` when it cannot be created.
    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        self.temporaryPath =
            url.deletingLastPathComponent().appendingPathComponent(
                ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
            ).path
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporaryPath)
        else {
            throw SimulationError.output(path: path, reason: "cannot create a file in its directory")
        }
        self.handle = handle
    }

    deinit {
        if isOpen {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporaryPath)
        }
    }

    /// Appends bytes.
    /// - Throws: ``SimulationError/output(path:reason:)`` on a write error (a full disk, for example).
    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw SimulationError.output(path: path, reason: "\(error.localizedDescription)")
        }
        bytesWritten += bytes.count
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Closes the file and moves it to its destination, replacing any file there. (No fsync: the point is that
    /// readers never see a partial file, not durability.)
    /// - Throws: ``SimulationError/output(path:reason:)`` when it cannot be flushed or renamed.
    func commit() throws {
        isOpen = false
        do {
            try handle.close()
        } catch {
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw SimulationError.output(path: path, reason: "\(error.localizedDescription)")
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw SimulationError.output(path: path, reason: reason)
        }
    }

    /// Writes a whole small file atomically.
    /// - Throws: ``SimulationError/output(path:reason:)``.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try OutputFile(path: path)
        try file.write(bytes)
        try file.commit()
    }
}
