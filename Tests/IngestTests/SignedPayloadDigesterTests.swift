import Foundation
import TestSupport
import Testing

@testable import Ingest

/// The signed payloads' digests taken line after line, with a header's hashing shared between the tokens that carry
/// it, are the SHA-256 of each token's bytes, whatever came before.
@Suite struct SignedPayloadDigesterTests {
    @Test func eachDigestIsTheTokensSHA256() throws {
        let signer = try TestSigner()
        let other = try TestSigner()
        var tokens: [[UInt8]] = []
        for index in 0..<4 {
            let uuid = UUID().uuidString.lowercased()
            let token = try (index == 2 ? other : signer).notification(
                uuid: uuid, signedDate: 1_711_843_260_000 + Int64(index) * 60_000,
                transaction: ["originalTransactionId": "sub-\(index)", "transactionId": "tx-\(index)"],
                renewal: ["originalTransactionId": "sub-\(index)"]
            )
            tokens.append(Array(token.utf8))
        }
        let first = try #require(tokens.first)
        let dot = try #require(first.firstIndex(of: UInt8(ascii: ".")))
        #expect(dot >= 128, "the header spans whole blocks")
        // The same header but one byte in its first block: the kept hashing must not be reused.
        var changed = first
        changed[10] = changed[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        tokens.append(changed)
        // The same token again, after the changed one; a header shorter than a block; no dot at all.
        tokens.append(first)
        tokens.append(Array("eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln".utf8))
        tokens.append(Array(repeating: UInt8(ascii: "A"), count: 300))

        var digester = SignedPayloadDigester()
        for token in tokens {
            // Inside a line, as the reader finds it.
            let line = Array(#"{"signedPayload":""#.utf8) + token + Array(#""}"#.utf8)
            let range = 18..<(18 + token.count)
            #expect(digester.digest(of: line, token: range) == StoredPayloads.digest(of: token[...]))
        }
    }
}
