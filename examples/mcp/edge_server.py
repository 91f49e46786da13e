"""An MCP server over stdio written by hand (standard library only), for the edges of the wire
recording (edges.py, edges.mjs): the seams the SDK servers never show.

    python edge_server.py TAG

* ``tools/list`` lists ``echo`` and ``tool_TAG``: a server whose tools changed between two
  sessions (TAG differs), for a log kept across sessions;
* ``tools/call`` of ``echo`` first sends the client requests of its own (``ping``) numbered with
  the call's own id and the ids around it (a server numbers its requests itself), then answers
  with the text it was given; of ``sleep``, answers after 10 s (a call past the module's timeout);
* TAG ``mute``: it reads and never answers (a handshake past the module's timeout).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Dict, cast


def send(message: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(tag: str) -> None:
    for line in sys.stdin:
        raw: Any = json.loads(line)
        if not isinstance(raw, dict):
            continue
        msg = cast(Dict[str, Any], raw)
        if "method" not in msg or "id" not in msg or tag == "mute":
            continue  # notifications, and the client's answers to our pings
        rid: Any = msg["id"]
        method: Any = msg["method"]
        given: Any = msg.get("params")
        params = cast(Dict[str, Any], given) if isinstance(given, dict) else {}
        if method == "initialize":
            result: Dict[str, Any] = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "edge", "version": "1"},
            }
        elif method == "tools/list":
            schema = {"type": "object", "properties": {"text": {"type": "string"}}}
            result = {"tools": [{"name": "echo", "inputSchema": schema}, {"name": f"tool_{tag}", "inputSchema": schema}]}
        elif method == "tools/call":
            if isinstance(rid, int):
                for own in (rid - 1, rid, rid + 1):
                    send({"jsonrpc": "2.0", "id": own, "method": "ping"})
            if params.get("name") == "sleep":
                time.sleep(10)
            arguments: Any = params.get("arguments")
            text = str(cast(Dict[str, Any], arguments).get("text", "")) if isinstance(arguments, dict) else ""
            result = {"content": [{"type": "text", "text": text}]}
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}})
            continue
        send({"jsonrpc": "2.0", "id": rid, "result": result})


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "a")
