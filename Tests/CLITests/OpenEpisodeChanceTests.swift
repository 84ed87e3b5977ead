import Foundation
import TestSupport
import Testing

/// A customer's recovery chance is one figure: the same whatever `--group-by` sorts `churn query open-episodes` by,
/// and the report's (once a grouped list re-estimated each chance from its group's fewer episodes: 0.182, 0.137 by
/// app, 0.210 by product for one customer, and 0 in a group without a recovery yet).
@Suite struct OpenEpisodeChanceTests {
    @Test func theChanceOfAnOpenEpisodeDoesNotDependOnTheGrouping() throws {
        let simulated = try SimulatedExport("chances", subscribers: 400, seed: 11)
        defer { simulated.remove() }
        let database = ["--database-url", try simulated.loadedUnverified(into: "openchances").url]
        func chances(_ grouping: [String]) throws -> [String: String] {
            let answer = try ChurnCommand.run(["query", "open-episodes", "--format", "csv"] + grouping + database)
            #expect(answer.status == 0, "\(answer.stderr)")
            let lines = answer.stdout.split(separator: "\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            let header = try #require(lines.first)
            let subscription = try #require(header.firstIndex(of: "original_transaction_id"))
            let start = try #require(header.firstIndex(of: "t0"))
            let chance = try #require(header.firstIndex(of: "recovery_chance"))
            return Dictionary(
                lines.dropFirst().map { ("\($0[subscription]) \($0[start])", String($0[chance])) },
                uniquingKeysWith: { first, _ in first })
        }
        let plain = try chances([])
        #expect(plain.count > 5, "open episodes: \(plain.count)")
        for grouping in [
            ["--group-by", "product"], ["--group-by", "app"], ["--group-by", "storefront,grace-length"],
        ] {
            #expect(try chances(grouping) == plain, "\(grouping)")
        }
    }
}
