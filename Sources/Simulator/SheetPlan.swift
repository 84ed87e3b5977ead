import Analysis

/// How the simulated app handles the App Store's billing-issue sheet, and the log it keeps
/// (`churn simulate --message-log`).
///
/// Each day of an episode's retry, the customer opens the app with the chance ``launchRate``, at a moment drawn
/// uniformly in the day. At that first launch of the day the app shows the sheet and logs `shown`; or, with the chance
/// ``deferShare`` (the customer is in the middle of something), it keeps the sheet for later and logs `deferred`.
/// An episode in the holdout arm (``holdout``) logs `suppressed` instead and never shows it. On a day the sheet was
/// shown the chance of recovery is ``sheetEffect`` times the usual, and a recovery that day comes after the sheet.
/// Launches are drawn from a random stream of their own, so the log changes nothing else of the history, and with an
/// effect of 1 the histories are those of a simulation without it.
package struct SheetPlan: Hashable, Sendable {
    /// The chance that the customer opens the app on a day of retry.
    package var launchRate = 0.3
    /// Multiplies the chance of recovery on a day the sheet was shown (1: the sheet changes nothing).
    package var sheetEffect = 1.0
    /// The share of episodes in the `holdout` arm, whose sheets the app suppresses; the others are in the `sheet`
    /// arm. Nil: no experiment, and no arm in the log.
    package var holdout: Double?

    /// The share of launches at which the app defers the sheet.
    package static let deferShare = 0.2
    /// The share of logged subscriptions with an `appAccountToken` that the log names by the token alone.
    package static let tokenShare = 0.5
    /// The arm names in the log.
    package static let holdoutArm = "holdout"
    package static let sheetArm = "sheet"

    package init(launchRate: Double = 0.3, sheetEffect: Double = 1.0, holdout: Double? = nil) {
        self.launchRate = launchRate
        self.sheetEffect = sheetEffect
        self.holdout = holdout
    }

    /// A day's first launch and what the app did with the sheet then.
    struct Launch: Hashable, Sendable {
        var at: Int64
        var action: MessageEvent.Action
    }

    /// One episode's sheets, drawn when it opens: its arm and, per day of retry, the first launch and what the app did.
    struct Episode: Hashable, Sendable {
        var arm: String?
        /// Index d − 1: day d's first launch; nil on a day without one.
        var days: [Launch?]

        /// Whether the sheet was shown on `day` (1…).
        func isShown(on day: Int) -> Bool {
            guard day >= 1, day <= days.count else { return false }
            return days[day - 1]?.action == .shown
        }

        /// The first launch of `day` (1…), if any.
        func launch(on day: Int) -> Int64? {
            guard day >= 1, day <= days.count else { return nil }
            return days[day - 1]?.at
        }
    }

    /// Draws an episode's sheets over `days` days of retry from t0 `start`, each launch at least two minutes before
    /// its day's end.
    func draw(start: Int64, days: Int, generator: inout SplitMix64) -> Episode {
        let arm = holdout.map { generator.chance($0) ? Self.holdoutArm : Self.sheetArm }
        let dayLength = Milliseconds.day
        let latest = dayLength - 4 * 60_000
        var drawn: [Launch?] = []
        drawn.reserveCapacity(days)
        for day in 1...days {
            // The same draws on every day, whatever the arm, so that the arms differ in nothing but the sheet.
            let launched = generator.chance(launchRate)
            let at = start + Int64(day - 1) * dayLength + generator.int64(in: 0...latest)
            let deferred = generator.chance(Self.deferShare)
            guard launched else {
                drawn.append(nil)
                continue
            }
            let action: MessageEvent.Action =
                arm == Self.holdoutArm ? .suppressed : deferred ? .deferred : .shown
            drawn.append(Launch(at: at, action: action))
        }
        return Episode(arm: arm, days: drawn)
    }
}

/// One line of the simulated app's message log.
package struct PlantedSheetEvent: Hashable, Sendable {
    package var originalTransactionId: String?
    package var appAccountToken: String?
    package var at: Int64
    package var action: MessageEvent.Action
    package var arm: String?

    /// The columns of `<export>.messages.csv`: the message log's own.
    package static let columns = ["original_transaction_id", "app_account_token", "at", "action", "arm"]

    /// The row's fields, in ``columns`` order; `at` in Unix milliseconds.
    package var fields: [String] {
        [originalTransactionId ?? "", appAccountToken ?? "", String(at), action.rawValue, arm ?? ""]
    }
}
