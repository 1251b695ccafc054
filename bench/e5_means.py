"""The multilingual embedder's mean vectors: `python bench/e5_means.py` writes src/episodic_memory/data/e5_means.npz.

multilingual-e5-small puts every text in a narrow cone: unrelated sentences score a cosine of ~0.75, related ones
~0.88, so every threshold this library holds (written on the bundled MiniLM's scale, where unrelated is ~0.05 and
related ~0.6) would pass everything. Subtracting the model's mean passage vector from passages and its mean query
vector from queries (then normalising again) opens the cone: a generic post-processing of anisotropic embeddings
("all-but-the-top", Mu & Viswanath 2018, keeps only its first step). The means are of texts no benchmark that judges
recall here asks about: the turns and questions of the CJK set written for this project (bench/data/cjk) and 400
English LoCoMo turns, drawn with a fixed seed. Measured (docs/retrieval.md): cosines of unrelated texts ~0.1, of
evidence ~0.4, and R@10 on cjk-memdaily-dev 0.833 → 0.877 for the dense leg alone.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baselines import turn_documents  # noqa: E402
from bench.datasets import CJK_DEFAULT, LOCOMO_DEFAULT, load_cjk, load_locomo  # noqa: E402
from bench.harness import ROOT  # noqa: E402

OUT = ROOT / "src" / "episodic_memory" / "data" / "e5_means.npz"
ENGLISH_TURNS = 400
SEED = 0


def main() -> int:
    from episodic_memory.models.multilingual import E5Embedder

    embedder = E5Embedder(2, centred=False)
    cjk = load_cjk(CJK_DEFAULT)
    passages = [text for conv in cjk for text in turn_documents(conv)[1]]
    english = [text for conv in load_locomo(LOCOMO_DEFAULT, verbose=False) for text in turn_documents(conv)[1]]
    passages += random.Random(SEED).sample(english, ENGLISH_TURNS)
    queries = [q.question for conv in cjk for q in conv.questions]
    mean_passage = embedder.embed_once(passages).mean(axis=0)
    mean_query = np.stack([embedder.embed_query(q) for q in queries]).mean(axis=0)
    np.savez(OUT, passage=mean_passage.astype(np.float32), query=mean_query.astype(np.float32),
             model=np.array(embedder.model_id), passages=np.array(len(passages)), queries=np.array(len(queries)))
    print(f"wrote {OUT} ({len(passages)} passages, {len(queries)} queries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
