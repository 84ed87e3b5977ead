import Analysis
import PGClient

/// The `billing_episodes` columns an ``Episode`` is read from, and how one row of them becomes an episode.
///
/// Shared by the COPY that reads a whole environment (``StoredDataset``) and the parameterized query that reads a
/// filtered selection (``EpisodeQuery``): both see the same text values, so both build the same episodes.
enum StoredEpisodeColumns {
    /// The select list, in the order ``episode(_:environment:)`` reads it; times as Unix milliseconds.
    static let selectList = """
        original_transaction_id, sequence, product_id, storefront, (date_part('epoch', start_at) * 1000)::int8, \
        has_grace, (date_part('epoch', grace_end) * 1000)::int8, (date_part('epoch', end_at) * 1000)::int8, \
        outcome, recovery_price, recovery_currency, offer_type, offer_discount_type, trial_conversion, \
        opening_notification_uuid, closing_notification_uuid, recovered_by, end_inferred, grace_end_inferred, \
        stake_price, stake_currency, bundle_id, app_account_token
        """

    /// How many columns ``selectList`` names.
    static let count = 23

    /// The order episodes are read in.
    static let orderBy = "original_transaction_id, sequence"

    /// One row (text values, nil for NULL) as an episode.
    /// - Throws: ``PGError`` of kind `unexpectedResult` when a required value is missing or malformed.
    static func episode(_ field: [String?], environment: String) throws -> Episode {
        guard field.count == count, let subscription = field[0], let sequence = field[1].flatMap({ Int($0) }),
            let start = field[4].flatMap({ Int64($0) }), let outcomeText = field[8],
            let outcome = Episode.Outcome(rawValue: outcomeText), let opening = field[14]
        else {
            throw PGError(kind: .unexpectedResult, message: "a billing_episodes row has an unexpected shape")
        }
        var recoveredBy: Episode.RecoveredBy?
        if let text = field[16] {
            guard let value = Episode.RecoveredBy(rawValue: text) else {
                throw PGError(kind: .unexpectedResult, message: "a billing_episodes row has recovered_by '\(text)'")
            }
            recoveredBy = value
        }
        return Episode(
            subscription: subscription,
            sequence: sequence,
            environment: environment,
            productId: field[2],
            storefront: field[3],
            start: start,
            hasGrace: field[5] == "t",
            graceEnd: field[6].flatMap { Int64($0) },
            end: field[7].flatMap { Int64($0) },
            outcome: outcome,
            recoveryPrice: field[9].flatMap { Int64($0) },
            recoveryCurrency: field[10],
            recoveredBy: recoveredBy,
            endInferred: field[17] == "t",
            graceEndInferred: field[18] == "t",
            stakePrice: field[19].flatMap { Int64($0) },
            stakeCurrency: field[20],
            bundleId: field[21],
            openingNotificationUUID: opening,
            closingNotificationUUID: field[15],
            offerType: field[11].flatMap { Int32($0) },
            offerDiscountType: field[12],
            isTrialConversion: field[13] == "t",
            appAccountToken: field[22]
        )
    }
}
