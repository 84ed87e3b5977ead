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
    /// Creates `directory` (and its parents) if needed and writes every file into it, in order.
    ///
    /// - Throws: `ReportsError` for the first file that cannot be written; its temporary file is removed.
    package static func write(_ files: [Report.File], to directory: URL) throws {
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
        for file in files {
            try writeAtomically(Data(file.contents.utf8), to: directory.appendingPathComponent(file.name))
        }
    }

    /// Writes `data` to a temporary file next to `url`, then renames it to `url`.
    ///
    /// - Throws: `ReportsError` naming `url`; the temporary file is removed.
    package static func writeAtomically(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            "." + url.lastPathComponent + "." + UUID().uuidString + ".tmp")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ReportsError(
                operation: "writing the report", path: url.path,
                reason: "cannot write a temporary file in its directory (\(ReportsError.systemReason(error)))")
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
