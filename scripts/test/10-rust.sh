#!/usr/bin/env bash
# Rust: formatting, lints, unit/integration/doc tests of the core and the CLI.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo fmt --all -- --check
cargo clippy --release --workspace --all-targets -- -D warnings
cargo test --release --workspace
