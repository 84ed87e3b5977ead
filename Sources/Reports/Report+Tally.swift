import Analysis

extension Report {
    /// Every figure of a report added up one finished episode at a time, so that episodes can stream through
    /// instead of being held: the tables' ``ChurnReport/Tally`` and the summary's groups, never an ``Episode``.
    package struct Tally: Sendable {
        package let asOf: Int64
        package let options: Options
        var figures: ChurnReport.Tally
        var all = EpisodeGroup()
        var byCohort: [CalendarPeriod: EpisodeGroup] = [:]
        var byProduct: [String: EpisodeGroup] = [:]
        var byStorefront: [String: EpisodeGroup] = [:]
        /// Episodes per bundle id ('' for none).
        var episodesByApp: [String: Int] = [:]
        var withGrace = EpisodeGroup()
        var withoutGrace = EpisodeGroup()
        var grace = GracePeriod.Counts()
        /// Grace episodes per grace length in whole days.
        var lengths: [Int: Int] = [:]
        var graceEndUnknown = 0

        /// - Parameters:
        ///   - asOf: the report's as-of time (Unix ms).
        ///   - options: cohorts, schedule, environment, rejections, the previous report's figures and the latest
        ///     data.
        package init(asOf: Int64, options: Options = Options()) {
            self.asOf = asOf
            self.options = options
            figures = ChurnReport.Tally(
                asOf: asOf,
                options: ChurnReport.Options(
                    granularity: options.granularity, schedule: options.schedule,
                    statedGraceChanges: options.statedGraceChanges))
        }

        /// Adds one finished episode (``EpisodeDataset/finish()``) of the report's scope.
        package mutating func add(_ episode: Episode) {
            figures.add(episode)
            all.add(episode, asOf: asOf)
            byCohort[episode.cohort(options.granularity), default: EpisodeGroup()].add(episode, asOf: asOf)
            byProduct[episode.productId ?? "", default: EpisodeGroup()].add(episode, asOf: asOf)
            byStorefront[episode.storefront ?? "", default: EpisodeGroup()].add(episode, asOf: asOf)
            episodesByApp[episode.bundleId ?? "", default: 0] += 1
            if episode.hasGrace {
                grace.add(episode, asOf: asOf)
                withGrace.add(episode, asOf: asOf)
                if let days = episode.graceDays { lengths[days, default: 0] += 1 }
                if episode.isGraceEndUnknown { graceEndUnknown += 1 }
            } else {
                withoutGrace.add(episode, asOf: asOf)
            }
        }

        /// The evaluation of the grace changes, for a second pass over the same episodes
        /// (``ChurnReport/Tally/graceChangeEvaluation``).
        package var graceChangeEvaluation: GraceChange.Evaluation { figures.graceChangeEvaluation }
    }
}
