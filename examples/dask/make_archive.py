"""A deterministic, realistic receipt archive: network-signed receipts (as objects and as compact
JWS, each signed on its own), MAC receipts, some that fail a check and some that cannot be read
at all; written as partitions to any fsspec URL (a local folder, ``file://``, ``s3://``).

    python examples/dask/make_archive.py --n 1000000 --out s3://bucket/archive/ \\
        --partition-items 20000 --fail 0.05 --keys-out .

writes ``part-00000.jsonl``, ``part-00001.jsonl``, ... under ``--out`` (``--procs`` processes, one
partition at a time each) and the verification context to ``--keys-out`` (default: ``--out``):
``jwks.json`` (the network's public keys), ``key-ring.json`` (the MAC receipts' key ring: a
secret; test data here) and ``context.json`` (``agent_id``, ``issuer``). The items are the same for
the same arguments, whatever ``--procs`` and the partition size.

``archive(n)`` gives the lines in memory (for the tests and scaling.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

SEED = "5a" * 32
KID = "net-2026-12"
AGENT = "agt_consumer"
ISSUER = "https://network.test"
SECRET = "rs_dask-test-secret"
IAT = 1795977605  # 2026-11-29T18:40:05Z
ISSUED_AT = "2026-11-29T18:40:05Z"
FP = "ab" * 32
RING = [{"key_id": "rk-1", "secret": SECRET, "valid_from": "2026-01-01T00:00:00Z"}]


def _frac(i: int, salt: int) -> float:
    """A fraction in [0, 1) that looks random over ``i`` (a multiplicative hash): which items
    fail or are unreadable, spread over the archive, the same for the same ``i``."""
    return (((i + 1) * 2654435761 + salt * 40503) % 4294967296) / 4294967296.0


def context() -> Dict[str, str]:
    """What the archive's items share, as texts: {"jwks", "keys", "agent", "issuer"}."""
    import ekl_evidence as ekl

    jwks, _ = ekl.jwks_from_seed(SEED, [KID])
    return {"jwks": jwks.to_json(), "keys": json.dumps(RING), "agent": AGENT, "issuer": ISSUER}


def lines(start: int, stop: int, fail: float = 0.14, unreadable: float = 0.01) -> List[str]:
    """The archive's lines ``start`` to ``stop`` (0-based): a third each of receipt objects,
    compact JWS and MAC receipts; a fraction ``fail`` of them fails a check (a call that differs
    from the receipt), ``unreadable`` cannot be verified at all (not JSON, no receipt)."""
    import ekl_evidence as ekl

    _, keys = ekl.jwks_from_seed(SEED, [KID])
    key = keys[0]
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    out: List[str] = []
    for i in range(start, stop):
        kind = i % 3
        exe, cap, prov = f"ex_{i:08d}", "cap_invoice_extract", "agt_provider"
        if _frac(i, 1) < unreadable:
            out.append("not json" if i % 2 else '{"call": {}}')
            continue
        bad = _frac(i, 2) < fail
        if kind < 2:
            fields = {
                "receipt_version": "1.2", "receipt_id": f"rcpt_{i:08d}", "execution_id": exe,
                "provider_agent_id": prov, "requester_agent_id": AGENT, "capability_id": cap,
                "input_fingerprint": FP, "status": "succeeded", "issued_at": ISSUED_AT,
            }
            obj = ekl.issue_receipt(fields, key, ISSUER, AGENT)
            call = {"execution_id": exe, "provider_agent_id": prov, "capability_id": cap,
                    "input_fingerprint": "cd" * 32 if bad else FP,
                    "sent_at": IAT - 2, "received_at": IAT + 1}
            item: Dict[str, Any] = (
                {"receipt": obj, "call": call} if kind == 0
                else {"receipt_jws": obj["receipt_jws"], "call": call}
            )
        else:
            receipt = {
                "receipt_version": "1.1", "receipt_id": f"rcpt_{i:08d}", "execution_kind": "trial",
                "requester_agent_id": AGENT, "provider_agent_id": prov, "collaboration_id": "col_1",
                "connection_id": "con_1", "execution_id": exe, "capability_id": cap,
                "capability_version": "1.0.0", "rel_ver_at_admission": 1, "dsc_ver": 1, "terms_hash": "t",
                "input_commitment": ekl.commitment({"q": i}), "output_commitment": ekl.commitment({"a": i}),
                "status": "succeeded", "issued_at": ISSUED_AT, "key_id": "rk-1",
                "auth_profile": "ekl-evidence-mac-1.1",
            }
            signed = ekl.sign_receipt(receipt, SECRET)
            call = {"execution_id": exe, "collaboration_id": "col_1", "capability_id": cap,
                    "provider_agent_id": "agt_someone_else" if bad else prov}
            item = {"receipt": signed, "call": call, "label": f"mac {i}"}
        out.append(dumps(item))
    return out


def archive(n: int, fail: float = 0.14, unreadable: float = 0.01) -> Tuple[List[str], Dict[str, str]]:
    """``n`` archive lines and the shared context (see :func:`lines` and :func:`context`)."""
    return lines(0, n, fail, unreadable), context()


def _write_partition(job: Tuple[str, int, int, float, float, Optional[Dict[str, Any]]]) -> int:
    """Writes one partition (its URL, first and last item, fractions); returns its bytes."""
    import fsspec

    url, start, stop, fail, unreadable, options = job
    data = ("\n".join(lines(start, stop, fail, unreadable)) + "\n").encode()
    with fsspec.open(url, "wb", **(options or {})) as f:
        f.write(data)
    return len(data)


def _join(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, required=True, help="how many items")
    p.add_argument("--out", required=True, help="the folder or URL prefix of the partitions")
    p.add_argument("--partition-items", type=int, default=20000, help="items a partition (20000)")
    p.add_argument("--fail", type=float, default=0.05, help="fraction of items not accepted (0.05)")
    p.add_argument("--unreadable", type=float, default=0.01,
                   help="fraction of items that cannot be verified at all (0.01)")
    p.add_argument("--keys-out", help="where jwks.json, key-ring.json, context.json go (--out)")
    p.add_argument("--procs", type=int, default=None, help="processes (default: every core)")
    p.add_argument("--storage-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an fsspec storage option (e.g. endpoint_url=http://127.0.0.1:9000)")
    a = p.parse_args(argv)
    if a.n < 0 or a.partition_items < 1 or not (0 <= a.fail <= 1 and 0 <= a.unreadable <= 1):
        p.error("--n must be at least 0, --partition-items at least 1, fractions within [0, 1]")
    options = storage_options(a.storage_option)

    import fsspec
    from concurrent.futures import ProcessPoolExecutor

    t0 = time.perf_counter()
    jobs = [
        (_join(a.out, f"part-{k:05d}.jsonl"), s, min(s + a.partition_items, a.n), a.fail,
         a.unreadable, options)
        for k, s in enumerate(range(0, a.n, a.partition_items))
    ]
    with ProcessPoolExecutor(a.procs) as pool:
        total = sum(pool.map(_write_partition, jobs))
    ctx = context()
    keys_out = a.keys_out or a.out
    for name, text in (
        ("jwks.json", ctx["jwks"]),
        ("key-ring.json", ctx["keys"]),
        ("context.json", json.dumps({"agent_id": AGENT, "issuer": ISSUER})),
    ):
        with fsspec.open(_join(keys_out, name), "w", **options) as f:
            f.write(text + "\n")
    print(f"make_archive: {a.n} items in {len(jobs)} partitions, {total} bytes, under {a.out} "
          f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0


def storage_options(pairs: Sequence[str]) -> Dict[str, Any]:
    """fsspec storage options from ``KEY=VALUE`` pairs (``client_kwargs.KEY=VALUE`` nests one
    level: s3fs takes ``endpoint_url`` there or at the top)."""
    out: Dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"a storage option is KEY=VALUE, got {key!r}")
        parsed: Any = {"true": True, "false": False}.get(value.lower(), value)
        if "." in key:
            outer, inner = key.split(".", 1)
            out.setdefault(outer, {})[inner] = parsed
        else:
            out[key] = parsed
    return out


if __name__ == "__main__":
    sys.exit(main())
