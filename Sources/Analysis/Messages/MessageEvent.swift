/// One event of an app's message log (METRICS.md v2.2, "Billing messages the app showed"): the App Store's
/// billing-issue sheet shown, deferred or suppressed at a moment, for a subscription named by its original
/// transaction id or by the customer's `appAccountToken`.
///
/// The App Store sends no notification when the sheet shows: only the app knows, through StoreKit's `Message` API, and
/// only a log the app keeps says it.
package struct MessageEvent: Hashable, Sendable {
    /// What the app did with the sheet.
    package enum Action: String, CaseIterable, Sendable {
        /// The sheet was shown.
        case shown
        /// The app kept the sheet for later.
        case deferred
        /// The app decided not to show it (a holdout arm, say).
        case suppressed
    }

    package var originalTransactionId: String?
    /// The token as a lowercase UUID (``token(_:)``), so that it compares with the tokens of the notifications
    /// whatever case the app wrote.
    package var appAccountToken: String?
    /// Unix milliseconds.
    package var at: Int64
    package var action: Action
    /// The experiment arm the app put the customer in; nil outside an experiment.
    package var arm: String?

    package init(
        originalTransactionId: String?, appAccountToken: String?, at: Int64, action: Action, arm: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.at = at
        self.action = action
        self.arm = arm
    }

    /// A UUID in its 8-4-4-4-12 hexadecimal form, lowercase (Swift's `UUID.uuidString` writes uppercase, the App
    /// Store lowercase); nil for any other text.
    package static func token(_ text: some StringProtocol) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lowered.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(byte + 32)
            default: return nil
            }
        }
        return String(decoding: lowered, as: UTF8.self)
    }
}
