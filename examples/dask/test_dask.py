"""The Dask recipe (scripts/test/60-dask.sh): on a local cluster of 2 worker processes it gives
the single-process verdicts and the CLI's output byte for byte (full and failures only), from
local files and from an S3-compatible server (moto, on 127.0.0.1), with the workers writing their
own outputs and the driver holding a bounded number of small summaries; make_archive's command
line; and the README's ``sh`` blocks, run as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

import ekl_evidence as ekl  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import verify_archive as va  # noqa: E402
from make_archive import archive  # noqa: E402

#: The CLI (scripts/test/60-dask.sh builds it): its output is the reference.
EKL = os.environ.get("EKL_BIN")


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as c:
        assert len(c.scheduler_info()["workers"]) == 2
        yield c


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    """Uneven partitions of a 360-item archive, blank lines included (a split at any line
    boundary), the context, and the lines."""
    d = tmp_path_factory.mktemp("archive")
    lines, ctx = archive(360)
    cuts = [0, 50, 51, 170, 300, len(lines)]
    paths = []
    for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
        p = d / f"part-{k:05d}.jsonl"
        p.write_text("\n".join(lines[a:b]) + ("\n\n  \n" if k % 2 else "\n"), encoding="utf-8")
        paths.append(str(p))
    (d / "jwks.json").write_text(ctx["jwks"])
    (d / "key-ring.json").write_text(ctx["keys"])
    return paths, ctx, lines


def cli(path: str, ctx: Dict[str, str], tmp: Path, *extra: str) -> bytes:
    """``ekl receipt verify-archive`` on one partition: its stdout."""
    if not EKL:
        pytest.skip("EKL_BIN is not set (scripts/test/60-dask.sh sets it)")
    (tmp / "jwks.json").write_text(ctx["jwks"])
    (tmp / "ring.json").write_text(ctx["keys"])
    r = subprocess.run(
        [EKL, "receipt", "verify-archive", "--jobs", "2", "--jwks", str(tmp / "jwks.json"),
         "--key-ring", str(tmp / "ring.json"), "--agent-id", ctx["agent"], "--issuer",
         ctx["issuer"], *extra, path],
        capture_output=True,
    )
    assert r.returncode in (0, 1), r.stderr
    return r.stdout


def args(ctx: Dict[str, str]):
    return (ctx["jwks"], ctx["keys"], ctx["agent"], ctx["issuer"])


def test_workers_write_the_cli_output_and_the_single_process_verdicts(client, parts, tmp_path: Path) -> None:
    paths, ctx, lines = parts
    out = tmp_path / "verdicts"
    summaries = list(va.verify_archive(client, paths, str(out), *args(ctx)))
    # Streamed in completion order, one small summary per partition, never the verdicts.
    assert sorted(s["partition"] for s in summaries) == paths
    assert all("text" not in s and len(json.dumps(s)) < 600 for s in summaries)
    by = {s["partition"]: s for s in summaries}
    assert sum(s["items"] for s in summaries) == len(lines)
    refused = sum(s["refused"] for s in summaries)
    accepted = sum(s["accepted"] for s in summaries)
    assert refused > 0 and 250 < accepted < len(lines) - refused, (accepted, refused)

    whole = ekl.verify_receipt_lines("\n".join(lines), keys=ekl.JsonText(ctx["keys"]),
                                     jwks=ekl.JsonText(ctx["jwks"]), own_agent_id=ctx["agent"],
                                     network_issuer=ctx["issuer"], jobs=2)
    got: List[dict] = []
    for p in paths:
        text = (out / Path(p).name).read_bytes()
        assert by[p]["output"] == str(out / Path(p).name) and by[p]["bytes_out"] == len(text)
        rows = [json.loads(line) for line in text.splitlines()]
        # Canonical JSON, line by line (the CLI's writer).
        assert all(ekl.canonicalize(line) == line for line in text.splitlines())
        got += rows
        # Byte for byte the CLI's output on the same partition.
        if EKL:
            assert text == cli(p, ctx, tmp_path)
    # The same verdicts as the whole archive in one call (the partitions change nothing).
    assert [r.to_wire() if isinstance(r, ekl.Verdict) else {"code": r.code, "message": r.message} for r in whole] == [
        r.get("verdict", r.get("error")) for r in got
    ]
    # Blank lines keep their numbers: part 1 is one line, part 2 starts again at 1.
    assert [r["line"] for r in got[49:52]] == [50, 1, 1]
    # Each partition on a worker process of its own (5 tasks over 2 processes).
    assert len(set(client.run(os.getpid).values())) == 2


def test_failures_only_keeps_the_failing_items_and_checks_as_the_cli(client, parts, tmp_path: Path) -> None:
    paths, ctx, _ = parts
    full, fo = tmp_path / "full", tmp_path / "fo"
    list(va.verify_archive(client, paths, str(full), *args(ctx)))
    summaries = list(va.verify_archive(client, paths, str(fo), *args(ctx), failures_only=True))
    kept = 0
    for p in paths:
        name = Path(p).name
        rows = [json.loads(x) for x in (full / name).read_bytes().splitlines()]
        expected = []
        for r in rows:
            if "error" in r:
                expected.append(r)
            elif not r["verdict"]["accepted"]:
                v = dict(r["verdict"], checks=[c for c in r["verdict"]["checks"] if c["outcome"] != "pass"])
                expected.append({"line": r["line"], "verdict": v})
        text = (fo / name).read_bytes()
        assert [json.loads(x) for x in text.splitlines()] == expected
        kept += len(expected)
        if EKL:
            assert text == cli(p, ctx, tmp_path, "--failures-only")
    assert kept == sum(s["not_accepted"] + s["refused"] for s in summaries) > 0
    assert all(s["bytes_out"] < 20000 for s in summaries)


def test_the_driver_holds_a_bounded_number_of_tasks(client, tmp_path: Path) -> None:
    lines, ctx = archive(120)
    paths = []
    for k in range(12):
        p = tmp_path / "in" / f"p{k:02d}.jsonl"
        p.parent.mkdir(exist_ok=True)
        p.write_text("\n".join(lines[k * 10 : k * 10 + 10]) + "\n")
        paths.append(str(p))
    held = []
    for s in va.verify_archive(client, paths, str(tmp_path / "out"), *args(ctx), in_flight=3):
        held.append(len(client.futures))
        assert s["items"] == 10
    # At most 3 tasks submitted, plus the one being released (release is asynchronous).
    assert len(held) == 12 and max(held) <= 4, held


def test_blocks_split_anywhere_and_refuse_long_lines(parts, tmp_path: Path, monkeypatch) -> None:
    """Read in blocks of any size (here tiny), with a line limit lowered to 1000 bytes: the same
    output as one block, and a longer line refused as the CLI does (BODY_TOO_LARGE)."""
    paths, ctx, lines = parts
    a = args(ctx)
    ref = va.verify_partition(paths[2], None, *a)["text"]
    for size in (7, 300, 5000):
        assert va.verify_partition(paths[2], None, *a, block_bytes=size)["text"] == ref
    monkeypatch.setattr(va, "MAX_LINE_BYTES", 1000)
    p = tmp_path / "long.jsonl"
    short = '{"call":{}}'
    p.write_text("\n".join([short, "x" * 2500, short, "", "y" * 1001]) + "\n" + short)
    for size in (64, 700, 1 << 20):
        s = va.verify_partition(str(p), None, *a, block_bytes=size)
        rows = [json.loads(x) for x in s["text"].splitlines()]
        assert [(r["line"], r["error"]["code"]) for r in rows] == [
            (1, "INVALID_RECEIPT"), (2, "BODY_TOO_LARGE"), (3, "INVALID_RECEIPT"),
            (5, "BODY_TOO_LARGE"), (6, "INVALID_RECEIPT"),
        ], size
        assert rows[1]["error"]["message"] == "the item is 2500 bytes, over the limit of 1000 bytes a line"


def test_stdout_mode_writes_every_line_in_partition_order(client, parts) -> None:
    import io

    paths, ctx, lines = parts
    sink = io.BytesIO()
    summaries = list(va.verify_archive_to(client, paths, sink, *args(ctx), in_flight=2))
    assert [s["partition"] for s in summaries] == paths
    rows = [json.loads(x) for x in sink.getvalue().splitlines()]
    assert len(rows) == len(lines)
    assert [r["partition"] for r in rows] == [p for s in summaries for p in [s["partition"]] * s["items"]]
    single = [json.loads(x) for p in paths for x in va.verify_partition(p, None, *args(ctx), jobs=1)["text"].splitlines()]
    assert rows == single


@pytest.fixture
def s3(monkeypatch):
    """An S3-compatible server (moto) on 127.0.0.1 and a port the OS gives it (port 0: no other
    process can hold it), for this test alone; the environment points boto at it (monkeypatch:
    this test's own, restored after it; the workers, spawned later, inherit it)."""
    import s3fs
    from moto.server import ThreadedMotoServer

    s3fs.S3FileSystem.clear_instance_cache()  # an instance may point at an earlier server
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    port = server.get_host_and_port()[1]
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    try:
        yield env
    finally:
        server.stop()


def test_an_s3_round_trip_make_verify_read_back(s3, tmp_path: Path) -> None:
    import s3fs

    fs = s3fs.S3FileSystem()
    fs.mkdir("ekl-archive")
    # make_archive writes the partitions and the keys to the bucket (its command line).
    run = lambda *a: subprocess.run([sys.executable, *a], capture_output=True, text=True, env=os.environ)
    r = run(str(HERE / "make_archive.py"), "--n", "90", "--partition-items", "40",
            "--out", "s3://ekl-archive/in/", "--procs", "2")
    assert r.returncode == 0, r.stderr
    assert sorted(fs.ls("ekl-archive/in")) == [f"ekl-archive/in/{n}" for n in (
        "context.json", "jwks.json", "key-ring.json", "part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl")]
    # verify_archive reads a glob of s3:// partitions and the keys, the workers write to s3://.
    r = run(str(HERE / "verify_archive.py"), "--jwks", "s3://ekl-archive/in/jwks.json",
            "--key-ring", "s3://ekl-archive/in/key-ring.json", "--agent-id", "agt_consumer",
            "--issuer", "https://network.test", "--out", "s3://ekl-archive/out/",
            "--failures-only", "s3://ekl-archive/in/part-*.jsonl")
    assert r.returncode == 1, r.stderr  # some items are not accepted
    summaries = [json.loads(x) for x in r.stdout.splitlines()]
    assert sorted(s["output"] for s in summaries) == [f"s3://ekl-archive/out/part-0000{k}.jsonl" for k in range(3)]
    assert sum(s["items"] for s in summaries) == 90
    assert "90 items" in r.stderr and "driver peak RSS" in r.stderr
    # What the workers wrote is what one process gives on local copies.
    for k in range(3):
        local = tmp_path / f"part-0000{k}.jsonl"
        fs.get(f"ekl-archive/in/part-0000{k}.jsonl", str(local))
        ctx = {"jwks": fs.cat("ekl-archive/in/jwks.json").decode(), "keys": fs.cat("ekl-archive/in/key-ring.json").decode()}
        ref = va.verify_partition(str(local), str(tmp_path / f"ref{k}.jsonl"), ctx["jwks"], ctx["keys"],
                                  "agt_consumer", "https://network.test", failures_only=True)
        got = fs.cat(f"ekl-archive/out/part-0000{k}.jsonl")
        assert got == (tmp_path / f"ref{k}.jsonl").read_bytes()
        assert ref["not_accepted"] + ref["refused"] == len(got.splitlines())


def test_make_archive_command_line(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(HERE / "make_archive.py"), "--n", "50", "--out",
                        f"file://{tmp_path}/a", "--partition-items", "20", "--fail", "0.5",
                        "--unreadable", "0.1", "--procs", "1"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    parts = sorted((tmp_path / "a").glob("part-*.jsonl"))
    got = [p.read_text().splitlines() for p in parts]
    assert [len(x) for x in got] == [20, 20, 10]
    lines, ctx = archive(50, fail=0.5, unreadable=0.1)
    assert [x for g in got for x in g] == lines  # the same items, whatever the partitioning
    assert json.loads((tmp_path / "a" / "context.json").read_text()) == {"agent_id": ctx["agent"], "issuer": ctx["issuer"]}
    results = ekl.verify_receipt_lines("\n".join(lines), keys=ekl.JsonText(ctx["keys"]),
                                       jwks=ekl.JsonText(ctx["jwks"]), own_agent_id=ctx["agent"],
                                       network_issuer=ctx["issuer"])
    refused = sum(isinstance(x, ekl.EklError) for x in results)
    rejected = sum(isinstance(x, ekl.Verdict) and not x.accepted for x in results)
    assert 1 <= refused <= 12 and 12 <= rejected <= 40, (refused, rejected)
    kinds = {x.startswith('{"receipt_jws"') + 2 * ("auth_tag" in x) for x in lines if x.startswith('{"receipt')}
    assert kinds == {0, 1, 2}  # receipt objects, compact JWS and MAC receipts


def test_the_readme_sh_blocks_run_as_written(s3, tmp_path: Path) -> None:
    """Every fenced ``sh`` block of the README, run by bash (-e) in a fresh folder where
    ``examples`` is the repository's, ``python`` the test's interpreter, ``ekl`` the CLI, and
    S3 the test's server (with the README's bucket)."""
    import s3fs

    s3fs.S3FileSystem().mkdir("my-archive")
    blocks = re.findall(r"^```sh\n(.*?)^```", (HERE / "README.md").read_text(), re.S | re.M)
    assert len(blocks) >= 2
    (tmp_path / "examples").symlink_to(REPO / "examples")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (bin_dir / "python").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    if EKL:
        (bin_dir / "ekl").symlink_to(EKL)
    for block in blocks:
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
        assert r.returncode == 0, (block, r.stdout[-2000:], r.stderr[-2000:])
    assert sorted(p.name for p in (tmp_path / "verdicts").iterdir())[:1] == ["part-00000.jsonl"]
    assert s3fs.S3FileSystem().ls("my-archive/failures")
    # The python blocks compile, and the PipInstall plugin takes the README's arguments.
    from distributed.diagnostics.plugin import PipInstall

    for block in re.findall(r"^```python\n(.*?)^```", (HERE / "README.md").read_text(), re.S | re.M):
        compile(block, "README.md", "exec")
        call = re.search(r"PipInstall\((.*?)\),\n", block, re.S)
        assert call
        assert isinstance(eval(f"PipInstall({call.group(1)})", {"PipInstall": PipInstall}), PipInstall)
