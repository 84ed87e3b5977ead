/// Why a compact JWS could not be split or decoded.
package enum JWSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which of the three parts of a compact JWS.
    package enum Segment: String, Sendable {
        case header, payload, signature
    }

    case empty
    case wrongSegmentCount(Int)
    case badBase64(Segment)
    case badHeader

    package var description: String {
        switch self {
        case .empty:
            return "the JWS is empty"
        case .wrongSegmentCount(let count):
            return "a compact JWS has 3 dot-separated parts, this one has \(count)"
        case .badBase64(let segment):
            return "the JWS \(segment.rawValue) is not valid base64url"
        case .badHeader:
            return "the JWS header is not a JSON object with string fields alg, x5c, typ, kid"
        }
    }
}
