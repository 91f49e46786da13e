"""Builds the one HTML site of `./run docs` (scripts/docs.sh) from what already exists: the API
references that rustdoc, pdoc and TypeDoc wrote (copied in under rust/, python/ and ts/), and the
guides, every Markdown page of the repository rendered to HTML under guide/ at its own path (a link
to another page becomes a link to its HTML; a link to any other file of the repository, a link to
that file on the repository's host), with one index page linking all of it.

    python site.py OUT RUSTDOC PDOC TYPEDOC

Runs under the docs venv (pdoc's markdown2 and pygments render the pages). Standard
library besides. tools/docs/check_site.py checks the result (links, anchors, every public item).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import markdown2  # pdoc's own Markdown renderer (a dependency of pdoc, pinned with it)

ROOT = Path(__file__).resolve().parents[2]
#: Where a file that is not a rendered page is linked (the repository on its host, package.json's).
REPO_URL = json.loads((ROOT / "node" / "package.json").read_text())["homepage"].split("#")[0] + "/blob/main/"
#: The pages first on the index, with a line each; every other page follows in path order.
GUIDES = [
    ("README.md", "Overview, install, quick starts (Rust, Python, TypeScript), the CLI, limits"),
    ("python/README.md", "The Python package: every task, the agent's workflow, MCP, replay"),
    ("node/README.md", "The npm package: ESM and CommonJS, TypeScript, MCP, replay, backends"),
    ("wasm/README.md", "The WebAssembly build in browsers"),
    ("docs/everyday-tasks.md", "The six everyday tasks, next to PyJWT + rfc8785 and jose + canonicalize"),
    ("docs/host-idioms.md", "How the Python and JS packages differ on purpose"),
    ("docs/errors.md", "Every error code"),
    ("docs/decisions.md", "Every decision settled, by domain"),
    ("CONTRIBUTING.md", "Recipes: an operation, a shape, an error code, a limit"),
    ("CHANGELOG.md", "Changes"),
]
STYLE = """body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
pre{background:#f6f8fa;padding:.8rem;overflow:auto;border-radius:6px}code{font-size:90%}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;vertical-align:top}
nav{margin-bottom:1.5rem;font-size:90%}a{color:#0969da}"""

LINK = re.compile(r'(href|src)="([^"#]*)(#[^"]*)?"')


def pages() -> list[str]:
    """Every Markdown page of the repository (git's list), as paths relative to the root."""
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted(p for p in out.split() if (ROOT / p).is_file())


def slug(text: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).strip().lower()
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))


def headings(body: str) -> str:
    """Each <hN> given GitHub's id of its text (a repeated one numbered -1, -2, ... as there)."""
    seen: dict[str, int] = {}

    def one(m: re.Match[str]) -> str:
        s = slug(m.group(3))
        n = seen.get(s, 0)
        seen[s] = n + 1
        ident = s if n == 0 else f"{s}-{n}"
        return f'<h{m.group(1)} id="{ident}"{m.group(2)}>{m.group(3)}</h{m.group(1)}>'

    return re.sub(r"<h([1-6])((?: [^>]*)?)>(.*?)</h\1>", one, body, flags=re.S)


def relink(body: str, page: str, rendered: set[str]) -> str:
    """Links of a page: to a rendered page -> its .html; to another file of the repository -> the
    repository's host; external links and anchors as they are."""
    here = Path(page).parent

    def one(m: re.Match[str]) -> str:
        attr, target, frag = m.group(1), m.group(2), m.group(3) or ""
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
            return m.group(0)
        resolved = (here / target).as_posix()
        parts: list[str] = []
        for part in resolved.split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part not in ("", "."):
                parts.append(part)
        path = "/".join(parts)
        if path in rendered:
            return f'{attr}="{target[:-3]}.html{frag}"' if target.endswith(".md") else m.group(0)
        if path.endswith("/") or (ROOT / path).is_dir():
            return f'{attr}="{REPO_URL.replace("/blob/", "/tree/")}{path}{frag}"'
        return f'{attr}="{REPO_URL}{path}{frag}"'

    return LINK.sub(one, body)


def render(page: str, rendered: set[str], out: Path) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    body = markdown2.markdown(text, extras=["fenced-code-blocks", "tables", "strike", "code-friendly", "cuddled-lists"])
    body = relink(headings(str(body)), page, rendered)
    depth = page.count("/") + 1  # guide/ and the page's folders
    up = "../" * depth
    title = html.escape(page)
    dest = out / "guide" / (page[:-3] + ".html")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} · ekl-evidence</title>'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><style>{STYLE}</style></head><body>'
        f'<nav><a href="{up}index.html">ekl-evidence docs</a> · {title} · '
        f'<a href="{up}rust/ekl_core/index.html">Rust</a> · <a href="{up}python/ekl_evidence.html">Python</a> · '
        f'<a href="{up}ts/index.html">TypeScript</a></nav>\n{body}</body></html>\n',
        encoding="utf-8",
    )


def index(out: Path, all_pages: list[str]) -> None:
    first = [p for p, _ in GUIDES]
    rows = "".join(f'<li><a href="guide/{p[:-3]}.html">{html.escape(p)}</a>: {html.escape(d)}</li>' for p, d in GUIDES)
    rest = "".join(f'<li><a href="guide/{p[:-3]}.html">{html.escape(p)}</a></li>' for p in all_pages if p not in first)
    crates = "".join(
        f'<li><a href="rust/{c}/index.html"><code>{c.replace("_", "-")}</code></a></li>'
        for c in ("ekl_core", "ekl_bridge", "ekl_conformance")
    )
    (out / "index.html").write_text(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ekl-evidence docs</title>'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><style>{STYLE}</style></head><body>'
        "<h1>ekl-evidence: API reference and guides</h1>"
        "<p>The reference library for the bytes of EKP 1.2 evidence: one Rust core, the same operations "
        "and error codes in Python, Node, browsers and the <code>ekl</code> tool.</p>"
        "<h2>API reference</h2><ul>"
        '<li>Python, <a href="python/ekl_evidence.html"><code>ekl_evidence</code></a> (pdoc, from the stubs and docstrings)</li>'
        '<li>TypeScript / JavaScript, <a href="ts/index.html"><code>ekl-evidence</code></a> (TypeDoc, from the declarations)</li>'
        f"<li>Rust (rustdoc):<ul>{crates}</ul></li></ul>"
        f"<h2>Guides</h2><ul>{rows}</ul><h2>Every other page</h2><ul>{rest}</ul></body></html>\n",
        encoding="utf-8",
    )


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    out, rustdoc, pdoc_dir, typedoc = (Path(a) for a in argv[1:])
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for src, name in ((rustdoc, "rust"), (pdoc_dir, "python"), (typedoc, "ts")):
        shutil.copytree(src, out / name)
    # rustdoc's help and settings pages link to the root of the docs: the crates
    crates = "".join(f'<li><a href="{c}/index.html">{c}</a></li>' for c in ("ekl_core", "ekl_bridge", "ekl_conformance"))
    (out / "rust" / "index.html").write_text(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rust crates · ekl-evidence</title></head>'
        f'<body><p><a href="../index.html">ekl-evidence docs</a></p><h1>Rust crates</h1><ul>{crates}</ul></body></html>\n',
        encoding="utf-8",
    )
    all_pages = pages()
    rendered = set(all_pages)
    for page in all_pages:
        render(page, rendered, out)
    index(out, all_pages)
    print(f"site: {out} ({len(all_pages)} guide pages, rust/, python/, ts/)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
