import Analysis
import Reports
import Testing

/// The CSV tables of the billing-issue life of one Sandbox subscription (`BillingLifecycle`).
@Suite struct BillingLifecycleTablesTests {
    @Test func renderedReport() {
        let tables = ChurnReport(Lifecycle.dataset(Lifecycle.events.reversed()), rejections: ["bad_signature": 1])
            .tables
        let csv = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, CSVWriter.render($0)) })

        // Mature: the March episode (t0 2024-03-31 + 61 days = 2024-05-31 ≤ as-of 2024-07-19); the May one
        // (t0 2024-05-20 + 61 days = 2024-07-20) is not. Wilson for 1 of 1: 1/(1 + z²) = 0.206549, 1.
        #expect(
            csv["recovery_by_cohort.csv"] == """
                cohort,product_id,episodes,recovered,expired,cancelled,other,open,recovery_rate,mature_episodes,\
                mature_recovered,mature_recovery_rate,mature_recovery_rate_low,mature_recovery_rate_high
                2024-03,com.example.monthly,1,1,0,0,0,0,1.000000,1,1,1.000000,0.206549,1.000000
                2024-03,(all),1,1,0,0,0,0,1.000000,1,1,1.000000,0.206549,1.000000
                2024-05,com.example.monthly,1,0,1,0,0,0,0.000000,0,0,,,
                2024-05,(all),1,0,1,0,0,0,0.000000,0,0,,,
                (all),com.example.monthly,2,1,1,0,0,0,0.500000,1,1,1.000000,0.206549,1.000000
                (all),(all),2,1,1,0,0,0,0.500000,1,1,1.000000,0.206549,1.000000

                """)
        #expect(
            csv["grace_period.csv"] == """
                cohort,grace_episodes,saved_in_grace,recovered_after_grace,expired,cancelled,other,open,save_rate
                2024-03,1,0,1,0,0,0,0,0.000000
                (all),1,0,1,0,0,0,0,0.000000

                """)
        #expect(csv["grace_revenue.csv"] == "currency,saved_episodes,revenue_saved\n")
        // Aalen–Johansen: t=20d n=2 r=1 → CIF 0.5, S 0.5; t=60d n=1 expired → CIF stays 0.5.
        let curve = csv["recovery_curve.csv"]?.split(separator: "\n").map(String.init) ?? []
        #expect(curve.count == 61)
        #expect(curve.first == "day,at_risk,recovered,cif_recovery")
        #expect(curve[19] == "19,2,0,0.000000")
        #expect(curve[20] == "20,2,1,0.500000")
        #expect(curve[21] == "21,2,1,0.500000")
        #expect(curve[22] == "22,1,1,0.500000")
        #expect(curve[60] == "60,1,1,0.500000")
        // Durations 480 h (recovered, on band 3's message at 480 h) and 1440 h (expired):
        //   band 1: both exposed 72 h, 3 msgs each → exposure 6 d.
        //   band 2: both 312 h, 5 msgs each → 26 d.
        //   band 3: 96 h + 336 h = 18 d; msgs 1 + 4 = 5; hazard 1/18 = 0.055556; per 1000 msgs 1000/5 = 200.
        //   band 4: 720 h = 30 d, 6 msgs.
        // Life table: the March episode is at risk on days 1–21 (⌊480/24⌋ + 1) except day 17, which holds its
        // grace end (16 days), and recovers on day 21; the May one on days 1–60 (61 is past the table).
        //   band 2: M {7, 10, 13} T 6 R 0; C {6, 8, 9, 11, 12, 14} T 12 R 0 → hazards 0 and 0, no ratio.
        //   band 3: M {21, 25, 29} T 2 + 1 + 1 = 4 R 1 → 0.25; C {20, 22, …, 30} T 2 + 5 = 7 R 0 → 0, no ratio.
        //   band 4: M T 5 R 0; C T 10 R 0 → 0 and 0, no ratio.
        //   (all): R_M 1 / T_M 15 = 0.066667; R_C 0 / T_C 29 = 0; Mantel–Haenszel denominator 0 → no ratio.
        //   The strata (each message day with its two neighbours) hold the same counts: day 17, the March
        //   episode's grace end, is in none of them.
        #expect(
            csv["message_bands.csv"] == """
                band,first_day,last_day,interval_hours,episodes_entering,messages,recoveries,exposure_days,\
                hazard_per_day,recoveries_per_1000_messages,message_day_hazard,other_day_hazard,hazard_ratio,\
                hazard_ratio_low,hazard_ratio_high
                1,1,3,24,2,6,0,6.000000,0.000000,0.00,,,,,
                2,4,16,72,2,10,0,26.000000,0.000000,0.00,0.000000,0.000000,,,
                3,17,30,96,2,5,1,18.000000,0.055556,200.00,0.250000,0.000000,,,
                4,31,60,120,1,6,0,30.000000,0.000000,0.00,0.000000,0.000000,,,
                (all),,,,,,,,,,0.066667,0.000000,,,

                """)
        let retryDays = csv["retry_days.csv"]?.split(separator: "\n").map(String.init) ?? []
        #expect(retryDays.count == 61)
        #expect(retryDays[0] == "day,message_day,at_risk,recoveries,hazard,hazard_low,hazard_high")
        #expect(retryDays[16] == "16,true,2,0,0.000000,0.000000,0.657620")
        #expect(retryDays[17] == "17,true,1,0,0.000000,0.000000,0.793451")
        // 1 of 2: 0.094531, 0.905469.
        #expect(retryDays[21] == "21,true,2,1,0.500000,0.094531,0.905469")
        #expect(retryDays[22] == "22,false,1,0,0.000000,0.000000,0.793451")
        #expect(retryDays[60] == "60,false,1,0,0.000000,0.000000,0.793451")
        // Recovered 9.990 USD after grace; expired with 9.990 USD at stake.
        #expect(
            csv["revenue.csv"] == """
                currency,recovered_episodes,recovered_amount,saved_in_grace_amount,expired_episodes,lost_amount,\
                open_episodes,at_risk_amount,expected_recoveries,expected_recovered_amount,commitment_open_episodes,\
                commitment_amount_at_risk,commitment_amount_lost
                USD,1,9.990,0.000,1,9.990,0,0.000,0.000000,0.000,0,0.000,0.000

                """)
        // Only the March episode is mature: recovered by retry after 20 days; its product's grace length is 16 days
        // (its own dated grace period), no episode follows a free trial, so both 16-day settings fit. 3 and 16 days:
        // 20 days > L, so not recovered in grace; it had L free days. 28 days: 20 ≤ 28, recovered in grace, 20 paid
        // days kept, no free access. Off: nothing either way. A day is worth 9.990 / 30 = 0.333 (the product's paid
        // period is 30 days). The app is `com.example`.
        #expect(
            csv["grace_whatif.csv"] == """
                bundle_id,setting,renewal_type,product_id,grace_days,current,mature_episodes,recovered_in_grace,\
                paid_days_kept,free_access_days,paid_days_kept_per_episode,free_access_days_per_episode,\
                paid_amount_kept,free_access_amount
                com.example,off,,com.example.monthly,0,false,1,0,0.000000,0.000000,0.000000,0.000000,0.000,0.000
                com.example,off,,(all),,false,1,0,0.000000,0.000000,0.000000,0.000000,0.000,0.000
                com.example,3,all_renewals,com.example.monthly,3,false,1,0,0.000000,3.000000,0.000000,3.000000,0.000,0.999
                com.example,3,all_renewals,(all),,false,1,0,0.000000,3.000000,0.000000,3.000000,0.000,0.999
                com.example,3,paid_to_paid_only,com.example.monthly,3,false,1,0,0.000000,3.000000,0.000000,3.000000,0.000,0.999
                com.example,3,paid_to_paid_only,(all),,false,1,0,0.000000,3.000000,0.000000,3.000000,0.000,0.999
                com.example,16,all_renewals,com.example.monthly,16,true,1,0,0.000000,16.000000,0.000000,16.000000,0.000,5.328
                com.example,16,all_renewals,(all),,true,1,0,0.000000,16.000000,0.000000,16.000000,0.000,5.328
                com.example,16,paid_to_paid_only,com.example.monthly,16,true,1,0,0.000000,16.000000,0.000000,16.000000,0.000,5.328
                com.example,16,paid_to_paid_only,(all),,true,1,0,0.000000,16.000000,0.000000,16.000000,0.000,5.328
                com.example,28,all_renewals,com.example.monthly,28,false,1,1,20.000000,0.000000,20.000000,0.000000,6.660,0.000
                com.example,28,all_renewals,(all),,false,1,1,20.000000,0.000000,20.000000,0.000000,6.660,0.000
                com.example,28,paid_to_paid_only,com.example.monthly,28,false,1,1,20.000000,0.000000,20.000000,0.000000,6.660,0.000
                com.example,28,paid_to_paid_only,(all),,false,1,1,20.000000,0.000000,20.000000,0.000000,6.660,0.000

                """)
        // March episode: t0 2024-03-31 (W13), recovered after grace 2024-04-20 (W16). May episode: t0 2024-05-20
        // (W21), expired 2024-07-19 00:00 (W29), the as-of time itself: c = as-of there, and a flow time ≥ c
        // counts as still in retry.
        let quiet = "0,0,0,0,0,0,0"
        let flows = csv["flows.csv"]?.split(separator: "\n").map(String.init) ?? []
        #expect(
            flows == [
                "week,entered,recovered_in_grace,recovered_after_grace,recovered_without_grace,expired,cancelled,"
                    + "other,in_retry_at_week_end",
                "2024-W13,1,0,0,0,0,0,0,1", "2024-W14,\(quiet),1", "2024-W15,\(quiet),1", "2024-W16,0,0,1,0,0,0,0,0",
                "2024-W17,\(quiet),0", "2024-W18,\(quiet),0", "2024-W19,\(quiet),0", "2024-W20,\(quiet),0",
                "2024-W21,1,0,0,0,0,0,0,1", "2024-W22,\(quiet),1", "2024-W23,\(quiet),1", "2024-W24,\(quiet),1",
                "2024-W25,\(quiet),1", "2024-W26,\(quiet),1", "2024-W27,\(quiet),1", "2024-W28,\(quiet),1",
                "2024-W29,0,0,0,0,1,0,0,1",
            ])
        #expect(
            csv["billing_failures.csv"] == """
                month,episodes_started,renewals,billing_failure_rate
                2024-03,1,0,1.000000
                2024-05,1,0,1.000000
                (all),2,0,1.000000

                """)
        #expect(
            csv["data_quality.csv"] == """
                check,count
                duplicates_skipped,0
                outside_environment,0
                family_shared_skipped,0
                orphan_did_renew_billing_recovery,0
                orphan_expired_billing_retry,0
                orphan_grace_period_expired,0
                stale_failure_notice,0
                late_failure_notice,0
                inferred_expiry,0
                grace_end_inferred,0
                grace_end_unknown,0
                rejected_bad_signature,1

                """)
        #expect(
            tables.map(\.name) == [
                "recovery_by_cohort.csv", "recovery_curve.csv", "grace_period.csv", "grace_revenue.csv",
                "message_bands.csv", "retry_days.csv", "revenue.csv", "open_episodes.csv", "forecast_check.csv",
                "grace_whatif.csv", "returns.csv", "flows.csv", "billing_failures.csv", "data_quality.csv",
            ])
    }
}
