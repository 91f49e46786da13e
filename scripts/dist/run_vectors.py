"""Every vector file through an installed ekl_evidence, without pytest (for interpreters that have
only the standard library, such as the arm64 CPython that scripts/dist.sh runs under qemu).
Prints one line: how many checks passed; exits 1 on the first failure."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "tests"))
import ekl_evidence  # noqa: E402
from vector_runners import FOLDER_RUNNERS, RUNNERS, load, vector_files, vector_folders  # noqa: E402

n = 0
for path in vector_files():
    runner = RUNNERS.get(path.name)
    for name, thunk in runner(load(path)) if runner else []:
        try:
            thunk()
        except Exception as e:  # noqa: BLE001
            sys.exit(f"{path.name}: {name}: {e}")
        n += 1
for folder in vector_folders():
    runner = FOLDER_RUNNERS.get(folder.name)
    for name, thunk in runner(folder) if runner else []:
        try:
            thunk()
        except Exception as e:  # noqa: BLE001
            sys.exit(f"{folder.name}/: {name}: {e}")
        n += 1
print(f"{n} vector checks passed (ekl_evidence {ekl_evidence.__version__})")
