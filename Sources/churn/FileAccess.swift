import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file named on the command line cannot be used, in the system's words, for the command's messages.
enum FileAccess {
    /// Why `path` cannot be read (`access(2)` and `strerror`); nil when it can.
    static func problem(reading path: String) -> String? {
        access(path, R_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Why `path` cannot be read as a file: the reasons of ``problem(reading:)``, or that it is a directory.
    static func problem(readingFile path: String) -> String? {
        if let problem = problem(reading: path) { return problem }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        return nil
    }

    /// Why `directory` cannot be written to; nil when it can.
    static func problem(writingTo directory: String) -> String? {
        access(directory, W_OK) == 0 ? nil : String(cString: strerror(errno))
    }
}
