import Analysis
import ArgumentParser
import Foundation

extension Churn.QueryCommand {
    /// `churn query message-bands`: recoveries against the billing-issue message schedule.
    struct MessageBandsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "message-bands",
            abstract: "Recoveries per band of the billing-issue message schedule, against modelled exposure.",
            discussion: """
                The columns of message_bands.csv: per band of the message schedule,
                the episodes entering it, messages counted as sent, recoveries,
                exposure, hazard per day, recoveries per 1000 messages, and the
                recovery hazard on message days against their neighbouring days
                (hazard ratio with its 95% interval; the (all) row pools the bands).
                Messages are modelled from the schedule: an export does not record
                which were shown. Each group gets its own bands.

                Examples:
                  churn query message-bands
                  churn query message-bands --group-by product --format markdown
                  churn query message-bands --schedule my-schedule.txt --paid-renewal
                """
        )

        @OptionGroup var options: QueryOptions

        @OptionGroup var schedule: ScheduleOption

        func run() throws {
            try options.answer(.messageBands, schedule: try schedule.load())
        }
    }
}
