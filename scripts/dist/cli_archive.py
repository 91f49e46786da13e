"""The archive of the `ekl` binary for one target, as the release attaches it (and as
`cargo binstall ekl-cli` fetches it: cli/Cargo.toml's [package.metadata.binstall]).

    python scripts/dist/cli_archive.py --target TRIPLE --bin PATH [--version V] [--out DIR]

Writes DIR/ekl-cli-TRIPLE-vV.tar.gz (.zip for Windows targets) holding one folder
ekl-cli-TRIPLE-vV/ with `ekl` (`ekl.exe`), cli/README.md and both licences, and prints the archive's
path. The version defaults to the workspace's (Cargo.toml). Standard library only: it runs the same
on every release runner (Linux, macOS, Windows). scripts/test/15-crates.sh checks these names
against the binstall templates for the release workflow's targets.
"""

import argparse
import io
import re
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CRATE = "ekl-cli"
BIN = "ekl"


def workspace_version() -> str:
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    m = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', text, re.M | re.S)
    if not m:
        raise SystemExit("cli_archive: no [workspace.package] version in Cargo.toml")
    return m.group(1)


def is_windows(target: str) -> bool:
    return "-windows-" in target


def names(target: str, version: str) -> tuple[str, str, str]:
    """(archive file name, folder inside it, binary path inside it)."""
    folder = f"{CRATE}-{target}-v{version}"
    ext = ".zip" if is_windows(target) else ".tar.gz"
    exe = BIN + (".exe" if is_windows(target) else "")
    return folder + ext, folder, f"{folder}/{exe}"


def build(target: str, binary: Path, version: str, out: Path) -> Path:
    archive, folder, bin_member = names(target, version)
    members = [
        (bin_member, binary.read_bytes(), 0o755),
        (f"{folder}/README.md", (ROOT / "cli" / "README.md").read_bytes(), 0o644),
        (f"{folder}/LICENSE-APACHE", (ROOT / "LICENSE-APACHE").read_bytes(), 0o644),
        (f"{folder}/LICENSE-MIT", (ROOT / "LICENSE-MIT").read_bytes(), 0o644),
    ]
    out.mkdir(parents=True, exist_ok=True)
    path = out / archive
    if is_windows(target):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data, mode in members:
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
    else:
        with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as t:
            d = tarfile.TarInfo(folder)
            d.type, d.mode = tarfile.DIRTYPE, 0o755
            t.addfile(d)
            for name, data, mode in members:
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(data), mode
                t.addfile(info, io.BytesIO(data))
    return path


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", required=True, help="the Rust target triple the binary is built for")
    p.add_argument("--bin", type=Path, required=True, help="the built `ekl` (or `ekl.exe`)")
    p.add_argument("--version", default=None, help="default: the workspace's version")
    p.add_argument("--out", type=Path, default=Path("cli-dist"), help="default: ./cli-dist")
    a = p.parse_args()
    if not re.fullmatch(r"[a-z0-9_]+(-[a-z0-9_.]+){2,3}", a.target):
        print(f"cli_archive: not a target triple: {a.target!r}", file=sys.stderr)
        return 2
    print(build(a.target, a.bin, a.version or workspace_version(), a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
