#!/usr/bin/env bash
# ./run fuzz [SECS]: every cargo-fuzz target in fuzz/fuzz_targets, one after the other, SECS seconds
# each (default 600). Installs cargo-fuzz when missing. Only the stable toolchain exists here, so the
# nightly flags cargo-fuzz needs are unlocked with RUSTC_BOOTSTRAP=1.
# A target NAME may have a seed script fuzz/seeds/NAME.sh (called with the seed folder as $1).
# Extra libFuzzer flags: FUZZ_FLAGS (default "-jobs=1 -workers=1"); only some targets: FUZZ_TARGETS.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2
fi
targets=${FUZZ_TARGETS:-$(ls fuzz/fuzz_targets | sed -n 's/\.rs$//p' | sort)}
read -r -a flags <<<"${FUZZ_FLAGS:--jobs=1 -workers=1}"
cd fuzz
status=0
for t in $targets; do
  echo "==> fuzz: $t for $secs s"
  mkdir -p "corpus/$t" "seeds/$t" "artifacts/$t"
  if [ -x "seeds/$t.sh" ]; then "./seeds/$t.sh" "seeds/$t"; fi
  if [ -d "regressions/$t" ]; then cp regressions/"$t"/* "seeds/$t/" 2>/dev/null || true; fi
  rm -f fuzz-*.log
  t0=$(date +%s)
  if cargo fuzz run --release "$t" "corpus/$t" "seeds/$t" -- \
      -max_total_time="$secs" -print_final_stats=1 "${flags[@]}"; then
    result=ok
  else
    result=FAILED; status=1
  fi
  # With -jobs, libFuzzer writes its output to fuzz-N.log: show the tail and the stats.
  for log in fuzz-*.log; do
    [ -f "$log" ] || continue
    if grep -q -E 'ERROR: libFuzzer|panicked|deadly signal|SUMMARY: .*Sanitizer' "$log"; then result=FAILED; status=1; fi
    grep -E '^stat::|^Done ' "$log" || tail -n 5 "$log"
    mv "$log" "artifacts/$t/last-$log"
  done
  if ls "artifacts/$t"/crash-* "artifacts/$t"/leak-* "artifacts/$t"/timeout-* "artifacts/$t"/oom-* >/dev/null 2>&1; then
    result=FAILED; status=1
  fi
  echo "<== fuzz: $t $result in $(( $(date +%s) - t0 )) s (corpus: $(ls "corpus/$t" | wc -l) units)"
done
exit $status
