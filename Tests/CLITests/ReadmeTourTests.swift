import Foundation
import TestSupport
import Testing

/// Every command of README.md and of the guides it leads to (``documents``), run in their order against a fresh
/// database, and every output they show compared with what the command prints: the guides continue the README's
/// tour, in its directory, on its data.
///
/// What runs, in the order of the file:
/// - each line of a ```` ```sh ```` block (a line ending in `\` joined with the next; blank and comment lines left
///   out), through `/bin/sh -c`;
/// - the command of each output block, a ```` ``` ```` block without a language whose lines start with `$ churn …`
///   or `$ psql …` (a block may hold several, each followed by its output);
/// - each statement of a ```` ```sql ```` block, through `psql`.
///
/// Every line runs in one scratch directory, which stands for the tour's `tour/` directory, with `DATABASE_URL`
/// naming a schema of its own in the test server: `churn` and `$churn` are the binary under test, and
/// `"$(churn db url)"` is that schema's URL.
///
/// What does not run is decided by the rules of ``skipped``, each with its reason, never by a failure. (The cron
/// line is in a ```` ```cron ```` block and the Docker commands are in the prose: neither is a command block.)
///
/// What must hold: each command exits 0. The lines of an output block are the command's standard output (trailing
/// spaces aside), exactly, except the figures that measure the machine, which are compared by shape (``timings``):
/// the export is simulated from a seed, so everything else is the same on every run. A `churn query` counts some
/// episode, so no example names a product or a date the tour's data lacks (and answers zeros). Every SQL that
/// counts the rows of a table or view holding several environments names an environment.
@Suite struct ReadmeTourTests {
    /// The README, then each guide in the order its commands run (paths from the repository's root).
    static let documents = [
        "README.md", "docs/NIGHTLY.md", "docs/REPORT.md", "docs/APPLE.md", "docs/QUESTIONS.md", "docs/DEVELOPMENT.md",
    ]

    /// Lines of the README's command blocks that the test does not run, and why.
    static let skipped: [(prefix: String, reason: String)] = [
        ("make ", "builds, runs the demo or the whole suite: minutes, and this test is part of that suite"),
        ("churn db start", "starts the embedded cluster: the test has its own server, named by DATABASE_URL"),
        ("churn db status", "asks about the embedded cluster: the test has its own server, named by DATABASE_URL"),
        ("export PATH=", "puts the reader's release build on PATH: the test runs the binary it built"),
        ("mkdir -p tour && cd tour", "makes the tour's directory: the test's scratch directory is that directory"),
        (
            "churn fetch",
            "reaches the App Store Server API with a team's key: FetchTests runs it against a mock of the API"
        ),
        (
            "churn gaps",
            "compares with the App Store Server API's history: FetchTests runs it against a mock of the API"
        ),
        (
            "churn repair",
            "asks the App Store Server API about the team's subscriptions: RepairTests runs it against a mock of the API"
        ),
        (
            "churn nightly /srv/exports",
            "loads the directory a fetch from Apple filled: FetchTests runs the fetch and load"
        ),
    ]

    /// The figures that measure the machine rather than the data: a duration, a rate and the simulator's worker
    /// count (one per core). Each is replaced by `#` in the shown and the printed line before they are compared.
    static var timings: [Regex<Substring>] {
        [
            /[0-9][0-9,]*(?:\.[0-9]+)? s\b/,
            /[0-9][0-9,]*(?:\.[0-9]+)?\/s/,
            /[0-9][0-9,]*(?:\.[0-9]+)? notifications\/s/,
            /on [0-9]+ worker/,
        ]
    }

    /// The tables and views whose rows belong to an environment.
    static let environmentTables = [
        "notifications", "billing_episodes", "episodes", "recovery_by_cohort", "daily_recovery",
    ]

    /// One thing the README or a guide asks to run.
    struct Step {
        /// The document (``documents``) and its line number.
        var file = "README.md"
        var line: Int
        /// The command as the README writes it.
        var command: String
        /// The output the README shows for it; nil when it shows none.
        var output: [String]?
        /// SQL of a ```` ```sql ```` block, run through psql.
        var isSQL = false
    }

    @Test func everyCommandOfTheReadmeRunsAndPrintsWhatItShows() throws {
        var steps: [Step] = []
        for document in Self.documents {
            let text = try String(contentsOf: Repository.root.appendingPathComponent(document), encoding: .utf8)
            steps += try Self.steps(text, file: document)
        }
        let schema = try TestDatabase.makeSchema("readme")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var ran = 0
        var skippedLines: [String] = []
        for step in steps {
            if !step.isSQL, let rule = Self.skipped.first(where: { step.command.hasPrefix($0.prefix) }) {
                skippedLines.append("\(step.file):\(step.line): \(step.command) (\(rule.reason))")
                continue
            }
            let location = "\(step.file):\(step.line): \(step.command)"
            let command =
                step.isSQL
                ? "psql \(Self.quoted(schema.url)) -v ON_ERROR_STOP=1 -c \(Self.quoted(step.command))"
                : Self.substituted(step.command, url: schema.url)
            let result = try Self.shell(command, in: scratch, url: schema.url)
            ran += 1
            #expect(result.status == 0, "\(location)\n\(result.stderr)")
            if let output = step.output {
                let printed = Self.lines(result.stdout).map(Self.shape)
                let shown = output.map(Self.shape)
                #expect(printed == shown, "\(location)\n\(Self.difference(printed, shown))")
            }
            // The sample of Apple's report file is dated inside the tour's data, so that something is compared.
            if step.command.hasPrefix("churn compare-apple") {
                #expect(
                    !(result.stdout + result.stderr).contains("nothing compared"),
                    "\(location): nothing compared\n\(result.stderr)")
            }
            if step.command.hasPrefix("churn query") {
                let answer = try Self.answer(of: step.command, stdout: result.stdout, in: scratch)
                #expect(try Self.countsEpisodes(answer), "\(location): no episode in the answer\n\(answer)")
            }
            for table in Self.environmentTables where Self.counts(table, in: step.command) {
                #expect(step.command.contains("environment"), "\(location): \(table) without an environment")
            }
        }
        // The tour loads, reports and queries: most of the README ran, and the skips are the rules' lines.
        #expect(ran >= 30, "\(ran) commands ran")
        #expect(steps.contains { $0.command.hasPrefix("churn simulate") && $0.output != nil })
        #expect(steps.filter(\.isSQL).count == 7)
        for rule in Self.skipped {
            #expect(
                skippedLines.contains { $0.contains(": \(rule.prefix)") },
                "no line for the rule \(rule.prefix): \(skippedLines.joined(separator: "\n"))")
        }
    }

    /// What a document (the README or a guide, named `file`) asks to run, in its order.
    static func steps(_ text: String, file: String = "README.md") throws -> [Step] {
        var steps: [Step] = []
        var language: String?
        var block: [(number: Int, text: String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("```") else {
                if language != nil { block.append((index + 1, String(line))) }
                continue
            }
            guard let open = language else {
                language = String(line.dropFirst(3))
                block = []
                continue
            }
            language = nil
            switch open {
            case "sh": steps += shellSteps(block)
            case "sql": steps += sqlSteps(block)
            case "": steps += try outputSteps(block, file: file)
            default: continue
            }
        }
        return steps.map { step in
            var step = step
            step.file = file
            return step
        }
    }

    /// The commands of a ```` ```sh ```` block: continuations joined, blank and comment lines left out.
    private static func shellSteps(_ block: [(number: Int, text: String)]) -> [Step] {
        var steps: [Step] = []
        var pending: (number: Int, text: String)?
        for (number, text) in block {
            let joined = (pending.map { $0.text + " " } ?? "") + text.trimmingCharacters(in: .whitespaces)
            let first = pending?.number ?? number
            if joined.hasSuffix("\\") {
                pending = (first, String(joined.dropLast()).trimmingCharacters(in: .whitespaces))
                continue
            }
            pending = nil
            if joined.isEmpty || joined.hasPrefix("#") { continue }
            steps.append(Step(line: first, command: joined))
        }
        return steps
    }

    /// The statements of a ```` ```sql ```` block, each ending with `;`.
    private static func sqlSteps(_ block: [(number: Int, text: String)]) -> [Step] {
        var steps: [Step] = []
        var statement: [String] = []
        var first = 0
        for (number, text) in block {
            if statement.isEmpty {
                if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                first = number
            }
            statement.append(text)
            if text.hasSuffix(";") {
                steps.append(Step(line: first, command: statement.joined(separator: "\n"), isSQL: true))
                statement = []
            }
        }
        return steps
    }

    /// The commands of an output block and what each prints. A block without a language must show commands: one
    /// that shows anything else would be output nobody checks.
    private static func outputSteps(_ block: [(number: Int, text: String)], file: String) throws -> [Step] {
        guard let first = block.first, first.text.hasPrefix("$ churn ") || first.text.hasPrefix("$ psql ") else {
            throw ReadmeError(
                message: "\(file):\((block.first?.number ?? 1) - 1): a ``` block without a language must start with "
                    + "`$ churn …` or `$ psql …` (or name its language, such as ```text)")
        }
        var steps: [Step] = []
        for (number, text) in block {
            if text.hasPrefix("$ ") {
                steps.append(Step(line: number, command: String(text.dropFirst(2)), output: []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output?.append(text)
            }
        }
        return steps
    }

    /// The command with the schema's URL for `"$(churn db url)"`, and the binary under test for `$churn` and for
    /// `churn` at the start.
    static func substituted(_ command: String, url: String) -> String {
        let binary = quoted(ChurnCommand.executable.path)
        var command = command.replacing(/"\$\(\$?churn db url\)"/, with: quoted(url))
            .replacing(/\$churn\b/, with: binary)
        if command.hasPrefix("churn ") { command = binary + command.dropFirst("churn".count) }
        return command
    }

    /// `text` as one word of /bin/sh.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `command` with /bin/sh in `directory`, with DATABASE_URL naming the test's schema and nothing else naming
    /// a database or reaching the developer's own (the embedded cluster's home and psql's startup file included).
    static func shell(_ command: String, in directory: URL, url: String) throws -> Run {
        let stdout = directory.appendingPathComponent(".stdout")
        let stderr = directory.appendingPathComponent(".stderr")
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec > \(quoted(stdout.path)) 2> \(quoted(stderr.path)) < /dev/null\n" + command]
        process.currentDirectoryURL = directory
        process.environment = ChurnCommand.variables(adding: [
            "DATABASE_URL": url, "CHURN_HOME": directory.appendingPathComponent(".churn").path,
            "PSQLRC": "/dev/null", "PAGER": "cat", "COLUMNS": "80",
        ])
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationReason == .uncaughtSignal
                ? -process.terminationStatus : process.terminationStatus,
            stdout: (try? String(contentsOf: stdout, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        )
    }

    /// What a line did: its exit status (the signal's number negated when one ended it) and output.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The lines of `text` without trailing spaces, and without the empty lines at its end.
    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A line with each figure of ``timings`` as `#`, and no trailing spaces.
    static func shape(_ line: String) -> String {
        var line = String(line.reversed().drop { $0 == " " }.reversed())
        for timing in timings {
            line = line.replacing(timing) { match in
                String(match.output).replacing(/[0-9][0-9,]*(\.[0-9]+)?/, with: "#")
            }
        }
        return line
    }

    /// What a query answered: its standard output, or the file it was redirected to.
    static func answer(of command: String, stdout: String, in directory: URL) throws -> String {
        guard let redirect = command.firstMatch(of: /> *(\S+)\s*(#.*)?$/) else { return stdout }
        return try String(contentsOf: directory.appendingPathComponent(String(redirect.output.1)), encoding: .utf8)
    }

    /// The columns that count episodes, one or more in every question's answer.
    static let episodeCounts: Set<String> = [
        "episodes", "at_risk", "grace_episodes", "saved_episodes", "episodes_entering", "recovered_episodes",
        "expired_episodes", "open_episodes", "entered", "mature_episodes", "expired",
    ]

    /// Whether an answer (aligned table, CSV, Markdown or JSON) counts some episode: a count column holds a number
    /// above zero, or it lists episodes. (Days, bands and cohorts are numbers too, whether episodes count or not.)
    static func countsEpisodes(_ answer: String) throws -> Bool {
        // `churn query customer`: its first line counts the customer's episodes, or its JSON lists them.
        if answer.hasPrefix("Customer ") {
            return !answer.prefix { $0 != "\n" }.hasSuffix(" 0 episode(s)")
        }
        if answer.hasPrefix("{\"customer_id\"") { return !answer.contains("\"episodes\": []") }
        var rows: [[String: String]] = []
        if answer.hasPrefix("[") {
            rows = try JSONValue.objects(answer).map { object in
                object.compactMapValues { value in
                    if case .number(let number) = value { return String(number) }
                    if case .string(let text) = value { return text }
                    return nil
                }
            }
        } else {
            let lines = answer.split(separator: "\n").map(String.init)
            let split: (String) -> [String]
            var body = Array(lines.dropFirst())
            if answer.hasPrefix("|") {
                split = { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
                body = Array(body.dropFirst())
            } else if lines.first?.contains(",") == true {
                split = { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            } else {
                // Aligned text: the rule of dashes under the header marks each column's span.
                let spans = columnSpans(lines.dropFirst().first ?? "")
                split = { line in
                    let characters = Array(line)
                    return spans.map { span in
                        let clamped = min(span.lowerBound, characters.count)..<min(span.upperBound, characters.count)
                        return String(characters[clamped]).trimmingCharacters(in: .whitespaces)
                    }
                }
                body = Array(body.dropFirst())
            }
            let header = lines.first.map(split) ?? []
            rows = body.map { Dictionary(zip(header, split($0)), uniquingKeysWith: { first, _ in first }) }
        }
        return rows.contains { row in
            row["original_transaction_id"] != nil
                || episodeCounts.contains { column in row[column].flatMap(Double.init).map { $0 > 0 } ?? false }
        }
    }

    /// The character ranges of the runs of dashes in an aligned table's rule.
    static func columnSpans(_ rule: String) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var start: Int?
        for (index, character) in Array(rule + " ").enumerated() {
            if character == "-" {
                start = start ?? index
            } else if let first = start {
                spans.append(first..<index)
                start = nil
            }
        }
        return spans
    }

    /// Whether `sql` reads `table` (`FROM table`, whatever the case and spacing).
    static func counts(_ table: String, in sql: String) -> Bool {
        let words = sql.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "\"" || $0 == ";" })
        return zip(words, words.dropFirst()).contains { $0 == "from" && $1 == table }
    }

    /// The lines where two outputs part, for the failure message.
    static func difference(_ printed: [String], _ shown: [String]) -> String {
        for index in 0..<max(printed.count, shown.count) {
            let left = index < printed.count ? printed[index] : "(nothing)"
            let right = index < shown.count ? shown[index] : "(nothing)"
            if left != right { return "line \(index + 1):\n  printed: \(left)\n  shown:   \(right)" }
        }
        return ""
    }
}

/// A README that this test cannot read as commands and outputs.
struct ReadmeError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
