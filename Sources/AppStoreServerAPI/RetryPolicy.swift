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

    /// The wait `Retry-After: value` asks for at `now`: delay-seconds (`120`) or an HTTP date
    /// (`Wed, 21 Oct 2026 07:28:00 GMT`); nil for anything else. A date in the past asks for no wait.
    package static func retryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            // Beyond Int64 is beyond any retry bound too.
            return .seconds(Int64(trimmed) ?? Int64(Int32.max))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
    }
}
