# mypy: disable-error-code="import-not-found"
"""MCP evidence as it crossed the wire, with the official MCP Python SDK (PyPI ``mcp``).

Install with the extra: ``pip install "ekl-evidence[mcp]"``. PROTOCOL §5.1 fingerprints the tools a
server lists (``tools/list``) and §15.3 a tool result; the SDK hands back pydantic models, whose
fields are not the wire's members (``structured_content``, defaults added, unknown members
dropped). This module connects the SDK's own client (``mcp.Client``) through its own transports and
keeps the raw text of every JSON-RPC message as it arrived, so the fingerprints are of what the
server sent:

* stdio: the server command runs behind a small relay (``_mcp_relay.py``, standard library only)
  that writes each line to a log before passing it on; the SDK's ``stdio_client`` is unchanged;
* Streamable HTTP: the SDK's ``streamable_http_client`` with an ``httpx2.AsyncClient`` whose
  transport records each request body and each response (a JSON body, or each event of an SSE
  stream) before the SDK reads it.

Each response is read through :func:`ekl_evidence.canonicalize` (every ekl-json-1 rule: a duplicate
key or an integer beyond 2^53 is refused, never silently changed).

    from mcp import StdioServerParameters
    from ekl_evidence import mcp as ekl_mcp

    async with ekl_mcp.connect(StdioServerParameters(command="python", args=["server.py"])) as s:
        tools = await s.list_tools()                     # every page, following nextCursor
        fp = tools.upstream_fingerprint(offered=["search_listings"])
        call = await s.call_tool("search_listings", {"area_ref": "loc:ca:dublin"})
        out = call.output_fingerprint(salt)

``connect("http://127.0.0.1:8000/mcp")`` speaks Streamable HTTP. ``s.client`` is the SDK's
``mcp.Client`` for everything else; ``s.wire`` the messages recorded so far.

A response is found among the messages recorded since its own call began: the last request of
that method the SDK sent for it (the same tool name, the same cursor) and the response with its
id (a message with ``result`` or ``error``, not a server's own request). The calls of one
``Session`` run one at a time, so each finds its own. A kept ``log`` may hold earlier sessions
(whose request ids start again at 0): a session reads only what the relay appends after it began.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Union

try:
    import httpx2
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import CallToolResult, ListToolsResult
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "ekl_evidence.mcp needs the official MCP SDK: pip install \"ekl-evidence[mcp]\" "
        f"(PyPI mcp 2.3 or later 2.x): {e}"
    ) from e

from . import canonicalize, output_fingerprint, upstream_fingerprint

__all__ = ["WireMessage", "ToolsListing", "ToolCall", "Session", "connect", "MAX_PAGES"]

RELAY = str(Path(__file__).with_name("_mcp_relay.py"))

#: The most tools/list pages followed before giving up (a server whose cursors never end).
MAX_PAGES = 1000


@dataclass(frozen=True)
class WireMessage:
    """One JSON-RPC message (or batch) as it crossed the wire: its text exactly as sent."""

    direction: Literal["sent", "received"]
    text: str


class _Wire:
    """The messages of one connection, in the order they crossed, each parsed once.

    Over stdio they are read from the relay's log as it grows (HTTP adds them as they cross):
    from where the log ended when the connection began, whole lines only (the last may be half
    written), each line once; a line that is not UTF-8 is kept as its bytes, which canonicalize
    refuses (``INVALID_UTF8``) if it is ever the response asked for."""

    def __init__(self, log: Optional[str] = None) -> None:
        self._log = log  # stdio: the relay's log file (an absolute path); HTTP: kept in memory
        self._messages: list[WireMessage] = []
        self._raw: list[Optional[bytes]] = []  # a log line's bytes, as canonicalize reads them
        self._members: list[list[Any]] = []
        self._read_to = os.path.getsize(log) if log is not None and os.path.exists(log) else 0
        self._pending = b""

    def add(self, direction: Literal["sent", "received"], text: str, raw: Optional[bytes] = None) -> None:
        self._messages.append(WireMessage(direction, text))
        self._raw.append(raw)
        self._members.append(_members(text))

    def _sync(self) -> None:
        if self._log is None:
            return
        with open(self._log, "rb") as f:
            f.seek(self._read_to)
            data = f.read()
        self._read_to += len(data)
        data = self._pending + data
        cut = data.rfind(b"\n") + 1
        self._pending = data[cut:]
        for line in data[:cut].split(b"\n")[:-1]:
            if line.startswith((b"> ", b"< ")):
                raw = line[2:]
                self.add("sent" if line[:1] == b">" else "received", raw.decode("utf-8", "replace"), raw)

    def count(self) -> int:
        """The messages recorded so far."""
        self._sync()
        return len(self._messages)

    def messages(self) -> list[WireMessage]:
        self._sync()
        return list(self._messages)

    def request_id(self, start: int, method: str, params: Callable[[Any], bool]) -> Any:
        """The id of the last ``method`` request sent from message ``start`` on whose params
        ``params`` accepts."""
        self._sync()
        found: list[Any] = []
        for i in range(start, len(self._messages)):
            if self._messages[i].direction == "sent":
                found += [
                    m["id"] for m in self._members[i]
                    if isinstance(m, dict) and m.get("method") == method and "id" in m and params(m.get("params"))
                ]
        if not found:
            raise LookupError(f"the SDK sent no {method} request (served from a cache?)")
        return found[-1]

    def response(self, start: int, request_id: Any) -> tuple[str, dict[str, Any]]:
        """The text of the response to ``request_id`` (received from message ``start`` on) and its
        ``result``, read through canonicalize."""
        self._sync()
        for i in range(start, len(self._messages)):
            m = self._messages[i]
            if m.direction != "received":
                continue
            for j, msg in enumerate(self._members[i]):
                if _answers(msg, request_id):
                    # canonicalize reads the text with every ekl-json-1 rule (a duplicate key, an
                    # integer beyond 2^53 or invalid UTF-8 raises EklError); its output parses
                    # back to the same value.
                    raw = self._raw[i]
                    strict = json.loads(canonicalize(raw if raw is not None else m.text))
                    one = strict[j] if isinstance(strict, list) else strict
                    if "result" not in one or not isinstance(one["result"], dict):
                        raise ValueError(f"the response to request {request_id!r} has no result object")
                    return m.text, one["result"]
        raise LookupError(f"no response to request {request_id!r} was recorded")

    def freeze(self) -> None:
        """Reads the log once more and keeps its messages in memory (the file is then removed)."""
        if self._log is not None:
            self._sync()
            self._log = None


def _members(text: str) -> list[Any]:
    """The message(s) of one wire text, parsed leniently (only to find ids and methods)."""
    try:
        v = json.loads(text)
    except (ValueError, RecursionError):
        return []
    return v if isinstance(v, list) else [v]


def _cursor_is(cursor: Optional[str]) -> Callable[[Any], bool]:
    """Whether a tools/list request's params ask for the page of ``cursor`` (None: the first)."""
    return lambda params: (params.get("cursor") if isinstance(params, dict) else None) == cursor


def _answers(msg: Any, request_id: Any) -> bool:
    """Whether ``msg`` is the response to ``request_id``: its id (of the same type), a result or
    an error, and no method (a server's own request, numbered by the server, is not)."""
    return (
        isinstance(msg, dict)
        and "method" not in msg
        and ("result" in msg or "error" in msg)
        and type(msg.get("id")) is type(request_id)
        and msg.get("id") == request_id
    )


@dataclass(frozen=True)
class ToolsListing:
    """Every page of one ``tools/list`` as it crossed the wire."""

    texts: list[str]
    """The raw text of each page's JSON-RPC response, in order."""
    results: list[dict[str, Any]]
    """Each page's ``result``, read through canonicalize."""
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
        for r in self.results:
            if not isinstance(r.get("tools"), list):
                # one page without a tools array: the core's own refusal, with its code
                upstream_fingerprint(r, offered=offered)
        return upstream_fingerprint({"tools": self.tools}, offered=offered)


@dataclass(frozen=True)
class ToolCall:
    """One ``tools/call`` as it crossed the wire."""

    text: str
    """The raw text of the JSON-RPC response."""
    wire_result: dict[str, Any]
    """Its ``result``, read through canonicalize: what the output fingerprint covers."""
    result: CallToolResult
    """The SDK's parsed result (for the agent's own use; not what is fingerprinted)."""

    def output_fingerprint(self, salt: str) -> str:
        """PROTOCOL §15.3: SHA-256(salt ‖ JCS(structuredContent, else content)) of the wire result."""
        return output_fingerprint(salt, self.wire_result)


@dataclass
class Session:
    """An SDK client whose messages are recorded as they crossed the wire."""

    client: Client
    """The official SDK's client, connected."""
    _wire: _Wire = field(repr=False)
    _turn: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def wire(self) -> list[WireMessage]:
        """Every message recorded so far, in order."""
        return self._wire.messages()

    async def list_tools(self) -> ToolsListing:
        """``tools/list``, every page: the next page is asked with the ``nextCursor`` of the page
        as it crossed the wire, until a page has none (at most :data:`MAX_PAGES`; a cursor seen
        before is an error, not a loop)."""
        texts: list[str] = []
        results: list[dict[str, Any]] = []
        sdk: list[ListToolsResult] = []
        cursor: Optional[str] = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            async with self._turn:
                start = self._wire.count()
                page = await self.client.list_tools(cursor=cursor, cache_mode="refresh")
                asked = self._wire.request_id(start, "tools/list", _cursor_is(cursor))
                text, result = self._wire.response(start, asked)
            texts.append(text)
            results.append(result)
            sdk.append(page)
            nxt = result.get("nextCursor")
            if nxt is None:
                return ToolsListing(texts, results, sdk)
            if not isinstance(nxt, str) or nxt in seen:
                raise ValueError(f"tools/list: nextCursor {nxt!r} is not a new string")
            seen.add(nxt)
            cursor = nxt
        raise ValueError(f"tools/list: more than {MAX_PAGES} pages")

    async def upstream_fingerprint(self, offered: Optional[Sequence[str]] = None) -> str:
        """The upstream fingerprint (§5.1) of every page of ``tools/list``, asked now."""
        return (await self.list_tools()).upstream_fingerprint(offered)

    async def call_tool(self, name: str, arguments: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> ToolCall:
        """``tools/call`` through the SDK (``kwargs`` are the SDK's), with the response as it
        crossed the wire (the last ``tools/call`` of this tool the SDK sent for it: the SDK may
        resend)."""
        async with self._turn:
            start = self._wire.count()
            result = await self.client.call_tool(name, dict(arguments) if arguments is not None else None, **kwargs)
            asked = self._wire.request_id(start, "tools/call", lambda p: isinstance(p, dict) and p.get("name") == name)
            text, wire_result = self._wire.response(start, asked)
        return ToolCall(text, wire_result, result)


class _SseTap:
    """An SSE parser (the WHATWG event-stream rules) fed the bytes the SDK is about to read; each
    ``message`` event's data is one JSON-RPC message's text."""

    def __init__(self, wire: _Wire) -> None:
        self._wire = wire
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._buf = ""
        self._start = True
        self._data: list[str] = []
        self._event = ""

    def feed(self, chunk: bytes, final: bool = False) -> None:
        self._buf += self._decoder.decode(chunk, final)
        if self._start and self._buf:
            self._buf = self._buf[1:] if self._buf.startswith("\ufeff") else self._buf
            self._start = False
        while True:
            cut = [i for i in (self._buf.find("\r"), self._buf.find("\n")) if i >= 0]
            if not cut:
                break
            i = min(cut)
            if self._buf[i] == "\r" and i + 1 == len(self._buf) and not final:
                break  # a \r\n split across chunks
            end = i + 2 if self._buf.startswith("\r\n", i) else i + 1
            line, self._buf = self._buf[:i], self._buf[end:]
            self._line(line)

    def _line(self, line: str) -> None:
        if line == "":
            if self._data and self._event in ("", "message"):
                self._wire.add("received", "\n".join(self._data))
            self._data, self._event = [], ""
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value


class _TapStream(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, wire: _Wire, sse: bool) -> None:
        self._inner = inner
        self._wire = wire
        self._sse = _SseTap(wire) if sse else None
        self._body = bytearray()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            # recorded before the SDK sees the bytes
            if self._sse is not None:
                self._sse.feed(chunk)
            else:
                self._body += chunk
            yield chunk
        if self._sse is not None:
            self._sse.feed(b"", final=True)
        elif self._body.strip():
            self._wire.add("received", self._body.decode("utf-8", "replace"), bytes(self._body))

    async def aclose(self) -> None:
        await self._inner.aclose()


class _TapTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport that records each request body and each response's messages."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, wire: _Wire) -> None:
        self._inner = inner
        self._wire = wire

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method == "POST":
            body = await request.aread()
            if body.strip():
                self._wire.add("sent", body.decode("utf-8"))
        response = await self._inner.handle_async_request(request)
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind not in ("application/json", "text/event-stream"):
            return response
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_TapStream(response.stream, self._wire, kind == "text/event-stream"),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


@contextlib.asynccontextmanager
async def connect(
    server: Union[StdioServerParameters, str],
    *,
    headers: Optional[Mapping[str, str]] = None,
    auth: Optional[httpx2.Auth] = None,
    log: Optional[str] = None,
    **client_options: Any,
) -> AsyncIterator[Session]:
    """Connects the SDK's ``mcp.Client`` to ``server`` (``StdioServerParameters``: stdio; a URL:
    Streamable HTTP, with ``headers`` and ``auth`` for its HTTP client) and records the wire.
    ``log``: the relay's log file for stdio (kept; by default a temporary file, removed on exit).
    ``client_options`` go to ``mcp.Client`` as they are."""
    async with contextlib.AsyncExitStack() as stack:
        transport: Any
        if isinstance(server, StdioServerParameters):
            if log is None:
                fd, path = tempfile.mkstemp(prefix="ekl-mcp-", suffix=".log")
                os.close(fd)
                stack.callback(_remove, path)
            else:
                path = os.path.abspath(log)  # the relay may run in the server's own cwd
            wire = _Wire(path)
            relayed = server.model_copy(
                update={"command": sys.executable, "args": [RELAY, path, "--", server.command, *server.args]}
            )
            transport = stdio_client(relayed)
        elif isinstance(server, str):
            wire = _Wire()
            http = httpx2.AsyncClient(
                transport=_TapTransport(httpx2.AsyncHTTPTransport(), wire),
                headers=dict(headers) if headers is not None else None,
                auth=auth,
                timeout=httpx2.Timeout(30.0, read=300.0),
            )
            await stack.enter_async_context(http)
            transport = streamable_http_client(server, http_client=http)
        else:
            raise TypeError("server must be StdioServerParameters (stdio) or a URL (Streamable HTTP)")
        client = await stack.enter_async_context(Client(transport, **client_options))
        stack.callback(wire.freeze)
        yield Session(client, wire)
