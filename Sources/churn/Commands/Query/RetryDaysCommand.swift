import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query retry-days`: the life table of retry days 1…60.
    struct RetryDaysCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry-days",
            abstract: "Day by day of retry, 1-60: at risk, recoveries, daily hazard with its 95% interval.",
            discussion: """
                The columns of retry_days.csv. message_day is true when the schedule
                puts a billing-issue message in that day. An episode counts nowhere
                on the day holding its grace end (losing access drives recoveries by
                itself), and not at all when its grace end is unknown. Each group
                gets its own 60 days.

                Examples:
                  churn query retry-days
                  churn query retry-days --group-by grace-length --format csv
                  churn query retry-days --schedule my-schedule.txt
                """
        )

        @OptionGroup var options: QueryOptions

        @OptionGroup var schedule: ScheduleOption

        func run() throws {
            try options.answer(.retryDays, schedule: try schedule.load())
        }
    }
}
