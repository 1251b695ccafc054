"""CLI command groups beyond the core ones in `cli.py`; each module defines click commands that `cli.py` adds."""
