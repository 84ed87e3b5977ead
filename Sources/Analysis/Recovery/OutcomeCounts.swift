/// Episodes counted by outcome, with the recovery rate of the closed ones.
package struct OutcomeCounts: Hashable, Sendable {
    package var episodes = 0
    package var recovered = 0
    package var expired = 0
    package var cancelled = 0
    package var other = 0
    package var open = 0

    package init() {}

    package mutating func add(_ episode: Episode) {
        episodes += 1
        switch episode.outcome {
        case .recovered: recovered += 1
        case .expired: expired += 1
        case .cancelled: cancelled += 1
        case .other: other += 1
        case .open: open += 1
        }
    }

    /// Episodes with an outcome other than `open`.
    package var closed: Int { recovered + expired + cancelled + other }

    /// recovered / (recovered + expired + cancelled + other); nil when none is closed.
    package var recoveryRate: Double? {
        closed == 0 ? nil : Double(recovered) / Double(closed)
    }
}
