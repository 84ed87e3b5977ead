import Analysis

extension SummaryDocument {
    /// What the columns of the money table mean, in the table's order.
    static let moneyTerms = [
        "*Expected back*: the price at stake of each episode still in retry times its chance of recovering by day 60 "
            + "(`recovery_chance`, the share of the episodes this long in retry that the report's own history saw "
            + "recover), summed; in brackets, the chances summed: the recoveries expected.",
        "*At risk now*: the price of the failed renewal of each episode still in retry: what retry may still collect.",
        "*Recovered*: the price of the transaction that ended each recovered episode, one billing period each (not "
            + "the subscriber's lifetime value).",
        "*Saved in grace*: the part of it collected inside a grace period, while the subscriber kept access.",
        "*Lost to expiry*: the price of the failed renewal of each expired episode.",
    ]

    /// The terms and methods the sections above use, after everything a reader decides from: episodes and their
    /// outcomes, maturity and finality, intervals, the money table, and the forecast check.
    func writeReading(to writer: inout MarkdownWriter) {
        writer.heading("How to read this report")
        writer.paragraph(
            "An *episode* begins when a renewal charge fails and the App Store starts retrying it. It ends as "
                + "*recovered* when the App Store collects the payment or the subscriber buys again, as *expired* "
                + "when retry stops after 60 days without a payment (involuntary churn), as *cancelled* when the "
                + "subscriber turns off renewal during retry, or as *other* with a refund or revocation; until then "
                + "it is *open*.")
        writer.paragraph(
            "*Mature* episodes started at least 61 days before the as-of time: billing retry lasts at most 60 days, "
                + "so their outcome is decided. Younger episodes are left out of the headline's two rates because "
                + "their expiries are not known yet: recoveries come early in retry, expiries only at day 60, so "
                + "counting young episodes would overstate recovery. " + Self.intervalReading)
        writer.paragraph(
            "*Final* figures can no longer change: the App Store retries a notification it could not deliver for up "
                + "to 157 hours (1, 12, 24, 48 and 72 hours after the previous attempt), so the headline's rates are "
                + "final once the data hold 7 days of notifications signed after the as-of time, and a cohort's "
                + "figures once they hold 7 days signed after its last episode matured. Until then, recent failed "
                + "renewals, recoveries and cancellations can be missing, and a late notification can still turn an "
                + "expiry inferred at day 60 into a recovery.")
        writer.paragraph("The money table, per currency:")
        writer.bulletList(Self.moneyTerms)
        writer.paragraph(
            "*How well the forecast did* checks the method on past data of the same app: each episode open 61 days "
                + "ago got its chance from the recovery curve of the episodes known then, and every one of them has "
                + "since had its full 60 days of retry. A calibration that held then need not hold now: the mix of "
                + "customers, prices and payment methods changes, and the chances of the episodes open now come from "
                + "the history as it stands today.")
    }
}
