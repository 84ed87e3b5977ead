import Analysis
import AppStoreNotifications
import Dispatch
import Foundation
import Gzip
import Reports
import Synchronization

/// Writes a signed export of simulated subscribers, the ground truth of its episodes, and the root certificate
/// that verifies it.
///
/// ## Determinism
/// Everything comes from ``SimulationOptions/seed``: each subscriber draws from generators derived from the seed and
/// its index, the certificate authority's keys from the seed, and every ECDSA signature is RFC 6979 deterministic.
/// The same options give byte-identical files, whatever the number of workers or the timing of threads.
///
/// ## Work and memory
/// Subscribers are simulated and signed in blocks of ``blockSize`` on `workers` threads, a few blocks per worker at a
/// time; finished blocks are written in order, so memory holds only the blocks in flight. With compression each
/// block becomes one gzip member, compressed on the worker that made it.
///
/// ## Line order
/// Lines come grouped by subscriber, subscribers in index order; within a subscriber, each subscription's
/// notifications in signed order (purchaser, then family members), apart from the simulated late deliveries and
/// resends. History pages hold ``ExportFormat/pageSize`` notifications, except the last page of each block.
package struct ExportSimulation: Sendable {
    /// Where the files go and how the export is written.
    package struct Output: Hashable, Sendable {
        package var exportPath: String
        package var truthPath: String
        package var rootPath: String
        /// The planted returns, written when ``SimulationOptions/returnRate`` is set.
        package var returnsPath: String
        /// The app's log of the billing-issue sheet, written when ``SimulationOptions/sheets`` is set.
        package var messagesPath: String
        package var format: ExportFormat
        package var isCompressed: Bool

        /// The export at `exportPath`, its ground truth and root certificate next to it (`export.jsonl` →
        /// `export.truth.csv`, `export.root.der`); gzip-compressed when asked or when the name ends in `.gz`.
        package init(exportPath: String, format: ExportFormat = .jsonLines, compressed: Bool = false) {
            self.exportPath = exportPath
            let base = Self.basePath(of: exportPath)
            self.truthPath = base + ".truth.csv"
            self.rootPath = base + ".root.der"
            self.returnsPath = base + ".returns.csv"
            self.messagesPath = base + ".messages.csv"
            self.format = format
            self.isCompressed = compressed || exportPath.hasSuffix(".gz")
        }

        /// The path without `.gz` and without a `.jsonl`, `.ndjson`, `.json` or `.txt` extension.
        static func basePath(of path: String) -> String {
            var base = path
            if base.hasSuffix(".gz") { base.removeLast(3) }
            for suffix in [".jsonl", ".ndjson", ".json", ".txt"] where base.hasSuffix(suffix) {
                base.removeLast(suffix.count)
                break
            }
            return base
        }
    }

    /// What ``run(to:workers:progress:)`` reports after each round of blocks.
    package struct Progress: Hashable, Sendable {
        package var subscribersDone: Int
        package var subscribers: Int
        package var notifications: Int
        package var seconds: Double
    }

    /// Subscribers per block.
    package static let blockSize = 32
    /// Blocks per worker in flight.
    private static let blocksPerWorker = 4

    package let options: SimulationOptions
    /// The daily chances of leaving billing retry, from ``options``.
    package let model: RetryModel
    package let authority: SeededCertificateAuthority

    /// The validity of every simulated certificate: from 1970 to ten years after 2099, the end of any history.
    static let certificateValidity =
        Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: Double(4_102_444_800 + 3650 * 86_400))
    package let signer: DeterministicJWSSigner

    /// Checks the options and makes the certificate authority, valid from 1970 to ten years after the latest
    /// history the options allow: the seed alone decides the certificates, so every history of one seed (another
    /// `--start`, another length) is signed under one root, and one `--trust-root` serves them all.
    /// - Throws: ``SimulationError``.
    package init(options: SimulationOptions) throws {
        try options.validate()
        let validity = Self.certificateValidity
        let authority: SeededCertificateAuthority
        do {
            authority = try SeededCertificateAuthority(seed: options.seed, validity: validity)
        } catch let error as SimulationError {
            throw error
        } catch {
            throw SimulationError.signing("cannot make the certificate authority: \(error)")
        }
        self.options = options
        self.model = RetryModel(options: options)
        self.authority = authority
        self.signer = try authority.signer()
    }

    /// One subscriber, simulated and signed (what the export holds for it).
    /// - Throws: when signing fails.
    package func subscriber(_ index: Int) throws -> SimulatedSubscriber {
        try SimulatedSubscriber(
            index: index,
            options: options,
            model: model,
            signer: signer,
            encoder: NotificationDecoder.makeJSONEncoder()
        )
    }

    /// Writes the export, the ground truth and the root certificate.
    /// - Parameters:
    ///   - output: the files and the format.
    ///   - workers: threads that simulate and sign (at least 1).
    ///   - progress: called on the calling thread after each round of blocks.
    /// - Returns: counts, sizes and timing.
    /// - Throws: ``SimulationError``; files already in place are left as they were.
    package func run(
        to output: Output,
        workers: Int,
        progress: ((Progress) -> Void)? = nil
    ) throws -> SimulationSummary {
        let clock = ContinuousClock()
        let started = clock.now
        let workers = max(1, workers)
        let export = try OutputFile(path: output.exportPath)
        let truth = try OutputFile(path: output.truthPath)
        let truthColumns = GroundTruthEpisode.columns(plans: options.commitmentRate > 0, sheets: options.sheets != nil)
        try truth.write(truthColumns.joined(separator: ",") + "\n")
        let returns = try options.returnRate.map { _ in try OutputFile(path: output.returnsPath) }
        try returns?.write(PlantedReturn.columns.joined(separator: ",") + "\n")
        let messages = try options.sheets.map { _ in try OutputFile(path: output.messagesPath) }
        try messages?.write(PlantedSheetEvent.columns.joined(separator: ",") + "\n")

        var summary = SimulationSummary()
        let blockCount = (options.subscribers + Self.blockSize - 1) / Self.blockSize
        var nextBlock = 0
        while nextBlock < blockCount {
            let round = nextBlock..<min(blockCount, nextBlock + workers * Self.blocksPerWorker)
            let blocks = try makeBlocks(round, blockCount: blockCount, output: output, workers: workers)
            for block in blocks {
                try export.write(block.export)
                try truth.write(block.truth)
                try returns?.write(block.returns)
                try messages?.write(block.messages)
                summary.add(block.summary)
            }
            nextBlock = round.upperBound
            progress?(
                Progress(
                    subscribersDone: summary.subscribers,
                    subscribers: options.subscribers,
                    notifications: summary.notifications,
                    seconds: Self.seconds(clock.now - started)
                )
            )
        }
        summary.exportBytes = export.bytesWritten
        try OutputFile.write(authority.rootDER(), to: output.rootPath)
        try truth.commit()
        try returns?.commit()
        try messages?.commit()
        try export.commit()
        summary.exportPath = output.exportPath
        summary.truthPath = output.truthPath
        summary.rootPath = output.rootPath
        if messages != nil { summary.messagesPath = output.messagesPath }
        summary.end = options.end
        summary.seconds = Self.seconds(clock.now - started)
        return summary
    }

    // MARK: Blocks

    /// One block's share of the files.
    private struct Block: Sendable {
        var export: [UInt8]
        var truth: String
        var returns: String
        var messages: String
        var summary: SimulationSummary
    }

    /// Makes the blocks of `round` on `workers` threads and returns them in order.
    private func makeBlocks(
        _ round: Range<Int>,
        blockCount: Int,
        output: Output,
        workers: Int
    ) throws -> [Block] {
        let results = Mutex<[Result<Block, any Error>?]>(Array(repeating: nil, count: round.count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(workers, round.count)) { _ in
            while true {
                let offset = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard offset < round.count else { return }
                let block = round.lowerBound + offset
                let result = Result { try makeBlock(block, isLast: block == blockCount - 1, output: output) }
                results.withLock { $0[offset] = result }
            }
        }
        return try results.withLock { slots in
            try slots.map { slot in
                guard let slot else { throw SimulationError.signing("a block was not made") }
                return try slot.get()
            }
        }
    }

    private func makeBlock(_ block: Int, isLast: Bool, output: Output) throws -> Block {
        let encoder = NotificationDecoder.makeJSONEncoder()
        let first = block * Self.blockSize
        let subscribers = first..<min(options.subscribers, first + Self.blockSize)
        var summary = SimulationSummary()
        var truth = ""
        var returns = ""
        var messages = ""
        var records: [ExportRecord] = []
        for index in subscribers {
            let subscriber = try SimulatedSubscriber(
                index: index, options: options, model: model, signer: signer, encoder: encoder
            )
            summary.add(subscriber)
            for episode in subscriber.truth {
                let fields = episode.fields(plans: options.commitmentRate > 0, sheets: options.sheets != nil)
                truth += fields.map(CSVWriter.field).joined(separator: ",") + "\n"
            }
            for event in subscriber.sheetEvents {
                messages += event.fields.map(CSVWriter.field).joined(separator: ",") + "\n"
            }
            for planted in subscriber.returns {
                returns += planted.fields.joined(separator: ",") + "\n"
            }
            records += subscriber.records
        }

        var bytes: [UInt8] = []
        switch output.format {
        case .jsonLines:
            let prefix = Array(#"{"signedPayload":""#.utf8)
            let suffix = Array("\"}\n".utf8)
            for record in records {
                bytes += prefix
                bytes += record.signedPayload.utf8
                bytes += suffix
            }
        case .history:
            let size = ExportFormat.pageSize
            let pageCount = (records.count + size - 1) / size
            for page in 0..<pageCount {
                let items = records[(page * size)..<min(records.count, (page + 1) * size)]
                var response = NotificationHistoryResponse()
                response.notificationHistory = items.map { record in
                    var item = NotificationHistoryResponseItem()
                    item.signedPayload = record.signedPayload
                    item.sendAttempts = record.sendAttempts
                    return item
                }
                let hasMore = !(isLast && page == pageCount - 1)
                response.hasMore = hasMore
                if hasMore {
                    var tokens = SplitMix64(seed: options.seed, index: UInt64(block) << 20 | UInt64(page), stream: 6)
                    response.paginationToken = Identifiers.uuid(&tokens)
                }
                bytes += try encoder.encode(response)
                bytes.append(UInt8(ascii: "\n"))
            }
        }
        if output.isCompressed {
            do {
                bytes = try GzipMember.compress(bytes)
            } catch {
                throw SimulationError.output(path: output.exportPath, reason: error.description)
            }
        }
        return Block(export: bytes, truth: truth, returns: returns, messages: messages, summary: summary)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
