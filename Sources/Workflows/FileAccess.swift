import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file named on the command line cannot be used, in the system's words, for the command's messages.
package enum FileAccess {
    /// Why `path` cannot be read (`access(2)` and `strerror`); nil when it can.
    package static func problem(reading path: String) -> String? {
        access(path, R_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Why `path` cannot be read as a file: the reasons of ``problem(reading:)``, or that it is a directory.
    package static func problem(readingFile path: String) -> String? {
        if let problem = problem(reading: path) { return problem }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        return nil
    }

    /// The bytes of a file the user named; `name` says which in the error (`schedule file s.txt`).
    /// - Throws: ``WorkflowError/unreadableInput(name:reason:)`` with the reason of ``problem(readingFile:)``.
    package static func contents(ofFile path: String, name: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WorkflowError.unreadableInput(name: name, reason: problem(readingFile: path) ?? "unreadable")
        }
        return data
    }

    /// `path` made absolute from the current directory, with `.`, `..` and symbolic links resolved: two spellings of
    /// one file give the same text.
    package static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Why `directory` cannot be written to; nil when it can.
    package static func problem(writingTo directory: String) -> String? {
        access(directory, W_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Why `directory` cannot be created and written to: the reason of its nearest existing part (itself or a
    /// parent), which must be a directory the user may write to; nil when `mkdir -p` and a write would work.
    package static func problem(creatingIn directory: String) -> String? {
        var candidate = URL(fileURLWithPath: directory.isEmpty ? "." : directory).standardizedFileURL
        while true {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { return "\(candidate.path) is a file, not a directory" }
                return problem(writingTo: candidate.path)
            }
            if candidate.path == "/" { return nil }
            candidate = candidate.deletingLastPathComponent()
        }
    }
}

extension FileAccess {
    /// Checks that every one of `paths` can be read (with `asFiles`, read as files, not directories).
    /// - Throws: ``WorkflowError/unreadableInput(name:reason:)`` for the first that cannot.
    package static func requireReadable(_ paths: [String], asFiles: Bool = false) throws(WorkflowError) {
        for path in paths {
            if let problem = asFiles ? problem(readingFile: path) : problem(reading: path) {
                throw .unreadableInput(name: path, reason: problem)
            }
        }
    }
}
