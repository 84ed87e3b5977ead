import Analysis

/// The headline figures of one report, kept in `headline.json` so that the next report can say what changed.
///
/// Only counts and exact amounts are stored (rates are computed from them), plus `cif_recovery` on a few days,
/// so reading a snapshot back gives the very figures the report printed. Keys are snake_case like the CSV
/// columns; `format` is raised when a key changes meaning.
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

        /// recovered / closed; nil when none is closed.
        package var recoveryRate: Double? { share(recovered) }

        /// Involuntary churn: expired / closed; nil when none is closed.
        package var involuntaryChurnRate: Double? { share(expired) }

        private func share(_ count: Int) -> Double? {
            closed == 0 ? nil : Double(count) / Double(closed)
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

    /// Revenue saved in grace in one currency.
    package struct Revenue: Codable, Hashable, Sendable {
        /// Empty for saved episodes without a currency.
        package var currency: String
        package var savedEpisodes: Int
        /// The sum of the recovering prices in milliunits; nil when it does not fit in 64 bits.
        package var milliunits: Int64?

        package init(currency: String, savedEpisodes: Int, milliunits: Int64?) {
            self.currency = currency
            self.savedEpisodes = savedEpisodes
            self.milliunits = milliunits
        }

        enum CodingKeys: String, CodingKey {
            case currency
            case savedEpisodes = "saved_episodes"
            case milliunits
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
    /// The `format` this version writes and reads.
    package static let currentFormat = 1

    package var format: Int
    /// The report's as-of time (Unix ms).
    package var asOf: Int64
    package var environment: String
    /// All episodes in scope.
    package var all: Outcomes
    package var withGrace: Outcomes
    package var withoutGrace: Outcomes
    package var grace: GraceSaves
    /// Per currency, in UTF-8 byte order of the currency.
    package var revenue: [Revenue]
    /// Days 3, 16, 28 and 60.
    package var recoveryCurve: [CurveMark]
    /// The rows of `data_quality.csv`, in its order.
    package var dataQuality: [Check]

    package init(
        asOf: Int64,
        environment: String,
        all: Outcomes,
        withGrace: Outcomes,
        withoutGrace: Outcomes,
        grace: GraceSaves,
        revenue: [Revenue] = [],
        recoveryCurve: [CurveMark] = [],
        dataQuality: [Check] = []
    ) {
        self.format = Self.currentFormat
        self.asOf = asOf
        self.environment = environment
        self.all = all
        self.withGrace = withGrace
        self.withoutGrace = withoutGrace
        self.grace = grace
        self.revenue = revenue
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

    enum CodingKeys: String, CodingKey {
        case format
        case asOf = "as_of"
        case environment
        case all
        case withGrace = "with_grace"
        case withoutGrace = "without_grace"
        case grace
        case revenue
        case recoveryCurve = "recovery_curve"
        case dataQuality = "data_quality"
    }
}
