/// The figures of `forecast_check.csv` (METRICS.md, "How well the forecast did"): the recovery chances the report's
/// method gave, 61 days before the as-of time T, to the episodes open then, against what became of them by T.
///
/// At the check time B = T − 61 days, each episode open at B gets its ``RecoveryCurve/Estimate/recoveryChance(duration:)``
/// from the recovery curve of every episode built as of B (what was known then); 61 days later it is mature, so its
/// outcome is final at T. It counts as recovered when it ended `recovered` (by retry or a new purchase) at most 60 days
/// after t0, the horizon the chance is about. An episode open at B is found at T by its subscription and opening
/// notification, which also fixes its t0; one not found there (a rebuild that no longer opens it) is left out and
/// counted in ``Check/unmatched``.
///
/// Two tallies keep what the check needs, never the episodes: ``Then`` takes the episodes as of B (their curve and
/// the open ones' durations), ``Tally`` takes the episodes as of T and keeps only the outcomes of those open at B.
package enum ForecastCheck {
    /// How far before the as-of time the check looks: 61 days, so that every episode open then is mature now.
    package static let lookback = Episode.retryHorizon
    /// Chances are grouped by tenths: [0, 0.1), [0.1, 0.2), …, [0.9, 1.0].
    package static let bandCount = 10

    /// The check time B of a report as of `asOf`: 61 days earlier (the earliest time when that overflows).
    package static func checkTime(asOf: Int64) -> Int64 {
        let (time, overflow) = asOf.subtractingReportingOverflow(lookback)
        return overflow ? Int64.min : time
    }

    /// The band of a chance: k for k/10 ≤ chance < (k + 1)/10, 9 for the last tenth and 1 itself (and above).
    ///
    /// The chance is first rounded to 6 decimals, as `forecast_check.csv` writes chances, so that a chance that is
    /// a bound in exact arithmetic (0.3 / 0.6 = 0.5, computed as 0.49999999999999994) falls in the band its written
    /// value names; the bounds are then the `Double`s k/10, so 0.1 exactly is in band 1.
    package static func band(of chance: Double) -> Int {
        let written = (chance * 1_000_000).rounded() / 1_000_000
        guard written.isFinite, written > 0 else { return 0 }
        var band = min(max(Int((written * 10).rounded(.down)), 0), bandCount - 1)
        // The product may round across a bound; the bounds themselves decide.
        if band < bandCount - 1, written >= Double(band + 1) / 10 { band += 1 }
        if band > 0, written < Double(band) / 10 { band -= 1 }
        return band
    }

    /// An episode as the check knows it at B and T: its subscription and opening notification (which fix t0), held
    /// as two independent 64-bit hashes of them, 16 bytes instead of two strings, so the open episodes of a large
    /// scope stay small in memory. The hashes are of this process (Swift's `Hasher`), which runs both passes; two
    /// keys of different episodes are equal with a chance of about n² / 2¹²⁹ for n open episodes, none in practice.
    package struct Key: Hashable, Sendable {
        private var first: UInt64
        private var second: UInt64

        package init(subscription: String, openingNotificationUUID: String) {
            func hash(_ seed: UInt8) -> UInt64 {
                var hasher = Hasher()
                hasher.combine(seed)
                hasher.combine(subscription)
                hasher.combine(openingNotificationUUID)
                return UInt64(bitPattern: Int64(hasher.finalize()))
            }
            first = hash(1)
            second = hash(2)
        }

        package init(_ episode: Episode) {
            self.init(subscription: episode.subscription, openingNotificationUUID: episode.openingNotificationUUID)
        }
    }

    /// What the episodes as of B foretold: each open episode's chance, and how many episodes there were at all.
    package struct Forecast: Hashable, Sendable {
        /// An episode open at B and the chance the method gave it.
        package struct Entry: Hashable, Sendable {
            package var key: Key
            package var chance: Double

            package init(key: Key, chance: Double) {
                self.key = key
                self.chance = chance
            }
        }

        /// B (Unix ms).
        package var checkTime: Int64
        /// Episodes of the scope as of B, open or not: 0 when the data start after B (too little history).
        package var episodesThen: Int
        /// The episodes open at B with their chances of recovery by day 60, in the order they were built: the order
        /// the check adds them up in, so its sums are the same at every run.
        package private(set) var open: [Entry]
        /// Each open episode's place in ``open``.
        private var places: [Key: Int]

        package init(checkTime: Int64, episodesThen: Int = 0, open: [Entry] = []) {
            self.checkTime = checkTime
            self.episodesThen = episodesThen
            self.open = open
            places = Dictionary(open.enumerated().map { ($0.element.key, $0.offset) }) { first, _ in first }
        }

        /// The place in ``open`` of the episode with `key`; nil for one not open at B.
        package func place(of key: Key) -> Int? {
            places[key]
        }

        /// The chance given to the episode with `key`; nil for one not open at B.
        package func chance(of key: Key) -> Double? {
            place(of: key).map { open[$0].chance }
        }
    }

    /// The episodes as of B, added one at a time: the recovery curve's durations and outcomes, and each open
    /// episode's key and duration.
    package struct Then: Sendable {
        package let checkTime: Int64
        private var curve: RecoveryCurve.Tally
        private var open: [(key: Key, duration: Int64)] = []
        private var episodes = 0

        /// - Parameter checkTime: B (Unix ms), the as-of time the episodes were built for.
        package init(checkTime: Int64) {
            self.checkTime = checkTime
            curve = RecoveryCurve.Tally(asOf: checkTime)
        }

        /// Adds one finished episode built as of B. Commitment episodes are left out: 61 days after B one of them may
        /// still be in retry, so its outcome would not be final at T.
        package mutating func add(_ episode: Episode) {
            guard episode.billingPlan == .standard else { return }
            episodes += 1
            curve.add(episode)
            if episode.isOpen { open.append((Key(episode), episode.duration(asOf: checkTime))) }
        }

        /// Each open episode's chance from the curve of every episode added.
        package var forecast: Forecast {
            let estimate = curve.estimate
            return Forecast(
                checkTime: checkTime, episodesThen: episodes,
                open: open.map { Forecast.Entry(key: $0.key, chance: estimate.recoveryChance(duration: $0.duration)) })
        }
    }

    /// The episodes as of T, added one at a time: whether each episode open at B recovered by day 60.
    package struct Tally: Sendable {
        package let forecast: Forecast
        /// Per open episode of the forecast, by place: 0 not found at T, 1 found and not recovered, 2 recovered.
        private var outcomes: [UInt8]

        package init(forecast: Forecast) {
            self.forecast = forecast
            outcomes = [UInt8](repeating: 0, count: forecast.open.count)
        }

        /// Adds one finished episode built as of T; only those open at B are kept, as one byte each.
        package mutating func add(_ episode: Episode) {
            guard let place = forecast.place(of: Key(episode)) else { return }
            outcomes[place] = ForecastCheck.isRecoveredInWindow(episode) ? 2 : 1
        }

        /// The check: every episode open at B that was found at T, by band of its chance.
        package var check: Check {
            ForecastCheck.check(forecast, outcomes: outcomes.map { $0 == 0 ? nil : $0 == 2 })
        }
    }

    /// The check from the episodes as of T alone, in the report's own pass, with no second build: each episode of
    /// T is taken as it stood at B (``asItStood(_:at:)``), which gives the curve and the open episodes of B, and an
    /// episode open at B is its own outcome at T, so none goes unmatched.
    ///
    /// It differs from the check of episodes built afresh as of B (``Then``, ``Tally``) only where the notifications
    /// signed by B tell another story than the episode's times: an episode whose t0 is at or before B but whose
    /// opening notification was signed after B (absent from the build as of B, here open at B), and one that ended
    /// at or before B by a notification signed after B (open in the build as of B, here closed). It keeps, for each
    /// episode opened by B, the curve's 16 bytes, and for each open at B its duration and outcome.
    package struct Derived: Sendable {
        private var then: Then
        /// Per episode open at B, in the order added: whether it recovered by day 60.
        private var recovered: [Bool] = []

        /// - Parameter asOf: T, the as-of time of the episodes added.
        package init(asOf: Int64) {
            then = Then(checkTime: ForecastCheck.checkTime(asOf: asOf))
        }

        /// Adds one finished episode built as of T.
        package mutating func add(_ episode: Episode) {
            guard episode.billingPlan == .standard, episode.start <= then.checkTime else { return }
            let stood = ForecastCheck.asItStood(episode, at: then.checkTime)
            then.add(stood)
            if stood.isOpen { recovered.append(ForecastCheck.isRecoveredInWindow(episode)) }
        }

        /// The check: every episode open at B, by band of its chance.
        package var check: Check {
            ForecastCheck.check(then.forecast, outcomes: recovered)
        }
    }

    /// An episode as of T as it stood at `time` (t0 ≤ `time`): as it is when it ended by then, an end by inference
    /// only once the episode was mature; otherwise open, its end and outcome unknown yet.
    package static func asItStood(_ episode: Episode, at time: Int64) -> Episode {
        if let end = episode.end, end <= time, !episode.endInferred || episode.isMature(asOf: time) { return episode }
        var open = episode
        open.end = nil
        open.outcome = .open
        open.recoveredBy = nil
        open.endInferred = false
        open.closingNotificationUUID = nil
        return open
    }

    /// The check of `forecast`'s open episodes, given each one's outcome in their order: whether it recovered by day
    /// 60, or nil for one not found at T (in no row, counted in ``Check/unmatched``).
    private static func check(_ forecast: Forecast, outcomes: [Bool?]) -> Check {
        var bands = [Row](repeating: Row(), count: bandCount)
        var unmatched = 0
        for (entry, outcome) in zip(forecast.open, outcomes) {
            guard let recovered = outcome else {
                unmatched += 1
                continue
            }
            bands[band(of: entry.chance)].add(chance: entry.chance, recovered: recovered)
        }
        return Check(
            checkTime: forecast.checkTime, episodesThen: forecast.episodesThen, bands: bands, unmatched: unmatched)
    }

    /// Recovered (by retry or a new purchase) at most 60 days after t0.
    package static func isRecoveredInWindow(_ episode: Episode) -> Bool {
        guard episode.outcome == .recovered, let end = episode.end else { return false }
        return Milliseconds.elapsed(from: episode.start, to: end) <= Episode.retryWindow
    }

    /// One row of `forecast_check.csv`: the episodes of one band (or all), their chances and outcomes.
    package struct Row: Hashable, Sendable {
        /// Episodes open at B and found at T.
        package var episodes = 0
        /// Σ chance: the recoveries the method expected.
        package var expected = 0.0
        /// Those recovered by day 60.
        package var observed = 0

        package init(episodes: Int = 0, expected: Double = 0, observed: Int = 0) {
            self.episodes = episodes
            self.expected = expected
            self.observed = observed
        }

        mutating func add(chance: Double, recovered: Bool) {
            episodes += 1
            expected += chance
            if recovered { observed += 1 }
        }

        /// observed / episodes; nil without episodes.
        package var observedShare: Double? {
            episodes == 0 ? nil : Double(observed) / Double(episodes)
        }

        /// The observed share's 95 % Wilson interval; nil without episodes.
        package var interval: ConfidenceInterval? {
            .wilson(successes: observed, trials: episodes)
        }

        /// expected / episodes; nil without episodes.
        package var meanChance: Double? {
            episodes == 0 ? nil : expected / Double(episodes)
        }

        static func + (lhs: Row, rhs: Row) -> Row {
            Row(
                episodes: lhs.episodes + rhs.episodes, expected: lhs.expected + rhs.expected,
                observed: lhs.observed + rhs.observed)
        }
    }

    /// The finished check.
    package struct Check: Hashable, Sendable {
        /// B (Unix ms).
        package var checkTime: Int64
        /// Episodes of the scope as of B, open or not.
        package var episodesThen: Int
        /// One row per tenth of the chance, band 0 ([0, 0.1)) first; empty bands have no episodes.
        package var bands: [Row]
        /// Episodes open at B that the episodes as of T do not hold: in no row.
        package var unmatched: Int

        package init(checkTime: Int64, episodesThen: Int = 0, bands: [Row] = [], unmatched: Int = 0) {
            self.checkTime = checkTime
            self.episodesThen = episodesThen
            self.bands = bands
            self.unmatched = unmatched
        }

        /// No episodes as of B and so nothing to check: the check of a report whose data start after B, or of one
        /// made without the episodes as of B.
        package static func empty(asOf: Int64) -> Check {
            Check(checkTime: ForecastCheck.checkTime(asOf: asOf))
        }

        /// Every band added up.
        package var total: Row {
            bands.reduce(Row(), +)
        }
    }

    /// The check of a report as of `now.asOf` from datasets held whole: `then` built as of B = `now.asOf` − 61 days
    /// and `now` as of T, both finished and of the same scope.
    package static func check(then: EpisodeDataset, now: EpisodeDataset) -> Check {
        var before = Then(checkTime: then.asOf)
        for episode in then.episodes { before.add(episode) }
        var tally = Tally(forecast: before.forecast)
        for episode in now.episodes { tally.add(episode) }
        return tally.check
    }
}
