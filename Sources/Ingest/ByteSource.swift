// `stat`'s initializer and fields are found through CoreFoundation or Glibc, whichever module the compiler met
// `sys/stat.h` through first among the files it compiles together, so both are imported.
import CoreFoundation
import Crypto
import Foundation
import Gzip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an export file (or standard input) in large chunks, transparently inflating gzip, and hashes the bytes
/// exactly as they are stored (so the SHA-256 names the file, compressed or not).
///
/// Compression is detected from the content (the gzip magic bytes), not from the file name, so a `.gz` that is not
/// gzip, or gzip data without the extension, still reads correctly.
final class ByteSource {
    /// How the input was given, for messages: a path, or `<stdin>`.
    let displayName: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var rawBuffer: [UInt8]
    private var hasher = SHA256()
    private(set) var rawBytesRead: Int64 = 0
    private var inflater: GzipInflater?
    private var sniffed = false
    private var pendingRaw: ArraySlice<UInt8> = []
    private var rawEnded = false

    /// Whether the content turned out to be gzip.
    private(set) var isCompressed = false

    static let chunkSize = 1 << 20

    init(path: String) throws {
        if path == "-" {
            displayName = "<stdin>"
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            displayName = path
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else {
                throw IngestError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            var info = stat()
            if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw IngestError.cannotOpen(path: path, reason: "it is a directory")
            }
            descriptor = opened
            ownsDescriptor = true
        }
        rawBuffer = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The SHA-256 of every raw byte read so far, as lowercase hex. Call after reading to the end.
    func sha256Hex() -> String {
        hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private func readRaw() throws -> ArraySlice<UInt8> {
        if !pendingRaw.isEmpty {
            defer { pendingRaw = [] }
            return pendingRaw
        }
        if rawEnded { return [] }
        while true {
            let count = rawBuffer.withUnsafeMutableBytes { readDescriptor(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw IngestError.readFailed(path: displayName, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                rawEnded = true
                return []
            }
            let chunk = rawBuffer[0..<count]
            hasher.update(data: chunk)
            rawBytesRead += Int64(count)
            return chunk
        }
    }

    /// Reads the rest of the input without inflating it, so that ``sha256Hex()`` names all of its bytes.
    /// - Throws: ``IngestError/readFailed(path:reason:)`` with the system's reason.
    func skipToEnd() throws {
        while try !readRaw().isEmpty {}
    }

    /// Appends the next chunk of decoded bytes to `output`.
    /// - Returns: false at the end of the input.
    func read(into output: inout [UInt8]) throws -> Bool {
        if !sniffed {
            sniffed = true
            let first = try readRaw()
            if first.count >= 2, first[first.startIndex] == 0x1F, first[first.startIndex + 1] == 0x8B {
                isCompressed = true
                do {
                    inflater = try GzipInflater()
                } catch {
                    throw IngestError.readFailed(path: displayName, reason: error.reason)
                }
            }
            pendingRaw = first
        }
        if let inflater {
            do {
                while true {
                    if inflater.needsInput {
                        let raw = try readRaw()
                        if raw.isEmpty {
                            try inflater.finish()
                            return false
                        }
                        inflater.supply(raw)
                    }
                    if try inflater.inflate(into: &output) { return true }
                }
            } catch let error as GzipError {
                throw IngestError.corruptCompression(path: displayName, reason: error.reason)
            }
        }
        let raw = try readRaw()
        if raw.isEmpty { return false }
        output.append(contentsOf: raw)
        return true
    }
}

/// read(2), under a name that ``ByteSource/read(into:)`` does not hide inside the class.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #elseif canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
    #endif
}
