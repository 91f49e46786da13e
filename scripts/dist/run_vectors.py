"""Every vector file through an installed ekl_evidence, without pytest (for interpreters that have
only the standard library, such as the arm64 CPython that scripts/dist.sh runs under qemu): every
line of vectors/calls.jsonl and the ECMAScript number file (python/tests/vector_calls.py).
Prints one line: how many checks passed; exits 1 on a failure."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "tests"))
import ekl_evidence  # noqa: E402
from vector_calls import es6_hashes, es6_published, lines, run  # noqa: E402

all_lines = lines()
failed, blind = run(all_lines)
if failed or blind or not all_lines:
    sys.exit(f"vectors/calls.jsonl: {len(failed)} lines differ, {len(blind)} compare nothing: {failed[:1]}")
want = es6_published()
if es6_hashes(sorted(want)) != want:
    sys.exit("rfc8785-testdata: the ECMAScript number file differs")
print(f"{len(all_lines)} vector lines and {len(want)} number-file hashes passed (ekl_evidence {ekl_evidence.__version__})")
