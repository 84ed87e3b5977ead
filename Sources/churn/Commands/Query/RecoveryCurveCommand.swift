import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query recovery-curve`: the cumulative incidence of recovery by day of the episode.
    struct RecoveryCurveCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-curve",
            abstract: "Recovery by day of the episode, days 1-60: at_risk, recovered, cif_recovery.",
            discussion: """
                cif_recovery is the cumulative incidence of recovery (Aalen-Johansen:
                expired, cancelled and other compete, open episodes are censored), as
                in recovery_curve.csv; without filters or grouping the rows are that
                file's. Each group gets its own 60 days.

                Examples:
                  churn query recovery-curve
                  churn query recovery-curve --group-by grace-length --format csv
                  churn query recovery-curve --trial-conversion --from 2025-01 --to 2025-03
                """
        )

        @OptionGroup var options: QueryOptions

        func run() throws {
            try options.answer(.recoveryCurve)
        }
    }
}
