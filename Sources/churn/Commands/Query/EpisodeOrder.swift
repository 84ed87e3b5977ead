import ArgumentParser

/// `--first-episode` / `--repeat-episode`.
enum EpisodeOrder: String, EnumerableFlag {
    case firstEpisode
    case repeatEpisode

    static func help(for value: EpisodeOrder) -> ArgumentHelp? {
        switch value {
        case .firstEpisode: return "Only a subscription's first episode (sequence 1)."
        case .repeatEpisode: return "Only a subscription's later episodes (sequence 2 and up)."
        }
    }
}
