import AppStoreNotifications

extension Rejection.Reason {
    /// The quarantine reason of a decoding failure: the code of the same name.
    package init(_ reason: NotificationDecodingError.Reason) {
        switch reason {
        case .notJWS: self = .notJWS
        case .badBase64: self = .badBase64
        case .badHeader: self = .badHeader
        case .badJSON: self = .badJSON
        case .wrongType: self = .wrongType
        case .badValue: self = .badValue
        case .missingField: self = .missingField
        }
    }

    /// The quarantine reason of a refused signature: the code of the same name. Every reason has its own case, so
    /// a reason added to ``JWSVerificationError`` does not compile until it has one here.
    package init(_ reason: JWSVerificationError.Reason) {
        switch reason {
        case .badAlgorithm: self = .badAlgorithm
        case .missingX5C: self = .missingX5C
        case .badCertificate: self = .badCertificate
        case .wrongOID: self = .wrongOID
        case .untrustedChain: self = .untrustedChain
        case .certificateNotValidAtSignedDate: self = .certificateNotValidAtSignedDate
        case .badSignature: self = .badSignature
        }
    }
}
