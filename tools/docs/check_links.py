"""The decisions record's links (docs/decisions.md is the index of docs/decisions/*.md and
docs/performance.md): every `decisions.md#<id>` cited anywhere in the repository is an anchor of the
index, and every link of the index reaches a file that holds that anchor. Run from the repository
root; exits 1 with the broken links."""
import re
import subprocess
import sys
from pathlib import Path

index = Path("docs/decisions.md").read_text()
ids = set(re.findall(r'<a id="([^"]+)"></a>', index))
cited = set(subprocess.run(["git", "grep", "-ohE", r"decisions\.md#[A-Za-z0-9_-]+"],
                           capture_output=True, text=True, check=True).stdout.split())
broken = [c for c in sorted(cited) if c.split("#", 1)[1] not in ids]
for target, anchor in re.findall(r"\]\(((?:decisions/[a-z0-9-]+|performance)\.md)#([A-Za-z0-9_-]+)\)", index):
    path = Path("docs") / target
    if not path.exists() or f'<a id="{anchor}"></a>' not in path.read_text():
        broken.append(f"docs/decisions.md -> {target}#{anchor}")
for path in sorted(Path("docs/decisions").glob("*.md")) + [Path("docs/performance.md")]:
    text = path.read_text()
    own = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for anchor in re.findall(r"\]\(#([A-Za-z0-9_-]+)\)", text):
        if anchor not in own:
            broken.append(f"{path} -> #{anchor} (not in that file)")
    for anchor in re.findall(r"\]\((?:\.\./)?decisions\.md#([A-Za-z0-9_-]+)\)", text):
        if anchor not in ids:
            broken.append(f"{path} -> decisions.md#{anchor}")
if broken:
    sys.exit("broken links of the decisions record:\n  " + "\n  ".join(broken))
print(f"decisions record: {len(ids)} anchors in the index, {len(cited)} citations, all resolve")
