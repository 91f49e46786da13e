"""`cargo binstall ekl-cli` against the release: cli/Cargo.toml's [package.metadata.binstall]
templates, rendered as cargo-binstall renders them for each target the release workflow builds the
`ekl` binary for, must name the archive that scripts/dist/cli_archive.py makes for that target, at
the release of the tag, with the binary at `bin-dir` inside it.

    python scripts/dist/check_binstall.py [--real PATH-TO-A-HOST-ekl]

Checks: the workflow's `cli-binaries` matrix has the 7 targets of the wheels and of the npm addons;
that job names its archives with cli_archive.py and the release job attaches them to the tag's
release; for each target the rendered `pkg-url` is the release download URL of the archive's name,
`pkg-fmt` is the archive's format, `bin-dir` is an executable member. With --real, the host's
archive is made from PATH, unpacked as binstall would, and the binary found at `bin-dir` must print
`ekl VERSION`. Exit 1 with one line per difference.
"""

import argparse
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import cli_archive  # noqa: E402

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def render(template: str, values: dict) -> str:
    """cargo-binstall's `{ name }` substitution; an unknown variable is an error."""

    def sub(m: re.Match) -> str:
        key = m.group(1)
        if key not in values:
            raise KeyError(f"unknown binstall variable {{ {key} }} in {template!r}")
        return values[key]

    return re.sub(r"\{\s*([a-z-]+)\s*\}", sub, template)


def job_block(text: str, job: str) -> str:
    m = re.search(rf"^  {re.escape(job)}:\n(.*?)(?=^  [a-z0-9_-]+:\n|\Z)", text, re.M | re.S)
    if not m:
        raise SystemExit(f"check_binstall: no job `{job}` in {WORKFLOW.relative_to(ROOT)}")
    return m.group(1)


def matrix_targets(block: str) -> list:
    return re.findall(r"^\s+- \{[^}\n]*\btarget: ([A-Za-z0-9_.-]+)", block, re.M)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--real", type=Path, help="an `ekl` built for this host, to unpack and run")
    a = ap.parse_args()
    errors = []

    ws = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    cli = tomllib.loads((ROOT / "cli" / "Cargo.toml").read_text(encoding="utf-8"))
    version = ws["workspace"]["package"]["version"]
    repo = ws["workspace"]["package"]["repository"]
    pkg = cli["package"]
    if pkg.get("repository") != {"workspace": True}:
        errors.append("cli/Cargo.toml: repository is not the workspace's (binstall's { repo })")
    name = pkg["name"]
    bins = [b["name"] for b in cli.get("bin", [])]
    if bins != ["ekl"]:
        errors.append(f"cli/Cargo.toml: binaries {bins}, expected ['ekl']")
    meta = pkg["metadata"]["binstall"]
    overrides = meta.get("overrides", {})

    text = WORKFLOW.read_text(encoding="utf-8")
    if not re.search(r'^\s+tags: \["v\*"\]', text, re.M):
        errors.append("release.yml: not triggered by tags v* (binstall's pkg-url expects v{ version })")
    targets = matrix_targets(job_block(text, "cli-binaries"))
    for other in ("wheels", "npm-addons"):
        theirs = matrix_targets(job_block(text, other))
        if sorted(theirs) != sorted(targets):
            errors.append(f"release.yml: cli-binaries targets {sorted(targets)} != {other} {sorted(theirs)}")
    if len(targets) != 7 or len(set(targets)) != 7:
        errors.append(f"release.yml: cli-binaries has {len(targets)} targets, expected 7 distinct")
    job = job_block(text, "cli-binaries")
    if "scripts/dist/cli_archive.py" not in job or '--target "${{ matrix.target }}"' not in job:
        errors.append("release.yml: cli-binaries does not name its archive with scripts/dist/cli_archive.py --target")
    rel = job_block(text, "release-binaries")
    if "gh release" not in rel or "GITHUB_REF_NAME" not in rel:
        errors.append("release.yml: release-binaries does not attach the archives to the tag's release")
    if overrides.keys() - set(targets):
        errors.append(f"cli/Cargo.toml: binstall overrides for targets not built: {sorted(overrides.keys() - set(targets))}")

    rustc = subprocess.run(["rustc", "-vV"], capture_output=True, text=True).stdout
    host_target = re.search(r"^host: (\S+)", rustc, re.M).group(1)
    host = None
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dummy = tmp / "ekl-dummy"
        dummy.write_bytes(b"#!/bin/sh\necho dummy\n")
        for target in targets:
            m = {**meta, **overrides.get(target, {})}
            values = {
                "name": name,
                "version": version,
                "target": target,
                "repo": repo,
                "bin": "ekl",
                "binary-ext": ".exe" if "-windows-" in target else "",
            }
            try:
                url = render(m["pkg-url"], values)
                bin_dir = render(m["bin-dir"], values)
            except KeyError as e:
                errors.append(f"{target}: {e.args[0]}")
                continue
            path = cli_archive.build(target, dummy, version, tmp / target)
            want_url = f"{repo}/releases/download/v{version}/{path.name}"
            if url != want_url:
                errors.append(f"{target}: binstall pkg-url {url} != the release's {want_url}")
            fmt = m.get("pkg-fmt", "tgz")
            if path.name.endswith(".zip"):
                got_fmt, members = "zip", {
                    i.filename: (i.external_attr >> 16) & 0o777 for i in zipfile.ZipFile(path).infolist()
                }
            else:
                with tarfile.open(path, "r:gz") as t:
                    got_fmt, members = "tgz", {i.name: i.mode for i in t.getmembers() if i.isfile()}
            if fmt != got_fmt:
                errors.append(f"{target}: binstall pkg-fmt {fmt} but the archive is {got_fmt} ({path.name})")
            if bin_dir not in members:
                errors.append(f"{target}: binstall bin-dir {bin_dir} is not in {path.name} ({sorted(members)})")
            elif members[bin_dir] & 0o111 != 0o111:
                errors.append(f"{target}: {bin_dir} is not executable in {path.name}")
            if target == host_target:
                host = bin_dir

        if a.real and host is None:
            errors.append(f"--real: this host ({host_target}) is not among the release's targets")
        elif a.real and not errors:
            path = cli_archive.build(host_target, a.real, version, tmp / "real")
            out = tmp / "unpacked"
            if path.name.endswith(".zip"):
                zipfile.ZipFile(path).extractall(out)
            else:
                with tarfile.open(path, "r:gz") as t:
                    t.extractall(out, filter="data")
            exe = out / host
            got = subprocess.run([str(exe), "--version"], capture_output=True, text=True).stdout.strip()
            if got != f"ekl {version}":
                errors.append(f"real archive: {host} --version printed {got!r}, expected 'ekl {version}'")
            else:
                print(f"binstall: {path.name} unpacked, {host} --version -> {got}")

    for e in errors:
        print(f"check_binstall: {e}", file=sys.stderr)
    if errors:
        return 1
    print(f"binstall: templates agree with the release archives for {len(targets)} targets: {', '.join(targets)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
