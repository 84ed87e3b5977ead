extension ChurnReport {
    /// Every table's figures added up one episode at a time, so that episodes can stream through (from a database
    /// cursor, say) instead of being held: it keeps counts, sums and, for the recovery curve and the weekly flows,
    /// a few numbers per episode, and a row for each open episode, never an ``Episode``.
    package struct Tally: Sendable {
        package let asOf: Int64
        package let options: Options
        var recoveryByCohort: RecoveryByCohort.Tally
        var recoveryCurve: RecoveryCurve.ByPlan
        var gracePeriod: GracePeriod.Tally
        var graceRevenue = GraceRevenue.Tally()
        var messageBands: MessageBands.Tally
        var retryDays: RetryDays.Tally
        var revenue = Revenue.Tally()
        var graceWhatIf: GraceWhatIf.Tally
        /// The usual grace lengths of the episodes added: the report's scope is every episode, so these are the
        /// lengths that dated its grace periods.
        var graceLengths = GraceLengths(observedIn: [])
        /// Each product's grace length by month, which shows when an app's setting changed.
        var graceMonths = GraceChange.Months()
        var openEpisodes: OpenEpisodes.Tally
        var flows: Flows.Tally
        /// Episodes started per month of t0, for `billing_failures.csv`.
        var started = PeriodCounts()

        /// - Parameters:
        ///   - asOf: the report's as-of time (Unix ms).
        ///   - options: cohort granularity and message schedule.
        package init(asOf: Int64, options: Options = Options()) {
            self.asOf = asOf
            self.options = options
            recoveryByCohort = RecoveryByCohort.Tally(asOf: asOf, granularity: options.granularity)
            recoveryCurve = RecoveryCurve.ByPlan(asOf: asOf)
            gracePeriod = GracePeriod.Tally(asOf: asOf, granularity: options.granularity)
            messageBands = MessageBands.Tally(asOf: asOf, schedule: options.schedule)
            retryDays = RetryDays.Tally(asOf: asOf)
            graceWhatIf = GraceWhatIf.Tally(asOf: asOf)
            flows = Flows.Tally(asOf: asOf)
            openEpisodes = OpenEpisodes.Tally(asOf: asOf)
        }

        /// Adds one finished episode (``EpisodeDataset/finish()``) of the report's scope.
        package mutating func add(_ episode: Episode) {
            recoveryByCohort.add(episode)
            recoveryCurve.add(episode)
            gracePeriod.add(episode)
            graceRevenue.add(episode)
            messageBands.add(episode)
            retryDays.add(episode)
            revenue.add(episode)
            graceWhatIf.add(episode)
            graceLengths.observe(episode)
            graceMonths.add(episode)
            openEpisodes.add(episode)
            flows.add(episode)
            started.add(episode.cohort(.month))
        }

        /// The evaluation of every grace change the episodes added show or the options state, to which a second
        /// pass adds the same episodes again (``GraceChange/Evaluation``): which episodes it needs is known only once
        /// all have been seen. Empty, needing no second pass, without a change.
        package var graceChangeEvaluation: GraceChange.Evaluation {
            GraceChange.Evaluation(changes: graceMonths.changes(stated: options.statedGraceChanges), asOf: asOf)
        }
    }
}
