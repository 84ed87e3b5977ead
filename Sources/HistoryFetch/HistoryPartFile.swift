import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One file of fetched history pages, written under a temporary name one gzip member per page, each made durable
/// (`fsync`) before its page is recorded, and renamed to its final name when complete.
///
/// Every prefix of members is a whole gzip file, so the length recorded after a page is a point the file can always be
/// cut back to: a resumed fetch cuts off whatever was written after the last recorded page (a page the process wrote
/// but did not live to record) and goes on from there. Readers of the directory never see the temporary name (see
/// ``FetchCheckpoint/partialFileName(part:)``), so no load reads a file half written.
package final class HistoryPartFile {
    /// The final name's path.
    package let path: String
    /// The temporary name's path.
    package let partialPath: String
    private let directory: String
    private var descriptor: Int32
    /// Bytes in the file: all of them durable after each ``append(_:)``.
    package private(set) var length: Int64

    /// What was found where a fetch goes on writing.
    package enum Opening {
        /// The temporary file, cut back to the recorded length and open for appending.
        case opened(HistoryPartFile)
        /// No temporary file, but the final one: the rename happened and was not recorded.
        case alreadyComplete
        /// Neither file holds the recorded pages (deleted, or cut short): they must be fetched again.
        case lost(reason: String)
    }

    private init(path: String, partialPath: String, directory: String, descriptor: Int32, length: Int64) {
        self.path = path
        self.partialPath = partialPath
        self.directory = directory
        self.descriptor = descriptor
        self.length = length
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens the file of a part to go on after `committedLength` bytes, creating it when nothing is kept yet.
    /// - Throws: ``FetchError/writeFailed(path:reason:)`` with the system's reason.
    package static func open(directory: String, name: String, partialName: String, committedLength: Int64) throws
        -> Opening
    {
        let path = (directory as NSString).appendingPathComponent(name)
        let partialPath = (directory as NSString).appendingPathComponent(partialName)
        if committedLength == 0 {
            let descriptor = openFile(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(partialPath) }
            let file = HistoryPartFile(
                path: path, partialPath: partialPath, directory: directory, descriptor: descriptor, length: 0
            )
            try file.syncDirectory()
            return .opened(file)
        }
        let descriptor = openFile(partialPath, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT {
                if access(path, F_OK) == 0 { return .alreadyComplete }
                return .lost(reason: "\(partialPath) is gone")
            }
            throw failure(partialPath)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = failure(partialPath)
            close(descriptor)
            throw error
        }
        guard Int64(info.st_size) >= committedLength else {
            close(descriptor)
            return .lost(
                reason: "\(partialPath) holds \(info.st_size) bytes, less than the \(committedLength) recorded")
        }
        let file = HistoryPartFile(
            path: path, partialPath: partialPath, directory: directory, descriptor: descriptor, length: committedLength
        )
        if Int64(info.st_size) > committedLength {
            guard ftruncate(descriptor, off_t(committedLength)) == 0, fsync(descriptor) == 0 else {
                throw failure(partialPath)
            }
        }
        return .opened(file)
    }

    /// Appends `bytes` at the end and makes them durable.
    /// - Throws: ``FetchError/writeFailed(path:reason:)`` with the system's reason (a full disk, for example).
    package func append(_ bytes: [UInt8]) throws {
        var written = 0
        try bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = pwrite(
                    descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written,
                    off_t(length) + off_t(written)
                )
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(partialPath)
                }
                written += count
            }
        }
        guard fsync(descriptor) == 0 else { throw Self.failure(partialPath) }
        length += Int64(written)
    }

    /// Closes the file and gives it its final name, durably.
    /// - Throws: ``FetchError/writeFailed(path:reason:)`` with the system's reason.
    package func complete() throws {
        guard fsync(descriptor) == 0 else { throw Self.failure(partialPath) }
        close(descriptor)
        descriptor = -1
        guard rename(partialPath, path) == 0 else { throw Self.failure(path) }
        try syncDirectory()
    }

    /// Closes and removes the file (a part that got no page).
    package func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(partialPath)
    }

    /// Makes the directory's entries (a new file, a rename) durable.
    private func syncDirectory() throws {
        let handle = openFile(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { throw Self.failure(directory) }
        defer { close(handle) }
        guard fsync(handle) == 0 else { throw Self.failure(directory) }
    }

    private static func failure(_ path: String) -> FetchError {
        .writeFailed(path: path, reason: String(cString: strerror(errno)))
    }
}

/// `open(2)`, under a name of its own: inside the file type, `open` would mean its own methods.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, flags, mode)
    #elseif canImport(Darwin)
        Darwin.open(path, flags, mode)
    #endif
}
