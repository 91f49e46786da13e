"""Runs the published guide's own check script (vectors/check/guide/check_vectors.py, unchanged) on our files.

The guide's script is run from a temporary folder laid out like the EKP repository: canonical.py and
check_vectors.py beside a vectors/ folder holding symlinks to this repository's vectors/ekl-json-1.json and,
when it exists, vectors/call-receipt.json. The script reads the receipt file after the canonical part, so
while vectors/call-receipt.json does not exist yet the runner executes a copy of the script cut just before
`r = json.load(open("vectors/call-receipt.json"))`, with the script's own last two lines (the failure count
and the exit status) appended: the canonical part runs exactly as published. Once the file exists the
script runs whole.

Then it checks the check: a copy of ekl-json-1.json with one expected sha256 changed must make the guide's
script exit non-zero.

    python3 vectors/check/run_guide.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.dirname(HERE)
GUIDE = os.path.join(HERE, "guide")
RECEIPT_LINE = 'r = json.load(open("vectors/call-receipt.json"))'


def layout(tmp, ekl_json_1):
    shutil.copy(os.path.join(GUIDE, "canonical.py"), tmp)
    os.mkdir(os.path.join(tmp, "vectors"))
    os.symlink(ekl_json_1, os.path.join(tmp, "vectors", "ekl-json-1.json"))
    receipt = os.path.join(VECTORS, "call-receipt.json")
    with open(os.path.join(GUIDE, "check_vectors.py"), encoding="utf-8") as f:
        script = f.read()
    if os.path.exists(receipt):
        os.symlink(receipt, os.path.join(tmp, "vectors", "call-receipt.json"))
        part = "whole script (call-receipt.json present)"
    else:
        cut = script.index(RECEIPT_LINE)
        tail = script[script.index('print(f"{failures} failure(s)")'):]
        script = script[:cut] + tail
        part = "canonical part only (vectors/call-receipt.json does not exist yet)"
    with open(os.path.join(tmp, "check_vectors.py"), "w", encoding="utf-8") as f:
        f.write(script)
    return part


def run_guide(ekl_json_1, quiet=False):
    with tempfile.TemporaryDirectory() as tmp:
        part = layout(tmp, ekl_json_1)
        done = subprocess.run([sys.executable, "check_vectors.py"], cwd=tmp, capture_output=True, text=True)
        if not quiet:
            sys.stdout.write(done.stdout)
            sys.stderr.write(done.stderr)
        return done.returncode, part, done.stdout


def main():
    code, part, _ = run_guide(os.path.join(VECTORS, "ekl-json-1.json"))
    print(f"guide check_vectors.py, {part}: exit status {code}")
    with tempfile.TemporaryDirectory() as tmp:
        doc = json.load(open(os.path.join(VECTORS, "ekl-json-1.json"), encoding="utf-8"))
        doc["valid"][0]["sha256"] = "0" * 64
        changed = os.path.join(tmp, "ekl-json-1.json")
        with open(changed, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
        meta, _, out = run_guide(changed, quiet=True)
    meta_ok = meta != 0 and f"FAIL valid: {doc['valid'][0]['name']}" in out
    print("PASS" if meta_ok else "FAIL", f"meta: a changed sha256 makes the guide's script fail (exit status {meta})")
    sys.exit(0 if code == 0 and meta_ok else 1)


if __name__ == "__main__":
    main()
