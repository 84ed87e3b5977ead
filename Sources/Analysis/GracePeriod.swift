/// `grace_period.csv`: per cohort, how episodes with a grace period ended, and the share saved inside grace.
///
/// Rows: cohorts with at least one grace episode, ascending, then the total `(all)`, which is always present.
/// `save_rate` = saved_in_grace / decided grace episodes (closed, or open with `grace_end` ≤ as-of); an episode
/// whose grace end is unknown counts in its outcome column (a recovery as `recovered_after_grace`) but in no
/// `save_rate` denominator.
package enum GracePeriod {
    package static let fileName = "grace_period.csv"
    package static let columns = [
        "cohort", "grace_episodes", "saved_in_grace", "recovered_after_grace", "expired", "cancelled", "other",
        "open", "save_rate",
    ]

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

    package static func table(
        episodes: [Episode],
        asOf: Int64,
        granularity: CalendarPeriod.Granularity = .month
    ) -> ReportTable {
        var byCohort: [CalendarPeriod: Counts] = [:]
        var total = Counts()
        for episode in episodes where episode.hasGrace {
            byCohort[episode.cohort(granularity), default: Counts()].add(episode, asOf: asOf)
            total.add(episode, asOf: asOf)
        }
        var table = ReportTable(name: fileName, columns: columns)
        for cohort in byCohort.keys.sorted() {
            table.rows.append(row(cohort.description, byCohort[cohort] ?? Counts()))
        }
        table.rows.append(row(ReportTable.total, total))
        return table
    }

    private static func row(_ cohort: String, _ counts: Counts) -> [ReportTable.Cell] {
        [
            .text(cohort), .integer(counts.graceEpisodes), .integer(counts.savedInGrace),
            .integer(counts.recoveredAfterGrace), .integer(counts.expired), .integer(counts.cancelled),
            .integer(counts.other), .integer(counts.open), .ratio(counts.savedInGrace, counts.decided),
        ]
    }
}
