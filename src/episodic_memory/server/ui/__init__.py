"""The memory inspector: a small web UI served by the REST server at `/` (see `pages.py`)."""

from .pages import add_inspector

__all__ = ["add_inspector"]
