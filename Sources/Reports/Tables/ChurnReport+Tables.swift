import Analysis

extension ChurnReport {
    /// One table per report file, in the order of METRICS.md's file list.
    package var tables: [ReportTable] {
        tableFiles(rowsPerPart: Int.max).map { $0.part(0) }
    }

    /// One CSV file's table, made in parts of at most `rowsPerPart` rows each, so that a long list is written without
    /// holding all of its cells at once; each part has the whole file's name and columns.
    package struct TableFile: Sendable {
        package var name: String
        package var partCount: Int
        /// Part `index` (0 ..< ``partCount``); part 0 of a table without rows has none.
        package var part: @Sendable (_ index: Int) -> ReportTable
    }

    /// Every report file's table, in the order of ``tables``: `open_episodes.csv`, the one list that grows with the
    /// data, in parts of `rowsPerPart` rows; every other table in one part.
    package func tableFiles(rowsPerPart: Int) -> [TableFile] {
        let whole: [ReportTable] = [
            RecoveryByCohort.table(recoveryByCohort),
            RecoveryCurve.table(recoveryCurve),
            GracePeriod.table(gracePeriod),
            GraceRevenue.table(graceRevenue),
            MessageBands.table(messageBands, schedule: options.schedule),
            RetryDays.table(retryDays),
            Revenue.table(revenue),
        ]
        let after: [ReportTable] =
            [
                ForecastCheck.table(forecastCheck),
                GraceWhatIf.table(graceWhatIf),
                Returns.table(returns),
            ]
            + (recoveryCurveCommitment.isEmpty ? [] : [RecoveryCurve.table(recoveryCurveCommitment, plan: .commitment)])
            + (graceChanges.isEmpty ? [] : [GraceChange.table(graceChanges)])
            + (messageLog.isEmpty ? [] : [ShownDays.table(messageLog)])
            + (messageExperiment.isEmpty ? [] : [MessageExperiment.table(messageExperiment)])
            + [
                Flows.table(flows),
                BillingFailures.table(billingFailures),
                DataQuality.table(dataQuality),
            ]
        let open = openEpisodes
        let size = max(1, rowsPerPart)
        let parts = TableFile(
            name: OpenEpisodes.fileName, partCount: open.isEmpty ? 1 : (open.count - 1) / size + 1,
            part: { index in
                let start = min(open.count, index.multipliedReportingOverflow(by: size).partialValue)
                return OpenEpisodes.table(Array(open[start..<min(open.count, start + min(size, open.count - start))]))
            })
        func one(_ table: ReportTable) -> TableFile {
            TableFile(name: table.name, partCount: 1, part: { _ in table })
        }
        return whole.map(one) + [parts] + after.map(one)
    }
}
