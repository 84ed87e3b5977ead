import CZlib

/// Compresses a block of bytes into one complete gzip member (header, deflate data, CRC-32 and size).
///
/// Concatenated members form a valid gzip file (RFC 1952, §2.2) that `gunzip`, `zcat` and `churn load` read as
/// one stream, so blocks can be compressed on several threads and written in order. zlib writes no file name and a
/// zero modification time, so the output depends on the input alone.
enum GzipMember {
    /// zlib's level 1…9: 1 is fastest, 6 is zlib's default balance.
    static let defaultLevel: Int32 = 6

    /// The gzip member holding `bytes`.
    /// - Throws: ``SimulationError/output(path:reason:)`` when zlib fails (out of memory).
    static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) throws -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else {
            throw SimulationError.output(path: "gzip", reason: "zlib could not start compressing")
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
            throw SimulationError.output(path: "gzip", reason: "zlib stopped with status \(status)")
        }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
