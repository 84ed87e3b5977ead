import Analysis

extension EpisodeQuestion {
    /// The column of a typed (JSON) grouped answer that marks the row over every selected episode.
    package static let totalColumn = "is_total"

    /// The columns of the answer in `format`: the grouping columns, then the question's own.
    ///
    /// `episodes` has no grouping columns: every grouping attribute is a column of its rows already. A grouped
    /// answer in JSON has `is_total` after the grouping columns.
    package func columns(for format: TableRenderer.Format = .csv) -> [String] {
        guard kind != .episodes else { return EpisodeList.columns }
        guard kind != .openEpisodes else { return OpenEpisodes.columns }
        let typed = format == .json
        let groupingColumns = grouping.flatMap { $0.columns(typed: typed) }
        let total = typed && !grouping.isEmpty ? [Self.totalColumn] : []
        return groupingColumns + total + Self.figureColumns(kind)
    }

    /// The answer over `episodes` (already filtered to the question's scope) as a table for `format`: each group's
    /// rows led by its grouping values, then the rows over all episodes.
    ///
    /// In text, CSV and Markdown the grouping values are words where there is no value (`none`, `unknown`) and the
    /// rows over all episodes have `(all)` in every grouping column, as the report's files have. In JSON every value
    /// is typed: those cells are `null` (`has_grace` tells no grace from a grace of unknown length), `is_total` is
    /// true on the rows over all episodes, and the pooled row of `message-bands` has a `null` band.
    /// `episodes` lists each group's episodes in turn, group after group, without a total.
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
    ///   - format: the format the table is rendered in.
    package func table(episodes: [Episode], asOf: Int64, for format: TableRenderer.Format = .csv) -> ReportTable {
        table(answer: answer(episodes: episodes, asOf: asOf), asOf: asOf, for: format)
    }

    /// ``table(episodes:asOf:for:)`` for an answer added up already (``Tally/answer``).
    package func table(answer: [Group], asOf: Int64, for format: TableRenderer.Format = .csv) -> ReportTable {
        var table = ReportTable(name: kind.fileName, columns: columns(for: format))
        let typed = format == .json
        for group in answer {
            var prefix: [ReportTable.Cell] = []
            if !isList {
                if let key = group.key {
                    prefix = zip(grouping, key).flatMap { $0.cells($1, typed: typed) }
                } else {
                    prefix = grouping.flatMap { $0.totalCells(typed: typed) }
                }
                if typed && !grouping.isEmpty { prefix.append(.boolean(group.key == nil)) }
            }
            table.rows += rows(group.figures, asOf: asOf, typed: typed).map { prefix + $0 }
        }
        return table
    }

    /// One group's figure rows, laid out as the report's table lays them out.
    private func rows(_ figures: Figures, asOf: Int64, typed: Bool) -> [[ReportTable.Cell]] {
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
            let rows = MessageBands.table(figures, schedule: schedule).rows
            guard typed else { return rows }
            // The pooled row's band is `(all)` in the file: no band number.
            return rows.map { row in row.first == .text(ReportTable.total) ? [.empty] + row.dropFirst() : row }
        case .retryDays(let days):
            return RetryDays.table(days).rows
        case .revenue(let rows):
            return Revenue.table(rows).rows
        case .graceWhatIf(let rows):
            let table = GraceWhatIf.table(rows).rows
            guard typed, let product = GraceWhatIf.columns.firstIndex(of: "product_id") else { return table }
            // The app's row over all its products is `(all)` in the file: no product.
            return table.map { row in
                var row = row
                if row[product] == .text(ReportTable.total) { row[product] = .empty }
                return row
            }
        case .flows(let weeks):
            return Flows.table(weeks).rows
        case .graceChange(let rows):
            return GraceChange.table(rows).rows
        case .messageLog(let rows):
            let table = ShownDays.table(rows).rows
            guard typed else { return table }
            // The row over days 1…60 is `(all)` in the file: no band number.
            return table.map { row in row.first == .text(ReportTable.total) ? [.empty] + row.dropFirst() : row }
        case .messageExperiment(let rows):
            return MessageExperiment.table(rows).rows
        case .episodes(let episodes):
            return episodes.map { EpisodeList.row($0, asOf: asOf) }
        case .openEpisodes(let rows):
            return OpenEpisodes.table(rows).rows
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
        case .graceWhatIf: return GraceWhatIf.columns
        case .flows: return Flows.columns
        case .graceChange: return GraceChange.columns
        case .messageLog: return ShownDays.columns
        case .messageExperiment: return MessageExperiment.columns
        case .episodes: return EpisodeList.columns
        case .openEpisodes: return OpenEpisodes.columns
        }
    }
}

extension EpisodeQuestion.Kind {
    /// A file name for the answer, such as `recovery_rate.csv`.
    package var fileName: String {
        rawValue.split(separator: "-").joined(separator: "_") + ".csv"
    }
}
