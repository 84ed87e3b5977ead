import Foundation
import TestSupport
import Testing

/// Every link between the README and the guides leads somewhere: a file of the repository, and where it names a
/// heading (`NIGHTLY.md#exit-codes`), a heading that file has. Sections move between documents; a link left behind
/// would send a reader nowhere.
@Suite struct DocumentLinkTests {
    /// A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    static func anchors(in text: String) -> Set<String> {
        Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
                anchor(String(line.drop { $0 == "#" }.drop { $0 == " " }))
            })
    }

    @Test func everyLinkOfTheREADMEAndTheGuidesLeadsSomewhere() throws {
        let root = Repository.root
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        var checked = 0
        var broken: [String] = []
        for document in ["README.md"] + docs.sorted() {
            let url = root.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: link) {
                let target = String(match.output[1].substring ?? "")
                if target.hasPrefix("http") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let file = path.isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(path)
                checked += 1
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(document): \(target): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let headings = Self.anchors(in: try String(contentsOf: file, encoding: .utf8))
                    if !headings.contains(String(parts[1])) {
                        broken.append("\(document): \(target): no such heading")
                    }
                }
            }
        }
        #expect(checked > 20, "\(checked) links checked")
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }
}
