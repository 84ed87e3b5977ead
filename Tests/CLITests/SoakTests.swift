import AppStoreNotifications
import EmbeddedPostgres
import Foundation
import Gzip
import PGClient
import Store
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A month of nights (`make soak`; `SOAK_NIGHTS`, five nights in `make test`): a simulated app's notifications arrive
/// as one export file a day in a directory that `churn nightly --expect-new` reads each night, on an embedded cluster
/// of the test's own, while `churn query` runs throughout. The nights meet what a deployment meets: a file a night late,
/// a file cut mid-line that completes the next night, a wrong `--bundle-id` fixed the next night, a gzip file, a file
/// sent again under a new name, `churn fetch` and `churn repair` against the mock API, runs killed with `SIGKILL` at a
/// random point, and PostgreSQL restarted under a run. Each night's exit code is the one its files call for.
///
/// After the last night, the tables and a report equal those of one clean load of the same files (and the same
/// answers of Apple's, the repair's checks) followed by one report. Each night's time and peak memory are recorded
/// (`SOAK_FIGURES=FILE` writes them as a Markdown table); from ten nights on, neither may grow faster than the stored
/// notifications do.
@Suite(.serialized) struct SoakTests {
    static let bundleID = "com.example.app"
    /// The simulated subscribers: `SOAK_SUBSCRIBERS`, else 300.
    static var subscribers: Int {
        max(100, Int(ProcessInfo.processInfo.environment["SOAK_SUBSCRIBERS"] ?? "") ?? 300)
    }
    /// The seed of the simulation, the kills' nights and their moments: `SOAK_SEED`, else 11.
    static var seed: Int {
        Int(ProcessInfo.processInfo.environment["SOAK_SEED"] ?? "") ?? 11
    }

    /// The nights to run: `SOAK_NIGHTS`, else 5.
    static var nights: Int {
        max(5, Int(ProcessInfo.processInfo.environment["SOAK_NIGHTS"] ?? "") ?? 5)
    }

    /// One export line and what the soak needs to know of it.
    struct Line {
        var text: String
        var uuid: String
        var signedDate: Int64
        var type: String
        var isProduction: Bool
        var day: Int64 { signedDate / 86_400_000 }
    }

    /// What happens on one night.
    struct Night {
        var number: Int
        /// The day whose export this night's file is.
        var day: Int64
        /// Files put into the exports directory this night: a name and its bytes (a cut file stays cut).
        var files: [(name: String, bytes: [UInt8])] = []
        var wrongBundleID = false
        var fetchAndRepair = false
        var kill = false
        var restart = false
        var expected: Int32 = 0
        var incidents: [String] = []
    }

    /// What a night measured.
    struct Figures {
        var night: Int
        var incidents: String
        var seconds: Double
        var peakMB: Double
        var stored: Int
        var statuses: [Int32]
    }

    @Test func aMonthOfNightsEndsEqualToOneCleanLoad() async throws {
        let nights = Self.nights
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")
        let exports = root.appendingPathComponent("exports")
        let reports = root.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        let cluster = EmbeddedCluster(
            home: root.appendingPathComponent("cluster"), database: "soak", serverSettings: ["fsync": "off"])
        _ = try cluster.start(logger: .test)
        defer {
            _ = try? cluster.stop(immediate: true)
            try? FileManager.default.removeItem(at: root)
        }

        let simulation = root.appendingPathComponent("simulation")
        try FileManager.default.createDirectory(at: simulation, withIntermediateDirectories: true)
        let (lines, trustRoot) = try Self.threeMonths(subscribers: Self.subscribers, seed: Self.seed, in: simulation)
        let days = Array(Set(lines.map(\.day))).sorted()
        try #require(days.count > nights + 10, "the history has \(days.count) days")
        let nightDays = Array(days.suffix(nights))
        let byDay = Dictionary(grouping: lines, by: \.day)

        let plan = Self.plan(nights: nights, days: nightDays, byDay: byDay)
        let key = APIKeyFixture(bundleID: Self.bundleID)
        let keyFile = try key.writeKeyFile(in: root)
        let api: [String: String?] = [
            "CHURN_KEY_FILE": keyFile, "CHURN_KEY_ID": key.keyID, "CHURN_ISSUER_ID": key.issuerID,
            "CHURN_BUNDLE_ID": Self.bundleID, "CHURN_KEY": nil,
        ]
        let database = ["--database-url", cluster.url]
        func nightly(bundleID: String) -> [String] {
            [
                "nightly", "--expect-new", "--trust-root", trustRoot, "--bundle-id", bundleID, "--glob", "*.jsonl",
                "--glob", "*.jsonl.gz", "--reports-root", reports.path, exports.path,
            ] + database
        }

        // Night 0: the history before the soak, in one file.
        let backfill = lines.filter { $0.day < nightDays[0] }
        try Self.deliver("backfill.jsonl", Self.bytes(backfill), into: exports)
        let first = try MeasuredRun.churn(nightly(bundleID: Self.bundleID))
        try #require(first.result.status == 0, "\(first.result.stderr)")

        var figures: [Figures] = []
        var random = SeededRandom(seed: UInt64(Self.seed))
        var (pendingKills, pendingRestarts, killed, restarted) = (0, 0, 0, 0)
        var sooner = 1.0
        func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
        for night in plan {
            for file in night.files { try Self.deliver(file.name, file.bytes, into: exports) }
            if night.fetchAndRepair {
                let known = lines.filter { $0.day <= night.day }.map {
                    HistoryFixture.Notification(
                        uuid: $0.uuid, signedDate: $0.signedDate, type: $0.type, signedPayload: Self.token(of: $0.text))
                }
                try await MockAppStoreServer.with(key.mock(known, pageSize: 50)) { server in
                    let apiArguments = database + ["--base-url", server.baseURL]
                    let day = UTCDay.string(night.day)
                    let fetch = try ChurnCommand.run(
                        ["fetch", "--out", exports.path, "--from", day, "--to", day] + apiArguments, environment: api)
                    #expect(fetch.status == 0, "night \(night.number): fetch: \(fetch.stderr)")
                    let repair = try ChurnCommand.run(
                        ["repair", "--out", exports.path, "--trust-root", trustRoot, "--stale-days", "7"]
                            + apiArguments, environment: api)
                    #expect(repair.status == 0, "night \(night.number): repair: \(repair.stderr)")
                }
            }
            let queries = QueryLoop(arguments: ["query", "recovery-curve", "--format", "csv"] + database)
            let arguments = nightly(bundleID: night.wrongBundleID ? "com.example.wrong" : Self.bundleID)
            // A kill or a restart that found the run already ended is tried again the next night, until one lands.
            pendingKills += night.kill ? 1 : 0
            pendingRestarts += night.restart ? 1 : 0
            let typical = median(figures.filter { $0.statuses.count == 1 }.map(\.seconds)) ?? first.seconds
            // A kill or restart carried over from a night whose run ended first comes sooner each time it is tried.
            let delay = (0.05 + Double(random.below(1000)) / 1000 * 0.65) * typical * sooner
            var runs: [MeasuredRun] = []
            var incidents = night.incidents
            if pendingRestarts > 0 {
                let pause = delay * 0.3
                runs.append(try Self.restart(cluster, under: arguments, after: pause))
                // Caught at work, the run ends with "database unreachable" (69) and is run again; one that had ended
                // changed nothing, and the restart waits for the next night.
                let stopped = String(format: "%.2f", pause)
                if runs[0].result.status == 69 {
                    pendingRestarts -= 1
                    restarted += 1
                    incidents.append("PostgreSQL restarted \(stopped) s after the run took its lock")
                } else {
                    incidents.append("PostgreSQL restarted after the run ended")
                }
            } else if pendingKills > 0 {
                runs.append(try MeasuredRun.churn(arguments, killAfter: delay))
                if runs[0].wasKilled {
                    pendingKills -= 1
                    killed += 1
                    incidents.append("kill -9 after \(String(format: "%.2f", delay)) s")
                }
            }
            sooner = (pendingKills + pendingRestarts > 0 && !runs.isEmpty) ? sooner / 2 : 1
            if runs.isEmpty || runs[0].wasKilled || runs[0].result.status == 69 {
                runs.append(try MeasuredRun.churn(arguments))
            }
            let answers = queries.stop()
            let last = try #require(runs.last)
            #expect(
                last.result.status == night.expected,
                "night \(night.number) (\(night.incidents.joined(separator: ", "))): exit \(last.result.status), expected \(night.expected): \(last.result.stderr)"
            )
            // Queries answer throughout; only while the server restarts may one find it gone.
            let allowed: Set<Int32> = incidents.contains { $0.hasPrefix("PostgreSQL restarted") } ? [0, 69] : [0]
            #expect(
                answers.allSatisfy { allowed.contains($0.status) },
                "night \(night.number): query exits \(answers.map(\.status)): \(answers.first { !allowed.contains($0.status) }?.stderr ?? "")"
            )
            let stored = try PGConnection(url: cluster.url).execute("SELECT count(*) FROM notifications").scalar
            figures.append(
                Figures(
                    night: night.number, incidents: incidents.joined(separator: ", "), seconds: last.seconds,
                    peakMB: runs.map(\.peakMB).max() ?? 0, stored: Int(stored ?? "") ?? 0,
                    statuses: runs.map(\.result.status)))
        }

        #expect(pendingKills == 0 && pendingRestarts == 0, "kills and restarts that found no run under way")
        #expect(killed == plan.filter(\.kill).count && restarted == 1)

        // The same files loaded once into a new database, with the repair's checks (Apple's answers), then one report.
        let soakReport = root.appendingPathComponent("soak-report")
        let soak = try ChurnCommand.run(["report", "--out", soakReport.path] + database)
        #expect(soak.status == 0, "\(soak.stderr)")
        let admin = try PGConnection(url: cluster.url(database: "postgres"))
        try admin.execute("CREATE DATABASE reference")
        let referenceURL = cluster.url(database: "reference")
        let files = try FileManager.default.contentsOfDirectory(atPath: exports.path)
            .filter { !$0.hasPrefix(".") && ($0.hasSuffix(".jsonl") || $0.hasSuffix(".jsonl.gz")) }.sorted()
            .map { exports.appendingPathComponent($0).path }
        let load = try ChurnCommand.run(
            ["load", "--trust-root", trustRoot, "--bundle-id", Self.bundleID, "--database-url", referenceURL] + files)
        #expect(load.status == 0, "\(load.stderr)")
        try Self.copyChecks(from: cluster.url, to: referenceURL)
        let referenceReport = root.appendingPathComponent("reference-report")
        let reference = try ChurnCommand.run(["report", "--out", referenceReport.path, "--database-url", referenceURL])
        #expect(reference.status == 0, "\(reference.stderr)")

        let soakTables = try Self.tables(cluster.url)
        let referenceTables = try Self.tables(referenceURL)
        for (table, rows) in referenceTables {
            let ours = soakTables[table] ?? []
            let onlyOurs = ours.filter { !rows.contains($0) }
            let onlyTheirs = rows.filter { !ours.contains($0) }
            #expect(
                ours == rows,
                "\(table): the soak's rows differ from one clean load's: only the soak's \(onlyOurs.prefix(5)), only the clean load's \(onlyTheirs.prefix(5))"
            )
        }
        // Every notification signed by the last night's day is stored, once.
        let lastDay = nightDays.last ?? 0
        #expect(soakTables["notifications"]?.count == Set(lines.filter { $0.day <= lastDay }.map(\.uuid)).count)
        let names = try FileManager.default.contentsOfDirectory(atPath: referenceReport.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: soakReport.path).sorted() == names)
        for name in names {
            var ours = try Data(contentsOf: soakReport.appendingPathComponent(name))
            var theirs = try Data(contentsOf: referenceReport.appendingPathComponent(name))
            if name == "headline.json" {
                // Each database has its own identity, which the headline keeps to find its previous report.
                (ours, theirs) = (try Self.withoutDatabaseID(ours), try Self.withoutDatabaseID(theirs))
            }
            #expect(ours == theirs, "\(name) differs from the clean load's report")
        }

        try Self.record(figures, first: first, nights: nights)
        if nights >= 10 { try Self.checkGrowth(figures) }
    }

    /// Runs a nightly and restarts the server under it: once the run holds its lock (connected and at work), and
    /// `pause` seconds more.
    static func restart(_ cluster: EmbeddedCluster, under arguments: [String], after pause: Double) throws
        -> MeasuredRun
    {
        let run = BackgroundRun(arguments)
        let watcher = try PGConnection(url: cluster.url)
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.nightly, on: watcher)
        var holding = false
        for _ in 0..<10_000 where !holding {
            holding = try watcher.holder(of: lock) != nil
            if !holding { Thread.sleep(forTimeInterval: 0.002) }
        }
        Thread.sleep(forTimeInterval: pause)
        _ = try cluster.stop()
        _ = try cluster.start(logger: .test)
        return try run.wait()
    }

    // MARK: - The plan

    /// Which night meets what: the incidents at fixed fractions of the month, the kills at nights drawn from the seed.
    static func plan(nights: Int, days: [Int64], byDay: [Int64: [Line]]) -> [Night] {
        func at(_ fraction: Double) -> Int { min(nights, max(1, Int(Double(nights) * fraction))) }
        let gzip = at(0.2)
        let late = at(0.4)
        let cut = at(0.6)
        let wrong = at(0.8)
        let resent = nights
        let restart = at(0.7) == cut ? min(nights, cut + 1) : at(0.7)
        var random = SeededRandom(seed: UInt64(Self.seed) &+ 18)
        var kills = Set<Int>()
        let killCount = nights >= 30 ? 5 : max(1, nights / 3)
        while kills.count < killCount {
            // Not the last night, so that a kill that finds the run ended has a night to land on.
            let night = 1 + Int(random.next() % UInt64(nights - 1))
            if night != restart { kills.insert(night) }
        }
        var plan: [Night] = days.enumerated().map { Night(number: $0.offset + 1, day: $0.element) }
        func name(_ night: Int) -> String { "day-\(UTCDay.string(days[night - 1])).jsonl" }
        func bytes(_ night: Int) -> [UInt8] { Self.bytes(byDay[days[night - 1]] ?? []) }
        for number in 1...nights {
            var night = plan[number - 1]
            if number == gzip {
                night.files.append(
                    (name(number) + ".gz", (try? GzipMember.compress(bytes(number))) ?? []))
                night.incidents.append("gzip")
            } else if number == late {
                night.incidents.append("its file comes a night late")
            } else if number == cut {
                let whole = bytes(number)
                // Cut inside a line: a few bytes past the middle line's start.
                let middle = whole.count / 2
                let lineStart = (whole[..<middle].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
                night.files.append((name(number), Array(whole[..<min(whole.count - 2, lineStart + 40)])))
                night.incidents.append("its file is cut mid-line")
            } else {
                night.files.append((name(number), bytes(number)))
            }
            if number == late + 1 {
                night.files.append((name(late), bytes(late)))
                night.incidents.append("the late file")
            }
            if number == cut + 1 {
                night.files.append((name(cut), bytes(cut)))
                night.incidents.append("the cut file completed")
            }
            if number == resent, number > 1 {
                night.files.append(
                    (
                        name(number - 1).replacingOccurrences(of: ".jsonl", with: "-resent.jsonl"),
                        bytes(number - 1)
                    ))
                night.incidents.append("yesterday's file again, under a new name")
            }
            if number == wrong { night.wrongBundleID = true; night.incidents.append("a wrong --bundle-id") }
            if number == wrong + 1 { night.incidents.append("--bundle-id fixed") }
            if number % 3 == 1, number != late, number != cut {
                night.fetchAndRepair = true; night.incidents.append("fetch, repair")
            }
            if kills.contains(number) { night.kill = true }
            if number == restart { night.restart = true }
            plan[number - 1] = night
        }
        // The exit code each night calls for: 2 under the wrong bundle id (its files are refused), 0 when a file
        // complete this night (or refused before and loaded again) brings a Production notification not stored
        // before, else 5 (`--expect-new`).
        var stored = Set<String>()
        for (day, lines) in byDay where day < days[0] { stored.formUnion(lines.filter(\.isProduction).map(\.uuid)) }
        var refused = Set<String>()
        for index in plan.indices {
            var night = plan[index]
            let complete = night.files.filter { !($0.name == name(cut) && night.number == cut) }
            var arriving = Set(complete.flatMap { Self.lines(in: $0.bytes) }.filter(\.isProduction).map(\.uuid))
            if night.wrongBundleID {
                refused.formUnion(arriving.subtracting(stored))
                night.expected = 2
            } else {
                arriving.formUnion(refused)
                refused = []
                night.expected = arriving.isSubset(of: stored) ? 5 : 0
                stored.formUnion(arriving)
            }
            plan[index] = night
        }
        return plan
    }

    // MARK: - Lines and files

    /// Three months of a simulated app ending today, so that Apple's history (180 days) still holds them, simulated
    /// into `directory`: its lines in order, and the path of the root certificate that signed them.
    static func threeMonths(subscribers: Int, seed: Int, in directory: URL) throws -> (
        lines: [Line], trustRoot: String
    ) {
        let export = directory.appendingPathComponent("export.jsonl")
        let start = UTCDay.string(Int64(Date().timeIntervalSince1970 * 1000) / 86_400_000 - 92)
        let simulate = try ChurnCommand.run([
            "simulate", "--subscribers", String(subscribers), "--seed", String(seed), "--start", start,
            "--months", "3", "--out", export.path,
        ])
        try #require(simulate.status == 0, "\(simulate.stderr)")
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n").map {
            try Self.line(String($0))
        }
        return (lines, directory.appendingPathComponent("export.root.der").path)
    }

    /// The lines of an export file's bytes (gzip undone).
    static func lines(in bytes: [UInt8]) -> [Line] {
        let text = bytes.starts(with: [0x1f, 0x8b]) ? ((try? Gunzip.decompress(bytes)) ?? []) : bytes
        return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { try? line(String($0)) }
    }

    struct NotALine: Error {
        var text: String
    }

    static func bytes(_ lines: [Line]) -> [UInt8] {
        Array(lines.map { $0.text + "\n" }.joined().utf8)
    }

    /// The JWS of a `{"signedPayload":"…"}` line.
    static func token(of line: String) -> String {
        String(line.dropFirst("{\"signedPayload\":\"".count).dropLast(2))
    }

    static func line(_ text: String) throws -> Line {
        let token = Self.token(of: text)
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(parts[1].utf8),
            let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let uuid = object["notificationUUID"] as? String, let signed = object["signedDate"] as? NSNumber,
            let type = object["notificationType"] as? String
        else { throw NotALine(text: String(text.prefix(80))) }
        let data = object["data"] as? [String: Any]
        return Line(
            text: text, uuid: uuid, signedDate: signed.int64Value, type: type,
            isProduction: (data?["environment"] as? String) == "Production")
    }

    /// Writes a file as an exporter should: under a hidden name, then renamed. A cut file is written in place, as if
    /// still being written.
    static func deliver(_ name: String, _ bytes: [UInt8], into directory: URL) throws {
        let target = directory.appendingPathComponent(name)
        let hidden = directory.appendingPathComponent(".\(name).partial")
        try Data(bytes).write(to: hidden)
        guard rename(hidden.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    // MARK: - Comparing

    /// The rows a clean load must equal: each notification's content, each further copy, what still stands refused,
    /// the files' contents, the episodes and the per-subscription analysis. The runs' own records (`load_runs`, the
    /// counts of each file's load, which depend on the order files came in) are not compared.
    static func tables(_ url: String) throws -> [String: [[String?]]] {
        let connection = try PGConnection(url: url)
        let queries = [
            "notifications": """
            SELECT notification_uuid::text, notification_type, subtype, signed_date::text, original_transaction_id,
                   md5(payload::text), verified::text
            FROM notifications ORDER BY notification_uuid
            """,
            "copies": "SELECT notification_uuid::text, signed_date::text, count(*)::text FROM notification_copies "
                + "GROUP BY 1, 2 ORDER BY 1, 2",
            "quarantine":
                "SELECT reason, count(*)::text FROM quarantine WHERE resolved_by_run IS NULL GROUP BY 1 ORDER BY 1",
            "file contents": "SELECT DISTINCT sha256 FROM source_files WHERE sha256 <> '' ORDER BY 1",
            "episodes": "SELECT * FROM billing_episodes ORDER BY environment, original_transaction_id, sequence",
            "analysis": "SELECT * FROM subscription_analysis ORDER BY 1, 2",
            "renewals": "SELECT * FROM subscription_renewals ORDER BY 1, 2, 3",
            "renewal months": "SELECT * FROM renewal_months ORDER BY 1, 2",
            "customers": "SELECT * FROM subscription_customers ORDER BY 1, 2",
        ]
        var result: [String: [[String?]]] = [:]
        for (name, sql) in queries { result[name] = try connection.execute(sql).rows }
        return result
    }

    static func withoutDatabaseID(_ headline: Data) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: headline) as? [String: Any])
        #expect(object.removeValue(forKey: "database_id") != nil)
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Apple's answers to the soak's repairs, given to the reference as they were to the soak.
    static func copyChecks(from source: String, to target: String) throws {
        let from = try PGConnection(url: source)
        let to = try PGConnection(url: target)
        var rows: [[UInt8]] = []
        _ = try from.copyOut("COPY subscription_checks TO STDOUT") { rows.append(Array($0)) }
        _ = try to.copyIn("COPY subscription_checks FROM STDIN") { out in
            for row in rows { try out.write(row) }
        }
    }

    // MARK: - Figures

    static func record(_ figures: [Figures], first: MeasuredRun, nights: Int) throws {
        var table = """
            | night | what happened | exits | seconds | peak MB | notifications stored |
            |--:|---|---|--:|--:|--:|
            | 0 | the history before, one file | \(first.result.status) | \(String(format: "%.2f", first.seconds)) | \(String(format: "%.1f", first.peakMB)) | |

            """
        for night in figures {
            table +=
                "| \(night.night) | \(night.incidents) | \(night.statuses.map(String.init).joined(separator: ", ")) | "
                + "\(String(format: "%.2f", night.seconds)) | \(String(format: "%.1f", night.peakMB)) | \(night.stored) |\n"
        }
        print("soak of \(nights) nights:\n" + table)
        if let path = ProcessInfo.processInfo.environment["SOAK_FIGURES"], !path.isEmpty {
            try table.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// Neither a night's time nor its peak memory grows faster than the stored notifications: the last five plain
    /// nights (no kill, restart or fetch) against the first five.
    static func checkGrowth(_ figures: [Figures]) throws {
        let plain = figures.filter { $0.statuses.count == 1 && !$0.incidents.contains("fetch") }
        try #require(plain.count >= 10, "\(plain.count) plain nights")
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let early = Array(plain.prefix(5))
        let late = Array(plain.suffix(5))
        let growth = median(late.map { Double($0.stored) }) / median(early.map { Double($0.stored) })
        let time = median(late.map(\.seconds)) / median(early.map(\.seconds))
        let memory = median(late.map(\.peakMB)) / median(early.map(\.peakMB))
        #expect(time <= growth * 1.5, "time grew \(time) × while the data grew \(growth) ×")
        #expect(memory <= growth * 1.2, "peak memory grew \(memory) × while the data grew \(growth) ×")
    }
}

/// `churn query` run again and again on a thread of its own until stopped, each answer kept. (Not a task: its blocking
/// waits would hold a thread of the cooperative pool, which the test's own waiting needs.)
final class QueryLoop: Sendable {
    private let state = Mutex((stopped: false, answers: [ChurnCommand.Result]()))
    private let done = DispatchSemaphore(value: 0)

    init(arguments: [String]) {
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                if let answer = try? ChurnCommand.run(arguments) { state.withLock { $0.answers.append(answer) } }
            }
            done.signal()
        }
    }

    func stop() -> [ChurnCommand.Result] {
        state.withLock { $0.stopped = true }
        done.wait()
        return state.withLock { $0.answers }
    }
}

/// A nightly run on a thread of its own, for the test to restart the server under it meanwhile.
private final class BackgroundRun: Sendable {
    private struct NotEnded: Error {}
    private let outcome = Mutex<Result<MeasuredRun, any Error>>(.failure(NotEnded()))
    private let done = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) {
        Thread.detachNewThread { [self] in
            let result = Result { try MeasuredRun.churn(arguments) }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    func wait() throws -> MeasuredRun {
        done.wait()
        return try outcome.withLock { $0 }.get()
    }
}

/// A UTC day number as `YYYY-MM-DD`.
enum UTCDay {
    static func string(_ day: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(day) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
