import Analysis
import Reports
import TestSupport

/// A small hand-made export with every outcome, grace saves in two currencies, open and unresolved episodes, an
/// orphan, a family-shared and a Sandbox notification, a resend, ordinary renewals, a notification after the as-of
/// time, and a product id with a `|` in it. Report as of 2024-07-01 in Production.
enum Sample {
    static let asOf = T.july1
    static let monthly = "com.example.monthly"
    /// A `|` that the Markdown must escape and a `,` that the CSV must quote.
    static let annual = "com.example.annual|promo,2024"
    static let rejections = ["bad_signature": 2, "not_json": 1]

    static func event(
        _ uuid: String,
        _ type: String,
        _ subtype: String? = nil,
        at signed: Int64,
        subscription: String?,
        environment: String = "Production",
        product: String = monthly,
        expires: Int64? = nil,
        purchase: Int64? = nil,
        grace: Int64? = nil,
        price: Int64? = nil,
        currency: String? = nil,
        ownership: String = "PURCHASED"
    ) -> NotificationEvent {
        NotificationEvent(
            notificationUUID: uuid, notificationType: type, subtype: subtype, signedDate: signed,
            environment: environment, originalTransactionId: subscription,
            transactionId: subscription.map { $0 + "-tx" }, productId: product, storefront: "USA",
            purchaseDate: purchase, expiresDate: expires, price: price, currency: currency,
            inAppOwnershipType: ownership, gracePeriodExpiresDate: grace)
    }

    static let events: [NotificationEvent] = [
        // S01, March: grace, recovered after 2 days inside grace (USD 9.99); then an ordinary renewal in April.
        event(
            "s01-1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: T.march1 + 2 * T.day + T.minute, subscription: "S01",
            expires: T.march1 + 2 * T.day, grace: T.march1 + 18 * T.day),
        event(
            "s01-2", "DID_RENEW", "BILLING_RECOVERY", at: T.march1 + 4 * T.day + T.minute, subscription: "S01",
            purchase: T.march1 + 4 * T.day, price: 9990, currency: "USD"),
        // The same notification resent: counts once.
        event(
            "s01-2", "DID_RENEW", "BILLING_RECOVERY", at: T.march1 + 4 * T.day + T.minute, subscription: "S01",
            purchase: T.march1 + 4 * T.day, price: 9990, currency: "USD"),
        event("s01-3", "DID_RENEW", at: T.april1 + 4 * T.day, subscription: "S01", purchase: T.april1 + 4 * T.day),
        // S02, March: grace lost, recovered after 23 days.
        event(
            "s02-1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: T.march1 + 9 * T.day + T.minute, subscription: "S02",
            expires: T.march1 + 9 * T.day, grace: T.march1 + 25 * T.day),
        event("s02-2", "GRACE_PERIOD_EXPIRED", at: T.march1 + 25 * T.day + T.minute, subscription: "S02"),
        event(
            "s02-3", "DID_RENEW", "BILLING_RECOVERY", at: T.march1 + 32 * T.day + T.minute, subscription: "S02",
            purchase: T.march1 + 32 * T.day, price: 9990, currency: "USD"),
        // S03, March: no grace, expires after 60 days of retry.
        event(
            "s03-1", "DID_FAIL_TO_RENEW", at: T.march1 + 14 * T.day + T.minute, subscription: "S03",
            expires: T.march1 + 14 * T.day),
        event("s03-2", "EXPIRED", "BILLING_RETRY", at: T.march1 + 74 * T.day, subscription: "S03"),
        // S04, April: cancelled after 6 days.
        event(
            "s04-1", "DID_FAIL_TO_RENEW", at: T.april1 + 3 * T.day + T.minute, subscription: "S04",
            expires: T.april1 + 3 * T.day),
        event(
            "s04-2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: T.april1 + 9 * T.day,
            subscription: "S04"),
        // S05, April, annual: grace, saved after 36 hours (EUR 49.99).
        event(
            "s05-1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: T.april1 + 19 * T.day + T.minute, subscription: "S05",
            product: annual, expires: T.april1 + 19 * T.day, grace: T.april1 + 35 * T.day),
        event(
            "s05-2", "DID_RENEW", "BILLING_RECOVERY", at: T.april1 + 20 * T.day + 12 * T.hour, subscription: "S05",
            product: annual, purchase: T.april1 + 20 * T.day + 12 * T.hour, price: 49_990, currency: "EUR"),
        // S06, April, annual: no grace, recovered after 15 days.
        event(
            "s06-1", "DID_FAIL_TO_RENEW", at: T.april1 + 24 * T.day + T.minute, subscription: "S06",
            product: annual, expires: T.april1 + 24 * T.day),
        event(
            "s06-2", "DID_RENEW", "BILLING_RECOVERY", at: T.april1 + 39 * T.day + T.minute, subscription: "S06",
            product: annual, purchase: T.april1 + 39 * T.day, price: 49_990, currency: "EUR"),
        // S07, April: refunded during retry (other).
        event("s07-1", "DID_FAIL_TO_RENEW", at: T.april1 + T.minute, subscription: "S07", expires: T.april1),
        event("s07-2", "REFUND", at: T.april1 + 11 * T.day, subscription: "S07"),
        // S08, May: grace over, still open at the as-of time (42 days).
        event(
            "s08-1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: T.may1 + 19 * T.day + T.minute, subscription: "S08",
            expires: T.may1 + 19 * T.day, grace: T.may1 + 35 * T.day),
        // S09, June: open (11 days); its recovery on July 2 is after the as-of time and ignored.
        event(
            "s09-1", "DID_FAIL_TO_RENEW", at: T.june1 + 19 * T.day + T.minute, subscription: "S09",
            expires: T.june1 + 19 * T.day),
        event(
            "s09-2", "DID_RENEW", "BILLING_RECOVERY", at: T.july1 + T.day, subscription: "S09",
            purchase: T.july1 + T.day, price: 9990, currency: "USD"),
        // S10, March: open for more than 61 days (unresolved).
        event(
            "s10-1", "DID_FAIL_TO_RENEW", at: T.march1 + 19 * T.day + T.minute, subscription: "S10",
            expires: T.march1 + 19 * T.day),
        // S11: a recovery without an open episode (orphan).
        event(
            "s11-1", "DID_RENEW", "BILLING_RECOVERY", at: T.may1 + 2 * T.day, subscription: "S11",
            purchase: T.may1 + 2 * T.day, price: 9990, currency: "USD"),
        // S12: family-shared; S13: Sandbox.
        event(
            "s12-1", "DID_FAIL_TO_RENEW", at: T.may1 + 5 * T.day, subscription: "S12", expires: T.may1 + 5 * T.day,
            ownership: "FAMILY_SHARED"),
        event(
            "s13-1", "DID_FAIL_TO_RENEW", at: T.may1 + 6 * T.day, subscription: "S13", environment: "Sandbox",
            expires: T.may1 + 6 * T.day),
        // S14: ordinary renewals, one a month.
        event("s14-1", "DID_RENEW", at: T.march1 + 7 * T.day, subscription: "S14"),
        event("s14-2", "DID_RENEW", at: T.april1 + 7 * T.day, subscription: "S14"),
        event("s14-3", "DID_RENEW", at: T.may1 + 7 * T.day, subscription: "S14"),
        event("s14-4", "DID_RENEW", at: T.june1 + 7 * T.day, subscription: "S14"),
        // S15, June: recovered after exactly 3 days (on band 2's first message).
        event(
            "s15-1", "DID_FAIL_TO_RENEW", at: T.june1 + 9 * T.day + T.minute, subscription: "S15",
            expires: T.june1 + 9 * T.day),
        event(
            "s15-2", "DID_RENEW", "BILLING_RECOVERY", at: T.june1 + 12 * T.day + T.minute, subscription: "S15",
            purchase: T.june1 + 12 * T.day, price: 9990, currency: "USD"),
        // S16, May: the subscriber's voluntary expiry during retry (cancelled).
        event(
            "s16-1", "DID_FAIL_TO_RENEW", at: T.may1 + 4 * T.day + 14 * T.hour, subscription: "S16",
            expires: T.may1 + 4 * T.day + 14 * T.hour),
        event("s16-2", "EXPIRED", "VOLUNTARY", at: T.may1 + 29 * T.day, subscription: "S16"),
    ]

    static func dataset(asOf: Int64 = asOf) -> EpisodeDataset {
        EpisodeBuilder(options: .init(environment: "Production", asOf: asOf)).dataset(events)
    }

    /// The previous report's figures, as of 2024-06-01, written by hand.
    static let previousHeadline = Headline(
        asOf: T.june1,
        environment: "Production",
        all: .init(episodes: 9, recovered: 4, expired: 1, cancelled: 1, other: 1, open: 2),
        mature: .init(episodes: 5, recovered: 3, expired: 1),
        withGrace: .init(episodes: 3, recovered: 2, expired: 0, cancelled: 0, other: 0, open: 1),
        withoutGrace: .init(episodes: 6, recovered: 2, expired: 1, cancelled: 1, other: 1, open: 1),
        grace: .init(graceEpisodes: 3, savedInGrace: 2, decided: 2),
        money: [
            .init(
                currency: "EUR", recoveredEpisodes: 1, recoveredMilliunits: 49_990, savedInGraceEpisodes: 1,
                savedInGraceMilliunits: 49_990),
            .init(
                currency: "GBP", recoveredEpisodes: 2, recoveredMilliunits: 15_980, savedInGraceEpisodes: 1,
                savedInGraceMilliunits: 7_990, expiredEpisodes: 1, lostMilliunits: 7_990, openEpisodes: 1,
                atRiskMilliunits: 7_990),
        ],
        recoveryCurve: [
            .init(day: 3, cifRecovery: 0.2), .init(day: 16, cifRecovery: 0.3), .init(day: 28, cifRecovery: 0.4),
            .init(day: 60, cifRecovery: 0.45),
        ],
        dataQuality: [
            .init(check: "duplicates_skipped", count: 1), .init(check: "inferred_expiry", count: 0),
            .init(check: "rejected_bad_signature", count: 2),
        ]
    )

    static let previous = PreviousHeadline.current(previousHeadline)

    /// The forecast check of the report as of ``asOf``: the episodes as of 61 days earlier (2024-05-01) against
    /// those as of ``asOf``.
    static var forecastCheck: ForecastCheck.Check {
        ForecastCheck.check(then: dataset(asOf: ForecastCheck.checkTime(asOf: asOf)), now: dataset())
    }

    static func report(previous: PreviousHeadline? = previous, latestSignedDate: Int64? = nil) -> Report {
        Report(
            dataset: dataset(),
            options: .init(rejections: rejections, previous: previous, latestSignedDate: latestSignedDate),
            forecastCheck: forecastCheck)
    }
}
