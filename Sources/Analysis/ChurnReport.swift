/// Every table of the report (METRICS.md, "Report files"), from one dataset.
package enum ChurnReport {
    /// Choices a user can make about the report.
    package struct Options: Hashable, Sendable {
        /// Cohorts by month (default) or ISO week.
        package var granularity: CalendarPeriod.Granularity
        package var schedule: MessageSchedule

        package init(granularity: CalendarPeriod.Granularity = .month, schedule: MessageSchedule = .standard) {
            self.granularity = granularity
            self.schedule = schedule
        }
    }

    /// The tables in the order of METRICS.md's file list.
    ///
    /// - Parameters:
    ///   - dataset: the episodes and counts of the report's scope.
    ///   - rejections: inputs quarantined at load time, by reason.
    ///   - options: cohort granularity and message schedule.
    /// - Returns: one table per report file.
    package static func tables(
        _ dataset: EpisodeDataset,
        rejections: [String: Int] = [:],
        options: Options = Options()
    ) -> [ReportTable] {
        let (episodes, asOf) = (dataset.episodes, dataset.asOf)
        return [
            RecoveryByCohort.table(episodes: episodes, asOf: asOf, granularity: options.granularity),
            RecoveryCurve.table(episodes: episodes, asOf: asOf),
            GracePeriod.table(episodes: episodes, asOf: asOf, granularity: options.granularity),
            GraceRevenue.table(episodes: episodes),
            MessageBands.table(episodes: episodes, asOf: asOf, schedule: options.schedule),
            RetryDays.table(episodes: episodes, asOf: asOf, schedule: options.schedule),
            Revenue.table(episodes: episodes),
            Flows.table(episodes: episodes, asOf: asOf),
            BillingFailures.table(episodes: episodes, renewals: dataset.renewals),
            DataQuality.table(counts: dataset.dataQuality, rejections: rejections),
        ]
    }
}
