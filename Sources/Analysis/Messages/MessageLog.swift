/// An app's message log linked to the subscriptions and episodes of one environment (METRICS.md v2.2, "Billing
/// messages the app showed").
///
/// - An event belongs to the subscription its original transaction id names, when the environment holds that
///   subscription; else to the subscription whose latest `appAccountToken` signed by the event's time is the event's
///   token. When several subscriptions have that token then, it goes to the one whose token was signed last (ties:
///   the smallest id), the subscription the customer's app dealt with last.
/// - Within its subscription, an event belongs to the episode in retry at its time (t0 ≤ `at` < end; an open
///   episode has no end). Every other event of the log counts as `message_event_outside_retry`: an event that names
///   no subscription of the environment, one before or between its subscription's episodes.
/// - The log covers an app (the bundle id of the subscriptions its events belong to) from its first to its last
///   event. The covered episodes, those of the app whose t0 lies in that span, make the shown-day comparison
///   (``ShownDays``), with or without an event; an episode's first event gives its experiment arm
///   (``MessageExperiment``).
package struct MessageLog: Sendable {
    /// A subscription's `appAccountToken` as one notification signed it.
    package struct TokenSighting: Hashable, Sendable {
        package var subscription: String
        /// Lowercase (``MessageEvent/token(_:)``).
        package var token: String
        package var signedDate: Int64

        package init(subscription: String, token: String, signedDate: Int64) {
            self.subscription = subscription
            self.token = token
            self.signedDate = signedDate
        }
    }

    /// One event linked to a subscription, as the tally reads it: the subscription is its group's
    /// (``bySubscription``), the arm an index into ``arms``.
    struct Linked: Sendable {
        var at: Int64
        /// The order the event came in, which settles two events of one moment (the stored log's order).
        var arrival: Int32
        /// Index into ``arms``; -1 for none.
        var arm: Int32
        var action: MessageEvent.Action
    }

    /// The linked events, grouped by subscription and by time within each.
    let linked: [Linked]
    /// Each subscription's events: a range of ``linked``.
    let bySubscription: [String: Range<Int>]
    /// The experiment arms the events name, each once.
    let arms: [String]
    /// The number of events linked to no subscription of the environment.
    package let unlinked: Int
    /// Per app (bundle id; empty for none), the time of its first and last event.
    package let spans: [String: ClosedRange<Int64>]

    /// The number of events, linked or not.
    package var count: Int { linked.count + unlinked }

    /// Links the events (``Linker``).
    /// - Parameters:
    ///   - events: the log's events up to the as-of time, in any order (two of one moment: the first given is first).
    ///   - apps: the bundle id ("" for none) of each subscription of the environment that an event names by its id or
    ///     that has a token sighting; a subscription not here is not the environment's.
    ///   - sightings: the token sightings of the environment's subscriptions that ever had a token of the log: all of
    ///     theirs, whatever token, since a later token replaces an earlier one.
    package init(events: some Sequence<MessageEvent>, apps: [String: String], sightings: [TokenSighting]) {
        var linker = Linker(apps: apps, sightings: sightings)
        for event in events { linker.add(event) }
        self = linker.log()
    }

    private init(
        linked: [Linked], bySubscription: [String: Range<Int>], arms: [String], unlinked: Int,
        spans: [String: ClosedRange<Int64>]
    ) {
        self.linked = linked
        self.bySubscription = bySubscription
        self.arms = arms
        self.unlinked = unlinked
        self.spans = spans
    }

    /// Links a log's events one at a time, as they are read, and keeps of each only what the tally reads: a log's
    /// memory is a few words per event and one entry per subscription, not its text.
    package struct Linker {
        private let apps: [String: String]
        private let tokens: TokenIndex
        /// The linked subscriptions, and the arms the events name.
        private var subscriptions = Numbering()
        private var arms = Numbering()
        /// The linked events, with their subscription's index, in the order they came.
        private var pending: [(subscription: Int32, event: Linked)] = []
        private var unlinked = 0
        private var spans: [String: ClosedRange<Int64>] = [:]

        /// - Parameters: as ``MessageLog/init(events:apps:sightings:)``'s.
        package init(apps: [String: String], sightings: [TokenSighting]) {
            self.apps = apps
            tokens = TokenIndex(sightings)
        }

        /// Links one event.
        /// - Returns: the subscription it belongs to; nil for none of the environment's.
        @discardableResult
        package mutating func add(_ event: MessageEvent) -> String? {
            var subscription: String?
            if let id = event.originalTransactionId, apps[id] != nil {
                subscription = id
            } else if let token = event.appAccountToken {
                subscription = tokens.subscription(having: token, at: event.at)
            }
            guard let subscription, let app = apps[subscription] else {
                unlinked += 1
                return nil
            }
            let index = subscriptions.number(subscription)
            let arm = event.arm.map { arms.number($0) } ?? -1
            let arrival = Int32(truncatingIfNeeded: pending.count)
            pending.append((index, Linked(at: event.at, arrival: arrival, arm: arm, action: event.action)))
            let span = spans[app]
            spans[app] = span.map { min($0.lowerBound, event.at)...max($0.upperBound, event.at) } ?? event.at...event.at
            return subscription
        }

        /// The number of events added, linked or not.
        package var count: Int { pending.count + unlinked }

        /// The linked log.
        package consuming func log() -> MessageLog {
            pending.sort {
                ($0.subscription, $0.event.at, $0.event.arrival) < ($1.subscription, $1.event.at, $1.event.arrival)
            }
            var linked: [Linked] = []
            linked.reserveCapacity(pending.count)
            var bySubscription: [String: Range<Int>] = [:]
            bySubscription.reserveCapacity(subscriptions.names.count)
            var start = 0
            for (offset, entry) in pending.enumerated() {
                linked.append(entry.event)
                if offset + 1 == pending.count || pending[offset + 1].subscription != entry.subscription {
                    bySubscription[subscriptions.names[Int(entry.subscription)]] = start..<(offset + 1)
                    start = offset + 1
                }
            }
            return MessageLog(
                linked: linked, bySubscription: bySubscription, arms: arms.names, unlinked: unlinked, spans: spans)
        }
    }

    /// Strings numbered in the order they first come: a linked event keeps a number instead of a string.
    struct Numbering {
        private(set) var names: [String] = []
        private var numbers: [String: Int32] = [:]

        /// The number of `name`, given it when it is new.
        mutating func number(_ name: String) -> Int32 {
            if let known = numbers[name] { return known }
            let number = Int32(names.count)
            numbers[name] = number
            names.append(name)
            return number
        }
    }

    /// Whether the log covers `episode`: its app has events, and its t0 lies between the first and the last.
    package func covers(_ episode: Episode) -> Bool {
        spans[episode.bundleId ?? ""]?.contains(episode.start) ?? false
    }

    /// The subscriptions' tokens over time, to find a token's subscription at a moment.
    private struct TokenIndex {
        /// Each subscription's sightings by signed date (then token, for a stable choice between two of one moment).
        let history: [String: [(signedDate: Int64, token: String)]]
        /// The subscriptions that ever had each token, smallest id first.
        let holders: [String: [String]]

        init(_ sightings: [TokenSighting]) {
            var history: [String: [(signedDate: Int64, token: String)]] = [:]
            var holders: [String: Set<String>] = [:]
            for sighting in sightings {
                history[sighting.subscription, default: []].append((sighting.signedDate, sighting.token))
                holders[sighting.token, default: []].insert(sighting.subscription)
            }
            self.history = history.mapValues { list in
                list.sorted {
                    $0.signedDate != $1.signedDate
                        ? $0.signedDate < $1.signedDate : $0.token.utf8.lexicographicallyPrecedes($1.token.utf8)
                }
            }
            self.holders = holders.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        }

        /// The subscription whose latest token signed by `time` is `token`; of several, the one signed last, then the
        /// smallest id.
        func subscription(having token: String, at time: Int64) -> String? {
            var best: (subscription: String, signedDate: Int64)?
            for subscription in holders[token] ?? [] {
                guard let list = history[subscription] else { continue }
                // The last sighting signed by `time`: the first index past it, less one.
                var low = 0
                var high = list.count
                while low < high {
                    let middle = (low + high) / 2
                    if list[middle].signedDate <= time { low = middle + 1 } else { high = middle }
                }
                guard low > 0, list[low - 1].token == token else { continue }
                let signed = list[low - 1].signedDate
                if best == nil || signed > best?.signedDate ?? .min { best = (subscription, signed) }
            }
            return best?.subscription
        }
    }
}

extension MessageLog {
    /// `message_log.csv` and `message_experiment.csv` added up one episode of the environment at a time, with the
    /// events that fall in no episode's retry.
    package struct Tally: Sendable {
        let log: MessageLog
        package private(set) var shownDays: ShownDays.Tally
        package private(set) var experiment: MessageExperiment.Tally
        /// Whether each linked event fell in an episode's retry.
        private var matched: [Bool]

        /// - Parameters:
        ///   - log: the events, linked.
        ///   - asOf: the as-of time (Unix ms): open episodes are censored there, and episodes mature by it.
        ///   - schedule: the message schedule whose bands make `message_log.csv`'s rows.
        package init(log: MessageLog, asOf: Int64, schedule: MessageSchedule = .standard) {
            self.log = log
            shownDays = ShownDays.Tally(asOf: asOf, schedule: schedule)
            experiment = MessageExperiment.Tally(asOf: asOf)
            matched = Array(repeating: false, count: log.linked.count)
        }

        /// Adds one finished episode of the environment.
        package mutating func add(_ episode: Episode) {
            var shown = Set<Int>()
            var first: Linked?
            if let range = log.bySubscription[episode.subscription] {
                let end = episode.end ?? .max
                for index in range {
                    let event = log.linked[index]
                    guard event.at >= episode.start, event.at < end else { continue }
                    matched[index] = true
                    if first == nil { first = event }
                    if event.action == .shown, let day = RetryDays.day(of: event.at, in: episode),
                        let retryDay = Int(exactly: day)
                    {
                        shown.insert(retryDay)
                    }
                }
            }
            if log.covers(episode) { shownDays.add(episode, shownDays: shown) }
            if let first, first.arm >= 0 { experiment.add(episode, arm: log.arms[Int(first.arm)]) }
        }

        /// The events in no episode's retry: `message_event_outside_retry`.
        package var outsideRetry: Int { log.unlinked + matched.reduce(0) { $0 + ($1 ? 0 : 1) } }

        /// `message_log.csv`'s rows.
        package var shownDayRows: [ShownDays.Row] { shownDays.rows }

        /// `message_experiment.csv`'s rows; none when no episode's first event has an arm.
        package var experimentRows: [MessageExperiment.Row] { experiment.isEmpty ? [] : experiment.rows }
    }
}
