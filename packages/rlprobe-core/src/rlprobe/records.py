"""The recorder's data model: step and sample records, event kinds, metric names.

This module is the single source of truth for which metric names are "known"
(typed columns) and which trainer spellings map onto them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

__all__ = [
    "StepRecord",
    "SampleRecord",
    "EventKind",
    "STEP_FIELDS",
    "SAMPLE_FIELDS",
    "METRIC_ALIASES",
    "canonical_metric",
    "component_column",
]


@dataclass(slots=True)
class StepRecord:
    """One optimizer step's scalars. ``extra`` holds every other numeric metric by name."""

    step: int
    time: float | None = None
    reward_mean: float | None = None
    reward_std: float | None = None
    kl_mean: float | None = None
    entropy_mean: float | None = None
    loss: float | None = None
    policy_loss: float | None = None
    value_loss: float | None = None
    grad_norm: float | None = None
    learning_rate: float | None = None
    clip_ratio: float | None = None
    advantage_mean: float | None = None
    advantage_std: float | None = None
    length_mean: float | None = None
    length_min: float | None = None
    length_max: float | None = None
    truncated_frac: float | None = None
    frac_reward_zero_std: float | None = None
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class SampleRecord:
    """One generated completion with its forensics. Unknown keys go to ``extra``."""

    sample_id: str | None = None
    prompt_id: str | None = None
    group_id: str | None = None
    prompt: str | None = None
    completion: str | None = None
    reward: float | None = None
    reward_components: dict[str, float] | None = None
    advantage: float | None = None
    logprob: float | None = None
    ref_logprob: float | None = None
    kl: float | None = None
    entropy: float | None = None
    length: int | None = None
    truncated: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)


#: Typed float columns of the steps table, in order (``step`` and ``time`` come first).
STEP_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(StepRecord) if f.name not in ("step", "time", "extra")
)
#: Keys of a sample dict that map to typed columns.
SAMPLE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(SampleRecord) if f.name != "extra")

#: Trainer spellings (TRL GRPO/RLOO/PPO log keys) of the known step fields. No trainer may
#: log two spellings of one field in the same step (the later would overwrite the earlier):
#: TRL's PPO logs ``policy/entropy_avg`` beside ``objective/entropy``, so only the latter,
#: mapped first, is an alias.
METRIC_ALIASES: dict[str, str] = {
    "reward": "reward_mean",
    "rewards/mean": "reward_mean",
    "objective/scores": "reward_mean",
    "reward_std": "reward_std",
    "kl": "kl_mean",
    "objective/kl": "kl_mean",
    "entropy": "entropy_mean",
    "objective/entropy": "entropy_mean",
    "loss/policy_avg": "policy_loss",
    "loss/value_avg": "value_loss",
    "vf_loss": "value_loss",
    "lr": "learning_rate",
    "clip_ratio/region_mean": "clip_ratio",
    "clip_ratio": "clip_ratio",
    "policy/clipfrac_avg": "clip_ratio",
    "completions/mean_length": "length_mean",
    "completions/min_length": "length_min",
    "completions/max_length": "length_max",
    "completions/clipped_ratio": "truncated_frac",
}


def canonical_metric(name: str) -> str:
    """The column a logged metric name is stored under (known field or the name itself)."""
    return METRIC_ALIASES.get(name, name)


def component_column(name: str) -> str:
    """The steps column holding the per-step mean of reward component ``name`` (TRL's spelling)."""
    return f"rewards/{name}/mean"


class EventKind:
    """Event kinds rlprobe itself writes. Users may log any other kind."""

    RUN_START = "run_start"
    RUN_END = "run_end"
    CRASH = "crash"
    TERMINATED = "terminated"
    BAD_RECORD = "bad_record"
    QUEUE_OVERFLOW = "queue_overflow"
    STORAGE_ERROR = "storage_error"
    AUTO_HALT = "auto_halt"
    SHIM_UNAVAILABLE = "shim_unavailable"
