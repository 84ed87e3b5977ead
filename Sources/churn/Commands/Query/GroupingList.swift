import Analysis
import ArgumentParser
import Foundation

/// One `--group-by` value: one attribute or several separated by commas.
struct GroupingList: ExpressibleByArgument {
    var groupings: [EpisodeGrouping]

    init?(argument: String) {
        var groupings: [EpisodeGrouping] = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let grouping = EpisodeGrouping(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                return nil
            }
            groupings.append(grouping)
        }
        self.groupings = groupings
    }

    static var allValueStrings: [String] {
        EpisodeGrouping.allCases.map(\.rawValue)
    }
}
