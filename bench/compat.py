"""Settings in bench scripts that also run another tree's code (`scale.py --ab`, `write.py --tree`): by group on
this tree (``config.capture.consolidate_every``), by their flat names on a tree from before the nested Config
(``config.consolidate_every``)."""

from __future__ import annotations

from typing import Any

_PREFIX = {"currency": "currency_", "workstreams": "workstream_", "inject": "inject_", "hooks": "hook_",
           "llm": "llm_", "server": "server_", "loops": "loop_"}
_RENAMED = {"models.threads": "model_threads", "llm.backend": "llm", "consolidation.learned": "learned_consolidation"}


def _flat(dotted: str) -> str:
    """The flat name of ``group.field`` by the prefix rule of config.LEGACY_NAMES; only the renames the bench scripts
    use are listed (`_RENAMED`): a script reading another renamed setting on an older tree adds it there."""
    group, name = dotted.split(".", 1)
    return _RENAMED.get(dotted, _PREFIX.get(group, "") + name)


def nested(config_cls: Any) -> bool:
    return hasattr(config_cls, "replace")


def make_config(config_cls: Any, changes: dict[str, Any] | None = None) -> Any:
    """`config_cls()` with `changes` (``{"capture.consolidate_every": 4}``) applied, on either kind of tree."""
    changes = changes or {}
    if nested(config_cls):
        return config_cls().replace(changes)
    return config_cls(**{_flat(k): v for k, v in changes.items()})


def setting(config: Any, dotted: str) -> Any:
    """The value of ``group.field`` in `config`, on either kind of tree."""
    return config.get(dotted) if nested(type(config)) else getattr(config, _flat(dotted))
