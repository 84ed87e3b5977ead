import Foundation
import Testing

/// The module list of docs/DEVELOPMENT.md ("Development") is the one place the modules are described: each target of
/// `Package.swift` under `Sources/` and `Tests/TestSupport` is there, with the package's own targets it depends on.
@Suite struct ModuleListTests {
    static let repository = PortabilityTests.repository

    /// Each target's name and the package targets it depends on, read from `Package.swift`'s declarations.
    static func targets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(
            #"\.(?:target|executableTarget|systemLibrary)\(\s*name: "(\w+)",\s*(?:dependencies: \[([^\]]*)\])?"#)
        let dependency = try Regex(#""(\w+)""#)
        var targets: [String: Set<String>] = [:]
        for match in manifest.matches(of: declaration) {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            let list = match.output[2].substring.map(String.init) ?? ""
            // `.product(name: "Logging", …)` names another package's product: only plain names are targets here.
            let plain = list.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
            targets[name] = Set(plain.matches(of: dependency).compactMap { $0.output[1].substring.map(String.init) })
        }
        return targets
    }

    /// Each entry of the guide's list: the folder's module names and the names in its last parentheses.
    static func readmeEntries() throws -> [String: Set<String>] {
        let readme = try String(contentsOf: repository.appendingPathComponent("docs/DEVELOPMENT.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Development").dropFirst().first)
        let block = try #require(
            section.components(separatedBy: "```text\n").dropFirst().first?
                .components(separatedBy: "```").first)
        var entries: [String: String] = [:]
        var current: String?
        for line in block.split(separator: "\n") {
            if let first = line.split(separator: " ").first, !line.hasPrefix(" ") {
                current = String(first)
                entries[String(first)] = String(line.dropFirst(first.count))
            } else if let current {
                entries[current, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        var modules: [String: Set<String>] = [:]
        for (folder, text) in entries where folder.hasPrefix("Sources/") || folder == "Tests/TestSupport" {
            let dependencies: Set<String>
            if let open = text.lastIndex(of: "("), text.hasSuffix(")") {
                dependencies = Set(
                    text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    })
            } else {
                dependencies = []
            }
            modules[String(folder.split(separator: "/")[1])] = dependencies
        }
        return modules
    }

    @Test func theREADMEListsEveryModuleWithItsDependencies() throws {
        let targets = try Self.targets()
        let listed = try Self.readmeEntries()
        #expect(targets.count > 15, "Package.swift's targets: \(targets.keys.sorted())")
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: Self.repository.appendingPathComponent("Sources").path)
        for folder in folders.sorted() + ["TestSupport"] {
            let dependencies = try #require(targets[folder], "Package.swift has no target \(folder)")
            if folder == "CLibPQ" || folder == "CZlib" || folder == "churn" { continue }
            let entry = listed[folder]
            #expect(entry != nil, "docs/DEVELOPMENT.md's module list lacks \(folder)")
            if let entry {
                #expect(
                    entry == dependencies,
                    "docs/DEVELOPMENT.md gives \(folder) the dependencies \(entry.sorted()), Package.swift \(dependencies.sorted())"
                )
            }
        }
    }
}
