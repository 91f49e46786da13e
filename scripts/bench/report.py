"""One table of every surface's figures against its peers (issue 7): `./run bench report`.

Reads the JSON lines the bench steps append to target/bench-report/<step>.json when scripts/bench.sh
sets EKL_BENCH_JSON (one record per surface x operation:
  {step, surface, operation, unit, ours_name, ours, peer, peer_value, ratio[, cpu]}
(cpu: the CPU's model name, printed after the operation) where ratio is how many times faster ours is than the peer, > 1 = ours faster), and the JSON the
Python bench writes with --json (target/bench-report/python.raw.json), and prints one table:
surface x operation, ours, fastest peer, ratio, the issue's target, met?

    python3 scripts/bench/report.py [DIR]        (default target/bench-report)
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

# (surface, operation) -> (kind, value, issue): kind "ratio" = ratio >= value; "max_us" = ours <= value µs.
TARGETS: Dict[Tuple[str, str], Tuple[str, float, str]] = {
    ("rust", "canonicalize text small docs"): ("ratio", 5.0, "#15"),
    ("rust", "canonicalize text big doc"): ("ratio", 5.0, "#15"),
    ("rust", "canonicalize text small docs vs serde_json"): ("ratio", 2.0, "#15"),
    ("rust", "canonicalize text big doc vs serde_json"): ("ratio", 2.0, "#15"),
    ("rust", "ES256 verify (signature)"): ("ratio", 0.5, "#3"),
    ("rust", "ES256 verify (full JWS)"): ("ratio", 0.5, "#3"),
    # issue 43: at or below OpenSSL's time on every CPU (paired rounds, the median of the pairs)
    ("rust", "ES256 verify, key without a table (CPU)"): ("ratio", 1.0, "#28, #43"),
    ("node", "canonicalize text small docs"): ("ratio", 4.0, "#5, #15"),
    ("node", "canonicalize text big doc"): ("ratio", 4.0, "#5, #15"),
    ("node", "canonicalize value small docs"): ("ratio", 1.0, "#15"),
    ("node", "canonicalize value big doc"): ("ratio", 1.0, "#15"),
    # issue 28: the value path in CPU time, the small (receipts) documents
    ("node", "canonicalize value small docs (CPU)"): ("ratio", 1.2, "#28"),
    ("node", "ES256 verify"): ("ratio", 0.5, "#5"),
    ("python", "text vs rfc8785 (worst corpus)"): ("ratio", 15.0, "#4"),
    ("python", "text vs canonicaljson (worst corpus)"): ("ratio", 3.0, "#4"),
    ("python", "value vs canonicaljson (worst corpus)"): ("ratio", 2.0, "#4"),
    # issue 28: canonicalize_value(json.loads(text)) against jcs-admit's admit(text), every run
    ("python", "loads+value vs jcs-admit (worst corpus)"): ("ratio", 1.5, "#28"),
    ("python", "ES256 verify"): ("ratio", 0.5, "#4"),
    # issue 6: 10,000 network-signed receipts in at most 5 s, i.e. 500 µs per verification
    ("wasm-node", "ES256 verify"): ("max_us", 500.0, "#6"),
    ("wasm-chromium", "ES256 verify"): ("max_us", 500.0, "#6"),
    # issue 28: a key without a table at least as fast as WebCrypto in the browser
    ("wasm-chromium", "ES256 verify, key without a table"): ("ratio", 1.0, "#28"),
}
SURFACES = ["rust", "python", "node", "wasm-node", "wasm-chromium"]


def python_records(raw: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The Python bench's --json rows as report records."""
    rows = raw.get("rows", [])
    out: List[Dict[str, Any]] = []
    groups: Dict[Tuple[str, str], List[Dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["corpus"], r["path"]), []).append(r)
    for (corpus, path), rs in groups.items():
        ours = next((r for r in rs if r["library"] == "ekl_evidence"), None)
        peers = [r for r in rs if r["library"] != "ekl_evidence"]
        if ours is None:
            continue
        if path == "verify":
            peer = next((r for r in peers if r["library"] == "cryptography"), None)
            out.append({"surface": "python", "operation": "ES256 verify", "unit": "µs",
                        "ours_name": "ekl_evidence verify_jws", "ours": ours["us_per_call"],
                        "peer": "cryptography (OpenSSL)" if peer else None,
                        "peer_value": peer["us_per_call"] if peer else None,
                        "ratio": peer["ekl_speedup"] if peer else None})
            continue
        best = min(peers, key=lambda r: r["us_per_call"], default=None)
        out.append({"surface": "python", "operation": f"canonicalize {path} {corpus}", "unit": "MB/s",
                    "ours_name": "ekl_evidence", "ours": ours["mb_per_s"],
                    "peer": best["library"] if best else None,
                    "peer_value": best["mb_per_s"] if best else None,
                    "ratio": best["ekl_speedup"] if best else None})
    for path, peer in (("text", "rfc8785"), ("text", "canonicaljson"), ("value", "canonicaljson"),
                       ("loads+value", "jcs-admit")):
        rs = [r for r in rows if r["path"] == path and r["library"] == peer]
        if not rs:
            continue
        worst = min(rs, key=lambda r: r["ekl_speedup"])
        ours = next(r for r in rows if r["path"] == path and r["corpus"] == worst["corpus"]
                    and r["library"] == "ekl_evidence")
        out.append({"surface": "python", "operation": f"{path} vs {peer} (worst corpus)", "unit": "MB/s",
                    "ours_name": f"ekl_evidence ({worst['corpus']})", "ours": ours["mb_per_s"], "peer": peer,
                    "peer_value": worst["mb_per_s"], "ratio": worst["ekl_speedup"]})
    return out


def load(folder: str) -> List[Dict[str, Any]]:
    records: List[Dict[str, Any]] = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name == "python.raw.json":
            with open(path, encoding="utf-8") as f:
                records.extend(python_records(json.load(f)))
        elif name.endswith(".json"):
            with open(path, encoding="utf-8") as f:
                records.extend(json.loads(line) for line in f if line.strip())
    return records


def fmt(value: Optional[float], unit: str) -> str:
    if value is None or value != value:
        return "-"
    return f"{value:.1f} {unit}" if value >= 10 else f"{value:.2f} {unit}"


def main(argv: List[str]) -> int:
    folder = argv[1] if len(argv) > 1 else "target/bench-report"
    if not os.path.isdir(folder):
        print(f"report: no figures in {folder} (run ./run bench first)")
        return 1
    records = load(folder)
    # by surface, canonicalisation before ES256, otherwise in the order the steps wrote them
    records.sort(key=lambda r: (SURFACES.index(r["surface"]) if r["surface"] in SURFACES else 99,
                                r["operation"].startswith("ES256")))
    header = ("surface", "operation", "ours", "fastest peer", "ratio", "target", "met?")
    table = []
    for r in records:
        target = TARGETS.get((r["surface"], r["operation"]))
        ratio = r.get("ratio")
        met = "-"
        tgt = "-"
        if target:
            kind, value, issue = target
            if kind == "ratio":
                tgt = f">= {value:g}x ({issue})"
                met = "-" if ratio is None else ("yes" if ratio >= value else "NO")
            else:
                tgt = f"<= {value:g} µs ({issue})"
                met = "yes" if r["ours"] <= value else "NO"
        peer = f"{fmt(r.get('peer_value'), r['unit'])} {r['peer']}" if r.get("peer") else "-"
        # a row measured against a native peer names the CPU it ran on (issue 43)
        operation = f"{r['operation']} on {r['cpu']}" if r.get("cpu") else r["operation"]
        table.append((r["surface"], operation, fmt(r["ours"], r["unit"]), peer,
                      "-" if ratio is None else f"{ratio:.2f}x", tgt, met))
    widths = [max(len(row[i]) for row in table + [header]) for i in range(len(header))]
    line = lambda row: "  ".join(c.ljust(w) if i in (0, 1, 3, 5) else c.rjust(w)  # noqa: E731
                                 for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    print("ratio = how many times faster ours is than the fastest peer (µs: peer time / ours)")
    print(line(header))
    print(line(tuple("-" * w for w in widths)))
    for row in table:
        print(line(row))
    missing = [s for s in SURFACES if not any(r["surface"] == s for r in records)]
    if missing:
        print(f"(no figures for: {', '.join(missing)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
