#!/usr/bin/env bash
# Lints every Swift file with swift-format (scripts/format.sh), builds with warnings as errors and runs the whole
# suite once per schema layout: plain, then partitioned (notifications and the per-subscription tables
# hash-partitioned by original_transaction_id; CHURN_SCHEMA_LAYOUT makes every schema the tests create, and every
# churn they run, use it). The planted-effect suites (Planted…Tests: simulated exports of a thousand subscribers and
# more, whose figures are checked against the truth the simulator planted), the five-night soak (SoakTests; `make
# soak` runs a month) and the commands under load (CommandsUnderLoadTests) run on the plain layout only: they take
# the same statements through the database as the rest of the suite and would double the most expensive part of
# the run. The test targets that cannot reach a database (database_free_targets below: no file of theirs imports a
# module that reaches one, which HouseRulesTests checks) run on the plain layout only too: the layout cannot change
# what they do. Name layouts to run only those: `scripts/test.sh partitioned`. Exits non-zero if any run fails. The
# tests start their own PostgreSQL cluster (initdb + pg_ctl on a private Unix socket) in a private temporary
# directory, which is removed afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."

layouts=("$@")
[ ${#layouts[@]} -gt 0 ] || layouts=(plain partitioned)
for layout in "${layouts[@]}"; do
    case "$layout" in
        plain | partitioned) ;;
        *) echo "test.sh: unknown layout '$layout' (plain or partitioned)" >&2; exit 64 ;;
    esac
done

scratch=$(mktemp -d /tmp/churn-test-run.XXXXXX)
chmod 755 "$scratch"
cleanup() {
    # Stop any test cluster a run left behind (Swift Testing may exit without running atexit handlers).
    for data in "$scratch"/churn-tests-*/pgdata; do
        [ -f "$data/postmaster.pid" ] || continue
        pg_ctl=$(ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)
        if [ "$(id -u)" -eq 0 ]; then
            runuser -u postgres -- "$pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        else
            "$pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$scratch"
}
trap cleanup EXIT

export TMPDIR="$scratch"
# The formatter first: a file the project's .swift-format rules reject fails the run before anything is built.
scripts/format.sh || { echo "test.sh: swift format lint failed (make format lists the lines)" >&2; exit 1; }
swift build --build-tests -Xswiftc -warnings-as-errors || exit $?

# Test targets none of whose files imports a module that reaches a database (HouseRulesTests keeps this list true).
database_free_targets=(CivilTimeTests AppStoreNotificationsTests JWSVerifierTests AppleReportsTests SimulatorTests)

status=0
summary=()
for layout in "${layouts[@]}"; do
    echo
    skip=()
    if [ "$layout" = partitioned ]; then
        skip=(--skip "Planted[A-Za-z]*Tests|SoakTests|CommandsUnderLoadTests|^($(IFS='|'; echo "${database_free_targets[*]}"))\\.")
    fi
    echo "=== the suite on the $layout layout (CHURN_SCHEMA_LAYOUT=$layout) ${skip[*]} ==="
    log="$scratch/test-$layout.log"
    started=$SECONDS
    # The status of swift test itself, not of the filter after it.
    CHURN_SCHEMA_LAYOUT=$layout swift test --skip-build "${skip[@]}" 2>&1 | tee "$log" | grep -vE '^(◇|↳)|passed after'
    run_status=${PIPESTATUS[0]}
    tail -n 3 "$log"
    result=$(grep -E '^. Test run with [0-9]+ tests? ' "$log" | tail -n 1)
    [ -n "$result" ] || result="no Swift Testing summary; swift test exited $run_status"
    summary+=("$layout layout ($((SECONDS - started)) s): $result")
    [ "$run_status" -eq 0 ] || status=$run_status
done

echo
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
exit "$status"
