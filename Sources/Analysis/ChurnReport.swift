/// Every figure of the report's tables (METRICS.md, "Report files"), computed once from one dataset.
package struct ChurnReport: Hashable, Sendable {
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

    package var options: Options
    package var recoveryByCohort: [RecoveryByCohort.Row]
    package var recoveryCurve: [RecoveryCurve.Point]
    package var gracePeriod: [GracePeriod.Row]
    package var graceRevenue: [GraceRevenue.Row]
    /// Per band of `options.schedule`.
    package var messageBands: [MessageBands.Figures]
    package var retryDays: [RetryDays.Day]
    package var revenue: [Revenue.Row]
    package var flows: [Flows.Week]
    package var billingFailures: [BillingFailures.Row]
    package var dataQuality: [DataQuality.Row]

    /// Computes every figure.
    ///
    /// - Parameters:
    ///   - dataset: the episodes and counts of the report's scope.
    ///   - rejections: inputs quarantined at load time, by reason.
    ///   - options: cohort granularity and message schedule.
    package init(_ dataset: EpisodeDataset, rejections: [String: Int] = [:], options: Options = Options()) {
        let (episodes, asOf) = (dataset.episodes, dataset.asOf)
        self.options = options
        recoveryByCohort = RecoveryByCohort.rows(episodes: episodes, asOf: asOf, granularity: options.granularity)
        recoveryCurve = RecoveryCurve.points(episodes: episodes, asOf: asOf)
        gracePeriod = GracePeriod.rows(episodes: episodes, asOf: asOf, granularity: options.granularity)
        graceRevenue = GraceRevenue.rows(episodes: episodes)
        messageBands = MessageBands.figures(episodes: episodes, asOf: asOf, schedule: options.schedule)
        retryDays = RetryDays.lifeTable(episodes: episodes, asOf: asOf, schedule: options.schedule)
        revenue = Revenue.rows(episodes: episodes)
        flows = Flows.weeks(episodes: episodes, asOf: asOf)
        billingFailures = BillingFailures.rows(episodes: episodes, renewals: dataset.renewals)
        dataQuality = DataQuality.rows(counts: dataset.dataQuality, rejections: rejections)
    }
}
