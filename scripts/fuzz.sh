#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# ./run fuzz [SECS]: every cargo-fuzz target in fuzz/fuzz_targets, one after the other, SECS seconds
# each (default 600). Installs cargo-fuzz when missing. Only the stable toolchain exists here, so the
# nightly flags cargo-fuzz needs are unlocked with RUSTC_BOOTSTRAP=1.
# A target NAME may have a seed script fuzz/seeds/NAME.sh (called with the seed folder as $1).
# Extra libFuzzer flags: FUZZ_FLAGS (default "-jobs=1 -workers=1"); only some targets: FUZZ_TARGETS.
# Besides the cargo targets: `py_convert` (atheris, python/fuzz/fuzz_convert.py: the Python host
# conversion against the text path) and `js_convert` (node/fuzz/fuzz_convert.mjs: the JS host
# conversion against the text path, a seeded generator under a time budget).
set -euo pipefail
cd "$(dirname "$0")/.."
# The python test step's outputs: under $CARGO_TARGET_DIR when set (absolute: the loop runs in fuzz/).
py_test="$(realpath -m "${CARGO_TARGET_DIR:-target}")/python-test"
secs=${1:-600}
# shellcheck source=scripts/lib/venv.sh
source scripts/lib/venv.sh
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2
fi
targets=${FUZZ_TARGETS:-$(ls fuzz/fuzz_targets | sed -n 's/\.rs$//p' | sort) py_convert js_convert}
read -r -a flags <<<"${FUZZ_FLAGS:--jobs=1 -workers=1}"
cd fuzz
status=0
host_target() {
  local t=$1 t0 result=ok
  t0=$(date +%s)
  case "$t" in
    py_convert)
      # The wheel of the python test step (scripts/test/30-python.sh), with atheris beside it (a
      # venv kept while atheris's pin is the same: the wheel is installed anew each time).
      local venv=$py_test/venv-fuzz wheel
      wheel=$(ls "$py_test"/wheels/ekl_evidence-*.whl 2>/dev/null | head -n 1)
      if [ -z "$wheel" ]; then (cd .. && EKL_PY_QUICK=1 bash scripts/test/30-python.sh >/dev/null); wheel=$(ls "$py_test"/wheels/ekl_evidence-*.whl | head -n 1); fi
      ekl_venv --python python3 "$venv" atheris==3.0.0
      "$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
      mkdir -p corpus/py_convert
      "$venv/bin/python" ../python/fuzz/fuzz_convert.py corpus/py_convert -max_total_time="$secs" -print_final_stats=1 \
        > artifacts/py_convert.log 2>&1 || result=FAILED
      grep -E '^stat::|^Done ' artifacts/py_convert.log || tail -n 20 artifacts/py_convert.log ;;
    js_convert)
      node ../node/fuzz/fuzz_convert.mjs "$secs" > artifacts/js_convert.log 2>&1 || result=FAILED
      tail -n 5 artifacts/js_convert.log ;;
  esac
  echo "<== fuzz: $t $result in $(( $(date +%s) - t0 )) s"
  [ "$result" = ok ]
}

mkdir -p artifacts
for t in $targets; do
  echo "==> fuzz: $t for $secs s"
  if [ "$t" = py_convert ] || [ "$t" = js_convert ]; then
    host_target "$t" || status=1
    continue
  fi
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
