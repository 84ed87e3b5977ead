import FuzzSupport
import Gzip

exit(runFuzzer(fuzzGzip))

/// gzip as the fetch's history files and the simulator's exports are read (``Gunzip``, ``GzipInflater``), from
/// arbitrary bytes.
///
/// The properties, each a crash (and the input kept) when broken:
/// - the same bytes supplied in two chunks (split where the first byte says) inflate to what the whole does, or
///   fail as it does;
/// - any bytes, compressed as a member (``GzipMember``), decompress to themselves, and two members concatenated to
///   the bytes twice.
func fuzzGzip(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let whole = Result { () throws(GzipError) in try Gunzip.decompress(input) }
    let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    let chunked = Result { () throws(GzipError) in try inflateInChunks(input[..<split], input[split...]) }
    switch (whole, chunked) {
    case (.success(let a), .success(let b)):
        precondition(a == b, "\(a.count) bytes whole, \(b.count) in two chunks split at \(split)")
    case (.failure, .failure):
        break
    default:
        preconditionFailure("whole: \(whole.map(\.count)), in two chunks split at \(split): \(chunked.map(\.count))")
    }

    let once: [UInt8]
    let twice: [UInt8]
    do {
        let member = try GzipMember.compress(input)
        once = try Gunzip.decompress(member)
        twice = try Gunzip.decompress(member + member)
    } catch {
        preconditionFailure("compressing and decompressing \(input.count) bytes: \(error)")
    }
    precondition(once == input, "a member of the bytes")
    precondition(twice == input + input, "two members of the bytes")
    return 0
}

/// What ``GzipInflater`` makes of `first` then `second`, supplied one after the other as a file's reads are.
func inflateInChunks(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) throws(GzipError) -> [UInt8] {
    let inflater = try GzipInflater()
    var output: [UInt8] = []
    for chunk in [first, second] where !chunk.isEmpty {
        inflater.supply(chunk)
        while !inflater.needsInput {
            _ = try inflater.inflate(into: &output)
        }
    }
    try inflater.finish()
    return output
}
