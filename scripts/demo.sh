#!/usr/bin/env bash
# The demo: start the embedded PostgreSQL, make a sample export, load it (twice: the second load stores
# nothing new) and show what was stored.
set -euo pipefail
cd "$(dirname "$0")/.."
churn=.build/release/churn
mkdir -p data/demo

# A sample export: the billing-lifecycle notifications (signed by Apple's test PKI) as JSON Lines.
export_file=data/demo/export.jsonl
: > "$export_file"
for jws in Tests/IngestTests/Fixtures/0*.jws; do
    printf '{"signedPayload":"%s"}\n' "$(tr -d '\n' < "$jws")" >> "$export_file"
done
trust=Tests/IngestTests/Fixtures/testCA.der

echo "== starting the embedded PostgreSQL (in $CHURN_HOME)"
"$churn" db start
echo
echo "== loading $export_file (signatures verified against Apple's test CA)"
"$churn" load --trust-root "$trust" "$export_file"
echo
echo "== loading it again: nothing new is stored"
"$churn" load --trust-root "$trust" "$export_file"
echo
echo "== what is stored"
psql "$("$churn" db url)" -c "SELECT notification_type, subtype, signed_date, original_transaction_id, price, currency FROM notifications ORDER BY signed_date"
echo "Explore it yourself:  psql \"\$($churn db url)\""
