import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// The app's message log in a report: `message_log.csv` and `message_experiment.csv` among the files, in
/// METRICS.md's order, its section of the summary, and `message_event_outside_retry` in data quality; none of them
/// without a log.
@Suite struct MessageLogSectionTests {
    static func report() -> Report {
        let dataset = Sample.dataset()
        let log = MessageLog(
            events: [
                // S01's episode starts 2024-03-03, S03's 2024-03-15 (no grace). An event of S01 before its episode
                // opens the log's span (outside retry); S99 is no subscription of the data (outside retry too).
                MessageEvent(
                    originalTransactionId: "S01", appAccountToken: nil, at: T.march1, action: .deferred),
                MessageEvent(
                    originalTransactionId: "S01", appAccountToken: nil, at: T.march1 + 2 * T.day + T.hour,
                    action: .shown, arm: "a"),
                MessageEvent(
                    originalTransactionId: "S03", appAccountToken: nil, at: T.march1 + 15 * T.day + T.hour,
                    action: .shown, arm: "b"),
                MessageEvent(
                    originalTransactionId: "S99", appAccountToken: nil, at: T.march1 + 20 * T.day, action: .shown),
            ],
            apps: ["S01": "", "S03": ""], sightings: [])
        var tally = Report.Tally(asOf: dataset.asOf, options: .init(rejections: Sample.rejections))
        var messages = MessageLog.Tally(log: log, asOf: dataset.asOf)
        for episode in dataset.episodes {
            tally.add(episode)
            messages.add(episode)
        }
        return Report(tally, dataQuality: dataset.dataQuality, renewals: dataset.renewals, messages: messages)
    }

    @Test func aReportWithALogWritesItsFilesSectionAndCheck() throws {
        let report = Self.report()
        let names = try report.files().map(\.name)
        let log = try #require(names.firstIndex(of: ShownDays.fileName))
        let experiment = try #require(names.firstIndex(of: MessageExperiment.fileName))
        let flows = try #require(names.firstIndex(of: Flows.fileName))
        let returns = try #require(names.firstIndex(of: Returns.fileName))
        #expect(returns < log && log < experiment && experiment < flows)
        #expect(report.fileCount == names.count)

        let summary = SummaryDocument(report: report).markdown
        #expect(summary.contains("## \(SummaryDocument.messageLogHeading)"))
        #expect(summary.contains("`\(ShownDays.fileName)`") && summary.contains("`\(MessageExperiment.fileName)`"))
        #expect(summary.contains("2 logged events fell in no episode's retry"))
        // The modelled schedule's section shrinks to its pooled ratio and a pointer to the log.
        let modelled = try #require(summary.components(separatedBy: "## Billing-issue messages").last)
        #expect(modelled.contains("Modelled from the App Store's schedule rather than the app's log"))
        #expect(!modelled.contains("| Band |"))
        // The reference arm is the first by name.
        #expect(summary.contains("| `a` | ") && summary.contains(" | reference | "))
        #expect(report.figures.dataQuality.contains { $0.check == "message_event_outside_retry" && $0.count == 2 })

        let table = try #require(report.figures.messageLog.last)
        #expect(table.band == nil && table.shownDays == 2)
    }

    @Test func aReportWithoutALogHasNone() throws {
        let report = Sample.report()
        let names = try report.files().map(\.name)
        #expect(!names.contains(ShownDays.fileName) && !names.contains(MessageExperiment.fileName))
        let summary = SummaryDocument(report: report).markdown
        #expect(!summary.contains(SummaryDocument.messageLogHeading))
        #expect(!summary.contains("rather than the app's log"))
        #expect(!report.figures.dataQuality.contains { $0.check == "message_event_outside_retry" })
    }
}
