import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query grace-whatif`: what each grace length would have kept as paid service and given away as free
    /// access.
    struct GraceWhatIfCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grace-whatif",
            abstract: "Per product and grace length: paid days kept and free access given.",
            discussion: """
                The columns of grace_whatif.csv: per product, for a grace period of
                0, 3, 6, 16 and 28 days, over the mature episodes (t0 + 61 days by
                the as-of time), the episodes retry recovered within the grace
                period, the paid days that kept (days since t0: a payment in grace
                keeps the billing date) and the days of access the other episodes
                had without paying. current marks the product's grace length: the
                usual length its undated grace ends were inferred with, found over
                every episode whatever the filters (0 when it has no grace period).

                It assumes every recovery would have come on the same day whatever
                the grace length. Losing access is itself a reason to pay (see the
                grace-end day in retry-days), so a longer grace period may move
                some recoveries later: read it as what the same recoveries would be
                worth under another setting, not as a forecast.

                Examples:
                  churn query grace-whatif
                  churn query grace-whatif --product pro.monthly --format csv
                  churn query grace-whatif --group-by storefront --from 2025-01
                """
        )

        @OptionGroup var options: QueryOptions

        func run() throws {
            try options.answer(.graceWhatIf)
        }
    }
}
