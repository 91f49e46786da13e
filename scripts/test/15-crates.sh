#!/usr/bin/env bash
# The Rust crates as the Rust registry would get them (docs/decisions.md#rust-registry):
#  1. `cargo package --list` of ekl-es256, ekl-core, ekl-bridge, ekl-conformance and ekl-cli: sources, README,
#     licences, the manifest and the lock only (no tests, test data, vectors, examples or target
#     dirs);
#  2. `cargo publish --dry-run` of the four together (unpublished path dependencies are packaged
#     together against a local overlay registry: nothing of ours needs to be on the registry),
#     without its verification build: step 4 compiles the same packaged sources of all four (the
#     CLI and, patched in, the three libraries it depends on) in the same dev profile, so the
#     verification compiled our four crates a second time for nothing (docs/decisions/testing.md#suite-time);
#  3. each .crate under its size bound;
#  4. `cargo install` of the packaged ekl-cli (its packaged ekl-core, ekl-bridge and ekl-conformance
#     patched in, as the registry would serve them) gives `ekl`, which prints its version,
#     canonicalises and answers a conformance request;
#  5. the README's Rust quick start runs as a doc test of ekl-core (`--doc`);
#  6. cli/Cargo.toml's binstall templates name the release workflow's archives for its 7 targets,
#     and the host's archive, unpacked as binstall does, runs (scripts/dist/check_binstall.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
export CARGO_TARGET_DIR=$target
crates=(ekl-es256 ekl-core ekl-bridge ekl-conformance ekl-cli)
pflags=(-p ekl-es256 -p ekl-core -p ekl-bridge -p ekl-conformance -p ekl-cli)
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
# Upper bounds of the compressed .crate files, bytes (0.1.0: 156, 41, 59 and 63 KB; 187, 49, … after
# issue 37 put the replay guard, the remote key set policy and the MCP session in the core and bridge;
# issue 43 moved ES256 verification out of the core into ekl-es256: 34 KB, the core 170 KB).
declare -A bound=([ekl-es256]=40000 [ekl-core]=220000 [ekl-bridge]=56000 [ekl-conformance]=90000 [ekl-cli]=80000)

# 1. What each package carries.
for c in "${crates[@]}"; do
  list=$(cargo package -q --list --allow-dirty -p "$c")
  bad=$(grep -Ev '^(\.cargo_vcs_info\.json|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|README\.md|LICENSE-APACHE|LICENSE-MIT|src/[A-Za-z0-9_/]+\.rs)$' <<< "$list" || true)
  [ -z "$bad" ] || { echo "$c: files that do not belong in the package:"; echo "$bad"; exit 1; }
  for need in Cargo.toml README.md LICENSE-APACHE LICENSE-MIT; do
    grep -qx "$need" <<< "$list" || { echo "$c: $need missing from the package"; exit 1; }
  done
  grep -Eqx 'src/(lib|main)\.rs' <<< "$list" || { echo "$c: no src/lib.rs or src/main.rs"; exit 1; }
  echo "package $c: $(wc -l <<< "$list") files, sources/README/licences only"
done
# Our path dependencies carry the workspace's version, exactly (what the published crates ask for).
for c in ekl-es256 ekl-core ekl-bridge ekl-conformance; do
  grep -Eq "^$c = \{ path = \"[a-z0-9]+\", version = \"=$version\" \}" Cargo.toml \
    || { echo "Cargo.toml: [workspace.dependencies] $c must be { path, version = \"=$version\" }"; exit 1; }
done
# The binding crates stay unpublished.
for c in python node wasm; do
  grep -qx 'publish = false' "$c/Cargo.toml" || { echo "$c/Cargo.toml: publish = false missing"; exit 1; }
done

# 2. The dry run of the release's `cargo publish` (packages and verifies all four).
t0=$(date +%s)
cargo publish -q --dry-run --no-verify --allow-dirty "${pflags[@]}"
echo "cargo publish --dry-run ${crates[*]}: $(( $(date +%s) - t0 )) s"

# 3. The .crate files (packaged again: the dry run keeps them internal).
cargo package -q --no-verify --allow-dirty "${pflags[@]}"
work=$target/crates-check
rm -rf "$work" && mkdir -p "$work/src"
for c in "${crates[@]}"; do
  f=$target/package/$c-$version.crate
  size=$(wc -c < "$f")
  [ "$size" -le "${bound[$c]}" ] || { echo "$c: $size bytes, more than the bound ${bound[$c]}"; exit 1; }
  if tar -tzf "$f" | grep -Ev "^$c-$version/" | grep -q .; then echo "$c: a member outside $c-$version/"; exit 1; fi
  if tar -tzf "$f" | grep -Eq '/(tests|target|benches|examples|fuzz|vectors|data)/'; then echo "$c: test data or a target dir in the .crate"; exit 1; fi
  tar -xzf "$f" -C "$work/src"
  echo "crate $c-$version: $size bytes (bound ${bound[$c]})"
done

# 4. `cargo install ekl-cli`, from the packaged crates (cargo's config name of the registry is
# `crates-io`: the patch stands in for the registry serving ekl-core, ekl-bridge and ekl-conformance).
src=$work/src
cargo install -q --offline --debug --force --path "$src/ekl-cli-$version" --root "$work/root" \
  --config "patch.crates-io.ekl-es256.path=\"$src/ekl-es256-$version\"" \
  --config "patch.crates-io.ekl-core.path=\"$src/ekl-core-$version\"" \
  --config "patch.crates-io.ekl-bridge.path=\"$src/ekl-bridge-$version\"" \
  --config "patch.crates-io.ekl-conformance.path=\"$src/ekl-conformance-$version\""
got=$("$work/root/bin/ekl" --version)
[ "$got" = "ekl $version" ] || { echo "installed ekl --version: $got"; exit 1; }
canon=$(printf '{"b":1,"a":[1.0,"\\u00e9"]}' | "$work/root/bin/ekl" canon)
[ "$canon" = '{"a":[1,"é"],"b":1}' ] || { echo "installed ekl canon: $canon"; exit 1; }
answer=$(printf '{"id":1,"op":"digest","input":"[1.0]"}\n' | "$work/root/bin/ekl" conformance --serve)
[ "$answer" = "{\"id\":1,\"ok\":\"$(printf '[1]' | sha256sum | cut -d' ' -f1)\"}" ] \
  || { echo "installed ekl conformance --serve: $answer"; exit 1; }
echo "cargo install (packaged ekl-cli): $got, canon ok, conformance --serve ok"

# 5. The README's quick start, a doc test of ekl-core.
out=$(cargo test -q --release -p ekl-core --doc ReadmeQuickStart 2>&1)
grep -Eq 'test result: ok\. 1 passed' <<< "$out" || { echo "$out"; echo "the README doc test did not run"; exit 1; }
echo "doc test: the README's Rust quick start passed"

# 6. binstall's templates against the release workflow's archives.
python3 scripts/dist/check_binstall.py --real "$work/root/bin/ekl"
