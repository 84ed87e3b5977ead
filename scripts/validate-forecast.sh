#!/usr/bin/env bash
# Checks forecast_check.csv on a large simulated export: the report set as of the end of the simulated history
# compares the chances its method gave, 61 days earlier, to the episodes open then with what became of them. The
# expected recoveries should lie within the 95 % confidence interval of the observed count (the episodes times the
# observed share's Wilson bounds) overall and in most tenths of the chance.
#
# Not part of `make test`: it simulates, loads and reports one export of many subscribers (many minutes). It writes
# docs/VALIDATION-FORECAST.md (or $OUT) with the table, the command and the date, and exits 1 when the overall
# expected count lies outside the interval or fewer than half the tenths holding episodes have it inside.
#
#   scripts/validate-forecast.sh
#   SUBSCRIBERS=5000 SEED=3 scripts/validate-forecast.sh
#
# It starts an embedded cluster under a private CHURN_HOME, stops it with `churn db stop` at the end and removes it.
# CHURN names the binary (default: this tree's debug build).
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=${SUBSCRIBERS:-20000}
seed=${SEED:-11}
out=${OUT:-docs/VALIDATION-FORECAST.md}
# The binary: $CHURN, else this tree's debug build (built first).
if [ -z "${CHURN:-}" ]; then swift build --product churn >&2; fi
churn=$(realpath "${CHURN:-$(swift build --show-bin-path)/churn}")

work=$(mktemp -d /tmp/churn-forecast.XXXXXX)
chmod 755 "$work"
export CHURN_HOME="$work/home"
unset DATABASE_URL PGHOST PGPORT PGDATABASE PGUSER PGPASSWORD PGSERVICE
cleanup() {
    "$churn" db stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

"$churn" db start >&2
command=("$churn" simulate --subscribers "$subscribers" --seed "$seed")
echo "== simulate $subscribers subscribers (seed $seed), load, report" >&2
"${command[@]}" --quiet --out "$work/export.jsonl"
"$churn" load --quiet --trust-root "$work/export.root.der" "$work/export.jsonl" >&2
rm -f "$work/export.jsonl"
"$churn" report --out "$work/report" >&2

python3 - "$work/report" "$out" "$subscribers" "$seed" <<'PY'
"""The table of forecast_check.csv with the observed count's 95 % interval, and the verdict."""
import csv
import json
import sys
from datetime import datetime, timezone

report, out, subscribers, seed = sys.argv[1:5]
with open(f"{report}/forecast_check.csv", newline="") as file:
    rows = list(csv.DictReader(file))
with open(f"{report}/headline.json") as file:
    as_of = json.load(file)["as_of"]


def when(millis):
    return datetime.fromtimestamp(millis / 1000, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


lines = [
    "| chance | episodes | expected | observed | observed count, 95 % CI | expected inside |",
    "|---|---:|---:|---:|---:|:---:|",
]
inside_bands = bands = 0
overall = False
for row in rows:
    n = int(row["episodes"])
    expected = float(row["expected_recoveries"])
    if n == 0:
        lines.append(f"| {row['chance_band']} | 0 | {expected:.1f} | 0 | | |")
        continue
    low, high = n * float(row["observed_share_low"]), n * float(row["observed_share_high"])
    inside = low <= expected <= high
    if row["chance_band"] == "(all)":
        overall = inside
    else:
        bands += 1
        inside_bands += inside
    lines.append(
        f"| {row['chance_band']} | {n} | {expected:.1f} | {row['observed_recoveries']} | {low:.1f}–{high:.1f} | "
        + ("yes" if inside else "**no**")
        + " |"
    )
check_time = as_of - 61 * 86_400_000
passed = overall and bands > 0 and inside_bands * 2 > bands
verdict = (
    f"Overall the expected count {'lies' if overall else 'does **not** lie'} within the observed count's 95 % "
    f"confidence interval; in {inside_bands} of {bands} tenths holding episodes it does."
)
today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
doc = f"""# Validation: how well the forecast did

`forecast_check.csv` (docs/METRICS.md, "How well the forecast did") set against a simulated export. The report is as
of {when(as_of)}, the end of the simulated history; the check looks at the episodes open 61 days earlier
({when(check_time)}), each with the chance of recovery by day 60 the method gave it from the episodes built as of
then, and counts those that did recover by day 60. The observed count's interval is the episodes times the observed
share's 95 % Wilson bounds.

Run on {today}:

```
scripts/validate-forecast.sh        # SUBSCRIBERS={subscribers} SEED={seed}
churn simulate --subscribers {subscribers} --seed {seed}   # default options
churn load --trust-root export.root.der export.jsonl
churn report
```

{chr(10).join(lines)}

{verdict}
"""
with open(out, "w") as file:
    file.write(doc)
print(doc)
sys.exit(0 if passed else 1)
PY
