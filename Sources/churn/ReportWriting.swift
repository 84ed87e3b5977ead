import Analysis
import AnalysisStore
import Foundation
import Reports

/// Writes a report directory, comparing with the previous report of the same environment and database in the same
/// root; shared by `report` and `nightly`.
enum ReportWriting {
    static func write(
        _ dataset: EpisodeDataset,
        store: StoredDataset,
        environment: String,
        root: URL,
        directory: URL,
        granularity: CalendarPeriod.Granularity = .month,
        schedule: MessageSchedule = .standard
    ) throws -> Report {
        let databaseID = try store.databaseID()
        var previous: PreviousHeadline?
        do {
            previous = try Headline.latest(
                inReportsRoot: root, before: dataset.asOf, environment: environment, databaseID: databaseID)
        } catch {
            Console.warn("the previous report cannot be read, so no comparison is shown: \(error)")
        }
        let report = Report(
            dataset: dataset,
            options: .init(
                granularity: granularity, schedule: schedule, environment: environment, databaseID: databaseID,
                rejections: try store.rejectionsByReason(), previous: previous,
                latestSignedDate: try store.latestSignedDate()
            )
        )
        try report.write(to: directory)
        return report
    }
}
