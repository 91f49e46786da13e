"""Every scenario of tools/remote-jwks/scenarios.json against the Python RemoteJwks, played by the
one scripted server (tools/remote-jwks/server.py); node/test/remote-jwks-scenarios.test.js runs the
same file against the JS RemoteJwks. The outcomes are written to
target/remote-jwks/python.json (tools/remote-jwks/table.py prints both side by side)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ekl_evidence import EklError
from ekl_evidence._remote import RemoteJwks

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "remote-jwks"
FILE = json.loads((TOOL / "scenarios.json").read_text())
SCENARIOS = FILE["scenarios"]
OUTCOMES: dict[str, str] = {}


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, str(TOOL / "server.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdin is not None
    ready = json.loads(proc.stdout.readline())
    yield ready
    proc.stdin.close()
    proc.wait(timeout=10)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # one worker of a parallel run (scripts/stress.sh) played only some scenarios
    out = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "remote-jwks" / "python.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(OUTCOMES, indent=1) + "\n")


def number(v: Any) -> Any:
    if isinstance(v, dict) and "$" in v:
        return float(v["$"].replace("Infinity", "inf"))
    return v


def options(o: dict[str, Any]) -> dict[str, Any]:
    """The file's (JS) option names as Python's keyword arguments."""
    out: dict[str, Any] = {}
    for k, v in o.items():
        v = number(v)
        if k == "timeoutMs":
            out["timeout"] = v / 1000 if isinstance(v, (int, float)) and not isinstance(v, bool) else v
        else:
            out[{"maxBytes": "max_bytes", "defaultMaxAge": "default_max_age", "maxStale": "max_stale"}.get(k, k)] = v
    return out


def token(step: dict[str, Any]) -> str:
    header = step.get("header") or json.dumps({"alg": "ES256", "kid": step.get("kid")})
    head = base64.urlsafe_b64encode(header.encode()).rstrip(b"=").decode()
    return f"{head}.e30.c2ln"


def outcome(f) -> str:
    try:
        jwks = f()
    except EklError as e:
        return f"{e.code}: {e.message}"
    return "kids " + ",".join(jwks.kids())


def expected(e: dict[str, Any]) -> str:
    if "kids" in e:
        return "kids " + ",".join(e["kids"])
    return e["error"] + (": " + e["message"] if "message" in e else "")


def matches(got: str, want: dict[str, Any]) -> bool:
    return got == expected(want) if "kids" in want or "message" in want else got.split(":", 1)[0] == want["error"]


def hits(server, name: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{server['http']}/hits/{urllib.request.quote(name)}") as r:
        return json.loads(r.read())["hits"]


def play(server, s: dict[str, Any]) -> list[str]:
    port = server["https"] if s.get("tls") else server["http"]
    url = f"{'https' if s.get('tls') else 'http'}://127.0.0.1:{port}/s/{urllib.request.quote(s['name'])}/jwks.json?q=secret"
    now = [1000.0]
    seen: list[str] = []
    remote = None
    background: dict[str, Any] = {}
    for i, step in enumerate(s["steps"]):
        where = f"{s['name']}, step {i}"
        t0 = time.monotonic()
        if "advance" in step:
            now[0] += step["advance"]
            continue
        if "sleep" in step:
            time.sleep(step["sleep"])
            continue
        if "join" in step:
            thread, box = background.pop(step["join"])
            thread.join(10)
            got = box[0]
        elif step.get("construct"):
            got = outcome(lambda: RemoteJwks(url, **{"clock": lambda: now[0], **options(s.get("options", {}))}))
        else:
            if remote is None:
                remote = RemoteJwks(url, clock=lambda: now[0], **options(s.get("options", {})))
            r = remote
            tok = token(step)
            call = (lambda r=r: r.jwks()) if step["call"] == "jwks" else (lambda t=tok, r=r: r.jwks_for(t))
            if "background" in step:
                box: list[str] = []
                # bound now: the loop goes on (and rebinds box and call) while the thread runs
                thread = threading.Thread(target=lambda box=box, call=call: box.append(outcome(call)))
                thread.start()
                background[step["background"]] = (thread, box)
                continue
            n = step.get("concurrent", 1)
            results: list[str] = [""] * n
            barrier = threading.Barrier(n)

            def one(j: int, barrier: threading.Barrier = barrier, results: list[str] = results, call: Any = call) -> None:
                barrier.wait()
                results[j] = outcome(call)

            threads = [threading.Thread(target=one, args=(j,)) for j in range(n)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert len(set(results)) == 1, f"{where}: the concurrent callers disagree: {set(results)}"
            got = results[0]
        elapsed = time.monotonic() - t0
        assert "secret" not in got and "127.0.0.1" not in got, f"{where}: the message names the URL: {got}"
        assert matches(got, step["expect"]), f"{where}: got {got!r}, expected {expected(step['expect'])!r}"
        if "hits" in step:
            assert hits(server, s["name"]) == step["hits"], f"{where}: {hits(server, s['name'])} requests, expected {step['hits']}"
        if "withinSeconds" in step:
            assert elapsed < step["withinSeconds"], f"{where}: took {elapsed:.2f} s, bound {step['withinSeconds']} s"
        seen.append(got if "message" in step["expect"] or "kids" in step["expect"] else got.split(":", 1)[0])
    return seen


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario(server, scenario, monkeypatch):
    # The clients trust the test server's certificate: set for this test alone, restored after it.
    monkeypatch.setenv("SSL_CERT_FILE", server["cert"])
    OUTCOMES[scenario["name"]] = "FAILED"
    OUTCOMES[scenario["name"]] = " | ".join(play(server, scenario))
