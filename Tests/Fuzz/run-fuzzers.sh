#!/usr/bin/env bash
# Builds the fuzzer (libFuzzer + AddressSanitizer, release) and runs every fuzz
# target for a bounded time each. Exits non-zero if any target finds a crash or
# a broken property; the input that did it is kept where the output says.
#
#   bash Tests/Fuzz/run-fuzzers.sh [seconds-per-target] [target...]
#
# Seeds are generated from Protocol/examples, Config/ and a seeded game;
# everything else lives in .build-fuzz (corpora grow across runs there).
set -euo pipefail
cd "$(dirname "$0")/../.."
repository=$PWD
seconds=${1:-10}
shift || true
all_targets=(request framer event snapshot ppm config room-spec store web png jpeg telnet)
targets=("${@:-${all_targets[@]}}")

scratch=.build-fuzz
work=$scratch/fuzz
mkdir -p "$work"

echo "== building puzzle-fuzz (release, -sanitize=fuzzer,address) into $scratch"
build_start=$SECONDS
# PUZZLE_FUZZ adds the fuzzer executable to the package (see Package.swift).
# (The linker's "Cannot export local symbol" lines are ASan noise.)
if ! PUZZLE_FUZZ=1 swift build --scratch-path "$scratch" -c release -Xswiftc -sanitize=fuzzer,address \
    --product puzzle-fuzz 2>&1 | sed '/Cannot export local symbol/d'; then
    echo "fuzzer build failed" >&2
    exit 2
fi
fuzzer=$scratch/release/puzzle-fuzz
echo "== built in $((SECONDS - build_start)) s"

# Swift's own crash backtracer fights ASan over the dying process; libFuzzer
# and ASan report crashes themselves.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=0}
# The store target writes room files per input: keep them in the build folder.
export TMPDIR=$PWD/$work/tmp
mkdir -p "$TMPDIR"

failed=()
for target in "${targets[@]}"; do
    seeds=$work/$target/seeds
    corpus=$work/$target/corpus
    crashes=$work/$target/crashes
    rm -rf "$seeds"
    mkdir -p "$seeds" "$corpus" "$crashes"
    "$fuzzer" --write-seeds "$target" "$seeds" "$repository"
    # Inputs kept because they once failed: replayed first, also by `swift test`.
    regressions=Tests/Fuzz/corpus/$target
    dirs=("$corpus" "$seeds")
    [[ -d $regressions ]] && dirs+=("$regressions")
    log=$work/$target/last-run.log
    echo "== $target: ${seconds} s (log $log)"
    # -malloc_limit_mb: no single allocation may be large; every input is a few KiB.
    if "$fuzzer" "$target" -max_total_time="$seconds" -timeout=10 -malloc_limit_mb=256 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "${dirs[@]}" >"$log" 2>&1; then
        grep -E "^(stat::number_of_executed_units|stat::new_units_added|#[0-9]+ +DONE)" "$log" | tr '\n' ' '; echo
    else
        echo "!! $target FAILED; crash input and report:"
        ls -1 "$crashes"
        grep -E "Fatal error|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY|Test unit written" "$log" | head -8
        echo "   reproduce: SWIFT_BACKTRACE=enable=no $fuzzer $target CRASH-FILE"
        failed+=("$target")
    fi
    rm -rf "${TMPDIR:?}"/*
done

if ((${#failed[@]})); then
    echo "== fuzzing FAILED for: ${failed[*]}"
    exit 1
fi
echo "== fuzzing passed: ${targets[*]}"
