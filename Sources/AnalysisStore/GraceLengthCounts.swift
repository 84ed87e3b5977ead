import Analysis

/// The usual grace length of each product and app, decided from counts the database aggregates: the same rule as
/// ``GraceLengths`` (METRICS.md, "Grace without a date"), which counts episode values in memory.
///
/// ``EpisodeAnalyzer`` dates the stored grace periods without a `gracePeriodExpiresDate` with it, so that
/// `billing_episodes` and the `episodes` view show the grace ends reports infer. A test holds the two equal.
package struct GraceLengthCounts: Hashable, Sendable {
    /// Dated grace episodes of one product and app with one length.
    package struct Row: Hashable, Sendable {
        package var productId: String?
        package var bundleId: String?
        /// ⌊(grace_end − t0) / 24 h + ½⌋ (``GraceLengths/days(from:to:)``).
        package var days: Int
        package var episodes: Int

        package init(productId: String?, bundleId: String?, days: Int, episodes: Int) {
            self.productId = productId
            self.bundleId = bundleId
            self.days = days
            self.episodes = episodes
        }
    }

    /// Whole days → dated episodes, per product id.
    private var byProduct: [String: [Int: Int]] = [:]
    /// Whole days → dated episodes, per bundle id.
    private var byBundle: [String: [Int: Int]] = [:]

    /// Sums the rows per product and per app; rows may repeat a product, app and length.
    package init(_ rows: [Row]) {
        for row in rows {
            if let product = row.productId { byProduct[product, default: [:]][row.days, default: 0] += row.episodes }
            if let bundle = row.bundleId { byBundle[bundle, default: [:]][row.days, default: 0] += row.episodes }
        }
    }

    /// The grace length in whole days for an episode of `productId` in the app `bundleId`: the product's most
    /// frequent length, else the app's (ties: the shorter); nil when neither has a dated episode.
    package func length(productId: String?, bundleId: String?) -> Int? {
        if let productId, let counts = byProduct[productId], let days = Self.mode(counts) { return days }
        if let bundleId, let counts = byBundle[bundleId], let days = Self.mode(counts) { return days }
        return nil
    }

    /// The most frequent length; ties go to the shorter.
    private static func mode(_ counts: [Int: Int]) -> Int? {
        counts.filter { $0.value > 0 }.min { lhs, rhs in
            lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key
        }?.key
    }
}
