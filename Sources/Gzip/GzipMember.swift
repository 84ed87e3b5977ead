import CZlib

/// Compresses a block of bytes into one complete gzip member (header, deflate data, CRC-32 and size).
///
/// Concatenated members form a valid gzip file (RFC 1952, §2.2) that `gunzip`, `zcat` and `churn load` read as
/// one stream, so blocks can be compressed on several threads and written in order (the simulator), and a file
/// appended to one member at a time is a whole gzip file after each member (the history fetch). zlib writes no file
/// name and a zero modification time, so the output depends on the input alone.
package enum GzipMember {
    /// zlib's level 1…9: 1 is fastest, 6 is zlib's default balance.
    package static let defaultLevel: Int32 = 6

    /// The gzip member holding `bytes`.
    /// - Parameter level: zlib's compression level.
    /// - Throws: ``GzipError`` with zlib's reason when zlib fails (out of memory, or a level outside 0…9).
    package static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        let started = czlib_deflate_init_gzip(&stream, level)
        guard started == Z_OK else {
            throw GzipError(reason: "zlib could not start compressing: \(reason(started))")
        }
        defer { deflateEnd(&stream) }
        // deflateBound is for zlib wrapping; a gzip header and trailer take 12 more bytes.
        let capacity = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: capacity)
        let status = bytes.withUnsafeBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                // zlib only reads through next_in; its C declaration lacks the const.
                stream.next_in = inputBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            let detail = stream.msg.map { String(cString: $0) } ?? reason(status)
            throw GzipError(reason: "zlib stopped compressing: \(detail)")
        }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// zlib's words for a status code, with the code.
    private static func reason(_ status: Int32) -> String {
        "\(zError(status).map { String(cString: $0) } ?? "unknown error") (status \(status))"
    }
}
