import Analysis
import AnalysisStore
import Foundation
import Reports

/// Writes a report directory, comparing with the previous report of the same environment and database in the same
/// root; shared by `report` and `nightly`.
enum ReportWriting {
    /// Writes the report of the stored episodes of `environment` as of `asOf` (at or after the latest `signedDate`
    /// loaded), streaming the episodes through the report's figures without holding them.
    static func writeStored(
        environment: String,
        asOf: Int64,
        store: StoredDataset,
        root: URL,
        directory: URL,
        granularity: CalendarPeriod.Granularity = .month,
        schedule: MessageSchedule = .standard
    ) throws -> Report {
        var tally = Report.Tally(
            asOf: asOf,
            options: try options(
                asOf: asOf, store: store, environment: environment, root: root, granularity: granularity,
                schedule: schedule))
        let counts = try store.streamStored(environment: environment, asOf: asOf) { tally.add($0) }
        let report = Report(tally, dataQuality: counts.dataQuality, renewals: counts.renewals)
        try report.write(to: directory)
        return report
    }

    /// Writes the report of `dataset` (episodes built for `environment`).
    static func write(
        _ dataset: EpisodeDataset,
        store: StoredDataset,
        environment: String,
        root: URL,
        directory: URL,
        granularity: CalendarPeriod.Granularity = .month,
        schedule: MessageSchedule = .standard
    ) throws -> Report {
        let report = Report(
            dataset: dataset,
            options: try options(
                asOf: dataset.asOf, store: store, environment: environment, root: root, granularity: granularity,
                schedule: schedule)
        )
        try report.write(to: directory)
        return report
    }

    /// The report's options: the database's identity, rejections and latest data, and the previous report's
    /// headline (none, with a warning, when it cannot be read).
    private static func options(
        asOf: Int64,
        store: StoredDataset,
        environment: String,
        root: URL,
        granularity: CalendarPeriod.Granularity,
        schedule: MessageSchedule
    ) throws -> Report.Options {
        let databaseID = try store.databaseID()
        var previous: PreviousHeadline?
        do {
            previous = try Headline.latest(
                inReportsRoot: root, before: asOf, environment: environment, databaseID: databaseID)
        } catch {
            Console.warn("the previous report cannot be read, so no comparison is shown: \(error)")
        }
        return .init(
            granularity: granularity, schedule: schedule, environment: environment, databaseID: databaseID,
            rejections: try store.rejectionsByReason(), previous: previous,
            latestSignedDate: try store.latestSignedDate()
        )
    }
}
