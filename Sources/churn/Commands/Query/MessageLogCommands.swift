import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query message-log`: the retry days the app showed the billing-issue sheet against the others.
    struct MessageLogCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "message-log",
            abstract: "Retry days the app showed the billing-issue sheet against the other days.",
            discussion: """
                The columns of message_log.csv, from the app's own log of the sheet
                (churn messages load): one row per band of the message schedule and
                (all) for days 1-60. Over every episode the log covers (each app's
                episodes that began between its first and last logged event, with
                an event or without one): the episodes at risk, the shown days, the
                recoveries per episode-day at risk on shown days and on the other
                days, and their Mantel-Haenszel ratio with its 95% interval. An
                association unless the app showed the sheet at random: see
                message-experiment for arms.

                Examples:
                  churn query message-log
                  churn query message-log --product com.example.monthly --format csv
                """
        )

        @OptionGroup var options: QueryOptions

        func validate() throws {
            try options.refuseGrouping("message-log", "filter the episodes instead.")
        }

        func run() throws {
            try options.answer(.messageLog)
        }
    }

    /// `churn query message-experiment`: the experiment arms of the app's message log.
    struct MessageExperimentCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "message-experiment",
            abstract: "The message log's experiment arms against the reference arm.",
            discussion: """
                The columns of message_experiment.csv, one row per arm (the arm of
                an episode's first logged event; episodes without an event have
                none): episodes, the mature recovery rate with its Wilson interval,
                the recovery curve on days 7, 30 and 60, and against the reference
                arm (the first by name) the difference of mature recovery rates
                with its Newcombe interval and the hazard ratio over retry days
                1-60 (Mantel-Haenszel). Causal only if the app assigned the arms at
                random.

                Examples:
                  churn query message-experiment
                  churn query message-experiment --format json
                """
        )

        @OptionGroup var options: QueryOptions

        func validate() throws {
            try options.refuseGrouping("message-experiment", "each arm is one row.")
        }

        func run() throws {
            try options.answer(.messageExperiment)
        }
    }
}
