import Analysis
import Foundation
import TestSupport
import Testing

/// What `--help` says of values the code decides, checked against the code.
@Suite struct HelpTextTests {
    /// `--group-by grace-length` groups by the grace lengths App Store Connect's settings give: every length a
    /// setting gives a weekly or a longer product is named in `churn query --help` (6, the weekly cap, once was not),
    /// and the help says which column the two cohort groupings fill.
    @Test func theGroupingHelpNamesEveryGraceLengthAndTheCohortColumn() throws {
        let help = try ChurnCommand.run(["query", "--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let grouping = try #require(text.components(separatedBy: "grace-length (").dropFirst().first)
        let named = grouping.prefix { $0 != ")" }
        let lengths = Set(
            GraceWhatIf.Setting.all.flatMap { setting in
                [true, false].map { setting.paidRenewalDays(isWeekly: $0) }
            }.filter { $0 > 0 })
        #expect(lengths == [3, 6, 16, 28])
        let numbers = Set(named.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) })
        #expect(lengths.isSubset(of: numbers), "churn query --help's grace lengths: \(named)")
        #expect(text.contains("cohort-week (both in the column `cohort`"), "\(text)")
    }
}
