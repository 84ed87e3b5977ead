#!/usr/bin/env bash
# Checks grace_change.csv against changes the simulator plants (docs/VALIDATION-GRACE-CHANGE.md): for each seed, the
# same subscribers are simulated twice, with the app's grace setting going from 16 to 28 days on CHANGE and without,
# each export loaded into a database of its own, and both asked `churn query grace-change` with the change stated
# (so both have the same date, treated and comparison products). The monthly and annual products change; the weekly
# product keeps 6 days and is the comparison.
#
# The true effect of a seed is the treated products' figure after the change in the export with it, minus the same
# figure of the same subscribers in the export without it. The export with the change gives the estimate (a
# difference in differences with its bootstrap interval); the export without it must give an estimate near 0.
# First with the default grace-end effect (3), where losing access on the grace end's day drives payment, then with 1,
# where recoveries do not depend on the grace length and the true effect on the recovered share is 0.
#
# Not part of `make test`: 2 × SEEDS exports of SUBSCRIBERS subscribers per effect (about a minute each). It prints a
# Markdown summary; docs/VALIDATION-GRACE-CHANGE.md records a run.
#
#   scripts/validate-grace-change.sh
#   SEEDS="1 2 3" SUBSCRIBERS=8000 EFFECTS=3 scripts/validate-grace-change.sh
#   SIMULATE_OPTIONS="--trial-rate 0" scripts/validate-grace-change.sh
#
# With DATABASE_URL set it creates its databases on that server and drops them afterwards; otherwise it starts an
# embedded cluster under a private CHURN_HOME, stops it with `churn db stop` and removes it. CHURN names the binary
# (default: .build/release/churn when built, else a debug build).
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=${SUBSCRIBERS:-20000}
seeds=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
effects=${EFFECTS:-"3 1"}
# More `churn simulate` options for both exports of every seed, such as "--trial-rate 0".
read -r -a extra <<<"${SIMULATE_OPTIONS:-}"
start=2025-01-01
months=24
change=2026-01-01
work_name=churn-grace-change
source scripts/validation-database.sh

for effect in $effects; do
    for seed in $seeds; do
        for planted in with without; do
            run="effect$effect-seed$seed-$planted"
            dir="$work/$run"
            mkdir -p "$dir"
            name="churn_gc_${$}_${effect//./_}_${seed}_$planted"
            create_database "$name"
            options=()
            [ "$planted" = with ] && options=(--grace-change "$change:28")
            echo "== $run: simulate $subscribers subscribers, load, query" >&2
            "$churn" simulate --subscribers "$subscribers" --seed "$seed" --start "$start" --months "$months" \
                --grace 16 --grace-end-effect "$effect" "${options[@]}" "${extra[@]}" --quiet --out "$dir/export.jsonl"
            "$churn" load --database-url "$url" --quiet --no-verify "$dir/export.jsonl" >&2
            rm -f "$dir/export.jsonl"
            "$churn" query grace-change --database-url "$url" --grace-change "com.example.app=$change:28" \
                --format csv >"$dir/grace_change.csv"
            drop_database "$name"
        done
    done
done

python3 - "$work" "$subscribers" "$change" "$effects" "$seeds" "${SIMULATE_OPTIONS:-}" <<'PY'
"""Each seed's estimate (the export with the change) against its true effect (with minus without, after the
change, same subscribers), and the export without the change read the same way."""
import csv
import math
import sys

work, subscribers, change, effects, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5].split()
extra = sys.argv[6]
FIGURES = [
    ("recovered", "recovered share", 100, "pp"),
    ("paid_days_kept_per_episode", "paid days kept per episode", 1, "days"),
    ("free_access_days_per_episode", "free access days per episode", 1, "days"),
]


def row(effect, seed, planted):
    with open(f"{work}/effect{effect}-seed{seed}-{planted}/grace_change.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 1, f"effect {effect} seed {seed} {planted}: {len(rows)} rows"
    return rows[0]


def number(text):
    return float(text) if text != "" else math.nan


print(
    f"# A grace change from 16 to 28 days on {change}, {subscribers} subscribers, seeds {' '.join(seeds)}"
    + (f", `{extra}`" if extra else "") + "\n")
for effect in effects:
    print(f"## Grace-end effect {effect}\n")
    sample = row(effect, seeds[0], "with")
    print(
        f"Treated: {sample['products']}; comparison: {sample['comparison']}; "
        f"{sample['episodes_before']} and {sample['episodes_after']} treated mature episodes before and after "
        f"(seed {seeds[0]}).\n")
    print(
        "| figure | true effect (mean) | estimate (mean) | its standard error | |mean − truth| ≤ SE "
        "| intervals holding the truth | without the change: estimate (mean) | without the change: intervals "
        "holding 0 | placebo intervals holding 0 |")
    print("|---|--:|--:|--:|:-:|--:|--:|--:|--:|")
    for name, label, scale, unit in FIGURES:
        truths, estimates, controls, covers, nulls, placebos, placebo_count = [], [], [], 0, 0, 0, 0
        for seed in seeds:
            planted, control = row(effect, seed, "with"), row(effect, seed, "without")
            truth = number(planted[f"{name}_after"]) - number(control[f"{name}_after"])
            estimate = number(planted[f"{name}_did"])
            low, high = number(planted[f"{name}_did_low"]), number(planted[f"{name}_did_high"])
            truths.append(truth)
            estimates.append(estimate)
            controls.append(number(control[f"{name}_did"]))
            covers += low <= truth <= high
            nulls += number(control[f"{name}_did_low"]) <= 0 <= number(control[f"{name}_did_high"])
            if planted[f"{name}_placebo_did"] != "":
                placebo_count += 1
                placebos += number(planted[f"{name}_placebo_did_low"]) <= 0 <= number(planted[f"{name}_placebo_did_high"])
        n = len(seeds)
        mean_truth, mean_estimate = sum(truths) / n, sum(estimates) / n
        sd = math.sqrt(sum((e - mean_estimate) ** 2 for e in estimates) / (n - 1)) if n > 1 else math.nan
        se = sd / math.sqrt(n)
        within = abs(mean_estimate - mean_truth) <= se
        print(
            f"| {label} ({unit}) | {mean_truth * scale:+.3f} | {mean_estimate * scale:+.3f} | {se * scale:.3f} "
            f"| {'yes' if within else 'no'} | {covers} of {n} | {sum(controls) / n * scale:+.3f} | {nulls} of {n} "
            f"| {placebos} of {placebo_count} |")
    print()
PY
