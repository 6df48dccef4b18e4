"""The sampling policy: per log_samples call, the top_k and bottom_k by reward plus
random_k drawn from the rest, reproducibly."""
from __future__ import annotations

import math
import random
from pathlib import Path

from rlprobe import SamplingConfig
from rlprobe.sampling import select_samples
from rlprobe.storage import RunReader


def _pick(rewards: list, step: int = 0, **config) -> list[int]:
    return select_samples(list(range(len(rewards))), rewards, step, SamplingConfig(**config))


def test_top_bottom_and_random_are_chosen_as_documented() -> None:
    rewards = [float(r) for r in random.Random(1).sample(range(100), 40)]
    kept = _pick(rewards, top_k=3, bottom_k=2, random_k=4)
    assert kept == sorted(kept), "kept in their original order"
    by_reward = sorted(range(40), key=lambda i: rewards[i])
    top, bottom = set(by_reward[-3:]), set(by_reward[:2])
    assert top | bottom <= set(kept)
    assert len(kept) == 3 + 2 + 4
    assert len(set(kept) - top - bottom) == 4


def test_the_same_seed_and_step_choose_the_same_samples() -> None:
    rewards = [float(i % 7) for i in range(50)]
    assert _pick(rewards, step=5, seed=3) == _pick(rewards, step=5, seed=3)
    draws = {tuple(_pick(rewards, step=s, seed=3)) for s in range(10)}
    assert len(draws) > 1, "the random part changes from step to step"
    assert {tuple(_pick(rewards, step=5, seed=s)) for s in range(10)} != {tuple(_pick(rewards, step=5, seed=3))}


def test_small_batches_are_kept_whole_and_missing_rewards_are_never_extremes() -> None:
    assert _pick([1.0, 2.0, 3.0], top_k=2, bottom_k=2, random_k=4) == [0, 1, 2]
    rewards = [None, math.nan, 0.0, 1.0, 2.0, 3.0, None, 4.0, 5.0, 6.0, 7.0]
    kept = _pick(rewards, top_k=2, bottom_k=2, random_k=0)
    assert kept == [2, 3, 9, 10]
    assert _pick([None] * 12, top_k=2, bottom_k=2, random_k=3) == _pick([None] * 12, top_k=2, bottom_k=2,
                                                                        random_k=3)
    assert len(_pick([None] * 12, top_k=2, bottom_k=2, random_k=3)) == 3
    assert _pick([float(i) for i in range(20)], top_k=0, bottom_k=0, random_k=0) == []


def test_ties_break_by_position() -> None:
    assert _pick([1.0] * 10, top_k=2, bottom_k=2, random_k=0) == [0, 1, 8, 9]


def test_recorder_applies_the_policy_and_select_false_keeps_all(make_recorder, run_dir: Path) -> None:
    config = SamplingConfig(top_k=1, bottom_k=1, random_k=2, seed=11)
    rec = make_recorder(sampling=config)
    batch = [{"completion": f"c{i}", "reward": float(i), "sample_id": f"s{i}"} for i in range(16)]
    rec.log_samples(7, batch)
    rec.log_samples(8, [dict(s) for s in batch], select=False)
    rec.close()
    samples = RunReader(run_dir).samples().to_pylist()
    picked = [s["sample_id"] for s in samples if s["step"] == 7]
    expected = [f"s{i}" for i in select_samples(list(range(16)), [float(i) for i in range(16)], 7, config)]
    assert picked == expected and "s0" in picked and "s15" in picked and len(picked) == 4
    assert len([s for s in samples if s["step"] == 8]) == 16
