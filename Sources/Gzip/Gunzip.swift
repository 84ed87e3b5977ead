import CZlib

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
        var stream = z_stream()
        let started = czlib_inflate_init_gzip(&stream)
        guard started == Z_OK else {
            throw GzipError(reason: "zlib could not start decompressing (status \(started))")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        var memberEnded = false
        // zlib's next_in is not const in its C declaration: a mutable copy to point into.
        var input = bytes
        while offset < input.count {
            if memberEnded {
                inflateReset(&stream)
                memberEnded = false
            }
            let (status, produced, consumed) = input.withUnsafeMutableBufferPointer { inputBuffer in
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_in = inputBuffer.baseAddress.map { $0 + offset }
                    stream.avail_in = uInt(inputBuffer.count - offset)
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (
                        status, chunkBuffer.count - Int(stream.avail_out),
                        inputBuffer.count - offset - Int(stream.avail_in)
                    )
                }
            }
            output.append(contentsOf: chunk[0..<produced])
            offset += consumed
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                memberEnded = true
            case Z_BUF_ERROR where consumed == 0 && produced == 0:
                throw GzipError(reason: "the gzip stream is truncated")
            case Z_BUF_ERROR:
                continue
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw GzipError(reason: "the gzip data is corrupt: \(detail)")
            }
        }
        guard memberEnded || bytes.isEmpty else {
            throw GzipError(reason: "the gzip stream is truncated")
        }
        return output
    }
}
