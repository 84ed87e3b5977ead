/// Splits an export into records, streaming, with memory bounded by the largest record allowed.
///
/// - JSON Lines (`{"signedPayload": …}` or a Get Notification History page per line) and bare JWS lines: one
///   record per non-blank line.
/// - A pretty-printed JSON document spread over several lines (a saved Get Notification History page): when the
///   file's first JSON value spans several lines and closes within `maxRecordBytes`, that value is one record;
///   the rest of the file is read line by line. A first line that is merely broken (a truncated JSON line) never
///   closes (JSON strings hold no raw newline, and the following lines are balanced), so it stays a line.
///
/// A UTF-8 byte-order mark at the start of the file is skipped. A line longer than `maxRecordBytes` becomes a record with problem `record_too_large` holding only its first
/// `keepBytes` bytes; the rest is skipped without being held in memory.
struct RecordReader {
    private let source: ByteSource
    private let maxRecordBytes: Int
    private let keepBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var lineNumber = 0
    private var ended = false
    private var mode: Mode = .undecided
    private var pendingFailure: IngestError?

    private enum Mode: Equatable {
        case undecided, lines
        /// The first record is a multi-line JSON value ending at this buffer index (exclusive).
        case document(end: Int)
    }

    init(source: ByteSource, maxRecordBytes: Int, keepBytes: Int) {
        self.source = source
        self.maxRecordBytes = maxRecordBytes
        self.keepBytes = keepBytes
        buffer.reserveCapacity(ByteSource.chunkSize * 2)
    }

    /// Reads more input into the buffer, compacting consumed bytes first.
    /// - Returns: false at the end of input, also after compressed data that is corrupt or ends early (that failure
    ///   becomes the last record, `truncated_input`).
    /// - Throws: ``IngestError`` for any other read failure.
    private mutating func fill() throws -> Bool {
        if ended { return false }
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        do {
            if try source.read(into: &buffer) { return true }
        } catch let error as IngestError {
            if case .corruptCompression = error {
                pendingFailure = error
            } else {
                throw error
            }
        }
        ended = true
        return false
    }

    /// The next record, or nil at the end of the input.
    mutating func next() throws -> RawRecord? {
        while true {
            if mode == .undecided {
                try decideMode()
            }
            if case .document(let end) = mode {
                mode = .lines
                return takeDocument(end: end)
            }
            guard var record = try nextLine() else {
                return takeFailureRecord()
            }
            if isBlank(record.bytes) && record.problem == nil { continue }
            trimTrailingCarriageReturn(&record)
            return record
        }
    }

    private mutating func takeFailureRecord() -> RawRecord? {
        guard let failure = pendingFailure else { return nil }
        pendingFailure = nil
        return RawRecord(
            line: lineNumber + 1,
            bytes: Array("\(failure)".utf8),
            problem: .truncatedInput,
            length: 0
        )
    }

    private func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    private func trimTrailingCarriageReturn(_ record: inout RawRecord) {
        if record.problem == nil, record.bytes.last == 0x0D { record.bytes.removeLast() }
    }

    /// Looks at the first JSON value: when it spans several lines and closes within the limit, it is one record.
    /// A UTF-8 byte-order mark before it (some editors and Windows tools write one) is skipped: it belongs to the
    /// file, not to its first line.
    private mutating func decideMode() throws {
        mode = .lines
        while buffer.count - position < Self.byteOrderMark.count, try fill() {}
        if buffer[position...].starts(with: Self.byteOrderMark) { position += Self.byteOrderMark.count }
        var scanned = position
        while true {
            while scanned < buffer.count, isSpace(buffer[scanned]) { scanned += 1 }
            if scanned < buffer.count { break }
            guard try fill() else { return }
            scanned = position
        }
        let first = buffer[scanned]
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return }
        var scanner = JSONDepthScanner()
        var index = scanned
        var sawNewline = false
        while true {
            while index < buffer.count {
                let byte = buffer[index]
                if byte == 0x0A {
                    // A raw newline cannot be inside a JSON string: the first line is broken, not a document.
                    if scanner.isInString { return }
                    sawNewline = true
                }
                scanner.consume(byte)
                index += 1
                if scanner.isComplete {
                    if sawNewline { mode = .document(end: index) }
                    return
                }
                if scanner.isBroken { return }
            }
            if index - position > maxRecordBytes { return }
            let offset = index - position
            let scannedOffset = scanned - position
            guard try fill() else { return }
            index = position + offset
            scanned = position + scannedOffset
        }
    }

    /// The UTF-8 encoding of U+FEFF.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The multi-line first value as one record, counting the lines it spans.
    private mutating func takeDocument(end: Int) -> RawRecord {
        let bytes = Array(buffer[position..<end])
        let startLine = lineNumber + 1
        lineNumber += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        position = end
        return RawRecord(line: startLine, bytes: bytes, problem: nil, length: bytes.count)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func nextLine() throws -> RawRecord? {
        var searchFrom = position
        while true {
            if let newline = buffer.firstIndex(of: 0x0A, from: searchFrom) {
                lineNumber += 1
                let length = newline - position
                if length > maxRecordBytes {
                    let kept = Array(buffer[position..<(position + min(keepBytes, length))])
                    position = newline + 1
                    return RawRecord(line: lineNumber, bytes: kept, problem: .recordTooLarge, length: length)
                }
                let bytes = Array(buffer[position..<newline])
                position = newline + 1
                return RawRecord(line: lineNumber, bytes: bytes, problem: nil, length: bytes.count)
            }
            if buffer.count - position > maxRecordBytes {
                return try skipOverlongLine()
            }
            searchFrom = buffer.count
            let offset = searchFrom - position
            guard try fill() else {
                guard position < buffer.count else { return nil }
                lineNumber += 1
                let bytes = Array(buffer[position...])
                position = buffer.count
                return RawRecord(line: lineNumber, bytes: bytes, problem: nil, length: bytes.count)
            }
            searchFrom = position + offset
        }
    }

    /// Keeps a prefix of a line that is too long and discards the rest up to the next newline.
    private mutating func skipOverlongLine() throws -> RawRecord {
        lineNumber += 1
        let kept = Array(buffer[position..<min(buffer.count, position + keepBytes)])
        var length = 0
        while true {
            if let newline = buffer.firstIndex(of: 0x0A, from: position) {
                length += newline - position
                position = newline + 1
                break
            }
            length += buffer.count - position
            position = buffer.count
            guard try fill() else { break }
        }
        return RawRecord(line: lineNumber, bytes: kept, problem: .recordTooLarge, length: length)
    }

}
