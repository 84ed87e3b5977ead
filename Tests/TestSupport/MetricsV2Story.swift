/// A signed export that exercises every v2 episode rule, in two files (the second loaded later, for incremental
/// analyses). Days after ``SignedStories/dayZero``; Production; app `com.example` unless said otherwise.
///
/// | sub | product | t0 | grace | what happens | stored episode |
/// |---|---|---|---|---|---|
/// | A | monthly | 30 | 16 d, dated | BILLING_RECOVERY on day 35 | recovered (retry), saved |
/// | H | monthly | 40 | 16 d 11 h, dated | EXPIRED/BILLING_RETRY on day 100 (file 2) | expired |
/// | K | weekly | 20 | 6 d, dated | BILLING_RECOVERY on day 21 | recovered, saved |
/// | U | monthly | 50 | undated | BILLING_RECOVERY on day 70 | recovered; grace 16 d (file 1) → 28 d (file 2) |
/// | W | weekly | 52 | undated | BILLING_RECOVERY on day 60 | recovered after the weekly 6 d |
/// | Y | yearly | 54 | undated | EXPIRED/BILLING_RETRY on day 110 (file 2) | the app's length: 16 d, then 28 d |
/// | Q | other app | 56 | undated | BILLING_RECOVERY on day 57 | grace end unknown |
/// | L | monthly | 68 | | BILLING_RECOVERY on day 70, its failure notice on day 71 | late failure notice: recovered |
/// | S | monthly | | | DID_RENEW through day 40 on day 10, a failure notice for day 10 on day 12 | stale: none |
/// | N | monthly | 80 | | SUBSCRIBED on day 85 (3.99 USD); at stake 4.99 EUR | recovered (new_purchase) |
/// | M | monthly | 5 | | AUTO_RENEW_ENABLED on day 90, EXPIRED/BILLING_RETRY on day 91 | expired on day 65, inferred |
/// | O | monthly | 20 | | nothing more | open (expired on day 80 as of day 81 on) |
/// | T1, T2, T3 | semiannual | 60, 61, 62 | 3 d, 7 d, undated | BILLING_RECOVERY on day 64 | T3: 3 d (tie: shorter) |
/// | P (file 2) | monthly | 120 | | nothing more; at stake 4.99 EUR | open |
/// | R1–R3 (file 2) | monthly | 100–102 | 28 d, dated | nothing more | open |
/// | V (file 2) | quarterly | 103 | 16 d 12 h, dated (17 d) | nothing more | open |
/// | X (file 2) | quarterly | 104 | undated | BILLING_RECOVERY on day 121 | grace 17 d: saved on its last moment |
/// | Z (file 2) | monthly | | | DID_RENEW on day 130, the latest notification | |
package enum MetricsV2Story {
    package static let monthly = "com.example.monthly"
    package static let weekly = "com.example.weekly"
    package static let yearly = "com.example.yearly"
    package static let semiannual = "com.example.semiannual"
    package static let quarterly = "com.example.quarterly"

    /// The two files' export lines, signed by `stories`.
    package static func lines(_ stories: inout SignedStories) throws -> (first: [String], second: [String]) {
        let fail = "DID_FAIL_TO_RENEW"
        let inGrace = "GRACE_PERIOD"
        let renew = "DID_RENEW"
        let recovery = "BILLING_RECOVERY"
        let first = [
            try stories.line(
                "A", fail, inGrace, at: 30, expires: 30, grace: 46, renewalPrice: 2990, renewalCurrency: "USD"),
            try stories.line("A", renew, recovery, at: 35, expires: 65),
            try stories.line("H", fail, inGrace, at: 40, expires: 40, grace: 56, graceHours: 11),
            try stories.line("K", fail, inGrace, at: 20, product: weekly, expires: 20, grace: 26),
            try stories.line("K", renew, recovery, at: 21, product: weekly, expires: 27),
            try stories.line("U", fail, inGrace, at: 50, expires: 50),
            try stories.line("U", renew, recovery, at: 70, expires: 100),
            try stories.line("W", fail, inGrace, at: 52, product: weekly, expires: 52),
            try stories.line("W", renew, recovery, at: 60, product: weekly, expires: 67),
            try stories.line("Y", fail, inGrace, at: 54, product: yearly, expires: 54),
            try stories.line(
                "Q", fail, inGrace, at: 56, product: "com.other.monthly", expires: 56, bundleId: "com.other"),
            try stories.line("Q", renew, recovery, at: 57, product: "com.other.monthly", bundleId: "com.other"),
            try stories.line("L", renew, recovery, at: 70, expires: 98),
            try stories.line("L", fail, at: 71, expires: 68),
            try stories.line("S", renew, at: 10, expires: 40),
            try stories.line("S", fail, at: 12, expires: 10),
            try stories.line("N", fail, at: 80, expires: 80, renewalPrice: 4990, renewalCurrency: "EUR"),
            try stories.line("N", "SUBSCRIBED", "RESUBSCRIBE", at: 85, expires: 115, price: 3990),
            try stories.line("M", fail, at: 5, expires: 5),
            try stories.line("M", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", at: 90),
            try stories.line("M", "EXPIRED", "BILLING_RETRY", at: 91),
            try stories.line("O", fail, at: 20, expires: 20),
            try stories.line("T1", fail, inGrace, at: 60, product: semiannual, expires: 60, grace: 63),
            try stories.line("T1", renew, recovery, at: 64, product: semiannual),
            try stories.line("T2", fail, inGrace, at: 61, product: semiannual, expires: 61, grace: 68),
            try stories.line("T2", renew, recovery, at: 64, product: semiannual),
            try stories.line("T3", fail, inGrace, at: 62, product: semiannual, expires: 62),
            try stories.line("T3", renew, recovery, at: 64, product: semiannual),
        ]
        let second = [
            try stories.line("H", "EXPIRED", "BILLING_RETRY", at: 100),
            try stories.line("Y", "EXPIRED", "BILLING_RETRY", at: 110, product: yearly),
            try stories.line("P", fail, at: 120, expires: 120, renewalPrice: 4990, renewalCurrency: "EUR"),
            try stories.line("R1", fail, inGrace, at: 100, expires: 100, grace: 128),
            try stories.line("R2", fail, inGrace, at: 101, expires: 101, grace: 129),
            try stories.line("R3", fail, inGrace, at: 102, expires: 102, grace: 130),
            try stories.line("V", fail, inGrace, at: 103, product: quarterly, expires: 103, grace: 119, graceHours: 12),
            try stories.line("X", fail, inGrace, at: 104, product: quarterly, expires: 104),
            try stories.line("X", renew, recovery, at: 121, product: quarterly),
            try stories.line("Z", renew, at: 130, expires: 160),
        ]
        return (first, second)
    }
}
