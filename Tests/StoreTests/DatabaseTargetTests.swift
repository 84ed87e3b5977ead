import EmbeddedPostgres
import Foundation
import Logging
import PGClient
import TestSupport
import Testing

/// Which server a run uses, for every combination of flag and environment that decides it.
@Suite struct DatabaseTargetTests {
    /// A ``DatabaseTarget`` as a comparable value.
    enum Chosen: Equatable {
        case url(String)
        case libpqEnvironment
        case embedded(home: String)

        init(_ target: DatabaseTarget) {
            switch target {
            case .url(let url): self = .url(url)
            case .libpqEnvironment: self = .libpqEnvironment
            case .embedded(let cluster): self = .embedded(home: cluster.home.path)
            }
        }
    }

    static let libpqVariables = ["PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE"]

    /// Each of `--database-url`, `DATABASE_URL`, the four `PG*` variables that name a server and `CHURN_HOME` is
    /// absent, empty or set: all 3^7 combinations. An empty value counts as absent.
    @Test func theFirstNonEmptySourceInOrderWinsInEveryCombination() {
        let names = ["DATABASE_URL"] + Self.libpqVariables + ["CHURN_HOME"]
        let defaultHome = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".churn").standardizedFileURL.path
        var combinations = 0
        for code in 0..<2187 {
            // Digit 0 of `code` in base 3 is the flag, digits 1… the variables: 0 absent, 1 empty, 2 set.
            let digits = (0..<7).map { digit in (0..<digit).reduce(code) { rest, _ in rest / 3 } % 3 }
            func state(_ digit: Int) -> Int { digits[digit] }
            let flag: String? = [nil, "", "postgresql:///from-flag"][state(0)]
            var environment: [String: String] = ["PATH": "/usr/bin", "PGUSER": "someone", "PGPORT": "5433"]
            for (index, name) in names.enumerated() where state(index + 1) > 0 {
                environment[name] = state(index + 1) == 1 ? "" : "/from/\(name)"
            }
            let expected: Chosen
            if state(0) == 2 {
                expected = .url("postgresql:///from-flag")
            } else if state(1) == 2 {
                expected = .url("/from/DATABASE_URL")
            } else if (2...5).contains(where: { state($0) == 2 }) {
                expected = .libpqEnvironment
            } else {
                expected = .embedded(home: state(6) == 2 ? "/from/CHURN_HOME" : defaultHome)
            }
            let chosen = Chosen(DatabaseTarget.resolve(explicitURL: flag, environment: environment))
            #expect(chosen == expected, "flag \(flag ?? "absent"), environment \(environment)")
            combinations += 1
        }
        #expect(combinations == 2187)
    }

    /// `PGUSER`, `PGPORT` and the like only adjust a connection: without a server named, the embedded cluster is used.
    @Test func libpqVariablesThatNameNoServerLeaveTheEmbeddedCluster() {
        let environment = [
            "PGUSER": "u", "PGPORT": "5433", "PGPASSWORD": "p", "PGOPTIONS": "-c x=y", "CHURN_HOME": "/h",
        ]
        #expect(Chosen(DatabaseTarget.resolve(explicitURL: nil, environment: environment)) == .embedded(home: "/h"))
    }

    @Test func theSummaryNeverShowsTheURL() {
        let secret = "postgresql://churn:s3cret@db.example/churn"
        #expect(!DatabaseTarget.url(secret).summary.contains("s3cret"))
        #expect(
            !DatabaseTarget.resolve(explicitURL: nil, environment: ["DATABASE_URL": secret]).summary.contains("s3cret"))
    }

    @Test func aConnectionAsksTheServerToEndItsSessionWhenTheClientDies() throws {
        let schema = try TestDatabase.makeSchema("liveness")
        let connection = try DatabaseTarget.url(schema.url).connect(logger: .test)
        #expect(try connection.execute("SHOW client_connection_check_interval").scalar == "10s")
        // Without the target, a plain connection keeps the server's default.
        #expect(try schema.connect().execute("SHOW client_connection_check_interval").scalar == "0")
    }
}
