extension EpisodeQuestion {
    /// A question's answer added up one episode at a time, so that the episodes in scope can stream through (from a
    /// database cursor) instead of being held: each group keeps its analyzer's tally (counts and sums, a few numbers
    /// per episode for the curves and the flows), never an ``Episode``, except the rows `episodes` lists, at most
    /// ``EpisodeQuestion/limit`` of each group.
    package struct Tally: Sendable {
        package let question: EpisodeQuestion
        package let asOf: Int64
        /// Each group's figures so far, by the group's value of each grouping attribute.
        private var groups: [[EpisodeGrouping.Value]: FigureTally] = [:]
        /// The figures over every episode in scope.
        private var total: FigureTally
        /// For `grace-whatif`: the usual grace lengths of the episodes in scope.
        private var graceLengths = GraceLengths(observedIn: [])
        /// For `open-episodes`: the recovery curves of every episode in scope, whatever its group. A customer's
        /// chance is one figure, as in the report's `open_episodes.csv`: grouping sorts the list, it does not
        /// re-estimate the chance from a group's fewer episodes (a small group's curve can be 0 with no recovery yet).
        private var scopeCurve: RecoveryCurve.ByPlan?
        /// For `grace-change`: each product's grace length by month.
        private var graceMonths = GraceChange.Months()

        /// - Parameters:
        ///   - question: what is asked.
        ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
        package init(_ question: EpisodeQuestion, asOf: Int64) {
            self.question = question
            self.asOf = asOf
            total = FigureTally(question, asOf: asOf)
            if question.kind == .openEpisodes { scopeCurve = RecoveryCurve.ByPlan(asOf: asOf) }
        }

        /// Adds one episode of the question's scope.
        package mutating func add(_ episode: Episode) {
            if question.kind == .graceSaves && !episode.hasGrace { return }
            if question.kind == .graceWhatIf { graceLengths.observe(episode) }
            if question.kind == .graceChange { graceMonths.add(episode) }
            scopeCurve?.add(episode)
            // `episodes` lists by group only, one group holding everything without a grouping; every other kind
            // also has the figures over every episode.
            if question.isList || !question.grouping.isEmpty {
                let key = question.grouping.map { $0.value(of: episode) }
                groups[key, default: FigureTally(question, asOf: asOf)].add(episode)
            }
            if !question.isList { total.add(episode) }
        }

        /// For `grace-change`: the evaluation of the changes the episodes added show or the question states, to which
        /// a second pass adds the same episodes (its rows are the answer).
        package var graceChangeEvaluation: GraceChange.Evaluation {
            GraceChange.Evaluation(changes: graceMonths.changes(stated: question.graceChanges), asOf: asOf)
        }

        /// The answer (see ``EpisodeQuestion/answer(episodes:asOf:)``); `grace-whatif` finds each product's grace
        /// length in the episodes in scope.
        package var answer: [Group] {
            answer(graceLengths: graceLengths)
        }

        /// The answer, `grace-whatif` taking each product's grace length from `graceLengths`: the usual lengths of
        /// every episode of the environment, which dated the grace periods, when a filter selected only some.
        package func answer(graceLengths: GraceLengths) -> [Group] {
            let ordered = groups.keys.sorted { $0.lexicographicallyPrecedes($1) }
            if question.isList {
                return ordered.compactMap { key in
                    guard
                        let listed = groups[key]?.result(
                            graceLengths: graceLengths, chancesFrom: scopeCurve?.estimates)
                    else { return nil }
                    switch listed {
                    case .episodes(let rows) where !rows.isEmpty: return Group(key: key, figures: listed)
                    case .openEpisodes(let rows) where !rows.isEmpty: return Group(key: key, figures: listed)
                    default: return nil
                    }
                }
            }
            var answer = ordered.compactMap { key in
                groups[key].map { Group(key: key, figures: $0.result(graceLengths: graceLengths)) }
            }
            answer.append(Group(key: nil, figures: total.result(graceLengths: graceLengths)))
            return answer
        }
    }

    /// One group's figures so far, in the form its question's analyzer adds them up: one of the tallies, the one
    /// of the question's kind.
    private struct FigureTally: Sendable {
        let kind: Kind
        let asOf: Int64
        let schedule: MessageSchedule
        var recoveryRate: RecoveryByCohort.Row?
        /// The recovery curve of each plan: `recovery-curve` answers with the standard plans' (`recovery_curve.csv`),
        /// and the chance of an open episode comes from its own plan's.
        var recoveryCurve: RecoveryCurve.ByPlan?
        var graceSaves: GracePeriod.Counts?
        var graceRevenue: GraceRevenue.Tally?
        var messageBands: MessageBands.Tally?
        var retryDays: RetryDays.Tally?
        var revenue: Revenue.Tally?
        var graceWhatIf: GraceWhatIf.Tally?
        var openEpisodes: OpenEpisodes.Tally?
        let selection: OpenEpisodes.Selection
        var flows: Flows.Tally?
        /// For `episodes`: the first `limit` in ``EpisodeList/sorted(_:)`` order; every one, unsorted, without a
        /// limit.
        var episodes: [Episode] = []
        let limit: Int?
        /// For `episodes`: the outcomes listed; empty for all.
        let outcomes: [Episode.Outcome]

        init(_ question: EpisodeQuestion, asOf: Int64) {
            kind = question.kind
            self.asOf = asOf
            schedule = question.schedule
            limit = question.limit.map { max(0, $0) }
            selection = question.openEpisodes
            outcomes = question.outcomes
            switch kind {
            case .recoveryRate: recoveryRate = RecoveryByCohort.Row(cohort: nil, productId: nil)
            case .recoveryCurve: recoveryCurve = RecoveryCurve.ByPlan(asOf: asOf)
            case .graceSaves: graceSaves = GracePeriod.Counts()
            case .graceRevenue: graceRevenue = GraceRevenue.Tally()
            case .messageBands: messageBands = MessageBands.Tally(asOf: asOf, schedule: schedule)
            case .retryDays: retryDays = RetryDays.Tally(asOf: asOf)
            case .revenue:
                // What retry is expected to bring back is weighed by the group's own recovery curve.
                revenue = Revenue.Tally()
                openEpisodes = OpenEpisodes.Tally(asOf: asOf)
                recoveryCurve = RecoveryCurve.ByPlan(asOf: asOf)
            case .graceWhatIf: graceWhatIf = GraceWhatIf.Tally(asOf: asOf)
            case .flows: flows = Flows.Tally(asOf: asOf)
            case .graceChange, .episodes, .messageLog, .messageExperiment: break
            case .openEpisodes:
                openEpisodes = OpenEpisodes.Tally(asOf: asOf)
                recoveryCurve = RecoveryCurve.ByPlan(asOf: asOf)
            }
        }

        mutating func add(_ episode: Episode) {
            recoveryRate?.add(episode, asOf: asOf)
            recoveryCurve?.add(episode)
            graceSaves?.add(episode, asOf: asOf)
            graceRevenue?.add(episode)
            messageBands?.add(episode)
            retryDays?.add(episode)
            revenue?.add(episode)
            graceWhatIf?.add(episode)
            openEpisodes?.add(episode)
            flows?.add(episode)
            if kind == .episodes, outcomes.isEmpty || outcomes.contains(episode.outcome) {
                if let limit {
                    EpisodeList.insert(episode, into: &episodes, keepingFirst: limit)
                } else {
                    episodes.append(episode)
                }
            }
        }

        /// The figures, as ``EpisodeQuestion/Figures``.
        /// - Parameters:
        ///   - graceLengths: the usual grace lengths that decide each product's `current` row of `grace-whatif`.
        ///   - chancesFrom: for `open-episodes`, the estimates each open episode's chance comes from; nil for this
        ///     group's own.
        func result(graceLengths: GraceLengths, chancesFrom scope: RecoveryCurve.Estimates? = nil) -> Figures {
            switch kind {
            case .recoveryRate: .recoveryRate(recoveryRate ?? RecoveryByCohort.Row(cohort: nil, productId: nil))
            case .recoveryCurve: .recoveryCurve(recoveryCurve?.standard.points ?? [])
            case .graceSaves: .graceSaves(graceSaves ?? GracePeriod.Counts())
            case .graceRevenue: .graceRevenue(graceRevenue?.rows ?? [])
            case .messageBands: .messageBands(messageBands?.figures ?? [])
            case .retryDays: .retryDays(retryDays?.lifeTable(schedule: schedule) ?? [])
            case .revenue:
                .revenue(
                    OpenEpisodes.revenue(
                        revenue?.rows ?? [],
                        expectedFrom: recoveryCurve.map { openEpisodes?.rows(estimates: $0.estimates) ?? [] } ?? []
                    )
                )
            case .graceWhatIf: .graceWhatIf(graceWhatIf?.rows(graceLengths: graceLengths) ?? [])
            case .flows: .flows(flows?.weeks ?? [])
            // The rows need a second pass (``Tally/graceChangeEvaluation``).
            case .graceChange: .graceChange([])
            // The rows need the app's message log (``MessageLog/Tally``).
            case .messageLog: .messageLog([])
            case .messageExperiment: .messageExperiment([])
            case .episodes: .episodes(limit == nil ? EpisodeList.sorted(episodes) : episodes)
            case .openEpisodes:
                .openEpisodes(
                    Array(
                        selection.apply(
                            (scope ?? recoveryCurve?.estimates).map { openEpisodes?.rows(estimates: $0) ?? [] } ?? []
                        )
                        .prefix(limit ?? Int.max)))
            }
        }
    }
}
