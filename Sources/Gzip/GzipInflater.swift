import CZlib

/// Streaming gzip decompression with zlib: input supplied a chunk at a time, output appended as it comes.
/// Concatenated gzip members (as `cat a.gz b.gz` makes) are read in turn.
package final class GzipInflater {
    private var stream = z_stream()
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private var memberEnded = false

    /// - Throws: ``GzipError`` when zlib cannot start.
    package init() throws(GzipError) {
        let status = czlib_inflate_init_gzip(&stream)
        guard status == Z_OK else {
            let reason = zError(status).map { String(cString: $0) } ?? "status \(status)"
            throw GzipError(reason: "cannot initialise gzip decompression: \(reason)")
        }
    }

    deinit {
        inflateEnd(&stream)
    }

    /// Whether the input supplied is used up.
    package var needsInput: Bool { inputOffset >= input.count }

    /// The next input chunk, once the one before is used up.
    package func supply(_ bytes: ArraySlice<UInt8>) {
        input = Array(bytes)
        inputOffset = 0
    }

    /// Inflates what input there is into `destination`.
    /// - Returns: whether any bytes were produced.
    /// - Throws: ``GzipError`` with zlib's reason when the data is corrupt, or when nothing can be inflated from
    ///   the input left (a stream cut inside a member's header).
    package func inflate(into destination: inout [UInt8]) throws(GzipError) -> Bool {
        guard !needsInput else { return false }
        if memberEnded {
            // Another gzip member follows the one that ended.
            inflateReset(&stream)
            memberEnded = false
        }
        let (status, produced, consumed) = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress.map { $0 + inputOffset }
                stream.avail_in = UInt32(inputBuffer.count - inputOffset)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                let produced = outputBuffer.count - Int(stream.avail_out)
                let consumed = inputBuffer.count - inputOffset - Int(stream.avail_in)
                return (status, produced, consumed)
            }
        }
        inputOffset += consumed
        switch status {
        case Z_OK, Z_BUF_ERROR:
            guard produced > 0 || consumed > 0 else { throw GzipError(reason: "the gzip stream is truncated") }
        case Z_STREAM_END:
            memberEnded = true
        default:
            throw GzipError(reason: stream.msg.map { String(cString: $0) } ?? "code \(status)")
        }
        destination.append(contentsOf: output[0..<produced])
        return produced > 0
    }

    /// Checks, at the end of the input, that the stream did not stop in the middle of a gzip member.
    /// - Throws: ``GzipError`` when it did.
    package func finish() throws(GzipError) {
        if !memberEnded && stream.total_in > 0 {
            throw GzipError(reason: "the gzip stream is truncated")
        }
    }
}
