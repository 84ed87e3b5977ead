import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes report files into a directory, each one atomically.
///
/// Each file is written to a temporary file in the same directory (a name starting with `.` and ending in
/// `.tmp`) and then renamed over its final name, so a reader sees the old file or the new one, never a part.
/// An existing directory is updated file by file; files of other names are left alone.
package enum ReportDirectory {
    /// Creates `directory` and its parents when missing.
    ///
    /// - Throws: `ReportsError` when a file stands in the way or the directory cannot be created.
    package static func prepare(_ directory: URL) throws {
        if let blocking = fileInTheWay(of: directory) {
            throw ReportsError(
                operation: "writing the report", path: directory.path,
                reason: "cannot create the directory: \(blocking.path) is a file, not a directory")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ReportsError(
                operation: "writing the report", path: directory.path,
                reason: "cannot create the directory (\(ReportsError.systemReason(error)))")
        }
    }

    /// Writes `data` to a temporary file next to `url`, then renames it to `url`.
    ///
    /// - Throws: `ReportsError` naming `url`; the temporary file is removed.
    package static func writeAtomically(_ data: Data, to url: URL) throws {
        try writeAtomically(to: url) { write in try write(data) }
    }

    /// Writes what `body` hands its `write` to a temporary file next to `url`, part by part, then renames it to
    /// `url`.
    ///
    /// - Throws: `ReportsError` naming `url`, or what `body` throws; the temporary file is removed.
    package static func writeAtomically(
        to url: URL, _ body: (_ write: (Data) throws -> Void) throws -> Void
    ) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            "." + url.lastPathComponent + "." + UUID().uuidString + ".tmp")
        func failed(_ error: any Error) -> ReportsError {
            ReportsError(
                operation: "writing the report", path: url.path,
                reason: "cannot write a temporary file in its directory (\(ReportsError.systemReason(error)))")
        }
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try body { data in
                do { try handle.write(contentsOf: data) } catch { throw failed(error) }
            }
        } catch let error as ReportsError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw failed(error)
        }
        // rename(2) replaces an existing file atomically when both names are in one directory.
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ReportsError(
                operation: "writing the report", path: url.path, reason: "cannot replace the file (\(reason))")
        }
    }

    /// The nearest existing path of `directory` or its parents when it is not a directory.
    private static func fileInTheWay(of directory: URL) -> URL? {
        var candidate = directory.standardizedFileURL
        while candidate.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? nil : candidate
            }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }
}
