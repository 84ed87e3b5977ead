import Analysis
import AppStoreNotifications
import ArgumentParser
import Foundation
import Reports
import Workflows

/// The options every `churn query` question takes: scope, filters, grouping and output format.
struct QueryOptions: ParsableArguments {
    @OptionGroup var scope: QueryScope

    var environment: Environment { scope.environment }

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp("Only episodes of this app (repeatable; '' for episodes without one).", valueName: "id")
    )
    var bundleIds: [String] = []

    @Option(
        name: .customLong("product"),
        help: ArgumentHelp("Only episodes of this product (repeatable; '' for episodes without one).", valueName: "id")
    )
    var products: [String] = []

    @Option(
        name: .customLong("storefront"),
        help: ArgumentHelp("Only episodes of this storefront (repeatable; '' for none).", valueName: "code")
    )
    var storefronts: [String] = []

    @Option(
        help: ArgumentHelp(
            "Only episodes that started from the start of this day, month or ISO week (2026-03-05, 2026-03, 2026-W10).",
            valueName: "when"
        )
    )
    var from: String?

    @Option(
        help: ArgumentHelp("Only episodes that started by the end of this day, month or ISO week.", valueName: "when")
    )
    var to: String?

    @Flag(help: "Only episodes whose failed charge was the first after a free trial.")
    var trialConversion = false

    @Flag(help: "Only episodes whose failed charge renewed a paid period.")
    var paidRenewal = false

    @Flag(help: "Only a subscription's first episode (sequence 1).")
    var firstEpisode = false

    @Flag(help: "Only a subscription's later episodes (sequence 2 and up).")
    var repeatEpisode = false

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Group by these attributes (repeatable, or comma-separated).",
            valueName: "attribute"
        )
    )
    var groupBy: [GroupingList] = []

    @Option(help: ArgumentHelp("Output format.", valueName: "format"))
    var format: TableRenderer.Format = .table

    @OptionGroup var global: GlobalOptions

    /// The grouping attributes in the order given.
    var grouping: [EpisodeGrouping] {
        groupBy.flatMap(\.groupings)
    }

    /// Refuses `--group-by` for a question answered as one table, saying why (`reason`): one message for each such
    /// question.
    func refuseGrouping(_ question: String, _ reason: String) throws {
        if !groupBy.isEmpty { throw ValidationError("\(question) takes no --group-by: \(reason)") }
    }

    func validate() throws {
        if trialConversion && paidRenewal {
            throw ValidationError("--trial-conversion and --paid-renewal exclude each other: give at most one.")
        }
        if firstEpisode && repeatEpisode {
            throw ValidationError("--first-episode and --repeat-episode exclude each other: give at most one.")
        }
        let start = try startPeriod
        let end = try endPeriod
        if let from, let to, let start, let end, start.start >= end.end {
            throw ValidationError("--from \(from) is after --to \(to): no episode can start in between.")
        }
        let grouping = self.grouping
        if Set(grouping).count != grouping.count {
            throw ValidationError("--group-by names an attribute twice.")
        }
        if grouping.contains(.cohortMonth), grouping.contains(.cohortWeek) {
            throw ValidationError("--group-by takes cohort-month or cohort-week, not both.")
        }
    }

    /// `--from`: the day, month or week episodes start from.
    private var startPeriod: DateArgument.Value? {
        get throws(ValidationError) {
            guard let from else { return nil }
            return try DateArgument.parse(from, option: "--from", forms: .period)
        }
    }

    /// `--to`: the day, month or week episodes start by the end of.
    private var endPeriod: DateArgument.Value? {
        get throws(ValidationError) {
            guard let to else { return nil }
            return try DateArgument.parse(to, option: "--to", forms: .period)
        }
    }

    /// The filters as given.
    /// - Throws: `ValidationError` for a `--from` or `--to` that names no day, month or week.
    func filter() throws -> EpisodeFilter {
        EpisodeFilter(
            bundleIds: bundleIds,
            productIds: products,
            storefronts: storefronts,
            startFrom: try startPeriod?.start,
            startBefore: try endPeriod?.end,
            isTrialConversion: trialConversion ? true : paidRenewal ? false : nil,
            isFirstEpisode: firstEpisode ? true : repeatEpisode ? false : nil
        )
    }

    /// Brings the episodes up to date, selects those in scope, answers the question and prints the answer.
    /// - Parameters:
    ///   - kind: what is asked.
    ///   - schedule: the message schedule, for `message-bands` and `retry-days`.
    ///   - limit: the most rows of each group, for `episodes` and `open-episodes`.
    ///   - openEpisodes: which open episodes, in what order, for `open-episodes`.
    ///   - outcomes: for `episodes`, the outcomes listed (all when empty).
    ///   - columns: the columns shown, in this order (all when empty).
    func answer(
        _ kind: EpisodeQuestion.Kind, schedule: MessageSchedule = .standard, limit: Int? = nil,
        openEpisodes: OpenEpisodes.Selection = .init(), outcomes: [Episode.Outcome] = [], columns: [String] = [],
        graceChanges: [GraceChange.Stated] = []
    ) throws {
        let logger = global.makeLogger()
        var question = EpisodeQuestion(
            kind, grouping: grouping, schedule: schedule, limit: limit, openEpisodes: openEpisodes, outcomes: outcomes)
        question.graceChanges = graceChanges
        let allColumns = question.columns(for: format)
        if let unknown = columns.first(where: { !allColumns.contains($0) }) {
            throw ValidationError(
                "--columns: '\(unknown)' is not a column of this answer; its columns are "
                    + allColumns.joined(separator: ", ") + ".")
        }
        let inputs = QueryWorkflow.Inputs(
            environment: environment.rawValue, asOf: try scope.asOfTime(), filter: try filter(),
            question: question
        )
        let answer = try QueryWorkflow(target: global.target, logger: logger).run(inputs)
        let whole = question.table(answer: answer.groups, asOf: answer.asOf, for: format)
        let table = columns.isEmpty ? whole : whole.selecting(columns) ?? whole
        if format == .table, Console.isInteractive {
            let described = "\(environment.rawValue) as of \(UTCTime.minute(answer.asOf))"
            FileHandle.standardError.write(Data("\(described): \(answer.episodesInScope) episode(s) in scope\n".utf8))
        }
        FileHandle.standardOutput.write(Data(TableRenderer.render(table, as: format).utf8))
    }
}

extension TableRenderer.Format: NameArgument {}
