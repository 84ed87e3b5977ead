import Foundation
import Reports

/// A report directory written, and what its writing had to leave out.
package struct WrittenReport {
    package var report: Report
    package var directory: URL
    /// The time the report is as of, Unix milliseconds.
    package var asOf: Int64
    /// Why the previous report of the reports root cannot be read, when it cannot: summary.md then compares with
    /// nothing.
    package var previousReportProblem: String?
}
