/// Decompresses a whole gzip file held in memory: one member or several concatenated (RFC 1952, §2.2), as
/// `cat a.gz b.gz` makes them.
package enum Gunzip {
    /// Whether `bytes` start with the gzip magic number (1f 8b).
    package static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
    }

    /// The bytes the gzip members of `bytes` hold, in order.
    /// - Throws: ``GzipError`` with zlib's reason when the data is not gzip, is corrupt or stops inside a member.
    package static func decompress(_ bytes: [UInt8]) throws(GzipError) -> [UInt8] {
        let inflater = try GzipInflater()
        inflater.supply(bytes[...])
        var output: [UInt8] = []
        while !inflater.needsInput {
            _ = try inflater.inflate(into: &output)
        }
        try inflater.finish()
        return output
    }
}
