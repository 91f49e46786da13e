#!/usr/bin/env bash
# The figures of README.md ("Throughput measured here"): one archive made by make_archive.py,
# verified by verify_archive.py on a local cluster (2 workers, 1 thread each) and by
# `ekl receipt verify-archive --jobs 2`, back to back, full and failures-only, ROUNDS times.
#   bash examples/dask/bench.sh [N] [ROUNDS]   (python: a venv with requirements.txt and the
#   package; EKL: the CLI, default target/release/ekl; DIR: where the archive and outputs go)
set -uo pipefail
cd "$(dirname "$0")/../.."
n=${1:-1000000}; rounds=${2:-1}
py=${PYTHON:-python}; ekl=${EKL:-target/release/ekl}; dir=${DIR:-target/dask-bench}
arch="$dir/archive"; out="$dir/out"
ctx=(--jwks "$arch/jwks.json" --key-ring "$arch/key-ring.json" --agent-id agt_consumer --issuer https://network.test)
if [ ! -f "$arch/key-ring.json" ]; then
  "$py" examples/dask/make_archive.py --n "$n" --out "$arch" --partition-items 20000
fi
[ -f "$dir/all.jsonl" ] || cat "$arch"/part-*.jsonl > "$dir/all.jsonl"
echo "archive: $(ls "$arch"/part-*.jsonl | wc -l) partitions, $(stat -c %s "$dir/all.jsonl") bytes, $(grep -c . "$dir/all.jsonl") items"
nproc; uptime
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, peak RSS (largest process) %M KB" "$@"; }
for r in $(seq "$rounds"); do
  for mode in full failures-only; do
    flag=(); [ "$mode" = full ] || flag=(--failures-only)
    rm -rf "$out" && mkdir -p "$out"
    echo "round $r, $mode: dask (2 workers x 1 thread); $(uptime | sed 's/.*load/load/')"
    t "$py" examples/dask/verify_archive.py "${ctx[@]}" "${flag[@]}" --no-progress \
      --out "$out/dask" "$arch/part-*.jsonl" > "$out/summaries.jsonl"
    echo "  output $(du -sb "$out/dask" | cut -f1) bytes"
    echo "round $r, $mode: ekl --jobs 2; $(uptime | sed 's/.*load/load/')"
    t "$ekl" receipt verify-archive --jobs 2 --no-progress "${ctx[@]}" "${flag[@]}" "$dir/all.jsonl" > "$out/cli.jsonl"
    echo "  output $(stat -c %s "$out/cli.jsonl") bytes"
  done
done
