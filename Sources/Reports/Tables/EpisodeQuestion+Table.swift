import Analysis

extension EpisodeQuestion {
    /// The columns of the answer: the grouping columns, then the question's own.
    package var columns: [String] {
        grouping.map(\.column) + Self.figureColumns(kind)
    }

    /// The answer over `episodes` (already filtered to the question's scope) as a table: each group's rows led by
    /// its grouping values, the rows over all episodes by `(all)` in every grouping column.
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
    package func table(episodes: [Episode], asOf: Int64) -> ReportTable {
        var table = ReportTable(name: kind.fileName, columns: columns)
        let totalPrefix = grouping.map { _ in ReportTable.Cell.text(ReportTable.total) }
        for group in answer(episodes: episodes, asOf: asOf) {
            let prefix = group.key.map { $0.map(\.cell) } ?? totalPrefix
            table.rows += rows(group.figures, asOf: asOf).map { prefix + $0 }
        }
        return table
    }

    /// One group's figure rows, laid out as the report's table lays them out.
    private func rows(_ figures: Figures, asOf: Int64) -> [[ReportTable.Cell]] {
        switch figures {
        case .recoveryRate(let total):
            // The total row of `recovery_by_cohort.csv` without its cohort and product cells.
            return [RecoveryByCohort.cells(total)]
        case .recoveryCurve(let points):
            return RecoveryCurve.table(points).rows
        case .graceSaves(let total):
            // The total row of `grace_period.csv` without its cohort cell.
            return [GracePeriod.cells(total)]
        case .graceRevenue(let rows):
            return GraceRevenue.table(rows).rows
        case .messageBands(let figures):
            return MessageBands.table(figures, schedule: schedule).rows
        case .retryDays(let days):
            return RetryDays.table(days).rows
        case .revenue(let rows):
            return Revenue.table(rows).rows
        case .flows(let weeks):
            return Flows.table(weeks).rows
        case .episodes(let episodes):
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

extension EpisodeQuestion.Kind {
    /// A file name for the answer, such as `recovery_rate.csv`.
    package var fileName: String {
        rawValue.split(separator: "-").joined(separator: "_") + ".csv"
    }
}
