"""Verify a partitioned receipt archive on a Dask cluster with ekl_evidence.

A receipt archive is JSON lines, one item a line (the format of ``ekl receipt verify-archive``
and of ``ekl_evidence.verify_receipt_lines``; see examples/dask/README.md). A large archive is
kept as partitions (files ``part-00000.jsonl``, ``part-00001.jsonl``, ...: any split at line
boundaries, each at most 64 MiB). Each partition is one Dask task: the worker reads its file and
verifies it with one ``verify_receipt_lines`` call, which releases the GIL and uses the threads
the worker is given (``jobs``). The driver gathers the results in partition order, so the output
is exactly what one process gives for the partitions one after the other.

    python verify_archive.py --scheduler tcp://host:8786 --jwks jwks.json \
        --agent-id agt_me --issuer https://network.example  part-*.jsonl > verdicts.jsonl

Without ``--scheduler`` a local cluster of ``--workers`` processes is started. Receipt secrets
(for MAC receipts) are read from ``--key-ring FILE`` on the driver and sent to the workers with
the tasks: on a real cluster, use TLS between the scheduler and the workers.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Sequence


def verify_partition(
    path: str,
    jwks: Optional[str],
    keys: Optional[str],
    own_agent_id: Optional[str],
    network_issuer: Optional[str],
    jobs: Optional[int],
) -> List[Dict[str, Any]]:
    """The results of one partition file, one per non-blank line, as wire-shaped dicts:
    ``{"line": N, "verdict": {...}}`` or ``{"line": N, "error": {"code", "message"}}``.
    Runs on a worker (plain values in and out: they cross the network)."""
    import ekl_evidence as ekl

    with open(path, "rb") as f:
        text = f.read()
    numbers = [i + 1 for i, line in enumerate(text.split(b"\n")) if line.strip(b" \t\r")]
    results = ekl.verify_receipt_lines(
        text,
        keys=None if keys is None else ekl.JsonText(keys),
        jwks=None if jwks is None else ekl.JsonText(jwks),
        own_agent_id=own_agent_id,
        network_issuer=network_issuer,
        jobs=jobs,
    )
    out: List[Dict[str, Any]] = []
    for n, r in zip(numbers, results):
        if isinstance(r, ekl.EklError):
            out.append({"line": n, "error": {"code": r.code, "message": r.message}})
        else:
            out.append({"line": n, "verdict": r.to_wire()})
    return out


def verify_archive(
    client: Any,
    paths: Sequence[str],
    jwks: Optional[str] = None,
    keys: Optional[str] = None,
    own_agent_id: Optional[str] = None,
    network_issuer: Optional[str] = None,
    jobs: Optional[int] = None,
) -> List[List[Dict[str, Any]]]:
    """The results of every partition, in the order of ``paths`` (one task per partition)."""
    futures = client.map(
        verify_partition,
        list(paths),
        jwks=jwks,
        keys=keys,
        own_agent_id=own_agent_id,
        network_issuer=network_issuer,
        jobs=jobs,
        pure=False,
    )
    return client.gather(futures)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("partitions", nargs="+", help="the archive's partition files, in order")
    p.add_argument("--scheduler", help="the scheduler's address (default: a local cluster)")
    p.add_argument("--workers", type=int, default=2, help="local cluster: worker processes")
    p.add_argument("--jobs", type=int, default=None, help="threads per task (default: all)")
    p.add_argument("--jwks", help="the network's JWKS file (network-signed receipts)")
    p.add_argument("--key-ring", help="the key ring file (MAC receipts)")
    p.add_argument("--agent-id", help="your agent id (when an item's call has none)")
    p.add_argument("--issuer", help="the network's issuer (when an item's call has none)")
    a = p.parse_args(argv)

    from distributed import Client, LocalCluster

    read = lambda path: None if path is None else open(path, encoding="utf-8").read()
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    try:
        parts = verify_archive(
            client, a.partitions, read(a.jwks), read(a.key_ring), a.agent_id, a.issuer, a.jobs
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    bad = 0
    for path, results in zip(a.partitions, parts):
        for r in results:
            bad += "error" in r or not r["verdict"]["accepted"]
            print(json.dumps({"partition": path, **r}, sort_keys=True, separators=(",", ":")))
    total = sum(len(r) for r in parts)
    print(f"{total} items, {total - bad} accepted, {bad} not", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
