"""A small MCP server over stdio with the official Python SDK (PyPI ``mcp``).

Two tools: ``search_listings`` (structured output: the output fingerprint covers
``structuredContent``) and ``internal_debug`` (not offered to the network: the upstream
fingerprint of the offered tools leaves it out). Run: ``python server.py`` (stdio) or
``python server.py --http PORT`` (Streamable HTTP on 127.0.0.1:PORT, path /mcp).
"""

from __future__ import annotations

from pydantic import BaseModel

from mcp.server import MCPServer

mcp = MCPServer("listings-py")


class Listing(BaseModel):
    address: str
    price: str
    beds: int


class Listings(BaseModel):
    listings: list[Listing]
    next_cursor: str | None


@mcp.tool()
def search_listings(area_ref: str, min_beds: int = 1) -> Listings:
    """Search homes for sale."""
    homes = [
        Listing(address="4252 Escudo Ct", price="1349000.00", beds=4),
        Listing(address="17 Rue Émile Zola", price="689000.00", beds=3),
    ]
    return Listings(listings=[h for h in homes if h.beds >= min_beds], next_cursor=None)


@mcp.tool()
def internal_debug() -> str:
    """Not offered to the network."""
    return "ok"


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--http"]:
        mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        mcp.run("stdio")
