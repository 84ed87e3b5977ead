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

    /// An option whose values are names takes them in any case, as `--environment` always did: `--outcome Expired`
    /// once was refused while `--environment sandbox` was taken.
    @Test func namesAreTakenInAnyCase() throws {
        let simulated = try SimulatedExport("names", subscribers: 30, seed: 8)
        defer { simulated.remove() }
        let database = ["--database-url", try simulated.loadedUnverified(into: "namecase").url]
        let written = try ChurnCommand.run(
            ["query", "episodes", "--outcome", "expired", "--format", "csv", "--environment", "Production"] + database)
        #expect(written.status == 0 && written.stdout.contains(",expired,"), "\(written.stdout)\(written.stderr)")
        let shouted = try ChurnCommand.run(
            ["query", "episodes", "--outcome", "Expired", "--format", "CSV", "--environment", "PRODUCTION"] + database)
        #expect(shouted.status == 0, "\(shouted.stderr)")
        #expect(shouted.stdout == written.stdout)
        // A name that is none is still refused, with the names there are.
        let wrong = try ChurnCommand.run(["query", "episodes", "--outcome", "lost"] + database)
        #expect(wrong.status == 64 && wrong.stderr.contains("expired"), "\(wrong.stderr)")
    }
}
