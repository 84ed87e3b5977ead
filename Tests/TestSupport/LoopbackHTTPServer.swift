import AppStoreServerAPI
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 and a port the system picks, answering each request with a handler: enough of
/// HTTP for the requests `churn` sends (a `Content-Length` body or none, `Expect: 100-continue`, keep-alive), on
/// plain sockets.
///
/// Every connection is served on a thread of its own, never on Swift's cooperative pool: a test may block a
/// cooperative thread waiting for a `churn` process while this server answers that process, and on a 2-core machine
/// the pool has two threads.
package final class LoopbackHTTPServer: Sendable {
    /// Answers one request.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The port it listens on.
    package let port: Int
    private let listener: Int32
    private let handler: Handler
    /// The connections open, to shut when the server stops.
    private let connections = Mutex<Set<Int32>>([])
    private let stopped = Mutex(false)

    /// Listens and starts accepting.
    /// - Throws: `NoAnswer` naming the call that failed.
    package init(handler: @escaping Handler) throws {
        let listener = socket(AF_INET, Self.streamSocket, 0)
        guard listener >= 0 else { throw Self.failure("socket") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            let error = Self.failure("bind")
            close(listener)
            throw error
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.handler = handler
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops accepting and shuts every open connection; a request being answered may still finish.
    package func stop() {
        guard
            !stopped.withLock({ stopped in
                defer { stopped = true }; return stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        connections.withLock { open in
            for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = connections.withLock { open in
                guard !stopped.withLock({ $0 }) else { return false }
                open.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            Thread.detachNewThread { [self] in
                serve(connection)
                connections.withLock { _ = $0.remove(connection) }
                close(connection)
            }
        }
    }

    /// Answers the requests of one connection until the client closes it or asks to.
    private func serve(_ connection: Int32) {
        var reader = Reader(socket: connection)
        while let head = reader.head() {
            let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
            let requestLine = lines.first?.split(separator: " ") ?? []
            guard requestLine.count == 3, let method = HTTPRequest.Method(rawValue: String(requestLine[0])) else {
                write(connection, HTTPResponse(status: 400), keepAlive: false)
                return
            }
            let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (
                    String(line[..<colon]),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                )
            }
            var request = HTTPRequest(method: method, url: String(requestLine[1]), headers: headers)
            if request.header("Expect")?.lowercased() == "100-continue" {
                transmit(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            }
            if let length = request.header("Content-Length").flatMap(Int.init), length > 0 {
                guard let body = reader.bytes(length) else { return }
                request.body = body
            }
            let keepAlive =
                request.header("Connection")?.lowercased() != "close" && requestLine[2] == "HTTP/1.1"
            write(connection, handler(request), keepAlive: keepAlive)
            if !keepAlive { return }
        }
    }

    private func write(_ connection: Int32, _ response: HTTPResponse, keepAlive: Bool) {
        var head = "HTTP/1.1 \(response.status) \(Self.reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n"
        head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        transmit(connection, Array(head.utf8) + response.body)
    }

    private func transmit(_ connection: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Self.noSignal) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Reads a connection: request heads up to the blank line, then bodies by length.
    private struct Reader {
        let socket: Int32
        var buffered: [UInt8] = []

        /// The next request's head, without its blank line; nil when the connection closes first.
        mutating func head() -> String? {
            while true {
                if let end = Self.blankLine(in: buffered) {
                    let head = String(decoding: buffered[..<end], as: UTF8.self)
                    buffered.removeFirst(end + 4)
                    return head
                }
                guard buffered.count < 1 << 20, fill() else { return nil }
            }
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            while buffered.count < count {
                guard fill() else { return nil }
            }
            defer { buffered.removeFirst(count) }
            return Array(buffered.prefix(count))
        }

        private mutating func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                buffered += chunk.prefix(count)
                return true
            }
        }

        private static func blankLine(in bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }

    #if canImport(Glibc)
        private static let streamSocket = Int32(SOCK_STREAM.rawValue)
        /// A peer gone mid-answer is an error to `send`, not a SIGPIPE that ends the test process.
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let streamSocket = SOCK_STREAM
        private static let noSignal: Int32 = 0
    #endif

    private static func failure(_ call: String) -> NoAnswer {
        NoAnswer(reason: "\(call): " + String(cString: strerror(errno)))
    }
}
