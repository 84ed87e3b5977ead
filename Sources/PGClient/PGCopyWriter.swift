import CLibPQ

/// Buffers COPY data and sends it to the server in chunks. Only valid inside ``PGConnection/copyIn(_:chunkSize:_:)``.
package struct PGCopyWriter {
    private let connection: OpaquePointer
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    /// Bytes handed to the server so far.
    package private(set) var bytesSent = 0

    init(connection: OpaquePointer, chunkSize: Int) {
        self.connection = connection
        self.chunkSize = max(chunkSize, 1024)
        buffer.reserveCapacity(self.chunkSize + 64 * 1024)
    }

    /// Appends raw COPY bytes (already escaped rows) and sends a chunk when the buffer is full.
    package mutating func write(_ bytes: some Sequence<UInt8>) throws(PGError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= chunkSize { try flush() }
    }

    /// Appends one row built with ``CopyText``.
    package mutating func write(row: inout CopyText) throws(PGError) {
        try write(row.bytes)
    }

    /// Sends what is buffered.
    package mutating func flush() throws(PGError) {
        guard !buffer.isEmpty else { return }
        let result = buffer.withUnsafeBytes { bytes in
            PQputCopyData(connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        guard result == 1 else {
            let message = PQerrorMessage(connection).map { String(cString: $0) } ?? "PQputCopyData failed"
            throw PGError(
                kind: PQstatus(connection) == CONNECTION_OK ? .copyFailed : .connectionLost,
                message: message.trimmingTrailingNewlines()
            )
        }
        bytesSent += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
