#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file named on the command line cannot be used, in the system's words, for the messages of `validate()`.
enum FileAccess {
    /// Why `path` cannot be read (`access(2)` and `strerror`); nil when it can.
    static func problem(reading path: String) -> String? {
        access(path, R_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Why `directory` cannot be written to; nil when it can.
    static func problem(writingTo directory: String) -> String? {
        access(directory, W_OK) == 0 ? nil : String(cString: strerror(errno))
    }
}
