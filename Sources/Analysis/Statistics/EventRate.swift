/// Events over the time at risk they happened in, such as recoveries over episode-days in retry.
package struct EventRate: Hashable, Sendable {
    /// R: the events counted.
    package var events: Int
    /// T: the time at risk, in whole units (episode-days).
    package var atRisk: Int

    package init(events: Int = 0, atRisk: Int = 0) {
        self.events = events
        self.atRisk = atRisk
    }

    /// R / T; nil when T is 0.
    package var rate: Double? {
        atRisk == 0 ? nil : Double(events) / Double(atRisk)
    }

    /// Adds another count of events and time at risk.
    package mutating func add(_ other: EventRate) {
        events += other.events
        atRisk += other.atRisk
    }
}
