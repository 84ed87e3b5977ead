#!/usr/bin/env bash
# Checks grace_whatif.csv against the simulator, whose exports say what really happened under each grace setting.
# The same seed is simulated with --grace 3 and with --grace 28; each export is loaded into a database of its own and
# reported. The what-if of the 3-day export for 28 days (6 for the weekly product, whose grace Apple caps at 6) is then
# set against the 28-day export's own row for that length: recovered_in_grace per mature episode,
# paid_days_kept_per_episode and free_access_days_per_episode, each with a 95 % interval, and their difference with a
# 95 % interval from a bootstrap over subscribers (both exports come from one seed, so most subscribers go through the
# same episodes in both: resampling subscribers keeps that pairing). First with --grace-end-effect 1, where recoveries
# do not depend on the grace length (the table's assumption), then with the default effect, 3.
#
# Not part of `make test`: it simulates, loads and reports four exports of a few thousand subscribers (minutes). It
# prints a Markdown summary; docs/VALIDATION-GRACE.md records a run.
#
#   scripts/validate-grace.sh
#   SUBSCRIBERS=10000 SEED=7 scripts/validate-grace.sh
#
# With DATABASE_URL set it creates its databases on that server and drops them afterwards; otherwise it starts an
# embedded cluster under a private CHURN_HOME, stops it with `churn db stop` and removes it. CHURN names the binary
# (default: .build/release/churn when built, else a debug build).
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=${SUBSCRIBERS:-6000}
seed=${SEED:-1}
months=${MONTHS:-12}
effects=${EFFECTS:-"1 3"}
work_name=churn-grace
source scripts/validation-database.sh

for effect in $effects; do
    for grace in 3 28; do
        run="effect$effect-grace$grace"
        dir="$work/$run"
        mkdir -p "$dir"
        name="churn_grace_${$}_${effect//./_}_$grace"
        create_database "$name"
        echo "== $run: simulate $subscribers subscribers (seed $seed), load, report" >&2
        "$churn" simulate --subscribers "$subscribers" --seed "$seed" --months "$months" --grace "$grace" \
            --grace-end-effect "$effect" --quiet --out "$dir/export.jsonl"
        "$churn" load --database-url "$url" --quiet --trust-root "$dir/export.root.der" "$dir/export.jsonl" >&2
        rm -f "$dir/export.jsonl"
        "$churn" report --database-url "$url" --out "$dir/report" >&2
        "$churn" query episodes --database-url "$url" --format csv >"$dir/episodes.csv"
        drop_database "$name"
    done
done

python3 - "$work" "$subscribers" "$seed" "$months" $effects <<'PY'
"""The comparison: the 3-day export's what-if against the 28-day export's own figures."""
import csv
import math
import random
import sys
from datetime import datetime

work, subscribers, seed, months, effects = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
Z = 1.959963984540054
DAY = 86_400_000
# The length each product has under the 28-day setting: Apple caps a weekly product at 6 days.
LENGTHS = [("pro.monthly", 28), ("pro.annual", 28), ("pro.weekly", 6)]
REPLICATES = 2000


def millis(text):
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def episodes(run):
    """The mature episodes of a run: (subscription, product, outcome, recovered_by, duration in ms, start, end)."""
    rows = []
    with open(f"{work}/{run}/episodes.csv", newline="") as file:
        for row in csv.DictReader(file):
            if row["mature"] != "true":
                continue
            start, end = millis(row["start_at"]), millis(row["end_at"])
            rows.append((row["original_transaction_id"], row["product_id"], row["outcome"], row["recovered_by"],
                         max(0, end - start), start, end))
    return rows


def whatif(run):
    with open(f"{work}/{run}/report/grace_whatif.csv", newline="") as file:
        return {(row["product_id"], int(row["grace_days"])): row for row in csv.DictReader(file)}


def values(episode, days):
    """One episode's (in grace, paid days, free days) under a grace period of `days` days (METRICS.md)."""
    _, _, outcome, recovered_by, duration, _, _ = episode
    limit = days * DAY
    if days > 0 and outcome == "recovered" and recovered_by == "retry" and duration <= limit:
        return (1.0, duration / DAY, 0.0)
    return (0.0, 0.0, min(duration, limit) / DAY)


def signed(x):
    text = f"{x:+.4f}"
    return "0.0000" if float(text) == 0 else text


def wilson(successes, trials):
    p = successes / trials
    center = p + Z * Z / (2 * trials)
    spread = Z * math.sqrt(p * (1 - p) / trials + Z * Z / (4 * trials * trials))
    return (center - spread) / (1 + Z * Z / trials), (center + spread) / (1 + Z * Z / trials)


def mean_interval(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return mean - Z * sd / math.sqrt(n), mean + Z * sd / math.sqrt(n)


def check(product, days, rows, table, run):
    """The per-episode values recomputed here must give the report's row."""
    row = table[(product, days)]
    n = len(rows)
    assert int(row["mature_episodes"]) == n, (run, product, days, row["mature_episodes"], n)
    assert int(row["recovered_in_grace"]) == int(sum(v[0] for v in rows)), (run, product, days)
    for column, index in (("paid_days_kept_per_episode", 1), ("free_access_days_per_episode", 2)):
        assert abs(float(row[column]) - sum(v[index] for v in rows) / n) < 1e-6, (run, product, days, column)


def bootstrap(a, b, rng):
    """95 % percentile intervals of mean(a) − mean(b) per figure, resampling subscribers (keys of a and b)."""
    keys = sorted(set(a) | set(b))
    draws = [[], [], []]
    for _ in range(REPLICATES):
        sums_a, sums_b, count_a, count_b = [0.0] * 3, [0.0] * 3, 0, 0
        for key in rng.choices(keys, k=len(keys)):
            for v in a.get(key, ()):
                count_a += 1
                for i in range(3):
                    sums_a[i] += v[i]
            for v in b.get(key, ()):
                count_b += 1
                for i in range(3):
                    sums_b[i] += v[i]
        if count_a and count_b:
            for i in range(3):
                draws[i].append(sums_a[i] / count_a - sums_b[i] / count_b)
    intervals = []
    for d in draws:
        d.sort()
        intervals.append((d[int(0.025 * len(d))], d[int(0.975 * len(d)) - 1]))
    return intervals


rng = random.Random(2026)
names = ("recovered in grace / mature episode", "paid days kept / mature episode", "free access days / mature episode")
print(f"{subscribers} subscribers, seed {seed}, {months} months; bootstrap of {REPLICATES} resamples of subscribers.")
for effect in effects:
    whatif_run, actual_run = f"effect{effect}-grace3", f"effect{effect}-grace28"
    a_all, b_all = episodes(whatif_run), episodes(actual_run)
    a_table, b_table = whatif(whatif_run), whatif(actual_run)
    same = {(e[0], e[5], e[6], e[2]) for e in a_all} & {(e[0], e[5], e[6], e[2]) for e in b_all}
    print()
    print(f"### --grace-end-effect {effect}")
    print()
    print(f"Mature episodes: {len(a_all)} in the 3-day export, {len(b_all)} in the 28-day export; {len(same)} "
          "are the same episode in both (same subscriber, start, end and outcome).")
    print()
    print("| product (G) | figure | what-if from the 3-day export | 28-day export | difference (95 % bootstrap) |")
    print("|---|---|---|---|---|")
    pooled_a, pooled_b = {}, {}
    for product, days in LENGTHS + [("all three", None)]:
        if days is None:
            a, b = pooled_a, pooled_b
        else:
            a_rows = [e for e in a_all if e[1] == product]
            b_rows = [e for e in b_all if e[1] == product]
            check(product, days, [values(e, days) for e in a_rows], a_table, whatif_run)
            check(product, days, [values(e, days) for e in b_rows], b_table, actual_run)
            assert b_table[(product, days)]["current"] == "true", (product, days, "is not the 28-day export's length")
            a, b = {}, {}
            for e in a_rows:
                a.setdefault(e[0], []).append(values(e, days))
            for e in b_rows:
                b.setdefault(e[0], []).append(values(e, days))
            for key, vs in a.items():
                pooled_a.setdefault(key, []).extend(vs)
            for key, vs in b.items():
                pooled_b.setdefault(key, []).extend(vs)
        av = [v for vs in a.values() for v in vs]
        bv = [v for vs in b.values() for v in vs]
        label = f"{product} ({days} d, n {len(av)} / {len(bv)})" if days else \
            f"all three (28, 28, 6 d, n {len(av)} / {len(bv)})"
        differences = bootstrap(a, b, rng)
        for i, name in enumerate(names):
            xa, xb = [v[i] for v in av], [v[i] for v in bv]
            ma, mb = sum(xa) / len(xa), sum(xb) / len(xb)
            if i == 0:
                la, ha = wilson(int(sum(xa)), len(xa))
                lb, hb = wilson(int(sum(xb)), len(xb))
            else:
                (la, ha), (lb, hb) = mean_interval(xa), mean_interval(xb)
            low, high = differences[i]
            print(f"| {label if i == 0 else ''} | {name} | {ma:.4f} ({la:.4f}–{ha:.4f}) | {mb:.4f} ({lb:.4f}–{hb:.4f}) "
                  f"| {signed(ma - mb)} ({signed(low)} to {signed(high)}) |")
PY
