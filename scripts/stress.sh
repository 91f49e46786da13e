#!/usr/bin/env bash
# The stress run (issue 36; docs/decisions.md#testing): proves the tests hermetic by running them
# many times, at once and under load, and reports every test that ever failed, with its count.
#   rust    every Rust test binary of the workspace, built once (`cargo test --release --no-run`):
#           each integration test binary (core/tests, cli/tests, bridge/tests, ...) REPS times,
#           each crate's unit tests (#[cfg(test)]) UNIT_REPS times (the core's alone take a minute
#           a run, and the core does no I/O), all with --test-threads=THREADS (more threads than
#           cores) in the package's folder, as cargo runs them;
#           the binaries themselves, not cargo-nextest: nextest runs every test in a process of its
#           own, which hides the sharing this run is for (a file, a folder, a variable of one
#           process);
#   python  python/tests against the installed wheel of scripts/test/30-python.sh (built when
#           missing), PY_REPS times, in random order (pytest-random-order, a new seed each time,
#           printed) and in parallel (pytest-xdist, PY_WORKERS processes);
#   node    node/test against the addon built in node/ by scripts/test/40-node.sh (built when
#           missing), NODE_REPS times with --test-concurrency=NODE_CONC;
# the three at once, with BURN busy processes besides. Logs go to target/stress/RUN/; the last lines
# are the table of failures (suite, test, times failed); the exit status is 1 when any failed.
#
#   usage: scripts/stress.sh [--quick] [--reps N] [--unit-reps N] [--threads N] [--py-reps N]
#                            [--py-workers N] [--node-reps N] [--node-conc N] [--burn N] [SUITE...]
#   --quick  the CI form (scripts/test/90-stress.sh): 3 repetitions of the Rust integration tests
#            (no unit tests: the rust step ran them), 1 Python, 1 Node, no burner (1 to 3 minutes
#            on 2 cores); the defaults are the full form: 20 repetitions of each Rust integration
#            test binary and 3 of the unit tests at 8 threads, 5 Python at 4 workers, 5 Node at
#            concurrency 8, 1 burner.
#   SUITE    rust, python or node: only those (default: the three).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

reps=20 unit_reps=3 threads=8 py_reps=5 py_workers=4 node_reps=5 node_conc=8 burn=1
suites=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) reps=3 unit_reps=0 py_reps=1 node_reps=1 burn=0; shift ;;
    --reps) reps=$2; shift 2 ;;
    --unit-reps) unit_reps=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --py-reps) py_reps=$2; shift 2 ;;
    --py-workers) py_workers=$2; shift 2 ;;
    --node-reps) node_reps=$2; shift 2 ;;
    --node-conc) node_conc=$2; shift 2 ;;
    --burn) burn=$2; shift 2 ;;
    rust|python|node) suites+=("$1"); shift ;;
    *) sed -n '2,29p' "$0" >&2; exit 2 ;;
  esac
done
[ ${#suites[@]} -gt 0 ] || suites=(rust python node)
wants() { [[ " ${suites[*]} " == *" $1 "* ]]; }

out="$CARGO_TARGET_DIR/stress/$(date +%Y%m%d-%H%M%S)-$$"
mkdir -p "$out"
fails="$out/failures.tsv" # suite <TAB> test, one line a failure
: > "$fails"
echo "stress: ${suites[*]}; rust $reps x (unit tests $unit_reps x) --test-threads=$threads, python $py_reps x $py_workers workers (random order)," \
  "node $node_reps x --test-concurrency=$node_conc, $burn burner(s); $(nproc) cores; logs in $out"

# --- what each suite needs, built before the clock starts ---------------------------------------

if wants rust; then
  # Every test executable of the workspace with its package's folder (cargo runs a test there).
  cargo test --release --workspace --no-run --message-format=json 2> "$out/rust-build.log" \
    | python3 -c '
import json, os, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        kind = m["target"]["kind"][0]
        name = m["target"]["name"] if kind in ("test", "bench") else m["target"]["name"] + "(" + kind + ")"
        print(name, "integration" if kind == "test" else "unit", m["executable"], os.path.dirname(m["manifest_path"]), sep="\t")
' | sort -u > "$out/rust-binaries.tsv" || { tail -20 "$out/rust-build.log"; exit 1; }
  echo "rust: $(grep -c $'\tintegration\t' "$out/rust-binaries.tsv") integration test binaries, $(grep -c $'\tunit\t' "$out/rust-binaries.tsv") of unit tests"
fi

venv="$CARGO_TARGET_DIR/python-test/venv-wheel"
if wants python; then
  # shellcheck source=scripts/redis-server.sh
  source scripts/redis-server.sh # redis-server for the replay tests (EKL_REQUIRE_REDIS=1)
  # The wheel of 30-python.sh, installed there; built again when a source is newer than that wheel.
  wheel=$(ls -t "$CARGO_TARGET_DIR"/python-test/wheels/ekl_evidence-*.whl 2>/dev/null | head -1 || true)
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ekl_evidence' 2>/dev/null || [ -z "$wheel" ] \
    || [ -n "$(find python/ekl_evidence python/src core/src bridge/src -newer "$wheel" -type f | head -1)" ]; then
    echo "python: building and installing the wheel (scripts/test/30-python.sh, EKL_PY_QUICK=1)"
    EKL_PY_QUICK=1 bash scripts/test/30-python.sh > "$out/python-build.log" 2>&1 \
      || { tail -20 "$out/python-build.log"; exit 1; }
  fi
  # The plugins, at the test pins of scripts/python-tools.sh (30-python.sh installs them; a venv of
  # an older run gets them here).
  source scripts/python-tools.sh
  if ! "$venv/bin/python" -c 'import xdist, random_order' 2>/dev/null; then
    # shellcheck disable=SC2086,SC2154 # one word a pin; test_pins: set by python-tools.sh
    "$venv/bin/python" -m pip install -q --disable-pip-version-check $test_pins
  fi
fi

if wants node; then
  # shellcheck source=scripts/redis-server.sh
  source scripts/redis-server.sh
  if [ ! -f node/ekl-evidence.linux-x64-gnu.node ] || [ ! -f node/wasm/binding.cjs ] || [ ! -d node/node_modules ]; then
    bash scripts/test/40-node.sh > "$out/node-build.log" 2>&1 || { tail -20 "$out/node-build.log"; exit 1; }
  fi
fi

# --- the runs ------------------------------------------------------------------------------------

run_rust() {
  local rep name kind exe dir log rc
  for rep in $(seq "$(( reps > unit_reps ? reps : unit_reps ))"); do
    while IFS=$'\t' read -r name kind exe dir; do
      if [ "$rep" -gt "$([ "$kind" = integration ] && echo "$reps" || echo "$unit_reps")" ]; then continue; fi
      log="$out/rust/$rep-$name.log"
      mkdir -p "$out/rust"
      rc=0
      (cd "$dir" && CARGO_MANIFEST_DIR="$dir" RUST_BACKTRACE=0 timeout -k 10 1200 "$exe" --test-threads="$threads") < /dev/null > "$log" 2>&1 || rc=$?
      sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$log" | while read -r t; do printf 'rust\t%s::%s\n' "$name" "$t" >> "$fails"; done
      if [ "$rc" != 0 ] && ! grep -q ' \.\.\. FAILED$' "$log"; then
        printf 'rust\t%s (exit %s, no test named: a crash or the 1200 s limit)\n' "$name" "$rc" >> "$fails"
      fi
    done < "$out/rust-binaries.tsv"
    echo "rust: repetition $rep done ($(grep -c '^rust' "$fails" || true) failures so far)"
  done
}

run_python() {
  local rep seed log run_dir rc
  for rep in $(seq "$py_reps"); do
    seed=$(( (RANDOM << 15) | RANDOM ))
    log="$out/python-$rep.log"
    run_dir=$(mktemp -d "$out/python-run-XXXXXX")
    # From outside the source tree, against the installed package, no Rust toolchain on PATH (as
    # scripts/test/30-python.sh runs them).
    rc=0
    (cd "$run_dir" && PATH=/usr/bin:/bin timeout -k 10 1800 "$venv/bin/python" -m pytest -q -p no:cacheprovider \
      -n "$py_workers" --random-order --random-order-seed="$seed" -rfE "$root/python/tests") < /dev/null > "$log" 2>&1 || rc=$?
    # "FAILED path::test[id] - message" (-rfE): the test's id, its path from the repository
    sed -n 's/^\(FAILED\|ERROR\) \(.*\)$/\2/p' "$log" | sed 's/ - .*//; s|^\(\.\./\)*||' \
      | while read -r t; do printf 'python\t%s\n' "$t" >> "$fails"; done
    # 0: all passed, 1: some failed (listed above); anything else: the run itself did not complete.
    if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
      printf 'python\t(the run itself failed, exit %s: %s)\n' "$rc" "$log" >> "$fails"
    fi
    echo "python: repetition $rep of $py_reps (seed $seed): $(tail -1 "$log")"
  done
}

run_node() {
  local rep log rc
  # The example test compares with examples/python/agent.py through the wheel's venv (as 40-node.sh).
  if [ -z "${PYTHON:-}" ] && [ -x "$venv/bin/python" ]; then export PYTHON="$venv/bin/python"; fi
  for rep in $(seq "$node_reps"); do
    log="$out/node-$rep.log"
    rc=0
    (cd node && RUST_BACKTRACE=0 timeout -k 10 1800 node --test --test-concurrency="$node_conc" --test-reporter=tap test/) < /dev/null > "$log" 2>&1 || rc=$?
    # Failed tests (TAP "not ok", at any depth; a file whose test failed is listed too).
    sed -n '/# TODO/!s/^ *not ok [0-9]* - \(.*\)$/\1/p' "$log" | while read -r t; do printf 'node\t%s\n' "$t" >> "$fails"; done
    if { [ "$rc" != 0 ] && [ "$rc" != 1 ]; } || ! grep -q '^# pass [1-9]' "$log"; then
      printf 'node\t(the run itself failed, exit %s: %s)\n' "$rc" "$log" >> "$fails"
    fi
    echo "node: repetition $rep of $node_reps: $(grep -E '^# (tests|pass|fail) ' "$log" | tr '\n' ' ')"
  done
}

burners=()
stop_burners() { for p in "${burners[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_burners EXIT
for _ in $(seq "$burn"); do
  (while :; do :; done) &
  burners+=($!)
done

t0=$(date +%s)
pids=()
if wants rust; then run_rust & pids+=($!); fi
if wants python; then run_python & pids+=($!); fi
if wants node; then run_node & pids+=($!); fi
# A runner that stopped before its last repetition (a bug of this script) is a failure too.
for p in "${pids[@]}"; do wait "$p" || printf 'stress\t(a runner stopped early, exit %s)\n' "$?" >> "$fails"; done
stop_burners

n=$(wc -l < "$fails")
echo "stress: done in $(( $(date +%s) - t0 )) s; $n failure(s)"
if [ "$n" -gt 0 ]; then
  echo "times  suite   test"
  sort "$fails" | uniq -c | sort -rn | awk -F'\t' '{ split($1, a, " "); printf "%5d  %-7s %s\n", a[1], a[2], $2 }'
  exit 1
fi
