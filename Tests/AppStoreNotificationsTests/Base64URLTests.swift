import AppStoreNotifications
import Foundation
import Testing

@Suite struct Base64URLTests {
    @Test(arguments: 0..<40)
    func roundTripsEveryLength(length: Int) throws {
        let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) })
        let text = Base64URL.encode(bytes)
        #expect(!text.contains("="))
        #expect(Base64URL.decode(text.utf8) == bytes)
        #expect(Base64URL.decode(Array(text.utf8)[...]) == bytes)
        #expect(Base64URL.decode(Data(text.utf8)) == bytes)
    }

    @Test func acceptsPaddingAndTheStandardAlphabet() {
        #expect(Base64URL.decode("-_8".utf8) == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("+/8".utf8) == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("-_8=".utf8) == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("".utf8) == Data())
    }

    @Test(arguments: ["A", "AAAAA", "AB.C", "AB C", "ABC\n", "AB=C", "é"])
    func refusesInvalidText(text: String) {
        #expect(Base64URL.decode(text.utf8) == nil)
    }

    /// Every byte outside both alphabets, at every place of a whole group and of a 2- or 3-character tail, and of
    /// the two groups read at a time in longer text.
    @Test func refusesEveryOtherByteAnywhere() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/".utf8)
        let valid = Array("QUJDREVGR0hJSktMTU5PUFFS".utf8)
        for byte in UInt8.min...UInt8.max where !alphabet.contains(byte) && byte != UInt8(ascii: "=") {
            for length in [6, 7, 8, 24] {
                for place in 0..<length {
                    var text = Array(valid.prefix(length))
                    text[place] = byte
                    #expect(Base64URL.decode(text) == nil, "byte \(byte) at \(place) of \(length)")
                }
            }
        }
        #expect(Base64URL.decode(valid) == Data("ABCDEFGHIJKLMNOPQR".utf8))
        #expect(Base64URL.decode(valid.prefix(8)) == Data("ABCDEF".utf8))
        #expect(Base64URL.decode(valid.prefix(7)) == Data("ABCDE".utf8))
        #expect(Base64URL.decode(valid.prefix(6)) == Data("ABCD".utf8))
    }

    @Test func decodesALargeSegmentExactly() {
        let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        #expect(Base64URL.decode(Base64URL.encode(bytes).utf8) == bytes)
    }

    /// Foundation's base64 with the URL alphabet and without padding is the reference.
    @Test func encodesAsFoundationWithTheURLAlphabet() {
        for length in 0..<200 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ length) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.encode(Data(bytes)) == expected)
            #expect(bytes.withUnsafeBytes { Base64URL.encodedUTF8($0) } == Array(expected.utf8))
        }
    }
}
