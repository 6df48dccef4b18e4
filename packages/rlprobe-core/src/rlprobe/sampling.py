"""Which captured samples of a step are kept: top/bottom by reward plus a random few."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence, TypeVar

__all__ = ["SamplingConfig", "select_samples"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SamplingConfig:
    """Per ``log_samples`` call keep the ``top_k`` highest-reward samples, the ``bottom_k``
    lowest, and ``random_k`` drawn uniformly from the rest. The random draw depends only
    on ``seed`` and the step, so the same recording is reproduced exactly."""

    top_k: int = 2
    bottom_k: int = 2
    random_k: int = 4
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("top_k", "bottom_k", "random_k"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"SamplingConfig.{name} must be a non-negative int, got {value!r}")

    def to_dict(self) -> dict[str, int]:
        return {"top_k": self.top_k, "bottom_k": self.bottom_k, "random_k": self.random_k, "seed": self.seed}


def select_samples(samples: Sequence[T], rewards: Sequence[Any], step: int, config: SamplingConfig) -> list[T]:
    """Return the kept samples in their original order.

    Samples whose reward is missing or NaN are never "top" or "bottom" but can be drawn at random.
    Ties are broken by position, so the choice is deterministic.
    """
    n = len(samples)
    if n <= config.top_k + config.bottom_k + config.random_k:
        return list(samples)
    scored = [i for i in range(n) if isinstance(rewards[i], float) and rewards[i] == rewards[i]]
    scored.sort(key=lambda i: (rewards[i], i))
    chosen: set[int] = set()
    if config.bottom_k:
        chosen.update(scored[: config.bottom_k])
    if config.top_k:
        chosen.update(scored[-config.top_k :])
    rest = [i for i in range(n) if i not in chosen]
    rng = random.Random(config.seed * 1_000_003 + step)
    chosen.update(rng.sample(rest, min(config.random_k, len(rest))))
    return [samples[i] for i in sorted(chosen)]
