#!/usr/bin/env bash
# Builds the fuzz targets (Clang, libFuzzer, ASan + UBSan) in build-fuzz/ and runs each for
# SECONDS (default 600), starting from the seed inputs: the built-in, real-machine, experiment and
# bad scenarios, and the first 300 lines of each shared trace (tests/data/traces). With 0 it only
# replays the seeds (what CI does: the targets keep building and every seed passes their checks).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
traces=tests/data/traces # the real traces of a 2-CPU 6.18 machine (their README)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DSCHEDSCOPE_FUZZ=ON > /dev/null
cmake --build build-fuzz -j2
seeds=build-fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds/scenario" "$seeds/trace" build-fuzz/corpus/scenario build-fuzz/corpus/trace build-fuzz/crashes
cp scenarios/builtin/*.json scenarios/real-machine/*.json tests/data/bad-scenarios/*.json "$seeds/scenario/"
for f in scenarios/experiments/*.json; do cp "$f" "$seeds/scenario/experiment-$(basename "$f")"; done
# A trace input's first byte says where the target cuts it in two feed() calls.
for f in "$traces"/*.trace.xz; do
  [ -e "$f" ] || continue
  (printf A; xz -dc "$f" | sed -n 1,300p) > "$seeds/trace/$(basename "$f" .trace.xz)"
done
run() { # target seed-dir extra-args...
  local target=$1 dir=$2; shift 2
  if [ "$seconds" = 0 ]; then
    local out
    out=$(build-fuzz/fuzz/$target "$@" "$dir"/* 2>&1) || { echo "$out" | tail -n 40; return 1; }
    echo "$target: $(grep -c '^Executed' <<< "$out") seed inputs replayed, every check held"
  else
    build-fuzz/fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -artifact_prefix=build-fuzz/crashes/ "$@" build-fuzz/corpus/"${dir##*/}" "$dir" 2>&1 |
      grep -E "^Done|SUMMARY|runtime error|refused|Test unit written" | sed "s/^/$target: /"
  fi
}
run fuzz_scenario "$seeds/scenario" -max_len=16384 -dict=fuzz/scenario.dict
run fuzz_trace_import "$seeds/trace" -max_len=65536
