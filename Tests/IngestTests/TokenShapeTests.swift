import Foundation
import TestSupport
import Testing

@testable import Ingest

/// How the loader recognises a line that is a token, or `{"signedPayload":"<token>"}`, without a JSON parser: the
/// bytes before the first dot are all token characters, and there is one before it.
@Suite struct TokenShapeTests {
    /// The rule as written, one byte at a time.
    private static func looksLikeToken(_ bytes: [UInt8]) -> Bool {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        return bytes[..<dot].allSatisfy(RecordShape.isTokenCharacter)
    }

    /// Headers of every length up to a few words, with the dot, a quote, a backslash or another stranger at every
    /// place, agree with the rule.
    @Test func theShapeCheckFollowsTheRuleAtEveryPlace() {
        let alphabet = Array("ABCXYZabcxyz0189-_=+/".utf8)
        let strangers = Array("\"\\ {}\t,:é".utf8) + [0, 0x7F, 0xFF]
        var random = SeededRandom(seed: 7)
        var checked = 0
        var tokens = 0
        for length in 0..<40 {
            var header = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let body = Array(".eyJh.c2ln".utf8)
            var lines = [header + body, header]
            for place in 0..<length {
                let kept = header[place]
                for stranger in strangers + [UInt8(ascii: ".")] {
                    header[place] = stranger
                    lines.append(header + body)
                }
                header[place] = kept
            }
            for line in lines {
                let expected = Self.looksLikeToken(line)
                #expect((RecordShape.bareToken(line, 0..<line.count) != nil) == expected, "\(line)")
                let envelope = Array(#"{"signedPayload":""#.utf8) + line + Array(#""}"#.utf8)
                let found = RecordShape.fastSignedPayload(envelope, 0..<envelope.count)
                #expect(found == (expected ? 18..<(18 + line.count) : nil), "\(line)")
                checked += 1
                tokens += expected ? 1 : 0
            }
        }
        #expect(checked > 10_000 && tokens > 50)
    }
}
