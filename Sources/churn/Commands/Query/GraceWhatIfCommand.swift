import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query grace-whatif`: what each grace setting App Store Connect offers the app would have kept as paid
    /// service and given away as free access.
    struct GraceWhatIfCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grace-whatif",
            abstract: "Per app and grace setting: paid days and money kept, free access given.",
            discussion: """
                The columns of grace_whatif.csv. Billing Grace Period is a setting
                of the app: off, or 3, 16 or 28 days for all renewals or for paid-to-
                paid renewals only (a first charge after a free trial then gets no
                grace). A weekly product gets 3 days under the 3-day setting and 6
                under 16 or 28. Per app and setting, per product and (all), over the
                mature standard episodes: the episodes retry recovered within the
                grace period, the paid days that kept (a payment in grace keeps the
                billing date), the days of access the others had without paying,
                and both in money (price at stake per day of the product's period)
                where one currency allows. current marks every setting that
                explains the grace periods in the data. Monthly plans with a
                12-month commitment have no grace and are left out.

                It assumes every recovery would have come on the same day whatever
                the setting. Losing access is itself a reason to pay (see the
                grace-end day in retry-days), so a longer grace period may move
                some recoveries later: read it as what the same recoveries would be
                worth under another setting, not as a forecast.

                Examples:
                  churn query grace-whatif
                  churn query grace-whatif --bundle-id com.example.app --format csv
                  churn query grace-whatif --group-by storefront --from 2025-01
                """
        )

        @OptionGroup var options: QueryOptions

        func run() throws {
            try options.answer(.graceWhatIf)
        }
    }
}
