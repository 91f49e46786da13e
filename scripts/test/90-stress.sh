#!/usr/bin/env bash
# The short form of the stress run (scripts/stress.sh --quick; issue 36): every Rust integration test binary
# 3 times at --test-threads=8, the Python tests once in random order on 4 xdist workers and the Node
# tests once at --test-concurrency=8, the three at once on this machine's cores; one failure fails
# the step, and the table names every test that failed. Reuses the wheel of 30-python.sh and the
# addon of 40-node.sh (./run test runs them first). The full form: ./run test --stress.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec bash scripts/stress.sh --quick "$@"
