"""How well a judgment has proven itself: the share of verdicts that adopted it.

Two ways to count, chosen by `Config.judgments.utility_mode`:

- ``plain``: adopted / verdicts, 0 when never verified. One lucky adoption is certainty (1.0) and a verdict
  from two years ago counts as much as today's.
- ``smoothed`` (default): the mean of a Beta posterior over decayed counts,

      w_i      = 2^(−age_i / half-life)                         (Config.judgments.utility_half_life_days)
      adopted  = Σ w_i over adoptions,  rejected = Σ w_i over rejections
      utility  = (a + adopted) / (a + b + adopted + rejected)   (Config.judgments.utility_prior = (a, b))

  With the default prior (1, 1) an unverified judgment sits at 0.5, one adoption gives 0.67 (not 1.0), and an
  old verdict fades back towards the prior.

Ranking: score = similarity × (1 + α · utility), α = `Config.judgments.utility_weight`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..config import Config
from ..store.records import VerdictRow

DAY = 86_400.0


class VerdictLike(Protocol):  # read-only: a frozen VerdictRow will do
    @property
    def adopted(self) -> bool: ...

    @property
    def ts(self) -> float: ...


def verdict_weight(ts: float, now: float, half_life_days: float) -> float:
    """2^(−age / half-life); a verdict from the future counts fully, an infinite half-life never decays."""
    if not half_life_days > 0:
        raise ValueError(f"utility half-life must be > 0 days (inf: no decay), got {half_life_days!r}")
    if math.isinf(half_life_days):
        return 1.0
    age_days = max(now - ts, 0.0) / DAY
    return math.pow(0.5, age_days / half_life_days)


def plain_utility(verdicts: Iterable[VerdictLike]) -> float:
    """adopted / verdicts (0.0 when there are none): that library's ratio, no prior, no decay."""
    verdicts = list(verdicts)
    return sum(v.adopted for v in verdicts) / len(verdicts) if verdicts else 0.0


def smoothed_utility(verdicts: Iterable[VerdictLike], now: float, prior: tuple[float, float] = (1.0, 1.0),
                     half_life_days: float = math.inf) -> float:
    """The Beta posterior mean over decayed verdict counts (see the module docstring)."""
    a, b = prior
    if a < 0 or b < 0 or a + b <= 0:
        raise ValueError(f"utility prior must be two pseudo-counts >= 0 with a positive sum, got {prior!r}")
    adopted = rejected = 0.0
    for v in verdicts:
        w = verdict_weight(v.ts, now, half_life_days)
        if v.adopted:
            adopted += w
        else:
            rejected += w
    return (a + adopted) / (a + b + adopted + rejected)


def utility(verdicts: Iterable[VerdictLike], config: Config, now: float) -> float:
    """A judgment's utility in [0, 1] as `config` counts it (`utility_mode`, prior, half-life)."""
    if config.judgments.utility_mode == "plain":
        return plain_utility(verdicts)
    a, b = config.judgments.utility_prior  # a pair even when a list was assigned to the config after validation
    return smoothed_utility(verdicts, now, (a, b), config.judgments.utility_half_life_days)


def rank_score(similarity: float, utility_score: float, weight: float) -> float:
    """similarity × (1 + α · utility): utility lifts what is relevant, it cannot make anything relevant."""
    return similarity * (1.0 + weight * utility_score)


@dataclass(frozen=True)
class Outcome:
    """What a judgment's verdicts add up to."""

    utility: float
    adopted: int
    rejected: int
    corrections: list[str]

    @property
    def correction(self) -> str | None:
        return self.corrections[-1] if self.corrections else None

    def describe(self) -> str:
        text = f"adopted {self.adopted} of {self.adopted + self.rejected}"
        return f"{text}; corrected: {self.correction}" if self.correction else text


def outcome(verdicts: Sequence[VerdictRow], config: Config, now: float) -> Outcome:
    return Outcome(
        utility=utility(verdicts, config, now),
        adopted=sum(v.adopted for v in verdicts),
        rejected=sum(not v.adopted for v in verdicts),
        corrections=[v.correction for v in verdicts if v.correction],
    )
