#!/usr/bin/env bash
# `make soak`: a month of simulated nights of `churn nightly` (Tests/CLITests/SoakTests.swift), with the incidents of
# docs/RELIABILITY.md ("A month of nights"), ending equal to one clean load of the same files. SOAK_NIGHTS (default
# 30) and SOAK_SUBSCRIBERS (default 2000) size it, SOAK_SEED (default 11) picks the simulation and the kills; the
# night-by-night table goes to bench/soak.md (the test's SOAK_FIGURES). `make test` runs the same test with 5 nights
# and 300 subscribers.
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
export SOAK_FIGURES="${SOAK_FIGURES:-$PWD/bench/soak.md}"
scratch=$(mktemp -d /tmp/churn-soak.XXXXXX)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
swift build --build-tests -Xswiftc -warnings-as-errors
echo "soak: $SOAK_NIGHTS nights, $SOAK_SUBSCRIBERS subscribers; the nights' figures go to $SOAK_FIGURES"
swift test --skip-build --filter SoakTests 2>&1 | grep -vE '^(◇|↳)'
exit "${PIPESTATUS[0]}"
