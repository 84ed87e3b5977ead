/// An ad-hoc question about a set of episodes (`churn query`), answered by the report's own analyzers.
///
/// Each group's figures are the figures of the report's total row computed over that group's episodes, so an
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
        /// Recovered, saved, lost and at-risk amounts per currency, and what retry is expected to bring back
        /// (`revenue.csv`).
        case revenue
        /// Per product and grace length, the paid days kept and the free access given over mature episodes
        /// (`grace_whatif.csv`).
        case graceWhatIf = "grace-whatif"
        /// Episodes entering and leaving retry per ISO week (`flows.csv`).
        case flows
        /// What each change of an app's grace setting did (`grace_change.csv`): over every episode in scope, in two
        /// passes (``Tally/graceChangeEvaluation``); never grouped.
        case graceChange = "grace-change"
        /// The retry days the app showed the billing-issue sheet against the others (`message_log.csv`), from the
        /// app's message log; never grouped.
        case messageLog = "message-log"
        /// The experiment arms of the app's message log against the reference arm (`message_experiment.csv`); never
        /// grouped.
        case messageExperiment = "message-experiment"
        /// The episodes, one row each (``EpisodeList``).
        case episodes
        /// The open episodes with their chance of recovery (`open_episodes.csv`), selected and ordered by
        /// ``EpisodeQuestion/openEpisodes``; each group's chances from its own recovery curve.
        case openEpisodes = "open-episodes"
    }

    /// One group's figures, of the question's kind.
    package enum Figures: Hashable, Sendable {
        /// The group's episodes by outcome and the mature ones (`recovery_by_cohort.csv`'s total row).
        case recoveryRate(RecoveryByCohort.Row)
        case recoveryCurve([RecoveryCurve.Point])
        /// The group's grace episodes (`grace_period.csv`'s total row).
        case graceSaves(GracePeriod.Counts)
        case graceRevenue([GraceRevenue.Row])
        /// Per band of the question's schedule.
        case messageBands([MessageBands.Figures])
        case retryDays([RetryDays.Day])
        case revenue([Revenue.Row])
        case graceWhatIf([GraceWhatIf.Row])
        case flows([Flows.Week])
        case graceChange([GraceChange.Row])
        case messageLog([ShownDays.Row])
        case messageExperiment([MessageExperiment.Row])
        /// In ``EpisodeList/sorted(_:)`` order.
        case episodes([Episode])
        /// In the order of ``EpisodeQuestion/openEpisodes``.
        case openEpisodes([OpenEpisodes.Row])
    }

    /// One group of the answer.
    package struct Group: Hashable, Sendable {
        /// The group's value of each grouping attribute, in the question's order; nil for the figures over all
        /// episodes in scope.
        package var key: [EpisodeGrouping.Value]?
        package var figures: Figures

        package init(key: [EpisodeGrouping.Value]?, figures: Figures) {
            self.key = key
            self.figures = figures
        }

        /// The group with only the weeks of its flows that overlap `[from, before)` (either bound nil: open); other
        /// figures unchanged. `churn query flows --from/--to` names weeks to show, not episodes: a week's row counts
        /// every episode entering or leaving in it, whenever it started, as `flows.csv` does.
        package func keepingWeeks(from: Int64?, before: Int64?) -> Group {
            guard case .flows(let weeks) = figures else { return self }
            let kept = weeks.filter { week in
                (from.map { week.week.end > $0 } ?? true) && (before.map { week.week.start < $0 } ?? true)
            }
            return Group(key: key, figures: .flows(kept))
        }
    }

    package var kind: Kind
    /// Group by these attributes, in this order; empty for one answer over all episodes.
    package var grouping: [EpisodeGrouping]
    /// The message schedule: `message-bands` models exposure with it, `retry-days` marks its message days.
    package var schedule: MessageSchedule
    /// For `episodes` and `open-episodes`: at most this many rows of each group (of all episodes when there is no
    /// grouping).
    package var limit: Int?
    /// For `open-episodes`: which rows, in what order.
    package var openEpisodes: OpenEpisodes.Selection
    /// For `episodes`: only episodes with one of these outcomes as of the as-of time (an episode still open 61 days
    /// after its start is `expired` by then); empty for every outcome.
    package var outcomes: [Episode.Outcome]
    /// For `grace-change`: the changes the user states (`--grace-change`).
    package var graceChanges: [GraceChange.Stated] = []

    package init(
        _ kind: Kind,
        grouping: [EpisodeGrouping] = [],
        schedule: MessageSchedule = .standard,
        limit: Int? = nil,
        openEpisodes: OpenEpisodes.Selection = .init(),
        outcomes: [Episode.Outcome] = []
    ) {
        self.kind = kind
        self.grouping = grouping
        self.schedule = schedule
        self.limit = limit
        self.openEpisodes = openEpisodes
        self.outcomes = outcomes
    }

    /// Whether the answer lists rows group by group, without figures over all episodes: `episodes` and
    /// `open-episodes`.
    package var isList: Bool { kind == .episodes || kind == .openEpisodes }

    /// The answer over `episodes` (already filtered to the question's scope).
    ///
    /// `episodes`: each group's episodes, groups in order, the first `limit` of each group (by start). Every other
    /// kind: with a grouping, each group's figures, groups in order, then the figures over all episodes (key nil);
    /// without one, only the latter.
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
    package func answer(episodes: [Episode], asOf: Int64) -> [Group] {
        var tally = Tally(self, asOf: asOf)
        for episode in episodes { tally.add(episode) }
        guard kind == .graceChange else { return tally.answer }
        return [Group(key: nil, figures: .graceChange(tally.graceChangeEvaluation.rows(addingAgain: episodes)))]
    }
}
