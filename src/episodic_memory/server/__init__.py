"""Agent-facing servers over `Memory`: a REST API (`rest.py`) and an MCP server (`mcp_server.py`).

They need the `server` extra (``pip install ".[server]"`` in a checkout); importing this package alone does not.
"""
