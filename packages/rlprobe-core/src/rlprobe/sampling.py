"""Which captured samples of a step are kept: top/bottom by reward plus a random few, counted
in samples or, with ``whole_groups``, in whole groups (every completion of a prompt)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["SamplingConfig", "select_samples"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SamplingConfig:
    """Per ``log_samples`` call keep the ``top_k`` highest-reward samples, the ``bottom_k``
    lowest, and ``random_k`` drawn uniformly from the rest. The random draw depends only
    on ``seed`` and the step, so the same recording is reproduced exactly.

    With ``whole_groups=True`` the same three counts are counted in groups instead (the
    samples sharing a ``group_id``; a sample without one is a group of its own): the
    ``top_k`` groups of highest mean reward, the ``bottom_k`` lowest and ``random_k`` drawn
    from the rest, each kept with every one of its samples, so that group-shape checks
    (equal rewards, identical completions) see whole groups. It keeps about
    ``group size`` times as many samples.
    """

    top_k: int = 2
    bottom_k: int = 2
    random_k: int = 4
    seed: int = 0
    whole_groups: bool = False

    def __post_init__(self) -> None:
        for name in ("top_k", "bottom_k", "random_k"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"SamplingConfig.{name} must be a non-negative int, got {value!r}")
        if not isinstance(self.whole_groups, bool):
            raise ValueError(f"SamplingConfig.whole_groups must be a bool, got {self.whole_groups!r}")

    def to_dict(self) -> dict[str, int | bool]:
        return {"top_k": self.top_k, "bottom_k": self.bottom_k, "random_k": self.random_k, "seed": self.seed,
                "whole_groups": self.whole_groups}


def select_samples(samples: Sequence[T], rewards: Sequence[Any], step: int, config: SamplingConfig,
                   groups: Sequence[Any] | None = None) -> list[T]:
    """Return the kept samples in their original order.

    Samples whose reward is missing or NaN are never "top" or "bottom" but can be drawn at random.
    Ties are broken by position, so the choice is deterministic. With ``config.whole_groups``,
    ``groups`` gives each sample's group key (None: a group of its own); a group's reward is
    the mean of its numeric rewards, and a group with none is only ever drawn at random.
    """
    if not config.whole_groups or groups is None:
        return [samples[i] for i in _pick(rewards, step, config)]
    members: dict[Any, list[int]] = {}
    for i, key in enumerate(groups):
        members.setdefault(("group", key) if key is not None else ("sample", i), []).append(i)
    keys = list(members)
    means = [_mean([rewards[i] for i in members[key]]) for key in keys]
    kept = sorted(i for g in _pick(means, step, config) for i in members[keys[g]])
    return [samples[i] for i in kept]


def _pick(rewards: Sequence[Any], step: int, config: SamplingConfig) -> list[int]:
    """Positions kept among ``rewards`` (top, bottom, random), in order."""
    n = len(rewards)
    if n <= config.top_k + config.bottom_k + config.random_k:
        return list(range(n))
    scored = [i for i in range(n) if _numeric(rewards[i])]
    scored.sort(key=lambda i: (rewards[i], i))
    chosen: set[int] = set()
    if config.bottom_k:
        chosen.update(scored[: config.bottom_k])
    if config.top_k:
        chosen.update(scored[-config.top_k :])
    rest = [i for i in range(n) if i not in chosen]
    rng = random.Random(config.seed * 1_000_003 + step)
    chosen.update(rng.sample(rest, min(config.random_k, len(rest))))
    return sorted(chosen)


def _numeric(value: Any) -> bool:
    return isinstance(value, float) and value == value


def _mean(values: list[Any]) -> float | None:
    numbers = [v for v in values if _numeric(v)]
    return sum(numbers) / len(numbers) if numbers else None
