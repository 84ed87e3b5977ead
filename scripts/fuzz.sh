#!/usr/bin/env bash
# `make fuzz`: builds the fuzz targets of Fuzz/ (libFuzzer with AddressSanitizer and LeakSanitizer) and runs each for
# FUZZ_SECONDS seconds (default 60) from its seeds in Fuzz/Corpus/<target>/. FUZZ_TARGETS picks some (default: all).
#
# New inputs the fuzzer keeps go to a scratch directory, not to the seeds. An input that crashes a target, breaks one
# of its properties (a failed precondition), leaks or hangs is written to Fuzz/Findings/<target>-…: each becomes a
# regression test in `make test` before its fix (docs/RELIABILITY.md). Exits 1 when a target found one.
#
# SwiftPM gives an executable a `main` of its own, so the targets are built with the coverage instrumentation of
# `-sanitize=fuzzer` and linked with libFuzzer's library without its `main` (each target calls its driver).
#
#   make fuzz
#   FUZZ_SECONDS=600 FUZZ_TARGETS=FuzzCopyText make fuzz
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
all_targets="FuzzAppleReport FuzzBase64URL FuzzChain FuzzCopyText FuzzGzip FuzzHistoryPage FuzzJSON FuzzJWS FuzzMessageLog FuzzRecordLine"
targets=${FUZZ_TARGETS:-$all_targets}
resource_dir=$(dirname "$(dirname "$(command -v swift)")")/lib/clang
fuzzer_library=$(find "$resource_dir" -name "libclang_rt.fuzzer_no_main-$(uname -m).a" 2>/dev/null | head -1)
if [ -z "$fuzzer_library" ]; then
    echo "fuzz: libclang_rt.fuzzer_no_main is not in this toolchain ($resource_dir): a swift.org toolchain has it" >&2
    exit 1
fi

swift build --package-path Fuzz -c debug -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,pc-table,inline-8bit-counters \
    -Xlinker "$fuzzer_library" -Xlinker -lstdc++

mkdir -p Fuzz/Findings
scratch=$(mktemp -d /tmp/churn-fuzz.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
found=0
for target in $targets; do
    case " $all_targets " in
        *" $target "*) ;;
        *) echo "fuzz: no target $target (targets: $all_targets)" >&2; exit 2 ;;
    esac
    mkdir -p "$scratch/$target"
    echo "== $target: $seconds s from Fuzz/Corpus/$target" >&2
    # Swift's own crash backtracer off: libFuzzer and AddressSanitizer report the crash, and the backtracer would
    # hold the process for its time-out first. Fuzz/lsan.supp names the one false leak report and why.
    if ! SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp" "Fuzz/.build/debug/$target" "$scratch/$target" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="Fuzz/Findings/$target-" 2>"$scratch/$target.log"; then
        found=1
        grep -E "ERROR|Fatal error|Precondition failed|Test unit written" "$scratch/$target.log" >&2 || tail -20 "$scratch/$target.log" >&2
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^Done" "$scratch/$target.log" >&2 || true
done
exit $found
