import AppStoreNotifications
import Foundation
import FuzzSupport

exit(runFuzzer(fuzzRecordLine))

/// An export line as the loader first reads it: the two shapes recognised on its bytes (``RecordShape``, the root
/// package's file, linked here), a bare compact JWS and `{"signedPayload":"<token>"}`, against `JSONDecoder`, which
/// reads every other line.
///
/// The properties, each a crash (and the input kept) when broken:
/// - a bare token the shapes find is the whole line but for surrounding spaces, tabs and carriage returns, and
///   holds only token characters before its first dot, which is not its first byte;
/// - an envelope the shapes find is the trimmed line, exactly `{"signedPayload":"`, the token and `"}`; and
///   `JSONDecoder` reads the same line as an object whose `signedPayload` is a string that splits and decodes as a
///   JWS (``JWS/parse(bytes:)``) exactly when the token the shapes found does, to the same header, payload,
///   signature and signing input: the shortcut never reads a line otherwise than the JSON path would.
func fuzzRecordLine(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let line = Array(UnsafeBufferPointer(start: start, count: count))
    let trimmed = RecordShape.trimmedRange(line)
    if let token = RecordShape.bareToken(line, trimmed) {
        precondition(token == trimmed, "a bare token that is not the trimmed line")
        let dot = line[token].firstIndex(of: UInt8(ascii: "."))
        precondition(dot.map { $0 > token.lowerBound } == true, "a bare token without a dot after its first byte")
        precondition(
            line[token.lowerBound..<(dot ?? token.lowerBound)].allSatisfy(RecordShape.isTokenCharacter),
            "a bare token with other characters before its first dot")
    }
    guard let token = RecordShape.fastSignedPayload(line, trimmed) else { return 0 }
    let prefix = Array(#"{"signedPayload":""#.utf8)
    precondition(
        Array(line[trimmed]) == prefix + Array(line[token]) + Array(#""}"#.utf8),
        "an envelope the shapes found is not exactly the prefix, the token and the end")
    struct Envelope: Decodable { var signedPayload: String? }
    let decoded = try? JSONDecoder().decode(Envelope.self, from: Data(line[trimmed]))
    let viaJSON = decoded?.signedPayload.map { parsed(Array($0.utf8)[...]) }
    let viaShape = parsed(line[token])
    if case .parts = viaShape {
        precondition(viaJSON == viaShape, "the shortcut reads a token the JSON path reads otherwise or not at all")
    } else if let viaJSON, case .parts = viaJSON {
        preconditionFailure("the JSON path reads a token the shortcut refuses")
    }
    return 0
}

/// A token split and decoded, or refused.
enum Parsed: Equatable {
    case parts(header: JWSHeader, payload: Data, signature: Data, signingInput: [UInt8])
    case refused
}

func parsed(_ token: ArraySlice<UInt8>) -> Parsed {
    guard let jws = try? JWS.parse(bytes: token) else { return .refused }
    return .parts(
        header: jws.header, payload: jws.payload, signature: jws.signature, signingInput: Array(jws.signingInput))
}
