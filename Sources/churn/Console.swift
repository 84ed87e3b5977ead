import Foundation
import Ingest

/// Messages for the person at the terminal (or the cron mail): warnings to stderr.
enum Console {
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("churn: warning: \(message)\n".utf8))
    }

    /// Whether stderr is a terminal (progress bars only there).
    static var isInteractive: Bool {
        isatty(STDERR_FILENO) == 1
    }
}

/// A one-line progress bar on stderr, shown only when stderr is a terminal.
final class ProgressBar {
    private let enabled: Bool
    private var lastDraw = Date.distantPast
    private let started = Date()
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled && Console.isInteractive
    }

    func update(_ progress: LoadProgress) {
        guard enabled, Date().timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = Date()
        let elapsed = max(Date().timeIntervalSince(started), 0.001)
        var line = "\(progress.fileIndex + 1)/\(progress.fileCount) \(progress.file)"
        if let size = progress.fileSize, size > 0 {
            line += String(format: " %3.0f%%", 100 * Double(progress.bytesRead) / Double(size))
        }
        line += " \(progress.records) records (\(Int(Double(progress.records) / elapsed))/s), \(progress.rejected) rejected"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// The load summary as people read it.
enum LoadReport {
    static func render(_ summary: LoadSummary) -> String {
        var lines: [String] = []
        for file in summary.files {
            var line = "\(file.path): \(file.records) notifications, \(file.loaded) new, \(file.duplicates) already stored, \(file.rejected) rejected"
            if let run = file.previousRunWithSameContent {
                line += " (same content as loaded by run \(run): nothing new)"
            }
            lines.append(line)
            for sample in file.sampleRejections.prefix(5) { lines.append("  rejected \(sample)") }
            if file.rejected > 5 { lines.append("  … \(file.rejected - 5) more in table quarantine") }
        }
        let rate = summary.seconds > 0 ? Int(Double(summary.records) / summary.seconds) : 0
        lines.append(
            "load run \(summary.loadRunID): \(summary.files.count) file(s), \(summary.records) notifications, "
                + "\(summary.loaded) new, \(summary.duplicates) already stored, \(summary.rejected) rejected "
                + String(format: "in %.1f s (%d/s)", summary.seconds, rate)
        )
        if !summary.rejectedByReason.isEmpty {
            let reasons = summary.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append("rejected by reason: " + reasons.joined(separator: ", "))
        }
        lines.append(summary.verified ? "signatures: verified" : "signatures: NOT VERIFIED (--no-verify)")
        return lines.joined(separator: "\n")
    }
}
