import Foundation

/// How often and how long a request is tried again after an answer worth retrying: HTTP 429, a 5xx, a malformed
/// page, or a network failure.
///
/// Waits double from ``baseDelay`` up to ``maxDelay``; a `Retry-After` header, when the answer has one, sets the wait
/// instead (a client per team, so no jitter is needed to spread a crowd). A request stops after ``maxAttempts``
/// tries, or as soon as the next wait would take the time spent waiting past ``maxWaiting``: Apple asking to come back
/// later than that ends the request at once rather than after a pointless sleep.
package struct RetryPolicy: Sendable, Equatable {
    /// Tries per request, the first included.
    package var maxAttempts: Int
    /// The most time spent waiting between the tries of one request.
    package var maxWaiting: Duration
    /// The wait after the first failed try.
    package var baseDelay: Duration
    /// The longest computed wait (a `Retry-After` may ask for more, within ``maxWaiting``).
    package var maxDelay: Duration

    /// - Throws: ``AppStoreServerAPIError/invalidConfiguration(_:)`` for bounds that make no sense.
    package init(
        maxAttempts: Int = 6,
        maxWaiting: Duration = .seconds(300),
        baseDelay: Duration = .seconds(1),
        maxDelay: Duration = .seconds(60)
    ) throws {
        guard maxAttempts >= 1 else {
            throw AppStoreServerAPIError.invalidConfiguration("a request needs at least 1 attempt, not \(maxAttempts)")
        }
        guard maxWaiting >= .zero, baseDelay >= .zero, maxDelay >= baseDelay else {
            throw AppStoreServerAPIError.invalidConfiguration(
                "retry waits must be 0 or more, the longest at least the first")
        }
        self.maxAttempts = maxAttempts
        self.maxWaiting = maxWaiting
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait before try `attempt + 1`, after `attempt` (from 1) tries failed; `retryAfter` is what the last answer
    /// asked for.
    package func delay(afterAttempt attempt: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter { return max(retryAfter, .zero) }
        var delay = baseDelay
        for _ in 1..<max(attempt, 1) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// The smallest number a `Retry-After` of digits is read as a UNIX time in milliseconds from; a smaller one is
    /// delay-seconds.
    ///
    /// Apple's App Store Server API sends a UNIX time in milliseconds ("Identifying rate limits": "This header contains
    /// a UNIX time, in milliseconds, that informs you when you can next send a request"); other servers send
    /// delay-seconds (RFC 9110). 10¹¹ splits the two without overlap: as milliseconds it is 1973-03-03, before any
    /// answer this code can get; as seconds it is more than 3,000 years, longer than any wait a server means.
    package static let epochMillisecondsFrom: Int64 = 100_000_000_000

    /// The instant `Retry-After: value`, received at `now`, allows the next request at; nil for a value that is none
    /// of the three forms.
    ///
    /// - digits of ``epochMillisecondsFrom`` or more: a UNIX time in milliseconds (Apple's form, `1767225600000`);
    /// - fewer digits: delay-seconds from `now` (`120`);
    /// - an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`).
    ///
    /// Signs, fractions, more digits than 64 bits hold, and any other text are not read.
    package static func retryAfterInstant(_ value: String, now: Date) -> Date? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = Int64(trimmed) else { return nil }
            if number >= epochMillisecondsFrom {
                return Date(timeIntervalSince1970: Double(number) / 1000)
            }
            return now.addingTimeInterval(Double(number))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: trimmed)
    }

    /// The wait `Retry-After: value` asks for at `now` (``retryAfterInstant(_:now:)``): the instant it names less
    /// `now`, and no wait for an instant already past; nil for a value that cannot be read.
    package static func retryAfter(_ value: String, now: Date) -> Duration? {
        guard let instant = retryAfterInstant(value, now: now) else { return nil }
        return wait(until: instant, now: now)
    }

    /// The time from `now` to `instant`, rounded up to the millisecond; zero for an instant already past.
    package static func wait(until instant: Date, now: Date) -> Duration {
        let seconds = instant.timeIntervalSince(now)
        guard seconds > 0 else { return .zero }
        // Beyond Int64 milliseconds is beyond any retry bound too.
        let milliseconds = min((seconds * 1000).rounded(.up), Double(Int64.max / 2))
        return .milliseconds(Int64(milliseconds))
    }
}
