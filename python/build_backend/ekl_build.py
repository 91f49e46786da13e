"""The build backend of ekl-evidence: maturin's, after one check.

Building from source (an sdist, or ``pip install ./python``) compiles the Rust core, so it needs a
Rust toolchain. maturin's own backend, when it finds no ``cargo``, silently downloads a temporary
toolchain (about 845 MB) before building. This wrapper says so instead, in one message, and builds
only when ``cargo`` is on PATH, or when EKL_ALLOW_RUST_DOWNLOAD=1 asks for maturin's download.
Everything else is maturin's PEP 517 backend unchanged.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import Any, Optional

import maturin as _maturin

_MESSAGE = (
    "ekl-evidence: building from source needs a Rust toolchain (cargo, Rust >= 1.88) on PATH, and "
    "none was found. Either install Rust (rustup) and retry, or install a prebuilt wheel: "
    "`pip install --only-binary ekl-evidence ekl-evidence` (wheels: Linux x86_64/aarch64 glibc "
    "and musl, macOS x86_64/arm64 (CPython >= 3.9), Windows x86_64 (CPython >= 3.10)). "
    "EKL_ALLOW_RUST_DOWNLOAD=1 lets maturin download a temporary toolchain (about 845 MB) instead."
)


class RustToolchainMissing(RuntimeError):
    """No cargo on PATH, and no permission to download a toolchain."""


def _check() -> None:
    if shutil.which("cargo") or os.environ.get("EKL_ALLOW_RUST_DOWNLOAD") == "1":
        return
    raise RustToolchainMissing(_MESSAGE)


def get_requires_for_build_wheel(config_settings: Optional[Mapping[str, Any]] = None) -> list:
    _check()
    return _maturin.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings: Optional[Mapping[str, Any]] = None) -> list:
    _check()
    return _maturin.get_requires_for_build_editable(config_settings)


def get_requires_for_build_sdist(config_settings: Optional[Mapping[str, Any]] = None) -> list:
    _check()
    return _maturin.get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Mapping[str, Any]] = None) -> str:
    _check()
    return _maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: Optional[Mapping[str, Any]] = None) -> str:
    _check()
    return _maturin.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_wheel(wheel_directory: str, config_settings: Optional[Mapping[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    _check()
    return _maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: Optional[Mapping[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    _check()
    return _maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: Optional[Mapping[str, Any]] = None) -> str:
    _check()
    return _maturin.build_sdist(sdist_directory, config_settings)
