import Analysis
import Reports
import Testing

/// A report keeps figures, never episodes, and what it keeps does not grow with the number of episodes; the tally
/// that episodes stream through keeps at most a few numbers per episode. So `churn report` can stream the stored
/// episodes instead of holding them, and its memory stays small however many there are.
@Suite struct ReportMemoryTests {
    /// Each value the tally keeps per episode is one node of the walk; an episode itself would be more than 20.
    static let nodesPerEpisode = 8

    @Test func theWalkFindsTheEpisodesOfADataset() {
        let dataset = Sample.dataset()
        #expect(!dataset.episodes.isEmpty)
        #expect(Self.episodePaths(in: dataset, path: "dataset").count == 1)
        #expect(Self.episodePaths(in: dataset.episodes, path: "episodes").count == dataset.episodes.count)
    }

    @Test func aReportHoldsNoEpisode() {
        let report = Report(dataset: Sample.dataset(), options: .init(rejections: Sample.rejections))
        #expect(Self.episodePaths(in: report, path: "report") == [])
    }

    @Test func theTallyHoldsNoEpisode() {
        let dataset = Sample.dataset()
        var tally = Report.Tally(asOf: dataset.asOf)
        for episode in dataset.episodes { tally.add(episode) }
        #expect(Self.episodePaths(in: tally, path: "tally") == [])
    }

    /// Only the list of open episodes (`open_episodes.csv`, one row each by design) grows with them.
    @Test func aReportOfMoreCopiesOfTheSameEpisodesIsNoLargerButForItsOpenEpisodes() {
        let dataset = Sample.dataset()
        let once = Report(dataset: dataset)
        let thrice = Report(dataset: Self.copies(3, of: dataset))
        #expect(thrice.outcomes.episodes == 3 * once.outcomes.episodes)
        let open = dataset.episodes.filter(\.isOpen).count
        #expect(open > 0)
        let growth = Self.nodes(in: thrice) - Self.nodes(in: once)
        #expect(
            growth > 0 && growth <= 2 * open * Self.nodesPerOpenEpisode, "\(growth) nodes for \(2 * open) open rows")
    }

    /// The values of one row of the open-episode list, each optional and string a node or two: far fewer than the
    /// 60 and more of an episode.
    static let nodesPerOpenEpisode = 40

    @Test func theTallyGrowsByAFewNumbersPerEpisode() {
        let dataset = Sample.dataset()
        let once = Self.nodes(in: Self.tally(dataset))
        let thrice = Self.nodes(in: Self.tally(Self.copies(3, of: dataset)))
        #expect(thrice > once)
        #expect(thrice - once <= Self.nodesPerEpisode * 2 * dataset.episodes.count)
    }

    /// `churn query` streams the episodes in scope through its question's tally, grouped or not.
    @Test(arguments: EpisodeQuestion.Kind.allCases.filter { $0 != .episodes })
    func aQuestionsTallyHoldsNoEpisode(_ kind: EpisodeQuestion.Kind) {
        let dataset = Sample.dataset()
        for grouping in [[], [EpisodeGrouping.product, .cohortMonth]] {
            var tally = EpisodeQuestion.Tally(EpisodeQuestion(kind, grouping: grouping), asOf: dataset.asOf)
            for episode in dataset.episodes { tally.add(episode) }
            #expect(Self.episodePaths(in: tally, path: "tally") == [])
            #expect(!tally.answer.isEmpty)
        }
    }

    /// `churn query episodes --limit N` keeps the first N episodes of each group, not every episode.
    @Test func theEpisodesQuestionKeepsItsLimitOfEachGroup() {
        let dataset = Sample.dataset()
        let products = Set(dataset.episodes.map(\.productId))
        #expect(products.count > 1)
        var tally = EpisodeQuestion.Tally(
            EpisodeQuestion(.episodes, grouping: [.product], limit: 1), asOf: dataset.asOf)
        for episode in dataset.episodes { tally.add(episode) }
        #expect(Self.episodePaths(in: tally, path: "tally").count == products.count)
        #expect(dataset.episodes.count > products.count)
    }

    private static func tally(_ dataset: EpisodeDataset) -> Report.Tally {
        var tally = Report.Tally(asOf: dataset.asOf)
        for episode in dataset.episodes { tally.add(episode) }
        return tally
    }

    /// `count` copies of every episode, each copy under its own subscriptions.
    private static func copies(_ count: Int, of dataset: EpisodeDataset) -> EpisodeDataset {
        var copied = dataset
        copied.episodes = (0..<count).flatMap { copy in
            dataset.episodes.map { episode in
                var episode = episode
                episode.subscription += "-r\(copy)"
                return episode
            }
        }
        return copied
    }

    /// Where `value` holds an episode, a dataset or a subscription's episodes, as paths of stored properties.
    private static func episodePaths(in value: Any, path: String, depth: Int = 0) -> [String] {
        if value is Episode || value is EpisodeDataset || value is SubscriptionEpisodes { return [path] }
        guard depth < 30 else { return [] }
        return Mirror(reflecting: value).children.enumerated().flatMap { index, child in
            episodePaths(in: child.value, path: path + "." + (child.label ?? "\(index)"), depth: depth + 1)
        }
    }

    /// The values `value` holds, counted through its stored properties and elements.
    private static func nodes(in value: Any, depth: Int = 0) -> Int {
        guard depth < 30 else { return 1 }
        return 1 + Mirror(reflecting: value).children.reduce(0) { $0 + nodes(in: $1.value, depth: depth + 1) }
    }
}
