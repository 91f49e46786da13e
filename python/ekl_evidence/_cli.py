"""The ``ekl`` command of ``pip install ekl-evidence`` (the console script of pyproject.toml).

It runs the ``ekl`` binary (the Rust CLI, crate ekl-cli) that a wheel carries in
``ekl_evidence/bin/``, as ruff's wheels carry theirs: arguments, stdio and the exit status pass
through unchanged (on POSIX the process becomes the binary). A build from the sdist has no binary:
then one line says how to get it and the status is 127 (docs/decisions/packaging.md,
"ekl where users install").
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

__all__ = ["binary", "main"]

_MISSING = (
    "ekl: this install of ekl-evidence has no ekl binary (built from source, or a platform "
    "without a wheel): `cargo install ekl-cli` builds it, `cargo binstall ekl-cli` fetches a release's"
)


def binary() -> Path:
    """Where a wheel puts the ``ekl`` binary of its platform."""
    return Path(__file__).resolve().parent / "bin" / ("ekl.exe" if os.name == "nt" else "ekl")


def main(argv: Optional[list[str]] = None, exe: Optional[Path] = None) -> int:
    """Runs the binary with ``argv`` (default: this process's arguments); returns its status
    where the process cannot be replaced (Windows), 127 when there is no binary."""
    exe = binary() if exe is None else exe
    args = sys.argv[1:] if argv is None else argv
    if not exe.is_file():
        print(_MISSING, file=sys.stderr)
        return 127
    if os.name != "nt":
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(exe, [str(exe), *args])  # does not return
    return subprocess.run([str(exe), *args]).returncode


if __name__ == "__main__":
    sys.exit(main())
