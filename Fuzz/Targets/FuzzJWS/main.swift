import AppStoreNotifications
import Crypto
import Foundation
import FuzzSupport

exit(runFuzzer(fuzzJWS))

/// A compact JWS as the loader splits and decodes it (``JWS/parse(bytes:)``), from arbitrary bytes, against a
/// reading of RFC 7515's compact serialization written here without the reader's shortcuts (its `memchr` search, its
/// cache of decoded headers, its hashing of a header's whole blocks once).
///
/// The properties, each a crash (and the input kept) when broken:
/// - the reader parses exactly the bytes the plain reading does: not empty, two dots, three parts that decode as
///   base64url, the first to a header `JSONDecoder` reads; otherwise it fails as the plain reading does, naming the
///   first part that is wrong in that order (the count of parts, the header's base64url, its JSON, the payload, the
///   signature);
/// - what it gives is what the plain reading gives: the header, payload and signature, and the signing input (the
///   bytes before the second dot); the signing input's SHA-256, begun from the cached hashing of the header, equals
///   the digest of the whole input;
/// - the same bytes parse alike a second time, when the header comes from the cache.
func fuzzJWS(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let expected = Plain.read(input)
    let first = Plain.outcome(of: input)
    precondition(first == expected, "the reader and the plain reading differ: \(first) against \(expected)")
    precondition(Plain.outcome(of: input) == first, "a second parse of the same bytes differs")
    return 0
}

/// What reading a JWS gives, to compare.
enum Outcome: Equatable, CustomStringConvertible {
    case parsed(header: JWSHeader, payload: Data, signature: Data, signingInput: [UInt8])
    case failed(JWSError)

    var description: String {
        switch self {
        case .parsed(let header, let payload, let signature, let signingInput):
            "parsed \(header), \(payload.count) + \(signature.count) bytes, signing input \(signingInput.count) bytes"
        case .failed(let error): "failed: \(error)"
        }
    }
}

enum Plain {
    /// The reader's outcome, with its digest checked against a digest of the signing input hashed whole.
    static func outcome(of input: [UInt8]) -> Outcome {
        let jws: JWS
        do {
            jws = try JWS.parse(bytes: input[...])
        } catch {
            return .failed(error)
        }
        let signingInput = Array(jws.signingInput)
        precondition(
            jws.signingInputDigest() == SHA256.hash(data: signingInput),
            "the signing input's digest, begun from the header's cached hashing, is not its SHA-256")
        return .parsed(
            header: jws.header, payload: jws.payload, signature: jws.signature, signingInput: signingInput)
    }

    /// The compact serialization read plainly: split at every dot, each part decoded in turn.
    static func read(_ input: [UInt8]) -> Outcome {
        guard !input.isEmpty else { return .failed(.empty) }
        let parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // The reader stops counting at the fourth part.
        guard parts.count == 3 else { return .failed(.wrongSegmentCount(min(parts.count, 4))) }
        guard let headerBytes = Base64URL.decode(parts[0]) else { return .failed(.badBase64(.header)) }
        guard let header = try? JSONDecoder().decode(JWSHeader.self, from: headerBytes) else {
            return .failed(.badHeader)
        }
        guard let payload = Base64URL.decode(parts[1]) else { return .failed(.badBase64(.payload)) }
        guard let signature = Base64URL.decode(parts[2]) else { return .failed(.badBase64(.signature)) }
        return .parsed(
            header: header, payload: payload, signature: signature,
            signingInput: Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1]))
    }
}
