"""Which recorded metric stands for a quantity the facts and detectors reason about, in the order
they are looked for (the first one a run logs is used). The names are the recording's columns: a
trainer's spelling of a known field is read as that field (``rlprobe.records.METRIC_ALIASES``), so
no alias is listed here."""
from __future__ import annotations

__all__ = ["ENTROPY_METRICS", "LENGTH_METRICS", "REWARD_METRICS"]

#: The reward (GRPO/RLOO's ``reward``, TRL PPO's reward-model ``objective/scores``, ...), else TRL
#: PPO's ``objective/rlhf_reward`` (the score with the KL penalty).
REWARD_METRICS = ("reward_mean", "objective/rlhf_reward")
#: The per-token entropy (TRL's ``entropy``, TRL PPO's ``policy/entropy_avg``, verl's ``actor/entropy``).
ENTROPY_METRICS = ("entropy_mean",)

#: The mean completion length in tokens (TRL's ``completions/mean_length``).
LENGTH_METRICS = ("length_mean",)
