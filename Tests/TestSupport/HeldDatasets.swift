import Analysis
import AnalysisStore
import PGClient

/// Whole datasets held in memory, for tests that compare what the streaming readers give with every episode at
/// once. The tool itself never holds them: its reports and queries stream.
extension StoredDataset {
    /// The episodes stored by `EpisodeAnalyzer` for `environment`, finished as of `asOf`, with the dataset's counts.
    package func stored(environment: String, asOf: Int64) throws -> EpisodeDataset {
        var episodes: [Episode] = []
        var dataset = try streamStored(environment: environment, asOf: asOf) { episodes.append($0) }
        dataset.episodes = episodes
        return dataset
    }

    /// The episodes built afresh from the notifications signed at or before `asOf`, by subscription, finished once
    /// all are built (the order and the finishing `EpisodeDataset.finish()` gives a held dataset).
    package func build(environment: String, asOf: Int64, reader: PGConnection) throws -> EpisodeDataset {
        var dataset = EpisodeDataset(asOf: asOf)
        try forEachSubscription(environment: environment, asOf: asOf, reader: reader) { dataset.add($0) }
        dataset.dataQuality.add(try loadQuality(environment: environment, asOf: asOf).counts)
        dataset.finish()
        return dataset
    }
}

extension EpisodeQuery {
    /// The stored episodes that pass the filter, as `EpisodeAnalyzer` last built them (open however old).
    package func storedEpisodes(_ connection: PGConnection) throws -> [Episode] {
        var episodes: [Episode] = []
        try forEachStoredEpisode(connection) { episodes.append($0) }
        return episodes
    }

    /// The episodes in scope as of `asOf` (nil: the latest `signedDate` loaded), or nil when nothing is loaded.
    /// Only `asOf` and `episodes` of the result are filled in.
    package func dataset(asOf: Int64?, connection: PGConnection, reader: PGConnection) throws -> EpisodeDataset? {
        guard let scope = try scope(asOf: asOf, connection: connection) else { return nil }
        var episodes: [Episode] = []
        try forEachEpisode(in: scope, connection: connection, reader: reader) { episodes.append($0) }
        return EpisodeDataset(asOf: scope.asOf, episodes: episodes)
    }
}
