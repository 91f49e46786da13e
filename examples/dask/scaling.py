"""Throughput of batch verification on 1 and 2 (or N) threads, in one process: receipts per
second (wall) and CPU time per receipt, for ``verify_receipt_lines`` (network-signed and MAC
receipts of make_archive) and ``verify_receipts`` (MAC receipts). Prints the load average too.

    python examples/dask/scaling.py [ITEMS] [ROUNDS]
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable, Dict, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ekl_evidence as ekl  # noqa: E402
from make_archive import archive  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    lines, ctx = archive(n)
    text = "\n".join(lines)
    keys = json.loads(ctx["keys"])
    mac = []
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if "receipt" in item and "auth_tag" in item["receipt"]:
            item.pop("label")
            item["call"]["requester_agent_id"] = ctx["agent"]
            mac.append(item)
    kw: Dict[str, Any] = dict(keys=ekl.JsonText(ctx["keys"]), jwks=ekl.JsonText(ctx["jwks"]),
                              own_agent_id=ctx["agent"], network_issuer=ctx["issuer"])
    for r in range(rounds):
        for jobs in (1, 2):
            runs: Tuple[Tuple[str, Callable[[], object], int], ...] = (
                ("verify_receipt_lines", lambda: ekl.verify_receipt_lines(text, jobs=jobs, **kw), len(lines)),
                ("verify_receipts (MAC)", lambda: ekl.verify_receipts(mac, keys, jobs=jobs), len(mac)),
            )
            for name, f, count in runs:
                load = os.getloadavg()[0]
                w0, c0 = time.perf_counter(), time.process_time()
                f()
                wall, cpu = time.perf_counter() - w0, time.process_time() - c0
                print(f"round {r} {name:22} jobs {jobs}: {count / wall:8.0f} receipts/s, "
                      f"{cpu / count * 1e6:6.1f} µs CPU each, load {load:.1f}")


if __name__ == "__main__":
    main()
