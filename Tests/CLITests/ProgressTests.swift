import Foundation
import TestSupport
import Testing

/// The progress bar of `churn load`: on a terminal it fits the width (a long path loses its middle) and shows bytes
/// and an ETA; anywhere else (a file, a pipe, cron) nothing of it is written.
@Suite struct ProgressTests {
    /// The billing-lifecycle export in a directory whose path is longer than a terminal line.
    struct LongPathExport {
        let file: URL
        let trustRoot: String
        let schema: TestDatabase.Schema

        init() throws {
            let nested = (1...6).map { "exports-of-the-app-store-server-notifications-\($0)" }.joined(separator: "/")
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("progress-\(UUID().uuidString)/\(nested)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let workspace = try NightlyTests.Workspace()
            file = directory.appendingPathComponent("export.jsonl")
            try FileManager.default.copyItem(at: workspace.exports.appendingPathComponent("day1.jsonl"), to: file)
            trustRoot = NightlyTests.fixtures.appendingPathComponent("testCA.der").path
            schema = workspace.schema
        }

        var arguments: [String] { ["load", "--database-url", schema.url, "--trust-root", trustRoot, file.path] }
    }

    @Test func onATerminalTheBarFitsTheWidthAndKeepsTheFileName() throws {
        let export = try LongPathExport()
        #expect(export.file.path.count > 300)
        let result = try ChurnCommand.runOnTerminal(export.arguments, columns: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("5 inputs, 5 new"))
        // Each redraw returns to the line's start and clears it; the last one leaves the line empty.
        let drawn = result.stderr.components(separatedBy: "\r\u{1B}[K").dropFirst()
            .map { $0.prefix { !$0.isNewline } }
            .filter { !$0.isEmpty }
        #expect(!drawn.isEmpty, "no progress on a terminal: \(result.stderr.debugDescription)")
        for line in drawn {
            #expect(line.count <= 59, "\(line)")
            #expect(line.contains("…") && line.contains("/export.jsonl "), "\(line)")
            #expect(line.contains("ETA "), "\(line)")
            #expect(line.contains(" kB"), "\(line)")
        }
        #expect(result.stderr.hasSuffix("\r\u{1B}[K"))
    }

    @Test func withoutATerminalNoProgressIsWritten() throws {
        let export = try LongPathExport()
        let result = try ChurnCommand.run(export.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("5 inputs, 5 new"))
        #expect(!result.stderr.contains("\r"))
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(!result.stderr.contains("ETA"))
    }
}
