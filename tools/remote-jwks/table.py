#!/usr/bin/env python3
"""The RemoteJwks scenario table, Python and JS side by side, from the outcomes the two scenario
tests write (target/remote-jwks/python.json and node.json; CARGO_TARGET_DIR if set). A step is
shown as the kids served or the error code; the last column compares the full outcomes (messages
included). Exits with 1 when a scenario is missing or the two differ."""

import json
import os
import sys
from pathlib import Path

repo = Path(__file__).resolve().parents[2]
target = Path(os.environ.get("CARGO_TARGET_DIR", repo / "target")) / "remote-jwks"
names = [s["name"] for s in json.loads((repo / "tools/remote-jwks/scenarios.json").read_text())["scenarios"]]
py = json.loads((target / "python.json").read_text())
js = json.loads((target / "node.json").read_text())


def short(outcome):
    if outcome is None:
        return "(not run)"
    steps = [s.split(":", 1)[0].replace("kids ", "") for s in outcome.split(" | ")]
    return " · ".join(steps)


ok = True
print("| scenario | Python | JS | same |")
print("|---|---|---|---|")
for name in names:
    same = py.get(name) is not None and py.get(name) == js.get(name) and py[name] != "FAILED"
    ok &= same
    print(f"| {name} | {short(py.get(name))} | {short(js.get(name))} | {'yes' if same else '**NO**'} |")
sys.exit(0 if ok else 1)
