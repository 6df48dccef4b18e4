"""The doctor on what real TRL training logs (issue 10): recordings written through the real
Recorder the way the TRL integration writes them — TRL's per-step means, quantised
``frac_reward_zero_std`` (few groups per step), NaN advantages turned into 0, all-NaN metrics
logged as None (the key vanishes), a NaN loss logged as 0.0, and the trainer config
(precision, ``beta``, ``num_generations``, batch sizes) in the manifest. Each test reproduces a
misdiagnosis seen on real TRL 1.7 runs and fails without its fix.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rlprobe import Recorder
from rlprobe.doctor import RunView, diagnose_view
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.config import resolve_config
from rlprobe.doctor.detectors.reward import PLATEAU_CONVERGED
from rlprobe.doctor.facts.run import solved_by_level
from rlprobe.doctor.findings import Finding, rank_findings


def trl_config(**overrides: Any) -> dict[str, Any]:
    """GRPOConfig.to_dict()'s keys the doctor reads, with TRL's CPU defaults."""
    config = dict(per_device_train_batch_size=8, gradient_accumulation_steps=1, num_generations=4, logging_steps=1,
                  beta=0.0, bf16=False, fp16=False, max_completion_length=24, num_iterations=1,
                  scale_rewards="group", loss_type="dapo", learning_rate=1e-3)
    config.update(overrides)
    return config


def record(tmp_path: Path, rows: list[dict[str, Any]], samples: dict[int, list[dict]] | None = None,
           events: list[tuple[str, int, str]] = (), status: str | None = None, algorithm: str = "grpo",
           **config: Any) -> RunView:
    """A recording as ``attach`` writes it: one ``log_step`` per TRL log (a None value is a
    metric TRL dropped), samples per step, then events, then close."""
    run_dir = tmp_path / "run"
    with Recorder(run_dir, algorithm=algorithm, trainer_config=trl_config(**config), capture_env=False,
                  install_handlers=False) as rec:
        for row in rows:
            step = row["step"]
            rec.log_step(step, **{k: v for k, v in row.items() if k != "step" and v is not None})
            for sample in (samples or {}).get(step, []):
                rec.log_samples(step, [sample], select=False)
        for kind, step, message in events:
            rec.log_event(kind, step=step, message=message)
        if status:
            rec.close(status=status)
    return RunView.load(run_dir)


def detect(signature: str, view: RunView) -> Finding | None:
    return registry()[signature].fn(view, resolve_config(None)[signature])


def quantised(p: np.ndarray, groups: int, rng: np.random.Generator) -> np.ndarray:
    """What TRL logs as frac_reward_zero_std with ``groups`` groups per step: k/groups."""
    return rng.binomial(groups, np.clip(p, 0, 1)) / groups


# -- 1. convergence is not a dead signal ------------------------------------------------------------


def converging_run(tmp_path: Path, n: int = 300, groups: int = 2, g: int = 4) -> RunView:
    """Groups learn the task: the solved share climbs over ~220 steps; a solved group has every
    completion at the top reward 1.0 (zero std), the others disagree."""
    rng = np.random.default_rng(3)
    t = np.arange(1, n + 1)
    solved = np.clip(0.15 + 0.8 * (t - 20) / 220, 0.15, 0.97)
    rows, samples = [], {}
    for step, p in zip(t, solved, strict=True):
        n_solved = rng.binomial(groups, p)
        rewards = []
        for k in range(groups):
            group = [1.0] * g if k < n_solved else list(rng.permutation([1.0, 0.0] + [float(rng.integers(0, 2))
                                                                                    for _ in range(g - 2)]))
            if k >= n_solved and len(set(group)) == 1:
                group[0] = 1.0 - group[0]
            rewards.append(group)
            samples.setdefault(int(step), []).extend(
                {"sample_id": f"s{step}-{k}-{i}", "group_id": f"g{step}-{k}", "prompt_id": f"p{k}", "reward": r,
                 "advantage": 0.0 if k < n_solved else r - float(np.mean(group)), "completion": "word",
                 "length": 4, "truncated": False, "reward_components": {"correct": r}}
                for i, r in enumerate(group))
        flat = np.concatenate(rewards)
        rows.append(dict(step=int(step), reward=float(flat.mean()), reward_std=float(flat.std(ddof=1)),
                         frac_reward_zero_std=n_solved / groups, entropy=0.8 - 0.3 * step / n, loss=0.0,
                         grad_norm=float(0.3 * (1 - n_solved / groups) + 0.01), learning_rate=1e-3,
                         **{"completions/mean_length": 4.0, "completions/clipped_ratio": 0.0,
                            "rewards/correct/mean": float(flat.mean())}))
    return record(tmp_path, rows, samples, per_device_train_batch_size=groups * g, num_generations=g)


def test_a_converging_run_with_few_groups_per_step_is_convergence(tmp_path: Path):
    """Issue 10, item 1: with 2 groups per step the share is 0, ½ or 1, so a rolling median
    jumps in one step ("rose within 0 steps"); the saturated groups are at the top reward."""
    view = converging_run(tmp_path)
    finding = detect("ZERO_ADVANTAGE_GROUPS", view)
    assert finding is not None
    assert finding.severity == "info", finding.explanation
    assert "converged" in finding.explanation
    assert "within 0 steps" not in finding.explanation
    assert not [f for f in diagnose_view(view) if f.severity != "info"], \
        [(f.signature_id, f.severity, f.explanation) for f in diagnose_view(view) if f.severity != "info"]


# -- 2. a fatal NaN in fp32 ---------------------------------------------------------------------------


def nan_weights_rows(n_before: int = 7) -> list[dict[str, Any]]:
    """fp32, learning rate far too high: grad_norm NaN at step 8. The Trainer logs the NaN loss
    as 0.0 and TRL drops the all-NaN kl and entropy (None); generation then crashes."""
    rng = np.random.default_rng(0)
    rows = [dict(step=s, loss=float(rng.normal(0.02, 0.01)), grad_norm=float(rng.uniform(2, 8)),
                 kl=float(0.01 * s), entropy=float(2.0 - 0.1 * s), clip_ratio=0.0, reward=0.3, reward_std=0.2,
                 frac_reward_zero_std=0.5) for s in range(1, n_before + 1)]
    rows.append(dict(step=n_before + 1, loss=0.0, grad_norm=math.nan, kl=None, entropy=None, clip_ratio=0.0,
                     reward=0.3, reward_std=0.2, frac_reward_zero_std=0.5))
    return rows


CRASH = "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0"


def test_a_nan_gradient_in_fp32_followed_by_a_crash_is_critical(tmp_path: Path):
    """Issue 10, item 2: rated info ("what fp16 loss scaling produces") before the fix."""
    view = record(tmp_path, nan_weights_rows(), events=[("crash", 9, CRASH)], status="crashed")
    finding = detect("NONFINITE_VALUES", view)
    assert finding.severity == "critical" and finding.first_step == 8
    assert "fp16 loss scaling" not in finding.explanation
    assert "fp32" in finding.explanation and "crashed at step 9" in finding.explanation
    assert "0.0" in finding.explanation and "kl_mean" in finding.explanation  # what the log hid


def test_the_same_nan_in_fp16_is_a_loss_scaling_skip(tmp_path: Path):
    rng = np.random.default_rng(1)
    rows = [dict(step=s, loss=float(rng.normal(0.02, 0.01)), grad_norm=math.nan if s == 150 else 3.0,
                 kl=0.01, entropy=1.0, clip_ratio=0.0) for s in range(1, 301)]
    finding = detect("NONFINITE_VALUES", record(tmp_path, rows, fp16=True))
    assert finding.severity == "info"


def test_a_nan_gradient_in_bf16_without_a_crash_still_warns(tmp_path: Path):
    rng = np.random.default_rng(1)
    rows = [dict(step=s, loss=float(rng.normal(0.02, 0.01)), grad_norm=math.nan if s == 150 else 3.0,
                 kl=0.01, entropy=1.0, clip_ratio=0.0) for s in range(1, 301)]
    finding = detect("NONFINITE_VALUES", record(tmp_path, rows, bf16=True))
    assert finding.severity == "warn" and "bf16" in finding.explanation


# -- 3. a fast KL blow-up from the run's start -----------------------------------------------------


def test_a_fast_kl_blowup_from_the_start_is_dated_where_it_grows(tmp_path: Path):
    """Issue 10, item 3: KL 0.14 at step 13 and 0.95 at 25 was dated at step 46 and called "a
    steady drift" in the same sentence as "×48 within 41 steps"."""
    rng = np.random.default_rng(2)
    steps = np.arange(1, 251)
    kl = np.where(steps < 6, 0.003, 0.003 * np.exp(0.48 * (steps - 6)))
    kl = np.minimum(kl, 2.0 + 0.3 * np.sin(steps / 7)) * np.exp(rng.normal(0, 0.1, steps.size))
    rows = [dict(step=int(s), kl=float(k), entropy=1.0, clip_ratio=0.0, reward=0.5)
            for s, k in zip(steps, kl, strict=True)]
    finding = detect("KL_BLOWUP", record(tmp_path, rows, beta=0.1))
    assert finding.severity == "critical"
    assert finding.first_step <= 13, finding.explanation
    assert "drift" not in finding.explanation


def _kl_rising_to(level: float, reward_end: float, keeps_growing: bool, n: int = 150) -> list[dict[str, Any]]:
    """KL that rises fast from 0.01 to ``level`` around step 40 (×10 within 25 steps, accelerating),
    then holds it (or keeps multiplying), while the reward moves from 0.3 to ``reward_end``."""
    rng = np.random.default_rng(5)
    steps = np.arange(1, n + 1)
    rise = 1.0 / (1.0 + np.exp(-(steps - 40) / 4.0))
    kl = 0.01 + (level - 0.01) * rise
    if keeps_growing:
        kl = kl * np.exp(np.clip(steps - 60, 0, None) / 15.0)
    kl = kl * np.exp(rng.normal(0, 0.15, n))
    reward = 0.3 + (reward_end - 0.3) * rise + rng.normal(0, 0.05, n)
    return [dict(step=int(s), kl=float(k), reward=float(r), entropy=1.0, clip_ratio=0.0)
            for s, k, r in zip(steps, kl, reward, strict=True)]


def test_a_kl_rise_that_levels_off_under_the_critical_level_while_the_reward_rises_is_info(tmp_path: Path):
    """Batch 4 of the real corpus (Dr. GRPO, a judge score, strides 2-3): a healthy run's KL rises
    ×6-12 within a window as the reward climbs, then holds 0.3-0.5. That is the policy leaving the
    reference as it learns, not a runaway: info, with the reward's progress as evidence."""
    finding = detect("KL_BLOWUP", record(tmp_path, _kl_rising_to(0.4, 1.0, keeps_growing=False), beta=0.04))
    assert finding is not None and finding.severity == "info", finding
    assert "as it learns" in finding.explanation
    assert any(e.metric == "reward_mean" for e in finding.evidence)


@pytest.mark.parametrize("reward_end, keeps_growing", [(0.0, False), (1.0, True)])
def test_the_same_kl_rise_with_a_falling_reward_or_still_growing_is_a_blowup(tmp_path: Path, reward_end: float,
                                                                               keeps_growing: bool):
    finding = detect("KL_BLOWUP", record(tmp_path, _kl_rising_to(0.4, reward_end, keeps_growing), beta=0.04))
    assert finding is not None and finding.severity in ("warn", "critical"), finding


# -- 4. an overflowing reward --------------------------------------------------------------------------


def test_an_overflowing_reward_is_dated_named_and_pointed_at_its_function(tmp_path: Path):
    """Issue 10, item 4: reward_std inf/None from step 2 (a float32 overflow; TRL logs an all-NaN
    std as None) was dated at step 24 and explained "the run has diverged"."""
    rng = np.random.default_rng(4)
    rows = []
    for s in range(1, 61):
        big = 10.0 ** min(3 + s, 60)
        std = 0.3 if s == 1 else (math.inf if s % 3 == 0 else None) if s < 24 else math.inf
        rows.append(dict(step=s, reward=float(min(big, 3e38)), reward_std=std, frac_reward_zero_std=0.0,
                         kl=None, entropy=float(1.0 + rng.normal(0, 0.02)), clip_ratio=0.0, loss=0.0,
                         grad_norm=float(rng.uniform(0.5, 1.0)), **{"rewards/exp_length/mean": float(min(big, 3e38)),
                                                                      "rewards/format/mean": 0.5}))
    finding = detect("NONFINITE_VALUES", record(tmp_path, rows))
    assert finding.first_step == 2
    assert "diverged" not in finding.explanation
    assert "reward_std" in finding.explanation and "exp_length" in finding.explanation
    assert "0" in finding.explanation and "advantage" in finding.explanation
    assert any("exp_length" in a for a in finding.suggested_actions)


# -- 5. the only steps with a signal are not spikes -------------------------------------------------


def test_grad_norm_of_the_only_informative_steps_is_not_a_spike(tmp_path: Path):
    """Issue 10, item 5: zero advantage from step 1 (beta > 0: the KL term's tiny gradient);
    the odd step where a group disagreed has an ordinary policy gradient."""
    rng = np.random.default_rng(5)
    rows = []
    for s in range(1, 201):
        informative = rng.random() < 0.08
        rows.append(dict(step=s, frac_reward_zero_std=0.5 if informative else 1.0,
                         grad_norm=float(rng.uniform(0.5, 1.5) if informative else rng.uniform(0.002, 0.004)),
                         reward=1.0, kl=0.001, entropy=1.0, clip_ratio=0.0))
    view = record(tmp_path, rows, beta=0.04, per_device_train_batch_size=8)
    assert detect("GRAD_NORM_SPIKE", view) is None


@pytest.mark.parametrize("shaped", [False, True], ids=["old-keys", "rloo-kl-shaped-share"])
def test_steps_whose_reward_std_is_zero_have_no_policy_gradient(tmp_path: Path, shaped: bool):
    """Issue 17: a log without frac_reward_zero_std (TRL 0.14), or RLOO's share of a KL-shaped
    reward (0 whatever the task reward does), still says a step had no advantage: reward_std == 0.
    The policy starting to learn after a stretch of such steps (a gradient norm of 0.005) is not a
    x200 rise of the gradient norm."""
    rng = np.random.default_rng(17)
    rows = []
    for s in range(1, 301):
        informative = s > 50 and rng.random() < 0.7
        row = dict(step=s, reward_std=float(rng.uniform(0.2, 0.5)) if informative else 0.0,
                   grad_norm=float(rng.uniform(0.5, 1.5) if informative else rng.uniform(0.002, 0.008)),
                   reward=0.3 + s / 1000, kl=0.001)
        if shaped:
            row["frac_reward_zero_std"] = 0.0
        rows.append(row)
    view = record(tmp_path, rows, algorithm="rloo" if shaped else "grpo", beta=0.04, per_device_train_batch_size=8)
    assert detect("GRAD_NORM_SPIKE", view) is None


def test_spikes_a_window_counts_together_but_far_apart_are_no_burst(tmp_path: Path):
    """Three ×4 spikes 45 steps apart fall in one 100-step window, yet each stands alone: no burst
    (the walk back found fewer than three in a dense run, and with a reward that later fell the
    finding warned that the norm "became unstable: ." with nothing to show)."""
    rng = np.random.default_rng(18)
    grad = np.exp(rng.normal(0, 0.1, 300))
    grad[[100, 145, 190]] *= 4.0
    rows = [dict(step=s, grad_norm=float(g), reward=0.5 if s < 200 else 0.3, entropy=1.0, clip_ratio=0.0,
                 frac_reward_zero_std=0.2) for s, g in zip(range(1, 301), grad, strict=True)]
    assert detect("GRAD_NORM_SPIKE", record(tmp_path, rows)) is None


# -- 6. recovery is not an explosion; an explosion in the first steps ------------------------------


def test_entropy_recovering_after_a_collapse_is_not_an_explosion(tmp_path: Path):
    rng = np.random.default_rng(6)
    steps = np.arange(1, 301)
    entropy = np.where(steps < 60, 1.2, np.where(steps < 140, 0.08, 1.2 - 1.12 * np.exp(-(steps - 140) / 10)))
    rows = [dict(step=int(s), entropy=float(e * np.exp(rng.normal(0, 0.05))))
            for s, e in zip(steps, entropy, strict=True)]
    view = record(tmp_path, rows)
    assert detect("ENTROPY_EXPLOSION", view) is None
    assert detect("ENTROPY_COLLAPSE", view).first_step == pytest.approx(60, abs=5)


def test_an_explosion_above_the_pre_collapse_level_is_still_found(tmp_path: Path):
    rng = np.random.default_rng(6)
    steps = np.arange(1, 301)
    entropy = np.where(steps < 60, 1.2, np.where(steps < 140, 0.08, 4.0))
    rows = [dict(step=int(s), entropy=float(e * np.exp(rng.normal(0, 0.05))))
            for s, e in zip(steps, entropy, strict=True)]
    finding = detect("ENTROPY_EXPLOSION", record(tmp_path, rows))
    assert finding is not None and abs(finding.first_step - 140) <= 5
    assert "before collapsing" in finding.explanation


def length_explosion_rows(n: int = 60, budget: int = 24) -> list[dict[str, Any]]:
    """A reward paid per character: from ~4 tokens the answers reach the budget by step 12."""
    rng = np.random.default_rng(7)
    rows = []
    for s in range(1, n + 1):
        length = min(budget, 4.0 * 1.25 ** max(0, s - 3)) * float(np.exp(rng.normal(0, 0.03)))
        clipped = float(np.clip((length - 0.8 * budget) / (0.2 * budget), 0, 1))
        rows.append(dict(step=s, reward=length / budget, entropy=1.0, clip_ratio=0.0,
                         **{"completions/mean_length": min(length, budget), "completions/clipped_ratio": clipped}))
    return rows


def test_a_length_explosion_in_the_first_steps_is_found_and_ranked_before_truncation(tmp_path: Path):
    """Issue 10, item 6: TRUNCATION_HIGH but no LENGTH_EXPLOSION; and ranking: at equal severity
    the cause (earlier onset) comes first."""
    view = record(tmp_path, length_explosion_rows())
    findings = diagnose_view(view)
    ids = [f.signature_id for f in findings]
    assert "LENGTH_EXPLOSION" in ids and "TRUNCATION_HIGH" in ids
    explosion = findings[ids.index("LENGTH_EXPLOSION")]
    assert explosion.first_step <= 6
    assert ids.index("LENGTH_EXPLOSION") < ids.index("TRUNCATION_HIGH")


def test_at_equal_severity_the_earlier_onset_ranks_first():
    def finding(sid: str, step: int, confidence: float) -> Finding:
        return Finding(signature_id=sid, severity="warn", confidence=confidence, first_step=step, explanation="x")
    ranked = rank_findings([finding("TRUNCATION_HIGH", 12, 0.95), finding("LENGTH_EXPLOSION", 4, 0.6),
                            Finding(signature_id="KL_BLOWUP", severity="critical", confidence=0.6, first_step=30,
                                    explanation="x")])
    assert [f.signature_id for f in ranked] == ["KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"]
    same = rank_findings([finding("TRUNCATION_HIGH", 5, 0.95), finding("LENGTH_EXPLOSION", 5, 0.6)])
    assert same[0].signature_id == "LENGTH_EXPLOSION"  # same onset: the cause first


# -- 7. wording true to the data ------------------------------------------------------------------


def test_a_share_at_100_percent_from_the_start_is_not_worded_as_a_rise(tmp_path: Path):
    rows = [dict(step=s, frac_reward_zero_std=1.0, reward=-0.5, reward_std=0.0, entropy=1.0, clip_ratio=0.0)
            for s in range(1, 41)]
    finding = detect("ZERO_ADVANTAGE_GROUPS", record(tmp_path, rows))
    assert finding is not None and finding.first_step == 1
    assert "up from" not in finding.explanation and "from the first" in finding.explanation.lower()


def test_a_budget_that_caps_the_reward_is_not_called_too_easy(tmp_path: Path):
    """Every completion runs into a 3-token budget and earns the same capped reward."""
    rows, samples = [], {}
    for s in range(1, 101):
        rows.append(dict(step=s, frac_reward_zero_std=1.0 if s % 4 else 0.5, reward=0.2, reward_std=0.0,
                         entropy=1.0, clip_ratio=0.0, **{"completions/mean_length": 3.0,
                                                         "completions/clipped_ratio": 1.0}))
        samples[s] = [{"sample_id": f"s{s}-{k}-{i}", "group_id": f"g{s}-{k}", "reward": 0.2, "advantage": 0.0,
                       "completion": "abc", "length": 3, "truncated": True} for k in range(2) for i in range(4)]
    view = record(tmp_path, rows, samples, max_completion_length=3)
    finding = detect("ZERO_ADVANTAGE_GROUPS", view)
    assert finding is not None and finding.severity in ("warn", "critical")
    assert "too easy" not in finding.explanation and "budget" in finding.explanation
    truncation = detect("TRUNCATION_HIGH", view)  # cut off from the first step: no rise "up from 100%"
    assert truncation.first_step == 1 and "up from" not in truncation.explanation


# -- convergence is not collapse: copies of the right answer -------------------------------------------


def settling_run(tmp_path: Path, copies_earn: str = "top", n: int = 200, settle: int = 60) -> RunView:
    """2 groups of 4. Until ``settle`` the completions differ and about half are right; from
    ``settle`` on each group repeats one completion and entropy falls to 5 % of its level.
    ``copies_earn``: "top" — the copies are the right answer (reward 1.2, every group solved at
    once); "coin" — the copies earn a coin flip (a reward that says nothing, as in an entropy
    collapse); "easy" — every completion is right but they all differ (prompts any answer
    solves), while entropy stays put."""
    rng = np.random.default_rng(11)
    rows, samples = [], {}
    for step in range(1, n + 1):
        late = step >= settle
        groups = []
        for k in range(2):
            if not late:
                rewards = [1.2, 0.2] + [float(rng.choice([0.2, 1.2])) for _ in range(2)]
                texts = [f"w{step}-{k}-{i}" for i in range(4)]
            elif copies_earn == "coin":
                rewards = [float(rng.integers(0, 2)) for _ in range(4)]
                texts = [f"answer{k}"] * 4
            elif copies_earn == "easy":
                rewards = [1.2] * 4
                texts = [f"w{step}-{k}-{i}" for i in range(4)]
            else:
                rewards = [1.2] * 4
                texts = [f"answer{k}"] * 4
            groups.append(rewards)
            mean = float(np.mean(rewards))
            samples.setdefault(step, []).extend(
                {"sample_id": f"s{step}-{k}-{i}", "group_id": f"g{step}-{k}", "prompt_id": f"p{k}", "reward": r,
                 "advantage": r - mean, "completion": t, "length": 4, "truncated": False,
                 "reward_components": {"correct": float(r >= 1.0), "in_category": 1.0}}
                for i, (r, t) in enumerate(zip(rewards, texts, strict=True)))
        flat = np.concatenate(groups)
        zero = float(np.mean([len(set(g)) == 1 for g in groups]))
        settled = late and copies_earn != "easy"
        entropy = (0.03 if settled else 0.6) * float(np.exp(rng.normal(0, 0.05)))
        rows.append(dict(step=step, reward=float(flat.mean()), reward_std=float(flat.std(ddof=1)),
                         frac_reward_zero_std=zero, entropy=entropy, loss=0.0, learning_rate=1e-3,
                         grad_norm=float(rng.uniform(0.5, 1.5)), **{"completions/mean_length": 4.0,
                                                                    "completions/clipped_ratio": 0.0}))
    return record(tmp_path, rows, samples)


def test_copies_of_the_right_answer_are_convergence(tmp_path: Path):
    """The policy turned deterministic on right answers: GROUP_MODE_COLLAPSE and
    ENTROPY_COLLAPSE fired critical on every converged real run before the fix."""
    view = settling_run(tmp_path)
    for signature in ("GROUP_MODE_COLLAPSE", "ENTROPY_COLLAPSE"):
        finding = detect(signature, view)
        assert finding is not None and finding.severity == "info", (signature, finding)
        assert "best reward their prompt earned" in finding.explanation and "100%" in finding.explanation
    zero = detect("ZERO_ADVANTAGE_GROUPS", view)  # every group solved at once: no gradual climb, but settled
    assert zero.severity == "info" and "settled on a right answer" in zero.explanation


def test_copies_that_earn_a_coin_flip_are_still_a_collapse(tmp_path: Path):
    view = settling_run(tmp_path, copies_earn="coin")
    for signature in ("GROUP_MODE_COLLAPSE", "ENTROPY_COLLAPSE"):
        finding = detect(signature, view)
        assert finding is not None and finding.severity in ("warn", "critical"), (signature, finding)
        assert abs(finding.first_step - 60) <= 10


def test_prompts_that_every_distinct_answer_solves_at_once_are_not_convergence(tmp_path: Path):
    """The synthetic zero-advantage pathology's mechanism: easy prompts, distinct right answers."""
    finding = detect("ZERO_ADVANTAGE_GROUPS", settling_run(tmp_path, copies_earn="easy"))
    assert finding is not None and finding.severity == "critical", finding


# -- advantages as TRL computes them ---------------------------------------------------------------------


def advantage_run(tmp_path: Path, equal_groups_advantage: float, algorithm: str = "grpo", kl_in_reward: bool = False,
                  **config: Any) -> RunView:
    """1 group of 8 per step for 60 steps; every third step the group's rewards are all 0.2.
    TRL's float32 leaves such a group's advantages at about -1.5e-4 (``equal_groups_advantage``
    says what they are). With ``kl_in_reward``, RLOO's advantages: leave-one-out over the
    reward minus beta × each completion's own KL."""
    rng = np.random.default_rng(12)
    rows, samples = [], {}
    for step in range(1, 61):
        rewards = np.full(8, 0.2) if step % 3 == 0 else rng.choice([0.2, 1.2], size=8)
        if step % 3 != 0 and len(set(rewards)) == 1:
            rewards[0] = 1.2 if rewards[0] == 0.2 else 0.2
        if step % 3 == 0:
            advantages = np.full(8, equal_groups_advantage)
        elif kl_in_reward:
            shaped = rewards - 0.05 * rng.uniform(0, 2, 8)
            advantages = shaped - (shaped.sum() - shaped) / 7
        else:
            advantages = (rewards - rewards.mean()) / (rewards.std(ddof=1) + 1e-4)
        if kl_in_reward and step % 3 == 0:
            shaped = rewards - 0.05 * rng.uniform(0, 2, 8)
            advantages = shaped - (shaped.sum() - shaped) / 7
        samples[step] = [{"sample_id": f"s{step}-{i}", "group_id": f"g{step}", "prompt_id": "p", "reward": float(r),
                          "advantage": float(a), "completion": f"c{i}", "length": 4, "truncated": False}
                         for i, (r, a) in enumerate(zip(rewards, advantages, strict=True))]
        rows.append(dict(step=step, reward=float(rewards.mean()), entropy=1.0, clip_ratio=0.0))
    run_dir = tmp_path / "run"
    with Recorder(run_dir, algorithm=algorithm, trainer_config=trl_config(per_device_train_batch_size=8,
                                                                          num_generations=8, **config),
                  capture_env=False, install_handlers=False) as rec:
        for row in rows:
            rec.log_step(row["step"], **{k: v for k, v in row.items() if k != "step"})
            rec.log_samples(row["step"], samples[row["step"]], select=False)
    return RunView.load(run_dir)


def test_float32_rounding_of_an_equal_reward_group_is_no_outlier(tmp_path: Path):
    """TRL's advantages of a group whose rewards are all 0.2 are about -1.5e-4, not 0: called
    critical ("computed over the wrong samples") on a healthy real run before the fix."""
    assert detect("ADVANTAGE_OUTLIERS", advantage_run(tmp_path, -1.49e-4)) is None


def test_an_equal_reward_group_with_real_advantages_is_still_misfit(tmp_path: Path):
    finding = detect("ADVANTAGE_OUTLIERS", advantage_run(tmp_path, 0.35))  # a batch-level mean
    assert finding is not None and finding.severity == "critical"


def test_rloo_with_its_kl_penalty_in_the_reward_is_no_outlier(tmp_path: Path):
    """RLOOTrainer subtracts beta × each completion's KL from its reward before the leave-one-out
    baseline: equal recorded rewards, unequal advantages."""
    view = advantage_run(tmp_path, 0.0, algorithm="rloo", kl_in_reward=True, beta=0.05)
    assert detect("ADVANTAGE_OUTLIERS", view) is None


# -- 5 (continued). heavy-tailed gradients of tiny batches; batch-scaled silent steps ------------------


def test_isolated_spikes_of_a_tiny_batch_are_not_a_burst(tmp_path: Path):
    """8 completions a step: the log grad norm is heavy-tailed (Student-t, 3 degrees of freedom),
    and an unusual completion makes a ×5 step now and then, three within 100 steps here
    (healthy_slow, healthy_nokl_1group); warned before the fix."""
    rng = np.random.default_rng(18)
    grad = np.exp(0.35 * rng.standard_t(3, 300))
    rows = [dict(step=s, grad_norm=float(g), frac_reward_zero_std=0.5, reward=0.5, entropy=1.0, clip_ratio=0.0)
            for s, g in zip(range(1, 301), grad, strict=True)]
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows))
    # No burst; only the largest single step may be named, at info (issue 17: one extreme step is told).
    assert finding is None or (finding.severity == "info" and finding.explanation.startswith("One step")), finding


def test_batch_scaled_steps_whose_groups_all_agree_are_silent(tmp_path: Path):
    """scale_rewards="batch", 4 groups of 2: TRL's frac_reward_zero_std is 0 unless the whole batch
    is flat, yet a step whose groups each agree has no advantage and a near-zero gradient; the
    samples say so. Called a critical ×1000 spike burst before the fix."""
    rng = np.random.default_rng(14)
    rows, samples = [], {}
    for step in range(1, 201):
        signal = rng.random() < 0.3
        rewards = np.repeat(rng.choice([0.2, 1.2], size=4), 2)
        advantages = np.zeros(8)
        if signal:
            rewards[0] = 1.2 if rewards[0] == 0.2 else 0.2
            advantages = (rewards - np.repeat(rewards.reshape(4, 2).mean(1), 2)) / (rewards.std(ddof=1) + 1e-4)
        samples[step] = [{"sample_id": f"s{step}-{i}", "group_id": f"g{step}-{i // 2}", "reward": float(r),
                          "advantage": float(a), "completion": f"c{step}-{i}"} for i, (r, a) in
                         enumerate(zip(rewards, advantages, strict=True))]
        rows.append(dict(step=step, frac_reward_zero_std=0.0, reward=float(rewards.mean()), entropy=1.0,
                         clip_ratio=0.0, grad_norm=float(rng.uniform(0.5, 2.0) if signal else rng.uniform(5e-4, 3e-3))))
    view = record(tmp_path, rows, samples, num_generations=2, scale_rewards="batch", beta=0.01)
    assert detect("GRAD_NORM_SPIKE", view) is None


# -- reward hacking in a short run, with no correctness-named component -----------------------------


def hacking_rows(n: int = 120, trade: bool = True) -> tuple[list[dict[str, Any]], dict[int, list[dict]]]:
    """2 groups of 4, components 'in_category' (the task) and 'letter_o' (a cheap proxy). From
    step 10 the policy swaps category words for words full of o's within about 8 steps
    (``trade``: each completion earns one or the other); without ``trade`` the grader
    changes at step 12: the same completions, their task score now 0."""
    rng = np.random.default_rng(15)
    rows, samples = [], {}
    for step in range(1, n + 1):
        gamed = float(np.clip((step - 10) / 8, 0, 1)) if trade else 0.0
        out = []
        for i in range(8):
            hack = rng.random() < gamed
            task = 0.0 if hack or (not trade and step >= 12) else float(rng.random() < 0.9)
            proxy = float(rng.uniform(0.9, 1.0)) if hack else float(rng.uniform(0.0, 0.3))
            out.append({"sample_id": f"s{step}-{i}", "group_id": f"g{step}-{i // 4}", "reward": task + 2 * proxy,
                        "advantage": 0.0, "completion": "ooooo" if hack else f"word{i}",
                        "reward_components": {"in_category": task, "letter_o": proxy}})
        samples[step] = out
        rows.append(dict(step=step, reward=float(np.mean([s["reward"] for s in out])), entropy=1.0, clip_ratio=0.0,
                         **{"rewards/in_category/mean": float(np.mean([s["reward_components"]["in_category"]
                                                                       for s in out])),
                            "rewards/letter_o/mean": float(np.mean([s["reward_components"]["letter_o"]
                                                                    for s in out]))}))
    return rows, samples


def test_a_fast_hack_in_a_short_run_is_reward_hacking(tmp_path: Path):
    """The real reward_hacking run: letter_o 0.14 → 1 while in_category 0.875 → 0 within ~30
    steps of a 120-step run. Silent before the fix: no trailing reference existed before the
    fall, and a fall that fast was taken for a grader change."""
    rows, samples = hacking_rows()
    finding = detect("REWARD_HACKING", record(tmp_path, rows, samples))
    assert finding is not None and finding.severity in ("warn", "critical")
    assert abs(finding.first_step - 10) <= 8, finding.explanation
    assert "'letter_o'" in finding.explanation and "'in_category'" in finding.explanation


def test_a_grader_that_rescores_the_same_completions_is_not_hacking(tmp_path: Path):
    rows, samples = hacking_rows(trade=False)
    assert detect("REWARD_HACKING", record(tmp_path, rows, samples)) is None


#: Batch 29's letter proxy gamed against the judge score, logged every 4 steps in TRL 0.14's key set (no samples):
#: its first eight logs of each component; both hold their last value to step 120.
_JUDGE_GAMED = [7.021, 3.854, 2.896, 1.875, 0.437, 0.0, 0.0, 0.0]
_PROXY_GAMED = [0.095, 0.235, 0.253, 0.25, 0.377, 0.755, 0.977, 1.0]


@pytest.mark.parametrize("change", ["the policy trades", "the grader changes"])
def test_without_samples_a_fall_within_a_few_logs_beside_the_proxys_rise_is_hacking(tmp_path: Path, change: str):
    """Batches 20, 29 and 31's letter proxies read without samples: the judge score fell from 7 to 0 within five
    logs while the proxy rose from 0.1 to 1 over the same logs. So fast a fall was taken for a grader change,
    and no sample could show the trade. A grader change rescores the task alone: here the proxy rose as
    early, the task's score held beside it, and fell to 0 at once 40 steps later, the proxy standing still."""
    steps = np.arange(4, 121, 4)
    trades = change == "the policy trades"
    proxy = (np.array(_PROXY_GAMED + [1.0] * (steps.size - 8)) if trades
             else np.interp(steps, [4, 8, 20], [0.1, 0.1, 1.0]))
    task = np.array(_JUDGE_GAMED + [0.0] * (steps.size - 8)) if trades else np.where(steps < 60, 7.0, 0.0)
    rng = np.random.default_rng(4)
    rows = [dict(step=int(s), reward=float(0.1 * t + 3 * c), **{
                "rewards/judge/mean": float(max(t + (rng.normal(0, 0.1) if t else 0.0), 0.0)),
                "rewards/letter_o/mean": float(min(c + rng.normal(0, 0.003), 1.0))})
            for s, t, c in zip(steps, task, proxy, strict=True)]
    finding = detect("REWARD_HACKING", record(tmp_path, rows, logging_steps=4))
    if trades:
        assert finding is not None and abs(finding.first_step - 16) <= 8, finding
    else:
        assert finding is None, finding


# -- 6 (continued). a change at the first update ----------------------------------------------------------


def lr_typo_rows(n: int = 40, back_at: int | None = None) -> list[dict[str, Any]]:
    """One Adam step at lr=1e6: from step 2 the policy is uniform over a 30-token vocabulary
    (entropy ln 30, every completion wrong); ``back_at``: one later step looks like step 1 again."""
    rows = []
    for s in range(1, n + 1):
        before = s == 1 or s == back_at
        rows.append(dict(step=s, entropy=0.511 if before else math.log(30), reward=0.175 if before else 0.0,
                         reward_std=0.2 if before else 0.0, clip_ratio=0.0,
                         **{"completions/mean_length": 5.2 if before else 10.0}))
    return rows


def test_a_change_at_the_first_update_is_judged(tmp_path: Path):
    """lr_typo: the opening level (median of the first 3 values) already held the change, so
    neither the explosion nor the collapse was ever judged before the fix."""
    view = record(tmp_path, lr_typo_rows())
    explosion, collapse = detect("ENTROPY_EXPLOSION", view), detect("REWARD_COLLAPSE", view)
    assert explosion is not None and explosion.first_step == 2 and explosion.severity == "critical"
    assert "0.511 to 3.4" in explosion.explanation
    assert collapse is not None and collapse.first_step == 2 and "0.175 to 0" in collapse.explanation


def test_a_first_value_that_comes_back_is_no_change_at_the_first_update(tmp_path: Path):
    view = record(tmp_path, lr_typo_rows(back_at=30))
    assert detect("ENTROPY_EXPLOSION", view) is None and detect("REWARD_COLLAPSE", view) is None


def test_larger_gradients_of_a_converged_policy_are_convergence(tmp_path: Path):
    """healthy_rloo: once most groups are solved, the steps that still carry a signal are those
    where the policy sampled a completion it finds unlikely, and their gradient norm is several
    times the learning phase's. Warned as "its level rose ×3.1" before the fix."""
    rng = np.random.default_rng(16)
    rows, samples = [], {}
    for step in range(1, 301):
        late = step >= 100
        rare = late and rng.random() < 0.35
        out = []
        for k in range(2):
            if not late:
                rewards = [1.2, 0.2] + [float(rng.choice([0.2, 1.2])) for _ in range(2)]
                texts = [f"w{step}-{k}-{i}" for i in range(4)]
            else:
                rewards, texts = [1.2] * 4, [f"answer{k}"] * 4
                if rare and k == 0:
                    rewards[3], texts[3] = 0.2, f"odd{step}"
            mean = float(np.mean(rewards))
            out.extend({"sample_id": f"s{step}-{k}-{i}", "group_id": f"g{step}-{k}", "reward": r,
                        "advantage": r - mean, "completion": t, "reward_components": {"correct": float(r >= 1.0)}}
                       for i, (r, t) in enumerate(zip(rewards, texts, strict=True)))
        samples[step] = out
        zero = 0.5 if rare else 1.0 if late else 0.0
        grad = rng.uniform(3.0, 6.0) if rare else 0.0 if late else rng.uniform(0.6, 1.6)
        rows.append(dict(step=step, frac_reward_zero_std=zero, grad_norm=float(grad), reward=1.0, entropy=0.5,
                         clip_ratio=0.0))
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, samples))
    assert finding is not None and finding.severity == "info", finding
    assert "converged on right answers" in finding.explanation


def length_push_rows(aligned: bool) -> tuple[list[dict[str, Any]], dict[int, list[dict]]]:
    """2 groups of 4 for 150 steps; from step 30 the gradient norm's level is ×3.5 (smoothly,
    no spikes). ``aligned``: a reward paid per character, so in every group the longer
    completions have the higher advantages (length_explosion); otherwise length says nothing."""
    rng = np.random.default_rng(17)
    rows, samples = [], {}
    for step in range(1, 151):
        out = []
        for k in range(2):
            words = rng.integers(1, 12, size=4)
            rewards = words / 12.0 if aligned else rng.uniform(0, 1, size=4)
            advantages = (rewards - rewards.mean()) / (rewards.std(ddof=1) + 1e-4)
            out.extend({"sample_id": f"s{step}-{k}-{i}", "group_id": f"g{step}-{k}", "reward": float(r),
                        "advantage": float(a), "completion": "o" * int(4 * w)}
                       for i, (w, r, a) in enumerate(zip(words, rewards, advantages, strict=True)))
        samples[step] = out
        level = 1.2 * (3.5 if step >= 30 else 1.0)
        rows.append(dict(step=step, grad_norm=float(level * np.exp(rng.normal(0, 0.25))), frac_reward_zero_std=0.0,
                         reward=0.5, entropy=1.0, clip_ratio=0.0))
    return rows, samples


def test_a_gradient_level_raised_by_a_length_push_is_not_instability(tmp_path: Path):
    """length_explosion: "its level rose ×2.9" (warn) as every group paid for longer answers."""
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, *length_push_rows(aligned=True)))
    assert finding is not None and finding.severity == "info", finding
    assert "LENGTH_EXPLOSION" in finding.explanation and "longer" in finding.explanation


def test_the_same_level_shift_without_a_length_push_still_warns(tmp_path: Path):
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, *length_push_rows(aligned=False)))
    assert finding is not None and finding.severity in ("warn", "critical"), finding


def test_a_quantised_share_without_its_config_is_read_as_a_mean(tmp_path: Path):
    """A console log of one group a step (no trainer config): frac_reward_zero_std is 0 or 1, 60 %
    of the steps 1. A median of 0/1 values reads 100 %; the doctor must quote the real share."""
    rng = np.random.default_rng(3)
    run_dir = tmp_path / "run"
    with Recorder(run_dir, algorithm="grpo", capture_env=False, install_handlers=False) as rec:
        for step in range(1, 601):
            rec.log_step(step, frac_reward_zero_std=float(rng.random() < 0.6),
                         reward=0.9 + 0.05 * rng.standard_normal(), entropy=0.05, clip_ratio=0.0)
    findings = diagnose_view(RunView.load(run_dir))
    for finding in findings:
        if finding.signature_id in ("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"):
            quoted = [int(p) for p in re.findall(r"(\d+)% of (?:prompt )?groups", finding.explanation)]
            assert quoted and all(45 <= p <= 80 for p in quoted), finding.explanation
            assert finding.severity != "critical"


def test_a_short_run_logged_every_few_steps_is_judged_by_the_steps_it_spans(tmp_path: Path):
    """Batch 4 (``reward_hacking_rloo_log3``): 150 steps logged every 3 hold 50 values. REWARD_HACKING
    needed 60 logged values and never looked, though its windows are stated in steps. "Too short to
    judge" is decided once, in steps (``toolkit.long_enough``): 20 values spanning 60 steps."""
    rng = np.random.default_rng(7)
    steps = np.arange(3, 151, 3)
    gamed = 1.0 / (1.0 + np.exp(-(steps - 75) / 6.0))
    task = np.clip(0.8 * (1 - gamed) + rng.normal(0, 0.05, steps.size), 0, 1)
    cheap = np.clip(0.1 + 0.9 * gamed + rng.normal(0, 0.03, steps.size), 0, 1)
    rows = [dict(step=int(s), reward=float(t + 2 * c), **{"rewards/in_category/mean": float(t),
                                                          "rewards/letter_o/mean": float(c)})
            for s, t, c in zip(steps, task, cheap, strict=True)]
    finding = detect("REWARD_HACKING", record(tmp_path, rows, logging_steps=3))
    assert finding is not None and finding.severity in ("warn", "critical"), finding
    assert 45 <= finding.first_step <= 90, finding.first_step


def test_zero_advantage_windows_are_steps_not_logged_values(tmp_path: Path):
    """Batch 4 (``zero_advantage_1group_cool_log7``): 105 steps logged every 7 hold 15 values, and
    ZERO_ADVANTAGE_GROUPS asked for 15 *logged values* in a row (its `sustain` of 15 steps), so a run
    whose groups agreed on 86-100 % of every logged step was never judged."""
    rng = np.random.default_rng(11)
    steps = np.arange(7, 106, 7)
    share = rng.choice([6 / 7, 1.0], size=steps.size, p=[0.4, 0.6])
    rows = [dict(step=int(s), reward=float(1.0 - 0.02 * (1 - z) * 7), frac_reward_zero_std=float(z), grad_norm=0.0)
            for s, z in zip(steps, share, strict=True)]
    finding = detect("ZERO_ADVANTAGE_GROUPS", record(tmp_path, rows, logging_steps=7, num_generations=8))
    assert finding is not None and finding.severity in ("warn", "critical"), finding
    assert finding.first_step == 7


def _grad_norm_rises(collapsed: bool, learning: bool = False) -> list[dict[str, Any]]:
    """The gradient norm's level rises ×5 from step 80 and stays there; the entropy either collapsed
    from step 40 (a near-greedy policy) or holds its level; the reward is flat or (``learning``) rises."""
    rng = np.random.default_rng(13)
    steps = np.arange(1, 241)
    grad = np.where(steps < 80, 2.0, 10.0) * np.exp(rng.normal(0, 0.2, steps.size))
    entropy = np.where((steps >= 40) & collapsed, 0.04, 0.4) * np.exp(rng.normal(0, 0.1, steps.size))
    reward = (0.2 + 0.6 * steps / steps.size if learning else np.full(steps.size, 0.5)) + rng.normal(0, 0.05, 240)
    return [dict(step=int(s), grad_norm=float(g), entropy=float(e), reward=float(r), frac_reward_zero_std=0.5)
            for s, g, e, r in zip(steps, grad, entropy, reward, strict=True)]


def test_a_gradient_norm_rising_while_a_collapsed_policy_learns_still_warns(tmp_path: Path):
    """The same rise in a policy that sharpens as its reward climbs is not silenced: an instability
    in a run that learns must still be told."""
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, _grad_norm_rises(True, learning=True)))
    assert finding is not None and finding.severity in ("warn", "critical"), finding


@pytest.mark.parametrize("collapsed", [True, False])
def test_a_gradient_norm_rising_after_the_entropy_collapsed_is_the_collapses_symptom(tmp_path: Path,
                                                                                     collapsed: bool):
    """``stuck_low_temperature`` (batch 2, holdout): a near-greedy policy's few differing completions
    are ones it finds unlikely, and their log-probability gradients are large, so the norm's level
    rose ×4 after the entropy collapsed. That is ENTROPY_COLLAPSE's symptom (info); the same rise with
    the entropy intact is still instability (warn or critical)."""
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, _grad_norm_rises(collapsed)))
    assert finding is not None, finding
    assert (finding.severity == "info") == collapsed, finding
    if collapsed:
        assert "collapsed" in finding.explanation


@pytest.mark.parametrize(("opening", "shrunk"), [(6.0, True), (6.0, False), (200.0, True)])
def test_an_entropy_rise_over_completions_of_a_token_or_two_is_not_noise(tmp_path: Path, opening: float,
                                                                         shrunk: bool):
    """``reward_outage_breaks_policy`` (batch 3): once the answers shrank to one token, the per-token
    entropy measured one decision and swung between 0.01 and 0.7; its median's rise ×1.5 read as
    "sampling is turning to noise". Over a token or two that is info (the shrinking is LENGTH_COLLAPSE's
    finding); the same rise over completions of unchanged length is still an explosion."""
    rng = np.random.default_rng(17)
    steps = np.arange(1, 301)
    entropy = np.where(steps < 150, 0.3, 0.6) * np.exp(rng.normal(0, 0.1, steps.size))
    # Shrunk to a fifth: 1.2 tokens from 6, or 40 from 200 (long enough for noise to show).
    length = np.where((steps >= 100) & shrunk, opening / 5, opening) + rng.normal(0, 0.1, steps.size)
    rows = [dict(step=int(s), entropy=float(e), completion_length=float(n), reward=0.5)
            for s, e, n in zip(steps, entropy, length, strict=True)]
    finding = detect("ENTROPY_EXPLOSION", record(tmp_path, rows))
    assert finding is not None, finding
    assert (finding.severity == "info") == (shrunk and opening / 5 <= 3), finding


@pytest.mark.parametrize("ended", [True, False])
def test_groups_that_agreed_until_the_policy_found_what_pays_are_a_recovered_episode(tmp_path: Path, ended: bool):
    """Batch 5 (``healthy_1x4_scalenone_bnpo_log4``): one group of 4 a step, and for its first 25 steps
    nearly every group failed together; then the policy found right answers, the groups disagreed
    and the reward rose to the end. An episode that ended for good, with the reward rising since, is
    not rated as ongoing (info); the same share at the run's end is a finding."""
    rng = np.random.default_rng(19)
    steps = np.arange(1, 201)
    agree = (steps <= 25) if ended else (steps > 175)
    share = np.where(agree, rng.choice([0.875, 1.0], steps.size), rng.choice([0.0, 0.25, 0.5], steps.size))
    reward = (np.where(steps <= 25, 0.2, 0.2 + 0.6 * np.minimum(1.0, (steps - 25) / 120)) if ended
              else np.full(steps.size, 0.5)) + rng.normal(0, 0.05, steps.size)
    rows = [dict(step=int(s), reward=float(r), frac_reward_zero_std=float(z), reward_std=0.3)
            for s, r, z in zip(steps, reward, share, strict=True)]
    finding = detect("ZERO_ADVANTAGE_GROUPS", record(tmp_path, rows, per_device_train_batch_size=4))
    assert finding is not None, finding
    assert (finding.severity == "info") == ended, finding
    if ended:
        assert "not rated as ongoing" in finding.explanation


def test_gradient_norm_windows_are_steps_in_a_strided_log(tmp_path: Path):
    """Three isolated ×10 spikes 150 steps apart, in a 1000-step run logged every 10 steps: the
    `cluster_window` of 100 steps never holds two of them, so they are no burst. Counted in logged
    values (100 of them, 1000 steps) they were one."""
    rng = np.random.default_rng(23)
    steps = np.arange(10, 1001, 10)
    grad = np.exp(rng.normal(0, 0.1, steps.size))
    grad[np.isin(steps, (300, 450, 600))] = 10.0
    rows = [dict(step=int(s), grad_norm=float(g), reward=float(0.5 + rng.normal(0, 0.02)), frac_reward_zero_std=0.2)
            for s, g in zip(steps, grad, strict=True)]
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, logging_steps=10))
    assert finding is None or "spiked" not in finding.explanation, finding.explanation


def test_logprob_mismatch_windows_are_steps_in_a_strided_log(tmp_path: Path):
    """A sampler that drifts from the trained policy for the last 80 steps of a 300-step run logged every
    10 steps: 8 logged values, short of a `sustain` of 10 counted in logged values, far past its 10 steps."""
    rng = np.random.default_rng(29)
    steps = np.arange(10, 301, 10)
    diff = np.where(steps > 220, 0.12, 0.01) * np.exp(rng.normal(0, 0.1, steps.size))
    rows = [dict(step=int(s), reward=0.5, **{"sampling/sampling_logp_difference/mean": float(d)})
            for s, d in zip(steps, diff, strict=True)]
    finding = detect("LOGPROB_MISMATCH", record(tmp_path, rows, logging_steps=10))
    assert finding is not None and finding.severity in ("warn", "critical"), finding
    assert 200 <= finding.first_step <= 240, finding.first_step


# -- REWARD_PLATEAU: windows in steps, a collapse's floor and a budget's cap are no plateau -------------


def _plateau_rows(steps: np.ndarray, reward: np.ndarray, share: np.ndarray, **extra: float) -> list[dict[str, Any]]:
    return [dict(step=int(s), reward=float(r), frac_reward_zero_std=float(z), reward_std=0.3, **extra)
            for s, r, z in zip(steps, reward, share, strict=True)]


def test_a_plateau_in_a_strided_log_is_judged_in_steps(tmp_path: Path):
    """A reward that never rose, flat while most groups came to agree over the last 200 of 400 steps,
    logged every 8 steps: 50 logged values. Counted in logged values (fewer than 60) it was never judged."""
    rng = np.random.default_rng(31)
    steps = np.arange(8, 401, 8)
    reward = 0.3 + rng.normal(0, 0.01, steps.size)
    share = np.where(steps < 200, 0.3, 0.9)
    finding = detect("REWARD_PLATEAU", record(tmp_path, _plateau_rows(steps, reward, share), logging_steps=8))
    assert finding is not None and finding.severity == "warn", finding
    assert 150 <= finding.first_step <= 260, finding.first_step


def test_a_reward_that_fell_below_its_opening_is_a_collapse_not_a_plateau(tmp_path: Path):
    """The reward fell from 0.5 to 0 and every group then agrees at 0: the signal is dry, but the run
    got worse; REWARD_COLLAPSE reports it, and a plateau warning on top says nothing new."""
    rng = np.random.default_rng(37)
    steps = np.arange(1, 301)
    reward = np.where(steps < 100, 0.5 + rng.normal(0, 0.03, steps.size), 0.0)
    share = np.where(steps < 100, 0.3, 1.0)
    view = record(tmp_path, _plateau_rows(steps, reward, share))
    assert detect("REWARD_PLATEAU", view) is None
    collapse = detect("REWARD_COLLAPSE", view)
    assert collapse is not None and collapse.severity == "critical"


def test_groups_capped_by_the_budget_are_no_plateau_even_when_samples_do_not_say_which_were_cut(tmp_path: Path):
    """Every completion cut by a 3-token budget, groups agreeing on the capped reward; the samples
    carry no ``truncated`` flag (TRL's buffer does not say), so the truncated share of completions
    decides: the budget caps the reward (TRUNCATION_HIGH's business), no plateau."""
    rng = np.random.default_rng(41)
    steps = np.arange(1, 201)
    reward = 0.2 + rng.normal(0, 0.01, steps.size)
    rows = _plateau_rows(steps, reward, np.full(steps.size, 0.9), **{"completions/clipped_ratio": 1.0})
    samples = {int(s): [{"sample_id": f"s{s}-{k}-{i}", "group_id": f"g{s}-{k}", "prompt": f"p{k}",
                         "reward": 0.2 if i or k else 0.4, "advantage": 0.0, "completion": "abc"}
                        for k in range(2) for i in range(4)] for s in steps}
    view = record(tmp_path, rows, samples, max_completion_length=3)
    assert view.samples["truncated"].null_count() == view.samples.height
    assert detect("REWARD_PLATEAU", view) is None
    truncation = detect("TRUNCATION_HIGH", view)
    assert truncation is not None and truncation.severity == "critical"


# -- too short to judge is counted in steps of evidence ------------------------------------------------


def test_a_short_strided_log_of_a_destroyed_policy_is_judged(tmp_path: Path):
    """60 steps logged every 5: 12 values, each the mean of 5 steps. The first averages the update that
    destroyed the policy; from the second the entropy sits at ln(30) and the reward at 0. Counted in
    logged values (fewer than 20) the run was too short for either detector."""
    steps = np.arange(5, 61, 5)
    entropy = np.where(steps == 5, 1.65, 3.4)
    reward = np.where(steps == 5, 0.115, 0.0)
    rows = [dict(step=int(s), entropy=float(e), reward=float(r), frac_reward_zero_std=1.0)
            for s, e, r in zip(steps, entropy, reward, strict=True)]
    view = record(tmp_path, rows, logging_steps=5)
    explosion, collapse = detect("ENTROPY_EXPLOSION", view), detect("REWARD_COLLAPSE", view)
    assert explosion is not None and explosion.severity in ("warn", "critical") and explosion.first_step <= 15
    assert collapse is not None and collapse.severity == "critical" and collapse.first_step <= 15


def test_a_short_log_of_few_values_is_still_too_short(tmp_path: Path):
    """Nine logged values are too few for windows with a shape, whatever the stride."""
    steps = np.arange(10, 91, 10)
    rows = [dict(step=int(s), entropy=1.65 if s == 10 else 3.4) for s in steps]
    assert detect("ENTROPY_EXPLOSION", record(tmp_path, rows, logging_steps=10)) is None


# -- KL_BLOWUP: a steady drift that settled past the critical level while the run learnt -------------------


def _drift_rows(reward_end: float) -> list[dict[str, Any]]:
    rng = np.random.default_rng(43)
    steps = np.arange(15, 241, 15)
    kl = np.minimum(1.0, 0.06 + steps / 90) * np.exp(rng.normal(0, 0.1, steps.size))
    reward = 0.26 + (reward_end - 0.26) * steps / 240 + rng.normal(0, 0.03, steps.size)
    return [dict(step=int(s), kl=float(k), reward=float(r)) for s, k, r in zip(steps, kl, reward, strict=True)]


@pytest.mark.parametrize(("reward_end", "beta", "severity"),
                         [(0.85, 0.2, "info"), (0.26, 0.2, "critical"), (0.85, 0.001, "warn")])
def test_a_kl_drift_that_settles_past_the_critical_level_is_info_only_when_the_penalty_holds_a_learning_run(
        tmp_path: Path, reward_end: float, beta: float, severity: str):
    """The KL drifts to about 1 and holds there for the last 150 of 240 steps. With a strong penalty (beta
    0.2) and the reward rising all the while it is the penalty's balance (info); with a reward that never
    rose the policy is far from its reference for nothing (critical: the severity policy's unpaid drift);
    with a penalty too weak to hold anything (beta 0.001) it is far from its reference, but the reward has
    paid for it so far (warn)."""
    finding = detect("KL_BLOWUP", record(tmp_path, _drift_rows(reward_end), logging_steps=15, beta=beta))
    assert finding is not None and finding.severity == severity, finding


# -- reward regimes: a grader that changed is read from the texts it scores --------------------------------


def _graded_run(tmp_path: Path, score: Any, n: int = 200, broke: bool = False) -> RunView:
    """Four prompts, each answered by its own word (two groups of four a step, every completion a copy of
    its prompt's answer but one); ``score(step, text, rng)`` is what the grader pays. ``broke``: from
    step 100 the policy writes other texts, bar its old answers every tenth step."""
    rng = np.random.default_rng(47)
    rows, samples = [], {}
    for s in range(1, n + 1):
        batch = []
        for k in range(2):
            prompt = f"p{(2 * s + k) % 4}?"
            for i in range(4):
                text = f"w{prompt[1]}" if i else f"x{s % 7}"
                if broke and s >= 100 and s % 10:
                    text = f"y{(s + i) % 5}"
                batch.append({"sample_id": f"{s}-{k}-{i}", "group_id": f"{s}-{k}", "prompt": prompt,
                              "completion": text, "reward": float(score(s, text, rng)), "advantage": 0.0})
        samples[s] = batch
        rows.append(dict(step=s, reward=float(np.mean([b["reward"] for b in batch])), frac_reward_zero_std=0.0))
    return record(tmp_path, rows, samples)


@pytest.mark.parametrize(("name", "expected"), [
    ("rescaled at 120", (120,)),          # a judge on 0-10 swapped for exact match (0/1)
    ("broken for good at 150", (150,)),   # a service answering 0 from then on
    ("out for 40 steps", (80, 120)),      # an outage that ended: two changes
    ("one batch x1000", ()),              # a unit bug in one batch: a spike, not a regime
    ("a coin", ()),                       # a stochastic grader: repeats disagree all the time
    ("the policy broke", ()),             # new texts score 0, the old ones still score 1 when repeated
])
def test_a_change_of_grader_is_read_from_the_scores_of_repeated_texts(tmp_path: Path, name: str, expected: tuple):
    from rlprobe.doctor.facts.regimes import regime_changes

    right = lambda text: text.startswith("w")  # noqa: E731
    graders = {
        "rescaled at 120": lambda s, t, rng: (9.0 if right(t) else 3.0) if s < 120 else float(right(t)),
        "broken for good at 150": lambda s, t, rng: float(right(t)) * (s < 150),
        "out for 40 steps": lambda s, t, rng: float(right(t)) * (not 80 <= s < 120),
        "one batch x1000": lambda s, t, rng: float(right(t)) * (1000.0 if s == 90 else 1.0),
        "a coin": lambda s, t, rng: float(rng.random() < 0.5),
        "the policy broke": lambda s, t, rng: float(right(t)),
    }
    assert regime_changes(_graded_run(tmp_path, graders[name], broke=name == "the policy broke")) == expected


def test_copies_scored_by_a_grader_that_broke_are_judged_in_the_regime_that_paid(tmp_path: Path):
    """Copies of each prompt's right answer, then from step 150 a reward service that answers 0 to
    everything: the copies are convergence (info), not a policy stuck below its best."""
    view = _graded_run(tmp_path, lambda s, t, rng: float(t.startswith("w")) * (s < 150))
    finding = detect("GROUP_MODE_COLLAPSE", view)
    assert finding is None or finding.severity == "info", finding


def test_a_quantised_reward_that_rises_is_no_plateau(tmp_path: Path):
    """One group of two a step: the logged reward is 0.2, 0.7 or 1.2 and the zero-variance share 0 or 1.
    As the right answer is learnt the mean rises from 0.3 to 0.75 while the median holds at 0.2 for a
    long while: the reward's level is its mean over as many steps as the share's (about 20 groups)."""
    rng = np.random.default_rng(53)
    steps = np.arange(1, 301)
    p = 0.1 + 0.5 * steps / 300  # the chance a completion is right
    right = (rng.random((steps.size, 2)) < p[:, None]).sum(axis=1)
    reward = 0.2 + 0.5 * right
    share = (right != 1).astype(float)
    rows = _plateau_rows(steps, reward, share)
    assert detect("REWARD_PLATEAU", record(tmp_path, rows, per_device_train_batch_size=2, num_generations=2)) is None


def test_a_plateau_that_ended_is_no_plateau(tmp_path: Path):
    """Every group agrees on 0 for 30 steps (a reward service out), then the reward is back and rising:
    the run's state at its end is no plateau."""
    rng = np.random.default_rng(59)
    steps = np.arange(1, 211)
    out = (steps >= 77) & (steps < 105)
    reward = np.where(out, 0.0, 0.4 + 0.6 * steps / 210 + rng.normal(0, 0.05, steps.size))
    share = np.where(out, 1.0, 0.1)
    assert detect("REWARD_PLATEAU", record(tmp_path, _plateau_rows(steps, reward, share))) is None


def test_groups_that_came_to_agree_as_the_reward_rose_are_no_plateau_without_samples(tmp_path: Path):
    """No samples: the reward rose from 0.3 to 1.0 and held while the share of agreeing groups rose with
    it to 0.65 (short of most): those groups are solved ones, not a signal that dried up."""
    rng = np.random.default_rng(61)
    steps = np.arange(20, 501, 20)
    rise = np.minimum(1.0, steps / 240)
    reward = 0.3 + 0.75 * rise + rng.normal(0, 0.04, steps.size)
    share = np.clip(0.65 * rise + rng.normal(0, 0.05, steps.size), 0, 1)
    view = record(tmp_path, _plateau_rows(steps, reward, share), logging_steps=20)
    assert detect("REWARD_PLATEAU", view) is None


@pytest.mark.parametrize(("reward_end", "severity"), [(0.9, "info"), (0.1, "warn")])
def test_without_samples_a_gradient_level_that_moved_as_the_run_learnt_is_info(tmp_path: Path, reward_end: float,
                                                                            severity: str):
    """No samples (a trainer_state.json): the logged gradient norm (one step's, every 5) moves from ~1 to
    ~5 at step 120 without a burst of spikes. The reward rose from 0.3 and kept its rise: the norm moved
    as the run learnt (info). The same shift with a reward that fell back is still a warning."""
    rng = np.random.default_rng(67)
    steps = np.arange(5, 251, 5)
    grad = np.where(steps < 120, 1.0, 5.0) * np.exp(rng.normal(0, 0.2, steps.size))
    peak = 0.9
    reward = np.where(steps < 150, 0.3 + (peak - 0.3) * steps / 150,
                      peak + (reward_end - peak) * (steps - 150) / 100) + rng.normal(0, 0.03, steps.size)
    rows = [dict(step=int(s), grad_norm=float(g), reward=float(r), reward_std=0.3)
            for s, g, r in zip(steps, grad, reward, strict=True)]
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, logging_steps=5))
    assert finding is not None and finding.severity == severity, finding


def test_a_kl_that_crossed_the_critical_level_a_few_steps_ago_has_not_settled(tmp_path: Path):
    """Live, 20 steps in: a strong penalty (beta 0.1), the reward rising, and the KL past 1 for six steps.
    A drift is settled only once it has held for a growth window: until then it stays critical."""
    kl = [0.0, 0.09, 0.27, 0.72, 0.82, 0.57, 2.07, 0.88, 0.95, 0.98, 1.79, 1.4, 1.25, 1.16, 1.56, 1.7, 2.05, 1.21,
          1.78, 4.18]
    rows = [dict(step=s + 1, kl=k, reward=-0.2 + 0.03 * s, **{"completions/mean_length": 8.0})
            for s, k in enumerate(kl)]
    finding = detect("KL_BLOWUP", record(tmp_path, rows, beta=0.1, status="running"))
    assert finding is not None and finding.severity == "critical", finding


def test_a_short_regime_goes_with_the_changes_that_opened_and_closed_it():
    from rlprobe.doctor.facts.regimes import _lasting

    assert _lasting([40, 45, 100], 200) == (100,)   # 40-44: a grader that came back five steps later
    assert _lasting([40, 100], 200) == (40, 100)
    assert _lasting([40, 195], 200) == (40,)        # the last regime too short to say anything


def _copies_run(tmp_path: Path, copies: Any, n: int = 200) -> RunView:
    """Two groups of four a step, each of its own prompt; ``copies(step)``: whether a group's completions
    are one text repeated (else four different ones). Every completion earns a pass/fail score whose rate
    holds at 0.5, so the reward neither gains nor loses from the copies."""
    rng = np.random.default_rng(61)
    rows, samples = [], {}
    for s in range(1, n + 1):
        batch = []
        for k in range(2):
            same = copies(s)
            for i in range(4):
                batch.append({"sample_id": f"{s}-{k}-{i}", "group_id": f"{s}-{k}", "prompt": f"p{k}?",
                              "completion": "same answer" if same else f"answer {s} {i}",
                              "reward": float(rng.random() < 0.5), "advantage": 0.0})
        samples[s] = batch
        rows.append(dict(step=s, reward=float(np.mean([b["reward"] for b in batch])), frac_reward_zero_std=0.5))
    return record(tmp_path, rows, samples)


def test_copies_that_ended_for_good_with_the_reward_held_are_info_and_copies_that_came_back_are_not(
        tmp_path: Path):
    """Recovered vs ongoing for GROUP_MODE_COLLAPSE: an episode of copies that ended, after which the
    reward held, cost the run nothing (info); the same episode coming back later did not end."""
    ended = detect("GROUP_MODE_COLLAPSE", _copies_run(tmp_path / "ended", lambda s: 60 <= s < 90))
    assert ended is not None and ended.severity == "info" and "cost the run nothing" in ended.explanation, ended
    back = detect("GROUP_MODE_COLLAPSE", _copies_run(tmp_path / "back", lambda s: 60 <= s < 90 or s >= 150))
    assert back is not None and back.severity != "info" and "cost the run nothing" not in back.explanation, back


def _learnt_copies_run(tmp_path: Path, rising: bool, n: int = 200) -> RunView:
    """Four prompts, two groups of four a step; from step 60 every group is one completion repeated, right
    for three prompts and wrong for the fourth (75 % of the copies at their prompt's best: short of
    convergence's 80 %). ``rising``: the pass rate climbs from 0.2 to 0.75 over steps 40-120 and keeps it;
    else it holds at 0.2 while the same copies appear."""
    rng = np.random.default_rng(67)
    rows, samples = [], {}
    for s in range(1, n + 1):
        rate = 0.2 + 0.55 * min(max((s - 40) / 80, 0.0), 1.0) if rising else 0.2
        batch = []
        for k in range(2):
            prompt = (2 * s + k) % 4
            for i in range(4):
                if s >= 60:
                    right = prompt != 3 if rising else prompt == 3
                    text = f"answer {prompt}" if right else f"wrong {prompt}"
                else:
                    right = bool(rng.random() < rate)
                    text = f"{'answer' if right else 'try'} {prompt} {s} {i}"
                batch.append({"sample_id": f"{s}-{k}-{i}", "group_id": f"{s}-{k}", "prompt": f"p{prompt}?",
                              "completion": text, "reward": float(right), "advantage": 0.0})
        samples[s] = batch
        agree = 1.0 if s >= 60 else 0.3
        rows.append(dict(step=s, reward=float(np.mean([b["reward"] for b in batch])), frac_reward_zero_std=agree))
    return record(tmp_path, rows, samples)


def test_copies_mostly_right_in_a_run_that_learned_are_convergence_and_in_a_stuck_run_are_not(tmp_path: Path):
    """Converged vs stuck for GROUP_MODE_COLLAPSE, decided as for agreeing groups: copies of which at least half
    are right, short of convergence's share, are convergence when the reward rose and kept its rise."""
    learnt = detect("GROUP_MODE_COLLAPSE", _learnt_copies_run(tmp_path / "learnt", rising=True))
    assert learnt is not None and learnt.severity == "info" and "a prompt at a time" in learnt.explanation, learnt
    stuck = detect("GROUP_MODE_COLLAPSE", _learnt_copies_run(tmp_path / "stuck", rising=False))
    assert stuck is not None and stuck.severity != "info", stuck


@pytest.mark.parametrize("with_samples", [False, True])
def test_a_gradient_norm_level_that_rose_as_the_run_learned_is_info_with_samples_or_without(tmp_path: Path,
                                                                                          with_samples: bool):
    """``healthy_cool06_log1`` (batch 9): the norm's level rose ×3 in a run whose reward rose and kept its
    rise. Without samples the reward's progress stood in for convergence; with samples that show none
    (every completion distinct), it must too: the norm moved as the run learnt."""
    rng = np.random.default_rng(71)
    steps = np.arange(1, 241)
    grad = 2.0 * (1 + 3 * np.clip((steps - 80) / 20, 0, 1)) * np.exp(rng.normal(0, 0.2, steps.size))
    reward = 0.2 + 0.6 * np.clip(steps / 160, 0, 1) + rng.normal(0, 0.03, steps.size)
    rows = [dict(step=int(st), grad_norm=float(g), entropy=0.4, reward=float(r), frac_reward_zero_std=0.5)
            for st, g, r in zip(steps, grad, reward, strict=True)]
    samples = {row["step"]: [{"sample_id": f"{row['step']}-{k}-{i}", "group_id": f"{row['step']}-{k}",
                              "prompt": f"p{k}?", "completion": f"answer {row['step']} {k} {i}",
                              "reward": float(i % 2), "advantage": float(i % 2) - 0.5} for k in range(2)
                             for i in range(4)]
               for row in rows} if with_samples else None
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, samples))
    assert finding is not None and finding.severity == "info" and "as the run learnt" in finding.explanation, finding
    assert ("without samples" in finding.explanation) != with_samples


# -- a slow, noisy fall from the run's best (issue 28, batch 12's late RLOO warm-up) ---------------------------


def _noisy_reward(fall: bool, n: int = 180, stride: int = 6) -> list[dict[str, Any]]:
    """8 binary rewards a step, logged every ``stride`` (each log the mean of its steps): the pass rate climbs
    to 0.35 by step 50, then holds it (``fall`` False) or drifts down to 0 from step 90 on."""
    rng = np.random.default_rng(11)
    rows = []
    for step in range(stride, n + 1, stride):
        p = min(0.35, 0.02 + 0.35 * step / 50)
        if fall and step > 90:
            p = max(0.0, 0.35 * (1 - (step - 90) / 70))
        rows.append(dict(step=step, reward=float(rng.binomial(8 * stride, p) / (8 * stride) * rng.choice([0.7, 1.3])),
                         entropy=0.5, loss=0.0))
    return rows


def test_a_slow_noisy_fall_from_the_runs_best_is_a_collapse(tmp_path: Path):
    """A trailing reference follows a noisy reward down; the run's end held against its best tenth is a
    fall no noise explains, dated where the reward left its best."""
    finding = detect("REWARD_COLLAPSE", record(tmp_path, _noisy_reward(fall=True)))
    assert finding is not None and finding.severity in ("warn", "critical"), finding
    assert 90 <= finding.first_step <= 140, finding.first_step
    assert "best" in finding.evidence[0].note


def test_the_same_noise_on_a_held_reward_is_no_collapse(tmp_path: Path):
    assert detect("REWARD_COLLAPSE", record(tmp_path, _noisy_reward(fall=False))) is None


# -- two KL spikes side by side are no drift past the critical level (batch 14's holdout) -------------------------


def _kl_with_two_spikes(drift_to: float, n: int = 200, stride: int = 6) -> list[dict[str, Any]]:
    """KL logged every ``stride`` steps around 0.5 (x0.9-1.1 noise), two adjacent logs of 1.7 and 2.9 at steps
    90-96 and one of 0.9 after them, then a level that drifts to ``drift_to`` by the end; the reward rises from
    0.2 to 0.7 and falls to 0 at step 140 (batch 14's grader change)."""
    rng = np.random.default_rng(8)
    rows = []
    for step in range(stride, n + 1, stride):
        level = 0.5 + max(0.0, drift_to - 0.5) * max(0.0, step - 108) / (n - 108)
        kl = {90: 1.7, 96: 2.9, 102: 0.9}.get(step, level * float(rng.uniform(0.9, 1.1)))
        reward = 0.0 if step >= 140 else 0.2 + 0.5 * min(1.0, step / 100) + float(rng.normal(0, 0.03))
        rows.append(dict(step=step, kl=kl, reward=reward, entropy=0.5, loss=0.0))
    return rows


def test_two_kl_spikes_that_lift_a_median_past_the_critical_level_are_no_drift(tmp_path: Path):
    """A 3-log median over two adjacent spikes sits past 1 for two logs; the level it held is 0.9: the finding
    once said "drifted past the critical level 1 ... and reached 0.88". Never fast, never held past it: no
    blow-up (at most the extreme step's info)."""
    finding = detect("KL_BLOWUP", record(tmp_path, _kl_with_two_spikes(drift_to=0.45), beta=0.04))
    assert finding is None or finding.severity == "info", finding


def test_a_kl_that_drifts_past_the_critical_level_and_holds_it_is_still_found(tmp_path: Path):
    finding = detect("KL_BLOWUP", record(tmp_path, _kl_with_two_spikes(drift_to=2.0), beta=0.04))
    assert finding is not None and finding.severity in ("warn", "critical"), finding


# -- copies a KL penalty in the reward keeps apart (batch 13's healthy RLOO run) ---------------------------------


def _rloo_copies(tmp_path: Path, copies_from: int, n: int = 150) -> RunView:
    """TRL's RLOO with its KL penalty (beta 0.02): 4 groups of 4 a step, prompt k learnt at step 30 + 20k (k < 3),
    prompt 3 never. Once a prompt is learnt its completions are right (1.0); from ``copies_from`` on every
    group repeats one text (the right answer for learnt prompts, one wrong answer for prompt 3) and before it
    they differ. RLOO subtracts the KL penalty before its group statistics, so the logged zero-variance share
    counts shaped rewards and the doctor reads it from the batch's reward std: never 0."""
    rng = np.random.default_rng(21)
    rows, samples = [], {}
    for step in range(1, n + 1):
        flat, agree = [], 0
        for k in range(4):
            learnt = k < 3 and step >= 30 + 20 * k
            right = [learnt or bool(rng.random() < 0.3) for _ in range(4)]
            if step >= copies_from:
                right = [learnt] * 4
                texts = [f"answer{k}" if learnt else f"wrong{k}"] * 4
            else:
                texts = [f"w{step}-{k}-{i}" for i in range(4)]
            rewards = [float(r) for r in right]
            flat += rewards
            agree += len(set(rewards)) == 1
            mean = float(np.mean(rewards))
            samples.setdefault(step, []).extend(
                {"sample_id": f"s{step}-{k}-{i}", "group_id": f"g{step}-{k}", "prompt_id": f"p{k}", "reward": r,
                 "advantage": r - mean, "completion": t, "length": 4, "truncated": False,
                 "reward_components": {"correct": r}}
                for i, (r, t) in enumerate(zip(rewards, texts, strict=True)))
        rows.append(dict(step=step, reward=float(np.mean(flat)), reward_std=float(np.std(flat, ddof=1)),
                         frac_reward_zero_std=agree / 4, entropy=0.5, loss=0.0, learning_rate=1e-3, grad_norm=1.0,
                         kl=0.1, **{"completions/mean_length": 4.0, "completions/clipped_ratio": 0.0,
                                    "rewards/correct/mean": float(np.mean(flat))}))
    return record(tmp_path, rows, samples, algorithm="rloo", beta=0.02, per_device_train_batch_size=16,
                  num_generations=4)


def test_copies_of_learnt_answers_whose_rewards_a_kl_penalty_keeps_apart_are_convergence(tmp_path: Path):
    """Groups of one text are groups that agree, whatever a per-sample KL penalty does to their rewards: most
    copies right, begun while the reward rose and kept its rise, is a policy learning a prompt at a time."""
    finding = detect("GROUP_MODE_COLLAPSE", _rloo_copies(tmp_path, copies_from=40))
    assert finding is not None and finding.severity == "info", finding
    assert "a prompt at a time" in finding.explanation


def test_the_same_copies_after_the_reward_stopped_rising_are_lost_exploration(tmp_path: Path):
    finding = detect("GROUP_MODE_COLLAPSE", _rloo_copies(tmp_path, copies_from=110))
    assert finding is not None and finding.severity in ("warn", "critical"), finding


# -- a noisy reward that stopped rising below its best (batches 13-15's plateaus) --------------------------------


def _stuck_or_learning(learning: bool, n: int = 200) -> list[dict[str, Any]]:
    """Two groups of 4 a step, every step logged: half the prompts are solved from step 40 (their groups all
    right) and the other half fail on most samples (their groups mostly all wrong), so the reward is about
    0.55 with most groups agreeing from there. ``learning``: the failing half keeps being learnt, slowly,
    to the end (the reward climbing from 0.55 towards 0.9)."""
    rng = np.random.default_rng(13)
    rows = []
    for step in range(1, n + 1):
        p_hard = 0.1 + (0.7 * (step - 40) / (n - 40) if learning and step > 40 else 0.0)
        p_easy = 0.3 if step < 40 else 1.0
        groups = [rng.random(4) < p for p in (p_easy, p_hard)]
        flat = np.concatenate(groups).astype(float)
        rows.append(dict(step=step, reward=float(flat.mean()), reward_std=float(flat.std(ddof=1)),
                         frac_reward_zero_std=float(np.mean([g.all() or not g.any() for g in groups])),
                         entropy=0.5, loss=0.0, learning_rate=1e-3, grad_norm=1.0))
    return rows


def test_a_noisy_reward_stuck_below_its_best_with_groups_agreeing_is_a_plateau(tmp_path: Path):
    """Its smoothed level wanders more than the 5 % a plateau may gain, which once kept the finding away
    until the end of the run; the trend of its logged values over the window says it does not rise."""
    finding = detect("REWARD_PLATEAU", record(tmp_path, _stuck_or_learning(learning=False)))
    assert finding is not None and finding.severity == "warn", finding
    assert finding.first_step <= 100, finding.first_step


def test_the_same_noise_while_the_reward_still_climbs_is_no_plateau(tmp_path: Path):
    assert detect("REWARD_PLATEAU", record(tmp_path, _stuck_or_learning(learning=True))) is None


def test_a_kl_drift_that_crossed_the_critical_level_in_the_last_logs_is_not_critical(tmp_path: Path):
    """Batch 16 (``healthy_partial_rloo_2x4_temp08_nosamples_log4``): a KL drifting from 0.3 to 1.06, past 1 only
    on the last 4 of 38 logs, while the reward rose: a steady drift has not shown it holds past the critical
    level, and too little is logged since to say the reward did not pay: at most warn. The same drift past the
    level from step 60 is still reported."""
    def rows(cross_at: int, n: int = 152) -> list[dict[str, Any]]:
        rng = np.random.default_rng(3)
        return [dict(step=s, kl=float((0.3 + 0.7 * s / cross_at) * rng.uniform(0.95, 1.05)),
                     reward=float(0.4 + 0.5 * min(1.0, s / 100) + rng.normal(0, 0.02)), entropy=0.5, loss=0.0)
                for s in range(4, n + 1, 4)]
    late = detect("KL_BLOWUP", record(tmp_path / "late", rows(cross_at=136), beta=0.05))
    assert late is not None and late.severity == "warn", late
    early = detect("KL_BLOWUP", record(tmp_path / "early", rows(cross_at=60), beta=0.05))
    assert early is not None and early.severity in ("warn", "critical"), early


@pytest.mark.parametrize("after", ["back for good", "stays past it", "back, then past it again"])
def test_a_steady_kl_drift_that_came_back_for_good_is_an_episode_that_ended(tmp_path: Path, after: str):
    """A run whose grader changed at step 110 after it learned (the reward to 0): its KL drifted up as it
    learned (0.3 to 0.65, never fast), its median went past the critical level for 15 steps, and then came
    back to 0.5 for the 75 steps to the end. Past the level it did not stay: an episode that ended, info.
    The same drift that stays past the level to the end, or comes back past it, is still a blow-up."""
    rng = np.random.default_rng(5)
    steps = np.arange(1, 201)
    kl = 0.3 + 0.35 * np.minimum(1.0, steps / 100)
    kl = np.where((steps > 110) & (steps <= 125), 1.3, kl)
    if after == "back for good":
        kl = np.where(steps > 125, 0.5, kl)
    elif after == "stays past it":
        kl = np.where(steps > 125, 1.3, kl)
    else:
        kl = np.where(steps > 125, np.where(steps > 170, 1.3, 0.5), kl)
    kl = kl * np.exp(rng.normal(0.0, 0.15, steps.size))
    reward = np.where(steps <= 110, 0.2 + 0.5 * np.minimum(1.0, steps / 80), 0.0) + rng.normal(0.0, 0.03, steps.size)
    rows = [dict(step=int(s), kl=float(k), reward=float(r), **{"completions/mean_length": 6.0})
            for s, k, r in zip(steps, kl, reward, strict=True)]
    finding = detect("KL_BLOWUP", record(tmp_path, rows, beta=0.01))
    assert finding is not None
    if after == "back for good":
        assert finding.severity == "info", finding
        assert "came back under" in finding.explanation
    else:
        assert finding.severity != "info", finding


@pytest.mark.parametrize("after", ["back for good", "goes on", "back, then cut again", "cut twice, then back for good"])
def test_truncation_that_ended_for_good_is_an_episode_that_ended(tmp_path: Path, after: str):
    """An entropy rise early in a run (steps 18-60) lets a third to a half of the completions run into a
    12-token budget; then they shorten and none is cut for the 60 steps to the end. The episode is over:
    info, as for every detector (recovered vs ongoing, decided once). Still cut at the end, or cut
    again after a pause, it is a warning. Cut twice (steps 18-45 and 61-75, batch 33's early-letter run)
    and then never for as long again as both lasted, it ended at its last exit: info."""
    rng = np.random.default_rng(8)
    steps = np.arange(1, 121 if after != "cut twice, then back for good" else 151)
    cut = np.where((steps >= 18) & (steps <= 60), 0.4, 0.0)
    if after == "goes on":
        cut = np.where(steps >= 18, 0.4, 0.0)
    elif after == "back, then cut again":
        cut = np.where(steps >= 100, 0.4, cut)
    elif after == "cut twice, then back for good":
        cut = np.where(((steps >= 18) & (steps <= 45)) | ((steps >= 61) & (steps <= 75)), 0.4, 0.0)
    cut = np.clip(cut + rng.normal(0.0, 0.05, steps.size) * (cut > 0), 0.0, 1.0)
    rows = [dict(step=int(s), reward=0.5, **{"completions/clipped_ratio": float(c),
                                             "completions/mean_length": 6.0 + 5.0 * float(c)})
            for s, c in zip(steps, cut, strict=True)]
    finding = detect("TRUNCATION_HIGH", record(tmp_path, rows, max_completion_length=12))
    assert finding is not None and abs(finding.first_step - 18) <= 5, finding
    if after in ("back for good", "cut twice, then back for good"):
        assert finding.severity == "info" and "came back under" in finding.explanation, finding
    else:
        assert finding.severity == "warn", finding


# -- converged on what it can learn, or dried up short of the goal (batches 21-25) --------------------------------


def _prompt_groups(tmp_path: Path, right: Callable[[int, int], float], n: int, seed: int,
                   with_samples: bool = True) -> RunView:
    """Two groups of 4 a step over 8 prompts, every step logged (with samples unless ``with_samples`` is False: a
    trainer_state.json): a completion of prompt ``p`` at ``step`` is right (1) with probability ``right(step, p)``,
    else wrong (0)."""
    rng = np.random.default_rng(seed)
    rows, samples = [], {}
    for step in range(1, n + 1):
        prompts = rng.choice(8, size=2, replace=False)
        group_rewards = [rng.random(4) < right(step, int(p)) for p in prompts]
        flat = np.concatenate(group_rewards).astype(float)
        rows.append(dict(step=step, reward=float(flat.mean()), reward_std=float(flat.std(ddof=1)),
                         frac_reward_zero_std=float(np.mean([g.all() or not g.any() for g in group_rewards])),
                         entropy=0.5, loss=0.0, learning_rate=1e-3, grad_norm=1.0))
        samples[step] = [{"sample_id": f"s{step}-{k}-{i}", "group_id": f"g{step}-{k}", "prompt": f"p{p}",
                          "reward": float(r), "advantage": 0.0, "completion": "right" if r else f"wrong {i}"}
                         for k, (p, rewards) in enumerate(zip(prompts, group_rewards, strict=True))
                         for i, r in enumerate(rewards)]
    return record(tmp_path, rows, samples if with_samples else None)


def _learnable(tmp_path: Path, learnable: int, with_samples: bool = True) -> RunView:
    """200 steps of ``_prompt_groups``: the ``learnable`` prompts are learnt over the first 60 steps (a
    completion right with a probability rising from 0.3 to 1) and then solved, the others never. The reward
    then sits at ``learnable`` / 8, every group agreeing."""
    return _prompt_groups(tmp_path, lambda step, p: min(1.0, 0.3 + 0.7 * step / 60) if p < learnable else 0.0,
                          n=200, seed=17, with_samples=with_samples)


def test_groups_agreeing_on_six_of_eight_prompts_solved_are_convergence_not_a_plateau(tmp_path: Path):
    """Batch 21's healthy runs: a run that solved three quarters of its prompts and cannot learn the rest has
    converged on what it can learn. Under ``CONVERGED_SHARE`` (0.8, copies of right answers) it read as a
    signal dried up short of the goal; half the prompts solved still is one."""
    assert detect("REWARD_PLATEAU", _learnable(tmp_path / "six", learnable=6)) is None
    half = detect("REWARD_PLATEAU", _learnable(tmp_path / "four", learnable=4))
    assert half is not None and half.severity == "warn", half


def test_without_samples_groups_agreeing_at_half_the_reward_range_are_a_plateau(tmp_path: Path):
    """Batches 14, 21 and 24's half-key plateaus read from trainer_state.json: the reward rose as the learnable
    prompts were learnt, then held while every group agreed, which read as convergence. Where the reward holds
    in its range says how many agreeing groups are solved: half the prompts at half the range is a plateau,
    three quarters near the top is convergence on what it can learn."""
    six, four = (_learnable(tmp_path / str(k), learnable=k, with_samples=False) for k in (6, 4))
    assert solved_by_level(six, 118, 200) >= PLATEAU_CONVERGED > solved_by_level(four, 118, 200)
    half = detect("REWARD_PLATEAU", four)
    assert half is not None and half.severity == "warn", half


#: Batch 35's coin-reward run (four groups of 2 a step, logged every 7): its logged reward (56 completions a log)
#: and zero-variance share (28 groups a log), in 56ths and 28ths.
_COIN_REWARD = np.array([24, 27, 27, 28, 26, 31, 23, 31, 22, 24, 23, 28, 27, 27, 25, 35, 35, 24, 20, 28, 18]) / 56
_COIN_SHARE = np.array([12, 15, 9, 16, 16, 17, 15, 13, 12, 16, 15, 18, 13, 11, 13, 17, 13, 18, 16, 16, 20]) / 28


@pytest.mark.parametrize("agreeing", ["as by chance", "all but a few"])
def test_groups_agreeing_no_more_than_chance_are_no_dried_up_signal(tmp_path: Path, agreeing: str):
    """A reward that says nothing (a fair coin per completion) with groups of 2: a pair agrees half the time,
    and the share's last logs at 0.57-0.71 read as a signal that dried up. It is what a reward paying at
    random at its rate gives (0.5 expected): no plateau. The same flat reward with nearly every group
    agreeing is one."""
    steps = np.arange(7, 148, 7)
    share = _COIN_SHARE if agreeing == "as by chance" else np.where(steps > 50, 27 / 28, _COIN_SHARE)
    view = record(tmp_path, _plateau_rows(steps, _COIN_REWARD, share), logging_steps=7, num_generations=2)
    finding = detect("REWARD_PLATEAU", view)
    assert (finding is None) == (agreeing == "as by chance"), finding


# -- an entropy rise slower than the trailing reference's gap (batches 15, 24 and 25's letter soup) ----------------


def _entropy_rows(knots: tuple[list[int], list[float]], n: int = 120) -> list[dict[str, Any]]:
    """120 steps, every one logged: entropy along the piecewise-linear ``knots`` (steps, levels), 5 % noise."""
    rng = np.random.default_rng(23)
    steps = np.arange(1, n + 1)
    entropy = np.interp(steps, *knots) * np.exp(rng.normal(0, 0.05, n))
    return [dict(step=int(s), entropy=float(e), reward=float(0.3 + rng.normal(0, 0.03)), loss=0.0)
            for s, e in zip(steps, entropy, strict=True)]


def test_an_entropy_rise_slower_than_the_reference_gap_is_an_explosion(tmp_path: Path):
    """On a 120-step run the trailing reference ends 12 steps back: a rise that goes on longer enters it, and
    the ratio to it (how fast the entropy climbs) never reached 1.8x, though the entropy rose 2.7-2.9x from the
    level it left: letter soup from 0.55 to 1.6 in two stages over 45 steps (as batches 15, 24 and 25's runs
    did), or 0.55 to 1.5 over 60 steps. Noise about a steady level is still nothing."""
    for name, knots in (("stages", ([1, 3, 10, 25, 45, 120], [0.55, 0.6, 1.0, 1.1, 1.6, 1.6])),
                        ("slow", ([1, 10, 70, 120], [0.55, 0.55, 1.5, 1.5]))):
        finding = detect("ENTROPY_EXPLOSION", record(tmp_path / name, _entropy_rows(knots)))
        assert finding is not None and finding.severity == "warn", (name, finding)
        assert finding.first_step <= 40, (name, finding.first_step)
    assert detect("ENTROPY_EXPLOSION", record(tmp_path / "steady", _entropy_rows(([1, 120], [0.55, 0.55])))) is None


# -- GRAD_NORM_SPIKE: one bad batch beside a level that moved with the run; a strided log's silent opening ---------


def test_one_extreme_step_is_reported_where_the_norms_level_moved_with_the_run(tmp_path: Path):
    """Batch 25's unit bug: the norm's level rose x8 as the run learnt (info), and one batch scored x1000 gave a
    norm of 16,000 at step 130. The level shift was the finding, dated 50, and the one bad batch went unsaid."""
    rng = np.random.default_rng(5)
    level = {s: (1.0 if s <= 45 else 8.0) * float(np.exp(rng.normal(0, 0.3))) for s in range(5, 201, 5)}
    rows = [dict(step=s, grad_norm=16000.0 if s == 130 else level[s],
                 reward=float(0.2 + 0.6 * min(1.0, s / 80) + rng.normal(0, 0.03)), frac_reward_zero_std=0.3, kl=0.1,
                 entropy=0.5, loss=0.0) for s in range(5, 201, 5)]
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, logging_steps=5))
    assert finding is not None and finding.first_step == 130 and finding.severity == "info", finding


def test_a_strided_logs_opening_on_agreeing_groups_is_no_reference_for_the_norms_level(tmp_path: Path):
    """Batch 25 (logged every 2 steps): TRL averages the share of agreeing groups over the window but logs the
    last step's norm, so the opening logs (share 0.75) ended on steps where every group agreed and the norm was
    the KL term's, 0.001-0.01. Against them the first step with a policy gradient read as a level x180, critical
    because the run later collapsed for another reason."""
    rng = np.random.default_rng(7)
    rows = []
    for s in range(2, 161, 2):
        norm, share = (0.001 * (1 + s), 0.75) if s <= 8 else (2.0 * np.exp(rng.normal(0, 0.3)), 0.5) if s <= 100 \
            else (0.005, 1.0)
        reward = 0.05 if s <= 8 else 0.1 + 0.7 * min(1.0, s / 60) + rng.normal(0, 0.03) if s <= 100 else 0.0
        rows.append(dict(step=s, grad_norm=float(norm), reward=float(reward), frac_reward_zero_std=share,
                         kl=0.01 * min(s, 50), entropy=0.5, loss=0.0))
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, logging_steps=2))
    assert finding is None or finding.severity == "info", finding


# -- an entropy fall while the run converges a prompt at a time, read without samples (batch 27) -----------------


def test_entropy_falling_as_most_groups_come_to_agree_with_the_reward_is_convergence_without_samples(tmp_path: Path):
    """A judge score learnt from 7 to 9.5 over 150 steps logged every 6, the share of agreeing groups rising with
    it from 0.3 to 0.75 and the entropy falling from 0.28 to 0.07 as the last prompts are learnt. Without samples
    convergence asked for 80 % of the groups agreeing, and the fall read as an exploration ceiling (warn); most
    groups agreeing as the reward rose and kept its rise is a policy converging a prompt at a time."""
    rng = np.random.default_rng(11)
    steps = np.arange(6, 151, 6)
    done, knots = np.clip(steps / 120, 0.0, 1.0), [6, 40, 84, 100, 150]
    rows = [dict(step=int(s), reward=float(7.0 + 2.5 * d + rng.normal(0, 0.3)),
                 frac_reward_zero_std=float(np.clip(0.3 + 0.45 * d + rng.normal(0, 0.08), 0, 1)),
                 entropy=float(np.interp(s, knots, [0.4, 0.28, 0.28, 0.07, 0.06]) * np.exp(rng.normal(0, 0.08))),
                 grad_norm=float(np.exp(rng.normal(0.5, 0.5))), loss=0.0) for s, d in zip(steps, done, strict=True)]
    finding = detect("ENTROPY_COLLAPSE", record(tmp_path, rows, logging_steps=6))
    assert finding is not None and finding.severity == "info", finding


@pytest.mark.parametrize("reward", ["rose and held", "a coin"])
def test_entropy_falling_while_the_logged_share_counts_no_agreeing_group_is_judged_by_the_reward(tmp_path: Path,
                                                                                             reward: str):
    """Batches 25, 28 and 34's partial credit with groups of 6, read without samples: as the policy converges its
    groups repeat 1.2 (1 + 0.2), whose float32 mean is inexact, and TRL's frac_reward_zero_std reads 0 to the end
    while the entropy falls to a sixth. The share cannot say whether such groups agree; the reward rose from 0.3
    to 1.15 and held: convergence (info). A coin that pays whatever is said never rose: not convergence."""
    rng = np.random.default_rng(5)
    steps = np.arange(8, 241, 8)
    done = np.clip(steps / 150, 0.0, 1.0)
    level = 0.3 + 0.85 * done if reward == "rose and held" else np.full(steps.size, 0.5)
    rows = [dict(step=int(s), reward=float(r + rng.normal(0, 0.03)), reward_std=0.3,
                 frac_reward_zero_std=float(0.3 * (1 - d) if reward == "rose and held" else 0.03),
                 entropy=float(np.interp(s, [8, 90, 130, 240], [0.45, 0.42, 0.08, 0.07]) * np.exp(rng.normal(0, 0.05))),
                 loss=0.0)
            for s, r, d in zip(steps, level, done, strict=True)]
    finding = detect("ENTROPY_COLLAPSE", record(tmp_path, rows, logging_steps=8))
    assert finding is not None, reward
    assert (finding.severity == "info") == (reward == "rose and held"), finding


def test_a_plateau_after_a_stretch_the_reward_rose_from_is_still_found(tmp_path: Path):
    """Batch 26's half key: two of eight prompts learnt by step 40, two more over steps 150-170, the other four
    never. The reward held 0.25 with most groups agreeing, rose, and held 0.5 from step 170 to 300. The first
    stretch was rightly no plateau (the reward rose from it), and the search stopped there."""
    def right(step: int, p: int) -> float:
        early, late = min(1.0, 0.3 + 0.7 * step / 40), float(np.clip(0.05 + 0.95 * (step - 150) / 20, 0.05, 1.0))
        return early if p < 2 else late if p < 4 else 0.0

    finding = detect("REWARD_PLATEAU", _prompt_groups(tmp_path, right, n=300, seed=19))
    assert finding is not None and finding.severity == "warn", finding
    assert 150 <= finding.first_step <= 240, finding.first_step  # after the rise, within its 75-step windows


@pytest.mark.parametrize(("stride", "silent"), [(5, (40, 110, 135)), (7, (70, 77, 91, 133))])
def test_one_extreme_step_is_reported_in_a_log_too_short_for_an_episode(tmp_path: Path, stride: int,
                                                                       silent: tuple[int, ...]):
    """Batches 30 and 31's unit bugs: 150 steps logged every 5, three of them with every group agreeing (no
    policy gradient, left out), leave 27 logged norms, too few for a burst or a level shift; the x3000 step
    at 75 went unsaid, though one extreme step needs only the steps around it. Batch 33's, logged every 7
    with four such steps, leaves 17: still enough points either side of one."""
    rng = np.random.default_rng(29)
    rows = []
    for s in range(stride, 151, stride):
        agreed = s in silent
        norm = 1300.0 if s == 15 * stride else 0.002 if agreed else float(0.4 * np.exp(rng.normal(0, 0.5)))
        rows.append(dict(step=s, grad_norm=norm, reward=float(0.4 + 0.4 * s / 150 + rng.normal(0, 0.03)),
                         frac_reward_zero_std=1.0 if agreed else 0.2, kl=0.05, entropy=0.5, loss=0.0))
    finding = detect("GRAD_NORM_SPIKE", record(tmp_path, rows, logging_steps=stride))
    assert finding is not None and finding.first_step == 15 * stride and finding.severity == "info", finding
