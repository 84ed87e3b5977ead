import AppStoreNotifications
import Foundation
import NotificationTypes
import Testing

@Suite struct OpenEnumTests {
    @Test func wrapsKnownAndUnknownRawValues() {
        #expect(OpenEnum<NotificationTypeV2>(rawValue: "DID_RENEW") == .known(.didRenew))
        #expect(OpenEnum<NotificationTypeV2>(rawValue: "SOMETHING_NEW") == .unknown("SOMETHING_NEW"))
        #expect(OpenEnum<Status>(rawValue: 4).known == .billingGracePeriod)
        #expect(OpenEnum<Status>(rawValue: 42).known == nil)
        #expect(OpenEnum<Status>(rawValue: 42).rawValue == 42)
    }

    @Test func equalityAndHashingFollowTheRawValue() {
        let spelledOut = OpenEnum<NotificationTypeV2>.unknown("DID_RENEW")
        #expect(spelledOut == .known(.didRenew))
        #expect(spelledOut.known == .didRenew)
        #expect(Set([spelledOut, .known(.didRenew)]).count == 1)
    }

    @Test func encodesTheBareRawValue() throws {
        let encoder = NotificationDecoder.makeJSONEncoder()
        let values: [OpenEnum<NotificationTypeV2>] = [.known(.didFailToRenew), .unknown("BRAND_NEW")]
        #expect(String(decoding: try encoder.encode(values), as: UTF8.self) == #"["DID_FAIL_TO_RENEW","BRAND_NEW"]"#)
        let numbers: [OpenEnum<ExpirationIntent>] = [.known(.billingError), .unknown(9)]
        #expect(String(decoding: try encoder.encode(numbers), as: UTF8.self) == "[2,9]")
    }

    @Test func decodesUnknownValues() throws {
        let decoder = NotificationDecoder.makeJSONDecoder()
        let values = try decoder.decode([OpenEnum<Subtype>].self, from: Data(#"["GRACE_PERIOD","NEXT_YEAR"]"#.utf8))
        #expect(values == [.known(.gracePeriod), .unknown("NEXT_YEAR")])
    }

    @Test func describesItselfByRawValue() {
        #expect(OpenEnum<Environment>.known(.sandbox).description == "Sandbox")
        #expect(OpenEnum<OfferType>.unknown(7).description == "7")
    }
}
