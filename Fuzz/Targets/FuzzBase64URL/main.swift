import Foundation
import FuzzSupport

exit(runFuzzer(fuzzBase64URL))

/// base64url as the JWS reader decodes it (``Base64URL``, the root package's file, linked here), from arbitrary bytes.
///
/// The properties, each a crash (and the input kept) when broken:
/// - text it decodes holds only characters of either alphabet, before any `=` padding, and not a length of 4n + 1;
/// - the standard alphabet's `+` and `/` decode as `-` and `_` do;
/// - what it decodes, encoded again and decoded, gives the same bytes; and any bytes, encoded (both ways) and
///   decoded, give themselves back.
func fuzzBase64URL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let decoded = Base64URL.decode(input)

    var end = input.count
    while end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
    let text = input[..<end]
    let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/".utf8)
    if decoded != nil {
        precondition(text.allSatisfy(alphabet.contains), "decoded text with a character of neither alphabet")
        precondition(text.count % 4 != 1, "decoded text of length 4n + 1")
    }
    let urlAlphabet = input.map { byte -> UInt8 in
        switch byte {
        case UInt8(ascii: "+"): UInt8(ascii: "-")
        case UInt8(ascii: "/"): UInt8(ascii: "_")
        default: byte
        }
    }
    precondition(Base64URL.decode(urlAlphabet) == decoded, "+ and / decode otherwise than - and _")
    if let decoded {
        precondition(Base64URL.decode(Array(Base64URL.encode(decoded).utf8)) == decoded, "decoded bytes round trip")
    }

    let encoded = Base64URL.encode(input)
    precondition(
        input.withUnsafeBytes { Base64URL.encodedUTF8($0) } == Array(encoded.utf8), "the two encoders differ")
    precondition(encoded.utf8.count == (input.count * 4 + 2) / 3, "the encoding's length")
    precondition(Base64URL.decode(Array(encoded.utf8)) == Data(input), "bytes encoded and decoded")
    return 0
}
