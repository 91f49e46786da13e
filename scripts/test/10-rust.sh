#!/usr/bin/env bash
# Rust: formatting, lints, unit/integration/doc tests of the core and the CLI, and the API docs of
# the published library crates (ekl-es256, ekl-core, ekl-bridge, ekl-conformance) built without a broken or
# private link.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo fmt --all -- --check
# The house rule: every non-test function under 150 lines (scripts/lib/fn_length.py).
python3 scripts/lib/fn_length.py
cargo clippy --release --workspace --all-targets -- -D warnings
cargo test --release --workspace
RUSTDOCFLAGS="-D warnings" cargo doc --release -p ekl-es256 -p ekl-core -p ekl-bridge -p ekl-conformance --no-deps --quiet
# ES256 over the 29-bit-limb field that wasm32 uses (es256/src/fe29.rs), natively: the field's own
# tests against p256's field, the differential tests against p256's verifier and Wycheproof.
cargo test --release -p ekl-es256 --features fe29 --lib -- es256 fe29
cargo test --release -p ekl-core --features fe29 --test wycheproof_es256
