import Analysis
import AnalysisStore
import EmbeddedPostgres
import Logging
import PGClient

/// Brings the episodes up to date and answers one question about those in scope (`churn query`).
package struct QueryWorkflow {
    package struct Inputs {
        package var environment: String
        /// The time to answer as of, Unix milliseconds; nil for the latest `signedDate` loaded.
        package var asOf: Int64?
        package var filter: EpisodeFilter
        package var question: EpisodeQuestion

        package init(environment: String, asOf: Int64?, filter: EpisodeFilter, question: EpisodeQuestion) {
            self.environment = environment
            self.asOf = asOf
            self.filter = filter
            self.question = question
        }
    }

    package struct Answer {
        /// The answer's groups, as ``EpisodeQuestion`` lays them out.
        package var groups: [EpisodeQuestion.Group]
        /// The time the answer is as of, Unix milliseconds.
        package var asOf: Int64
        /// The episodes in scope.
        package var episodesInScope: Int
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Streams the episodes in scope through the question's tally: none is kept but the rows `episodes` lists.
    /// - Throws: ``WorkflowError/nothingLoaded``, ``WorkflowError/asOfAfterData(asOf:latest:)``; `PGError`,
    ///   `EmbeddedClusterError`.
    package func run(_ inputs: Inputs) throws -> Answer {
        // Flows are asked of weeks: --from/--to choose the weeks shown, and every episode counts in the week it
        // enters or leaves, whenever it started.
        var inputs = inputs
        var weeks: (from: Int64?, before: Int64?)?
        if inputs.question.kind == .flows, inputs.filter.startFrom != nil || inputs.filter.startBefore != nil {
            weeks = (inputs.filter.startFrom, inputs.filter.startBefore)
            inputs.filter.startFrom = nil
            inputs.filter.startBefore = nil
        }
        let writer = try target.connectToStored(logger: logger)
        let reader = try target.connect(logger: logger)
        try UpToDateEpisodes.analyzeUnlessReadOnly(
            writer: writer, reader: reader, environment: inputs.environment, logger: logger)
        let query = EpisodeQuery(environment: inputs.environment, filter: inputs.filter)
        guard let scope = try query.scope(asOf: inputs.asOf, connection: writer) else {
            throw WorkflowError.nothingLoaded(database: writer.target)
        }
        try AsOfCheck.check(
            asOf: scope.asOf, latest: scope.latestSignedDate, store: StoredDataset(connection: writer), logger: logger)
        try FilterValueCheck.check(environment: inputs.environment, filter: inputs.filter, connection: writer)
        var tally = EpisodeQuestion.Tally(inputs.question, asOf: scope.asOf)
        var inScope = 0
        func add(_ episode: Episode) {
            tally.add(episode)
            inScope += 1
        }
        let groups: [EpisodeQuestion.Group]
        if inputs.question.kind == .graceWhatIf {
            // Each product's grace length is the one that dated its grace periods, over every episode.
            let graceLengths = try query.forEachEpisodeWithGraceLengths(
                in: scope, connection: writer, reader: reader, add)
            groups = tally.answer(graceLengths: graceLengths)
        } else if inputs.question.kind == .graceChange {
            // The windows of a change are known once every episode has been seen: a second pass adds theirs.
            try query.forEachEpisode(in: scope, connection: writer, reader: reader, add)
            let rows = try tally.graceChangeEvaluation.rows { body in
                try query.forEachEpisode(in: scope, connection: writer, reader: reader, body)
            }
            groups = [EpisodeQuestion.Group(key: nil, figures: .graceChange(rows))]
        } else if inputs.question.kind == .messageLog || inputs.question.kind == .messageExperiment {
            guard
                let log = try StoredDataset(connection: writer).messageLog(
                    environment: inputs.environment, asOf: scope.asOf)
            else { throw WorkflowError.noMessageLog }
            var messages = MessageLog.Tally(log: log, asOf: scope.asOf, schedule: inputs.question.schedule)
            try query.forEachEpisode(in: scope, connection: writer, reader: reader) { episode in
                add(episode)
                messages.add(episode)
            }
            let figures: EpisodeQuestion.Figures =
                inputs.question.kind == .messageLog
                ? .messageLog(messages.shownDayRows) : .messageExperiment(messages.experimentRows)
            groups = [EpisodeQuestion.Group(key: nil, figures: figures)]
        } else {
            try query.forEachEpisode(in: scope, connection: writer, reader: reader, add)
            groups = tally.answer
        }
        let shown = weeks.map { window in groups.map { $0.keepingWeeks(from: window.from, before: window.before) } }
        return Answer(groups: shown ?? groups, asOf: scope.asOf, episodesInScope: inScope)
    }
}
