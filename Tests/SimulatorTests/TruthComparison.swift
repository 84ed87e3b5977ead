import Analysis
import Simulator
import Testing

/// Expects the episode builder's episodes to be the ground truth's, episode by episode: the truth's Production
/// episodes of purchasers against a dataset of Production built as of the end of the history. Grace ends are
/// compared as dates, inferred ones too: right when the app has one grace setting (not `mixed`).
func expectBuilderMatchesTruth(
    _ dataset: EpisodeDataset,
    _ truth: [GroundTruthEpisode],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(dataset.episodes.count == truth.count, sourceLocation: sourceLocation)
    let built = Dictionary(dataset.episodes.map { ($0.openingNotificationUUID, $0) }) { first, _ in first }
    for expected in truth {
        guard let episode = built[expected.openingNotificationUUID] else {
            Issue.record("no episode opened by \(expected.openingNotificationUUID)", sourceLocation: sourceLocation)
            continue
        }
        #expect(episode.subscription == expected.subscription, sourceLocation: sourceLocation)
        #expect(episode.sequence == expected.sequence, sourceLocation: sourceLocation)
        #expect(episode.productId == expected.productId, sourceLocation: sourceLocation)
        #expect(episode.storefront == expected.storefront, sourceLocation: sourceLocation)
        #expect(episode.start == expected.start, sourceLocation: sourceLocation)
        #expect(episode.hasGrace == (expected.graceEnd != nil), sourceLocation: sourceLocation)
        #expect(episode.graceEnd == expected.graceEnd, sourceLocation: sourceLocation)
        #expect(episode.graceEndInferred == expected.isGraceEndInferred, sourceLocation: sourceLocation)
        #expect(episode.endInferred == expected.isEndInferred, sourceLocation: sourceLocation)
        #expect(episode.end == expected.end, sourceLocation: sourceLocation)
        #expect(episode.outcome == expected.outcome, sourceLocation: sourceLocation)
        #expect(episode.recoveredBy == expected.recoveredBy, sourceLocation: sourceLocation)
        #expect(episode.recoveryPrice == expected.recoveryPrice, sourceLocation: sourceLocation)
        #expect(episode.recoveryCurrency == expected.currency, sourceLocation: sourceLocation)
        #expect(episode.closingNotificationUUID == expected.closingNotificationUUID, sourceLocation: sourceLocation)
        #expect(episode.isTrialConversion == expected.isTrialConversion, sourceLocation: sourceLocation)
        #expect(episode.stakePrice == expected.stakePrice, sourceLocation: sourceLocation)
        #expect(episode.stakeCurrency == expected.stakeCurrency, sourceLocation: sourceLocation)
        #expect(episode.isMature(asOf: dataset.asOf) == expected.isMature, sourceLocation: sourceLocation)
    }
}

/// Expects the builder's data-quality checks of Apple's quirks to count what the truth says happened.
func expectQuirkCountsMatchTruth(
    _ dataset: EpisodeDataset,
    _ truth: [GroundTruthEpisode],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let quality = dataset.dataQuality
    #expect(quality.lateFailureNotice == truth.count(where: \.isLateFailureNotice), sourceLocation: sourceLocation)
    #expect(quality.staleFailureNotice == truth.reduce(0) { $0 + $1.staleNotices }, sourceLocation: sourceLocation)
    #expect(quality.graceEndInferred == truth.count(where: \.isGraceEndInferred), sourceLocation: sourceLocation)
    #expect(quality.inferredExpiry == truth.count(where: \.isEndInferred), sourceLocation: sourceLocation)
    #expect(quality.graceEndUnknown == 0, sourceLocation: sourceLocation)
    #expect(quality.orphanDidRenewBillingRecovery == 0, sourceLocation: sourceLocation)
    #expect(quality.orphanExpiredBillingRetry == 0, sourceLocation: sourceLocation)
    #expect(quality.orphanGracePeriodExpired == 0, sourceLocation: sourceLocation)
}
