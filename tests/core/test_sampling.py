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


def _groups(n_groups: int, size: int, rewards: list[float]) -> tuple[list[int], list[float], list[str]]:
    return list(range(n_groups * size)), rewards, [f"g{i // size}" for i in range(n_groups * size)]


def test_whole_groups_keeps_every_sample_of_the_chosen_groups() -> None:
    # 10 groups of 4; group g's rewards are g + small offsets, so its mean ranks it g-th.
    items, rewards, groups = _groups(10, 4, [g + 0.1 * k for g in range(10) for k in range(4)])
    config = SamplingConfig(top_k=1, bottom_k=1, random_k=2, whole_groups=True)
    kept = select_samples(items, rewards, 3, config, groups)
    kept_groups = {groups[i] for i in kept}
    assert len(kept_groups) == 4 and {"g0", "g9"} <= kept_groups
    assert kept == sorted(i for i in items if groups[i] in kept_groups), "whole groups, original order"
    assert kept == select_samples(items, rewards, 3, config, groups), "reproducible"
    draws = {frozenset(groups[i] for i in select_samples(items, rewards, s, config, groups)) for s in range(20)}
    assert len(draws) > 1, "the random groups change from step to step"


def test_whole_groups_rank_groups_by_mean_reward_not_by_their_best_sample() -> None:
    # g0 holds the single best sample but the lowest mean; g1 is uniformly middling.
    rewards = [10.0, -10.0, -10.0, -10.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    items, _, groups = _groups(3, 4, rewards)
    kept = select_samples(items, rewards, 0, SamplingConfig(top_k=1, bottom_k=0, random_k=0, whole_groups=True),
                          groups)
    assert kept == [4, 5, 6, 7]


def test_whole_groups_without_group_ids_or_rewards() -> None:
    config = SamplingConfig(top_k=1, bottom_k=1, random_k=1, whole_groups=True)
    rewards = [float(i) for i in range(12)]
    # No group ids: every sample is its own group, the same choice as the per-sample policy.
    assert select_samples(list(range(12)), rewards, 5, config, [None] * 12) == \
        _pick(rewards, step=5, top_k=1, bottom_k=1, random_k=1)
    # Groups without any numeric reward are never top or bottom, but can be drawn.
    rewards = [None] * 8 + [1.0, 1.0, 2.0, 2.0]
    groups = ["a", "a", "b", "b", "c", "c", "d", "d", "e", "e", "f", "f"]
    kept = select_samples(list(range(12)), rewards, 0, SamplingConfig(top_k=1, bottom_k=1, random_k=0,
                                                                       whole_groups=True), groups)
    assert kept == [8, 9, 10, 11]


def test_whole_groups_is_validated_and_written_to_the_manifest(make_recorder, run_dir: Path) -> None:
    import pytest

    with pytest.raises(ValueError):
        SamplingConfig(whole_groups=1)
    rec = make_recorder(sampling=SamplingConfig(top_k=1, bottom_k=0, random_k=1, whole_groups=True))
    batch = [{"completion": f"c{i}", "reward": float(i // 4), "group_id": f"s7-{i // 4}", "sample_id": f"s{i}"}
             for i in range(24)]
    rec.log_samples(7, batch)
    rec.close()
    run = RunReader(run_dir)
    assert run.manifest["sampling"]["whole_groups"] is True
    samples = run.samples().to_pylist()
    sizes = {}
    for sample in samples:
        sizes[sample["group_id"]] = sizes.get(sample["group_id"], 0) + 1
    assert len(sizes) == 2 and set(sizes.values()) == {4} and "s7-5" in sizes
