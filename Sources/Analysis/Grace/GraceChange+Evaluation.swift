extension GraceChange {
    /// Bootstrap resamples per estimate.
    package static let resamples = 2_000
    /// The bootstrap's fixed seed, so that a report is reproducible; each change draws from its own stream.
    package static let seed: UInt64 = 0x6772_6163_6543_6867

    /// What a change did (METRICS.md v2.2, "A grace change, evaluated"): over the mature standard episodes of the
    /// treated products (t) and of the comparison products (k), before (0) and after (1) the change, the difference
    /// in differences D = (t1 − t0) − (k1 − k0) of three figures, with a 95 % percentile interval from a bootstrap
    /// that resamples subscriptions within each of the four groups, and the same estimate at a placebo date 180 days
    /// earlier (only when the data reach back to c − 270 days).
    ///
    /// Added up one episode at a time: per change and group, a few sums per subscription of the windows.
    package struct Evaluation: Sendable {
        /// One subscription's mature episodes in one group.
        struct Sums: Sendable {
            var episodes = 0
            var recovered = 0
            /// Σ duration of the episodes recovered by retry within their grace length, in ms.
            var paidKept: Int64 = 0
            /// Σ min(duration, grace length) of the other episodes, in ms.
            var freeAccess: Int64 = 0

            mutating func add(_ other: Sums) {
                episodes += other.episodes
                recovered += other.recovered
                paidKept += other.paidKept
                freeAccess += other.freeAccess
            }

            /// (R, P, F); nil without an episode.
            var figures: [Double]? {
                guard episodes > 0 else { return nil }
                let count = Double(episodes)
                let day = Double(Milliseconds.day)
                return [
                    Double(recovered) / count, Double(paidKept) / day / count, Double(freeAccess) / day / count,
                ]
            }
        }

        /// One group: subscription → its sums.
        typealias Group = [String: Sums]

        /// The windows of one estimate, by the time their after-window begins (c, or c − 180 d for the placebo).
        struct Windows: Sendable {
            var treatedBefore = Group()
            var treatedAfter = Group()
            /// Per candidate product, as only those with mature episodes in both windows of the change are kept.
            var comparisonBefore: [Product: Group] = [:]
            var comparisonAfter: [Product: Group] = [:]
        }

        struct State: Sendable {
            var change: Change
            var treated: Set<Product>
            var candidates: Set<Product>
            var estimate = Windows()
            var placebo = Windows()
        }

        let asOf: Int64
        private var states: [State]
        /// The earliest `t0` of any episode added: the placebo needs data from its before-window's start on.
        private var earliestStart = Int64.max

        /// - Parameters:
        ///   - changes: the changes to evaluate (``Months/changes(stated:)``).
        ///   - asOf: the as-of time (Unix ms), which decides which episodes are mature.
        package init(changes: [Change], asOf: Int64) {
            self.asOf = asOf
            states = changes.map { State(change: $0, treated: Set($0.treated), candidates: Set($0.candidates)) }
        }

        /// Whether there is anything to evaluate: without a change, no episode need be added.
        package var isEmpty: Bool { states.isEmpty }

        /// The rows after the second pass over `episodes`, the same episodes the changes were found in; without a
        /// change, none is read.
        package func rows(addingAgain episodes: some Sequence<Episode>) -> [Row] {
            var evaluation = self
            if !isEmpty {
                for episode in episodes { evaluation.add(episode) }
            }
            return evaluation.rows()
        }

        /// ``rows(addingAgain:)`` for episodes that stream through `stream` (a database cursor, say), which is
        /// called only when there is a change.
        package func rows(streamingAgain stream: (_ body: (Episode) throws -> Void) throws -> Void) throws -> [Row] {
            var evaluation = self
            if !isEmpty {
                try stream { evaluation.add($0) }
            }
            return evaluation.rows()
        }

        /// Adds one finished episode of the report's scope.
        package mutating func add(_ episode: Episode) {
            earliestStart = min(earliestStart, episode.start)
            guard episode.billingPlan == .standard, episode.isMature(asOf: asOf) else { return }
            let product = Product(episode)
            var contribution: Sums?
            for index in states.indices {
                let isTreated = states[index].treated.contains(product)
                guard isTreated || states[index].candidates.contains(product) else { continue }
                let date = states[index].change.date
                let sums = contribution ?? Self.sums(of: episode, asOf: asOf)
                contribution = sums
                Self.add(
                    sums, of: episode, product: product, isTreated: isTreated, at: date, to: &states[index].estimate)
                Self.add(
                    sums, of: episode, product: product, isTreated: isTreated, at: date - placeboOffset,
                    to: &states[index].placebo)
            }
        }

        /// An episode's contribution: recovered or not, and its paid or free days at the grace length it really had
        /// (its whole days, ``Episode/graceDays``; 0 without a grace period or with an unknown grace end).
        static func sums(of episode: Episode, asOf: Int64) -> Sums {
            let duration = episode.duration(asOf: asOf)
            let limit = Int64(episode.graceDays ?? 0) * Milliseconds.day
            var sums = Sums(episodes: 1, recovered: episode.outcome == .recovered ? 1 : 0)
            if limit > 0, episode.outcome == .recovered, episode.recoveredBy == .retry, duration <= limit {
                sums.paidKept = duration
            } else {
                sums.freeAccess = min(duration, limit)
            }
            return sums
        }

        private static func add(
            _ sums: Sums, of episode: Episode, product: Product, isTreated: Bool, at date: Int64,
            to windows: inout Windows
        ) {
            let start = episode.start
            guard start >= date - window, start < date + window else { return }
            let isAfter = start >= date
            switch (isTreated, isAfter) {
            case (true, false): windows.treatedBefore[episode.subscription, default: Sums()].add(sums)
            case (true, true): windows.treatedAfter[episode.subscription, default: Sums()].add(sums)
            case (false, false):
                windows.comparisonBefore[product, default: [:]][episode.subscription, default: Sums()].add(sums)
            case (false, true):
                windows.comparisonAfter[product, default: [:]][episode.subscription, default: Sums()].add(sums)
            }
        }

        /// One row per change, in the changes' order.
        package func rows() -> [Row] {
            states.enumerated().map { index, state in
                // The comparison: candidates with mature episodes in both windows of the change.
                let comparison = state.change.candidates.filter {
                    state.estimate.comparisonBefore[$0] != nil && state.estimate.comparisonAfter[$0] != nil
                }
                let estimate = Self.estimate(
                    state.estimate, comparison: comparison,
                    generator: SplitMix64(seed: seed, index: UInt64(index), stream: 0))
                // The placebo only where the data reach back to its before-window's start.
                let placeboDate = state.change.date - placeboOffset
                let placebo =
                    earliestStart <= placeboDate - window
                    ? Self.estimate(
                        state.placebo, comparison: comparison,
                        generator: SplitMix64(seed: seed, index: UInt64(index), stream: 1)) : nil
                let before = Self.total(state.estimate.treatedBefore)
                let after = Self.total(state.estimate.treatedAfter)
                let comparisonBefore =
                    comparison.isEmpty ? nil : Self.total(Self.merge(state.estimate.comparisonBefore, comparison))
                let comparisonAfter =
                    comparison.isEmpty ? nil : Self.total(Self.merge(state.estimate.comparisonAfter, comparison))
                let figures = Figure.Name.allCases.enumerated().map { position, name in
                    Figure(
                        name: name, before: before.figures?[position], after: after.figures?[position],
                        comparisonBefore: comparisonBefore?.figures?[position],
                        comparisonAfter: comparisonAfter?.figures?[position],
                        did: estimate?.did[position], interval: estimate?.intervals[position],
                        placeboDid: placebo?.did[position], placeboInterval: placebo?.intervals[position])
                }
                return Row(
                    bundleId: state.change.bundleId, changeDate: state.change.date,
                    settingBefore: state.change.settingBefore, settingAfter: state.change.settingAfter,
                    products: state.change.treated.map(\.productId), episodesBefore: before.episodes,
                    episodesAfter: after.episodes, comparison: comparison.map(\.productId), figures: figures)
            }
        }

        /// The comparison products' groups as one group.
        private static func merge(_ groups: [Product: Group], _ products: [Product]) -> Group {
            var merged = Group()
            for product in products {
                for (subscription, sums) in groups[product] ?? [:] { merged[subscription, default: Sums()].add(sums) }
            }
            return merged
        }

        private static func total(_ group: Group) -> Sums {
            var total = Sums()
            for sums in group.values { total.add(sums) }
            return total
        }

        /// D for each figure, with its bootstrap interval; nil when the treated products, or the comparison when
        /// there is one, lack mature episodes in either window.
        private static func estimate(
            _ windows: Windows, comparison: [Product], generator: SplitMix64
        ) -> (did: [Double], intervals: [ConfidenceInterval?])? {
            // Subscriptions in UTF-8 order, so that the same data draw the same resamples in every run.
            func ordered(_ group: Group) -> [Sums] {
                group.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
            }
            var groups = [ordered(windows.treatedBefore), ordered(windows.treatedAfter)]
            if !comparison.isEmpty {
                groups += [
                    ordered(merge(windows.comparisonBefore, comparison)),
                    ordered(merge(windows.comparisonAfter, comparison)),
                ]
            }
            guard groups.allSatisfy({ !$0.isEmpty }) else { return nil }
            func did(_ totals: [Sums]) -> [Double] {
                let figures = totals.map { $0.figures ?? [0, 0, 0] }
                return (0..<3).map { position in
                    let treated = figures[1][position] - figures[0][position]
                    return figures.count == 4 ? treated - (figures[3][position] - figures[2][position]) : treated
                }
            }
            let estimate = did(groups.map { group in group.reduce(into: Sums()) { $0.add($1) } })
            var generator = generator
            var draws = Array(repeating: [Double](), count: 3)
            for _ in 0..<resamples {
                let totals = groups.map { group in
                    var total = Sums()
                    for _ in 0..<group.count { total.add(group[generator.index(below: group.count)]) }
                    return total
                }
                for (position, value) in did(totals).enumerated() { draws[position].append(value) }
            }
            return (estimate, draws.map(Bootstrap.percentileInterval))
        }
    }

    /// One figure of a change: the treated and comparison values before and after, D and its interval, and the
    /// placebo's.
    package struct Figure: Hashable, Sendable {
        /// The figures, in the file's order.
        package enum Name: String, CaseIterable, Sendable {
            case recovered
            case paidDaysKeptPerEpisode = "paid_days_kept_per_episode"
            case freeAccessDaysPerEpisode = "free_access_days_per_episode"
        }

        package var name: Name
        package var before: Double?
        package var after: Double?
        package var comparisonBefore: Double?
        package var comparisonAfter: Double?
        package var did: Double?
        package var interval: ConfidenceInterval?
        package var placeboDid: Double?
        package var placeboInterval: ConfidenceInterval?
    }

    /// One row of `grace_change.csv`.
    package struct Row: Hashable, Sendable {
        package var bundleId: String
        /// c, Unix ms.
        package var changeDate: Int64
        package var settingBefore: String?
        package var settingAfter: String?
        /// The treated products' ids.
        package var products: [String]
        /// The treated products' mature episodes in each window.
        package var episodesBefore: Int
        package var episodesAfter: Int
        /// The comparison products' ids; empty when D is the plain before/after difference.
        package var comparison: [String]
        /// Recovered share, paid days kept and free access days per episode, in that order.
        package var figures: [Figure]
    }
}
