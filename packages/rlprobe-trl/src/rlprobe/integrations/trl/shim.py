"""Per-sample capture from TRL's private completions buffer (verified on trl 1.7).

GRPOTrainer and RLOOTrainer keep ``trainer._logs``: deques, sized to one generation
batch, of the prompts, completions, per-function rewards and advantages of the latest
generation, gathered from every process (identical on every rank). Every new generation
builds a new ``trainer._buffered_inputs`` list, so a change of that list's identity is
how a new generation is told from one several optimizer steps keep reusing. Evaluation
appends to the same deques but never rebuilds the list, so eval completions are never
mistaken for training ones.

This is the only module that knows those private names; when TRL changes them, only
this module changes.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from typing import Any

from rlprobe import SamplingConfig

__all__ = ["WHOLE_GROUP_BUDGET", "SampleShim", "ShimUnavailable", "default_sampling"]

_LOG_KEYS = ("prompt", "completion", "rewards", "advantages")

#: Most samples per generation the TRL default keeps when it keeps whole groups.
WHOLE_GROUP_BUDGET = 64


def default_sampling(trainer: Any) -> SamplingConfig:
    """The TRL integration's sampling default: whole groups when affordable.

    Four whole groups per generation (the best and worst by mean reward, two at random)
    while ``4 * num_generations <= WHOLE_GROUP_BUDGET``; else the best and worst groups
    while two fit; else (groups of more than 32) the Recorder's per-sample default.
    """
    size = _group_size(trainer)
    if 4 * size <= WHOLE_GROUP_BUDGET:
        return SamplingConfig(top_k=1, bottom_k=1, random_k=2, whole_groups=True)
    if 2 * size <= WHOLE_GROUP_BUDGET:
        return SamplingConfig(top_k=1, bottom_k=1, random_k=0, whole_groups=True)
    return SamplingConfig()


def _group_size(trainer: Any) -> int:
    """Completions per prompt (TRL keeps each prompt's completions next to each other)."""
    size = getattr(trainer, "num_generations", None) or getattr(getattr(trainer, "args", None), "num_generations", 1)
    try:
        return max(int(size or 1), 1)
    except (TypeError, ValueError):
        return 1


class ShimUnavailable(Exception):
    """The trainer's per-sample buffer is missing or not shaped as expected."""


class SampleShim:
    """Turns each new generation in ``trainer._logs`` into sample dicts for ``Recorder.log_samples``.

    Construct with :meth:`for_trainer`, which raises :class:`ShimUnavailable` for a
    trainer without the buffer. ``capture`` raises :class:`ShimUnavailable` if the buffer
    stops looking as expected; otherwise it never raises. Not thread-safe (called from
    the training loop only).
    """

    def __init__(self, trainer: Any) -> None:
        self._trainer = trainer
        self._last_batch: int | None = None

    @classmethod
    def for_trainer(cls, trainer: Any) -> SampleShim:
        logs = getattr(trainer, "_logs", None)
        if not isinstance(logs, Mapping):
            raise ShimUnavailable(f"{type(trainer).__name__} has no per-sample buffer (trainer._logs)")
        missing = [key for key in _LOG_KEYS if key not in logs]
        if missing:
            raise ShimUnavailable(f"trainer._logs lacks {', '.join(missing)}")
        if not hasattr(trainer, "_buffered_inputs"):
            raise ShimUnavailable(f"{type(trainer).__name__} has no trainer._buffered_inputs")
        return cls(trainer)

    def capture(self, step: int) -> list[dict[str, Any]] | None:
        """Sample dicts of the generation made since the last call, or None if there is none.

        ``step`` names the samples (``sample_id``/``group_id``); call it with the optimizer
        step during which the generation happened.
        """
        batch = getattr(self._trainer, "_buffered_inputs", _MISSING)
        if batch is _MISSING:
            raise ShimUnavailable("trainer._buffered_inputs disappeared")
        # Identity, not content: two generations may produce the same texts. The previous
        # list is alive while its successor is built, so a new generation always has a new id.
        if batch is None or id(batch) == self._last_batch:
            return None
        self._last_batch = id(batch)
        return self._read(step)

    def _read(self, step: int) -> list[dict[str, Any]]:
        trainer = self._trainer
        logs = trainer._logs
        try:
            prompts = list(logs["prompt"])
            completions = list(logs["completion"])
            advantages = list(logs["advantages"])
            components = {str(name): list(values) for name, values in logs["rewards"].items()}
            extra = {str(name): list(values) for name, values in logs.get("extra", {}).items()}
        except (KeyError, TypeError, AttributeError) as exc:
            raise ShimUnavailable(f"trainer._logs changed shape ({exc!r})") from None
        n = len(completions)
        sizes = {len(prompts), len(advantages), *(len(v) for v in components.values())}
        if sizes != {n}:
            raise ShimUnavailable(f"trainer._logs columns disagree in length ({sorted(sizes | {n})})")
        weights = _reward_weights(trainer, list(components))
        group_size = _group_size(trainer)
        samples = []
        for i in range(n):
            parts = {name: float(values[i]) for name, values in components.items() if _is_number(values[i])}
            reward = sum(weights[name] * value for name, value in parts.items()) if parts else None
            sample: dict[str, Any] = {
                "sample_id": f"{step}-{i}",
                "prompt_id": _prompt_id(prompts[i]),
                "group_id": f"{step}-{i // group_size}",
                "prompt": prompts[i],
                "completion": completions[i],
                "reward": reward,
                "reward_components": parts,
                "advantage": advantages[i],
            }
            for name, values in extra.items():
                if len(values) == n:
                    sample.setdefault(name, values[i])
            samples.append(sample)
        return samples


_MISSING = object()


def _reward_weights(trainer: Any, names: list[str]) -> dict[str, float]:
    """The trainer's per-function weights, as TRL applies them to form the logged reward."""
    weights: Any = getattr(trainer, "reward_weights", None)
    order = list(getattr(trainer, "reward_func_names", None) or names)
    try:
        values = [float(w) for w in (weights.tolist() if hasattr(weights, "tolist") else weights)]
    except TypeError:
        values = []
    if len(values) != len(order):
        return {name: 1.0 for name in names}
    by_name = dict(zip(order, values, strict=True))
    return {name: by_name.get(name, 1.0) for name in names}


def _is_number(value: Any) -> bool:
    try:
        return not math.isnan(float(value))
    except (TypeError, ValueError):
        return False


def _prompt_id(prompt: Any) -> str:
    """Stable across steps and runs, so the same prompt can be followed and compared."""
    text = prompt if isinstance(prompt, str) else repr(prompt)
    return hashlib.blake2b(text.encode("utf-8", errors="replace"), digest_size=8).hexdigest()
