# mypy: disable-error-code="import-not-found"
"""MCP evidence as it crossed the wire, with the official MCP Python SDK (PyPI ``mcp``).

Install with the extra: ``pip install "ekl-evidence[mcp]"``. PROTOCOL §5.1 fingerprints the tools a
server lists (``tools/list``) and §15.3 a tool result; the SDK hands back pydantic models, whose
fields are not the wire's members (``structured_content``, defaults added, unknown members
dropped). This module connects the SDK's own client (``mcp.Client``) through its own transports and
hands every JSON-RPC message, as its bytes crossed the wire, to the core's MCP machine
(``mcp_window``, ``mcp_listing_page``; docs/decisions/mcp.md), which judges it as the official SDKs
do and keeps only the answer the SDK was handed:

* stdio: the server command runs behind a small relay (``_mcp_relay.py``, standard library only)
  that sends each line to this module before passing it on; the SDK's ``stdio_client`` is
  unchanged;
* Streamable HTTP: the SDK's ``streamable_http_client`` with an ``httpx2.AsyncClient`` whose
  transport hands over each request body and each response (a JSON body, or each event of an SSE
  stream) before the SDK reads it.

A decoy next to the answer (``"jsonrpc": "1.0"``, a batch, the id as a string or as ``2.0``, a
second answer) is refused with its code (``EklError``: ``MCP_INVALID_MESSAGE``,
``MCP_AMBIGUOUS_ANSWER``), as is a message the core's reader refuses (``INVALID_UTF8``,
``DUPLICATE_KEY``, ...), at once: the SDK's call is cancelled. Notifications and the server's own
requests are routed and dropped, never kept.

The SDK's reading decides (docs/decisions/mcp.md#mcp-sdk-reading): the taps read what the SDK
reads (a body after the ``Content-Encoding`` decoding of the SDK's HTTP client, ``httpx2``; a
stream's byte-order mark kept, as its SSE parser keeps it; an event stream of a request read up to
its first answer, which must carry that request's id), a ``charset`` other than UTF-8 is refused
(``MCP_UNSUPPORTED_ENCODING``), and once the SDK returns, the answer recorded is read by the SDK's
own types (``jsonrpc_message_adapter``, ``ListToolsResult``, ``CallToolResult``) and compared with
what the SDK returned: any difference is ``MCP_AMBIGUOUS_ANSWER``, never evidence. Every refusal
fails the session: later calls raise it again. ``timeout`` (:data:`DEFAULT_TIMEOUT` seconds)
bounds the handshake (the SDK's ``read_timeout_seconds``) and each call (``MCP_TIMEOUT``).

    from mcp import StdioServerParameters
    from ekl_evidence import mcp as ekl_mcp

    async with ekl_mcp.connect(StdioServerParameters(command="python", args=["server.py"])) as s:
        tools = await s.list_tools()                     # every page, following nextCursor
        fp = tools.upstream_fingerprint(offered=["search_listings"])
        call = await s.call_tool("search_listings", {"area_ref": "loc:ca:dublin"})
        out = call.output_fingerprint(salt)

``connect("http://127.0.0.1:8000/mcp")`` speaks Streamable HTTP. ``s.client`` is the SDK's
``mcp.Client`` for everything else; ``s.wire`` the request and the answer of each call recorded.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import math
import os
import re
import socket
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Optional, TypeVar, Union

try:
    import anyio
    import httpx2
    from mcp import Client, MCPError, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import REQUEST_TIMEOUT, CallToolResult, JSONRPCResponse, ListToolsResult, jsonrpc_message_adapter
    from pydantic import BaseModel, ValidationError
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "ekl_evidence.mcp needs the official MCP SDK: pip install \"ekl-evidence[mcp]\" "
        f"(PyPI mcp 2.3 or later 2.x): {e}"
    ) from e

from . import EklError, mcp_listing_page, mcp_window, output_fingerprint, upstream_fingerprint

__all__ = ["WireMessage", "ToolsListing", "ToolCall", "Session", "connect", "MAX_PAGES", "MAX_MESSAGE_BYTES", "DEFAULT_TIMEOUT"]

RELAY = str(Path(__file__).with_name("_mcp_relay.py"))

#: The most tools/list pages followed (the core's bound, ``ekl_core::mcp::MAX_PAGES``).
MAX_PAGES = 1000
#: The most bytes of one message (the core's bound on an input).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: How long the answer the SDK was handed may take to reach the router (it is sent first).
_SETTLE_SECONDS = 10.0
#: The default ``timeout`` of :func:`connect`, in seconds: the handshake, and each call (one
#: ``tools/call``, one page of ``tools/list``); ``None`` waits as long as the SDK does.
DEFAULT_TIMEOUT = 60.0
#: The members of a result a fingerprint covers (§5.1 the tools, §15.3 the content): the SDK
#: must have delivered each of them as recorded.
_FINGERPRINTED = frozenset({"tools", "nextCursor", "content", "structuredContent", "isError"})


def _ambiguous(what: str) -> EklError:
    return EklError("MCP_AMBIGUOUS_ANSWER", what)


def _timeout_error(what: str, timeout: Optional[float]) -> EklError:
    return EklError("MCP_TIMEOUT", f"{what} did not finish within {timeout} s (the session's timeout)")


def _unwrap(e: BaseException) -> BaseException:
    """A task group's exception group of one, unwrapped."""
    while len(getattr(e, "exceptions", ())) == 1:
        e = e.exceptions[0]  # type: ignore[attr-defined]
    return e


def _timed_out(e: BaseException) -> bool:
    """The SDK's own request timeout (``read_timeout_seconds``, which :func:`connect` sets)."""
    return isinstance(e, MCPError) and e.error.code == REQUEST_TIMEOUT


def _delivered(kind: type[BaseModel], text: str, value: Any) -> bool:
    """Whether the answer recorded (``text``), read by the SDK's own types (its JSON-RPC message
    adapter, then ``kind``, as its session reads a result), is what the SDK returned (``value``):
    every member the SDK delivered equal as JSON (``true`` is not ``1``), and no member a
    fingerprint covers recorded without being delivered (the SDK drops a later revision's
    members, e.g. ``ttlMs``, before reading a result)."""
    try:
        message = jsonrpc_message_adapter.validate_json(text, by_name=False)
        if not isinstance(message, JSONRPCResponse) or not isinstance(value, kind):
            return False
        recorded = kind.model_validate(message.result, by_name=False).model_dump(mode="json", by_alias=True, exclude_unset=True)
    except ValidationError:
        return False
    given = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    for key in set(recorded) - set(given):
        if key in _FINGERPRINTED:
            return False
        del recorded[key]
    return json.dumps(recorded, sort_keys=True) == json.dumps(given, sort_keys=True)


class _Stream:
    """One event stream the SDK reads for one request (a POST's, or a resumed GET's): the
    SDK takes the first answer on it as that request's answer, whatever its id (mcp 2.3 rewrites
    the id), and stops reading. ``window``: the core's window of the POST's request (``None``: a
    resumed GET, whose request only the SDK knows: then the answer must be the call's own)."""

    def __init__(self, window: Optional[Mapping[str, Any]]) -> None:
        self.window = window
        self.done = False

    def check(self, raw: bytes, seen: str) -> None:
        """An answer on this stream (``seen``: what the call's window made of it)."""
        self.done = True
        if self.window is not None:
            seen = mcp_window(self.window, "received", message=raw)["seen"]
            ok = seen in ("answer", "error")
        else:
            ok = seen in ("answer", "error")
        if not ok:
            raise _ambiguous(
                "an answer on the event stream of a request whose id is not that request's "
                "(the Python SDK takes it as the answer, the TypeScript SDK does not)"
            )

T = TypeVar("T")


@dataclass(frozen=True)
class WireMessage:
    """One JSON-RPC message as it crossed the wire: its text exactly as sent."""

    direction: Literal["sent", "received"]
    text: str


class _Router:
    """Hands each message to the core's machine as it crosses (from the relay's thread over stdio,
    from the HTTP transport's stream): the window of the call under way, or an idle one between
    calls (a message the core refuses then fails the next call). Keeps the window's state, the
    first refusal, and the request and answer of the call: never another message."""

    IDLE: Mapping[str, Any] = {"method": "", "match": {}}

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._window: Optional[Mapping[str, Any]] = None
        self._failure: Optional[Exception] = None
        self._request: Optional[str] = None
        self._answer: Optional[tuple[str, dict[str, Any], int]] = None
        self.answered = threading.Event()
        self.kept: list[WireMessage] = []

    def open(self, method: str, match: Mapping[str, Any]) -> None:
        with self._lock:
            self._window = {"method": method, "match": dict(match)}
            self._request = None
            self._answer = None
            self.answered.clear()

    def fail(self, e: Exception) -> None:
        with self._lock:
            if self._failure is None:
                self._failure = e
            self.answered.set()

    def failure(self) -> Optional[Exception]:
        return self._failure

    def feed(self, direction: Literal["sent", "received"], raw: bytes, stream: Optional[_Stream] = None) -> None:
        with self._lock:
            if self._failure is not None or (stream is not None and stream.done):
                return  # the SDK reads no further on a request's stream than its first answer
            window = self._window if self._window is not None else self.IDLE
            try:
                step = mcp_window(window, direction, message=raw)
                if stream is not None and step["seen"] in ("answer", "error", "other"):
                    stream.check(raw, step["seen"])
            except EklError as e:
                self._failure = e
                self.answered.set()
                return
            if self._window is None:
                return
            self._window = step["window"]
            if step["seen"] == "call":
                self._request = raw.decode("utf-8")
            elif step["seen"] == "answer":
                self._answer = (raw.decode("utf-8"), step["result"], step["bytes"])
                self.answered.set()

    def close_quietly(self) -> None:
        """Ends the call's window without its answer (the SDK's call failed on its own)."""
        with self._lock:
            self._window = None

    def close(self, delivered: Callable[[str], bool]) -> tuple[str, dict[str, Any], int]:
        """Ends the call's window: its answer, kept when ``delivered`` says the SDK handed it to
        the caller (``MCP_AMBIGUOUS_ANSWER`` otherwise; ``MCP_NO_ANSWER`` when none was seen).
        A refusal fails the session."""
        with self._lock:
            window, self._window = self._window, None
            if self._failure is None:
                try:
                    assert window is not None
                    mcp_window(window, "end")
                    assert self._answer is not None and self._request is not None
                    if not delivered(self._answer[0]):
                        raise _ambiguous("the recorded answer is not the one the SDK delivered")
                except EklError as e:
                    self._failure = e
            if self._failure is not None:
                raise self._failure
            assert self._answer is not None and self._request is not None
            self.kept += [WireMessage("sent", self._request), WireMessage("received", self._answer[0])]
            return self._answer


@dataclass(frozen=True)
class ToolsListing:
    """Every page of one ``tools/list`` as it crossed the wire."""

    texts: list[str]
    """The raw text of each page's JSON-RPC response, in order."""
    results: list[dict[str, Any]]
    """Each page's ``result``, read by the core's reader."""
    sdk: list[ListToolsResult]
    """The SDK's parsed pages (for display; not what is fingerprinted)."""

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The tools of every page, as the server sent them."""
        return [t for r in self.results for t in r.get("tools", [])]

    def upstream_fingerprint(self, offered: Optional[Sequence[str]] = None) -> str:
        """PROTOCOL §5.1 over the tools of every page: a name listed on two pages is refused
        (``INVALID_SHAPE``) when offered, as within one page. ``offered``: an iterable of
        ``str`` (one ``str`` is a ``TypeError``, as in :func:`ekl_evidence.upstream_fingerprint`)."""
        if isinstance(offered, (str, bytes)):
            raise TypeError("offered must be an iterable of str (not a str)")
        offered = list(offered) if offered is not None else None
        return upstream_fingerprint({"tools": self.tools}, offered=offered)


@dataclass(frozen=True)
class ToolCall:
    """One ``tools/call`` as it crossed the wire."""

    text: str
    """The raw text of the JSON-RPC response."""
    wire_result: dict[str, Any]
    """Its ``result``, read by the core's reader: what the output fingerprint covers."""
    result: CallToolResult
    """The SDK's parsed result (for the agent's own use; not what is fingerprinted)."""

    def output_fingerprint(self, salt: str) -> str:
        """PROTOCOL §15.3: SHA-256(salt ‖ JCS(structuredContent, else content)) of the wire result."""
        return output_fingerprint(salt, self.wire_result)


@dataclass
class Session:
    """An SDK client whose messages are judged by the core as they cross the wire."""

    client: Client
    """The official SDK's client, connected."""
    _router: _Router = field(repr=False)
    _timeout: Optional[float] = field(default=DEFAULT_TIMEOUT, repr=False)
    _turn: anyio.Lock = field(default_factory=anyio.Lock, repr=False)

    @property
    def wire(self) -> list[WireMessage]:
        """The request and the answer of each call recorded so far, in order (notifications and
        the server's own requests are routed and dropped, not kept)."""
        return list(self._router.kept)

    async def _call(
        self, method: str, match: Mapping[str, Any], kind: type[BaseModel], sdk_call: Callable[[], Awaitable[T]]
    ) -> tuple[T, tuple[str, dict[str, Any], int]]:
        """Runs the SDK's call in a window of its own, within the session's ``timeout``
        (``MCP_TIMEOUT``); a refusal of the core cancels it at once. Its answer is evidence only
        when the SDK's own types read it as what the SDK returned (``kind``)."""
        router = self._router
        async with self._turn:
            failed = router.failure()
            if failed is not None:
                raise failed
            router.open(method, match)
            box: list[T] = []
            with anyio.move_on_after(self._timeout) as deadline:
                try:
                    async with anyio.create_task_group() as tg:

                        async def run() -> None:
                            box.append(await sdk_call())
                            tg.cancel_scope.cancel()

                        tg.start_soon(run)
                        while router.failure() is None:
                            await anyio.sleep(0.005)
                        tg.cancel_scope.cancel()
                except Exception as e:
                    if router.failure() is None:
                        inner = _unwrap(e)
                        if not _timed_out(inner):
                            router.close_quietly()
                            raise inner from None
                        router.fail(_timeout_error(method, self._timeout))
            if deadline.cancelled_caught and not box:
                router.fail(_timeout_error(method, self._timeout))
            if router.failure() is None:
                # The answer is handed over before the SDK reads it: it is on its way.
                with anyio.move_on_after(_SETTLE_SECONDS):
                    while not router.answered.is_set():
                        await anyio.sleep(0.002)
            answer = router.close(lambda text: _delivered(kind, text, box[0]))
            return box[0], answer

    async def list_tools(self) -> ToolsListing:
        """``tools/list``, every page: the next page is asked with the ``nextCursor`` of the page
        as it crossed the wire, until a page has none (a cursor repeated, more than
        :data:`MAX_PAGES` pages: ``MCP_BAD_CURSOR``)."""
        texts: list[str] = []
        results: list[dict[str, Any]] = []
        sdk: list[ListToolsResult] = []
        step = mcp_listing_page()
        while step["window"] is not None:
            page, (text, result, size) = await self._call(
                "tools/list", step["window"]["match"], ListToolsResult, self._page(step["next"])
            )
            texts.append(text)
            results.append(result)
            sdk.append(page)
            try:
                step = mcp_listing_page(listing=step["listing"], result=result, bytes=size)
            except EklError as e:  # a refusal fails the session (docs/decisions/mcp.md M2)
                self._router.fail(e)
                raise
        return ToolsListing(texts, results, sdk)

    def _page(self, cursor: Optional[str]) -> Callable[[], Awaitable[ListToolsResult]]:
        """The SDK's call for the page of ``cursor``."""
        return lambda: self.client.list_tools(cursor=cursor, cache_mode="refresh")

    async def upstream_fingerprint(self, offered: Optional[Sequence[str]] = None) -> str:
        """The upstream fingerprint (§5.1) of every page of ``tools/list``, asked now."""
        return (await self.list_tools()).upstream_fingerprint(offered)

    async def call_tool(self, name: str, arguments: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> ToolCall:
        """``tools/call`` through the SDK (``kwargs`` are the SDK's), with the response as it
        crossed the wire (the last ``tools/call`` of this tool the SDK sent for it: the SDK may
        resend)."""
        args = dict(arguments) if arguments is not None else None
        result, (text, wire_result, _) = await self._call(
            "tools/call", {"name": name}, CallToolResult, lambda: self.client.call_tool(name, args, **kwargs)
        )
        return ToolCall(text, wire_result, result)


_LINE_END = re.compile(r"[\r\n]")


class _SseTap:
    """An SSE parser fed the bytes the SDK is about to read (after its HTTP client's content
    decoding), read as the SDK's parser (``httpx2``'s) reads them: lines end with CRLF, LF or
    CR; a byte-order mark is kept (the first line's field is then unknown to it, so to this tap);
    each ``message`` event with data is one JSON-RPC message (empty data, a priming event, is
    skipped), handed to the router. A line or an event beyond :data:`MAX_MESSAGE_BYTES` fails
    the call (``BODY_TOO_LARGE``)."""

    def __init__(self, router: _Router, stream: Optional[_Stream]) -> None:
        self._router = router
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._parts: list[str] = []
        self._pending = 0
        self._after_cr = False
        self._data: list[str] = []
        self._size = 0
        self._event = ""

    def feed(self, chunk: bytes, final: bool = False) -> None:
        try:
            text = self._decoder.decode(chunk, final)
        except UnicodeDecodeError:
            self._router.fail(EklError("INVALID_UTF8", "an event stream of the server is not UTF-8"))
            return
        if self._after_cr and text.startswith("\n"):
            text = text[1:]  # a \r\n split across chunks
        self._after_cr = False
        # each chunk's text is scanned once; the line not yet ended is kept as its pieces
        start = 0
        for m in _LINE_END.finditer(text):
            i = m.start()
            if i < start:
                continue  # the \n of a \r\n
            self._line("".join(self._parts) + text[start:i])
            self._parts, self._pending = [], 0
            start = i + 1
            if text[i] == "\r":
                if i + 1 == len(text):
                    self._after_cr = True
                elif text[i + 1] == "\n":
                    start = i + 2
        if start < len(text):
            self._parts.append(text[start:])
            self._pending += len(text) - start
        if self._pending + self._size > MAX_MESSAGE_BYTES:
            self._router.fail(EklError("BODY_TOO_LARGE", f"an event of the server holds more than {MAX_MESSAGE_BYTES} bytes"))
            self._parts, self._pending, self._data, self._size = [], 0, [], 0

    def _line(self, line: str) -> None:
        if line == "":
            data = "\n".join(self._data)
            if data and self._event in ("", "message"):
                self._router.feed("received", data.encode("utf-8"), self._stream)
            self._data, self._event, self._size = [], "", 0
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
            self._size += len(value) + 1
        elif name == "event":
            self._event = value


class _TapStream(httpx2.AsyncByteStream):
    """A response's body as the SDK reads it: ``decoded`` is the response as it came, read
    through ``httpx2``'s own ``aiter_bytes`` (its ``Content-Encoding`` decoders: the bytes the
    SDK's client would hand it), each chunk handed to the router before the SDK sees it."""

    def __init__(self, decoded: httpx2.Response, router: _Router, sse: bool, stream: Optional[_Stream], refusal: Optional[EklError]) -> None:
        self._decoded = decoded
        self._router = router
        self._sse = _SseTap(router, stream) if sse else None
        self._body = bytearray()
        self._refusal = refusal

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._refusal is not None:
            self._router.fail(self._refusal)
            raise self._refusal
        async for chunk in self._decoded.aiter_bytes():
            # handed to the router before the SDK sees the bytes
            if self._sse is not None:
                self._sse.feed(chunk)
            elif len(self._body) + len(chunk) > MAX_MESSAGE_BYTES:
                self._router.fail(EklError("BODY_TOO_LARGE", f"a body of the server holds more than {MAX_MESSAGE_BYTES} bytes"))
            else:
                self._body += chunk
            failed = self._router.failure()
            if failed is not None:
                raise failed  # a refusal ends the stream: the SDK never reads (nor holds) past it
            yield chunk
        if self._sse is not None:
            self._sse.feed(b"", final=True)
        elif bytes(self._body).strip():
            self._router.feed("received", bytes(self._body))

    async def aclose(self) -> None:
        await self._decoded.aclose()


def _charset_refusal(content_type: str) -> Optional[EklError]:
    """A response whose ``charset`` is not UTF-8 (the Python SDK decodes an event stream with it,
    the TypeScript SDK as UTF-8): refused."""
    for param in content_type.split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
            return EklError("MCP_UNSUPPORTED_ENCODING", "a response of the server in a charset other than UTF-8 (the SDKs decode it differently)")
    return None


def _request_stream(request: httpx2.Request, body: bytes) -> Optional[_Stream]:
    """The stream state of a response the SDK reads as one request's (a POST of a request, a GET
    that resumes one with ``Last-Event-ID``); ``None`` for any other."""
    if request.method == "GET":
        return _Stream(None) if "last-event-id" in request.headers else None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return None
    try:
        window = mcp_window({"method": message["method"], "match": {}}, "sent", message=body)["window"]
    except EklError:
        return None
    return _Stream(window)


class _TapTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport that hands each request body and each response's messages to the router."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, router: _Router) -> None:
        self._inner = inner
        self._router = router

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = b""
        if request.method == "POST":
            body = await request.aread()
            if body.strip():
                self._router.feed("sent", body)
        response = await self._inner.handle_async_request(request)
        content_type = response.headers.get("content-type", "")
        kind = content_type.split(";")[0].strip().lower()
        if kind not in ("application/json", "text/event-stream"):
            return response
        sse = kind == "text/event-stream"
        # the body decoded as the SDK's client decodes it; the SDK then reads it as it is
        decoded = httpx2.Response(status_code=response.status_code, headers=response.headers, stream=response.stream, request=request)
        headers = [(k, v) for k, v in response.headers.raw if k.lower() not in (b"content-encoding", b"content-length")]
        return httpx2.Response(
            status_code=response.status_code,
            headers=headers,
            stream=_TapStream(decoded, self._router, sse, _request_stream(request, body) if sse else None, _charset_refusal(content_type)),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def _listen(router: _Router, sock: socket.socket) -> None:
    """The relay's records (``> `` or ``< `` and a message, one a line; ``!`` a line beyond the
    bound), handed to the router as they come; in a thread of its own, so that the records are
    read whatever the event loop does."""
    try:
        conn, _ = sock.accept()
    except OSError:
        return
    finally:
        sock.close()
    with conn, conn.makefile("rb") as f:
        while True:
            line = f.readline(MAX_MESSAGE_BYTES + 3)
            if not line:
                return
            if not line.endswith(b"\n"):
                router.fail(EklError("BODY_TOO_LARGE", f"a message of the server holds more than {MAX_MESSAGE_BYTES} bytes"))
                while line and not line.endswith(b"\n"):
                    line = f.readline(1 << 20)
                continue
            if line.startswith(b"!"):
                router.fail(EklError("BODY_TOO_LARGE", f"a message of the server holds more than {MAX_MESSAGE_BYTES} bytes"))
            elif line.startswith((b"> ", b"< ")):
                router.feed("sent" if line[:1] == b">" else "received", line[2:-1])


@contextlib.asynccontextmanager
async def connect(
    server: Union[StdioServerParameters, str],
    *,
    headers: Optional[Mapping[str, str]] = None,
    auth: Optional[httpx2.Auth] = None,
    log: Optional[str] = None,
    timeout: Optional[float] = DEFAULT_TIMEOUT,
    **client_options: Any,
) -> AsyncIterator[Session]:
    """Connects the SDK's ``mcp.Client`` to ``server`` (``StdioServerParameters``: stdio; a URL:
    Streamable HTTP, with ``headers`` and ``auth`` for its HTTP client) and judges the wire.
    ``log``: a file the stdio relay appends every line to as well (yours to keep and bound; none
    by default). ``timeout``: seconds (:data:`DEFAULT_TIMEOUT`, 60) for the handshake (the SDK's
    whole ``Client`` entry, its ``server/discover`` probe included) and for each call of the
    session (one ``tools/call``, one page of ``tools/list``): past it, ``MCP_TIMEOUT`` and the
    session refuses later calls; ``None``: no deadline of the module's own. ``client_options`` go
    to ``mcp.Client`` as they are."""
    if timeout is not None and not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0):
        raise ValueError("timeout must be a positive number of seconds or None")
    router = _Router()
    connected = False
    # The deadline scope encloses the whole connection (so that the SDK's task groups nest in it)
    # and is lifted once the handshake is over.
    scope = anyio.CancelScope(deadline=math.inf if timeout is None else anyio.current_time() + timeout)
    try:
        with scope:
            async with _connected(server, router, headers, auth, log, client_options) as client:
                connected = True
                scope.deadline = math.inf
                yield Session(client, router, timeout)
        if not connected:
            raise _timeout_error("the MCP handshake", timeout)
    except Exception as e:
        # The SDK's transport may fail in its own way on what the core refused first (its reader
        # on a line that is not UTF-8): the core's refusal, with its code, is the outcome.
        failure = router.failure()
        if failure is not None and e is not failure:
            raise failure from None
        if not connected and _timed_out(_unwrap(e)):
            raise _timeout_error("the MCP handshake", timeout) from None
        raise


@contextlib.asynccontextmanager
async def _connected(
    server: Union[StdioServerParameters, str],
    router: _Router,
    headers: Optional[Mapping[str, str]],
    auth: Optional[httpx2.Auth],
    log: Optional[str],
    client_options: Mapping[str, Any],
) -> AsyncIterator[Client]:
    async with contextlib.AsyncExitStack() as stack:
        transport: Any
        if isinstance(server, StdioServerParameters):
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="ekl-mcp-"))
            path = os.path.join(folder, "wire.sock")
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(path)
            sock.listen(1)
            threading.Thread(target=_listen, args=(router, sock), daemon=True).start()
            stack.callback(_wake, path)
            extra = ["--log", os.path.abspath(log)] if log is not None else []  # the relay may run elsewhere
            relayed = server.model_copy(
                update={"command": sys.executable, "args": [RELAY, path, *extra, "--", server.command, *server.args]}
            )
            transport = stdio_client(relayed)
        elif isinstance(server, str):
            http = httpx2.AsyncClient(
                transport=_TapTransport(httpx2.AsyncHTTPTransport(), router),
                headers=dict(headers) if headers is not None else None,
                auth=auth,
                timeout=httpx2.Timeout(30.0, read=300.0),
            )
            await stack.enter_async_context(http)
            transport = streamable_http_client(server, http_client=http)
        else:
            raise TypeError("server must be StdioServerParameters (stdio) or a URL (Streamable HTTP)")
        yield await stack.enter_async_context(Client(transport, **client_options))


def _wake(path: str) -> None:
    """Ends a listener still waiting for the relay (the server never started)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        s.connect(path)
