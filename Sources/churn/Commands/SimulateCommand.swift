import Analysis
import ArgumentParser
import Foundation
import Simulator
import Workflows

extension Churn {
    /// `churn simulate`: write a signed export of simulated subscribers, with the ground truth of its episodes.
    struct SimulateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Write a realistic signed export of simulated subscribers, with its ground truth.",
            discussion: """
                Simulates the subscribers of an app with weekly, monthly and annual
                subscriptions sold in ten storefronts (USA, GBR, DEU, FRA, ITA, ESP,
                JPN, CAN, AUS, BRA; seven currencies): free trials, renewals, billing failures with or without a grace
                period, recoveries, cancels during billing retry, expiry after 60 days
                of retry, new purchases during retry, refunds, withdrawn products,
                resubscriptions, family sharing, Sandbox and TEST traffic, resent
                notifications and late deliveries, and some of Apple's quirks.
                Every notification is signed the way Apple signs them (ES256, x5c
                chain; the nested transaction and renewal info too) by a test
                certificate authority made from the seed.

                Files written, for --out export.jsonl:
                  export.jsonl      JSON Lines of {"signedPayload":"<JWS>"}, or Get
                                    Notification History pages (--format history);
                                    gzip with --gzip or a name ending in .gz
                  export.truth.csv  the billing-retry episodes the simulation meant,
                                    by docs/METRICS.md (Sandbox and family-
                                    shared ones too: filter on environment and
                                    ownership)
                  export.root.der   the test root certificate, for
                                    churn load --trust-root export.root.der

                Ground-truth columns: subscription, sequence, environment, ownership,
                product_id, storefront, start_ms, grace_end_ms, end_ms, outcome,
                cohort, recovery_price, currency, trial_conversion, opening_uuid,
                closing_uuid, recovered_by (retry or new_purchase), stake_price,
                stake_currency, mature, end_inferred (no EXPIRED came: expired at
                day 60), grace_end_inferred (no notification dated the grace end;
                grace_end_ms holds the real one), late_failure_notice (the failure
                notice came after its recovery), stale_notices (late copies of it).
                The truth is as of the end of the history (after --months);
                episodes still open then are "open".

                The same seed and options give byte-identical files, whatever
                --workers. Another --start with the same seed gives new
                transaction ids and notification UUIDs, so a "next day" export
                loads as new, signed under the same root: the seed alone makes the
                certificates, so one .root.der trusts every export of a seed. With
                the defaults, 1000 subscribers over 12 months make about 7600
                notifications of 13 kB each.

                Rates are shares between 0 and 1. Each day of billing retry (1 to
                60) an episode recovers, is cancelled, ends with a refund or a
                withdrawn product, or ends with a new paid purchase, each with its
                own daily chance; when none of them happened by day 60, retry ends
                unpaid. --recovery-rate, --cancel-rate, --other-rate and
                --new-purchase-rate give the chance of each within the 60 days,
                were it the only way out (for recovery: before the multipliers and
                effects below). These are the simulator's assumptions, not
                measured figures:
                - the daily recovery chance declines smoothly, with the shape
                  w(d) = 0.1 + 0.9 exp(-(d-1)/6); cancels come early (shape
                  exp(-(d-1)/15)); the other ways out are as likely every day;
                - products, storefronts and the first charge after a free trial
                  multiply the chance of a failed charge and each day's chance of
                  recovery: weekly 1.25 and 0.75, annual 1.5 and 1.2, a first
                  charge after a trial 2 and 0.5, BRA 1.8 and 0.7, JPN 0.7 and
                  1.1, DEU 0.8 and 1.1, ... (--uniform-rates: none);
                - on the day the grace period ends, losing access makes recovery
                  --grace-end-effect times as likely; on the message days of bands
                  2-4 of the App Store's billing-issue schedule (days 4, 7, 10, 13,
                  16, 17, 21, 25, 29, 31, 36, 41, 46, 51, 56) --message-effect times.
                Grace periods follow the app's setting (--grace, --grace-renewals);
                a weekly product's lasts at most 6 days. --grace-change
                2025-07-01:28 changes the setting on that day: failed renewals from
                then on get the new length (churn report finds the change and
                evaluates it in grace_change.csv).

                --message-log also writes export.messages.csv, the app's log of
                the App Store's billing-issue sheet (load it with churn messages
                load): each day of retry the customer opens the app with the
                chance --launch-rate, and at that first launch the app shows the
                sheet (logged shown) or, one time in five, keeps it for later
                (deferred). On a day it was shown, recovery is --sheet-effect
                times as likely, and comes after the sheet. --holdout R puts a
                share R of episodes in the arm "holdout", whose sheets the app
                suppresses (logged suppressed); the others are in the arm "sheet".
                The log names a subscription by its appAccountToken alone for half
                of those with one. The truth gains sheet_arm and shown_days.

                Apple's quirks, each at its own rate: a failure notice signed 1 to
                12 hours after the recovery that resolved it (one recovered
                episode); a late copy of a recovered period's failure notice (it
                opens nothing); a grace period no notification dates; an unpaid
                end of retry with no EXPIRED (expired at day 60 by inference).

                A --recovery-hazard file gives another shape to the daily recovery
                chance: "<day> <weight>" per line, whole days increasing from 1 to
                60, straight lines between them, the first and last weights kept
                before and after; # starts a comment. For instance:
                  1   1.0
                  14  1.0
                  15  0.5

                Examples:
                  churn simulate --subscribers 2000 --seed 42 --out demo.jsonl
                  churn load --trust-root demo.root.der demo.jsonl
                  churn simulate --subscribers 13000 --grace mixed --out bench.jsonl.gz
                  churn simulate --grace none --format history --out history.json
                  churn simulate --recovery-hazard slow.txt --recovery-rate 0.3
                """
        )

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Subscribers to simulate (family members come on top).", valueName: "n")
        )
        var subscribers = 1000

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Seed of every random choice, the certificate authority included.", valueName: "n")
        )
        var seed: UInt64 = 1

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The export file; the truth and root files go next to it.", valueName: "file")
        )
        var out = "export.jsonl"

        @Option(help: ArgumentHelp("First day of the history (UTC).", valueName: "YYYY-MM-DD"))
        var start = "2025-01-01"

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Months of history; subscribers join evenly over them.", valueName: "n")
        )
        var months = SimulationOptions().months

        @Option(
            help: ArgumentHelp(
                "The app's grace period: none, 3, 16 or 28 (weekly products: at most 6), or mixed "
                    + "(each subscriber one of the four, for tests).",
                valueName: "days"
            )
        )
        var grace = SimulationOptions().grace.description

        @Option(
            help: ArgumentHelp(
                "Renewals with grace: all, or paid-to-paid (none after a free trial).", valueName: "type"
            )
        )
        var graceRenewals = SimulationOptions().graceRenewals.rawValue

        @Option(
            help: ArgumentHelp(
                "Change the app's grace setting on a day: <YYYY-MM-DD>:<off|3|16|28> (weekly products: at most 6).",
                valueName: "change"
            )
        )
        var graceChange: String?

        @Option(help: ArgumentHelp("Shape of the daily recovery chance (format above).", valueName: "file"))
        var recoveryHazard: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Base share of renewal charges that fail (see multipliers).", valueName: "rate")
        )
        var failureRate = SimulationOptions().failureRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Chance of recovery within 60 days of retry, alone.", valueName: "rate")
        )
        var recoveryRate = SimulationOptions().recoveryRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Chance of a cancel during the 60 days of retry, alone.", valueName: "rate")
        )
        var cancelRate = SimulationOptions().cancelRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Chance of a refund or withdrawn product in retry, alone.", valueName: "rate")
        )
        var otherRate = SimulationOptions().otherRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Chance of an upgrade or new purchase in retry, alone.", valueName: "rate")
        )
        var newPurchaseRate = SimulationOptions().newPurchaseRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Recovery chance multiplier on message days of bands 2-4.", valueName: "x")
        )
        var messageEffect = SimulationOptions().messageEffect

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Recovery chance multiplier on the day the grace period ends.", valueName: "x")
        )
        var graceEndEffect = SimulationOptions().graceEndEffect

        @Flag(help: "Also write the app's log of the billing-issue sheet, <out>.messages.csv (see above).")
        var messageLog = false

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "With --message-log: chance the customer opens the app on a day of retry.", valueName: "rate")
        )
        var launchRate = SheetPlan().launchRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "With --message-log: recovery chance multiplier on a day the sheet was shown.", valueName: "x")
        )
        var sheetEffect = SheetPlan().sheetEffect

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "With --message-log: share of episodes whose sheets the app suppresses.", valueName: "rate")
        )
        var holdout: Double?

        @Flag(help: "Same failure and recovery rates for every product and storefront.")
        var uniformRates = false

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of subscribers turning off auto-renew, per month.", valueName: "rate")
        )
        var voluntaryChurnRate = SimulationOptions().voluntaryChurnRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of new subscribers starting with a free trial.", valueName: "rate")
        )
        var trialRate = SimulationOptions().trialRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of free trials that go on to the first charge.", valueName: "rate")
        )
        var trialConversionRate = SimulationOptions().trialConversionRate

        @Option(parsing: .unconditional, help: ArgumentHelp("Share of paid periods refunded.", valueName: "rate"))
        var refundRate = SimulationOptions().refundRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of subscriptions shared with 1 to 3 family members.", valueName: "rate")
        )
        var familyRate = SimulationOptions().familyRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of subscribers in the Sandbox environment.", valueName: "rate")
        )
        var sandboxRate = SimulationOptions().sandboxRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Share of recoveries (before grace ends) whose failure notice comes hours after them.",
                valueName: "rate"
            )
        )
        var lateFailureNoticeRate = SimulationOptions().lateFailureNoticeRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Share of recoveries followed by a late copy of their failure notice.", valueName: "rate"
            )
        )
        var staleFailureNoticeRate = SimulationOptions().staleFailureNoticeRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of grace periods no notification dates.", valueName: "rate")
        )
        var undatedGraceRate = SimulationOptions().undatedGraceRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of unpaid ends of retry with no EXPIRED sent.", valueName: "rate")
        )
        var missingExpiryRate = SimulationOptions().missingExpiryRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Share of billing-retry expiries whose customer comes back within 180 days (half on the same "
                    + "subscription, half on a new one of the same Apple Account); listed in <out>.returns.csv. "
                    + "Without it, they resubscribe as other lapsed subscribers do.",
                valueName: "rate")
        )
        var returnRate: Double?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Share of renewals after which the subscription migrates (MIGRATE, previousOriginalTransactionId).",
                valueName: "rate")
        )
        var migrationRate = SimulationOptions().migrationRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Share of annual purchasers who pay monthly under a 12-month commitment (billingPlanType MONTHLY): "
                    + "billing retry up to 90 days, no grace period, and a cancel during retry that stops only the "
                    + "next commitment. Adds billing_plan and installments_at_risk to the truth file.",
                valueName: "rate")
        )
        var commitmentRate = SimulationOptions().commitmentRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of notifications resent (the same line again).", valueName: "rate")
        )
        var duplicateRate = SimulationOptions().duplicateRate

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Share of notifications delivered after the next one.", valueName: "rate")
        )
        var outOfOrderRate = SimulationOptions().outOfOrderRate

        @Option(help: ArgumentHelp("Export format: jsonl or history.", valueName: "format"))
        var format = ExportFormat.jsonLines.rawValue

        @Flag(help: "Compress the export with gzip (also when --out ends in .gz).")
        var gzip = false

        @Option(help: ArgumentHelp("The app's bundle id.", valueName: "id"))
        var bundleID = SimulationOptions().bundleID

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Threads that simulate and sign (default: one per core).", valueName: "n")
        )
        var workers: Int?

        /// --workers, else one per core.
        var workerCount: Int { workers ?? ProcessInfo.processInfo.activeProcessorCount }

        @Flag(help: "Print no summary.")
        var quiet = false

        func validate() throws {
            if let workers, workers < 1 { throw ValidationError("--workers must be at least 1, not \(workers).") }
            let directory = URL(fileURLWithPath: out).deletingLastPathComponent().path
            if let problem = FileAccess.problem(creatingIn: directory) {
                throw ValidationError("--out \(out): cannot write to \(directory): \(problem).")
            }
            if let recoveryHazard, let problem = FileAccess.problem(reading: recoveryHazard) {
                throw ValidationError("cannot read \(recoveryHazard): \(problem).")
            }
            do {
                try makeOptions().validate()
            } catch let error as SimulationError {
                throw ValidationError("\(error)")
            }
        }

        func run() throws {
            let simulation = try ExportSimulation(options: makeOptions())
            // The export's directory, with its parents, as `mkdir -p` would make them.
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: out).deletingLastPathComponent(), withIntermediateDirectories: true
            )
            let output = ExportSimulation.Output(
                exportPath: out,
                format: ExportFormat(rawValue: format) ?? .jsonLines,
                compressed: gzip
            )
            let showsProgress = !quiet && isatty(STDERR_FILENO) == 1
            let summary = try simulation.run(to: output, workers: workerCount) { progress in
                guard showsProgress else { return }
                let rate = Int(Double(progress.notifications) / max(progress.seconds, 0.001))
                let line =
                    "\r\u{1B}[K\(progress.subscribersDone)/\(progress.subscribers) subscribers, "
                    + "\(progress.notifications) notifications (\(rate)/s)"
                FileHandle.standardError.write(Data(line.utf8))
            }
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if !quiet { print(Self.report(summary, workers: workerCount)) }
        }

        /// The options from the flags; throws ``ValidationError`` for values that do not parse.
        private func makeOptions() throws -> SimulationOptions {
            var options = SimulationOptions()
            options.subscribers = subscribers
            options.seed = seed
            options.start = try DateArgument.parse(start, option: "--start", forms: .day).start
            options.months = months
            guard let grace = GraceSetting(argument: grace) else {
                throw ValidationError("--grace must be none, 3, 16, 28 or mixed, not \(grace).")
            }
            options.grace = grace
            guard let graceRenewals = GraceRenewals(rawValue: graceRenewals) else {
                throw ValidationError("--grace-renewals must be all or paid-to-paid, not \(graceRenewals).")
            }
            options.graceRenewals = graceRenewals
            if let graceChange {
                guard let change = GraceSettingChange(argument: graceChange) else {
                    throw ValidationError(
                        "--grace-change must be <YYYY-MM-DD>:<setting>, the setting off, 3, 16 or 28, not \(graceChange)."
                    )
                }
                options.graceChange = change
            }
            if let recoveryHazard {
                do {
                    let text = try String(contentsOfFile: recoveryHazard, encoding: .utf8)
                    options.recoveryHazard = try RecoveryHazard(parsing: text)
                } catch {
                    throw ValidationError("--recovery-hazard \(recoveryHazard): \(error)")
                }
            }
            guard ExportFormat(rawValue: format) != nil else {
                throw ValidationError("--format must be jsonl or history, not \(format).")
            }
            options.failureRate = failureRate
            options.uniformRates = uniformRates
            options.messageEffect = messageEffect
            options.graceEndEffect = graceEndEffect
            options.recoveryRate = recoveryRate
            options.cancelRate = cancelRate
            options.otherRate = otherRate
            options.newPurchaseRate = newPurchaseRate
            options.voluntaryChurnRate = voluntaryChurnRate
            options.trialRate = trialRate
            options.trialConversionRate = trialConversionRate
            options.refundRate = refundRate
            options.familyRate = familyRate
            options.sandboxRate = sandboxRate
            options.duplicateRate = duplicateRate
            options.outOfOrderRate = outOfOrderRate
            options.lateFailureNoticeRate = lateFailureNoticeRate
            options.staleFailureNoticeRate = staleFailureNoticeRate
            options.undatedGraceRate = undatedGraceRate
            options.missingExpiryRate = missingExpiryRate
            options.returnRate = returnRate
            if messageLog {
                options.sheets = SheetPlan(launchRate: launchRate, sheetEffect: sheetEffect, holdout: holdout)
            } else if holdout != nil || launchRate != SheetPlan().launchRate || sheetEffect != SheetPlan().sheetEffect {
                throw ValidationError("--launch-rate, --sheet-effect and --holdout plant the sheet: add --message-log.")
            }
            options.migrationRate = migrationRate
            options.commitmentRate = commitmentRate
            options.bundleID = bundleID
            return options
        }

        /// The summary as people read it.
        static func report(_ summary: SimulationSummary, workers: Int) -> String {
            let outcomes = Episode.Outcome.allCases.map { outcome in
                "\(summary.productionEpisodes[outcome] ?? 0) \(outcome.rawValue)"
            }
            let quirks = summary.productionQuirks
            let end = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(summary.end) / 1000))
            var lines = [
                "\(summary.exportPath): \(summary.notifications) notifications in \(summary.records) lines "
                    + "(\(summary.duplicates) resent, \(summary.lateDeliveries) late), "
                    + "\(summary.subscribers) subscribers + \(summary.familyMembers) family members, "
                    + "\(summary.exportBytes) bytes",
                "  \(summary.sandboxNotifications) Sandbox, \(summary.familySharedNotifications) family-shared, "
                    + "\(summary.testNotifications) TEST notifications",
                "\(summary.truthPath): \(summary.truthRows) episodes; Production purchasers: "
                    + outcomes.joined(separator: ", "),
                "  quirks: \(quirks.lateFailureNotices) late failure notices, \(quirks.staleFailureNotices) stale "
                    + "copies, \(quirks.undatedGracePeriods) undated grace periods, \(quirks.inferredExpiries) "
                    + "expiries never notified, \(quirks.newPurchaseRecoveries) new purchases during retry",
                "history ends \(end): the truth is as of then",
            ]
            if !summary.messagesPath.isEmpty {
                lines.append(
                    "\(summary.messagesPath): \(summary.messageEvents) events of the app's billing-issue sheet "
                        + "(load it with: churn messages load \(summary.messagesPath))")
            }
            lines += [
                String(
                    format: "signed in %.1f s: %.0f notifications/s on %d worker(s)",
                    summary.seconds, summary.notificationsPerSecond, workers
                ),
                "load it with: churn load --trust-root \(summary.rootPath) \(summary.exportPath)",
            ]
            return lines.joined(separator: "\n")
        }
    }
}
