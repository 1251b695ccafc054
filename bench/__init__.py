"""Retrieval benchmarks for episodic_memory (LoCoMo, BEAM); run `python bench/locomo.py` or `python bench/beam.py`."""
