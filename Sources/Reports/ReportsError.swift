import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The error of the reports module: a report file could not be written, a previous report could not be read, or a
/// file the user gave (exchange rates) is not usable.
package struct ReportsError: Error, CustomStringConvertible, Sendable {
    /// What was being done, such as "writing the report" or "reading the previous report".
    package var operation: String
    /// The file or directory concerned.
    package var path: String
    /// The 1-based line of `path` the problem is on, when it is on one line.
    package var line: Int?
    package var reason: String

    package init(operation: String, path: String, line: Int? = nil, reason: String) {
        self.operation = operation
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var description: String {
        "\(operation): \(path)" + (line.map { ", line \($0)" } ?? "") + ": \(reason)"
    }

    /// The system's words for a file-system failure Foundation reports: `strerror` of the POSIX error beneath a
    /// Cocoa error (Foundation's own text on Linux is a bare "NSCocoaErrorDomain error 512"), else its description.
    package static func systemReason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
