import AppStoreNotifications
import Simulator
import Testing

@Suite struct Base64URLEncoderTests {
    @Test func matchesBase64URL() {
        var generator = SplitMix64(seed: 3)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let encoded = Base64URLEncoder.encode(bytes)
            #expect(String(decoding: encoded, as: UTF8.self) == Base64URL.encode(bytes))
        }
    }
}
