import Foundation
import Ingest
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding and hashing export files, and the messages when a file cannot be read.
///
/// The tests run as root, which reads any file whatever its mode: a file without read permission can be tested
/// only by an ordinary user (the test says so when skipped). The other failures come from `open(2)` the same way,
/// so the missing file, the directory and the path through a file show that the system's reason reaches the message.
@Suite struct ExportFilesTests {
    @Test func hashesTheBytesAsStored() throws {
        let directory = try ExportDirectory()
        let path = try directory.write("abc.jsonl", bytes: Array("abc".utf8))
        #expect(
            try ExportFiles.sha256(ofFile: path) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        let empty = try directory.write("empty.jsonl", bytes: [])
        #expect(
            try ExportFiles.sha256(ofFile: empty) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
    }

    @Test func aMissingFileIsNamedWithTheSystemsReason() throws {
        let directory = try ExportDirectory()
        let path = directory.url.appendingPathComponent("missing.jsonl").path
        let error = try #require(throws: IngestError.self) { try ExportFiles.sha256(ofFile: path) }
        #expect(error.description == "cannot open \(path): No such file or directory")
    }

    @Test func aDirectoryIsNamedAsOne() throws {
        let directory = try ExportDirectory()
        let error = try #require(throws: IngestError.self) { try ExportFiles.sha256(ofFile: directory.url.path) }
        #expect(error.description == "cannot open \(directory.url.path): it is a directory")
    }

    @Test func aPathThroughAFileIsNamedWithTheSystemsReason() throws {
        let directory = try ExportDirectory()
        let file = try directory.write("plain.jsonl", bytes: Array("{}\n".utf8))
        let path = file + "/export.jsonl"
        let error = try #require(throws: IngestError.self) { try ExportFiles.sha256(ofFile: path) }
        #expect(error.description == "cannot open \(path): Not a directory")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads a file whatever its mode"))
    func anUnreadableFileIsNamedWithTheSystemsReason() throws {
        let directory = try ExportDirectory()
        let path = try directory.write("secret.jsonl", bytes: Array("{}\n".utf8))
        #expect(chmod(path, 0) == 0)
        let error = try #require(throws: IngestError.self) { try ExportFiles.sha256(ofFile: path) }
        #expect(error.description == "cannot open \(path): Permission denied")
    }

    @Test func expandsDirectoriesByPatternInNameOrder() throws {
        let directory = try ExportDirectory()
        for name in ["b.jsonl", "a.jsonl.gz", ".hidden.jsonl", "notes.txt", "c.jws"] {
            _ = try directory.write(name, bytes: Array("{}\n".utf8))
        }
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("sub.jsonl"), withIntermediateDirectories: true
        )
        let single = try directory.write("single.txt", bytes: [])
        let missing = directory.url.appendingPathComponent("missing.jsonl").path
        let files = try ExportFiles.expand(
            [directory.url.path, single, missing], glob: ["*.jsonl", "*.jsonl.gz", "*.jws"]
        )
        #expect(
            files == ["a.jsonl.gz", "b.jsonl", "c.jws"].map { directory.url.appendingPathComponent($0).path } + [single]
        )
    }
}
