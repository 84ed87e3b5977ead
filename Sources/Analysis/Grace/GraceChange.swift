import CivilTime

/// When an app's billing grace setting changed (METRICS.md v2.2, "A grace change, evaluated"): read off the grace
/// lengths of each product's episodes month by month, or stated by the user.
///
/// A product's length in a month is the grace inference's length (the most frequent whole number of days, ties to
/// the shorter: ``GraceLengths/mode(_:)``) over its standard episodes with `t0` in the month whose grace end came from
/// a notification, when at least ``minimumEpisodes`` of them did; 0 when at least that many of its standard episodes
/// started in the month and none had a grace period; otherwise the month has no length. A product changes at a month
/// whose length differs from that of the latest earlier month with one. The setting is the app's, so the products
/// of one app that change in one month make one change, dated by the earliest `t0` in that month of an episode with a
/// product's new length (the month's first day for a change to 0). ``Evaluation`` then measures what it did.
package enum GraceChange {
    /// The fewest episodes that give a month a length.
    package static let minimumEpisodes = 20
    /// The episodes before a change are those with `t0` in [c − 90 d, c), those after in [c, c + 90 d).
    package static let window: Int64 = 90 * Milliseconds.day
    /// The placebo's date lies this long before the change.
    package static let placeboOffset: Int64 = 180 * Milliseconds.day

    /// One product of one app (an empty string for a missing bundle or product id). One dataset holds one
    /// environment, so the environment is implied.
    package struct Product: Hashable, Comparable, Sendable {
        package var bundleId: String
        package var productId: String

        package init(bundleId: String, productId: String) {
            self.bundleId = bundleId
            self.productId = productId
        }

        init(_ episode: Episode) {
            self.init(bundleId: episode.bundleId ?? "", productId: episode.productId ?? "")
        }

        /// UTF-8 order of the bundle id, then of the product id.
        package static func < (lhs: Product, rhs: Product) -> Bool {
            if lhs.bundleId != rhs.bundleId { return lhs.bundleId.utf8.lexicographicallyPrecedes(rhs.bundleId.utf8) }
            return lhs.productId.utf8.lexicographicallyPrecedes(rhs.productId.utf8)
        }
    }

    /// A change the user states (`--grace-change bundle_id=YYYY-MM-DD:SETTING`): it replaces the changes detected
    /// for its app in the month of its date, and each product's length after it is its effective length under the
    /// setting for a paid renewal (``GraceWhatIf/Setting/paidRenewalDays(isWeekly:)``).
    package struct Stated: Hashable, Sendable {
        package var bundleId: String
        /// Midnight UTC of the stated day (Unix ms): the change's date.
        package var date: Int64
        package var setting: GraceWhatIf.Setting

        package init(bundleId: String, date: Int64, setting: GraceWhatIf.Setting) {
            self.bundleId = bundleId
            self.date = date
            self.setting = setting
        }

        /// Reads `bundle_id=YYYY-MM-DD:SETTING`, SETTING `off`, `3`, `16` or `28`; nil for anything else.
        package init?(argument: String) {
            guard let equals = argument.lastIndex(of: "=") else { return nil }
            let bundleId = String(argument[..<equals])
            let rest = argument[argument.index(after: equals)...]
            guard !bundleId.isEmpty, let colon = rest.firstIndex(of: ":"),
                let day = CivilDate(parsing: String(rest[..<colon])),
                let setting = Self.setting(named: String(rest[rest.index(after: colon)...]))
            else { return nil }
            self.init(bundleId: bundleId, date: day.unixMilliseconds, setting: setting)
        }

        /// `off`, `3`, `16` or `28` (the renewal type does not change a paid renewal's length).
        package static func setting(named name: String) -> GraceWhatIf.Setting? {
            if name.lowercased() == "off" { return .off }
            guard let days = Int(name), GraceWhatIf.Setting.durations.contains(days) else { return nil }
            return GraceWhatIf.Setting(duration: days, renewalType: .allRenewals)
        }
    }

    /// One change: its app, date, the products whose length it changed and the products that may serve as its
    /// comparison (those whose length held over both windows; ``Evaluation`` keeps those with mature episodes in
    /// both).
    package struct Change: Hashable, Sendable {
        package var bundleId: String
        /// c, Unix ms.
        package var date: Int64
        /// The setting that explains the app's lengths just before c's month and from it on; nil when none or
        /// several do (``setting(explaining:isWeekly:)``).
        package var settingBefore: String?
        package var settingAfter: String?
        /// The treated products, in order.
        package var treated: [Product]
        /// The comparison's candidates, in order.
        package var candidates: [Product]

        package init(
            bundleId: String, date: Int64, settingBefore: String?, settingAfter: String?, treated: [Product],
            candidates: [Product]
        ) {
            self.bundleId = bundleId
            self.date = date
            self.settingBefore = settingBefore
            self.settingAfter = settingAfter
            self.treated = treated
            self.candidates = candidates
        }
    }

    /// Each product's months, added up one episode at a time: a few counts per product and month.
    package struct Months: Sendable {
        struct Month: Sendable {
            /// Standard episodes with `t0` in the month, and those with a grace period.
            var started = 0
            var withGrace = 0
            /// Whole days → episodes whose grace end came from a notification.
            var dated: [Int: Int] = [:]
            /// Whole days → the earliest `t0` of such an episode.
            var earliest: [Int: Int64] = [:]

            mutating func add(_ episode: Episode) {
                started += 1
                guard episode.hasGrace else { return }
                withGrace += 1
                guard !episode.graceEndInferred, let days = episode.graceDays else { return }
                dated[days, default: 0] += 1
                earliest[days] = min(earliest[days] ?? .max, episode.start)
            }
        }

        private(set) var months: [Product: [CalendarPeriod: Month]] = [:]
        /// Paid opening transactions' periods in days → episodes, per product: which products are weekly.
        private var periods: [Product: [Int: Int]] = [:]

        package init() {}

        /// Adds one finished episode; commitment episodes, which no grace setting applies to, are left out.
        package mutating func add(_ episode: Episode) {
            guard episode.billingPlan == .standard else { return }
            let product = Product(episode)
            let month = CalendarPeriod(monthContaining: episode.start)
            // Changed in place (the defaulting subscripts), so no dictionary is copied.
            months[product, default: [:]][month, default: Month()].add(episode)
            if let days = episode.periodDays { periods[product, default: [:]][days, default: 0] += 1 }
        }

        /// The product's length in a month (see ``GraceChange``); nil when the month has none.
        func length(of month: Month) -> Int? {
            let dated = month.dated.values.reduce(0, +)
            if dated >= minimumEpisodes { return GraceLengths.mode(month.dated) }
            if month.started >= minimumEpisodes, month.withGrace == 0 { return 0 }
            return nil
        }

        /// Each product's months with a length, in order.
        func lengths() -> [Product: [(month: CalendarPeriod, days: Int)]] {
            months.mapValues { byMonth in
                byMonth.compactMap { month, counts in length(of: counts).map { (month, $0) } }.sorted {
                    $0.month < $1.month
                }
            }
        }

        /// Whether a product's period (the most frequent one of its paid opening transactions) is at most 7 days.
        func isWeekly(_ product: Product) -> Bool {
            periods[product].flatMap(GraceLengths.mode).map { $0 <= GraceWhatIf.Setting.weeklyPeriodDays } ?? false
        }

        /// The changes, ordered by bundle id and date: those the lengths show, except in an app and month where the
        /// user stated one, and those stated.
        package func changes(stated: [Stated] = []) -> [Change] {
            let lengths = lengths()
            struct AppMonth: Hashable {
                var bundleId: String
                var month: CalendarPeriod
            }
            // Per app and month: the products that changed there and their new lengths.
            var moved: [AppMonth: [(product: Product, days: Int)]] = [:]
            for (product, series) in lengths {
                for (previous, current) in zip(series, series.dropFirst()) where previous.days != current.days {
                    moved[AppMonth(bundleId: product.bundleId, month: current.month), default: []].append(
                        (product, current.days))
                }
            }
            let statedMonths = Set(
                stated.map { AppMonth(bundleId: $0.bundleId, month: CalendarPeriod(monthContaining: $0.date)) })
            var changes: [Change] = []
            for (appMonth, products) in moved where !statedMonths.contains(appMonth) {
                let date =
                    products.map { product, days in
                        days == 0
                            ? appMonth.month.start
                            : months[product]?[appMonth.month]?.earliest[days] ?? appMonth.month.start
                    }.min() ?? appMonth.month.start
                let treated = products.map(\.product).sorted()
                changes.append(
                    change(
                        bundleId: appMonth.bundleId, date: date, treated: treated, settingAfter: nil, lengths: lengths))
            }
            for statement in stated {
                let month = CalendarPeriod(monthContaining: statement.date)
                let treated = lengths.compactMap { product, series -> Product? in
                    guard product.bundleId == statement.bundleId,
                        let before = series.last(where: { $0.month < month })?.days
                    else { return nil }
                    return statement.setting.paidRenewalDays(isWeekly: isWeekly(product)) == before ? nil : product
                }.sorted()
                changes.append(
                    change(
                        bundleId: statement.bundleId, date: statement.date, treated: treated,
                        settingAfter: statement.setting.name, lengths: lengths))
            }
            return changes.sorted {
                $0.bundleId != $1.bundleId
                    ? $0.bundleId.utf8.lexicographicallyPrecedes($1.bundleId.utf8) : $0.date < $1.date
            }
        }

        /// A change of `bundleId` at `date` with its settings and its comparison's candidates.
        private func change(
            bundleId: String, date: Int64, treated: [Product], settingAfter: String?,
            lengths: [Product: [(month: CalendarPeriod, days: Int)]]
        ) -> Change {
            let month = CalendarPeriod(monthContaining: date)
            let app = lengths.filter { $0.key.bundleId == bundleId }
            let before = app.compactMap { product, series in
                series.last(where: { $0.month < month }).map { (product, $0.days) }
            }
            let after = app.compactMap { product, series in
                series.first(where: { $0.month >= month }).map { (product, $0.days) }
            }
            let treatedSet = Set(treated)
            let candidates = lengths.compactMap { product, series -> Product? in
                guard !treatedSet.contains(product) else { return nil }
                let overlapping = series.filter {
                    $0.month.start < date + window && $0.month.end > date - window
                }
                guard let first = overlapping.first, overlapping.allSatisfy({ $0.days == first.days }),
                    overlapping.contains(where: { $0.month.start < date }),
                    overlapping.contains(where: { $0.month >= month })
                else { return nil }
                return product
            }.sorted()
            return Change(
                bundleId: bundleId, date: date,
                settingBefore: Self.setting(explaining: before, isWeekly: isWeekly),
                settingAfter: settingAfter ?? Self.setting(explaining: after, isWeekly: isWeekly),
                treated: treated, candidates: candidates)
        }

        /// The setting that explains products' lengths: `off` when all are 0, else the one duration whose
        /// effective length for a paid renewal is each product's length; nil when none or several do (a weekly-only
        /// app at 6 days is explained by 16 and 28), or without a length.
        static func setting(explaining lengths: [(Product, Int)], isWeekly: (Product) -> Bool) -> String? {
            guard !lengths.isEmpty else { return nil }
            if lengths.allSatisfy({ $0.1 == 0 }) { return GraceWhatIf.Setting.off.name }
            let matching = GraceWhatIf.Setting.durations.filter { days in
                let setting = GraceWhatIf.Setting(duration: days, renewalType: .allRenewals)
                return lengths.allSatisfy { setting.paidRenewalDays(isWeekly: isWeekly($0.0)) == $0.1 }
            }
            return matching.count == 1 ? String(matching[0]) : nil
        }
    }
}
