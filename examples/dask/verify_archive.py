"""Verify a partitioned receipt archive on a Dask cluster with ekl_evidence.

A receipt archive is JSON lines, one item a line (the format of ``ekl receipt verify-archive``
and of ``ekl_evidence.verify_receipt_lines``; see examples/dask/README.md), kept as partitions:
files or objects at any fsspec URL (a local path, ``file://``, ``s3://``; a glob such as
``s3://bucket/archive/part-*.jsonl`` is expanded on the driver). Each partition is one Dask task:
the worker streams its partition in blocks of whole lines, verifies each block with one
``verify_receipt_lines`` call (the GIL released) and writes its own results next to the others:

    python verify_archive.py --scheduler tcp://host:8786 --jwks jwks.json --key-ring ring.json \\
        --agent-id agt_me --issuer https://network.example \\
        --out s3://bucket/verdicts/2026-12-02/ 's3://bucket/archive/part-*.jsonl'

``--out URL`` (a folder or prefix): partition ``.../part-00007.jsonl`` gives
``URL/part-00007.jsonl``, one line per item in the CLI's shape (``{"line":N,"verdict":{...}}`` or
``{"error":{code,message},"line":N}``, canonical JSON, N the line in the partition);
``--failures-only`` keeps the items that are not accepted, each verdict with its failing checks
alone (as ``ekl receipt verify-archive --failures-only``). The driver never gathers verdicts: it
streams the partitions' summaries as they complete (``distributed.as_completed``, at most
``--in-flight`` tasks submitted at once), prints one JSON line per partition on stdout (counts,
output URL), a progress bar on stderr when it is a terminal, the totals on stderr, and exits 1
when any item was not accepted (2 when a partition could not be read or written).

Without ``--out`` the verdicts go to stdout in partition order, each line with a ``partition``
member: for small archives (the driver then receives every partition's output, one at a time).

Without ``--scheduler`` a local cluster of ``--workers`` processes is started. The key ring (MAC
receipts) and the JWKS are read on the driver and sent to the workers with the tasks: on a real
cluster, use TLS between the client, the scheduler and the workers (README: "Secrets").
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:  # the package is imported where it runs (on the workers), for the types only here
    import ekl_evidence

#: The most bytes a line may hold (the core's ``limits::MAX_INPUT_BYTES``, as the CLI).
MAX_LINE_BYTES = 64 * 1024 * 1024
#: Bytes read and verified per ``verify_receipt_lines`` call on a worker (a block ends at the
#: last line end within it): a worker holds about this much input and its output at a time.
BLOCK_BYTES = 4 << 20

_q = json.encoder.encode_basestring  # a JSON string, as RFC 8785
_ROW = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def _blocks(f: Any, block_bytes: int = BLOCK_BYTES) -> Iterator[Tuple[int, Union[bytes, int]]]:
    """The lines of a binary stream in blocks of whole lines (no trailing ``\\n``): ``(number of
    the block's first line, block)``, or ``(number, length)`` for a line over
    :data:`MAX_LINE_BYTES` (skipped without being held)."""
    carry = b""
    number = 1
    skipping: Optional[int] = None  # the length so far of a line over the limit
    while True:
        chunk = f.read(block_bytes)
        if not chunk:
            if skipping is not None:
                yield number, skipping
            elif carry:
                yield number, carry
            return
        if skipping is not None:
            end = chunk.find(b"\n")
            if end < 0:
                skipping += len(chunk)
                continue
            yield number, skipping + end
            number += 1
            skipping = None
            chunk = chunk[end + 1 :]
        buf = carry + chunk if carry else chunk
        cut = buf.rfind(b"\n")
        if cut < 0:
            carry = b""
            if len(buf) > MAX_LINE_BYTES:
                skipping = len(buf)
            else:
                carry = buf
            continue
        block, carry = buf[:cut], buf[cut + 1 :]
        if len(carry) > MAX_LINE_BYTES:
            skipping, carry = len(carry), b""
        yield number, block
        number += block.count(b"\n") + 1


class _Writer:
    """Formats results as the CLI's output lines (canonical JSON, written member by member:
    no wire dict is built per verdict) and counts them."""

    def __init__(self, failures_only: bool, partition: Optional[str]) -> None:
        self.failures_only = failures_only
        # stdout mode: a "partition" member (sorted between "line" and "verdict").
        self.tag = "" if partition is None else '"partition":' + _q(partition)
        self.accepted = self.not_accepted = self.refused = 0

    @staticmethod
    def _check(c: ekl_evidence.Check) -> str:
        """A check as canonical JSON (members in sorted order; ``outcome`` is one of three
        plain words)."""
        s = "{"
        if c.detail is not None:
            s += '"detail":' + _q(c.detail) + ","
        if c.expected is not None:
            s += '"expected":' + _q(c.expected) + ","
        s += '"name":' + _q(c.name) + ',"outcome":"' + c.outcome + '"'
        if c.received is not None:
            s += ',"received":' + _q(c.received)
        return s + "}"

    def verdict(self, n: int, v: Any) -> Optional[str]:
        if v.accepted:
            self.accepted += 1
            if self.failures_only:
                return None
            checks = v.checks
        else:
            self.not_accepted += 1
            checks = [c for c in v.checks if c.outcome != "pass"] if self.failures_only else v.checks
        tag = self.tag + "," if self.tag else ""
        digest = "null" if v.receipt_digest is None else _q(v.receipt_digest)
        return '{"line":%d,%s"verdict":{"accepted":%s,"checks":[%s],"receipt_digest":%s}}\n' % (
            n, tag, "true" if v.accepted else "false", ",".join(map(self._check, checks)), digest,
        )

    def error(self, n: int, code: str, message: str) -> str:
        self.refused += 1
        tag = "," + self.tag if self.tag else ""
        return '{"error":{"code":%s,"message":%s},"line":%d%s}\n' % (_q(code), _q(message), n, tag)

    def block(self, number: int, block: bytes, kw: Dict[str, Any]) -> List[Optional[str]]:
        """The output lines of a block of whole lines whose first is line ``number``."""
        import ekl_evidence as ekl

        if len(block) > MAX_LINE_BYTES:  # a long line in it: one call a line (rare)
            out: List[Optional[str]] = []
            for i, line in enumerate(block.split(b"\n")):
                if len(line) > MAX_LINE_BYTES:
                    out.append(self.too_long(number + i, len(line)))
                elif line.strip(b" \t\r"):
                    out.extend(self.block(number + i, line, kw))
            return out
        if not self.tag:
            # Writing to a URL: the core writes the CLI's lines itself (``verify_archive``), so
            # no verdict becomes a Python object.
            r = ekl.verify_archive(block, failures_only=self.failures_only, first_line=number, **kw)
            self.accepted += r["accepted"]
            self.not_accepted += r["not_accepted"]
            self.refused += r["refused"]
            return [r["output"]]
        if self.failures_only:
            return self._failures(number, block, kw)
        parts = block.split(b"\n")
        numbers = [number + i for i, line in enumerate(parts) if line.strip(b" \t\r")]
        results = ekl.verify_receipt_lines(block, **kw)
        verdict, error, EklError = self.verdict, self.error, ekl.EklError
        return [
            error(n, r.code, r.message) if isinstance(r, EklError) else verdict(n, r)
            for n, r in zip(numbers, results)
        ]

    def _failures(self, number: int, block: bytes, kw: Dict[str, Any]) -> List[Optional[str]]:
        """Failures only: the block in brief (``summarize_receipt_lines``: a small row per item,
        no check of an accepted item reaches Python), then the items not accepted verified
        again for their full failing checks (the CLI's shape)."""
        import ekl_evidence as ekl

        out: List[Any] = []
        again: List[int] = []  # indexes in out of the items not accepted (their line numbers)
        for r in ekl.summarize_receipt_lines(block, **kw):
            err = r["error"]
            if err is not None:
                out.append(self.error(number + r["line"] - 1, err["code"], err["message"]))
            elif r["accepted"]:
                self.accepted += 1
            else:
                again.append(len(out))
                out.append(number + r["line"] - 1)
        if again:
            parts = block.split(b"\n")
            texts = b"\n".join(parts[out[i] - number] for i in again)
            for i, v in zip(again, ekl.verify_receipt_lines(texts, **kw)):
                n = out[i]
                out[i] = self.error(n, v.code, v.message) if isinstance(v, ekl.EklError) else self.verdict(n, v)
        return out

    def too_long(self, n: int, length: int) -> str:
        return self.error(
            n, "BODY_TOO_LARGE",
            f"the item is {length} bytes, over the limit of {MAX_LINE_BYTES} bytes a line",
        )


def verify_partition(
    url: str,
    out: Optional[str],
    jwks: Optional[str],
    keys: Optional[str],
    own_agent_id: Optional[str],
    network_issuer: Optional[str],
    jobs: Optional[int] = 1,
    failures_only: bool = False,
    storage_options: Optional[Dict[str, Any]] = None,
    block_bytes: int = BLOCK_BYTES,
) -> Dict[str, Any]:
    """Verifies one partition and writes its output lines to ``out`` (a URL), or returns them
    as ``"text"`` (bytes) when ``out`` is None (each line then names the partition). Runs on a
    worker; returns the partition's summary (plain values: it crosses the network):
    ``{"partition", "output", "items", "accepted", "not_accepted", "refused", "bytes_in",
    "bytes_out", "seconds"}``."""
    import fsspec
    import ekl_evidence as ekl

    t0 = time.perf_counter()
    options = storage_options or {}
    kw = dict(
        keys=None if keys is None else ekl.JsonText(keys),
        jwks=None if jwks is None else ekl.JsonText(jwks),
        own_agent_id=own_agent_id,
        network_issuer=network_issuer,
        jobs=jobs,
    )
    w = _Writer(failures_only, url if out is None else None)
    bytes_in = bytes_out = 0
    sink = io.BytesIO() if out is None else None
    with contextlib.ExitStack() as stack:
        src = stack.enter_context(fsspec.open(url, "rb", **options))
        dst = sink if sink is not None else stack.enter_context(fsspec.open(out, "wb", **options))
        for number, block in _blocks(src, block_bytes):
            if isinstance(block, int):
                lines: List[Optional[str]] = [w.too_long(number, block)]
                bytes_in += block + 1
            else:
                lines = w.block(number, block, kw)
                bytes_in += len(block) + 1
            data = "".join(filter(None, lines)).encode()
            dst.write(data)
            bytes_out += len(data)
    summary: Dict[str, Any] = {
        "partition": url,
        "output": out,
        "items": w.accepted + w.not_accepted + w.refused,
        "accepted": w.accepted,
        "not_accepted": w.not_accepted,
        "refused": w.refused,
        "bytes_in": bytes_in,
        "bytes_out": bytes_out,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    if sink is not None:
        summary["text"] = sink.getvalue()
    return summary


def expand(partitions: Sequence[str], storage_options: Optional[Dict[str, Any]] = None) -> List[str]:
    """The partitions' URLs: each argument as given, or a glob (``*``, ``?``, ``[``) expanded
    (sorted) with fsspec; a glob matching nothing is an error."""
    from fsspec.core import url_to_fs

    out: List[str] = []
    for arg in partitions:
        if not any(ch in arg for ch in "*?["):
            out.append(arg)
            continue
        fs, path = url_to_fs(arg, **(storage_options or {}))
        found = sorted(fs.glob(path))
        if not found:
            raise SystemExit(f"verify_archive: no partition matches {arg}")
        out.extend(fs.unstrip_protocol(p) if "://" in arg else p for p in found)
    return out


def output_urls(partitions: Sequence[str], out: str) -> List[str]:
    """Where each partition's output goes: ``out``/its file name (names must differ)."""
    names = [p.rstrip("/").rsplit("/", 1)[-1] for p in partitions]
    if len(set(names)) != len(names):
        raise SystemExit("verify_archive: two partitions have the same file name (outputs would clash)")
    return [out.rstrip("/") + "/" + n for n in names]


def verify_archive(
    client: Any,
    partitions: Sequence[str],
    out: Optional[str],
    jwks: Optional[str] = None,
    keys: Optional[str] = None,
    own_agent_id: Optional[str] = None,
    network_issuer: Optional[str] = None,
    jobs: Optional[int] = 1,
    failures_only: bool = False,
    storage_options: Optional[Dict[str, Any]] = None,
    in_flight: int = 64,
) -> Iterator[Dict[str, Any]]:
    """Each partition's summary (see :func:`verify_partition`) as its task completes, in
    completion order; a partition that failed gives ``{"partition", "error"}``. The workers write
    the outputs under ``out`` (required: this path never gathers verdicts); at most
    ``in_flight`` tasks are submitted at a time, and each result is released once yielded."""
    from distributed import as_completed

    if out is None:
        raise ValueError("verify_archive writes to an output URL (see verify_archive_to)")
    _ship_by_value()
    todo = list(zip(partitions, output_urls(partitions, out)))
    todo.reverse()
    args = (jwks, keys, own_agent_id, network_issuer, jobs, failures_only, storage_options)
    names: Dict[str, str] = {}  # a running task's key: its partition

    def submit() -> Any:
        url, dst = todo.pop()
        f = client.submit(verify_partition, url, dst, *args, pure=False)
        names[f.key] = url
        return f

    running = as_completed([submit() for _ in range(min(max(1, in_flight), len(todo)))])
    for f in running:
        if todo:
            running.add(submit())
        url = names.pop(f.key)
        try:
            summary = f.result()
        except Exception as e:  # the partition could not be read or written
            summary = {"partition": url, "error": f"{type(e).__name__}: {e}"}
        f.release()
        yield summary


def verify_archive_to(
    client: Any,
    partitions: Sequence[str],
    sink: Any,
    *args: Any,
    in_flight: int = 64,
) -> Iterator[Dict[str, Any]]:
    """For small archives: every partition's output lines (bytes, each with a ``partition``
    member) written to ``sink`` in partition order; yields the summaries (without the text) in
    that order. The driver receives each partition's output, one at a time (at most
    ``in_flight`` tasks submitted ahead). ``args``: those of :func:`verify_partition` after
    ``out``."""
    from collections import deque

    _ship_by_value()
    todo = deque(partitions)
    ahead: Any = deque()

    def submit() -> None:
        url = todo.popleft()
        ahead.append((url, client.submit(verify_partition, url, None, *args, pure=False)))

    for _ in range(min(max(1, in_flight), len(todo))):
        submit()
    while ahead:
        url, f = ahead.popleft()
        if todo:
            submit()
        try:
            s = f.result()
        except Exception as e:
            s = {"partition": url, "error": f"{type(e).__name__}: {e}"}
        f.release()
        if "text" in s:
            sink.write(s.pop("text"))
        yield s


def _ship_by_value() -> None:
    """Workers need ekl_evidence, not this file: its functions travel with the tasks."""
    if __name__ != "__main__":
        import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])


class _Progress:
    """A progress bar on stderr (on a terminal only): partitions, items, rate, time left."""

    def __init__(self, total: int, on: bool) -> None:
        self.total, self.on, self.done, self.items = total, on, 0, 0
        self.start = time.perf_counter()

    def tick(self, items: int) -> None:
        self.done += 1
        self.items += items
        if not self.on:
            return
        secs = max(time.perf_counter() - self.start, 1e-3)
        f = self.done / max(self.total, 1)
        left = secs / f - secs if f else 0.0
        bar = "#" * round(f * 30) + "-" * (30 - round(f * 30))
        sys.stderr.write(
            f"\r\x1b[Kverify_archive: [{bar}] {self.done}/{self.total} partitions, "
            f"{self.items} items, {self.items / secs:.0f}/s, {left:.0f} s left"
        )
        sys.stderr.flush()

    def clear(self) -> None:
        if self.on:
            sys.stderr.write("\r\x1b[K")


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("partitions", nargs="+", help="the partitions: paths or URLs, globs allowed")
    p.add_argument("--out", help="the folder or URL prefix of the outputs (default: stdout)")
    p.add_argument("--failures-only", action="store_true",
                   help="only the items not accepted, each with its failing checks alone")
    p.add_argument("--scheduler", help="the scheduler's address (default: a local cluster)")
    p.add_argument("--workers", type=int, default=2, help="local cluster: worker processes (2)")
    p.add_argument("--threads", type=int, default=1, help="local cluster: threads a worker (1)")
    p.add_argument("--jobs", type=int, default=1,
                   help="threads a task verifies on (1; 0: every core of the worker)")
    p.add_argument("--in-flight", type=int, default=64, help="tasks submitted at once (64)")
    p.add_argument("--jwks", help="the network's JWKS file or URL (network-signed receipts)")
    p.add_argument("--key-ring", help="the key ring file or URL (MAC receipts)")
    p.add_argument("--agent-id", help="your agent id (when an item's call has none)")
    p.add_argument("--issuer", help="the network's issuer (when an item's call has none)")
    p.add_argument("--storage-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an fsspec storage option (e.g. endpoint_url=http://127.0.0.1:9000)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar, even on a terminal")
    a = p.parse_args(argv)

    import fsspec
    from distributed import Client, LocalCluster

    from make_archive import storage_options as parse_options

    options = parse_options(a.storage_option)

    def read(url: Optional[str]) -> Optional[str]:
        if url is None:
            return None
        with fsspec.open(url, "r", encoding="utf-8", **options) as f:
            text: str = f.read()
            return text

    partitions = expand(a.partitions, options)
    args = (read(a.jwks), read(a.key_ring), a.agent_id, a.issuer, a.jobs or None,
            a.failures_only, options or None)
    t0 = time.perf_counter()
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=a.threads, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    progress = _Progress(len(partitions), not a.no_progress and sys.stderr.isatty())
    totals = dict(items=0, accepted=0, not_accepted=0, refused=0, bytes_out=0)
    failed = 0
    try:
        if a.out is None:
            out = sys.stdout.buffer
            summaries = verify_archive_to(client, partitions, out, *args, in_flight=a.in_flight)
        else:
            summaries = verify_archive(client, partitions, a.out, *args, in_flight=a.in_flight)
        t1 = time.perf_counter()
        for s in summaries:
            if "error" in s:
                failed += 1
                progress.clear()
                print(json.dumps(s, sort_keys=True), file=sys.stderr)
                progress.tick(0)
                continue
            for k in totals:
                totals[k] += s[k]
            if a.out is not None:
                progress.clear()
                print(json.dumps(s, sort_keys=True), flush=True)
            progress.tick(s["items"])
        sys.stdout.flush()
        verified = time.perf_counter() - t1
    finally:
        progress.clear()
        client.close()
        if cluster is not None:
            cluster.close()
    t = totals
    print(
        f"verify_archive: {t['items']} items: {t['accepted']} accepted, {t['not_accepted']} not "
        f"accepted, {t['refused']} refused; {len(partitions)} partitions ({failed} failed), "
        f"{t['bytes_out']} bytes out; {time.perf_counter() - t0:.2f} s ({verified:.2f} s from the "
        f"first task to the last summary); "
        f"driver peak RSS {_peak_rss_mb():.0f} MB",
        file=sys.stderr,
    )
    if failed:
        return 2
    return 1 if t["not_accepted"] or t["refused"] else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
