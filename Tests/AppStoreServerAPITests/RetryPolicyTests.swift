import AppStoreServerAPI
import Foundation
import Testing

@Suite struct RetryPolicyTests {
    @Test func waitsDoubleUpToTheLongestWait() throws {
        let policy = try RetryPolicy(maxAttempts: 10, baseDelay: .seconds(1), maxDelay: .seconds(10))
        let delays = (1...6).map { policy.delay(afterAttempt: $0, retryAfter: nil) }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
    }

    @Test func retryAfterDecidesTheWait() throws {
        let policy = try RetryPolicy()
        #expect(policy.delay(afterAttempt: 3, retryAfter: .seconds(42)) == .seconds(42))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .zero) == .zero)
    }

    @Test(arguments: [
        ("120", Duration.seconds(120)), (" 0 ", .zero), ("Thu, 01 Jan 1970 00:02:30 GMT", .seconds(30)),
        ("Thu, 01 Jan 1970 00:01:00 GMT", .zero),
    ])
    func readsRetryAfterInSecondsOrAsAnHTTPDate(_ value: String, _ expected: Duration) {
        #expect(RetryPolicy.retryAfter(value, now: Date(timeIntervalSince1970: 120)) == expected)
    }

    @Test(arguments: ["soon", "-5", "1.5", ""])
    func ignoresARetryAfterItCannotRead(_ value: String) {
        #expect(RetryPolicy.retryAfter(value, now: Date()) == nil)
    }

    @Test func refusesBoundsThatMakeNoSense() {
        #expect(throws: AppStoreServerAPIError.self) { try RetryPolicy(maxAttempts: 0) }
        #expect(throws: AppStoreServerAPIError.self) { try RetryPolicy(baseDelay: .seconds(5), maxDelay: .seconds(1)) }
    }
}
