/// Every figure of the report's tables (METRICS.md, "Report files"), computed once from one dataset.
package struct ChurnReport: Hashable, Sendable {
    /// Choices a user can make about the report.
    package struct Options: Hashable, Sendable {
        /// Cohorts by month (default) or ISO week.
        package var granularity: CalendarPeriod.Granularity
        package var schedule: MessageSchedule
        /// Grace changes the user states (`--grace-change`), which replace those detected in their app and month.
        package var statedGraceChanges: [GraceChange.Stated]

        package init(
            granularity: CalendarPeriod.Granularity = .month, schedule: MessageSchedule = .standard,
            statedGraceChanges: [GraceChange.Stated] = []
        ) {
            self.granularity = granularity
            self.schedule = schedule
            self.statedGraceChanges = statedGraceChanges
        }
    }

    package var options: Options
    package var recoveryByCohort: [RecoveryByCohort.Row]
    /// The standard plans' curve, days 1…60.
    package var recoveryCurve: [RecoveryCurve.Point]
    /// The commitment plans' curve, days 1…90; empty when the scope holds no commitment episode.
    package var recoveryCurveCommitment: [RecoveryCurve.Point]
    package var gracePeriod: [GracePeriod.Row]
    package var graceRevenue: [GraceRevenue.Row]
    /// Per band of `options.schedule`.
    package var messageBands: [MessageBands.Figures]
    package var retryDays: [RetryDays.Day]
    package var revenue: [Revenue.Row]
    package var graceWhatIf: [GraceWhatIf.Row]
    /// `grace_change.csv`: what each change of an app's grace setting did; empty (and no file) without a change.
    package var graceChanges: [GraceChange.Row]
    /// `message_log.csv`: shown days against the others, per band and `(all)`; empty (and no file) without a message
    /// log.
    package var messageLog: [ShownDays.Row]
    /// `message_experiment.csv`: one row per experiment arm; empty (and no file) when no event names an arm.
    package var messageExperiment: [MessageExperiment.Row]
    /// Every open episode with its recovery chance, by t0.
    package var openEpisodes: [OpenEpisodes.Row]
    /// The open episodes of 61 days before, their chances then against their outcomes now.
    package var forecastCheck: ForecastCheck.Check
    /// `returns.csv`: of the expired episodes, the customers who came back, by month of the episode's end.
    package var returns: [Returns.Row]
    package var flows: [Flows.Week]
    package var billingFailures: [BillingFailures.Row]
    package var dataQuality: [DataQuality.Row]

    /// Computes every figure.
    ///
    /// - Parameters:
    ///   - dataset: the episodes and counts of the report's scope.
    ///   - rejections: inputs quarantined at load time, by reason.
    ///   - options: cohort granularity and message schedule.
    ///   - forecastCheck: the check of the method on the episodes open 61 days before (``ForecastCheck``); nil for
    ///     none, which reads as no history at the check time.
    package init(
        _ dataset: EpisodeDataset, rejections: [String: Int] = [:], options: Options = Options(),
        forecastCheck: ForecastCheck.Check? = nil
    ) {
        var tally = Tally(asOf: dataset.asOf, options: options)
        for episode in dataset.episodes { tally.add(episode) }
        self.init(
            tally, dataQuality: dataset.dataQuality, renewals: dataset.renewals, rejections: rejections,
            forecastCheck: forecastCheck, graceChanges: tally.graceChangeEvaluation.rows(addingAgain: dataset.episodes))
    }

    /// Computes every figure from episodes already added up.
    ///
    /// - Parameters:
    ///   - tally: every episode of the report's scope, added.
    ///   - dataQuality: the dataset's counts (``EpisodeDataset/dataQuality``).
    ///   - renewals: ordinary renewals per month (``EpisodeDataset/renewals``).
    ///   - rejections: inputs quarantined at load time, by reason.
    ///   - forecastCheck: the check of the method on the episodes open 61 days before; nil for none.
    ///   - returns: `returns.csv`'s rows (``Returns/Tally``), which need the customers' purchases besides the
    ///     episodes; none when not at hand.
    ///   - graceChanges: the rows of ``Tally/graceChangeEvaluation`` after a second pass over the episodes; none
    ///     when it is empty.
    ///   - messageLog: `message_log.csv`'s rows (``MessageLog/Tally``); none without a message log.
    ///   - messageExperiment: `message_experiment.csv`'s rows; none without an experiment arm.
    package init(
        _ tally: consuming Tally, dataQuality: DataQualityCounts, renewals: PeriodCounts,
        rejections: [String: Int] = [:],
        forecastCheck: ForecastCheck.Check? = nil, returns: [Returns.Row] = [], graceChanges: [GraceChange.Row] = [],
        messageLog: [ShownDays.Row] = [], messageExperiment: [MessageExperiment.Row] = []
    ) {
        self.returns = returns
        self.graceChanges = graceChanges
        self.messageLog = messageLog
        self.messageExperiment = messageExperiment
        options = tally.options
        recoveryByCohort = tally.recoveryByCohort.rows
        let curves = tally.recoveryCurve.curves
        recoveryCurve = curves.standard
        recoveryCurveCommitment = curves.commitment
        gracePeriod = tally.gracePeriod.rows
        graceRevenue = tally.graceRevenue.rows
        retryDays = tally.retryDays.lifeTable(schedule: tally.options.schedule)
        messageBands = tally.messageBands.figures
        // Moved out of the tally: a caller that hands its tally over (`consume`) holds the list once, not twice.
        openEpisodes = tally.openEpisodes.takeRows(estimates: curves.estimates)
        revenue = OpenEpisodes.revenue(tally.revenue.rows, expectedFrom: openEpisodes)
        self.forecastCheck = forecastCheck ?? .empty(asOf: tally.asOf)
        graceWhatIf = tally.graceWhatIf.rows(graceLengths: tally.graceLengths)
        flows = tally.flows.weeks
        billingFailures = BillingFailures.rows(started: tally.started, renewals: renewals)
        self.dataQuality = DataQuality.rows(counts: dataQuality, rejections: rejections)
    }
}
