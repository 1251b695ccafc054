"""The fault-point hook itself: nothing happens unless EPISODIC_FAULT names the point."""

from __future__ import annotations

import subprocess
import sys

import pytest

from episodic_memory.faults import ENV, FAULT_EXIT, FaultInjected, fault_point

from .harness import child_env


def test_a_fault_point_is_a_no_op_unless_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    fault_point("forget.after_delete")
    monkeypatch.setenv(ENV, "forget.after_journals:raise, capture.after_journal")
    fault_point("forget.after_delete")  # another point: nothing
    with pytest.raises(FaultInjected, match="forget.after_journals"):
        fault_point("forget.after_journals")


@pytest.mark.crash
def test_a_named_fault_point_ends_the_process_on_the_spot() -> None:
    code = ("import atexit; from episodic_memory.faults import fault_point\n"
            "atexit.register(print, 'atexit ran')\n"
            "print('before', flush=True); fault_point('x.y'); print('after')")
    done = subprocess.run([sys.executable, "-c", code], env=child_env("x.y"), capture_output=True, text=True)
    assert done.returncode == FAULT_EXIT and done.stdout == "before\n"

