"""Named crash windows for the fault-injection tests (`tests/faults/`): off unless the environment names a point.

`fault_point("forget.after_delete")` does nothing unless ``EPISODIC_FAULT`` names that point. Then the process dies
on the spot (`os._exit(FAULT_EXIT)`: no `finally`, no `atexit`, no flush — what a kill -9 leaves behind), or, for
``name:raise``, raises `FaultInjected` (a failing disk, say). Several points may be named, comma-separated.
"""

from __future__ import annotations

import os

ENV = "EPISODIC_FAULT"
FAULT_EXIT = 86  # the exit status of a process killed at a fault point (tests check it was reached)


class FaultInjected(OSError):
    """Raised at a fault point named with ``:raise``."""


def fault_point(name: str) -> None:
    """A crash window: a no-op unless ``EPISODIC_FAULT`` names `name` (see the module's docstring)."""
    spec = os.environ.get(ENV)
    if not spec:
        return
    for item in spec.split(","):
        point, _, action = item.strip().partition(":")
        if point != name:
            continue
        if action == "raise":
            raise FaultInjected(f"fault injected at {name}")
        os._exit(FAULT_EXIT)
