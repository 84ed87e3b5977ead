import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Finding export files, hashing them, and the `latest` link of the reports directory.
enum ExportFiles {
    /// Files given directly, plus the regular, non-hidden files of given directories whose names match one of
    /// `patterns`, each directory's files sorted by name.
    static func expand(_ paths: [String], glob patterns: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            for name in names where !name.hasPrefix(".") && patterns.contains(where: { fnmatch($0, name, 0) == 0 }) {
                let full = (path as NSString).appendingPathComponent(name)
                var childIsDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory), !childIsDirectory.boolValue {
                    files.append(full)
                }
            }
        }
        return files
    }

    /// The SHA-256 of a file's bytes as stored, streamed in 1 MiB reads.
    static func sha256(of path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Points `root/latest` at `name` (a relative symbolic link), replacing any previous link atomically.
    static func pointLatest(in root: URL, at name: String) throws {
        let link = root.appendingPathComponent("latest").path
        let temporary = root.appendingPathComponent(".latest.\(getpid())").path
        unlink(temporary)
        guard symlink(name, temporary) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, link) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: link])
        }
    }
}
