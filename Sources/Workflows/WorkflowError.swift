import Reports

/// Why a workflow stopped, or completed short of what was asked: the domain's failures, each with what the operator
/// reads. The command line turns each into its exit status in one place (`churn`'s entry point).
package enum WorkflowError: Error, CustomStringConvertible, Sendable, Equatable {
    /// An input named by the user cannot be read; `name` says which (`/srv/exports`, `schedule file s.txt`) and
    /// `reason` why, in the system's words.
    case unreadableInput(name: String, reason: String)
    /// An input named by the user can be read but not used: `name` says which (`--exchange-rates rates.csv`), `line`
    /// where (1-based; nil when the problem is the whole file) and `reason` what is wrong and how it should read.
    case invalidInput(name: String, line: Int?, reason: String)
    /// Nothing is loaded yet in `database` (a description without a password, as messages name databases): there is
    /// nothing to report on or to ask about.
    case nothingLoaded(database: String)
    /// A question about the app's message log (`churn query message-log`), and no event of it is stored by the as-of
    /// time.
    case noMessageLog
    /// Another nightly run held the nightly lock for all of `waitedSeconds`.
    case nightlyLockBusy(waitedSeconds: Int)
    /// The run completed, but more inputs were rejected than `limit` allows.
    case tooManyRejects(rejected: Int, limit: Int)
    /// A value of `option` (`--file`, `--reason`, `--id`) that no quarantined input has, with the values there are
    /// (each with its number of rows; empty when not listed).
    case unknownQuarantineValue(option: String, value: String, known: [String])
    /// A nightly run expected new data and stored no new notification.
    case noNewData(NoNewData)
    /// `--as-of` more than ``AsOfCheck/latestDataMargin`` after the latest notification loaded (both Unix ms): a
    /// report then would take every episode still open for churn.
    case asOfAfterData(asOf: Int64, latest: Int64)
    /// `--as-of` before the earliest notification loaded (both Unix ms): nothing is known by then, and a report would
    /// show zeros.
    case asOfBeforeData(asOf: Int64, earliest: Int64)
    /// A filter value that no stored episode of `environment` has: `option` (`--product`), the value given, and the
    /// values the episodes have.
    case unknownFilterValue(option: String, value: String, environment: String, known: [String])
    /// No analysed subscription of `environment` has `id` as its original transaction id, `appTransactionId` or
    /// `appAccountToken` (`churn query customer`).
    case unknownCustomer(id: String, environment: String)

    /// ``tooManyRejects(rejected:limit:)`` when `rejected` inputs are more than `limit` allows; nil otherwise: the one
    /// place a load, a message-log load and the nightly decide it.
    package static func rejects(_ rejected: Int, allowed limit: Int) -> WorkflowError? {
        rejected > limit ? .tooManyRejects(rejected: rejected, limit: limit) : nil
    }

    /// What a nightly run that stored no new notification found under the paths it was given.
    package struct NoNewData: Sendable, Equatable {
        /// The export paths named.
        package var paths: [String]
        /// The `--glob` patterns.
        package var glob: [String]
        /// New files found (each holding only notifications stored before).
        package var newFiles: Int
        /// Files loaded before, skipped.
        package var skipped: Int
        /// Files under the paths that no pattern picks.
        package var unmatched: Int
        /// Files left for the next run because they are still being written.
        package var waiting: [String]
        /// Skipped files whose content was first loaded under another path (`x has the same content as y (load run
        /// n)`): an export sent again under a new name.
        package var resent: [String]
        /// The run's environment.
        package var environment: String
        /// Notifications this run stored, none of them of ``environment``.
        package var storedOfOtherEnvironments: Int

        package init(
            paths: [String], glob: [String], newFiles: Int, skipped: Int, unmatched: Int, waiting: [String] = [],
            resent: [String] = [], environment: String = "Production", storedOfOtherEnvironments: Int = 0
        ) {
            self.paths = paths
            self.glob = glob
            self.newFiles = newFiles
            self.skipped = skipped
            self.unmatched = unmatched
            self.waiting = waiting
            self.resent = resent
            self.environment = environment
            self.storedOfOtherEnvironments = storedOfOtherEnvironments
        }
    }

    package var description: String {
        switch self {
        case .unreadableInput(let name, let reason):
            return "cannot read \(name): \(reason)."
        case .invalidInput(let name, let line, let reason):
            return "\(name)" + (line.map { ", line \($0)" } ?? "") + ": \(reason)."
        case .nothingLoaded(let database):
            return "nothing is loaded yet in \(database): run `churn load FILE…` first, or point --database-url, "
                + "DATABASE_URL or CHURN_HOME at the database that holds the notifications."
        case .noMessageLog:
            return "no message-log event is stored by the as-of time: load the app's log of the billing-issue sheet "
                + "with `churn messages load FILE…` first (README, \"Logging the billing-issue sheet\")."
        case .nightlyLockBusy(let waitedSeconds):
            return "another nightly run holds the lock (waited \(waitedSeconds) s); try again later"
        case .tooManyRejects(let rejected, let limit):
            return "\(rejected) input\(rejected == 1 ? "" : "s") rejected, more than --max-rejects \(limit) "
                + "(`churn quarantine list` shows them)."
        case .asOfAfterData(let asOf, let latest):
            return "--as-of \(UTCTime.minute(asOf)) is more than 7 days after the latest notification loaded (signed "
                + "\(UTCTime.minute(latest))): as of then every episode still open would count as expired. Give an as-of "
                + "time at most 7 days after it, or load the newer notifications first."
        case .asOfBeforeData(let asOf, let earliest):
            return "--as-of \(UTCTime.minute(asOf)) is before the earliest notification loaded (signed "
                + "\(UTCTime.minute(earliest))): nothing is known as of then. Give a later as-of time."
        case .unknownFilterValue(let option, let value, let environment, let known):
            var text = "\(option) '\(value)' matches no episode of \(environment)"
            if known.isEmpty { return text + ": \(environment) has no episode." }
            if let near = known.first(where: { $0.uppercased() == value.uppercased() }) {
                return text + "; did you mean '\(near)'?"
            }
            if option == "--storefront", value.count == 2 {
                text += " (storefronts are App Store country codes of three letters, such as USA)"
            }
            let shown = known.prefix(12).joined(separator: ", ") + (known.count > 12 ? ", …" : "")
            return text + ". Its episodes have: \(shown)."
        case .unknownCustomer(let id, let environment):
            return "no subscription of \(environment) has '\(id)' as its original transaction id, appTransactionId or "
                + "appAccountToken (ids are matched exactly, a token in lower or upper case; is it another environment? try "
                + "--environment Sandbox)."
        case .unknownQuarantineValue(let option, let value, let known):
            let text = "\(option) '\(value)' matches no quarantined input"
            if option == "--id" { return text + " (`churn quarantine list --resolved` shows every id)." }
            if known.isEmpty { return text + ": the quarantine is empty." }
            let what = option == "--file" ? "files (paths as the load named them)" : "reasons"
            let shown = known.prefix(12).joined(separator: ", ") + (known.count > 12 ? ", …" : "")
            return text + ". The quarantine's \(what), with their inputs: \(shown)."
        case .noNewData(let found):
            let paths = found.paths.joined(separator: ", ")
            var text: String
            if found.newFiles == 0, found.skipped == 0 {
                text =
                    "no new export file arrived (--expect-new): no file under " + paths
                    + (found.unmatched > 0
                        ? " matches --glob \(found.glob.joined(separator: " ")) (\(found.unmatched) other file(s) there)"
                        : found.waiting.isEmpty ? " at all" : " ready")
            } else if found.storedOfOtherEnvironments > 0 {
                text =
                    "no new \(found.environment) notification arrived (--expect-new): the "
                    + "\(found.storedOfOtherEnvironments) notification(s) this run stored under " + paths
                    + " are of other environments"
            } else if found.newFiles == 0 {
                text =
                    "no new export file arrived (--expect-new): \(found.skipped) file(s) under " + paths
                    + " were all loaded before"
                if !found.resent.isEmpty {
                    text +=
                        "; " + found.resent.prefix(3).joined(separator: "; ") + (found.resent.count > 3 ? "; …" : "")
                }
            } else {
                text =
                    "no new notification arrived (--expect-new): the \(found.newFiles) new file(s) under " + paths
                    + " hold only notifications stored before"
            }
            if !found.waiting.isEmpty {
                text +=
                    "; left for the next run, still being written (changed in the last minutes, no newline at the "
                    + "end): " + found.waiting.joined(separator: ", ")
            }
            return text
        }
    }
}
