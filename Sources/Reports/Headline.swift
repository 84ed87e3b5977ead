import Analysis

/// The headline figures of one report, kept in `headline.json` so that the next report can say what changed.
///
/// Only counts and exact amounts are stored (rates and their intervals are computed from them), plus
/// `cif_recovery` on a few days, so reading a snapshot back gives the very figures the report printed. Keys are
/// snake_case like the CSV columns; `format` is raised when a key changes meaning. Format 2 follows METRICS.md
/// version 2: it adds the mature episodes and the money per currency, and drops format 1's grace revenue (now a
/// column of `money`). A format-1 snapshot is read as a ``PreviousHeadline/earlier(_:)``.
package struct Headline: Codable, Hashable, Sendable {
    /// Episodes counted by outcome.
    package struct Outcomes: Codable, Hashable, Sendable {
        package var episodes: Int
        package var recovered: Int
        package var expired: Int
        package var cancelled: Int
        package var other: Int
        package var open: Int

        package init(episodes: Int, recovered: Int, expired: Int, cancelled: Int, other: Int, open: Int) {
            self.episodes = episodes
            self.recovered = recovered
            self.expired = expired
            self.cancelled = cancelled
            self.other = other
            self.open = open
        }

        package init(_ counts: OutcomeCounts) {
            self.init(
                episodes: counts.episodes, recovered: counts.recovered, expired: counts.expired,
                cancelled: counts.cancelled, other: counts.other, open: counts.open)
        }

        /// Episodes with an outcome other than open.
        package var closed: Int { recovered + expired + cancelled + other }

        /// recovered / closed: the recovery rate of ended episodes; nil when none is closed.
        package var recoveryRate: Double? { closed == 0 ? nil : Double(recovered) / Double(closed) }
    }

    /// The mature episodes (t0 + 61 days ≤ as-of) and how many of them recovered or expired: the headline rates.
    package struct Mature: Codable, Hashable, Sendable {
        package var episodes: Int
        package var recovered: Int
        package var expired: Int

        package init(episodes: Int, recovered: Int, expired: Int) {
            self.episodes = episodes
            self.recovered = recovered
            self.expired = expired
        }

        package init(_ counts: MatureCounts) {
            self.init(episodes: counts.episodes, recovered: counts.recovered, expired: counts.expired)
        }

        /// The counts as the analyzer's value, for the rates and their Wilson intervals.
        package var counts: MatureCounts {
            var counts = MatureCounts()
            counts.episodes = episodes
            counts.recovered = recovered
            counts.expired = expired
            return counts
        }
    }

    /// Grace-period episodes and how many were saved inside grace.
    package struct GraceSaves: Codable, Hashable, Sendable {
        package var graceEpisodes: Int
        package var savedInGrace: Int
        /// The `save_rate` denominator: closed, or open with the grace period over.
        package var decided: Int

        package init(graceEpisodes: Int, savedInGrace: Int, decided: Int) {
            self.graceEpisodes = graceEpisodes
            self.savedInGrace = savedInGrace
            self.decided = decided
        }

        /// saved_in_grace / decided; nil when nothing is decided.
        package var saveRate: Double? { decided == 0 ? nil : Double(savedInGrace) / Double(decided) }

        enum CodingKeys: String, CodingKey {
            case graceEpisodes = "grace_episodes"
            case savedInGrace = "saved_in_grace"
            case decided
        }
    }

    /// The money of one currency (`revenue.csv`'s row): customer prices before the App Store's commission, in
    /// milliunits; an amount is nil when its sum does not fit in 64 bits.
    package struct Money: Codable, Hashable, Sendable {
        /// Empty for episodes without a currency.
        package var currency: String
        package var recoveredEpisodes: Int
        package var recoveredMilliunits: Int64?
        package var savedInGraceEpisodes: Int
        package var savedInGraceMilliunits: Int64?
        package var expiredEpisodes: Int
        /// The price at stake of the expired episodes.
        package var lostMilliunits: Int64?
        package var openEpisodes: Int
        /// The price at stake of the open episodes.
        package var atRiskMilliunits: Int64?

        package init(
            currency: String, recoveredEpisodes: Int = 0, recoveredMilliunits: Int64? = 0,
            savedInGraceEpisodes: Int = 0, savedInGraceMilliunits: Int64? = 0, expiredEpisodes: Int = 0,
            lostMilliunits: Int64? = 0, openEpisodes: Int = 0, atRiskMilliunits: Int64? = 0
        ) {
            self.currency = currency
            self.recoveredEpisodes = recoveredEpisodes
            self.recoveredMilliunits = recoveredMilliunits
            self.savedInGraceEpisodes = savedInGraceEpisodes
            self.savedInGraceMilliunits = savedInGraceMilliunits
            self.expiredEpisodes = expiredEpisodes
            self.lostMilliunits = lostMilliunits
            self.openEpisodes = openEpisodes
            self.atRiskMilliunits = atRiskMilliunits
        }

        /// One currency's row of `revenue.csv` and the number of episodes saved in grace in it.
        package init(currency: String, amounts: Revenue.Amounts, savedInGraceEpisodes: Int) {
            self.init(
                currency: currency, recoveredEpisodes: amounts.recoveredEpisodes,
                recoveredMilliunits: amounts.recoveredAmount, savedInGraceEpisodes: savedInGraceEpisodes,
                savedInGraceMilliunits: amounts.savedInGraceAmount, expiredEpisodes: amounts.expiredEpisodes,
                lostMilliunits: amounts.lostAmount, openEpisodes: amounts.openEpisodes,
                atRiskMilliunits: amounts.atRiskAmount)
        }

        enum CodingKeys: String, CodingKey {
            case currency
            case recoveredEpisodes = "recovered_episodes"
            case recoveredMilliunits = "recovered_milliunits"
            case savedInGraceEpisodes = "saved_in_grace_episodes"
            case savedInGraceMilliunits = "saved_in_grace_milliunits"
            case expiredEpisodes = "expired_episodes"
            case lostMilliunits = "lost_milliunits"
            case openEpisodes = "open_episodes"
            case atRiskMilliunits = "at_risk_milliunits"
        }
    }

    /// `cif_recovery` on one day of the curve.
    package struct CurveMark: Codable, Hashable, Sendable {
        package var day: Int
        package var cifRecovery: Double

        package init(day: Int, cifRecovery: Double) {
            self.day = day
            self.cifRecovery = cifRecovery
        }

        enum CodingKeys: String, CodingKey {
            case day
            case cifRecovery = "cif_recovery"
        }
    }

    /// One row of `data_quality.csv`.
    package struct Check: Codable, Hashable, Sendable {
        package var check: String
        package var count: Int

        package init(check: String, count: Int) {
            self.check = check
            self.count = count
        }
    }

    /// The file in the report directory.
    package static let fileName = "headline.json"
    /// The `format` this version writes; see ``PreviousHeadline`` for the formats it reads.
    package static let currentFormat = 2

    package var format: Int
    /// The report's as-of time (Unix ms).
    package var asOf: Int64
    package var environment: String
    /// The identity of the database the report was made from (`database_identity.id`); nil in a snapshot written
    /// before reports recorded it, or for a report made without a database. Only reports of one database are
    /// compared (``latest(inReportsRoot:before:environment:databaseID:)``).
    package var databaseID: String?
    /// True when the report's as-of time was asked for (`churn report --as-of`) instead of being the latest data's;
    /// nil otherwise (and in snapshots written before reports recorded it). Such a report is never a later report's
    /// previous one (``latest(inReportsRoot:before:environment:databaseID:granularity:)``): the series "what
    /// changed" compares along is the one nightly writes.
    package var asOfGiven: Bool?
    /// The cohort granularity of the report (`month`, `week`); nil in a snapshot written before reports recorded it.
    package var granularity: CalendarPeriod.Granularity?
    /// All episodes in scope.
    package var all: Outcomes
    /// The mature episodes: the headline recovery and involuntary-churn rates.
    package var mature: Mature
    package var withGrace: Outcomes
    package var withoutGrace: Outcomes
    package var grace: GraceSaves
    /// Per currency, in UTF-8 byte order of the currency.
    package var money: [Money]
    /// `cif_recovery` on days 3, 16, 28 and 60.
    package var recoveryCurve: [CurveMark]
    /// The rows of `data_quality.csv`, in its order.
    package var dataQuality: [Check]

    package init(
        asOf: Int64,
        environment: String,
        databaseID: String? = nil,
        asOfGiven: Bool? = nil,
        granularity: CalendarPeriod.Granularity? = nil,
        all: Outcomes,
        mature: Mature,
        withGrace: Outcomes,
        withoutGrace: Outcomes,
        grace: GraceSaves,
        money: [Money] = [],
        recoveryCurve: [CurveMark] = [],
        dataQuality: [Check] = []
    ) {
        self.format = Self.currentFormat
        self.asOf = asOf
        self.environment = environment
        self.databaseID = databaseID
        self.asOfGiven = asOfGiven
        self.granularity = granularity
        self.all = all
        self.mature = mature
        self.withGrace = withGrace
        self.withoutGrace = withoutGrace
        self.grace = grace
        self.money = money
        self.recoveryCurve = recoveryCurve
        self.dataQuality = dataQuality
    }

    /// `cif_recovery` on `day`, when the snapshot has it.
    package func cifRecovery(day: Int) -> Double? {
        recoveryCurve.first { $0.day == day }?.cifRecovery
    }

    /// The count of a data-quality check; 0 when the snapshot does not list it.
    package func count(of check: String) -> Int {
        dataQuality.first { $0.check == check }?.count ?? 0
    }

    /// The money of `currency`, when the snapshot has a row for it.
    package func money(in currency: String) -> Money? {
        money.first { $0.currency == currency }
    }

    enum CodingKeys: String, CodingKey {
        case format
        case asOf = "as_of"
        case environment
        case databaseID = "database_id"
        case asOfGiven = "as_of_given"
        case granularity
        case all
        case mature
        case withGrace = "with_grace"
        case withoutGrace = "without_grace"
        case grace
        case money
        case recoveryCurve = "recovery_curve"
        case dataQuality = "data_quality"
    }
}
