import Foundation
import TestSupport
import Testing

/// The package declares macOS (Package.swift, Homebrew providers), so no source may call Glibc without a Darwin
/// branch. What these Linux machines can check is the shape of the sources; compiling on macOS is not checked here
/// (README, "Platforms").
@Suite struct PortabilityTests {
    static let repository = Repository.root

    /// Every Swift file under `Sources/` and `Tests/`, by path relative to the repository.
    static func swiftFiles() throws -> [(path: String, lines: [Substring])] {
        var files: [(String, [Substring])] = []
        for folder in ["Sources", "Tests"] {
            let root = repository.appendingPathComponent(folder)
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                files.append(("\(folder)/\(relative)", text.split(separator: "\n", omittingEmptySubsequences: false)))
            }
        }
        return files
    }

    @Test func everyGlibcImportHasADarwinBranch() throws {
        let files = try Self.swiftFiles()
        #expect(files.count > 100)
        var imports = 0
        for (path, lines) in files {
            for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "import Glibc" {
                imports += 1
                let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                let after = lines.dropFirst(index + 1).prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(before == "#if canImport(Glibc)", "\(path):\(index + 1): import Glibc outside #if canImport")
                #expect(
                    after.first == "#elseif canImport(Darwin)" || after.first == "#elseif canImport(Musl)",
                    "\(path):\(index + 1): import Glibc without a Darwin branch")
                let block = lines.dropFirst(index + 1).prefix(5).map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(block.contains("import Darwin"), "\(path):\(index + 1): import Glibc without import Darwin")
            }
        }
        #expect(imports > 10)
    }

    @Test func noGlibcCallOutsideAPlatformBranch() throws {
        for (path, lines) in try Self.swiftFiles() {
            for (index, line) in lines.enumerated()
            where line.range(of: #"(^|[^"A-Za-z])Glibc\.[a-z]+\("#, options: .regularExpression) != nil {
                // A qualified call stands in an `#if canImport(Glibc)` branch whose `#elseif canImport(Darwin)`
                // makes the same call.
                let opening = lines[..<index].lastIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#if") }
                let branch = lines.dropFirst(index + 1).prefix(3).map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(
                    opening.map { lines[$0].contains("canImport(Glibc)") } == true
                        && branch.first == "#elseif canImport(Darwin)"
                        && branch.dropFirst().first?.contains("Darwin.") == true,
                    "\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
