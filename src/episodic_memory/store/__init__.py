"""Storage. `base.py` is the interface the rest of the library holds (the `Store` protocol), `records.py` the records
it speaks in, and `sqlite/` its implementation in one SQLite file (`SQLiteStore`): the only place in the library
that writes SQL. `heads.py` (the per-process turn-head cache) and `naming.py` (workstream names from keyphrases)
touch no database.
"""
