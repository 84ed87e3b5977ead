#!/usr/bin/env bash
# `make soak`: a month of simulated nights of `churn nightly` (Tests/CLITests/SoakTests.swift), with the incidents of
# docs/RELIABILITY.md ("A month of nights"), ending equal to one clean load of the same files. SOAK_NIGHTS (default
# 30) and SOAK_SUBSCRIBERS (default 2000) size it, SOAK_SEED (default 11) picks the simulation and the kills; the
# night-by-night table goes to bench/soak.md (the test's SOAK_FIGURES). Then the commands under load
# (Tests/CLITests/CommandsUnderLoadTests.swift): a repair, a fetch and a nightly at once with ten query loops, on a
# simulated app of SOAK_LOAD_SUBSCRIBERS (default 5000). `make test` runs both small: 5 nights and 300 subscribers,
# and 300 subscribers under load.
set -euo pipefail
cd "$(dirname "$0")/.."

export SOAK_NIGHTS="${SOAK_NIGHTS:-30}"
export SOAK_SUBSCRIBERS="${SOAK_SUBSCRIBERS:-2000}"
# The incidents need five nights (a late file, a cut file and a wrong option each with the night after it).
if ! [[ "$SOAK_NIGHTS" =~ ^[0-9]+$ ]] || [ "$SOAK_NIGHTS" -lt 5 ] || [ "$SOAK_NIGHTS" -gt 80 ]; then
    echo "soak: SOAK_NIGHTS takes a whole number of nights from 5 to 80 (the history holds 90 days), not '$SOAK_NIGHTS'" >&2
    exit 64
fi
if ! [[ "$SOAK_SUBSCRIBERS" =~ ^[0-9]+$ ]] || [ "$SOAK_SUBSCRIBERS" -lt 100 ]; then
    echo "soak: SOAK_SUBSCRIBERS takes a whole number of 100 or more, not '$SOAK_SUBSCRIBERS'" >&2
    exit 64
fi
export SOAK_LOAD_SUBSCRIBERS="${SOAK_LOAD_SUBSCRIBERS:-5000}"
if ! [[ "$SOAK_LOAD_SUBSCRIBERS" =~ ^[0-9]+$ ]] || [ "$SOAK_LOAD_SUBSCRIBERS" -lt 100 ]; then
    echo "soak: SOAK_LOAD_SUBSCRIBERS takes a whole number of 100 or more, not '$SOAK_LOAD_SUBSCRIBERS'" >&2
    exit 64
fi
export SOAK_FIGURES="${SOAK_FIGURES:-$PWD/bench/soak.md}"
scratch=$(mktemp -d /tmp/churn-soak.XXXXXX)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
swift build --build-tests -Xswiftc -warnings-as-errors
echo "soak: $SOAK_NIGHTS nights, $SOAK_SUBSCRIBERS subscribers; the nights' figures go to $SOAK_FIGURES;" \
    "then the commands under load, $SOAK_LOAD_SUBSCRIBERS subscribers"
# One after the other, so that neither's figures carry the other's load.
status=0
for suite in SoakTests CommandsUnderLoadTests; do
    swift test --skip-build --filter "$suite" 2>&1 | grep -vE '^(◇|↳)'
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
exit "$status"
