#!/usr/bin/env bash
# `make bench`: builds churn in release mode under .build-bench (not .build) and runs scripts/bench.py, which
# simulates the exports once (bench/data/exports/), measures load, its COPY ceiling, peak memory and analysis on a
# dedicated embedded cluster (bench/data/cluster/), and writes bench/results.md.
# BENCH_RUNS (default 3), BENCH_SIZES (default 10k,100k,300k), BENCH_ANALYZE_ROWS (default 1000000,10000000; 0 skips
# the analysis part), BENCH_CONCURRENT (default 1; 0 skips the loaders at once) and BENCH_RELOAD (default 1; 0 skips
# the same file loaded a second time) choose what runs; BENCH_KEEP_LOADS=1 keeps the load rows of the last run and
# measures the analysis alone. BENCH_CHURN=<binary> with `python3 scripts/bench.py` measures another build (say, an
# older commit's release binary) with this script and the same exports.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in psql openssl python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "bench: $tool is missing" >&2
        exit 1
    fi
done
swift build -c release --scratch-path .build-bench
exec python3 scripts/bench.py
