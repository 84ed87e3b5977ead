/// Grace vs no grace: the outcomes and `recovery_rate` of episodes with and without a grace period, side by side.
///
/// METRICS.md names no file for it; the Markdown summary shows it.
package struct GraceComparison: Hashable, Sendable {
    package var withGrace = OutcomeCounts()
    package var withoutGrace = OutcomeCounts()

    package init(episodes: [Episode]) {
        for episode in episodes {
            if episode.hasGrace {
                withGrace.add(episode)
            } else {
                withoutGrace.add(episode)
            }
        }
    }
}
