import Analysis
import PGClient
import Store

/// The `billing_episodes` columns an ``Episode`` is read from, and how one row of them becomes an episode.
///
/// Shared by the COPY that reads a whole environment (``StoredDataset``), the parameterized query that reads a
/// filtered selection (``EpisodeQuery``) and the dating of grace periods (``EpisodeAnalyzer``): all see the same text
/// values, so all build the same episodes. The select list follows from the fields added here, and their types from
/// the table's declaration (``StoredTables/billingEpisodes``): times are read as Unix milliseconds.
struct StoredEpisodeColumns: Sendable {
    /// The columns read, in select-list order.
    let selection: PGSelection
    private let subscription: PGField
    private let sequence: PGField
    private let productID: PGField
    private let storefront: PGField
    private let start: PGField
    private let hasGrace: PGField
    private let graceEnd: PGField
    private let end: PGField
    private let outcome: PGField
    private let recoveryPrice: PGField
    private let recoveryCurrency: PGField
    private let offerType: PGField
    private let offerDiscountType: PGField
    private let trialConversion: PGField
    private let openingNotification: PGField
    private let closingNotification: PGField
    private let recoveredBy: PGField
    private let endInferred: PGField
    private let graceEndInferred: PGField
    private let stakePrice: PGField
    private let stakeCurrency: PGField
    private let bundleID: PGField
    private let appAccountToken: PGField
    private let revocationType: PGField
    private let revocationPercentage: PGField
    private let billingPlan: PGField
    private let installmentsAtRisk: PGField
    private let openingPrice: PGField
    private let periodDays: PGField
    private let provenRecovery: PGField
    /// `saved_in_grace` and `grace_days`, the grace decisions stored beside the episode; nil unless asked for.
    let graceDecisions: (savedInGrace: PGField, graceDays: PGField)?

    /// The columns of an episode, and with `withGraceDecisions` also `saved_in_grace` and `grace_days`.
    init(withGraceDecisions: Bool = false) {
        var selection = PGSelection(StoredTables.billingEpisodes)
        subscription = selection.add("original_transaction_id")
        sequence = selection.add("sequence")
        productID = selection.add("product_id")
        storefront = selection.add("storefront")
        start = selection.add("start_at")
        hasGrace = selection.add("has_grace")
        graceEnd = selection.add("grace_end")
        end = selection.add("end_at")
        outcome = selection.add("outcome")
        recoveryPrice = selection.add("recovery_price")
        recoveryCurrency = selection.add("recovery_currency")
        offerType = selection.add("offer_type")
        offerDiscountType = selection.add("offer_discount_type")
        trialConversion = selection.add("trial_conversion")
        openingNotification = selection.add("opening_notification_uuid")
        closingNotification = selection.add("closing_notification_uuid")
        recoveredBy = selection.add("recovered_by")
        endInferred = selection.add("end_inferred")
        graceEndInferred = selection.add("grace_end_inferred")
        stakePrice = selection.add("stake_price")
        stakeCurrency = selection.add("stake_currency")
        bundleID = selection.add("bundle_id")
        appAccountToken = selection.add("app_account_token")
        revocationType = selection.add("revocation_type")
        revocationPercentage = selection.add("revocation_percentage")
        billingPlan = selection.add("billing_plan")
        installmentsAtRisk = selection.add("installments_at_risk")
        openingPrice = selection.add("opening_price")
        periodDays = selection.add("period_days")
        provenRecovery = selection.add("proven_recovery_transaction_id")
        graceDecisions = withGraceDecisions ? (selection.add("saved_in_grace"), selection.add("grace_days")) : nil
        self.selection = selection
    }

    /// The columns of an episode.
    static let episode = StoredEpisodeColumns()

    /// The select list.
    var selectList: String { selection.list }

    /// The order episodes are read in: by subscription and sequence. Every read is of one environment, so this is
    /// the primary key's order, which the planner reads off the index rather than sorting the episodes, even before
    /// the statistics of a freshly rebuilt table are known.
    static let orderBy = "environment, original_transaction_id, sequence"

    /// One row of ``selection`` as an episode.
    /// - Throws: ``PGError`` of kind `unexpectedResult`, naming the column, when a required value is missing or
    ///   malformed.
    func episode(_ row: some PGFieldSource, environment: String) throws -> Episode {
        guard row.count == selection.count else {
            throw PGError(
                kind: .unexpectedResult,
                message: "a billing_episodes row has \(row.count) fields where \(selection.count) were selected")
        }
        let outcomeValue = try row.decode(Episode.Outcome.self, outcome)
        let recoveredByValue = try row.decode(Episode.RecoveredBy?.self, recoveredBy)
        let plan = try row.decode(Episode.BillingPlan.self, billingPlan)
        return Episode(
            subscription: try row.decode(String.self, subscription),
            sequence: try row.decode(Int.self, sequence),
            environment: environment,
            productId: try row.decode(String?.self, productID),
            storefront: try row.decode(String?.self, storefront),
            start: try row.decode(Int64.self, start),
            hasGrace: try row.decode(Bool.self, hasGrace),
            graceEnd: try row.decode(Int64?.self, graceEnd),
            end: try row.decode(Int64?.self, end),
            outcome: outcomeValue,
            recoveryPrice: try row.decode(Int64?.self, recoveryPrice),
            recoveryCurrency: try row.decode(String?.self, recoveryCurrency),
            recoveredBy: recoveredByValue,
            endInferred: try row.decode(Bool.self, endInferred),
            graceEndInferred: try row.decode(Bool.self, graceEndInferred),
            stakePrice: try row.decode(Int64?.self, stakePrice),
            stakeCurrency: try row.decode(String?.self, stakeCurrency),
            bundleId: try row.decode(String?.self, bundleID),
            openingNotificationUUID: try row.decode(String.self, openingNotification),
            closingNotificationUUID: try row.decode(String?.self, closingNotification),
            offerType: try row.decode(Int32?.self, offerType),
            offerDiscountType: try row.decode(String?.self, offerDiscountType),
            isTrialConversion: try row.decode(Bool.self, trialConversion),
            appAccountToken: try row.decode(String?.self, appAccountToken),
            revocationType: try row.decode(String?.self, revocationType),
            revocationPercentage: try row.decode(Int32?.self, revocationPercentage),
            billingPlan: plan,
            installmentsAtRisk: try row.decode(Int.self, installmentsAtRisk),
            openingPrice: try row.decode(Int64?.self, openingPrice),
            periodDays: try row.decode(Int?.self, periodDays),
            provenRecoveryTransactionId: try row.decode(String?.self, provenRecovery)
        )
    }
}
