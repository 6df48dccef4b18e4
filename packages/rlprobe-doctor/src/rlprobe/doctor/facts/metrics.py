"""Which recorded metric stands for a quantity the facts and detectors reason about, in the order
they are looked for (the first one a run logs is used)."""
from __future__ import annotations

__all__ = ["ENTROPY_METRICS", "REWARD_METRICS"]

#: GRPO/RLOO log ``reward`` (→ reward_mean); TRL's PPO logs the reward model's ``objective/scores``.
REWARD_METRICS = ("reward_mean", "objective/scores", "objective/rlhf_reward")
#: TRL's ``entropy`` (→ entropy_mean); verl's per-token entropy.
ENTROPY_METRICS = ("entropy_mean", "policy/entropy_avg")

