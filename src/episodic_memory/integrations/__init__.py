"""Adapters that let other frameworks use a `Memory` (each needs its framework installed: an optional extra)."""
