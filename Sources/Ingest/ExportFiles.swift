// `stat`'s initializer and fields are found through CoreFoundation or Glibc, whichever module the compiler met
// `sys/stat.h` through first among the files it compiles together, so both are imported.
import CoreFoundation
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Export files on disk, as `churn nightly` finds them: the files of a directory that a pattern picks, and the
/// SHA-256 that names a file's content in `source_files`.
package enum ExportFiles {
    /// Files given directly, plus the regular, non-hidden files of given directories whose names match one of
    /// `patterns` (shell patterns, `fnmatch`), each directory's files sorted by name. Paths that do not exist are
    /// left out.
    /// - Throws: ``IngestError/cannotOpen(path:reason:)`` or ``IngestError/readFailed(path:reason:)`` naming a
    ///   directory that cannot be listed, with the system's reason.
    package static func expand(_ paths: [String], glob patterns: [String]) throws -> [String] {
        try partition(paths, glob: patterns).matched
    }

    /// ``expand(_:glob:)``'s files, and the regular, non-hidden files of the given directories that match none of
    /// `patterns` (say `export.ndjson` under the default patterns), each directory's sorted by name.
    package static func partition(
        _ paths: [String], glob patterns: [String]
    ) throws -> (matched: [String], unmatched: [String]) {
        var matched: [String] = []
        var unmatched: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                matched.append(path)
                continue
            }
            for name in try names(inDirectory: path).sorted() where !name.hasPrefix(".") {
                let full = (path as NSString).appendingPathComponent(name)
                var childIsDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory),
                    !childIsDirectory.boolValue
                else { continue }
                if patterns.contains(where: { fnmatch($0, name, 0) == 0 }) {
                    matched.append(full)
                } else {
                    unmatched.append(full)
                }
            }
        }
        return (matched, unmatched)
    }

    /// How long after its last change a file whose last line has no newline is taken to be still being written.
    package static let settleSeconds: Int64 = 300

    /// Whether the file looks like one an exporter is still writing: it changed less than ``settleSeconds`` before
    /// `now` (Unix ms) and its last byte is not a newline, so its last line may be cut. Gzip files are not judged
    /// (their end says nothing a line would). A file that cannot be examined is not judged either: the load names
    /// its problem.
    package static func isStillBeingWritten(_ path: String, now: Int64) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return false }
        let changed = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
        guard now - changed < settleSeconds * 1000 else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head: (UInt8, UInt8) = (0, 0)
        guard pread(descriptor, &head, 2, 0) == 2 || info.st_size < 2 else { return false }
        if head == (0x1F, 0x8B) { return false }
        var last: UInt8 = 0
        guard pread(descriptor, &last, 1, off_t(info.st_size - 1)) == 1 else { return false }
        return last != UInt8(ascii: "\n")
    }

    /// The SHA-256 of a file's bytes as stored (compressed or not), lowercase hex: what a load records in
    /// `source_files.sha256`. The file is read in 1 MiB chunks and not decompressed.
    /// - Throws: ``IngestError/cannotOpen(path:reason:)`` (a missing file, a directory, no permission) or
    ///   ``IngestError/readFailed(path:reason:)``, with the system's reason.
    package static func sha256(ofFile path: String) throws -> String {
        let source = try ByteSource(path: path)
        try source.skipToEnd()
        return source.sha256Hex()
    }

    /// The names in a directory, `.` and `..` excepted, in the order the system gives them.
    private static func names(inDirectory path: String) throws -> [String] {
        guard let directory = opendir(path) else {
            throw IngestError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw IngestError.readFailed(path: path, reason: String(cString: strerror(errno))) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
