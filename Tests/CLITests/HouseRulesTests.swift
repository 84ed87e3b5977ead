import Foundation
import TestSupport
import Testing
import churn

/// Rules of the house's shape that no compiler checks: each is stated once, here, and fails on the first file that
/// breaks it.
@Suite struct HouseRulesTests {
    static let repository = PortabilityTests.repository

    /// The module a line imports (`import X`, `@testable import X`, `package import X`), or nil.
    static func importedModule(_ line: Substring) -> String? {
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
            words[..<index].allSatisfy({ $0.hasPrefix("@") || ["package", "internal", "public"].contains($0) })
        else { return nil }
        return String(words[index + 1])
    }

    /// Swift Argument Parser belongs to the command-line target: the modules below it take typed options, so that
    /// another front end (a test, a service) can call them without a command line.
    @Test func argumentParserIsImportedByTheCommandLineTargetAlone() throws {
        var importers: [String] = []
        for (path, lines) in try PortabilityTests.swiftFiles() where path.hasPrefix("Sources/") {
            if lines.contains(where: { Self.importedModule($0) == "ArgumentParser" }) { importers.append(path) }
        }
        #expect(importers.count > 10, "the command-line target imports it")
        let outside = importers.filter { !$0.hasPrefix("Sources/churn/") }
        #expect(outside.isEmpty, "ArgumentParser imported outside Sources/churn: \(outside)")

        // And the package gives it to that target only.
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let uses = manifest.components(separatedBy: #".product(name: "ArgumentParser""#).count - 1
        #expect(uses == 1, "Package.swift names the ArgumentParser product \(uses) times")
    }

    /// `make test` runs the test targets that cannot reach a database on the plain layout only
    /// (`database_free_targets` in scripts/test.sh): the schema's layout cannot change what they do. A target is
    /// on that list only while none of its files imports a module that reaches a database (PGClient, the command-line
    /// target, or any module of Sources/ or Tests/ that imports one of those, however indirectly) or starts a process.
    @Test func theTargetsThePartitionedRunLeavesOutCannotReachADatabase() throws {
        let script = try String(
            contentsOf: Self.repository.appendingPathComponent("scripts/test.sh"), encoding: .utf8)
        let declaration = "database_free_targets=("
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix(declaration) })
        let listed = line.dropFirst(declaration.count).prefix { $0 != ")" }.split(separator: " ").map(String.init)
        #expect(listed.count >= 5, "\(listed)")

        var imports: [String: Set<String>] = [:]
        var startsAProcess: Set<String> = []
        for (path, lines) in try PortabilityTests.swiftFiles() {
            let parts = path.split(separator: "/")
            guard parts.count >= 3 else { continue }
            let module = String(parts[1])
            for line in lines {
                if let imported = Self.importedModule(line) { imports[module, default: []].insert(imported) }
                if line.contains("Process()") { startsAProcess.insert(module) }
            }
        }
        var reaching: Set<String> = ["PGClient", "churn"]
        var grown = true
        while grown {
            let before = reaching.count
            for (module, imported) in imports where !imported.isDisjoint(with: reaching) { reaching.insert(module) }
            grown = reaching.count > before
        }
        // The rule sees through the test support, which starts the test cluster.
        #expect(reaching.isSuperset(of: ["TestSupport", "Workflows", "Store", "EmbeddedPostgres"]))
        for target in listed {
            #expect(imports[target] != nil, "\(target) in scripts/test.sh is not a folder of Tests/ with Swift files")
            let reached = imports[target, default: []].intersection(reaching)
            #expect(reached.isEmpty, "\(target) imports \(reached.sorted()), which reach a database")
            #expect(!startsAProcess.contains(target), "\(target) starts a process")
        }
    }

    /// Parameters are bound by ``PGQuery`` (or a list) with their types, arrays as ``PGArray``, so SQL casts none:
    /// no source file writes `$n::type`.
    @Test func noParameterIsCastInSQL() throws {
        let cast = try Regex(#"\$[0-9]+::"#)
        let casts = try PortabilityTests.swiftFiles().filter { $0.0.hasPrefix("Sources/") }.flatMap { path, lines in
            lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///") && $0.contains(cast) }
                .map { "\(path): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(casts.isEmpty, "a parameter cast in SQL, where its Swift type decides: \(casts)")
    }

    /// A result's values are read by the column's name (``PGRows/field(_:)``, ``PGSelection``), never by counting
    /// columns: outside PGClient no code that sees PostgreSQL's rows indexes a row, takes its first value, or reads a
    /// field by a number. (A field can only be made by name: `PGField`'s initializer is PGClient's own.)
    @Test func noCodeOutsidePGClientReadsAColumnByItsPosition() throws {
        let positional = try Regex(
            #"\b(?:row|\$0|values|fields)\[[0-9]+\]|\b(?:row|\$0)\.(?:first|last)\b|rows\.first\?\.(?:first|map)\b|"#
                + #"\.first\.flatMap \{ \$0 \}|\.(?:text|int64|isNull)\([0-9]+\)|decode\([^,]+, \w+\[[0-9]+\]\)"#)
        var readers = 0
        var found: [String] = []
        for (path, lines) in try PortabilityTests.swiftFiles()
        where path.hasPrefix("Sources/") && !path.hasPrefix("Sources/PGClient/") {
            guard lines.contains(where: { $0 == "import PGClient" }) else { continue }
            readers += 1
            for (number, line) in lines.enumerated() where line.contains(positional) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(readers > 10, "the modules that read the database import PGClient")
        #expect(found.isEmpty, "columns read by position:\n\(found.joined(separator: "\n"))")
    }

    /// The nightly guide's table of exit codes lists the codes `ExitStatus` has, in its order, each row beginning with
    /// the meaning `churn --help` prints.
    @Test func theGuidesExitCodesAreExitStatusAndAgreeWithHelp() throws {
        let guide = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/NIGHTLY.md"), encoding: .utf8)
        let section = try #require(guide.components(separatedBy: "\n## Exit codes\n").dropFirst().first)
        let rows = section.split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { line in
            line.hasPrefix("| ") && line.dropFirst(2).first?.isNumber == true
        }
        let table = rows.map { row -> (code: Int32, meaning: String) in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return (Int32(cells[1]) ?? -1, cells[2].replacingOccurrences(of: "`", with: ""))
        }
        #expect(table.map(\.code) == ExitStatus.allCases.map(\.rawValue))
        for (row, status) in zip(table, ExitStatus.allCases) {
            #expect(
                row.meaning.hasPrefix(status.meaning), "exit \(status.rawValue): docs/NIGHTLY.md has “\(row.meaning)”")
        }
        // The help wraps its lines: compared with every run of spaces and line breaks as one space.
        let help = ExitStatus.table.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in ExitStatus.allCases {
            #expect(help.contains(status.meaning), "churn --help lacks exit \(status.rawValue)")
        }
    }

    /// A command's help names its exit codes only through ``ExitStatus/paragraph(_:)``: a paragraph written by hand
    /// goes stale when a code is added (the nightly's once lacked 78). The nightly, the command cron runs, lists every
    /// code but `churn db status`'s own.
    @Test func eachCommandsExitCodesComeFromExitStatus() throws {
        // Every command's help, found through the SUBCOMMANDS list of each help page.
        func helps(_ path: [String]) throws -> [(path: [String], text: String)] {
            let help = try ChurnCommand.run(path + ["--help"])
            #expect(help.status == 0, "churn \(path.joined(separator: " ")) --help")
            let listed = help.stdout.components(separatedBy: "SUBCOMMANDS:").dropFirst().first ?? ""
            let names = listed.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix {
                !$0.isEmpty
            }.compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
                return line.split(separator: " ").first.map(String.init)
            }.filter { $0 != "help" }
            return [(path, help.stdout)] + (try names.flatMap { try helps(path + [$0]) })
        }
        var paragraphs: [String: String] = [:]
        for (path, text) in try helps([]).dropFirst() {
            guard let start = text.range(of: "Exit codes:") else { continue }
            let paragraph = text[start.lowerBound...].components(separatedBy: "\n\n")[0]
            let codes = paragraph.matches(of: try Regex(#"(?:codes:|,)\s+([0-9]+) "#)).compactMap {
                $0.output[1].substring.flatMap { Int32($0) }
            }
            let statuses = codes.compactMap(ExitStatus.init(rawValue:))
            let name = path.joined(separator: " ")
            #expect(statuses.count == codes.count, "churn \(name): codes \(codes)")
            #expect(
                paragraph == ExitStatus.paragraph(statuses),
                "churn \(name) writes its exit codes by hand:\n\(paragraph)")
            paragraphs[name] = paragraph
        }
        #expect(paragraphs.count >= 3, "\(paragraphs.keys.sorted())")
        let expected = ExitStatus.allCases.filter { $0 != .clusterStopped && $0 != .clusterNotCreated }
        #expect(paragraphs["nightly"] == ExitStatus.paragraph(expected))
    }

    /// Every exit code the documentation names ("exit 64", "exits with 75", "status 3") is one `churn` has.
    @Test func theDocumentationNamesNoOtherExitCode() throws {
        let known = Set(ExitStatus.allCases.map(\.rawValue))
        let pattern = try Regex(#"\b(?:exit|exits|exited|exit code|status)(?: with)? ([0-9]+)\b"#)
        var files = ["README.md"]
        let docs = Self.repository.appendingPathComponent("docs")
        files += try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.map {
            "docs/\($0)"
        }
        var named = 0
        for file in files {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: pattern) {
                let code = match.output[1].substring.flatMap { Int32($0) } ?? -1
                named += 1
                #expect(known.contains(code), "\(file) names exit code \(code), which churn does not have")
            }
        }
        #expect(named > 5)
    }
}
