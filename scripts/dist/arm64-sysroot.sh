#!/usr/bin/env bash
# An arm64 sysroot with Debian's CPython 3.11 and Node, for running aarch64 artifacts under
# qemu-aarch64-static -L SYSROOT: the .deb files are fetched with `apt-get download` (arm64 added
# as a foreign architecture only for that, and removed again afterwards) and unpacked with
# `dpkg -x`; nothing is installed. Idempotent: an existing sysroot is kept.
#   usage: scripts/dist/arm64-sysroot.sh SYSROOT
set -euo pipefail
sysroot=${1:?usage: arm64-sysroot.sh SYSROOT}
[ -x "$sysroot/usr/bin/python3.11" ] && [ -f "$sysroot/usr/share/nodejs/cjs-module-lexer/lexer.js" ] && exit 0
pkgs="libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5 libsqlite3-0
  libuuid1 libncursesw6 libtinfo6 libreadline8 libcrypt1 libdb5.3 libgdbm6 libnsl2 libtirpc3
  libgssapi-krb5-2 libkrb5-3 libk5crypto3 libcom-err2 libkrb5support0 libkeyutils1
  python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3.11
  nodejs libnode108 libuv1 libbrotli1 libicu72 libnghttp2-14 libc-ares2"
# Debian's Node loads some of its builtins from these (architecture: all)
all_pkgs="node-acorn node-cjs-module-lexer node-undici node-busboy"
debs=$(mktemp -d)
added=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then dpkg --add-architecture arm64; added=1; fi
cleanup() {
  if [ "$added" = 1 ]; then
    dpkg --remove-architecture arm64 || true
    rm -f /var/lib/apt/lists/*_binary-arm64_Packages* 2>/dev/null || true
  fi
  rm -rf "$debs"
}
trap cleanup EXIT
apt-get update -qq -o APT::Architecture=amd64 >/dev/null 2>&1 || apt-get update -qq >/dev/null
(
  cd "$debs"
  for p in $pkgs; do apt-get download -qq "$p:arm64" >/dev/null 2>&1 || echo "arm64-sysroot: $p:arm64 not available" >&2; done
  for p in $all_pkgs; do apt-get download -qq "$p" >/dev/null 2>&1 || echo "arm64-sysroot: $p not available" >&2; done
)
mkdir -p "$sysroot"
for d in "$debs"/*.deb; do dpkg -x "$d" "$sysroot"; done
# Debian's /lib is a link to usr/lib: the loader path the binaries name must resolve in the sysroot.
[ -e "$sysroot/lib" ] || ln -s usr/lib "$sysroot/lib"
[ -x "$sysroot/usr/bin/python3.11" ] && [ -x "$sysroot/usr/bin/node" ] || { echo "arm64-sysroot: python3.11 or node missing" >&2; exit 1; }
