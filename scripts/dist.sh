#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# ./run dist: builds into dist/ every release artifact this Linux x86_64 machine can build, verifies
# each one as far as it can here, checks the size budgets and prints one table:
#   artifact | size | platform tag | how verified
# "run" means the artifact was installed and the vector files passed through it (x86_64 natively,
# aarch64 under qemu-user with Debian's arm64 CPython / Node unpacked into a sysroot); "inspected"
# means only its tags, format, linked libraries and exported entry point were checked (musl, macOS,
# Windows: no interpreter for them here). The release workflow (.github/workflows/release.yml)
# builds the same set on native runners, where every one of them is run.
#
# One run at a time: maturin stages every build in target/maturin/ (two at once overwrite each other).
# Cross-compilation: maturin --zig (Python wheels) and cargo-zigbuild (Node addons), both with the
# zig of PyPI's ziglang; the Windows artifacts are x86_64-pc-windows-gnu (zig's mingw target;
# pyo3's generate-import-lib). The npm win32-x64-msvc addon needs the MSVC toolchain: only the
# release workflow builds it (windows-latest).
#
#   ./run dist            everything
#   EKL_DIST_ONLY="python node"   one family (python, node, npm)
#   EKL_DIST_NO_QEMU=1    skip the qemu runs (aarch64 artifacts are then only inspected)
#   EKL_DIST_ADDONS="linux-x64-gnu linux-arm64-gnu"   only these Node addons (default: all seven)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
out=$root/dist
work=$CARGO_TARGET_DIR/dist-work
only=" ${EKL_DIST_ONLY:-python node npm} "
mkdir -p "$work"
rm -rf "$out" && mkdir -p "$out"
rows=$work/rows.tsv
: > "$rows"
row() { printf '%s\t%s\t%s\t%s\n' "$@" >> "$rows"; }
say() { echo "dist: $*" >&2; }

# Size budgets (docs/decisions.md#packaging): bytes.
BUDGET_WHEEL=$((1536 * 1024))      # a wheel (one compiled module)
BUDGET_SDIST=$((512 * 1024))       # the sdist (sources of the workspace crates it needs)
BUDGET_ADDON_TGZ=$((1536 * 1024))  # a platform package's tarball (one .node)
BUDGET_MAIN_TGZ=$((704 * 1024))    # the main npm tarball (JS, types, two wasm modules, each file once)
BUDGET_WASM_GZ=$((360 * 1024))     # the full wasm module, gzip (wasm/test/size.test.mjs measures with zlib level 9)
BUDGET_VERIFY_GZ=$((200 * 1024))   # the verify build (the browser entry), gzip (wasm/test/verify-build.test.mjs)
over=0
overruns=$work/overruns   # budget() runs in $(...): it records an overrun in this file
: > "$overruns"
budget() { # FILE BUDGET -> "N KB (budget M KB)"; an overrun is recorded
  local n; n=$(stat -c %s "$1")
  if [ "$n" -gt "$2" ]; then echo "$1" >> "$overruns"; printf '%d KB (OVER budget %d KB)' $((n / 1024)) $(($2 / 1024));
  else printf '%d KB (budget %d KB)' $((n / 1024)) $(($2 / 1024)); fi
}

# ---------------------------------------------------------------------------------------- tools
# shellcheck source=scripts/python-tools.sh
source scripts/python-tools.sh   # $tools: venv with maturin, ziglang, auditwheel (pinned); ekl_venv
zig_dir=$("$tools/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')
export PATH="$tools/bin:$root/target/tools/bin:$PATH"
for t in aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl \
         x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu; do
  rustup target list --installed | grep -x "$t" >/dev/null || rustup target add "$t"
done
if ! command -v cargo-zigbuild >/dev/null; then
  say "cargo install cargo-zigbuild 0.24.1 (about 3 min cold)"
  cargo install cargo-zigbuild --version 0.24.1 --root "$root/target/tools"
fi
llvm_bin=$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin
if [ ! -x "$llvm_bin/llvm-objdump" ]; then rustup component add llvm-tools; fi
objdump_=$llvm_bin/llvm-objdump
export PATH="$PATH:$zig_dir"   # cargo-zigbuild finds zig here (python -m ziglang works too)

# qemu-user and an arm64 sysroot with Debian's CPython and Node (unpacked, not installed)
sysroot=$work/arm64-sysroot
qemu=""
if [ "${EKL_DIST_NO_QEMU:-0}" != 1 ]; then
  if ! command -v qemu-aarch64-static >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >/dev/null || true
  fi
  if command -v qemu-aarch64-static >/dev/null; then
    # shellcheck disable=SC2015,SC2100 # say cannot fail; qemu-aarch64-static is a name
    bash scripts/dist/arm64-sysroot.sh "$sysroot" && qemu=qemu-aarch64-static || say "no arm64 sysroot: aarch64 only inspected"
  fi
fi

# Inspection helpers: the libraries an artifact links and its exported entry point.
libs_of() { # FILE -> space-separated needed libraries
  case "$(file -b "$1")" in
    ELF*) readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' ;;
    Mach-O*) # the dylib's own install name (LC_ID_DYLIB) is listed first: not a dependency
      local id; id=$("$objdump_" --macho --dylib-id "$1" | tail -n +2 | awk '{print $1}')
      "$objdump_" --macho --dylibs-used "$1" | tail -n +2 | awk -v id="$id" '$1 != id {print $1}' | tr '\n' ' ' ;;
    PE32*) "$objdump_" -p "$1" | sed -n 's/^\s*DLL Name: //p' | tr '\n' ' ' ;;
  esac
}
exports_sym() { # FILE SYMBOL -> 0 when exported
  case "$(file -b "$1")" in
    ELF*) readelf --dyn-syms -W "$1" | awk '$5=="GLOBAL" && $7!="UND" {print $8}' | grep -x "$2" >/dev/null ;;
    Mach-O*) "$objdump_" --macho --exports-trie "$1" | grep "_$2\b" >/dev/null ;;
    PE32*) "$objdump_" -p "$1" | grep -w "$2" >/dev/null ;;
  esac
}
max_glibc() { objdump -T "$1" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1; }
check_libs() { # FILE ALLOWED-REGEX -> fails on a library outside the list
  local lib bad=""
  for lib in $(libs_of "$1"); do [[ "$lib" =~ ^($2)$ ]] || bad="$bad $lib"; done
  [ -z "$bad" ] || { say "$(basename "$1"): unexpected libraries:$bad"; return 1; }
}
ELF_GNU='libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|libgcc_s\.so\.1|ld-linux-(x86-64|aarch64)\.so\.[12]|librt\.so\.1'
ELF_MUSL='libc\.musl-(x86_64|aarch64)\.so\.1|libc\.so'
MACHO='@rpath/(ekl_evidence\._native\.abi3\.so|libekl_node\.dylib)|/usr/lib/libSystem\.B\.dylib|/usr/lib/libcharset\.1\.dylib|/usr/lib/libiconv\.2\.dylib|/System/Library/Frameworks/(Security|CoreFoundation)\.framework/.*'
PE_PY='python3\.dll|KERNEL32\.dll|kernel32\.dll|msvcrt\.dll|ntdll\.dll|bcryptprimitives\.dll|ADVAPI32\.dll|advapi32\.dll|USERENV\.dll|userenv\.dll|WS2_32\.dll|ws2_32\.dll|api-ms-win-[a-z0-9-]+\.dll'
PE_NODE='node\.exe|KERNEL32\.dll|kernel32\.dll|msvcrt\.dll|ntdll\.dll|bcryptprimitives\.dll|ADVAPI32\.dll|advapi32\.dll|USERENV\.dll|userenv\.dll|WS2_32\.dll|ws2_32\.dll|api-ms-win-[a-z0-9-]+\.dll'

# ------------------------------------------------------------------------------ Python wheels
if [[ "$only" == *" python "* ]]; then
  # shellcheck disable=SC2034 # unused
  pyver=$(cat python/Cargo.toml Cargo.toml | sed -n 's/^version = "\(.*\)"/\1/p' | head -1)
  wheels=$work/wheels
  rm -rf "$wheels" && mkdir -p "$wheels"
  for spec in x86_64-unknown-linux-gnu:manylinux2014 aarch64-unknown-linux-gnu:manylinux2014 \
              x86_64-unknown-linux-musl:musllinux_1_2 aarch64-unknown-linux-musl:musllinux_1_2 \
              x86_64-apple-darwin: aarch64-apple-darwin: x86_64-pc-windows-gnu:; do
    triple=${spec%%:*} compat=${spec#*:}
    say "wheel for $triple"
    t0=$(date +%s)
    if [[ "$triple" == *windows* ]]; then
      # Debian's mingw-w64 links it (maturin's zig path writes a wrong export for a dotted module
      # name); abi3-py39 as everywhere: python/src/pystr.rs copies str text there (python3.dll
      # lacks PyUnicode_AsUTF8AndSize before 3.10), which the import check below confirms.
      command -v x86_64-w64-mingw32-gcc >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
      maturin build --release --strip --target "$triple" -m python/Cargo.toml -o "$wheels/$triple" -q
    else
      maturin build --release --strip --zig --target "$triple" ${compat:+--compatibility "$compat"} \
        -m python/Cargo.toml -o "$wheels/$triple" -q
    fi
    whl=$(ls "$wheels/$triple"/*.whl)
    cp "$whl" "$out/"
    whl=$out/$(basename "$whl")
    tag=$(basename "$whl" .whl | cut -d- -f3-)
    x=$work/unzip-$triple && rm -rf "$x" && mkdir -p "$x" && (cd "$x" && unzip -q "$whl")
    mod=$(ls "$x"/ekl_evidence/_native.* | head -1)
    # Inspected on every wheel: the license files, the module's format, its libraries, PyInit.
    for f in LICENSE-APACHE LICENSE-MIT; do
      ls "$x"/ekl_evidence-*.dist-info/licenses/$f >/dev/null 2>&1 || { say "$whl: no $f"; exit 1; }
    done
    grep -q '^License-Expression: Apache-2.0 OR MIT$' "$x"/ekl_evidence-*.dist-info/METADATA
    exports_sym "$mod" PyInit__native || { say "$mod: PyInit__native not exported"; exit 1; }
    fmt=$(file -b "$mod" | cut -d, -f1-2)
    case "$triple" in
      *linux-gnu) check_libs "$mod" "$ELF_GNU"; extra="glibc $(max_glibc "$mod" | sed 's/GLIBC_//') max" ;;
      *linux-musl) check_libs "$mod" "$ELF_MUSL"; extra="static musl" ;;
      *darwin) check_libs "$mod" "$MACHO"; extra="libSystem only, dynamic_lookup" ;;
      *windows*) check_libs "$mod" "$PE_PY"
        # The 3.9 python3.dll does not export it: the module must not import it.
        if "$objdump_" -p "$mod" | grep -w PyUnicode_AsUTF8AndSize >/dev/null; then
          say "$mod imports PyUnicode_AsUTF8AndSize, which CPython 3.9's python3.dll lacks"; exit 1
        fi
        extra="links python3.dll (abi3, CPython >= 3.9; no PyUnicode_AsUTF8AndSize import), mingw-w64 build" ;;
    esac
    if [[ "$compat" == manylinux* ]]; then
      aw=$(auditwheel show "$whl" 2>&1 | tr '\n' ' ')
      [[ "$aw" == *'"manylinux_2_17_'* ]] || { say "auditwheel: $aw"; exit 1; }
      extra="$extra; auditwheel: manylinux_2_17"
    elif [[ "$compat" == musllinux* ]]; then
      # pypa's auditwheel cannot read musl wheels on a glibc host; maturin checked the
      # musllinux_1_2 policy when it built the wheel, and the module needs libc.so only.
      extra="$extra; maturin's musllinux_1_2 check"
    fi
    how="inspected: $fmt; $extra; PyInit__native; licenses"
    case "$triple" in
      x86_64-unknown-linux-gnu)
        v=$work/venv-x86_64 && ekl_venv --fresh --python python3 "$v"
        t1=$(date +%s%N)
        PATH=/usr/bin:/bin "$v/bin/python" -m pip install -q --no-index --disable-pip-version-check "$whl"
        it=$(( ($(date +%s%N) - t1) / 1000000 ))
        res=$(cd "$work" && PATH=/usr/bin:/bin "$v/bin/python" "$root/scripts/dist/run_vectors.py")
        how="RUN natively (CPython $("$v/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'), pip --no-index, no cargo on PATH, install ${it} ms): ${res%% (*}; $extra" ;;
      aarch64-unknown-linux-gnu)
        if [ -n "$qemu" ]; then
          site=$work/site-arm64 && rm -rf "$site" && cp -r "$x" "$site"
          res=$(cd "$work" && PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$qemu" -L "$sysroot" "$sysroot/usr/bin/python3.11" "$root/scripts/dist/run_vectors.py" 2>&1) \
            || { say "qemu python: $res"; exit 1; }
          how="RUN under qemu-aarch64 (Debian CPython 3.11 arm64): ${res%% (*}; $extra"
        fi ;;
    esac
    row "$(basename "$whl")" "$(budget "$whl" $BUDGET_WHEEL)" "$tag" "$how"
    say "  $(basename "$whl") in $(( $(date +%s) - t0 )) s"
  done

  say "sdist"
  maturin sdist -m python/Cargo.toml -o "$work/sdist" >/dev/null
  sd=$(ls "$work"/sdist/ekl_evidence-*.tar.gz) && cp "$sd" "$out/" && sd=$out/$(basename "$sd")
  for f in LICENSE-APACHE LICENSE-MIT build_backend/ekl_build.py pyproject.toml; do
    tar -tzf "$sd" | grep "/$f\$" >/dev/null || { say "sdist: no $f"; exit 1; }
  done
  # Without cargo: the clear error, at once (no toolchain download).
  v=$work/venv-nocargo && ekl_venv --fresh --python python3 "$v" "maturin==$MATURIN"
  t1=$(date +%s)
  if msg=$(PATH=/usr/bin:/bin "$v/bin/python" -m pip install --no-index --no-build-isolation --disable-pip-version-check "$sd" 2>&1); then
    say "sdist installed without cargo?"; exit 1
  fi
  grep -q "ekl-evidence: building from source needs a Rust toolchain" <<< "$msg" || { say "sdist without cargo: $msg"; exit 1; }
  nocargo="without cargo: the one-line error in $(( $(date +%s) - t1 )) s"
  # With cargo: builds and passes the vectors.
  v=$work/venv-sdist && ekl_venv --fresh --python python3 "$v"
  t1=$(date +%s)
  "$v/bin/python" -m pip install -q --disable-pip-version-check "$sd"
  res=$(cd "$work" && "$v/bin/python" "$root/scripts/dist/run_vectors.py")
  row "$(basename "$sd")" "$(budget "$sd" $BUDGET_SDIST)" "source (Rust >= 1.88)" \
    "RUN: pip built it with cargo in $(( $(date +%s) - t1 )) s: ${res%% (*}; $nocargo; licenses"
fi

# ------------------------------------------------------------------------------- Node addons
addons=$work/addons
if [[ "$only" == *" node "* ]]; then
  rm -rf "$addons" && mkdir -p "$addons"
  : > "$work/addon-rows"
  for spec in x86_64-unknown-linux-gnu.2.17:linux-x64-gnu aarch64-unknown-linux-gnu.2.17:linux-arm64-gnu \
              x86_64-unknown-linux-musl:linux-x64-musl aarch64-unknown-linux-musl:linux-arm64-musl \
              x86_64-apple-darwin:darwin-x64 aarch64-apple-darwin:darwin-arm64 x86_64-pc-windows-gnu:win32-x64-gnu; do
    zt=${spec%%:*} plat=${spec#*:} triple=${zt%.2.17}
    if [ -n "${EKL_DIST_ADDONS:-}" ] && [[ " $EKL_DIST_ADDONS " != *" $plat "* ]]; then
      row "ekl-evidence-$plat (not built)" "-" "$plat" "NOT BUILT in this run (EKL_DIST_ADDONS); same route as the others, built and run by release.yml"
      continue
    fi
    say "addon for $plat ($zt)"
    t0=$(date +%s)
    # musl: a cdylib needs the C runtime linked dynamically (Node loads it with dlopen).
    if [[ "$triple" == *windows* ]]; then
      # Debian's mingw-w64 links it, but napi-build's gnu route wants a libnode.dll to make the
      # import library from, which this machine does not have: then the row says so.
      if ! cargo build --release -q -p ekl-node --target "$triple" 2> "$work/win-addon.log"; then
        grep -q "libnode.dll not found" "$work/win-addon.log" || { cat "$work/win-addon.log" >&2; exit 1; }
        row "ekl-evidence-$plat (not built)" "-" "$plat" "NOT BUILT: napi-build needs a libnode.dll for the gnu target (none here); the published win32-x64-msvc addon needs MSVC: built and run by release.yml on a Windows runner"
        continue
      fi
    else
      RUSTFLAGS="${RUSTFLAGS:-} $([[ $triple == *musl ]] && echo '-C target-feature=-crt-static')" \
        cargo zigbuild --release -q -p ekl-node --target "$zt"
    fi
    case "$triple" in
      *windows*) lib=ekl_node.dll ;; *darwin) lib=libekl_node.dylib ;; *) lib=libekl_node.so ;;
    esac
    node_file=$addons/ekl-evidence.$plat.node
    cp "$CARGO_TARGET_DIR/$triple/release/$lib" "$node_file"
    exports_sym "$node_file" napi_register_module_v1 || { say "$node_file: napi_register_module_v1 not exported"; exit 1; }
    fmt=$(file -b "$node_file" | cut -d, -f1-2)
    case "$triple" in
      *linux-gnu) check_libs "$node_file" "$ELF_GNU"; extra="glibc $(max_glibc "$node_file" | sed 's/GLIBC_//') max" ;;
      *linux-musl) check_libs "$node_file" "$ELF_MUSL"; extra="musl libc only" ;;
      *darwin) check_libs "$node_file" "$MACHO"; extra="libSystem only, napi symbols dynamic_lookup" ;;
      *windows*) check_libs "$node_file" "$PE_NODE"; extra="napi symbols resolved from node.exe" ;;
    esac
    echo "$fmt; $extra" > "$node_file.inspected"
    say "  $plat in $(( $(date +%s) - t0 )) s"
  done
fi

# -------------------------------------------------------------------------------- npm tarballs
if [[ "$only" == *" npm "* ]]; then
  [ -f "$addons/ekl-evidence.linux-x64-gnu.node" ] || { say "npm: build the addons first (EKL_DIST_ONLY=node)"; exit 1; }
  bash wasm/scripts/build.sh >/dev/null
  packs=$work/npm && rm -rf "$packs"
  # win32-x64-gnu is not a published platform package (the published one is msvc): not packed.
  # shellcheck disable=SC2046,SC2010 # one word an addon file
  bash scripts/npm-pack.sh "$packs" $(ls "$addons"/*.node | grep -v win32-x64-gnu) >/dev/null
  cp "$packs"/*.tgz "$out/"
  ver=$(node -p 'require("./node/package.json").version')
  main=$out/ekl-evidence-$ver.tgz
  tar -tzf "$main" | grep '\.node$' >/dev/null && { say "the main tarball holds a .node file"; exit 1; }
  for f in LICENSE-APACHE LICENSE-MIT wasm/index.web.mjs wasm/binding.cjs wasm/web/ekl_wasm_bg.wasm wasm/node/ekl_wasm_bg.wasm index.d.ts; do
    tar -tzf "$main" | grep -x "package/$f" >/dev/null || { say "main tarball: no $f"; exit 1; }
  done
  # Native x86_64: the main package and the platform package, installed offline into a fresh folder.
  fresh=$work/npm-fresh && rm -rf "$fresh" && mkdir -p "$fresh" && echo '{"name":"fresh","private":true}' > "$fresh/package.json"
  t1=$(date +%s%N)
  (cd "$fresh" && npm install --offline --no-audit --no-fund --loglevel=error "$main" "$out/ekl-evidence-linux-x64-gnu-$ver.tgz" >/dev/null)
  it=$(( ($(date +%s%N) - t1) / 1000000 ))
  cp -r node/test "$fresh/test"
  check_backend() { (cd "$1" && "${@:3}" -e 'const e=require("ekl-evidence"); if (e.backend!==process.argv[1]) throw new Error("backend "+e.backend); console.log(e.backend)' "$2"); }
  check_backend "$fresh" native node >/dev/null
  (cd "$fresh" && EKL_REPO_ROOT=$root node --test test/vectors.test.js test/vector-calls.test.js >/dev/null)
  native_how="RUN natively (Node $(node -v), npm install --offline of the two tarballs in ${it} ms): backend native, every vector file"
  # The same folder without the platform package: the bundled wasm, the same vectors.
  rm -rf "$fresh/node_modules/ekl-evidence-linux-x64-gnu"
  check_backend "$fresh" wasm node >/dev/null
  (cd "$fresh" && EKL_REPO_ROOT=$root node --test test/vectors.test.js test/vector-calls.test.js >/dev/null)
  gz=$(gzip -9c node/wasm/node/ekl_wasm_bg.wasm | wc -c)
  [ "$gz" -le "$BUDGET_WASM_GZ" ] || over=$((over + 1))
  vgz=$(gzip -9c node/wasm/web/ekl_wasm_bg.wasm | wc -c)
  [ "$vgz" -le "$BUDGET_VERIFY_GZ" ] || over=$((over + 1))
  row "$(basename "$main")" "$(budget "$main" $BUDGET_MAIN_TGZ)" "any (Node >= 20, browsers)" \
    "RUN: without a platform package Node loads the bundled full wasm (backend wasm), every vector file; full module $(( $(stat -c %s node/wasm/node/ekl_wasm_bg.wasm) / 1024 )) KB raw / $((gz / 1024)) KB gzip (budget $((BUDGET_WASM_GZ / 1024)) KB); browser entry, the verify build: $(( $(stat -c %s node/wasm/web/ekl_wasm_bg.wasm) / 1024 )) KB raw / $((vgz / 1024)) KB gzip (budget $((BUDGET_VERIFY_GZ / 1024)) KB), ./run test wasm; licenses"
  for f in "$out"/ekl-evidence-*-"$ver".tgz; do
    plat=$(basename "$f" "-$ver.tgz"); plat=${plat#ekl-evidence-}
    how="inspected: $(cat "$addons/ekl-evidence.$plat.node.inspected"); napi_register_module_v1; licenses"
    tar -tzf "$f" | grep -x package/LICENSE-MIT >/dev/null || { say "$f: no LICENSE-MIT"; exit 1; }
    case "$plat" in
      linux-x64-gnu) how="$native_how; $(cat "$addons/ekl-evidence.$plat.node.inspected")" ;;
      linux-arm64-gnu)
        if [ -n "$qemu" ]; then
          a=$work/npm-arm64 && rm -rf "$a" && mkdir -p "$a/node_modules/ekl-evidence" "$a/node_modules/ekl-evidence-$plat"
          tar -xzf "$main" -C "$a/node_modules/ekl-evidence" --strip-components=1
          tar -xzf "$f" -C "$a/node_modules/ekl-evidence-$plat" --strip-components=1
          cp -r node/test "$a/test"
          nodebin=$sysroot/usr/bin/node
          res=$(cd "$a" && "$qemu" -L "$sysroot" "$nodebin" -e 'const e=require("ekl-evidence"); if (e.backend!=="native") throw new Error(e.backend); console.log(process.arch, process.version, e.backend)' 2>&1) || { say "qemu node: $res"; exit 1; }
          (cd "$a" && EKL_REPO_ROOT=$root "$qemu" -L "$sysroot" "$nodebin" test/vectors.test.js >/dev/null 2>&1 \
            && EKL_REPO_ROOT=$root "$qemu" -L "$sysroot" "$nodebin" test/vector-calls.test.js >/dev/null 2>&1) \
            && vec="every vector file (vectors.test.js and vector-calls.test.js, in-process: node --test would spawn an arm64 child outside qemu)" || vec="vectors: FAILED"
          [[ "$vec" == every* ]] || over=$((over + 1))
          how="RUN under qemu-aarch64 (Debian Node $(echo "$res" | awk '{print $2}') arm64): backend native, $vec; $(cat "$addons/ekl-evidence.$plat.node.inspected")"
        fi ;;
    esac
    row "$(basename "$f")" "$(budget "$f" $BUDGET_ADDON_TGZ)" "$plat" "$how"
  done
  w=$addons/ekl-evidence.win32-x64-gnu.node
  if [ -f "$w" ]; then
    cp "$w" "$out/"
    row "$(basename "$w")" "$(( $(stat -c %s "$w") / 1024 )) KB" "win32-x64-gnu (not published)" \
      "inspected: $(cat "$w.inspected"); napi_register_module_v1. The published win32-x64-msvc addon needs MSVC: built and run by release.yml on windows-latest"
  fi
fi

# -------------------------------------------------------------------------------------- table
echo
echo "dist/ ($(ls "$out" | wc -l) artifacts, built on $(uname -m) $(. /etc/os-release && echo "$PRETTY_NAME"))"
{
  printf 'artifact\tsize\tplatform tag\thow verified\n'
  cat "$rows"
} | awk -F'\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4; if (NR == 1) print "|---|---|---|---|" }'
over=$((over + $(wc -l < "$overruns")))
if [ "$over" -gt 0 ]; then echo "dist: $over artifact(s) over budget or failed" >&2; exit 1; fi
