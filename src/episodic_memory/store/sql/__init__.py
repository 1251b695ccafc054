"""The SQL both store backends share, written once: `?` marks, and the few words that differ taken from the
backend's `Dialect` (`dialect.py`). Each module is a mixin of both stores; a backend's module of the same name
derives from it and adds only what its engine does otherwise. Nothing here imports a driver.
"""
