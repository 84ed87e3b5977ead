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
    /// Within Apple's noise, or not.
    package enum Status: String, Hashable, Sendable {
        case agrees
        case differs
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
            status = -noiseBound <= difference && difference <= noiseBound + allowance ? .agrees : .differs
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
    /// Compared weeks, oldest first.
    package var weeks: [Row] = []
    /// Values of Apple's billing groupings (or with no grouping) that map to none of our metrics, with their counts
    /// over the days compared: kept as written and shown, never guessed.
    package var unmapped: [String: Int] = [:]
    /// The files read, in the order applied.
    package var files: [AppleReportSet.FileSummary]

    /// The weeks whose figures differ beyond Apple's noise.
    package var differingWeeks: [Row] { weeks.filter { $0.status == .differs } }

    /// Compares our days with Apple's.
    /// - Parameters:
    ///   - ours: the tally of every episode in scope.
    ///   - apple: the report files, merged.
    package init(ours: BillingIssueDays.Tally, apple: AppleReportSet) {
        files = apple.files
        let ourDays = Dictionary(ours.days.map { ($0.day, $0) }, uniquingKeysWith: { _, later in later })
        let comparedDays = Set(apple.eventDays.keys).union(apple.stateDays.keys).filter { $0 <= ours.lastDay }.sorted()
        // Every combination of Apple's columns that carried each figure on some day compared.
        var seen: [BillingIssueDays.Metric: Set<String>] = [:]
        for day in comparedDays {
            for metric in BillingIssueDays.Metric.allCases {
                seen[metric, default: []].formUnion(Self.combinations(metric, day: day, apple: apple))
            }
        }
        for day in comparedDays {
            let our = ourDays[day] ?? BillingIssueDays.Day(day: day)
            for metric in BillingIssueDays.Metric.allCases {
                guard let amount = Self.appleAmount(metric, day: day, apple: apple) else { continue }
                let missing = (seen[metric]?.count ?? 0) - Self.combinations(metric, day: day, apple: apple).count
                let dropped = max(missing, amount.values == 0 ? 1 : 0)
                let perValue =
                    (Self.threshold - 1) * (metric == .paidServiceDaysRecovered ? Self.paidServiceDaysPerRecovery : 1)
                days.append(
                    Row(
                        "day", Self.dayText(day), metric, ours: our[metric], apple: amount.total,
                        appleValues: amount.values, allowance: dropped * perValue))
            }
            for (value, amount) in apple.eventDays[day] ?? [:] where AppleEvent.metric(forEventSubType: value) == nil {
                if apple.groupings[value].map(AppleEvent.isBillingGrouping) ?? true {
                    unmapped[value, default: 0] += amount.total
                }
            }
        }
        weeks = Self.weeks(of: days)
    }

    /// Whether Apple's `value` of a report counts in `metric`.
    private static func counts(_ value: String, in metric: BillingIssueDays.Metric) -> Bool {
        switch metric {
        case .inGrace, .inBillingRetry: return AppleEvent.metric(forStateMetric: value) == metric
        // Paid service days come with the recoveries.
        case .paidServiceDaysRecovered:
            let recovery = AppleEvent.metric(forEventSubType: value)
            return recovery == .recoveredInGrace || recovery == .recoveredInRetry
        default: return AppleEvent.metric(forEventSubType: value) == metric
        }
    }

    /// The combinations of Apple's columns that carried `metric` on `day`, each with its value.
    private static func combinations(
        _ metric: BillingIssueDays.Metric, day: Int, apple: AppleReportSet
    ) -> Set<String> {
        let byValue = (metric.isState ? apple.stateCombinations[day] : apple.eventCombinations[day]) ?? [:]
        var combinations: Set<String> = []
        for (value, dimensions) in byValue where counts(value, in: metric) {
            for dimension in dimensions { combinations.insert(value + "\u{1F}" + dimension) }
        }
        return combinations
    }

    /// Apple's figure for `metric` on `day`; nil when no file states it.
    private static func appleAmount(
        _ metric: BillingIssueDays.Metric, day: Int, apple: AppleReportSet
    ) -> AppleReportFile.Amount? {
        if metric == .paidServiceDaysRecovered {
            guard apple.paidServiceDaysStated.contains(day) else { return nil }
            return apple.paidServiceDays[day] ?? AppleReportFile.Amount()
        }
        guard let values = metric.isState ? apple.stateDays[day] : apple.eventDays[day] else { return nil }
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
