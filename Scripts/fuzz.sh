#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer (in .build-fuzz) and runs each for SECONDS on a working
# copy of its seed corpus, Fuzz/Corpus/TARGET, which it never changes. Any crash, hang (an input that runs longer than
# 10 s), leak, single allocation over 64 MiB (a length taken from the input unchecked) or use of more than 2 GiB leaves
# a reproducer in .build-fuzz/artifacts and fails the run; rerun it with `.build-fuzz/debug/fuzz-TARGET FILE`, or
# with a normal build of fuzz-TARGET (`swift build --product fuzz-TARGET`), which replays files, to debug it.
# Usage: Scripts/fuzz.sh SECONDS [TARGET...]
#        targets: ptp-codec ptp-client simulator canon-eos sony fuji discovery lumix olympus sony-remote barcode http
#        usb-events debug-log (default: all fourteen)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
seconds=${1:?usage: Scripts/fuzz.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ptp-codec ptp-client simulator canon-eos sony fuji discovery lumix olympus sony-remote barcode http usb-events debug-log)

# libFuzzer without its main: each target's own main hands its command line to LLVMFuzzerRunDriver.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v "$swift")")")")
runtime=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -1)
[ -f "$runtime" ] || { echo "fuzz: no libclang_rt.fuzzer_no_main in $toolchain" >&2; exit 1; }
flags=(-c debug --scratch-path .build-fuzz
    -Xswiftc -sanitize=address -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer,address -Xswiftc -DVIEWFINDER_FUZZING
    -Xlinker "$runtime" -Xlinker -lstdc++)
for target in "${targets[@]}"; do
    "$swift" build "${flags[@]}" --product "fuzz-$target" 2>&1 | grep -v "Cannot export local symbol" | tail -1
done
bin=$("$swift" build "${flags[@]}" --show-bin-path)

mkdir -p .build-fuzz/artifacts
failures=0
for target in "${targets[@]}"; do
    corpus=.build-fuzz/corpus/$target
    log=.build-fuzz/$target.log
    mkdir -p "$corpus"
    started=$(date +%s)
    status=0
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$target" "$corpus" "Fuzz/Corpus/$target" -max_total_time="$seconds" \
        -timeout=10 -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=64 -print_final_stats=1 \
        -artifact_prefix=".build-fuzz/artifacts/$target-" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    added=$(sed -n 's/^stat::new_units_added: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    cover=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
    echo "fuzz-$target: ${runs:-0} runs in $(($(date +%s) - started)) s (${rate:-0}/s), $cover, ${added:-0} new inputs," \
        "peak RSS ${rss:-?} MB, exit status $status"
    if [ "$status" -ne 0 ]; then
        failures=$((failures + 1))
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written|Precondition failed" "$log" | head -20 | sed 's/^/        | /'
        echo "        full log: $log"
    fi
done
[ "$failures" -eq 0 ] || { echo "fuzz: $failures target(s) found a problem"; exit 1; }
