"""The Dask recipe on a local cluster of 2 worker processes gives exactly the single-process
verdicts (scripts/test/60-dask.sh)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# The worker processes import verify_partition from this folder too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))

import ekl_evidence as ekl  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

from make_archive import archive  # noqa: E402
from verify_archive import verify_archive, verify_partition  # noqa: E402


def test_local_cluster_of_two_workers_gives_the_single_process_verdicts(tmp_path: Path) -> None:
    lines, ctx = archive(360)
    # Uneven partitions, blank lines included: a split at any line boundary.
    cuts = [0, 50, 51, 170, 300, len(lines)]
    paths = []
    for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
        p = tmp_path / f"part-{k:05d}.jsonl"
        p.write_text("\n".join(lines[a:b]) + ("\n\n" if k % 2 else "\n"), encoding="utf-8")
        paths.append(str(p))
    args = (ctx["jwks"], ctx["keys"], ctx["agent"], ctx["issuer"])

    single = [verify_partition(p, *args, 1) for p in paths]
    flat = [r for part in single for r in part]
    assert len(flat) == len(lines)
    accepted = sum("verdict" in r and r["verdict"]["accepted"] for r in flat)
    refused = sum("error" in r for r in flat)
    assert refused == 4 and 250 < accepted < len(lines) - refused, (accepted, refused)
    # The same verdicts as the whole archive in one call (the partitions change nothing).
    whole = ekl.verify_receipt_lines("\n".join(lines), keys=ekl.JsonText(ctx["keys"]),
                                     jwks=ekl.JsonText(ctx["jwks"]), own_agent_id=ctx["agent"],
                                     network_issuer=ctx["issuer"], jobs=2)
    assert [r.to_wire() if isinstance(r, ekl.Verdict) else {"code": r.code, "message": r.message} for r in whole] == [
        r.get("verdict", r.get("error")) for r in flat
    ]

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        distributed = verify_archive(client, paths, *args)
        # Two worker processes of their own (5 partitions, 5 tasks, over them).
        who = client.run(lambda: os.getpid())
    assert distributed == single
    assert len(set(who.values())) == 2
