"""The process the fault tests kill: opens a store, does one thing, prints "done" (unless a fault point ends it).

usage: child.py DB ACTION [ARG ...]   (EPISODIC_FAULT names the crash window; see episodic_memory.faults)

  add_turn USER SESSION TURN_ID TEXT    end_session USER SESSION     consolidate USER SESSION
  forget USER|- SESSION|-               revoke TOKEN_ID              open
"""

from __future__ import annotations

import sys

from episodic_memory import Config, Memory


def main(db: str, action: str, *args: str) -> None:
    config = Config.from_env({"models.embedder": "off"})
    if action == "revoke":
        from episodic_memory.server.tokens import TokenStore
        TokenStore.open(db, config).revoke(int(args[0]))
    else:
        with Memory(db, config=config) as mem:
            if action == "add_turn":
                user, session, turn_id, text = args
                mem.add_turn("user", text, session_id=session, user_id=user, turn_id=turn_id)
            elif action == "end_session":
                mem.end_session(args[1], user_id=args[0])
            elif action == "consolidate":
                mem.consolidate(args[0], args[1], final=True)
            elif action == "forget":
                user, session = (None if a == "-" else a for a in args)
                if user is None:
                    mem.forget(all=True)
                else:
                    mem.forget(user_id=user, session_id=session)
            elif action != "open":
                raise SystemExit(f"unknown action {action!r}")
    print("done", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
