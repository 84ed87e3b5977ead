import Analysis
import Reports
import Testing

@Suite struct DataQualityTableTests {
    @Test func everyCheckThenRejectionsByReason() {
        let counts = DataQualityCounts(
            duplicatesSkipped: 4, outsideEnvironment: 3, familySharedSkipped: 2, orphanDidRenewBillingRecovery: 5,
            orphanExpiredBillingRetry: 6, orphanGracePeriodExpired: 0, staleFailureNotice: 7, lateFailureNotice: 8,
            inferredExpiry: 1, graceEndInferred: 9, graceEndUnknown: 10
        )
        let table = DataQuality.table(
            DataQuality.rows(counts: counts, rejections: ["malformed_json": 1, "bad_signature": 2]))
        #expect(table.name == "data_quality.csv")
        #expect(table.columns == ["check", "count"])
        #expect(
            lines(table) == [
                "duplicates_skipped,4",
                "outside_environment,3",
                "family_shared_skipped,2",
                "orphan_did_renew_billing_recovery,5",
                "orphan_expired_billing_retry,6",
                "orphan_grace_period_expired,0",
                "stale_failure_notice,7",
                "late_failure_notice,8",
                "inferred_expiry,1",
                "grace_end_inferred,9",
                "grace_end_unknown,10",
                "rejected_bad_signature,2",
                "rejected_malformed_json,1",
            ])
    }
}
