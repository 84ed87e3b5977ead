/// The figures of `grace_period.csv`: per cohort, how episodes with a grace period ended, and the share saved inside
/// grace.
///
/// Rows: cohorts with at least one grace episode, ascending, then the total `(all)`, which is always present.
/// `save_rate` = saved_in_grace / decided grace episodes (closed, or open with `grace_end` ≤ as-of); an episode
/// whose grace end is unknown counts in its outcome column (a recovery as `recovered_after_grace`) but in no
/// `save_rate` denominator.
package enum GracePeriod {
    /// One cohort's grace episodes, or all of them.
    package struct Row: Hashable, Sendable {
        /// The cohort; nil for all cohorts (the total).
        package var cohort: CalendarPeriod?
        package var counts: Counts

        package init(cohort: CalendarPeriod?, counts: Counts) {
            self.cohort = cohort
            self.counts = counts
        }
    }

    /// Grace episodes counted by what became of them.
    package struct Counts: Hashable, Sendable {
        package var graceEpisodes = 0
        package var savedInGrace = 0
        package var recoveredAfterGrace = 0
        package var expired = 0
        package var cancelled = 0
        package var other = 0
        package var open = 0
        /// The `save_rate` denominator: closed, or open with `grace_end` ≤ as-of; never with an unknown grace end.
        package var decided = 0

        package init() {}

        package mutating func add(_ episode: Episode, asOf: Int64) {
            graceEpisodes += 1
            if episode.isInSaveRate(asOf: asOf) { decided += 1 }
            switch episode.outcome {
            case .recovered:
                if episode.isSavedInGrace { savedInGrace += 1 } else { recoveredAfterGrace += 1 }
            case .expired: expired += 1
            case .cancelled: cancelled += 1
            case .other: other += 1
            case .open: open += 1
            }
        }

        /// saved_in_grace / decided; nil when nothing is decided.
        package var saveRate: Double? {
            decided == 0 ? nil : Double(savedInGrace) / Double(decided)
        }
    }

    /// The rows: cohorts with a grace episode, ascending, then the total.
    ///
    /// - Parameters:
    ///   - episodes: the episodes in scope; those without a grace period count nowhere.
    ///   - asOf: the as-of time (Unix ms), which decides which open episodes are in the `save_rate` denominator.
    ///   - granularity: cohorts by month or ISO week.
    package static func rows(
        episodes: [Episode],
        asOf: Int64,
        granularity: CalendarPeriod.Granularity = .month
    ) -> [Row] {
        var tally = Tally(asOf: asOf, granularity: granularity)
        for episode in episodes { tally.add(episode) }
        return tally.rows
    }

    /// The rows' counts, added up one episode at a time.
    package struct Tally: Sendable {
        let asOf: Int64
        let granularity: CalendarPeriod.Granularity
        private var byCohort: [CalendarPeriod: Counts] = [:]
        private var total = Counts()

        package init(asOf: Int64, granularity: CalendarPeriod.Granularity = .month) {
            self.asOf = asOf
            self.granularity = granularity
        }

        /// Counts `episode` when it has a grace period.
        package mutating func add(_ episode: Episode) {
            guard episode.hasGrace else { return }
            byCohort[episode.cohort(granularity), default: Counts()].add(episode, asOf: asOf)
            total.add(episode, asOf: asOf)
        }

        /// The rows: cohorts with a grace episode, ascending, then the total.
        package var rows: [Row] {
            byCohort.sorted { $0.key < $1.key }.map { Row(cohort: $0.key, counts: $0.value) }
                + [Row(cohort: nil, counts: total)]
        }
    }
}
