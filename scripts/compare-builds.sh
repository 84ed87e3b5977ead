#!/usr/bin/env bash
# Compares what two builds of churn print and write for the same data: every report file and every `churn query`
# answer in every format, on a simulated export (and, with SEEDS, on several), each build with a cluster of its own.
# For changes that must not move a byte (a restructuring); prints the differing files and exits 1 if any.
#
#   scripts/compare-builds.sh OLD_CHURN NEW_CHURN
#   SUBSCRIBERS=600 SEEDS="1 2 3" scripts/compare-builds.sh /tmp/base/churn .build/debug/churn
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OLD_CHURN NEW_CHURN" >&2; exit 64; }
old=$(realpath "$1")
new=$(realpath "$2")
subscribers=${SUBSCRIBERS:-600}
seeds=${SEEDS:-"2026 7"}
work=$(mktemp -d)
chmod 755 "$work"
unset DATABASE_URL PGHOST PGHOSTADDR PGDATABASE PGSERVICE
cleanup() {
    for home in "$work"/old/cluster-* "$work"/new/cluster-*; do
        [ -d "$home" ] && CHURN_HOME="$home" "$new" db stop > /dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

questions=(recovery-rate recovery-curve grace-saves message-bands retry-days revenue grace-whatif flows episodes
    open-episodes)
formats=(table csv json markdown)

# Everything one build prints and writes for one export, into $work/<side>/out/<seed>/.
run_side() {
    local side=$1 churn=$2 seed=$3
    local out="$work/$side/out/$seed"
    mkdir -p "$out"
    export CHURN_HOME="$work/$side/cluster-$seed"
    "$churn" load --quiet --trust-root "$work/export-$seed/export.root.der" "$work/export-$seed/export.jsonl"
    "$churn" report --reports-root "$work/$side/reports-$seed" --out "$out/report" > /dev/null
    "$churn" report --reports-root "$work/$side/reports-$seed" --out "$out/report-asof" --as-of 2025-09-30 \
        --granularity week > /dev/null
    for question in "${questions[@]}"; do
        for format in "${formats[@]}"; do
            "$churn" query "$question" --format "$format" > "$out/$question.$format" 2>&1 || true
            "$churn" query "$question" --group-by product --as-of 2025-10-31 --format "$format" \
                > "$out/$question.product.$format" 2>&1 || true
        done
    done
    "$churn" db stop > /dev/null 2>&1 || true
}

for seed in $seeds; do
    mkdir -p "$work/export-$seed"
    "$new" simulate --subscribers "$subscribers" --seed "$seed" --grace 16 --grace-renewals paid-to-paid \
        --out "$work/export-$seed/export.jsonl" > /dev/null
    run_side old "$old" "$seed"
    run_side new "$new" "$seed"
done

# Each database has an identity of its own: headline.json names it, and nothing else may differ.
find "$work/old/out" "$work/new/out" -name headline.json -exec sed -i '/"database_id"/d' {} +
if diff -r "$work/old/out" "$work/new/out"; then
    echo "identical: $(find "$work/new/out" -type f | wc -l) files for seeds $seeds"
else
    echo "the builds differ (above)" >&2
    exit 1
fi
