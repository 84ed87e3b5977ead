#!/usr/bin/env bash
# The demo: start the embedded PostgreSQL, simulate a realistic signed export, run the nightly job on it twice
# (the second run finds nothing new) and show where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
churn=.build/release/churn
export_dir=data/demo

echo "== starting the embedded PostgreSQL (in $CHURN_HOME)"
"$churn" db start
echo

if [ ! -f "$export_dir/export.jsonl" ]; then
    echo "== simulating a signed export of 3,000 subscribers (a test CA signs it; its root is written beside it),"
    echo "   the app's grace setting going from 16 to 28 days on 2025-07-01, and the app's log of the billing-issue sheet"
    mkdir -p "$export_dir"
    "$churn" simulate --subscribers 3000 --seed 2026 --grace 16 --grace-renewals paid-to-paid --commitment-rate 0.2 \
        --grace-change 2025-07-01:28 --message-log --sheet-effect 1.5 --out "$export_dir/export.jsonl"
    echo
fi

if [ -f "$export_dir/export.messages.csv" ]; then
    echo "== churn messages load: the app's log of the billing-issue sheet (stored once, however often loaded)"
    "$churn" messages load "$export_dir/export.messages.csv"
    echo
fi

echo "== churn nightly: load and verify, rebuild episodes, write the report"
"$churn" nightly --verbose --trust-root "$export_dir/export.root.der" "$export_dir"
echo
echo "== churn nightly again: nothing new is loaded, the report is identical"
"$churn" nightly --verbose --trust-root "$export_dir/export.root.der" "$export_dir"
echo
echo "== stored (Production; the export holds some Sandbox traffic too, which reports keep apart)"
psql "$("$churn" db url)" -c "SELECT count(*) AS notifications, count(DISTINCT original_transaction_id) AS subscriptions FROM notifications WHERE environment = 'Production'" \
    -c "SELECT outcome, count(*) AS episodes FROM episodes WHERE environment = 'Production' GROUP BY 1 ORDER BY 2 DESC"
echo "The report:     reports/latest/summary.md  (CSV files beside it)"
echo "Ask questions:  $churn query recovery-rate --group-by cohort-month"
echo "Explore in SQL: psql \"\$($churn db url)\""
