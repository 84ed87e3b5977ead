import Analysis

extension SummaryDocument {
    /// What the columns of the money table mean, in the table's order.
    static let moneyTerms =
        "*Expected back*: each episode in retry weighed by its chance of paying; *at risk now*: the price of their "
        + "failed renewals; *recovered*: one billing period per recovery, part of it *saved in grace*; *lost to "
        + "expiry*: the price of the expired episodes' failed renewals."

    /// The statistics the sections above use, after everything a reader decides from: episodes and their outcomes,
    /// intervals and estimates (maturity and finality are told under the cohorts, the forecast check's limits in its
    /// section).
    func writeReading(to writer: inout MarkdownWriter) {
        writer.heading("How to read this report")
        writer.paragraph(
            "An *episode* runs from a failed renewal until it is *recovered* (the App Store collects the payment or "
                + "the subscriber buys again), *expired* (retry stopped after 60 days without a payment: involuntary "
                + "churn), *cancelled* (renewal turned off during retry) or *other* (a refund or revocation); until "
                + "then it is *open*. *Mature* episodes and *final* figures: see [Cohorts](#cohorts).")
        writer.paragraph(
            Self.intervalReading + " The recovery curve, the chances of paying and the returns are estimates that "
                + "count open episodes and recent expiries for as long as they have been watched (Aalen–Johansen, "
                + "Kaplan–Meier).")
    }
}
