"""pytest setup: the tests run against the INSTALLED ekl_evidence, never the source tree."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE_SOURCE = TESTS.parent / "ekl_evidence"
REPO = TESTS.parent.parent

# Make the helper modules of this folder importable without putting python/ on sys.path.
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import ekl_evidence  # noqa: E402


def pytest_report_header(config: pytest.Config) -> str:
    return f"ekl_evidence {ekl_evidence.__version__} from {Path(ekl_evidence.__file__).parent}"


def pytest_sessionstart(session: pytest.Session) -> None:
    loaded = Path(ekl_evidence.__file__).resolve().parent
    if loaded == PACKAGE_SOURCE.resolve() and os.environ.get("EKL_ALLOW_SOURCE_TREE") != "1":
        raise pytest.UsageError(
            f"ekl_evidence was imported from the source tree ({loaded}); the tests must run "
            "against the installed package: run them from another directory (scripts/test/30-python.sh)"
        )
