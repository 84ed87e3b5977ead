/// An ad-hoc question about a set of episodes (`churn query`), answered by the report's own analyzers.
///
/// Each group's figures are the total row of the report table computed over that group's episodes, so an
/// answer equals the report's figures for the same scope: `recovery-rate` grouped by `cohort-month` gives the
/// `(cohort, (all))` rows of `recovery_by_cohort.csv`, `recovery-curve` without grouping gives
/// `recovery_curve.csv`, and so on. A grouped answer ends with the figures over all its episodes, `(all)` in
/// every grouping column.
package struct EpisodeQuestion: Hashable, Sendable {
    /// What is asked.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Outcomes, `recovery_rate`, and the mature recovery rate with its interval (`recovery_by_cohort.csv`'s
        /// columns after the cohort and the product).
        case recoveryRate = "recovery-rate"
        /// `at_risk`, `recovered` and `cif_recovery` for days 1…60 (`recovery_curve.csv`).
        case recoveryCurve = "recovery-curve"
        /// Grace episodes by outcome and `save_rate` (`grace_period.csv`'s columns); groups without a grace
        /// episode are left out.
        case graceSaves = "grace-saves"
        /// Revenue saved in grace per currency (`grace_revenue.csv`); currencies are never added together.
        case graceRevenue = "grace-revenue"
        /// Recoveries against modelled message exposure per band, message days against their neighbours
        /// (`message_bands.csv`).
        case messageBands = "message-bands"
        /// The life table of retry days 1…60: at risk, recoveries, daily hazard (`retry_days.csv`).
        case retryDays = "retry-days"
        /// Recovered, saved, lost and at-risk amounts per currency (`revenue.csv`).
        case revenue
        /// Episodes entering and leaving retry per ISO week (`flows.csv`).
        case flows
        /// The episodes, one row each (``EpisodeList``).
        case episodes

        /// A file name for the answer, such as `recovery_rate.csv`.
        package var fileName: String {
            rawValue.split(separator: "-").joined(separator: "_") + ".csv"
        }
    }

    package var kind: Kind
    /// Group by these attributes, in this order; empty for one answer over all episodes.
    package var grouping: [EpisodeGrouping]
    /// The message schedule: `message-bands` models exposure with it, `retry-days` marks its message days.
    package var schedule: MessageSchedule
    /// For `episodes`: at most this many rows.
    package var limit: Int?

    package init(
        _ kind: Kind,
        grouping: [EpisodeGrouping] = [],
        schedule: MessageSchedule = .standard,
        limit: Int? = nil
    ) {
        self.kind = kind
        self.grouping = grouping
        self.schedule = schedule
        self.limit = limit
    }

    /// The columns of the answer: the grouping columns, then the question's own.
    package var columns: [String] {
        grouping.map(\.column) + Self.figureColumns(kind)
    }

    /// The answer over `episodes` (already filtered to the question's scope).
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
    package func table(episodes: [Episode], asOf: Int64) -> ReportTable {
        var table = ReportTable(name: kind.fileName, columns: columns)
        if kind == .episodes {
            var rows = grouped(episodes).flatMap { key, members in
                EpisodeList.sorted(members).map { key.map(\.cell) + EpisodeList.row($0, asOf: asOf) }
            }
            if let limit { rows = Array(rows.prefix(max(0, limit))) }
            table.rows = rows
            return table
        }
        let inScope = kind == .graceSaves ? episodes.filter(\.hasGrace) : episodes
        if !grouping.isEmpty {
            for (key, members) in grouped(inScope) {
                let prefix = key.map(\.cell)
                table.rows += figures(members, asOf: asOf).map { prefix + $0 }
            }
        }
        let totalPrefix = grouping.map { _ in ReportTable.Cell.text(ReportTable.total) }
        table.rows += figures(inScope, asOf: asOf).map { totalPrefix + $0 }
        return table
    }

    /// Episodes by group, the groups in order (one group holding everything when there is no grouping).
    private func grouped(_ episodes: [Episode]) -> [(key: [EpisodeGrouping.Value], members: [Episode])] {
        var groups: [[EpisodeGrouping.Value]: [Episode]] = [:]
        for episode in episodes {
            groups[grouping.map { $0.value(of: episode) }, default: []].append(episode)
        }
        return groups.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, groups[$0] ?? []) }
    }

    /// The question's figure rows over one set of episodes, computed by the report's analyzer.
    private func figures(_ episodes: [Episode], asOf: Int64) -> [[ReportTable.Cell]] {
        switch kind {
        case .recoveryRate:
            // The grand-total row `((all), (all))` without its two grouping cells.
            let total = RecoveryByCohort.table(episodes: episodes, asOf: asOf).rows.last ?? []
            return [Array(total.dropFirst(2))]
        case .recoveryCurve:
            return RecoveryCurve.table(episodes: episodes, asOf: asOf).rows
        case .graceSaves:
            let total = GracePeriod.table(episodes: episodes, asOf: asOf).rows.last ?? []
            return [Array(total.dropFirst())]
        case .graceRevenue:
            return GraceRevenue.table(episodes: episodes).rows
        case .messageBands:
            return MessageBands.table(episodes: episodes, asOf: asOf, schedule: schedule).rows
        case .retryDays:
            return RetryDays.table(episodes: episodes, asOf: asOf, schedule: schedule).rows
        case .revenue:
            return Revenue.table(episodes: episodes).rows
        case .flows:
            return Flows.table(episodes: episodes, asOf: asOf).rows
        case .episodes:
            return episodes.map { EpisodeList.row($0, asOf: asOf) }
        }
    }

    private static func figureColumns(_ kind: Kind) -> [String] {
        switch kind {
        case .recoveryRate: return Array(RecoveryByCohort.columns.dropFirst(2))
        case .recoveryCurve: return RecoveryCurve.columns
        case .graceSaves: return Array(GracePeriod.columns.dropFirst())
        case .graceRevenue: return GraceRevenue.columns
        case .messageBands: return MessageBands.columns
        case .retryDays: return RetryDays.columns
        case .revenue: return Revenue.columns
        case .flows: return Flows.columns
        case .episodes: return EpisodeList.columns
        }
    }
}
