"""A session's consolidation lease: a claim in the store that one process (of any on the file) consolidates it.

It lapses after `lease_s` unless renewed; a dead local process's claim is taken over at once (see
docs/architecture.md, "Threads and processes").
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid

from ..config import Config
from ..store.base import Store

log = logging.getLogger(__name__)


def _dead(owner: str) -> bool:
    """The claim's process ran on this machine and is gone (owner: ``host:pid:nonce``)."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if os.name == "nt" or host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False  # (on Windows, os.kill(pid, 0) would end the process)
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, as another user's process
        pass
    return False


class ConsolidationLease:
    """Claims, renews and releases sessions' consolidation leases for one Memory."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._claimed: dict[tuple[str, str], float] = {}  # session → when this owner last claimed it

    def claim(self, user_id: str, session_id: str, *, wait: float = 0) -> bool:
        """Claim a session (waiting up to `wait` seconds for another process's claim to end). True when held."""
        deadline = time.monotonic() + wait
        while True:
            now = time.time()
            until = now + self.config.consolidation.lease_s
            holder = self.store.claim_consolidation(user_id, session_id, self.owner, until=until, now=now)
            if holder is not None and _dead(holder):
                log.warning("session %s/%s: taking over the consolidation claim of %s, a process that died",
                            user_id, session_id, holder)
                holder = self.store.claim_consolidation(user_id, session_id, self.owner, until=until, now=now,
                                                        replacing=holder)
            if holder is None:
                self._claimed[(user_id, session_id)] = now
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def renew(self, user_id: str, session_id: str) -> bool:
        """Keep the claim (written once half of it has run). False when it was lost (it had lapsed)."""
        claimed = self._claimed.get((user_id, session_id))
        if claimed is not None and time.time() - claimed < self.config.consolidation.lease_s / 2:
            return True
        return self.claim(user_id, session_id)

    def release(self, user_id: str, session_id: str) -> None:
        self._claimed.pop((user_id, session_id), None)
        self.store.release_consolidation(user_id, session_id, self.owner)
