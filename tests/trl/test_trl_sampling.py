"""attach keeps whole groups by default when affordable, so that group-shape checks can run."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from rlprobe import SamplingConfig
from rlprobe.integrations.trl import attach
from rlprobe.integrations.trl.shim import WHOLE_GROUP_BUDGET, default_sampling
from rlprobe.storage import RunReader


def _by_group(samples: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for sample in samples:
        groups.setdefault(sample["group_id"], []).append(sample)
    return groups


def test_default_keeps_four_whole_groups_per_generation(trainer_factory, tmp_path):
    # 6 prompts x 4 completions per step: the per-sample default would keep 8 scattered samples.
    trainer = trainer_factory("grpo", per_device_train_batch_size=24, num_generations=4, max_steps=3)
    attach(trainer, tmp_path / "run")
    trainer.train()
    run = RunReader(tmp_path / "run")
    assert run.manifest["sampling"] == {"top_k": 1, "bottom_k": 1, "random_k": 2, "seed": 0, "whole_groups": True}
    samples = run.samples().to_pylist()
    for step in (1, 2, 3):
        groups = _by_group([s for s in samples if s["step"] == step])
        assert len(groups) == 4, step
        assert all(len(members) == 4 for members in groups.values()), "every completion of a kept prompt"
        assert all(len({s["prompt"] for s in members}) == 1 for members in groups.values())
    # Against TRL's own buffer of the last generation: its best and worst prompts (by mean reward) were kept.
    logs = trainer._logs
    rewards = [sum(values) for values in zip(*logs["rewards"].values(), strict=True)]
    means = {}
    for i, prompt in enumerate(logs["prompt"]):
        means.setdefault(i // 4, (prompt, []))[1].append(rewards[i])
    ranked = sorted(means.values(), key=lambda pair: sum(pair[1]) / 4)
    kept = {members[0]["prompt"] for members in _by_group([s for s in samples if s["step"] == 3]).values()}
    assert {ranked[0][0], ranked[-1][0]} <= kept


def test_an_explicit_sampling_wins_over_the_default(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", per_device_train_batch_size=24, num_generations=4, max_steps=2)
    attach(trainer, tmp_path / "run", sampling=SamplingConfig(top_k=1, bottom_k=1, random_k=1))
    trainer.train()
    run = RunReader(tmp_path / "run")
    assert run.manifest["sampling"]["whole_groups"] is False
    assert [len([s for s in run.samples().to_pylist() if s["step"] == k]) for k in (1, 2)] == [3, 3]


@pytest.mark.parametrize(("num_generations", "expected"), [
    (2, SamplingConfig(top_k=1, bottom_k=1, random_k=2, whole_groups=True)),
    (16, SamplingConfig(top_k=1, bottom_k=1, random_k=2, whole_groups=True)),
    (17, SamplingConfig(top_k=1, bottom_k=1, random_k=0, whole_groups=True)),
    (32, SamplingConfig(top_k=1, bottom_k=1, random_k=0, whole_groups=True)),
    (33, SamplingConfig()),
    (None, SamplingConfig(top_k=1, bottom_k=1, random_k=2, whole_groups=True)),
])
def test_the_default_stays_within_its_budget(num_generations, expected):
    trainer = SimpleNamespace(num_generations=num_generations, args=SimpleNamespace(num_generations=None))
    config = default_sampling(trainer)
    assert config == expected
    groups = config.top_k + config.bottom_k + config.random_k
    if config.whole_groups:
        assert groups * (num_generations or 1) <= WHOLE_GROUP_BUDGET
