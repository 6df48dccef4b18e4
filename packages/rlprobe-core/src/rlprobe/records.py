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
    "SAMPLE_KINDS",
    "METRIC_ALIASES",
    "PER_SEQUENCE_SUMS",
    "NOT_REFERENCE_KL",
    "canonical_metric",
    "component_column",
    "TRAINER_SUMMARY_KEYS",
    "TRAINER_SUMMARY_MARKERS",
    "is_trainer_summary_key",
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


def _sample_field(kind: str) -> Any:
    return field(default=None, metadata={"kind": kind})


@dataclass(slots=True)
class SampleRecord:
    """One generated completion with its forensics. Unknown keys go to ``extra``.

    Each field's kind (``SAMPLE_KINDS``) says how the recorder cleans it and which column
    type stores it (``rlprobe.storage.schema.SAMPLE_TYPES``): this class is the sample schema."""

    sample_id: str | None = _sample_field("id")
    prompt_id: str | None = _sample_field("id")
    group_id: str | None = _sample_field("id")
    prompt: str | None = _sample_field("text")
    completion: str | None = _sample_field("text")
    reward: float | None = _sample_field("float")
    reward_components: dict[str, float] | None = _sample_field("components")
    advantage: float | None = _sample_field("float")
    logprob: float | None = _sample_field("float")
    ref_logprob: float | None = _sample_field("float")
    kl: float | None = _sample_field("float")
    entropy: float | None = _sample_field("float")
    length: int | None = _sample_field("int")
    truncated: bool | None = _sample_field("bool")
    extra: dict[str, Any] = field(default_factory=dict)


#: Typed float columns of the steps table, in order (``step`` and ``time`` come first).
STEP_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(StepRecord) if f.name not in ("step", "time", "extra")
)
#: The kind of each typed sample field, in column order: ``id`` (a short string), ``text``
#: (clipped prompt or completion), ``float``, ``int``, ``bool`` or ``components`` (name → number).
SAMPLE_KINDS: dict[str, str] = {f.name: f.metadata["kind"] for f in fields(SampleRecord) if f.name != "extra"}
#: Keys of a sample dict that map to typed columns.
SAMPLE_FIELDS: tuple[str, ...] = tuple(SAMPLE_KINDS)

#: Trainer spellings of the known step fields: TRL GRPO/RLOO, TRL's experimental PPO, verl
#: and OpenRLHF log keys. No trainer may log two spellings of one field in the same step (the
#: later would overwrite the earlier): TRL's PPO logs ``objective/entropy`` (a per-sequence
#: sum) beside ``policy/entropy_avg`` (per token), so only the per-token one is an alias;
#: verl logs ``actor/kl_loss`` (``use_kl_loss``) or the in-reward KL, not both (TRL 0.16-0.2x
#: logs its older ``completion_length`` beside ``completions/mean_length`` with the same value). verl's
#: ``response_length/clip_ratio`` is not an alias: some versions measure it against the
#: batch's longest response, not the length limit, so it is never 0 (verl#7817).
METRIC_ALIASES: dict[str, str] = {
    "reward": "reward_mean",
    "rewards/mean": "reward_mean",
    "objective/scores": "reward_mean",
    "critic/score/mean": "reward_mean",
    "rollout/reward_mean": "reward_mean",
    "reward_std": "reward_std",
    "rollout/reward_std": "reward_std",
    "kl": "kl_mean",
    "objective/kl": "kl_mean",
    "actor/kl_loss": "kl_mean",
    "actor/reward_kl_penalty": "kl_mean",
    "critic/kl": "kl_mean",
    "entropy": "entropy_mean",
    "policy/entropy_avg": "entropy_mean",
    "actor/entropy": "entropy_mean",
    "actor/entropy_loss": "entropy_mean",
    "entropy_loss": "entropy_mean",
    "loss/policy_avg": "policy_loss",
    "actor/pg_loss": "policy_loss",
    "loss/value_avg": "value_loss",
    "vf_loss": "value_loss",
    "critic/vf_loss": "value_loss",
    "critic_loss": "value_loss",
    "actor/grad_norm": "grad_norm",
    "actor_grad_norm": "grad_norm",
    "lr": "learning_rate",
    "actor/lr": "learning_rate",
    "actor_lr": "learning_rate",
    "clip_ratio/region_mean": "clip_ratio",
    "clip_ratio": "clip_ratio",
    "policy/clipfrac_avg": "clip_ratio",
    "actor/pg_clipfrac": "clip_ratio",
    "ppo_clip_ratio": "clip_ratio",
    "critic/advantages/mean": "advantage_mean",
    "completions/mean_length": "length_mean",
    "completion_length": "length_mean",
    "response_length/mean": "length_mean",
    "response_length": "length_mean",
    "rollout/response_length_mean": "length_mean",
    "completions/min_length": "length_min",
    "response_length/min": "length_min",
    "completions/max_length": "length_max",
    "response_length/max": "length_max",
    "completions/clipped_ratio": "truncated_frac",
    "truncated": "truncated_frac",
    "rollout/truncated_rate": "truncated_frac",
}

#: Aliased spellings whose values are per-sequence sums over tokens, not per-token means
#: (TRL PPO's ``objective/kl``; detectors judge these by their change, never their level).
PER_SEQUENCE_SUMS: frozenset[str] = frozenset({"objective/kl", "objective/entropy"})
#: KLs between the old and the new policy (PPO's trust-region diagnostics): never the KL to
#: the reference model, so never an alias of ``kl_mean``.
NOT_REFERENCE_KL: frozenset[str] = frozenset({"actor/ppo_kl", "ppo_kl", "vllm_kl", "policy/approxkl_avg"})
assert not NOT_REFERENCE_KL & set(METRIC_ALIASES), "an old-vs-new-policy KL is not the reference KL"


def canonical_metric(name: str) -> str:
    """The column a logged metric name is stored under (known field or the name itself)."""
    return METRIC_ALIASES.get(name, name)


def component_column(name: str) -> str:
    """The steps column holding the per-step mean of reward component ``name`` (TRL's spelling)."""
    return f"rewards/{name}/mean"


#: The keys of a Hugging Face Trainer's end-of-training summary log (its ``train`` speed
#: metrics, ``train_loss`` and ``total_flos``; with ``skip_memory_metrics=False`` also
#: ``train_mem_*``): recorded as a ``train_summary`` event, never as a step. The TRL callback
#: and the doctor's readers of Trainer logs both go by these.
TRAINER_SUMMARY_KEYS: frozenset[str] = frozenset({
    "train_runtime", "train_samples_per_second", "train_steps_per_second", "train_tokens_per_second",
    "train_loss", "total_flos"})
#: Of those, the keys only the summary holds: ``train_runtime`` and the speeds can come with a
#: step's log too (``include_tokens_per_second``), so only these tell the summary apart.
TRAINER_SUMMARY_MARKERS: frozenset[str] = frozenset({"train_loss", "total_flos"})
assert TRAINER_SUMMARY_MARKERS <= TRAINER_SUMMARY_KEYS


def is_trainer_summary_key(key: str) -> bool:
    """Whether ``key`` of a Trainer log belongs to its end-of-training summary."""
    return key in TRAINER_SUMMARY_KEYS or key.startswith("train_mem_")


class EventKind:
    """Every event kind rlprobe itself writes (the recorder, ``rlprobe-trl``, the doctor's
    imports of foreign logs). Users may log any other kind."""

    RUN_START = "run_start"
    RUN_END = "run_end"
    RUN_RESUMED = "run_resumed"
    STEPS_RESTORED = "steps_restored"
    CRASH = "crash"
    TERMINATED = "terminated"
    BAD_RECORD = "bad_record"
    QUEUE_OVERFLOW = "queue_overflow"
    STORAGE_ERROR = "storage_error"
    AUTO_HALT = "auto_halt"
    SHIM_UNAVAILABLE = "shim_unavailable"
    TRAIN_SUMMARY = "train_summary"
    EVALUATION = "evaluation"
    IMPORT_NOTE = "import_note"
    STAGE_START = "stage_start"
