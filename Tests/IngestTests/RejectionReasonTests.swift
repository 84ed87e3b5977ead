import AppStoreNotifications
import Ingest
import Testing

/// Decoding and verification failures are quarantined under their own codes.
@Suite struct RejectionReasonTests {
    @Test(arguments: NotificationDecodingError.Reason.allCases)
    func aDecodingFailureKeepsItsCode(reason: NotificationDecodingError.Reason) {
        #expect(Rejection.Reason(reason).rawValue == reason.rawValue)
    }

    @Test(arguments: JWSVerificationError.Reason.allCases)
    func aRefusedSignatureKeepsItsCode(reason: JWSVerificationError.Reason) {
        #expect(Rejection.Reason(reason).rawValue == reason.rawValue)
    }
}
