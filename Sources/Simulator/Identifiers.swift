import Analysis

/// The simulator's identifiers: numeric strings shaped like Apple's, unique per account and purchase, and UUIDs.
///
/// Accounts are numbered from the subscriber's index: `4 · index` for the purchaser, `+ 1 … + 3` for family members.
/// A seed-dependent offset keeps exports with different seeds from sharing identifiers.
struct Identifiers: Hashable, Sendable {
    /// Family members per subscriber at most (accounts per subscriber, minus the purchaser).
    static let maximumFamilyMembers = 3
    /// Transactions per account at most: a weekly subscription renews 520 times in ten years.
    static let maximumTransactions: Int64 = 1000
    private let offset: Int64

    init(seed: UInt64) {
        // Below 9 · 10¹⁴, so every transaction id keeps 16 digits.
        self.offset = Int64(SplitMix64.mix(seed) % 900) * 1_000_000_000_000
    }

    static func account(subscriber: Int, member: Int) -> Int64 {
        Int64(subscriber) * Int64(maximumFamilyMembers + 1) + Int64(member)
    }

    /// `transactionId` of the account's `sequence`-th purchase (0: the original one, so also the
    /// `originalTransactionId`). 16 digits starting with 2, like Apple's.
    func transactionId(account: Int64, sequence: Int) -> String {
        String(2_000_000_000_000_000 + offset + account * Self.maximumTransactions + Int64(sequence))
    }

    /// `webOrderLineItemId` of the account's `sequence`-th billing period. 16 digits starting with 1.
    func webOrderLineItemId(account: Int64, sequence: Int) -> String {
        String(1_000_000_000_000_000 + offset + account * Self.maximumTransactions + Int64(sequence))
    }

    /// `appTransactionId` of the account: 18 digits starting with 704.
    func appTransactionId(account: Int64) -> String {
        String(704_000_000_000_000_000 + offset + account)
    }

    /// A random (version 4) UUID in lowercase text, as Apple writes `notificationUUID`.
    static func uuid(_ generator: inout SplitMix64) -> String {
        var bytes = withUnsafeBytes(of: generator.next().bigEndian, Array.init)
        bytes += withUnsafeBytes(of: generator.next().bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
