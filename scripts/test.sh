#!/usr/bin/env bash
# Builds with warnings as errors and runs the whole suite. The tests start their own PostgreSQL cluster
# (initdb + pg_ctl on a private Unix socket) in a private temporary directory, which is removed afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d /tmp/churn-test-run.XXXXXX)
chmod 755 "$scratch"
cleanup() {
    # Stop any test cluster the run left behind (Swift Testing may exit without running atexit handlers).
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
swift build --build-tests -Xswiftc -warnings-as-errors || exit $?
# The status of swift test itself, not of the filter after it.
swift test --skip-build 2>&1 | tee "$scratch/test.log" | grep -vE '^(◇|↳)|passed after'
status=${PIPESTATUS[0]}
tail -n 3 "$scratch/test.log"
exit "$status"
