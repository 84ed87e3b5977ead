#!/usr/bin/env bash
# Checks that message_log.csv and message_experiment.csv find the billing-issue sheet's effect the simulator plants,
# and writes docs/VALIDATION-SHEET.md.
#
# For each planted sheet effect (2, then 1) and each of ten seeds: `churn simulate --subscribers 20000 --message-log
# --holdout 0.5 --sheet-effect <effect> --new-purchase-rate 0` (half the episodes in the holdout arm, whose sheets
# the app suppresses; the effect multiplies recoveries by retry, which new purchases would dilute, as in
# scripts/validate.sh), then the pipeline as a user runs it: `churn load` into a fresh database (verified against the
# simulator's root certificate), `churn messages load` of the log, `churn report`, and two rows:
# the `(all)` row of message_log.csv (the hazard ratio of shown days against the other days, 95 % interval) and the
# `sheet` row of message_experiment.csv (its mature recovery rate against the `holdout` arm's: the difference with
# its Newcombe interval). Requirements, per effect: the mean of the ten shown-day ratios within 5 % of the planted
# effect and at least 9 of the 10 intervals holding it; for effect 2 a positive difference in every seed and an
# interval excluding 0 in most; for effect 1 at least 9 of the 10 difference intervals holding 0.
# docs/VALIDATION-SHEET.md is written either way; the script exits 1 when a requirement is not met. Everything below
# the marker line of the document (notes written by hand about a run) is kept.
#
# The runs share one server (scripts/validation-database.sh: DATABASE_URL's, else an embedded cluster of the run's
# own), a database each. CHURN names the binary (default .build/release/churn); VALIDATE_SEEDS the seeds (default 1 to
# 10); VALIDATE_EFFECTS the planted effects (default 2 and 1); VALIDATE_SUBSCRIBERS the subscribers per history
# (default 20000); VALIDATE_DOCUMENT where the results go (default docs/VALIDATION-SHEET.md).
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${VALIDATE_SEEDS:-1 2 3 4 5 6 7 8 9 10}
subscribers=${VALIDATE_SUBSCRIBERS:-20000}
effects=${VALIDATE_EFFECTS:-2 1}
holdout=0.5
tolerance=0.05
least_covering=9
document=${VALIDATE_DOCUMENT:-docs/VALIDATION-SHEET.md}
marker="<!-- scripts/validate-sheet.sh writes everything above this line and keeps what follows it. -->"
work_name=churn-validate-sheet
source scripts/validation-database.sh

source scripts/validation-document.sh

started=$(date -u +%s)
results="$work/results.csv"
: > "$results"
for effect in $effects; do
    for seed in $seeds; do
        run="$work/run-$effect-$seed"
        mkdir -p "$run"
        name="sheet_${effect}_$seed"
        create_database "$name"
        echo "validate-sheet: sheet effect $effect, seed $seed" >&2
        "$churn" simulate --quiet --subscribers "$subscribers" --seed "$seed" --message-log --holdout "$holdout" \
            --sheet-effect "$effect" --new-purchase-rate 0 --out "$run/export.jsonl"
        "$churn" load --database-url "$url" --quiet --trust-root "$run/export.root.der" "$run/export.jsonl"
        rm -f "$run/export.jsonl"
        "$churn" messages load --database-url "$url" --quiet "$run/export.messages.csv"
        "$churn" report --database-url "$url" --reports-root "$run/reports" --out "$run/report" > /dev/null
        drop_database "$name"
        log="$run/report/message_log.csv"
        arms="$run/report/message_experiment.csv"
        shown=$(cell "$log" "(all)" episodes),$(cell "$log" "(all)" shown_days),$(cell "$log" "(all)" hazard_ratio)
        shown=$shown,$(cell "$log" "(all)" hazard_ratio_low),$(cell "$log" "(all)" hazard_ratio_high)
        sheet=$(cell "$arms" sheet mature_episodes),$(cell "$arms" holdout mature_episodes)
        sheet=$sheet,$(cell "$arms" sheet difference),$(cell "$arms" sheet difference_low)
        sheet=$sheet,$(cell "$arms" sheet difference_high)
        echo "$effect,$seed,$shown,$sheet" >> "$results"
        rm -rf "$run"
    done
done
minutes=$(( ($(date -u +%s) - started + 59) / 60 ))

summary="$work/summary.md"
verdict=0
{
    echo "# Validation: the billing-issue sheet the app showed"
    echo
    echo "Do \`message_log.csv\` and \`message_experiment.csv\` find the effect of the sheet the simulator plants? For"
    echo "each planted effect and each of ten seeds, \`scripts/validate-sheet.sh\` simulates a signed export of"
    echo "$subscribers subscribers with the simulator's defaults and the app's log of the billing-issue sheet"
    echo "(\`--message-log\`: each day of retry the customer opens the app with the chance 0.3, and the app shows the"
    echo "sheet at that launch or, one time in five, defers it; [SIMULATOR.md](SIMULATOR.md)), \`--holdout $holdout\`"
    echo "(half the episodes in the arm \`holdout\`, whose sheets the app suppresses), \`--sheet-effect\` 2 or 1 (the"
    echo "chance of recovery on a day the sheet was shown) and \`--new-purchase-rate 0\`. It loads the export into a"
    echo "fresh database (signatures verified against the simulator's root certificate), loads the log"
    echo "(\`churn messages load\`), runs \`churn report\`, and reads two rows ([METRICS.md](METRICS.md), section 5,"
    echo "\"Billing messages the app showed\"):"
    echo
    echo "- the \`(all)\` row of \`message_log.csv\`: recoveries on the retry days the sheet was shown against the other"
    echo "  days of every covered episode, Mantel–Haenszel over days 1–60, with its 95 % interval. Requirement: the"
    echo "  mean of the ten ratios within 5 % of the planted effect, and at least 9 of 10 intervals holding it."
    echo "- the \`sheet\` row of \`message_experiment.csv\`: the mature recovery rate of the arm shown the sheet minus"
    echo "  the \`holdout\` arm's, with its 95 % Newcombe interval. Requirement: with effect 2 a positive difference"
    echo "  in every seed and an interval excluding 0 in most; with effect 1 at least 9 of 10 intervals holding 0."
    echo
    echo "Why \`--new-purchase-rate 0\`: the simulator plants the effect on recovery by retry; a new paid purchase"
    echo "also recovers an episode, and the simulator does not tie it to the sheet (as in [VALIDATION.md](VALIDATION.md))."
    echo
    echo "Produced by \`make validate-sheet\` (\`scripts/validate-sheet.sh\`) at commit $(git rev-parse --short HEAD) on"
    echo "$(date -u +%Y-%m-%d); the $(echo "$seeds" | wc -w) runs per effect took $minutes minutes in all."
    for effect in $effects; do
        echo
        echo "## Planted effect $effect"
        echo
        echo "| seed | covered episodes | shown days | shown-day ratio | 95 % interval | holds $effect | mature episodes (sheet / holdout) | difference | 95 % interval | holds 0 |"
        echo "|---:|---:|---:|---:|---|---|---:|---:|---|---|"
        awk -F, -v effect="$effect" '$1 == effect {
            holds = ($6 != "" && $7 != "" && $6 + 0 <= effect + 0 && effect + 0 <= $7 + 0) ? "yes" : "no"
            zero = ($11 != "" && $12 != "" && $11 + 0 <= 0 && 0 <= $12 + 0) ? "yes" : "no"
            printf "| %s | %s | %s | %.3f | %.3f–%.3f | %s | %s / %s | %+.4f | %+.4f to %+.4f | %s |\n",
                $2, $3, $4, $5, $6, $7, holds, $8, $9, $10, $11, $12, zero
        }' "$results"
        awk -F, -v effect="$effect" -v tolerance="$tolerance" -v least="$least_covering" '
            $1 == effect {
                runs++; sum += $5; differences += $10
                if ($6 != "" && $7 != "" && $6 + 0 <= effect + 0 && effect + 0 <= $7 + 0) covering++
                if ($10 + 0 > 0) positive++
                if ($11 != "" && $12 != "" && $11 + 0 <= 0 && 0 <= $12 + 0) holdsZero++
            }
            END {
                mean = sum / runs; error = (mean - effect) / effect
                ratioMet = (error <= tolerance && -error <= tolerance && covering >= least)
                if (effect + 0 == 1) {
                    armsMet = (holdsZero >= least)
                    arms = sprintf("%d of %d difference intervals hold 0", holdsZero, runs)
                } else {
                    armsMet = (positive == runs && runs - holdsZero > runs / 2)
                    arms = sprintf("%d of %d differences positive, %d of %d intervals exclude 0", positive, runs,
                        runs - holdsZero, runs)
                }
                printf "\nMean shown-day ratio %.4f, relative error %+.2f %%; %d of %d intervals hold %s. ",
                    mean, 100 * error, covering, runs, effect
                printf "Mean difference %+.4f; %s. %s\n", differences / runs, arms,
                    ratioMet && armsMet ? "Requirements met." : "Requirements NOT met."
                exit ratioMet && armsMet ? 0 : 3
            }' "$results" || verdict=1
    done
    echo
    echo "$marker"
} > "$summary"
write_document "$summary" "$document" "$marker"
if [ "$verdict" -ne 0 ]; then
    echo "validate-sheet: a requirement is not met (see $document)" >&2
fi
exit "$verdict"
