import AppStoreNotifications
import CZlib
import Foundation
import Simulator
import Testing

/// A simulated export written to a temporary directory, read back.
struct ExportFixture: Sendable {
    let options: SimulationOptions
    let output: ExportSimulation.Output
    let summary: SimulationSummary
    /// Every notification of the export, decoded, in file order (resends included).
    let notifications: [DecodedNotification]

    /// Simulates with `options` into a fresh temporary directory.
    init(
        _ options: SimulationOptions,
        format: ExportFormat = .jsonLines,
        fileName: String = "export.jsonl",
        workers: Int = 2
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "simulator-tests-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.options = options
        self.output = ExportSimulation.Output(
            exportPath: directory.appendingPathComponent(fileName).path,
            format: format
        )
        self.summary = try ExportSimulation(options: options).run(to: output, workers: workers)
        self.notifications = try Self.signedPayloads(
            of: Self.readExport(output),
            format: format
        ).map { try NotificationDecoder.decodeSignedPayload($0) }
    }

    func exportBytes() throws -> Data {
        try Self.readExport(output)
    }

    private static func readExport(_ output: ExportSimulation.Output) throws -> Data {
        let data = try Data(contentsOf: URL(fileURLWithPath: output.exportPath))
        return output.isCompressed ? try gunzip(data) : data
    }

    func truthText() throws -> String {
        try String(contentsOfFile: output.truthPath, encoding: .utf8)
    }

    func rootDER() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: output.rootPath))
    }

    /// The export's lines.
    func lines() throws -> [String] {
        Self.lines(of: try exportBytes())
    }

    private static func lines(of data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The `signedPayload` of every line (JSON Lines) or history item, in file order.
    func signedPayloads() throws -> [String] {
        try Self.signedPayloads(of: exportBytes(), format: output.format)
    }

    private static func signedPayloads(of data: Data, format: ExportFormat) throws -> [String] {
        switch format {
        case .jsonLines:
            return try lines(of: data).map { line in
                let object = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
                return try #require(object["signedPayload"])
            }
        case .history:
            return try lines(of: data).flatMap { line in
                try NotificationDecoder.decodeHistoryPage(from: Data(line.utf8)).notificationHistory?
                    .compactMap(\.signedPayload) ?? []
            }
        }
    }

    /// The ground-truth rows as dictionaries keyed by column name.
    func truthRows() throws -> [[String: String]] {
        let lines = try truthText().split(separator: "\n").map(String.init)
        let columns = try #require(lines.first).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(columns, fields))
        }
    }
}

/// Decompresses gzip data, concatenated members included.
func gunzip(_ data: Data) throws -> Data {
    var stream = z_stream()
    guard czlib_inflate_init_gzip(&stream) == Z_OK else { throw GunzipError() }
    defer { inflateEnd(&stream) }
    var input = [UInt8](data)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var output = Data()
    var consumed = 0
    while true {
        let (status, produced) = input.withUnsafeMutableBufferPointer { inputBuffer in
            buffer.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress.map { $0 + consumed }
                stream.avail_in = uInt(inputBuffer.count - consumed)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                consumed = inputBuffer.count - Int(stream.avail_in)
                return (status, outputBuffer.count - Int(stream.avail_out))
            }
        }
        output.append(contentsOf: buffer[0..<produced])
        switch status {
        case Z_STREAM_END:
            if consumed == input.count { return output }
            inflateReset(&stream)
        case Z_OK where produced > 0 || consumed < input.count:
            continue
        default:
            throw GunzipError()
        }
    }
}

struct GunzipError: Error {}
