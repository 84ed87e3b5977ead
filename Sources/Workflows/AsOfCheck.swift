import Analysis
import AnalysisStore
import Logging
import Reports

/// What an `--as-of` after the latest notification loaded means: the days between hold no notification, so
/// episodes open then look as if nothing happened to them, and past day 60 as expired.
package enum AsOfCheck {
    /// How far after the latest notification an as-of time is still taken: the App Store's delivery retries (a
    /// notification signed by then may still be on its way, ``Report/lateDeliveryWindow``).
    package static let latestDataMargin = Report.lateDeliveryWindow

    /// Refuses an as-of time more than ``latestDataMargin`` after `latest` or before the earliest notification
    /// loaded (`store` tells which that is), and warns of one after `latest`.
    /// - Throws: ``WorkflowError/asOfAfterData(asOf:latest:)``, ``WorkflowError/asOfBeforeData(asOf:earliest:)``.
    package static func check(asOf: Int64, latest: Int64, store: StoredDataset, logger: Logger) throws {
        if asOf < latest, let earliest = try store.earliestSignedDate(), asOf < earliest {
            throw WorkflowError.asOfBeforeData(asOf: asOf, earliest: earliest)
        }
        guard asOf > latest else { return }
        let (limit, overflow) = latest.addingReportingOverflow(latestDataMargin)
        if !overflow, asOf > limit { throw WorkflowError.asOfAfterData(asOf: asOf, latest: latest) }
        logger.warning(
            "the as-of time is after the latest notification loaded: the days between hold no notification yet",
            metadata: ["as_of": "\(UTCTime.minute(asOf))", "latest_signed_date": "\(UTCTime.minute(latest))"])
    }
}
