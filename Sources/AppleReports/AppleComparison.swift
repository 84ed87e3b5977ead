import Analysis
import CivilTime

/// Our billing-issue figures set beside App Store Connect's reports, per day and per ISO week, with Apple's privacy
/// measures in the judgement (METRICS.md, "Against Apple's reports").
///
/// Apple adds noise to each value of its detailed reports (about ±2 for 68 % of values, ±6 for 99.7 %) and drops
/// values under 5. A figure of Apple's is the sum of `k` values (one per combination of its dimensions), so its
/// noise bound is 6·√k, rounded up (6 when Apple gives no value). When Apple gives no value for a figure, values
/// under 5 may have been dropped: up to 4 of ours are allowed for it. A difference within the bound is agreement;
/// a larger one differs. Only days Apple's files state, and that are complete by the as-of time, are compared; a
/// week adds up its days that are compared (the counts at a day's end: the week's last day compared).
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
        /// The largest difference that is still agreement.
        package var noiseBound: Int
        package var status: Status

        package var difference: Int { ours - apple }

        /// `2025-W10: involuntary churn, ours 40 against Apple's 12 (a difference of 28, beyond Apple's noise of
        /// ±7)`.
        package var sentence: String {
            "\(period): \(metric.label), ours \(ours) against Apple's \(apple) (a difference of \(abs(difference)), "
                + (status == .differs ? "beyond" : "within") + " Apple's noise of ±\(noiseBound))"
        }
    }

    /// Apple's noise on one value: about ±2 for 68 % of values.
    package static let noise68 = 2
    /// Apple's noise on one value: about ±6 for 99.7 % of values, the bound of agreement.
    package static let noise997 = 6
    /// Apple drops values under this.
    package static let threshold = 5

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
        let comparedDays = Set(apple.eventDays.keys).union(apple.stateDays.keys).filter { $0 <= ours.lastDay }
        for day in comparedDays.sorted() {
            let our = ourDays[day] ?? BillingIssueDays.Day(day: day)
            for metric in BillingIssueDays.Metric.allCases {
                guard let amount = Self.appleAmount(metric, day: day, apple: apple) else { continue }
                days.append(Self.row("day", Self.dayText(day), metric, ours: our[metric], apple: amount))
            }
            for (value, amount) in apple.eventDays[day] ?? [:] where AppleEvent.metric(forEventSubType: value) == nil {
                let grouping = apple.groupings[value]
                if grouping.map(AppleEvent.isBillingGrouping) ?? true {
                    unmapped[value, default: 0] += amount.total
                }
            }
        }
        weeks = Self.weeks(of: days)
    }

    /// Apple's figure for `metric` on `day`; nil when no file states it.
    private static func appleAmount(
        _ metric: BillingIssueDays.Metric, day: Int, apple: AppleReportSet
    ) -> AppleReportFile.Amount? {
        if metric == .paidServiceDaysRecovered {
            guard apple.paidServiceDaysStated.contains(day) else { return nil }
            return apple.paidServiceDays[day] ?? AppleReportFile.Amount()
        }
        let values = metric.isState ? apple.stateDays[day] : apple.eventDays[day]
        guard let values else { return nil }
        let mapped = values.filter { value, _ in
            (metric.isState ? AppleEvent.metric(forStateMetric: value) : AppleEvent.metric(forEventSubType: value))
                == metric
        }
        return mapped.values.reduce(AppleReportFile.Amount(), +)
    }

    /// The noise bound of a sum of `values` of Apple's: 6·√values rounded up, 6 for none.
    package static func noiseBound(values: Int) -> Int {
        Int((Double(noise997) * Double(max(values, 1)).squareRoot()).rounded(.up))
    }

    private static func row(
        _ granularity: String, _ period: String, _ metric: BillingIssueDays.Metric, ours: Int,
        apple: AppleReportFile.Amount
    ) -> Row {
        let thresholdAllowance = apple.values == 0 ? min(max(ours, 0), threshold - 1) : 0
        let bound = noiseBound(values: apple.values) + thresholdAllowance
        return Row(
            granularity: granularity, period: period, metric: metric, ours: ours, apple: apple.total,
            appleValues: apple.values, noiseBound: bound, status: abs(ours - apple.total) <= bound ? .agrees : .differs)
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
                let ours = metricRows.reduce(0) { $0 + $1.ours }
                let apple = metricRows.reduce(0) { $0 + $1.apple }
                let values = metricRows.reduce(0) { $0 + $1.appleValues }
                let allowance = metricRows.filter { $0.appleValues == 0 }.reduce(0) {
                    $0 + min(max($1.ours, 0), threshold - 1)
                }
                let bound = noiseBound(values: values) + allowance
                weeks.append(
                    Row(
                        granularity: "week", period: week.description, metric: metric, ours: ours, apple: apple,
                        appleValues: values, noiseBound: bound,
                        status: abs(ours - apple) <= bound ? .agrees : .differs))
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
