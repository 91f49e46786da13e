"""The ``ekl`` console script (ekl_evidence._cli): runs the binary a wheel carries, arguments,
output and exit status unchanged; without one, one line saying how to get it and 127."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ekl_evidence import _cli


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)


def test_without_a_binary_it_names_the_way_to_get_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli.main(["--version"], exe=tmp_path / "ekl") == 127
    err = capsys.readouterr().err
    assert err.startswith("ekl: this install of ekl-evidence has no ekl binary") and "cargo install ekl-cli" in err
    assert _cli.binary().name in ("ekl", "ekl.exe") and _cli.binary().parent.name == "bin"


@pytest.mark.skipif(os.name == "nt", reason="a POSIX shell script stands for the binary")
def test_the_binary_gets_the_arguments_and_gives_its_status_and_output(tmp_path: Path) -> None:
    fake = tmp_path / "ekl"
    fake.write_text('#!/bin/sh\nprintf "%s|" "$@"\necho err >&2\nexit 3\n', encoding="utf-8")
    fake.chmod(0o755)
    code = "import sys; from pathlib import Path; from ekl_evidence import _cli; sys.exit(_cli.main(sys.argv[2:], exe=Path(sys.argv[1])))"
    r = _run(code, str(fake), "jwks", "new-seed", "a b")
    assert (r.returncode, r.stdout, r.stderr) == (3, "jwks|new-seed|a b|", "err\n")
