"""Checks the site of `./run docs` (scripts/docs.sh, tools/docs/site.py):

1. no broken link: every relative href/src of every HTML page reaches a file of the site, and its
   #anchor, on a page of the guides, the index, the Python or the TypeScript reference, an id there
   (rustdoc's pages: the file only; its anchors are checked by rustdoc's own lints, -D warnings);
2. every public item of each package appears: each operation of docs/operations.json under its
   Python name in pdoc's ekl_evidence page and under its JS name in TypeDoc's pages, each name
   of docs/host-apis.json likewise (a `Class.member` on its class's page; an entry with a `module`
   on that module's page), each result shape, refinement and the names of the README's TypeScript
   quick start in TypeDoc's pages, each `pub mod` of the three published library crates in rustdoc's.

    python3 check_site.py SITE

Standard library only. Exits 1 naming what is missing. It first checks itself on a damaged copy
(a TypeScript page removed, an anchor renamed, a Python id dropped: each must be reported).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r'\b(?:href|src)="([^"]*)"')
IDS = re.compile(r'\b(?:id|name)="([^"]+)"')


def links(site: Path) -> tuple[int, list[str]]:
    pages = sorted(site.rglob("*.html"))
    ids: dict[Path, set[str]] = {}

    def ids_of(p: Path) -> set[str]:
        if p not in ids:
            ids[p] = set(IDS.findall(p.read_text(encoding="utf-8", errors="replace")))
        return ids[p]

    broken: list[str] = []
    count = 0
    for page in pages:
        # (a script's templates, such as rustdoc's `static.files/${f}`, are not links)
        text = re.sub(r"<script\b.*?</script>", "", page.read_text(encoding="utf-8", errors="replace"), flags=re.S)
        for href in LINK.findall(text):
            href = href.replace("&amp;", "&")
            if not href or re.match(r"^([a-z][a-z0-9+.-]*:|//)", href):
                continue  # external (not fetched) or a scheme of its own (mailto:, data:, javascript:)
            count += 1
            target, _, frag = href.partition("#")
            target = unquote(target.split("?", 1)[0])
            dest = (page.parent / target).resolve() if target else page.resolve()
            if dest.is_dir():
                dest = dest / "index.html"
            if not dest.is_file() or site.resolve() not in dest.parents:
                broken.append(f"{page.relative_to(site)} -> {href}")
                continue
            rel = dest.relative_to(site.resolve()).as_posix()
            if frag and dest.suffix == ".html" and not rel.startswith("rust/") and unquote(frag) not in ids_of(dest):
                broken.append(f"{page.relative_to(site)} -> {href} (no such anchor)")
    return count, broken


def items(site: Path) -> tuple[int, list[str]]:
    manifest = json.loads((ROOT / "docs" / "operations.json").read_text())
    apis = json.loads((ROOT / "docs" / "host-apis.json").read_text())["apis"]
    missing: list[str] = []
    checked = 0

    py_main = (site / "python" / "ekl_evidence.html").read_text(encoding="utf-8")
    py_ids = set(IDS.findall(py_main))
    ts_dir = site / "ts"
    # pages named module.Name: functions/index.verifyReceipt.html, interfaces/index.Jwks.html and
    # variables/index.Jwks.html (a name can have several), classes/replay.MemoryStore.html, ...
    ts_files = [(p.stem, p) for p in ts_dir.rglob("*.html")]
    ts_names = {stem.split(".", 1)[1] for stem, _ in ts_files if "." in stem}

    def py(name: str, page: str = "ekl_evidence") -> None:
        nonlocal checked
        checked += 1
        text_ids = py_ids if page == "ekl_evidence" else set(IDS.findall((site / "python" / f"{page.replace('.', '/')}.html").read_text(encoding="utf-8")))
        if name not in text_ids:
            missing.append(f"Python {page}.{name}")

    def ts(name: str) -> None:
        nonlocal checked
        checked += 1
        cls, _, member = name.partition(".")
        if cls not in ts_names:
            missing.append(f"TypeScript {name}")
        elif member:
            pages = [p for stem, p in ts_files if stem.endswith(f".{cls}")]
            if not any(f'id="{member.lower()}"' in p.read_text(encoding="utf-8") for p in pages):
                missing.append(f"TypeScript {name} (not on the pages of {cls})")

    for op in manifest["operations"]:
        if op.get("method_of"):
            # a handle's method (docs/decisions/handles.md): a member of its class's page
            py(f'{op["method_of"]}.{op["python"]}')
            ts(f'{op["method_of"]}.{op["js"]}')
            continue
        py(op["python"])
        ts(op["js"])
    for shape in manifest["shapes"]:
        ts(shape["name"])
    for r in manifest["refinements"]:
        ts(r["name"])
    for api in apis:
        module = api.get("module")
        for name in api["python"]:
            cls, _, member = name.partition(".")
            if module:
                py(name, module["python"])
            elif member:
                py(name)  # pdoc's id of a member: Class.member
            else:
                py(name)
        for name in api["js"]:
            ts(name)
    # The names the README's TypeScript quick start imports as types.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in re.findall(r"\btype ([A-Z][A-Za-z]+)\b", readme):
        ts(name)

    for crate, lib in (("ekl_core", "core"), ("ekl_bridge", "bridge"), ("ekl_conformance", "conformance")):
        # (a module under #[doc(hidden)], a test helper, is not public API)
        src = (ROOT / lib / "src" / "lib.rs").read_text()
        for mod in re.findall(r"^(?<!#\[doc\(hidden\)\]\n)pub mod ([a-z0-9_]+);", src, re.M):
            checked += 1
            if not (site / "rust" / crate / mod / "index.html").is_file():
                missing.append(f"Rust {crate}::{mod}")
    return checked, missing


def self_test(site: Path) -> None:
    """The checks catch what they are for: a copy of the site with one operation's TypeScript
    page removed, one heading's anchor renamed and one Python function's id dropped must fail."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "site"
        # (without rustdoc's pages: the largest part, and not what this test damages)
        shutil.copytree(site, copy, ignore=lambda d, names: ["rust"] if Path(d) == site else [])
        next((copy / "ts" / "functions").glob("index.verifyReceipt.html")).unlink()
        readme = copy / "guide" / "README.html"
        readme.write_text(readme.read_text(encoding="utf-8").replace('id="install"', 'id="installed"'), encoding="utf-8")
        py = copy / "python" / "ekl_evidence.html"
        py.write_text(py.read_text(encoding="utf-8").replace('id="issue_mac_receipt"', 'id="x"'), encoding="utf-8")
        _, broken = links(copy)
        _, missing = items(copy)
        want = ["TypeScript verifyReceipt", "Python ekl_evidence.issue_mac_receipt"]
        if not any("#install (no such anchor)" in b for b in broken) or any(w not in missing for w in want):
            sys.exit(f"check_site self-test: a damaged copy was not caught ({broken[:3]}, {missing})")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    site = Path(argv[1])
    self_test(site)
    n_links, broken = links(site)
    n_items, missing = items(site)
    for b in broken[:50]:
        print(f"broken link: {b}", file=sys.stderr)
    for m in missing:
        print(f"missing from the reference: {m}", file=sys.stderr)
    if broken or missing:
        print(f"{len(broken)} broken links, {len(missing)} public items missing", file=sys.stderr)
        return 1
    print(f"docs site: {n_links} internal links resolve; {n_items} public items present (Python, TypeScript, Rust)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
