import CivilTime

/// Our side of the comparison with App Store Connect's *App Store Subscription Event* and *App Store Subscription
/// State* reports: per UTC day, the billing-issue events of the episodes and the episodes in grace and in billing
/// retry at the day's end (METRICS.md, "Against Apple's reports"; the mapping of Apple's events is in
/// METRICS-NOTES.md).
///
/// Events count on the UTC day they happen: an episode enters on the day of its t0; one with a grace period that
/// grace did not save enters billing retry from grace on the day of its grace end (Apple's `Entered Billing Retry
/// from Grace Period`, a second entry of the same episode); a recovery counts on the day of its end, in grace when
/// it is a save in grace (`Episode.isSavedInGrace`), else in retry; an expired episode (ended unpaid, by
/// notification or by inference at t0 + 60 days) is involuntary churn on the day of its end. Paid service days
/// recovered, our analogue of Apple's column (which Apple fills for recoveries from grace period only): each save in
/// grace's whole days from t0 to the recovery, on the day of the recovery. States at a day's end (midnight UTC that
/// follows it): a commitment-plan episode started before then and not closed by then is in commitment retry (Apple's
/// `Suspended`); any other such episode is in grace when its known grace end is later, else in billing retry. Only days complete by the as-of time
/// are given.
package enum BillingIssueDays {
    /// A figure compared with Apple's reports.
    package enum Metric: String, Hashable, Sendable, CaseIterable, Comparable {
        /// Episodes that entered a billing issue (into grace or straight into retry): Apple's `Entered Grace Period
        /// from …` and `Entered Billing Retry from …` except from grace.
        case enteredBillingIssue = "entered_billing_issue"
        /// Grace episodes whose grace ended unsaved: Apple's `Entered Billing Retry from Grace Period`.
        case enteredRetryFromGrace = "entered_retry_from_grace"
        /// Recoveries in grace: Apple's `… Recoveries from Grace Period`.
        case recoveredInGrace = "recovered_in_grace"
        /// Recoveries after grace or without it: Apple's `… Recoveries from Billing Retry`.
        case recoveredInRetry = "recovered_in_retry"
        /// Expired episodes: Apple's `Involuntary Churn from …`.
        case involuntaryChurn = "involuntary_churn"
        /// Apple's `Paid Service Days Recovered` column (recoveries from grace period only), against our analogue.
        case paidServiceDaysRecovered = "paid_service_days_recovered"
        /// Episodes in grace at the day's end: Apple's state `Grace period`.
        case inGrace = "in_grace"
        /// Standard-plan episodes in billing retry after (or without) grace at the day's end: Apple's state
        /// `Billing retry`.
        case inBillingRetry = "in_billing_retry"
        /// Commitment-plan episodes open at the day's end: Apple's state `Suspended` (commitment-based subscriptions
        /// that have missed their payments).
        case inCommitmentRetry = "in_commitment_retry"

        /// A count of subscriptions at a day's end (Subscription State), not of events during the day.
        package var isState: Bool { self == .inGrace || self == .inBillingRetry || self == .inCommitmentRetry }

        /// The metric in words: `involuntary churn`.
        package var label: String {
            switch self {
            case .enteredBillingIssue: return "entered billing issue"
            case .enteredRetryFromGrace: return "entered billing retry from grace"
            case .recoveredInGrace: return "recoveries in grace"
            case .recoveredInRetry: return "recoveries in billing retry"
            case .involuntaryChurn: return "involuntary churn"
            case .paidServiceDaysRecovered: return "paid service days recovered"
            case .inGrace: return "in grace at the day's end"
            case .inBillingRetry: return "in billing retry at the day's end"
            case .inCommitmentRetry: return "in commitment retry at the day's end"
            }
        }

        package static func < (lhs: Metric, rhs: Metric) -> Bool {
            let order = allCases
            return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
        }
    }

    /// One UTC day's figures.
    package struct Day: Hashable, Sendable {
        /// Days since 1970-01-01 (UTC).
        package var day: Int
        package var counts: [Metric: Int]

        package init(day: Int, counts: [Metric: Int] = [:]) {
            self.day = day
            self.counts = counts
        }

        package subscript(_ metric: Metric) -> Int { counts[metric] ?? 0 }
    }

    /// The days' figures, added up one episode at a time: counts per day and changes of the states, never the
    /// episodes.
    package struct Tally: Sendable {
        /// The last UTC day complete by the as-of time.
        package let lastDay: Int
        private var events: [Metric: [Int: Int]] = [:]
        /// Per day: episodes starting minus episodes closing (their state at later days' ends).
        private var openChanges: [Int: Int] = [:]
        /// Per day: grace periods starting minus grace periods ending.
        private var graceChanges: [Int: Int] = [:]
        /// Per day: commitment-plan episodes starting minus those closing (kept out of the two states above).
        private var commitmentChanges: [Int: Int] = [:]

        package init(asOf: Int64) {
            lastDay = CivilDate.split(unixMilliseconds: asOf).daysSinceEpoch - 1
        }

        private static func day(_ millis: Int64) -> Int {
            CivilDate.split(unixMilliseconds: millis).daysSinceEpoch
        }

        private mutating func count(_ metric: Metric, on day: Int, _ amount: Int = 1) {
            events[metric, default: [:]][day, default: 0] += amount
        }

        package mutating func add(_ episode: Episode) {
            let start = Self.day(episode.start)
            count(.enteredBillingIssue, on: start)
            let close = episode.end.map { max($0, episode.start) }
            if episode.hasGrace, let graceEnd = episode.graceEnd {
                let graceLeaves = min(graceEnd, close ?? graceEnd)
                if close.map({ $0 > graceEnd }) ?? true {
                    count(.enteredRetryFromGrace, on: Self.day(graceEnd))
                }
                let leaveDay = Self.day(max(graceLeaves, episode.start))
                if leaveDay > start, episode.billingPlan == .standard {
                    graceChanges[start, default: 0] += 1
                    graceChanges[leaveDay, default: 0] -= 1
                }
            }
            // A commitment-plan episode is counted apart (Apple's `Suspended`), never in the two states above.
            let changes = episode.billingPlan == .commitment ? \Tally.commitmentChanges : \Tally.openChanges
            self[keyPath: changes][start, default: 0] += 1
            if let close {
                let closeDay = Self.day(close)
                self[keyPath: changes][closeDay, default: 0] -= 1
                switch episode.outcome {
                case .recovered:
                    count(episode.isSavedInGrace ? .recoveredInGrace : .recoveredInRetry, on: closeDay)
                    // Apple fills Paid Service Days Recovered for recoveries from grace period only.
                    if episode.isSavedInGrace {
                        let days = Milliseconds.elapsed(from: episode.start, to: close) / Milliseconds.day
                        count(.paidServiceDaysRecovered, on: closeDay, Int(clamping: days))
                    }
                case .expired:
                    count(.involuntaryChurn, on: closeDay)
                case .cancelled, .other, .open:
                    break
                }
            }
        }

        /// Every day from the first with an episode through ``lastDay``, in order.
        package var days: [Day] {
            let firstDays = [
                openChanges.keys.min(), commitmentChanges.keys.min(), events.values.compactMap { $0.keys.min() }.min(),
            ].compactMap { $0 }
            guard let first = firstDays.min(), first <= lastDay else { return [] }
            var open = 0
            var grace = 0
            var commitment = 0
            return (first...lastDay).map { day in
                open += openChanges[day] ?? 0
                grace += graceChanges[day] ?? 0
                commitment += commitmentChanges[day] ?? 0
                var counts: [Metric: Int] = [
                    .inGrace: grace, .inBillingRetry: open - grace, .inCommitmentRetry: commitment,
                ]
                for (metric, byDay) in events { counts[metric] = byDay[day] ?? 0 }
                for metric in Metric.allCases where counts[metric] == nil { counts[metric] = 0 }
                return Day(day: day, counts: counts)
            }
        }
    }
}
