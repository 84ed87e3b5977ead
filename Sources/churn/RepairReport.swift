import HistoryFetch
import Repair

/// What a repair did, as people read it.
enum RepairReport {
    /// One line of counts, then the history files written, indented.
    static func render(_ summary: RepairJob.Summary) -> String {
        let verdicts = SubscriptionCheck.Verdict.allCases.map { "\(summary.verdicts[$0] ?? 0) \($0.rawValue)" }
        var line = "checked \(summary.checked) subscription(s) with Apple: " + verdicts.joined(separator: ", ")
        if summary.resumed > 0 { line += " (went on with \(summary.resumed) unfinished)" }
        var lines = [line]
        lines.append(
            "fetched the history of \(summary.histories) subscription(s): \(summary.pages) page(s), "
                + "\(summary.notifications) notification(s), \(summary.files.count) file(s)")
        if summary.transactionHistories > 0 {
            lines.append(
                "read the signed transactions of \(summary.transactionHistories) subscription(s) older than Apple's "
                    + "notification history: \(summary.recoveriesProven) recovery(ies) proven by a verified renewal")
        }
        if summary.failedHistories > 0 {
            lines.append(
                "Apple refused the history of \(summary.failedHistories) subscription(s): recorded as failed, with "
                    + "Apple's error code, in subscription_checks")
        }
        lines += summary.files.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
