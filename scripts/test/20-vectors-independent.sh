#!/usr/bin/env bash
# Vectors, checked without our Rust code (Python standard library; Node for the generator's cross-check):
#  1. vectors/fingerprints.json is still the published file, byte for byte (raw U+2028 included);
#  2. regenerating ekl-json-1.json and upstream-fingerprint.json with vectors/check/generate.py
#     (the guide's canonical.py + Node) changes no byte;
#  3. vectors/check/check_vectors.py recomputes every digest, fingerprint, canonical form and error code
#     with its own implementation, and its self-test shows that a changed copy fails;
#  4. the published guide's own check_vectors.py passes on vectors/ekl-json-1.json and fails on a changed copy;
#  5. vectors/empty-values.json is what make_empty_vectors.py writes, each case one empty member of a real
#     operation with a real code, and a changed copy fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 1; }

published=c3363920babc38912c18e0c8e106987254381f07783f3e61d27fa515778d2872
got=$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' vectors/fingerprints.json)
[ "$got" = "$published" ] || { echo "vectors/fingerprints.json differs from the published file" >&2; exit 1; }
grep -q $'\xe2\x80\xa8' vectors/fingerprints.json || { echo "fingerprints.json lost its raw U+2028" >&2; exit 1; }
echo "fingerprints.json: the published bytes (sha256 $published)"

if command -v node >/dev/null; then
  python3 vectors/check/generate.py --check
  echo "generate.py --check: ekl-json-1.json and upstream-fingerprint.json are current"
else
  echo "node not found: skipping generate.py --check" >&2
fi
python3 vectors/check/check_vectors.py --self-test
python3 vectors/check/run_guide.py | tail -n 3
python3 vectors/check/make_empty_vectors.py --check --self-test
