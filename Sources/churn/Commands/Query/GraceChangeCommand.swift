import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query grace-change`: what each change of an app's grace setting did, against the products whose grace
    /// length held.
    struct GraceChangeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grace-change",
            abstract: "What a change of an app's grace setting did: a difference in differences with its interval.",
            discussion: """
                The columns of grace_change.csv, one row per change. A change is
                found where a product's grace length moves from one month to the
                next (a month needs 20 episodes: docs/METRICS.md, "A grace change,
                evaluated"), or stated with --grace-change, which replaces what
                the data show for that app and month. Over the mature episodes
                that started 90 days before and after the change: the recovered
                share, paid days kept and free access days per episode of the
                products whose length changed, against the products whose length
                held (comparison); did is the difference in differences, with a
                95% bootstrap interval over subscriptions (2,000 resamples, a fixed
                seed: the same data give the same interval), and the placebo is
                the same estimate 180 days earlier, where nothing changed.

                It assumes the changed products would have moved as the
                comparison's did without the change. Without filters the answer
                is the report's grace_change.csv; a filter narrows the episodes,
                and so the products that can serve as comparison.

                Examples:
                  churn query grace-change
                  churn query grace-change --grace-change com.example.app=2025-07-01:28
                  churn query grace-change --format json
                """
        )

        @OptionGroup var options: QueryOptions

        @OptionGroup var graceChanges: GraceChangeOption

        func validate() throws {
            try options.refuseGrouping("grace-change", "each change is one row.")
        }

        func run() throws {
            try options.answer(.graceChange, graceChanges: try graceChanges.changes())
        }
    }
}
