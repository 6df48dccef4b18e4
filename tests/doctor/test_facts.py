"""Unit tests of the facts the detectors share (``rlprobe.doctor.facts``): a sample's best reward is
its prompt's, one answer for every prompt is not convergence, the reward's progress state, solved
groups told from a stuck policy without samples, old key sets, and a single extreme step."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from test_dynamics_detectors import view_of

from rlprobe.doctor.facts.budget import clipped_budget, pinned_budget, truncation
from rlprobe.doctor.facts.extremes import EXTREME_RATIO, extreme_step
from rlprobe.doctor.facts.groups import copies, flat_groups, zero_std_share
from rlprobe.doctor.facts.progress import run_progress
from rlprobe.doctor.facts.run import converged_by_reward, facts_of
from rlprobe.doctor.toolkit import logged
from rlprobe.doctor.view import RunView

PROMPTS = ("a fruit?", "a tree?", "a bird?", "a tool?")


def _samples(steps: range, answer, reward) -> pl.DataFrame:
    """Two groups of 4 per step, one per prompt in turn; ``answer(step, prompt)`` and
    ``reward(step, prompt, i)`` give each completion and its reward."""
    rows = []
    for step in steps:
        for g in range(2):
            prompt = PROMPTS[(2 * step + g) % len(PROMPTS)]
            for i in range(4):
                rows.append({"step": step, "group_id": f"{step}-{g}", "prompt": prompt,
                             "completion": answer(step, prompt, i), "reward": float(reward(step, prompt, i)),
                             "sample_id": f"{step}-{g}-{i}"})
    return pl.DataFrame(rows)


def _view(samples: pl.DataFrame, **series: np.ndarray) -> RunView:
    steps = samples["step"].unique().sort().to_numpy()
    frame = pl.DataFrame({"step": steps, **{k: np.asarray(v, float) for k, v in series.items()}})
    return RunView(frame, samples)


# Each prompt has its own best: 'a tree?' earns at most 0.5 whatever is said.
_BEST = {"a fruit?": 1.0, "a tree?": 0.5, "a bird?": 1.0, "a tool?": 1.0}


def test_copies_at_their_prompts_own_best_are_convergence():
    early, late = range(0, 40), range(40, 100)
    samples = pl.concat([
        _samples(early, lambda s, p, i: f"{p}-try{i}", lambda s, p, i: _BEST[p] * (i == 0)),
        _samples(late, lambda s, p, i: f"{p}-answer", lambda s, p, i: _BEST[p]),
    ])
    settled = copies(_view(samples), 40, 99)
    assert settled is not None and settled.at_top == 1.0 and settled.shared == 0.0 and settled.converged(0.8)


def test_one_answer_for_every_prompt_below_their_best_is_not_convergence():
    samples = pl.concat([
        _samples(range(0, 40), lambda s, p, i: f"{p}-try{i}", lambda s, p, i: _BEST[p] * (i == 0)),
        _samples(range(40, 100), lambda s, p, i: "chisel", lambda s, p, i: 0.3),
    ])
    view = _view(samples)
    settled = copies(view, 40, 99)
    assert settled is not None and settled.at_top == 0.0 and settled.shared == 1.0 and not settled.converged(0.8)
    groups = flat_groups(view, 40, 99)
    assert groups is not None and groups.solved == 0.0 and not groups.converged(0.8)


def test_the_reward_progress_state():
    n = 200
    rng = np.random.default_rng(0)
    rising = np.minimum(np.arange(n) / 100, 1.0) * 0.8 + 0.1 + rng.normal(0, 0.02, n)
    climbing = np.arange(n) / n + rng.normal(0, 0.02, n)
    regressed = np.where(np.arange(n) < 100, np.arange(n) / 100, 1.0 - (np.arange(n) - 100) / 100) \
        + rng.normal(0, 0.02, n)
    flat = 0.3 + rng.normal(0, 0.02, n)
    states = {name: run_progress(view_of(reward=curve)).state
              for name, curve in (("rising", rising), ("climbing", climbing), ("regressed", regressed), ("flat", flat))}
    assert states == {"rising": "converged", "climbing": "learning", "regressed": "regressed", "flat": "flat"}


def test_without_samples_a_component_given_up_is_not_convergence():
    n = 200
    rng = np.random.default_rng(1)
    total = np.minimum(np.arange(n) / 100, 1.0) * 0.4 + 0.3 + rng.normal(0, 0.01, n)
    agree = 0.3 + 0.7 * np.minimum(np.arange(n) / 100, 1.0)  # groups come to agree as the reward rises
    # The exact-match component is earned now and then early (a sparse rate), then never.
    exact = np.where((np.arange(n) < 60) & (np.arange(n) % 5 == 0), 0.25, 0.0)
    cheap = total - exact
    solved = view_of(reward=total, frac_reward_zero_std=agree)
    stuck = view_of(reward=total, frac_reward_zero_std=agree,
                    **{"rewards/exact/mean": exact, "rewards/cheap/mean": cheap})
    assert converged_by_reward(solved, 100, n - 1) is not None
    assert converged_by_reward(stuck, 100, n - 1) is None
    # Groups that came to agree only after the reward stopped rising: a signal that dried up.
    late = view_of(reward=total, frac_reward_zero_std=np.where(np.arange(n) < 120, 0.3, 1.0))
    assert converged_by_reward(late, 120, n - 1) is None


def test_an_old_key_set_gives_zero_variance_from_reward_std_and_truncation_from_pinned_lengths():
    n = 50
    view = view_of(reward=np.zeros(n), reward_std=np.where(np.arange(n) % 10 == 0, 0.2, 0.0),
                   completion_length=np.full(n, 2.0))
    share, averaged = zero_std_share(view)
    assert averaged == 1 and share.mean() == 0.9
    assert pinned_budget(view) == 2.0
    cut = truncation(view)
    assert cut is not None and cut.values.min() == 1.0 and "inferred" in cut.name
    varied = view_of(reward=np.zeros(n), completion_length=2.0 + np.arange(n) % 3)
    assert pinned_budget(varied) is None and truncation(varied) is None



def test_lengths_that_grew_into_the_budget_and_stayed_there_give_the_budget():
    """Batch 5 (``length_explosion_oldkeys_log4``): an old key set has no clipped share or budget; the
    mean length grew from 5 to 24 tokens and sat at exactly 24.0 for the last third of the run.
    Lengths still varying at the end, or touching their maximum once, give no budget."""
    rng = np.random.default_rng(3)
    grew = np.minimum(5.0 + np.arange(35) * 0.8, 24.0)
    assert pinned_budget(view_of(reward=np.zeros(35), completion_length=grew)) == 24.0
    noisy = grew + rng.normal(0, 0.3, 35)
    assert pinned_budget(view_of(reward=np.zeros(35), completion_length=noisy)) is None
    touched = np.concatenate([np.linspace(5.0, 23.0, 30), [24.0, 22.1, 23.5, 21.2, 22.8]])
    assert pinned_budget(view_of(reward=np.zeros(35), completion_length=touched)) is None


def test_means_pressed_against_the_budget_give_it_and_a_plateau_below_one_does_not():
    """Batch 12 (``length_explosion_char_bonus_2x4_oldkeys_log4``): means of 32 completions grew from 5
    tokens and then sat at exactly 32.0 on most logs and at 31.2-31.9 on the others, where one completion
    ended short. A plateau that varies on both sides of its level, its top reached once, is no budget."""
    rng = np.random.default_rng(4)
    rise = np.linspace(5.0, 31.0, 15)
    short = rng.random(22) < 0.4
    pressed = np.concatenate([rise, np.where(short, 32.0 - rng.uniform(0.1, 0.8, 22), 32.0)])
    assert pinned_budget(view_of(reward=np.zeros(37), completion_length=pressed)) == 32.0
    plateau = np.concatenate([rise, 30.0 + rng.normal(0.0, 0.6, 22)])
    assert pinned_budget(view_of(reward=np.zeros(37), completion_length=plateau)) is None


def test_the_longest_completion_of_the_clipped_steps_is_the_budget():
    """A run read without its config (trainer_state.json, TRL >= 0.15) logs the clipped share and the longest
    completion: where some completion was cut, the longest is the budget (a log averaging steps, under it)."""
    n = 40
    grew = np.minimum(5.0 + np.arange(n) * 0.6, 19.0)
    longest = np.minimum(7.0 + np.arange(n), 20.0)
    cut = np.clip((np.arange(n) - 12) / 10, 0.0, 1.0)
    view = view_of(reward=np.zeros(n), completion_length=grew, **{"completions/max_length": longest,
                                                                 "completions/clipped_ratio": cut})
    assert clipped_budget(view) == 20.0 and facts_of(view).budget == 20.0
    assert clipped_budget(view_of(reward=np.zeros(n), completion_length=grew,
                                  **{"completions/max_length": longest,
                                     "completions/clipped_ratio": np.zeros(n)})) is None

def test_a_single_extreme_step_and_whether_the_run_came_back():
    n = 200
    rng = np.random.default_rng(2)
    grad = np.abs(rng.normal(1.0, 0.2, n))
    grad[80] = 2 * EXTREME_RATIO
    reward = 0.5 + rng.normal(0, 0.01, n)
    came_back = view_of(grad_norm=grad, reward=reward)
    extreme = extreme_step(came_back, logged(came_back, "grad_norm"))
    assert extreme is not None and extreme.step == 80 and extreme.returned
    fell = view_of(grad_norm=grad, reward=np.where(np.arange(n) > 80, 0.1, reward))
    extreme = extreme_step(fell, logged(fell, "grad_norm"))
    assert extreme is not None and not extreme.returned and extreme.unreturned == "reward"
    grad[81:90] = 2 * EXTREME_RATIO  # a lasting rise is not a single step
    assert extreme_step(view_of(grad_norm=grad, reward=reward), logged(view_of(grad_norm=grad), "grad_norm")) is None


def test_the_last_ordinary_step_before_a_gradient_that_cancels_is_no_extreme_step():
    """A policy whose completions all became one has a gradient that cancels (about 3e-7 from then on): its
    last ordinary gradient, 23 among norms of 1 to 23, is ×80 million the run's median, yet no spike. An
    extreme step must also stand out from what the run logged before it; a real one still does."""
    rng = np.random.default_rng(5)
    grad = np.concatenate([rng.uniform(1.0, 15.0, 30), [23.0], np.full(120, 3e-7)])
    view = view_of(grad_norm=grad, reward=np.full(grad.size, 0.5))
    assert grad[30] >= EXTREME_RATIO * np.median(grad) and extreme_step(view, logged(view, "grad_norm")) is None
    spiked = np.concatenate([rng.uniform(1.0, 15.0, 30), [5000.0], rng.uniform(1.0, 15.0, 120)])
    view = view_of(grad_norm=spiked, reward=np.full(spiked.size, 0.5))
    extreme = extreme_step(view, logged(view, "grad_norm"))
    assert extreme is not None and extreme.value == 5000.0


def test_a_kl_that_stays_negligible_after_an_extreme_step_came_back():
    """Batch 15 (``zero_advantage_category_earned_4x2_cool07_log1``): a KL near 0 (0.001) that reads 0.005
    after one extreme step has multiplied by 5 and moved nowhere: back. At 0.3 after it, it did not come back."""
    n = 120
    rng = np.random.default_rng(5)
    kl = np.where(np.arange(n) < 40, 0.001, 0.005) * rng.uniform(0.8, 1.2, n)
    kl[39] = 0.5
    reward = 0.5 + rng.normal(0, 0.01, n)
    extreme = extreme_step(view_of(kl=kl, reward=reward), logged(view_of(kl=kl), "kl_mean"))
    assert extreme is not None and extreme.step == 39 and extreme.returned
    kl[40:] = 0.3 * rng.uniform(0.8, 1.2, n - 40)
    kl[39] = 40.0
    extreme = extreme_step(view_of(kl=kl, reward=reward), logged(view_of(kl=kl), "kl_mean"))
    assert extreme is not None and not extreme.returned and extreme.unreturned == "KL"


def test_run_facts_are_computed_once_per_view_until_its_steps_change():
    n = 60
    view = view_of(reward=np.linspace(0, 1, n), completion_length=np.full(n, 2.0))
    facts = facts_of(view)
    assert facts is facts_of(view) and facts.budget == 2.0 and facts.stride == 1.0
    assert facts.progress is facts_of(view).progress  # cached, not recomputed
    view.steps = view.steps.with_columns(step=view.steps["step"] * 10)  # a new frame: the facts follow it
    assert facts_of(view) is not facts and facts_of(view).stride == 10.0


def test_a_rolling_trend_is_the_trend_of_each_trailing_window():
    from rlprobe.doctor.toolkit import rolling_trend_t, trend_t

    rng = np.random.default_rng(7)
    y = rng.normal(0.0, 1.0, 300) + 0.02 * np.arange(300)
    rolled = rolling_trend_t(y, 40)
    assert np.isnan(rolled[:39]).all()
    for end in (39, 150, 299):
        assert rolled[end] == pytest.approx(trend_t(np.arange(40.0), y[end - 39:end + 1]), rel=1e-6)
    assert rolling_trend_t(np.arange(10.0), 5)[-1] == np.inf  # an exact line, as trend_t says it
    # One value that is not finite costs only the windows that hold it.
    holed = y.copy()
    holed[100] = np.nan
    rolled_holed = rolling_trend_t(holed, 40)
    assert np.isnan(rolled_holed[100:140]).all()
    assert rolled_holed[140:] == pytest.approx(rolled[140:], rel=1e-6)
    assert rolled_holed[39:100] == pytest.approx(rolled[39:100], rel=1e-9)
