"""The one severity policy (``facts/severity.py``): severity from the harm the run shows and from
what the statistic's own noise allows, decided once for every detector."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from test_dynamics_detectors import detect, view_of

from rlprobe.doctor.facts.severity import Harm, agreement_by_chance, decide, gradient_kept, harm_seen

DETECTORS = Path(__file__).resolve().parents[2] / "packages" / "rlprobe-doctor" / "src" / "rlprobe" / "doctor" \
    / "detectors"
N = 200


def _binary_rewards(p: np.ndarray, completions: int, groups: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(reward mean, share of groups whose ``completions`` pass/fail rewards all agree) a step, for
    ``groups`` groups a step whose completions pass with probability ``p`` (per step)."""
    rng = np.random.default_rng(seed)
    passed = rng.random((p.size, groups, completions)) < p[:, None, None]
    agree = passed.all(axis=2) | (~passed).all(axis=2)
    return passed.mean(axis=(1, 2)), agree.mean(axis=1)


def _zero_std_view(p: np.ndarray, completions: int, groups: int, seed: int = 0):
    reward, share = _binary_rewards(p, completions, groups, seed)
    config = {"num_generations": completions, "per_device_train_batch_size": completions * groups,
              "logging_steps": 1}
    return view_of(trainer_config=config, reward=reward, frac_reward_zero_std=share,
                   grad_norm=np.where(share >= 1.0, 0.0, 0.3))


# -- the decision ---------------------------------------------------------------------------------------------

def _learning(n: int = N):
    rng = np.random.default_rng(1)
    return view_of(reward=np.minimum(np.arange(n) / 100, 1.0) * 0.6 + 0.2 + rng.normal(0, 0.02, n))


def _falling(n: int = N):
    rng = np.random.default_rng(2)
    return view_of(reward=np.where(np.arange(n) < 100, 0.8, 0.1) + rng.normal(0, 0.02, n))


def test_a_strong_symptom_is_critical_only_with_harm_the_run_shows():
    learning, falling = _learning(), _falling()
    assert decide(learning, "ENTROPY_COLLAPSE", 100, strong=True).severity == "warn"
    judged = decide(falling, "ENTROPY_COLLAPSE", 90, strong=True)
    assert judged.severity == "critical" and "the reward fell from 0.7" in judged.why


def test_cannot_tell_benign_noise_and_caps_lower_the_severity():
    falling, sig = _falling(), "ENTROPY_COLLAPSE"
    assert decide(falling, sig, 90, strong=True, missing="no reward is logged").severity == "info"
    assert "Cannot tell" in decide(falling, sig, 90, strong=True, missing="no reward is logged").why
    assert decide(falling, sig, 90, strong=True, benign=True).severity == "info"
    assert decide(falling, sig, 90, strong=True, cap="warn").severity == "warn"
    assert decide(falling, sig, 90, strong=False).severity == "warn"
    # A symptom that is itself the harm needs no other; a signature never critical stays under it.
    assert decide(_learning(), "TRUNCATION_HIGH", 100, strong=True).severity == "critical"
    assert decide(falling, "REWARD_PLATEAU", 90, strong=True).severity == "warn"


def test_every_detector_has_a_row_of_the_policy():
    from rlprobe.doctor.catalog import registry
    from rlprobe.doctor.facts.severity import POLICY

    assert set(registry()) == set(POLICY)


def test_the_harms_read_from_the_run():
    n = N
    at_budget = view_of(reward=np.full(n, 0.5), truncated_frac=np.where(np.arange(n) >= 100, 0.9, 0.0))
    assert harm_seen(at_budget, (Harm.DEGENERATE,), 100).harm is Harm.DEGENERATE
    assert harm_seen(at_budget, (Harm.DEGENERATE,), 0, 90) is None
    # A reward stuck on one value with no gradient: nothing can be learnt, wherever that value lies.
    stuck = view_of(reward=np.full(n, 0.5), reward_std=np.zeros(n), grad_norm=np.zeros(n))
    assert harm_seen(stuck, (Harm.GRADIENT,), 0).harm is Harm.GRADIENT
    # Solved prompts give no gradient either, and that is no harm: the reward is at its best.
    rng = np.random.default_rng(3)
    solved = view_of(reward=np.clip(0.95 + rng.normal(0, 0.03, n), 0, 1), grad_norm=np.zeros(n))
    assert harm_seen(solved, (Harm.GRADIENT, Harm.OBJECTIVE), 0) is None
    # A run that learned its reward while most groups agreed from the start has its gradient, not lost it:
    # no harm while the groups agree no more than they did then; when the share giving one halves, it is.
    steps = np.arange(n)
    climbing = np.minimum(steps / 150, 1.0) * 0.35 + 0.2 + rng.normal(0, 0.02, n)
    level = view_of(reward=climbing, frac_reward_zero_std=np.full(n, 0.75) + rng.normal(0, 0.02, n))
    assert gradient_kept(level, 100, n - 1) is not None
    assert harm_seen(level, (Harm.GRADIENT,), 100) is None
    lost = view_of(reward=climbing, frac_reward_zero_std=np.where(steps >= 100, 0.95, 0.75))
    assert gradient_kept(lost, 100, n - 1) is None
    assert harm_seen(lost, (Harm.GRADIENT,), 100).harm is Harm.GRADIENT
    flat = view_of(reward=0.3 + rng.normal(0, 0.02, n), frac_reward_zero_std=np.full(n, 0.75))
    assert gradient_kept(flat, 100, n - 1) is None  # the run never learned with that level
    drifting = view_of(reward=0.3 + rng.normal(0, 0.02, n), kl=np.linspace(0, 5, n))
    assert harm_seen(drifting, (Harm.DRIFT,), 100).harm is Harm.DRIFT
    assert harm_seen(_learning(), (Harm.DRIFT,), 20) is None


# -- chance ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("completions", [2, 4])
def test_chance_is_what_a_pass_fail_reward_gives_a_group_of_g(completions: int):
    p = np.full(N, 0.27)
    view = _zero_std_view(p, completions, groups=4)
    share = view.series("frac_reward_zero_std")
    chance = agreement_by_chance(view, share, view.step, 50, 150, completions=completions, groups_per_value=4,
                                 per_step=False)
    assert chance is not None
    reward = float(np.mean(view.series("reward_mean")[50:151]))
    assert chance.expected == pytest.approx(reward ** completions + (1 - reward) ** completions)
    assert chance.trials == 101 * 4 and not chance.stands_out and chance.explains
    if completions == 2:
        assert chance.said().startswith("expected by chance with 2 completions a group: 6")


def test_a_share_of_steps_where_every_group_agreed_counts_steps():
    view = _zero_std_view(np.full(N, 0.5), 2, groups=1)
    chance = agreement_by_chance(view, view.series("frac_reward_zero_std"), view.step, 0, N - 1, completions=None,
                                 groups_per_value=None, per_step=True)
    assert chance is not None and chance.assumed and chance.unit == "logged steps" and chance.trials == N
    assert "assumed" in chance.said()


def test_no_chance_for_a_reward_that_is_not_pass_fail():
    rng = np.random.default_rng(4)
    view = view_of(reward=rng.normal(3.0, 0.5, N), frac_reward_zero_std=np.full(N, 0.9))
    assert agreement_by_chance(view, view.series("frac_reward_zero_std"), view.step, 0, N - 1, completions=2,
                               groups_per_value=4, per_step=False) is None


def _old_keys_view(p: float, completions: int, seed: int = 0):
    """TRL 0.14's key set (no ``frac_reward_zero_std``, no config): one group a step, whose
    ``reward_std`` is 0 when its ``completions`` pass/fail rewards agree."""
    reward, share = _binary_rewards(np.full(N, p), completions, groups=1, seed=seed)
    return view_of(reward=reward, reward_std=np.where(share >= 1.0, 0.0, 0.5),
                   grad_norm=np.where(share >= 1.0, 0.0, 0.3))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("completions", [2, 4])
def test_zero_advantage_groups_by_chance_draw_no_alarm_and_a_stuck_run_is_critical(completions: int, seed: int):
    """G = 2 and G = 4 with a 0/1 reward, one group a step, in TRL 0.14's key set. With two
    completions a group and a 27 % pass rate, 61 % of groups agree by chance: the share of agreeing
    steps, smoothed by a trailing median, crosses the level, and that is told at info, saying what
    chance gives. With four, groups agree a third of the time at a 75 % pass rate, and nothing is
    said. A run whose reward never leaves 0 is critical: nothing it does can be learnt from."""
    p = 0.27 if completions == 2 else 0.75
    by_chance = detect("ZERO_ADVANTAGE_GROUPS", _old_keys_view(p, completions, seed=seed))
    if completions == 2:
        assert by_chance is not None, "the trailing median of a 0/1 series crosses the level: the case under test"
        assert by_chance.severity == "info", by_chance.explanation
        assert "no more than chance" in by_chance.explanation and "expected by chance" in by_chance.evidence[0].note
    else:
        assert by_chance is None, by_chance.explanation
    stuck = detect("ZERO_ADVANTAGE_GROUPS", _old_keys_view(0.0, completions))
    assert stuck is not None and stuck.severity == "critical", stuck


# -- every detector goes through it ------------------------------------------------------------------------

def _critical_literals(tree: ast.AST) -> list[int]:
    """Lines where a detector decides "critical" itself: the literal anywhere but in a ``cap=`` of
    ``decide`` or an episode's ``capped`` (which only lower a ceiling), or in a comparison (which
    reads a severity decided already)."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            allowed.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            inside = [kw.value for kw in node.keywords if kw.arg == "cap"] if name == "decide" else \
                list(node.args) if name == "capped" else []
            for part in inside:
                allowed.update(id(n) for n in ast.walk(part))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value == "critical" and id(node) not in allowed]


@pytest.mark.parametrize("module", sorted(p.name for p in DETECTORS.glob("*.py") if p.name != "__init__.py"))
def test_no_detector_sets_critical_from_a_level_of_its_own(module: str):
    lines = _critical_literals(ast.parse((DETECTORS / module).read_text("utf-8")))
    assert not lines, f"{module}: 'critical' decided outside facts.severity.decide at lines {lines}"


def test_a_share_of_too_few_groups_cannot_be_told_from_chance_and_says_so():
    from rlprobe.doctor.facts.severity import Chance

    few = Chance(expected=0.5, observed=1.0, trials=6, completions=2, assumed=True, windows=1, reward=0.5)
    judged = decide(_falling(), "ZERO_ADVANTAGE_GROUPS", 90, strong=True, chance=few)
    assert judged.severity == "info" and "Cannot tell this from chance" in judged.why and "only 6 groups" in judged.why


def test_without_a_reward_a_strong_symptom_warns_and_says_what_it_cannot_tell():
    rng = np.random.default_rng(5)
    judged = decide(view_of(entropy=1.0 + rng.normal(0, 0.01, N)), "ENTROPY_COLLAPSE", 100, strong=True)
    assert judged.severity == "warn" and "logs no reward" in judged.why


def test_with_samples_chance_reads_each_prompt_s_own_pass_rate():
    """Two prompts a step, groups of two: one prompt passed 90 % of the time, the other 10 %. The
    pooled pass rate is a half, whose groups agree half the time; each prompt's own rate makes them
    agree 82 % of the time, and that is what chance gives these groups (a group's own completions
    left out of its prompt's rate, so that it does not explain itself)."""
    import polars as pl

    from rlprobe.doctor.view import RunView

    rng = np.random.default_rng(6)
    rows = []
    for step in range(N):
        for g, (prompt, rate) in enumerate((("easy?", 0.9), ("hard?", 0.1))):
            for i in range(2):
                rows.append({"step": step, "group_id": f"{step}-{g}", "prompt": prompt, "completion": "x",
                             "reward": float(rng.random() < rate), "sample_id": f"{step}-{g}-{i}"})
    samples = pl.DataFrame(rows)
    reward = samples.group_by("step").agg(pl.col("reward").mean()).sort("step")["reward"].to_numpy()
    agree = samples.group_by("step", "group_id").agg(same=pl.col("reward").n_unique() == 1) \
        .group_by("step").agg(pl.col("same").mean()).sort("step")["same"].to_numpy()
    view = RunView(pl.DataFrame({"step": np.arange(N), "reward_mean": reward, "frac_reward_zero_std": agree}),
                   samples)
    chance = agreement_by_chance(view, agree, view.step, 0, N - 1, completions=2, groups_per_value=2,
                                 per_step=False)
    assert chance is not None and chance.per_prompt
    assert chance.expected == pytest.approx(0.82, abs=0.03) and chance.explains
    assert "each prompt's own pass rate" in chance.said()


def test_a_run_too_short_to_judge_says_so_at_info_and_only_after_the_fact():
    """Twelve steps logged every step: the level detectors stay silent, and the one finding says why,
    at info, with the counts; a long enough run, or a live diagnosis (every watched run starts short),
    draws none."""
    from rlprobe.doctor.catalog import diagnose_view

    rng = np.random.default_rng(7)
    short = view_of(reward=rng.random(12), entropy=np.linspace(1.0, 0.01, 12))
    [said] = [f for f in diagnose_view(short) if f.signature_id == "TOO_SHORT_TO_JUDGE"]
    assert said.severity == "info" and "12 logged values" in said.explanation and "10 values" in said.explanation
    assert not [f for f in diagnose_view(view_of(reward=rng.random(12)), live=True)
                if f.signature_id == "TOO_SHORT_TO_JUDGE"]
    assert not [f for f in diagnose_view(_learning()) if f.signature_id == "TOO_SHORT_TO_JUDGE"]


def test_the_printed_confidence_is_the_calibration_s_share_right(monkeypatch):
    """A warn or critical finding's confidence is the share right of its raw-strength bin (the fitted
    table, non-decreasing); info keeps its own; ``RLPROBE_UNCALIBRATED`` prints the raw strength."""
    from rlprobe.doctor.toolkit import calibrated
    from rlprobe.doctor.toolkit.calibration import RELIABILITY
    from rlprobe.doctor.toolkit.confidence import UNCALIBRATED_ENV

    table = {"warn": ((0.5, 0.7), (0.8, 0.9))}
    assert [calibrated("warn", raw, table) for raw in (0.55, 0.79, 0.8, 0.99)] == [0.7, 0.7, 0.9, 0.9]
    assert calibrated("info", 0.55, table) == 0.55
    for steps in RELIABILITY.values():
        shares = [share for _, share in steps]
        assert shares == sorted(shares) and all(0.5 <= s <= 1 for s in shares)
    raw = 0.61
    assert calibrated("warn", raw) != raw
    monkeypatch.setenv(UNCALIBRATED_ENV, "1")
    assert calibrated("warn", raw) == raw
