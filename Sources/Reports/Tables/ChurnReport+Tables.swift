import Analysis

extension ChurnReport {
    /// One table per report file, in the order of METRICS.md's file list.
    package var tables: [ReportTable] {
        [
            RecoveryByCohort.table(recoveryByCohort),
            RecoveryCurve.table(recoveryCurve),
            GracePeriod.table(gracePeriod),
            GraceRevenue.table(graceRevenue),
            MessageBands.table(messageBands, schedule: options.schedule),
            RetryDays.table(retryDays),
            Revenue.table(revenue),
            OpenEpisodes.table(openEpisodes),
            ForecastCheck.table(forecastCheck),
            GraceWhatIf.table(graceWhatIf),
            Flows.table(flows),
            BillingFailures.table(billingFailures),
            DataQuality.table(dataQuality),
        ]
    }
}
