import Foundation
import Ingest

/// The load summary as people read it.
enum LoadReport {
    static func render(_ summary: LoadSummary) -> String {
        var lines: [String] = []
        for file in summary.files {
            var line =
                "\(file.path): \(inputs(file.records)), \(file.loaded) new, "
                + resumedPart(file.resumed) + "\(file.duplicates) already stored, \(file.rejected) rejected"
            if let run = file.previousRunWithSameContent {
                line +=
                    file.loaded == 0
                    ? " (same content as loaded by run \(run): nothing new)"
                    : " (read again: run \(run) loaded the same content; this run stored \(file.loaded) it had not)"
            }
            lines.append(line)
            for sample in file.sampleRejections.prefix(5) { lines.append("  rejected \(sample)") }
            if file.rejected > 5 { lines.append("  … \(file.rejected - 5) more in table quarantine") }
        }
        let rate = summary.seconds > 0 ? Int(Double(summary.records) / summary.seconds) : 0
        lines.append(
            "load run \(summary.loadRunID): \(summary.files.count) file(s), \(inputs(summary.records)), "
                + "\(summary.loaded) new, " + resumedPart(summary.resumed)
                + "\(summary.duplicates) already stored, \(summary.rejected) rejected "
                + String(format: "in %.1f s (%d/s)", summary.seconds, rate)
        )
        if !summary.rejectedByReason.isEmpty {
            let reasons = summary.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append("rejected by reason: " + reasons.joined(separator: ", "))
        }
        lines.append(signatureLine(summary))
        return lines.joined(separator: "\n")
    }

    /// Inputs read: lines (or records) of which some may be no notification at all, so not called notifications.
    private static func inputs(_ count: Int) -> String {
        count == 1 ? "1 input" : "\(count) inputs"
    }

    /// The notifications an unfinished load of the file (a killed one) stored before, when there are any.
    private static func resumedPart(_ resumed: Int) -> String {
        resumed > 0 ? "\(resumed) from an unfinished load of this file, " : ""
    }

    /// What verification did: every stored or already-stored notification passed it, in this load or, for a line
    /// byte-identical to a stored notification, in the load that stored it; rejected inputs did not.
    static func signatureLine(_ summary: LoadSummary) -> String {
        guard summary.verified else { return "signatures: NOT VERIFIED (--no-verify)" }
        let passed = summary.loaded + summary.resumed + summary.duplicates
        if passed == 0 {
            func count(_ reasons: [Rejection.Reason]) -> Int {
                reasons.reduce(0) { $0 + (summary.rejectedByReason[$1.rawValue] ?? 0) }
            }
            let filtered = count(Rejection.Reason.filterReasons)
            if filtered > 0 {
                return "signatures: verified for the \(filtered) notification(s) then left out by --bundle-id or "
                    + "--environment; none accepted"
            }
            return count(Rejection.Reason.signatureReasons) > 0
                ? "signatures: no notification passed verification"
                : "signatures: none checked (no input reached verification)"
        }
        let line = "signatures: verified for the \(passed) notification(s) accepted"
        guard summary.notVerifiedAgain > 0 else { return line }
        return line
            + " (\(summary.notVerifiedAgain) byte-identical to stored notifications verified before: not checked again)"
    }
}
