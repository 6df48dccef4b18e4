"""Which recorded metric stands for a quantity the facts and detectors reason about, in the order
they are looked for (the first one a run logs is used), and the trainer config's token budget."""
from __future__ import annotations

from ..view import RunView

__all__ = ["ENTROPY_METRICS", "REWARD_METRICS", "token_budget"]

#: GRPO/RLOO log ``reward`` (→ reward_mean); TRL's PPO logs the reward model's ``objective/scores``.
REWARD_METRICS = ("reward_mean", "objective/scores", "objective/rlhf_reward")
#: TRL's ``entropy`` (→ entropy_mean); verl's per-token entropy.
ENTROPY_METRICS = ("entropy_mean", "policy/entropy_avg")


def token_budget(view: RunView) -> int | None:
    """The trainer config's completion budget in tokens (`max_completion_length`, PPO's `response_length`)."""
    config = view.manifest.get("trainer_config") or {}
    value = config.get("max_completion_length") or config.get("response_length")
    return int(value) if isinstance(value, (int, float)) and value > 0 else None
