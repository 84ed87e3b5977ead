#!/usr/bin/env bash
# Times the first build as a newcomer meets it: a fresh clone of COMMIT (default HEAD) with an empty build directory,
# then `make demo` whole, by the wall clock, and the optimized build within it. Appends a row to bench/first-build.md
# (which `make bench` copies into bench/results.md). Run it on an otherwise idle machine: the figure is wall time.
#
#   scripts/first-build.sh            # HEAD
#   scripts/first-build.sh aeeb703    # an earlier commit, to compare
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short "${1:-HEAD}")
work=$(mktemp -d /tmp/churn-first-build.XXXXXX)
# The embedded cluster runs as the postgres user when this runs as root: it must reach the clone.
chmod 755 "$work"
cleanup() {
    if [ -x "$work/clone/.build/release/churn" ]; then
        (cd "$work/clone" && CHURN_HOME="$work/clone/.churn" .build/release/churn db stop >/dev/null 2>&1) || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

git clone -q . "$work/clone"
git -C "$work/clone" checkout -q "$commit"
echo "first-build: make demo in a fresh clone of $commit ($work/clone)" >&2
started=$(date +%s)
if ! (cd "$work/clone" && make demo) >"$work/demo.log" 2>&1; then
    tail -n 20 "$work/demo.log" >&2
    echo "first-build: make demo failed at $commit" >&2
    exit 1
fi
seconds=$(($(date +%s) - started))
build=$(grep -oE "Build (of product 'churn' )?complete! \([0-9.]+s\)" "$work/demo.log" | grep -oE "[0-9.]+" | tail -n 1)
minutes() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
build_seconds=$(printf '%.0f' "$build")

file=bench/first-build.md
if [ ! -f "$file" ]; then
    {
        echo "| date (UTC) | commit | \`make demo\` from a fresh clone | of it, the optimized build | cores |"
        echo "|---|---|--:|--:|--:|"
    } >"$file"
fi
echo "| $(date -u '+%Y-%m-%d %H:%M') | $commit | $(minutes "$seconds") | $(minutes "$build_seconds") | $(nproc) |" >>"$file"
tail -n 1 "$file"
