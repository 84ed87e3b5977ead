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

    /// 2026-01-01T00:00:00Z, in milliseconds.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test(arguments: [
        // Apple's form: a UNIX time in milliseconds, the instant the next request may be sent.
        ("1767225690000", Duration.seconds(90)), ("1767225600001", .milliseconds(1)),
        // An instant already past asks for no wait.
        ("1767225600000", .zero), ("1767225000000", .zero), ("100000000000", .zero),
        // Fewer than 12 digits: delay-seconds, as other servers send.
        ("120", .seconds(120)), (" 0 ", .zero), ("99999999999", .seconds(99_999_999_999)),
        // An HTTP date: the instant, or no wait when past.
        ("Thu, 01 Jan 2026 00:02:30 GMT", .seconds(150)), ("Wed, 31 Dec 2025 23:59:00 GMT", .zero),
    ])
    func readsRetryAfterAsAppleSendsItOrAsOtherServersDo(_ value: String, _ expected: Duration) {
        #expect(RetryPolicy.retryAfter(value, now: Self.now) == expected)
    }

    @Test func theInstantOfAppleRetryAfterIsItsMillisecondsWhateverTheClock() throws {
        let instant = try #require(RetryPolicy.retryAfterInstant("1767225690123", now: Date(timeIntervalSince1970: 0)))
        #expect(instant == Date(timeIntervalSince1970: 1_767_225_690.123))
        let delayed = try #require(RetryPolicy.retryAfterInstant("30", now: Self.now))
        #expect(delayed == Self.now.addingTimeInterval(30))
    }

    @Test(arguments: ["soon", "-5", "1.5", "", "+60", "1767225690000ms", "99999999999999999999999", "١٢٠"])
    func ignoresARetryAfterItCannotRead(_ value: String) {
        #expect(RetryPolicy.retryAfter(value, now: Self.now) == nil)
    }

    @Test func refusesBoundsThatMakeNoSense() {
        #expect(throws: AppStoreServerAPIError.self) { try RetryPolicy(maxAttempts: 0) }
        #expect(throws: AppStoreServerAPIError.self) { try RetryPolicy(baseDelay: .seconds(5), maxDelay: .seconds(1)) }
    }
}
