import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// `forecast_check.csv` and its summary section, from checks made by hand.
@Suite struct ForecastCheckTableTests {
    /// Band 0: one episode, chance 0, not recovered; band 4: one episode, chance 0.4, recovered.
    static let check = ForecastCheck.Check(
        checkTime: T.may1, episodesThen: 6,
        bands: [ForecastCheck.Row(episodes: 1, expected: 0, observed: 0)]
            + [ForecastCheck.Row](repeating: ForecastCheck.Row(), count: 3)
            + [ForecastCheck.Row(episodes: 1, expected: 0.4, observed: 1)]
            + [ForecastCheck.Row](repeating: ForecastCheck.Row(), count: 5))

    @Test func bandsWithEpisodesThenTheTotal() {
        let table = ForecastCheck.table(Self.check)
        #expect(table.name == "forecast_check.csv")
        #expect(
            table.columns == [
                "chance_band", "episodes", "expected_recoveries", "observed_recoveries", "observed_share",
                "observed_share_low", "observed_share_high", "mean_chance",
            ])
        // Wilson, 95 %: 0 of 1 → 0–0.793451; 1 of 1 → 0.206549–1; 1 of 2 → 0.094531–0.905469.
        #expect(
            lines(table) == [
                "0.0-0.1,1,0.000000,0,0.000000,0.000000,0.793451,0.000000",
                "0.4-0.5,1,0.400000,1,1.000000,0.206549,1.000000,0.400000",
                "(all),2,0.400000,1,0.500000,0.094531,0.905469,0.200000",
            ])
    }

    @Test func bandLabels() {
        #expect(
            (0..<ForecastCheck.bandCount).map(ForecastCheck.bandLabel) == [
                "0.0-0.1", "0.1-0.2", "0.2-0.3", "0.3-0.4", "0.4-0.5", "0.5-0.6", "0.6-0.7", "0.7-0.8", "0.8-0.9",
                "0.9-1.0",
            ])
    }

    @Test func tooLittleHistoryGivesOnlyTheTotalRow() {
        let table = ForecastCheck.table(.empty(asOf: T.july1))
        #expect(lines(table) == ["(all),0,0.000000,0,,,,"])
        #expect(CSVWriter.render(table).split(separator: "\n").count == 2)
    }

    @Test func summarySaysWhatWasExpectedAndWhatCame() {
        let report = Report(dataset: EpisodeDataset(asOf: T.july1), forecastCheck: Self.check)
        let summary = SummaryDocument(report: report).markdown
        #expect(
            summary.contains(
                "61 days ago (as of 2024-05-01 00:00 UTC), 2 episodes were open; this method expected 0.4 of them "
                    + "to recover by day 60; 1 did (share 50.0%, 95% confidence interval 9.5%–90.5%)."))
        // 0.4 lies in band 4's interval (0.21–1 of 1); 0 in band 0's (0–0.79 of 1).
        #expect(summary.contains("in 2 of 2 tenths holding episodes"))
        #expect(summary.contains("A calibration that held then need not hold now"))
        let money = summary.range(of: "## Money")?.lowerBound
        let check = summary.range(of: "## How well the forecast did")?.lowerBound
        #expect(money != nil && check != nil)
        if let money, let check { #expect(money < check) }
    }

    @Test func summarySaysWhenThereIsTooLittleHistory() {
        let summary = SummaryDocument(report: Report(dataset: EpisodeDataset(asOf: T.july1))).markdown
        #expect(summary.contains("61 days before the as-of time (2024-05-01 00:00 UTC) the data held no episode yet"))
        var noneOpen = ForecastCheck.Check.empty(asOf: T.july1)
        noneOpen.episodesThen = 3
        let quiet = SummaryDocument(report: Report(dataset: EpisodeDataset(asOf: T.july1), forecastCheck: noneOpen))
        #expect(quiet.markdown.contains("no episode was open, so there was no chance of recovery to check"))
    }

    @Test func unmatchedEpisodesAreNamed() {
        var check = Self.check
        check.unmatched = 1
        let summary = SummaryDocument(report: Report(dataset: EpisodeDataset(asOf: T.july1), forecastCheck: check))
        #expect(summary.markdown.contains("1 episode open then is no longer among the episodes built now"))
    }
}
