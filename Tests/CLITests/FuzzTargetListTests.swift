import Foundation
import Testing

/// The fuzz targets are declared once, in `Fuzz/Package.swift` (`fuzzTarget("…")`); `make fuzz` (`scripts/fuzz.sh`)
/// runs the same ones, docs/RELIABILITY.md describes each, and each has seeds and a folder of its own.
@Suite struct FuzzTargetListTests {
    static let repository = PortabilityTests.repository

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The names of `fuzzTarget("…")` calls in the fuzz package's manifest.
    static func declared() throws -> Set<String> {
        let manifest = try text("Fuzz/Package.swift")
        return Set(
            try manifest.matches(of: Regex(#"fuzzTarget\(\s*"(\w+)""#)).compactMap { match in
                match.output[1].substring.map(String.init)
            })
    }

    @Test func theScriptTheDocumentAndTheFoldersNameTheDeclaredTargets() throws {
        let declared = try Self.declared()
        #expect(declared.count >= 7)

        let script = try Self.text("scripts/fuzz.sh")
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("all_targets=") })
        let run = Set(line.split(separator: "\"").dropFirst().first?.split(separator: " ").map(String.init) ?? [])
        #expect(run == declared, "scripts/fuzz.sh's all_targets")

        // The first column of the targets' table.
        let document = try Self.text("docs/RELIABILITY.md")
        let described = Set(
            try document.matches(of: Regex(#"(?m)^\| `(Fuzz\w+)` \|"#)).compactMap { match in
                match.output[1].substring.map(String.init)
            })
        #expect(described == declared, "docs/RELIABILITY.md's table of targets")

        let manager = FileManager.default
        let folders = Set(
            try manager.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("Fuzz/Targets").path)
                .filter { $0.hasPrefix("Fuzz") && $0 != "FuzzSupport" })
        #expect(folders == declared, "Fuzz/Targets/")
        for target in declared {
            let seeds = try manager.contentsOfDirectory(
                atPath: Self.repository.appendingPathComponent("Fuzz/Corpus/\(target)").path)
            #expect(!seeds.isEmpty, "seeds of \(target)")
        }
    }
}
