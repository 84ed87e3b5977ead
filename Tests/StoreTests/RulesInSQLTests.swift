import Foundation
import PGClient
import TestSupport
import Testing

/// The rules of METRICS.md are decided in Swift. SQL that restates one (a day count of the retry window, interval
/// arithmetic in days on episode times, an outcome decided in a CASE, a confidence interval) is allowed only where
/// this list names it with its reason, so a feature that writes a new rule in SQL fails here. The list is the debt
/// still to move into the analysis; it only shrinks.
@Suite struct RulesInSQLTests {
    /// A rule's tokens, as migrations write them and as PostgreSQL prints a view back (`'1 day'::interval`).
    static let ruleTokens =
        #"'[0-9]+ (?:days?|hours?)'|generate_series\(1, ?6[01]\)|THEN '(?:expired|recovered|cancelled|open)'|sqrt\("#

    /// Where SQL still holds a rule, and why.
    static let allowed: [String: String] = [
        "view episodes": "shows an open episode whose retry window has ended by the latest notification as expired",
        "view daily_recovery": "the day buckets of the retry-day life table, for psql",
        "view recovery_by_cohort": "the Wilson interval of each cohort's recovery rate, for psql",
        "Sources/Repair/SubscriptionChecks.swift": "how many days a check is fresh (the repair's bookkeeping)",
    ]

    @Test func ruleTokensAppearOnlyWhereAllowed() throws {
        let tokens = try Regex(Self.ruleTokens)
        var found: [String: [String]] = [:]

        // The views of a freshly migrated schema, as the server holds them.
        let connection = try TestDatabase.makeSchema("rules").migrated()
        let views = try connection.execute(
            "SELECT viewname, definition FROM pg_views WHERE schemaname = current_schema() ORDER BY viewname")
        let (name, definition) = (try views.field("viewname"), try views.field("definition"))
        for row in views.rows {
            let text = try row.decode(String.self, definition)
            let matches = text.matches(of: tokens).map { String(text[$0.range]) }
            if !matches.isEmpty { found["view \(try row.decode(String.self, name))"] = matches }
        }
        #expect(found["view episodes"] != nil, "the view's rule is still found where it is")

        // The SQL in the code: the lines of every source file that talks to PostgreSQL.
        let sources = Repository.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            guard text.contains("import PGClient") || relative.hasPrefix("PGClient/") else { continue }
            let matches = text.matches(of: tokens).map { String(text[$0.range]) }
            if !matches.isEmpty { found["Sources/\(relative)"] = matches }
        }

        let unexpected = found.filter { Self.allowed[$0.key] == nil }
        #expect(unexpected.isEmpty, "rules written in SQL outside the allowed places: \(unexpected)")
        let gone = Set(Self.allowed.keys).subtracting(found.keys)
        #expect(gone.isEmpty, "no longer holding a rule, to take off the list: \(gone.sorted())")
    }
}
