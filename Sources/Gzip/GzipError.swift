/// Why zlib could not compress or decompress: its own words and status.
package struct GzipError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed, with zlib's reason, e.g. "zlib could not start compressing: stream error (status -2)".
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
