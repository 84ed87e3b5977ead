import CZlib

/// Streaming gzip decompression with zlib. Concatenated gzip members (as `cat a.gz b.gz` makes) are read in turn.
final class Inflater {
    private var stream = z_stream()
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private let source: String
    private var memberEnded = false

    init(source: String) throws {
        self.source = source
        let status = czlib_inflate_init_gzip(&stream)
        guard status == Z_OK else {
            let reason = zError(status).map { String(cString: $0) } ?? "status \(status)"
            throw IngestError.readFailed(path: source, reason: "cannot initialise gzip decompression: \(reason)")
        }
    }

    deinit {
        inflateEnd(&stream)
    }

    var needsInput: Bool { inputOffset >= input.count }

    func supply(_ bytes: ArraySlice<UInt8>) {
        input = Array(bytes)
        inputOffset = 0
    }

    /// Inflates what input there is into `destination`.
    /// - Returns: whether any bytes were produced.
    func inflate(into destination: inout [UInt8]) throws -> Bool {
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
            break
        case Z_STREAM_END:
            memberEnded = true
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "code \(status)"
            throw IngestError.corruptCompression(path: source, reason: message)
        }
        destination.append(contentsOf: output[0..<produced])
        return produced > 0
    }

    /// Checks that the stream did not stop in the middle of a gzip member.
    func finish() throws {
        if !memberEnded && stream.total_in > 0 {
            throw IngestError.corruptCompression(path: source, reason: "the gzip stream is truncated")
        }
    }
}
