#!/usr/bin/env python3
"""Cross-surface agreement: the same request stream through every surface, compared byte for byte.

Every surface answers the JSON-lines protocol of docs/conformance-protocol.md through an adapter;
`ekl conformance` sends each the same seeded stream (every vector file, the generated corpus, the
random doubles) and compares every answer byte for byte, and every error code exactly, with the
core's own answer. Equal to the core on every request means equal to each other. Prints one table
of operations x surfaces and exits non-zero on any difference or (unless --allow-missing) when a
surface is not built.

    python3 tools/cross-surface/run.py [--full] [--corpus N] [--doubles N] [--seed S]
                                       [--surfaces rust,python,node,node-polluted,wasm-node,wasm-node-polluted,wasm-chromium]
                                       [--allow-missing]
"""

import argparse
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
EKL = os.environ.get("EKL_BIN", os.path.join(TARGET, "release", "ekl"))
CI = {"corpus": 10000, "doubles": 100000}
FULL = {"corpus": 100000, "doubles": 1000000}


def python_for_surface():
    """The interpreter with ekl_evidence installed: $EKL_PYTHON, the venv of scripts/test/30-python.sh, python3."""
    candidates = [
        os.environ.get("EKL_PYTHON"),
        os.path.join(TARGET, "python-test", "venv-wheel", "bin", "python"),
        sys.executable,
    ]
    for c in candidates:
        if c and os.path.exists(c):
            if subprocess.run([c, "-c", "import ekl_evidence"], capture_output=True).returncode == 0:
                return c
    return None


def node_ok(package):
    code = "require(%r).canonicalize('[]')" % package
    return subprocess.run(["node", "-e", code], capture_output=True).returncode == 0


def surfaces():
    """name -> (command, extra environment) or a reason why it is missing."""
    out = {}
    out["rust"] = ([EKL, "conformance", "--serve"], {}) if os.path.exists(EKL) else "target/release/ekl not built"
    py = python_for_surface()
    out["python"] = (
        ([py, os.path.join(REPO, "examples", "conformance", "python_adapter.py")], {})
        if py
        else "no interpreter with ekl_evidence installed (scripts/test/30-python.sh builds one; or set EKL_PYTHON)"
    )
    node_pkg = os.environ.get("EKL_NODE_PACKAGE_DIR", os.path.join(REPO, "node"))
    adapter = os.path.join(REPO, "examples", "conformance", "node_adapter.mjs")
    out["node"] = (
        (["node", adapter], {"EKL_NODE_PACKAGE": node_pkg})
        if os.path.isdir(node_pkg) and node_ok(node_pkg)
        else "the Node package is not built (%s; scripts/test/40-node.sh builds it)" % node_pkg
    )
    wasm = os.environ.get("EKL_WASM_PACKAGE", os.path.join(REPO, "wasm"))
    built = os.path.exists(os.path.join(wasm, "dist", "index.cjs")) and node_ok(wasm)
    # The Node package with Object.prototype polluted by every option name (the adapter's
    # EKL_ADAPTER_POLLUTE): the registry's calls and the host helpers, which take options.
    out["node-polluted"] = (
        (["node", adapter], {"EKL_NODE_PACKAGE": node_pkg, "EKL_ADAPTER_POLLUTE": "1"}, ["--only", "call/", "--only", "host/"])
        if isinstance(out["node"], tuple)
        else out["node"]
    )
    out["wasm-node"] = (
        (["node", adapter], {"EKL_NODE_PACKAGE": wasm})
        if built
        else "the wasm package is not built (%s/dist; scripts/test/50-wasm.sh builds it)" % wasm
    )
    out["wasm-node-polluted"] = (
        (["node", adapter], {"EKL_NODE_PACKAGE": wasm, "EKL_ADAPTER_POLLUTE": "1"}, ["--only", "call/", "--only", "host/"])
        if built
        else out["wasm-node"]
    )
    chromium = os.environ.get("EKL_CHROMIUM", "/usr/bin/chromium")
    playwright = os.path.isdir(os.path.join(wasm, "node_modules", "playwright-core"))
    if not built:
        out["wasm-chromium"] = out["wasm-node"]
    elif not os.path.exists(chromium) or not playwright:
        out["wasm-chromium"] = "no Chromium (%s) or no playwright-core in %s/node_modules" % (chromium, wasm)
    else:
        out["wasm-chromium"] = (
            ["node", os.path.join(REPO, "tools", "cross-surface", "chromium_adapter.mjs")],
            {"EKL_WASM_PACKAGE": wasm},
        )
    return out


OP_LINE = re.compile(r"^  (\S+)\s+(\d+)/(\d+)\s+([\d.]+)%$")
SUMMARY = re.compile(r"^conformance: (\d+)/(\d+) requests agree")


def run_surface(name, command, env, args, extra=()):
    cmd = [EKL, "conformance", "--seed", str(args.seed), "--corpus", str(args.corpus),
           "--doubles", str(args.doubles), "--timeout", "60000"] + list(extra) + ["--"] + command
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **env), cwd=REPO)
    secs = time.time() - t0
    ops, total = {}, None
    for line in p.stdout.splitlines():
        m = OP_LINE.match(line)
        if m:
            ops[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = SUMMARY.match(line)
        if m:
            total = (int(m.group(1)), int(m.group(2)))
    return {"code": p.returncode, "ops": ops, "total": total, "secs": secs, "stdout": p.stdout, "stderr": p.stderr}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="the full size: %(corpus)d texts, %(doubles)d doubles" % FULL)
    ap.add_argument("--corpus", type=int)
    ap.add_argument("--doubles", type=int)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--surfaces", default="rust,python,node,node-polluted,wasm-node,wasm-node-polluted,wasm-chromium")
    ap.add_argument("--allow-missing", action="store_true", help="skip surfaces that are not built (reported)")
    args = ap.parse_args()
    size = FULL if args.full else CI
    args.corpus = args.corpus if args.corpus is not None else size["corpus"]
    args.doubles = args.doubles if args.doubles is not None else size["doubles"]
    if not os.path.exists(EKL):
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "ekl-cli", "--bin", "ekl"], cwd=REPO, check=True)

    available = surfaces()
    wanted = [s.strip() for s in args.surfaces.split(",") if s.strip()]
    results, missing = {}, {}
    print("cross-surface: seed %d, %d generated JSON texts, %d random doubles, every file of vectors/"
          % (args.seed, args.corpus, args.doubles))
    for name in wanted:
        entry = available.get(name, "unknown surface")
        if isinstance(entry, str):
            missing[name] = entry
            print("  %-20s MISSING: %s" % (name, entry))
            continue
        r = run_surface(name, entry[0], entry[1], args, entry[2] if len(entry) > 2 else ())
        results[name] = r
        agree, total = r["total"] or (0, 0)
        print("  %-20s %s  %d/%d agree  %.1f s" % (name, "ok  " if r["code"] == 0 else "FAIL", agree, total, r["secs"]))

    ops = sorted({op for r in results.values() for op in r["ops"]})
    names = list(results)
    if names:
        print()
        print("%-30s" % "operation" + "".join("%20s" % n for n in names))
        for op in ops:
            row = ""
            for n in names:
                a, t = results[n]["ops"].get(op, (0, 0))
                row += "%20s" % ("%d/%d" % (a, t) if a == t else "%d/%d !" % (a, t))
            print("%-30s" % op + row)
    failed = [n for n in names if results[n]["code"] != 0 or results[n]["total"] is None]
    for n in failed:
        print("\n--- %s: differences ---" % n)
        out = results[n]["stdout"]
        at = out.find("first differing cases")
        print(out[at:] if at >= 0 else out[-6000:])
        print(results[n]["stderr"][-3000:])
    if failed:
        print("\ncross-surface: FAIL (%s)" % ", ".join(failed))
        return 1
    if missing and not args.allow_missing:
        print("\ncross-surface: FAIL: surfaces not built: %s" % ", ".join(missing))
        return 1
    print("\ncross-surface: every surface agrees byte for byte on every request%s"
          % (" (missing: %s)" % ", ".join(missing) if missing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
