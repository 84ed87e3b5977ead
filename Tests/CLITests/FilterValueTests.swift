import Foundation
import PGClient
import TestSupport
import Testing

/// A `--product` or `--storefront` value that no episode has is refused (64) with the values the episodes have,
/// instead of an answer of zeros.
@Suite struct FilterValueTests {
    @Test func aMistypedFilterValueIsRefusedWithTheKnownOnes() throws {
        let simulated = try SimulatedExport("filters", subscribers: 60, seed: 6)
        defer { simulated.remove() }
        let export = simulated.export
        let schema = try TestDatabase.makeSchema("filtervalues")
        let database = ["--database-url", schema.url]
        #expect(try ChurnCommand.run(["load", "--no-verify"] + database + [export.path]).status == 0)
        #expect(try ChurnCommand.run(["analyze"] + database).status == 0)
        let connection = try schema.connect()
        let storefront = try #require(
            try connection.execute(
                "SELECT storefront FROM billing_episodes WHERE storefront <> '' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
            ).scalar)
        let product = try #require(try connection.execute("SELECT min(product_id) FROM billing_episodes").scalar)

        let typo = try ChurnCommand.run(["query", "recovery-rate", "--product", "pro.nope"] + database)
        #expect(typo.status == 64, "\(typo.stdout)\(typo.stderr)")
        #expect(typo.stderr.contains("--product 'pro.nope' matches no episode of Production"), "\(typo.stderr)")
        #expect(typo.stderr.contains(product), "\(typo.stderr)")

        let lower = try ChurnCommand.run(
            ["query", "recovery-rate", "--storefront", storefront.lowercased()] + database)
        #expect(lower.status == 64)
        #expect(lower.stderr.contains("did you mean '\(storefront)'?"), "\(lower.stderr)")
        let twoLetters = try ChurnCommand.run(["query", "recovery-rate", "--storefront", "XY"] + database)
        #expect(twoLetters.stderr.contains("country codes of three letters"), "\(twoLetters.stderr)")

        // Known values, and '' for episodes without one, answer as before.
        let known = try ChurnCommand.run(
            ["query", "recovery-rate", "--storefront", storefront, "--product", product, "--product", ""] + database)
        #expect(known.status == 0, "\(known.stderr)")
    }
}
