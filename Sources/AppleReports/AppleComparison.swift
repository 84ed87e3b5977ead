import Analysis
import CivilTime

/// Our billing-issue figures set beside App Store Connect's reports, per day and per ISO week, with Apple's privacy
/// measures in the judgement (METRICS.md, "Against Apple's reports").
///
/// Apple adds noise to each value of its detailed reports (about ±2 for 68 % of values, ±6 for 99.7 %) and leaves
/// out values under 5. A figure of Apple's is the sum of `k` values (one per combination of its other columns), so
/// its noise bound is ⌈6·√k⌉ (6 when Apple gives none). Leaving values out only lowers Apple's figure: each
/// combination that carries the figure on another day compared but is missing on this one may hold up to 4 (60 days
/// each for paid service days), and one such combination is assumed when Apple gives no value at all. Agreement is
/// −bound ≤ ours − Apple's ≤ bound + that threshold allowance. Only days Apple's files state, and that are complete by
/// the as-of time, are compared; a week adds up its days compared (the counts at a day's end: the week's last day
/// compared).
package struct AppleComparison: Sendable {
    /// Within Apple's noise, or not; or not compared, Apple's files holding no value of the figure.
    package enum Status: String, Hashable, Sendable {
        case agrees
        case differs
        /// Apple's files state the period but hold no value of this figure (`apple_values` 0), and ours, not 0, is
        /// small enough to be one Apple's threshold left out: nothing to agree or differ with. (Ours 0 agrees with
        /// no value; ours beyond the threshold's allowance `differs`: Apple would have shown it.)
        case unstated
    }

    /// One figure of one day or week.
    package struct Row: Hashable, Sendable {
        /// `day` or `week`.
        package var granularity: String
        /// `2025-03-04` or `2025-W10`.
        package var period: String
        package var metric: BillingIssueDays.Metric
        package var ours: Int
        package var apple: Int
        /// How many of Apple's values `apple` adds up.
        package var appleValues: Int
        /// The largest difference either way that is still agreement, from Apple's noise.
        package var noiseBound: Int
        /// How much more than `apple` ours may be because Apple left values under its threshold out.
        package var thresholdAllowance: Int
        package var status: Status

        package var difference: Int { ours - apple }

        /// `2025-W10: involuntary churn, ours 40 against Apple's 12 (a difference of 28, beyond Apple's noise of
        /// ±7)`; with a threshold allowance, `(… beyond Apple's noise of ±7 and the 4 its threshold may leave out)`.
        package var sentence: String {
            var text =
                "\(period): \(metric.label), ours \(ours) against Apple's \(apple) (a difference of \(abs(difference)), "
                + (status == .differs ? "beyond" : "within") + " Apple's noise of ±\(noiseBound)"
            if thresholdAllowance > 0, difference > 0 {
                text += " and the \(thresholdAllowance) its threshold may leave out"
            }
            return text + ")"
        }

        init(
            _ granularity: String, _ period: String, _ metric: BillingIssueDays.Metric, ours: Int, apple: Int,
            appleValues: Int, allowance: Int
        ) {
            self.granularity = granularity
            self.period = period
            self.metric = metric
            self.ours = ours
            self.apple = apple
            self.appleValues = appleValues
            noiseBound = AppleComparison.noiseBound(values: appleValues)
            thresholdAllowance = allowance
            let difference = ours - apple
            let withinNoise = -noiseBound <= difference && difference <= noiseBound + allowance
            status = !withinNoise ? .differs : appleValues == 0 && ours > 0 ? .unstated : .agrees
        }
    }

    /// Apple's noise on one value: about ±2 for 68 % of values.
    package static let noise68 = 2
    /// Apple's noise on one value: about ±6 for 99.7 % of values, the bound of agreement.
    package static let noise997 = 6
    /// Apple leaves out values under this.
    package static let threshold = 5
    /// The most paid service days one recovery can bring: billing retry lasts 60 days.
    package static let paidServiceDaysPerRecovery = 60

    /// Compared days, oldest first, each day's metrics in ``BillingIssueDays/Metric`` order.
    package var days: [Row] = []
    /// Compared weeks, oldest first: from Apple's weekly instances where it has them (the events; the states at the
    /// end of the week's last day compared come from the days), else added up from the days compared.
    package var weeks: [Row] = []
    /// Compared months, oldest first: Apple's monthly instances against our days of the month added up.
    package var months: [Row] = []
    /// Values of Apple's billing groupings (or with no grouping) that map to none of our metrics, with their counts
    /// over the days compared: kept as written and shown, never guessed.
    package var unmapped: [String: Int] = [:]
    /// The files read, in the order applied.
    package var files: [AppleReportSet.FileSummary]
    /// Apple's newest daily days left out, per report, oldest first (``AppleReportSet/heldBack(_:)``).
    package var heldBack: [AppleReportKind: [Int]] = [:]
    /// What was read but not compared, each a sentence naming its file: the files' notices
    /// (``AppleReportSet/notices``), then the days held back and the states of weekly or monthly files.
    package var notices: [String] = []

    /// The weeks whose figures differ beyond Apple's noise.
    package var differingWeeks: [Row] { weeks.filter { $0.status == .differs } }
    /// The figures of the weeks compared that Apple's files hold no value of (``Status/unstated``).
    package var unstatedWeekFigures: Int { weeks.filter { $0.status == .unstated }.count }
    /// Whether Apple's files hold no value of any weekly figure compared: nothing agrees or differs.
    package var statesNoWeekFigure: Bool { !weeks.isEmpty && weeks.allSatisfy { $0.status == .unstated } }
    /// The months whose figures differ beyond Apple's noise.
    package var differingMonths: [Row] { months.filter { $0.status == .differs } }

    /// Compares our days with Apple's.
    /// - Parameters:
    ///   - ours: the tally of every episode in scope.
    ///   - apple: the report files, merged.
    package init(ours: BillingIssueDays.Tally, apple: AppleReportSet) {
        files = apple.files
        notices = apple.notices
        let ourDays = Dictionary(ours.days.map { ($0.day, $0) }, uniquingKeysWith: { _, later in later })
        let heldEvents = Set(apple.heldBack(.subscriptionEvent))
        let heldStates = Set(apple.heldBack(.subscriptionState))
        for (kind, held) in [(AppleReportKind.subscriptionEvent, heldEvents), (.subscriptionState, heldStates)]
        where !held.isEmpty {
            let sorted = held.sorted()
            heldBack[kind] = sorted
            let range =
                sorted.count == 1
                ? Self.dayText(sorted[0]) : "\(Self.dayText(sorted[0]))–\(Self.dayText(sorted[sorted.count - 1]))"
            notices.append(
                "held back: the newest \(sorted.count == 1 ? "day" : "\(sorted.count) days") of Apple's daily "
                    + "\(kind.rawValue) files (\(range)); Apple completes a day within "
                    + "\(AppleReportSet.completenessDays) days, and a later file that restates them brings them back")
        }
        let daily = apple.daily
        let comparedDays = Set(daily.eventDays.keys).union(daily.stateDays.keys).filter { $0 <= ours.lastDay }.sorted()
        days = Self.rows(
            daily, .daily, periods: comparedDays, ours: { ourDays[$0] ?? BillingIssueDays.Day(day: $0) },
            skip: { metric, day in metric.isState ? heldStates.contains(day) : heldEvents.contains(day) })
        for day in comparedDays where !heldEvents.contains(day) {
            for (value, amount) in daily.eventDays[day] ?? [:] where AppleEvent.metric(forEventSubType: value) == nil {
                if apple.groupings[value].map(AppleEvent.isBillingGrouping) ?? true {
                    unmapped[value, default: 0] += amount.total
                }
            }
        }
        /// Our events added up over a week or month that Apple's file starts at `start`.
        func ourPeriod(_ granularity: AppleReportGranularity, _ start: Int) -> BillingIssueDays.Day {
            let first = granularity.periodStart(containing: start)
            var sum = BillingIssueDays.Day(day: first)
            for day in first...granularity.periodEnd(startingAt: first) {
                for metric in BillingIssueDays.Metric.allCases where !metric.isState {
                    sum.counts[metric, default: 0] += ourDays[day]?[metric] ?? 0
                }
            }
            return sum
        }
        var periodRows: [AppleReportGranularity: [Row]] = [:]
        for granularity in [AppleReportGranularity.weekly, .monthly] {
            let figures = apple.figures(granularity)
            let complete = figures.eventDays.keys.filter { start in
                granularity.periodEnd(startingAt: granularity.periodStart(containing: start)) <= ours.lastDay
            }
            periodRows[granularity] = Self.rows(
                figures, granularity, periods: complete.sorted(), ours: { ourPeriod(granularity, $0) },
                skip: { metric, _ in metric.isState })
            if !figures.stateDays.isEmpty {
                notices.append(
                    "not compared: \(granularity.rawValue) App Store Subscription State files; Apple documents that "
                        + "report daily only")
            }
        }
        let weekly = periodRows[.weekly] ?? []
        let weeklyPeriods = Set(weekly.map(\.period))
        weeks = (Self.weeks(of: days).filter { $0.metric.isState || !weeklyPeriods.contains($0.period) } + weekly)
            .sorted { ($0.period, $0.metric) < ($1.period, $1.metric) }
        months = periodRows[.monthly] ?? []
    }

    /// Whether Apple's `value` of a report counts in `metric`.
    private static func counts(_ value: String, in metric: BillingIssueDays.Metric) -> Bool {
        switch metric {
        case .inGrace, .inBillingRetry, .inCommitmentRetry: return AppleEvent.metric(forStateMetric: value) == metric
        // Apple fills paid service days for recoveries from grace only.
        case .paidServiceDaysRecovered: return AppleEvent.metric(forEventSubType: value) == .recoveredInGrace
        default: return AppleEvent.metric(forEventSubType: value) == metric
        }
    }

    /// The rows of `periods` (each a date of Apple's files of `granularity`), each metric's but those `skip` names.
    /// Every combination of Apple's columns that carried a figure in some period compared but is missing in another
    /// may have been left out under Apple's threshold there.
    private static func rows(
        _ figures: AppleReportSet.Figures, _ granularity: AppleReportGranularity, periods: [Int],
        ours: (Int) -> BillingIssueDays.Day, skip: (BillingIssueDays.Metric, Int) -> Bool
    ) -> [Row] {
        var seen: [BillingIssueDays.Metric: Set<String>] = [:]
        for period in periods {
            for metric in BillingIssueDays.Metric.allCases where !skip(metric, period) {
                seen[metric, default: []].formUnion(Self.combinations(metric, day: period, figures: figures))
            }
        }
        var rows: [Row] = []
        for period in periods {
            let our = ours(period)
            for metric in BillingIssueDays.Metric.allCases where !skip(metric, period) {
                guard let amount = Self.appleAmount(metric, day: period, figures: figures) else { continue }
                let missing =
                    (seen[metric]?.count ?? 0) - Self.combinations(metric, day: period, figures: figures).count
                let dropped = max(missing, amount.values == 0 ? 1 : 0)
                let perValue =
                    (Self.threshold - 1) * (metric == .paidServiceDaysRecovered ? Self.paidServiceDaysPerRecovery : 1)
                rows.append(
                    Row(
                        granularity.rowName, Self.periodText(granularity, period), metric, ours: our[metric],
                        apple: amount.total, appleValues: amount.values, allowance: dropped * perValue))
            }
        }
        return rows
    }

    /// `2025-03-04`, `2025-W10` or `2025-03`.
    private static func periodText(_ granularity: AppleReportGranularity, _ day: Int) -> String {
        let millis = CivilDate(daysSinceEpoch: day).unixMilliseconds
        switch granularity {
        case .daily: return dayText(day)
        case .weekly: return CalendarPeriod(.week, containing: millis).description
        case .monthly: return CalendarPeriod(.month, containing: millis).description
        }
    }

    /// The combinations of Apple's columns that carried `metric` on `day`, each with its value.
    private static func combinations(
        _ metric: BillingIssueDays.Metric, day: Int, figures: AppleReportSet.Figures
    ) -> Set<String> {
        let byValue = (metric.isState ? figures.stateCombinations[day] : figures.eventCombinations[day]) ?? [:]
        var combinations: Set<String> = []
        for (value, dimensions) in byValue where counts(value, in: metric) {
            for dimension in dimensions { combinations.insert(value + "\u{1F}" + dimension) }
        }
        return combinations
    }

    /// Apple's figure for `metric` on `day`; nil when no file states it.
    private static func appleAmount(
        _ metric: BillingIssueDays.Metric, day: Int, figures: AppleReportSet.Figures
    ) -> AppleReportFile.Amount? {
        if metric == .paidServiceDaysRecovered {
            guard figures.paidServiceDaysStated.contains(day) else { return nil }
            return figures.paidServiceDays[day] ?? AppleReportFile.Amount()
        }
        guard let values = metric.isState ? figures.stateDays[day] : figures.eventDays[day] else { return nil }
        return values.filter { counts($0.key, in: metric) }.values.reduce(AppleReportFile.Amount(), +)
    }

    /// The noise bound of a sum of `values` of Apple's: ⌈6·√values⌉, 6 for none.
    package static func noiseBound(values: Int) -> Int {
        Int((Double(noise997) * Double(max(values, 1)).squareRoot()).rounded(.up))
    }

    /// The weeks of the compared days: sums of the events, and the counts at the end of the week's last day compared.
    private static func weeks(of days: [Row]) -> [Row] {
        var byWeek: [CalendarPeriod: [Row]] = [:]
        for row in days {
            guard let date = CivilDate(parsing: row.period) else { continue }
            byWeek[CalendarPeriod(.week, containing: date.unixMilliseconds), default: []].append(row)
        }
        var weeks: [Row] = []
        for week in byWeek.keys.sorted() {
            let rows = byWeek[week] ?? []
            for metric in BillingIssueDays.Metric.allCases {
                let metricRows = rows.filter { $0.metric == metric }
                guard let last = metricRows.last else { continue }
                if metric.isState {
                    var row = last
                    row.granularity = "week"
                    row.period = week.description
                    weeks.append(row)
                    continue
                }
                weeks.append(
                    Row(
                        "week", week.description, metric, ours: metricRows.reduce(0) { $0 + $1.ours },
                        apple: metricRows.reduce(0) { $0 + $1.apple },
                        appleValues: metricRows.reduce(0) { $0 + $1.appleValues },
                        allowance: metricRows.reduce(0) { $0 + $1.thresholdAllowance }))
            }
        }
        return weeks
    }

    /// `2025-03-04`.
    package static func dayText(_ day: Int) -> String {
        let date = CivilDate(daysSinceEpoch: day)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2)
    }
}
