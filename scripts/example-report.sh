#!/usr/bin/env bash
# Regenerates docs/example-report/: the report of the demo's simulated export (3,000 subscribers, seed 2026, 16-day
# grace for paid-to-paid renewals, 28 days from 2025-07-01, a fifth of the annual purchasers on a monthly plan with a
# 12-month commitment, and the app's log of the billing-issue sheet, a shown day 1.5 times as likely to recover), made
# with a cluster and a reports root of its own, so that it compares with no earlier report and touches neither .churn/
# nor reports/. CHURN names the binary (default .build/release/churn).
set -euo pipefail
cd "$(dirname "$0")/.."
churn=${CHURN:-.build/release/churn}
work=$(mktemp -d)
# When run as root the server runs as the postgres user, which must reach the cluster's directory.
chmod 755 "$work"
export CHURN_HOME="$work/cluster"
unset DATABASE_URL PGHOST PGHOSTADDR PGDATABASE PGSERVICE
trap '"$churn" db stop > /dev/null 2>&1 || true; rm -rf "$work"' EXIT

mkdir -p "$work/export"
"$churn" simulate --subscribers 3000 --seed 2026 --grace 16 --grace-renewals paid-to-paid --commitment-rate 0.2 \
    --grace-change 2025-07-01:28 --message-log --sheet-effect 1.5 --out "$work/export/export.jsonl" \
    > /dev/null
"$churn" load --quiet --trust-root "$work/export/export.root.der" "$work/export/export.jsonl"
"$churn" messages load --quiet "$work/export/export.messages.csv"
rm -rf docs/example-report
"$churn" report --reports-root "$work/reports" --out docs/example-report
