import Foundation
import PGClient
import TestSupport
import Testing

/// `churn db url` names the database the other commands use; `db start`, `stop` and `status` manage only the
/// embedded cluster and say so.
@Suite struct DatabaseURLTests {
    /// A `CHURN_HOME` of its own, where no cluster exists.
    static func emptyHome() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("db-url-\(UUID().uuidString)").path
    }

    @Test func urlPrintsDatabaseURLOrTheOptionExactlyAsGiven() throws {
        let url = "postgresql://app:s3cret@db.example.com:5432/churn?sslmode=require"
        let fromVariable = try ChurnCommand.run(["db", "url"], environment: ["DATABASE_URL": url])
        #expect(fromVariable.status == 0)
        #expect(fromVariable.stdout == url + "\n")
        let fromOption = try ChurnCommand.run(
            ["db", "url", "--database-url", "host=/run/pg dbname=other"], environment: ["DATABASE_URL": url])
        #expect(fromOption.status == 0)
        #expect(fromOption.stdout == "host=/run/pg dbname=other\n")
    }

    @Test func urlOfThePGVariablesConnectsToTheirDatabaseAndLeavesThePasswordOut() throws {
        // Where the test server is, as PG* variables.
        let server = try PGConnection(url: try TestDatabase.baseURL())
        let row = try #require(
            try server.execute(
                """
                SELECT coalesce(host(inet_server_addr()), split_part(current_setting('unix_socket_directories'), ',', 1)),
                       current_setting('port'), current_database(), current_user
                """
            ).rows.first)
        let (host, port, database, user) = (row[0] ?? "", row[1] ?? "", row[2] ?? "", row[3] ?? "")
        let result = try ChurnCommand.run(
            ["db", "url"],
            environment: [
                "PGHOST": host, "PGPORT": port, "PGDATABASE": database, "PGUSER": user,
                "PGPASSWORD": "never-printed", "CHURN_HOME": Self.emptyHome(),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let conninfo = result.stdout.trimmingCharacters(in: .newlines)
        #expect(conninfo.contains("dbname=\(database)"))
        #expect(conninfo.contains("host=\(host)"))
        #expect(!conninfo.contains("never-printed"))
        #expect(!conninfo.contains("CHURN_HOME") && !conninfo.contains("db-url-"))
        // psql "$(churn db url)" would open the database the other commands use.
        let connection = try PGConnection(url: conninfo)
        #expect(try connection.execute("SELECT current_database()").scalar == database)
    }

    @Test func urlOfTheEmbeddedClusterNamesItsSocket() throws {
        let home = Self.emptyHome()
        let result = try ChurnCommand.run(["db", "url"], environment: ["CHURN_HOME": home])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("postgresql:///churn?host="))
        #expect(result.stdout.removingPercentEncoding?.contains(home + "/run") == true, "\(result.stdout)")
    }

    @Test(arguments: ["start", "stop", "status"])
    func clusterCommandsRefuseADatabaseURL(subcommand: String) throws {
        let home = Self.emptyHome()
        let result = try ChurnCommand.run(
            ["db", subcommand, "--database-url", "postgresql://app@db.example.com/churn"],
            environment: ["CHURN_HOME": home])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                "churn db \(subcommand) manages only the embedded cluster in \(home), not the server --database-url "
                    + "names."),
            "\(result.stderr)")
        #expect(result.stderr.contains("`churn db url` prints the database the other commands use."))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home))
    }

    @Test func statusSaysWhenDatabaseURLPointsElsewhere() throws {
        let home = Self.emptyHome()
        let result = try ChurnCommand.run(
            ["db", "status"],
            environment: ["CHURN_HOME": home, "DATABASE_URL": "postgresql://app@db.example.com/churn"])
        #expect(result.status == 4)
        #expect(result.stdout.contains("not created yet (\(home))"))
        #expect(
            result.stderr.contains(
                "the other commands use the server in --database-url/DATABASE_URL, not this cluster"),
            "\(result.stderr)")
    }
}
