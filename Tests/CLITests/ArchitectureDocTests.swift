import Foundation
import Testing

/// docs/ARCHITECTURE.md names modules, files and workflows: each must exist, and the workflow list must be whole,
/// so the page fails a test the day a move or a rename leaves it behind.
@Suite struct ArchitectureDocTests {
    static let repository = PortabilityTests.repository

    static func page() throws -> String {
        try String(contentsOf: repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
    }

    /// Every Swift file the page names: a path from `Sources/` (`Analysis/Episodes/Episode.swift`) or from the
    /// repository (`Tests/…`), or a bare file name found somewhere under `Sources/` or `Tests/`.
    @Test func everySwiftFileItNamesExists() throws {
        let page = try Self.page()
        // A pattern such as `Reports/Tables/<Figure>+Table.swift` names no one file: its tail is left out.
        let names = page.matches(of: try Regex(#"[A-Za-z][\w+]*(?:/[\w+]+)*\.swift\b"#)).filter { match in
            let start = match.range.lowerBound
            return start == page.startIndex || !"+>".contains(page[page.index(before: start)])
        }.map { String(page[$0.range]) }
        #expect(names.count > 40, "the page names its files")
        let everyFile = Set(try PortabilityTests.swiftFiles().map { $0.path })
        let fileNames = Set(everyFile.map { ($0 as NSString).lastPathComponent })
        var missing: [String] = []
        for name in Set(names) {
            let found =
                name.contains("/")
                ? everyFile.contains("Sources/\(name)") || everyFile.contains(name) : fileNames.contains(name)
            if !found { missing.append(name) }
        }
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md names files that are not there: \(missing.sorted())")
    }

    /// Every module the diagram draws (`Ingest ──`, `AnalysisStore.StoredDataset ──`) is a folder of `Sources/`.
    @Test func everyModuleOfTheDiagramExists() throws {
        let page = try Self.page()
        let drawn = try Regex(#"^ ([A-Z]\w+)[\w. /]* ──"#)
        let modules = page.split(separator: "\n").compactMap { line in
            line.firstMatch(of: drawn)?.output[1].substring.map(String.init)
        }
        #expect(Set(modules).count >= 5, "the diagram names its modules: \(modules)")
        for module in Set(modules) {
            var isFolder: ObjCBool = false
            let path = Self.repository.appendingPathComponent("Sources/\(module)").path
            #expect(
                FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue,
                "docs/ARCHITECTURE.md draws a module \(module) that Sources/ does not have")
        }
    }

    /// The workflow layer's list is `Sources/Workflows`' workflows, no more and no fewer.
    @Test func theWorkflowListIsWhole() throws {
        let page = try Self.page()
        let named = Set(page.matches(of: try Regex(#"\b[A-Z]\w*Workflow\b"#)).map { String(page[$0.range]) })
        let folder = Self.repository.appendingPathComponent("Sources/Workflows").path
        let present = Set(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix("Workflow.swift") }
                .map { String($0.dropLast(".swift".count)) })
        #expect(present.count > 5)
        let absent = named.subtracting(present).sorted()
        let unnamed = present.subtracting(named).sorted()
        #expect(absent.isEmpty && unnamed.isEmpty, "named but absent: \(absent); present but not named: \(unnamed)")
    }
}
