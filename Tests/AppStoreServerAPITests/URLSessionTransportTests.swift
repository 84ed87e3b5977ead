import AppStoreServerAPI
import Foundation
import Synchronization
import TestSupport
import Testing

/// Foundation's URLSession as the client's transport, against a server on the loopback interface.
@Suite struct URLSessionTransportTests {
    /// The requests a server saw.
    final class Seen: Sendable {
        private let requests = Mutex<[HTTPRequest]>([])
        var all: [HTTPRequest] { requests.withLock { $0 } }
        func add(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }
    }

    @Test func sendsTheMethodPathHeadersAndBodyAndReturnsTheStatusHeadersAndBodyAsTheyCame() async throws {
        let seen = Seen()
        let server = try LoopbackHTTPServer { request in
            seen.add(request)
            return HTTPResponse(
                status: 429, headers: [("Retry-After", "1767225690000"), ("Content-Type", "application/json")],
                body: Array(#"{"errorCode":4290000}"#.utf8))
        }
        defer { server.stop() }
        let transport = URLSessionTransport(timeout: .seconds(30))
        defer { transport.close() }
        let body = Array(#"{"startDate":1,"endDate":2}"#.utf8)
        let response = try await transport.send(
            HTTPRequest(
                method: .post,
                url: "http://127.0.0.1:\(server.port)/inApps/v1/notifications/history?paginationToken=a%2Bb",
                headers: [("Authorization", "Bearer x.y.z"), ("Content-Type", "application/json")], body: body))
        #expect(response.status == 429)
        #expect(response.header("retry-after") == "1767225690000", "header names match whatever their case")
        #expect(response.body == Array(#"{"errorCode":4290000}"#.utf8))
        let request = try #require(seen.all.first)
        #expect(seen.all.count == 1)
        #expect(request.method == .post)
        #expect(request.url == "/inApps/v1/notifications/history?paginationToken=a%2Bb")
        #expect(request.header("Authorization") == "Bearer x.y.z")
        #expect(request.body == body)
    }

    @Test func aRedirectIsReturnedAndNotFollowedSoTheTokenStaysWithTheHost() async throws {
        let seen = Seen()
        let server = try LoopbackHTTPServer { request in
            seen.add(request)
            return HTTPResponse(status: 302, headers: [("Location", "/elsewhere")])
        }
        defer { server.stop() }
        let transport = URLSessionTransport(timeout: .seconds(30))
        defer { transport.close() }
        let response = try await transport.send(
            HTTPRequest(
                method: .get, url: "http://127.0.0.1:\(server.port)/inApps/v1/subscriptions/1",
                headers: [("Authorization", "Bearer x.y.z")]))
        #expect(response.status == 302)
        #expect(seen.all.map(\.url) == ["/inApps/v1/subscriptions/1"])
    }

    @Test func anAnswerSlowerThanTheTimeoutIsNoAnswerAndSaysSo() async throws {
        let server = try LoopbackHTTPServer { _ in
            Thread.sleep(forTimeInterval: 5)
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        let transport = URLSessionTransport(timeout: .seconds(1))
        defer { transport.close() }
        let error = await #expect(throws: NoAnswer.self) {
            try await transport.send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(server.port)/"))
        }
        #expect(error?.reason == "no answer from 127.0.0.1:\(server.port) within the request timeout")
    }

    @Test func aPortNobodyListensOnIsNoAnswerInOneLine() async throws {
        let transport = URLSessionTransport(timeout: .seconds(30))
        defer { transport.close() }
        let error = await #expect(throws: NoAnswer.self) {
            try await transport.send(HTTPRequest(method: .get, url: "http://127.0.0.1:1/"))
        }
        #expect(error?.reason == "could not connect to 127.0.0.1:1 (connection refused)")
    }
}
