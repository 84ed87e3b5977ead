import Foundation
import Ingest

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
