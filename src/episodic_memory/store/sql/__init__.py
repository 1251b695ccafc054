"""The SQL both store backends share, written once: `?` marks, and the few words that differ taken from the
backend's `Dialect` (`dialect.py`). Each module is a mixin of both `SQLiteStore` and `PostgresStore`; a backend's
module of the same name derives from it and adds (or overrides) only what its engine does otherwise.

`core.py`: `SQLCore`, the base of both connections (`_rows`, `_rows_in`, `_write`), and `Scope` (what a forget
deletes). `turns.py`: sessions and the simple turn reads; `facts.py`: facts and entities; `threads.py`: episodes,
workstreams, loops; `judgments.py`; `tokens.py`; `backoff.py`; `edits.py`; `portable.py`: export and import;
`store.py`: forgetting across them all. Nothing here imports a driver.
"""
