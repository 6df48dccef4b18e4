"""The level-change primitive every level detector shares (``rlprobe.doctor.toolkit.levels``): how long a
change must hold before it is one. Evidence is depth × duration, so a short fall far past the
entry level is confirmed like a long one just past it, and a short shallow one is not."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_real_training_fixes import detect, record

from rlprobe.doctor.toolkit import DEPTH_CREDIT, sustained_onset, weighted_sustained_onset


def test_unit_weights_are_a_plain_sustained_run():
    rng = np.random.default_rng(0)
    for _ in range(50):
        mask = rng.random(60) < 0.7
        assert weighted_sustained_onset(mask, np.ones(60), 4) == sustained_onset(mask, 4)


def test_weight_counts_as_duration_within_one_run_only():
    mask = np.array([1, 1, 0, 1, 1, 1, 0, 1, 1], dtype=bool)
    weight = np.array([2, 2, 9, 1, 1, 1, 9, 2, 2], dtype=float)
    assert weighted_sustained_onset(mask, weight, 4) == 0      # 2 + 2 in the first run
    assert weighted_sustained_onset(mask, weight, 5) is None    # no run sums to 5: runs never join
    assert weighted_sustained_onset(mask, np.full(9, np.nan), 1) is None  # NaN weighs nothing


def _dip(depth: float, length: int) -> list[dict]:
    rng = np.random.default_rng(3)
    reward = 0.6 + rng.normal(0, 0.05, 250)
    reward[40:40 + length] = 0.6 - depth
    return [dict(step=s, reward=float(r)) for s, r in zip(range(1, 251), reward, strict=True)]


@pytest.mark.parametrize(("depth", "length", "found"), [
    (0.9, 15, True),    # a 15-step outage to below 0: far past the entry level, confirmed though short
    (0.2, 15, False),   # as short and just past the entry: noise until it holds for `sustain`
    (0.2, 45, True),    # as shallow but held long: a fall
])
def test_a_short_deep_dip_is_a_reward_collapse_a_short_shallow_one_is_not(tmp_path: Path, depth: float,
                                                                        length: int, found: bool):
    finding = detect("REWARD_COLLAPSE", record(tmp_path, _dip(depth, length)))
    assert (finding is not None) == found, finding
    if found:
        assert abs(finding.first_step - 40) <= 10
        assert finding.severity == "warn" and "came back" in finding.explanation  # recovered: at most warn


def test_depth_credit_is_bounded():
    assert 1.0 < DEPTH_CREDIT <= 3.0  # a fall never confirms in under a third of `sustain`


def test_a_fall_that_comes_back_higher_than_it_fell_from_has_recovered(tmp_path: Path):
    """Batch 4 (``reward_dip_drgrpo_log2``): a reward outage, then a reward that comes back above the
    level it fell from and keeps learning. Recovered means back at the level or beyond it, so the
    episode is over: warn, never critical, and the finding says when it came back."""
    rng = np.random.default_rng(4)
    steps = np.arange(1, 251)
    reward = 0.35 + rng.normal(0, 0.05, steps.size)
    reward[50:65] = -0.65
    reward[65:] = np.minimum(0.35 + (steps[65:] - 65) * 0.01, 1.1) + rng.normal(0, 0.05, steps.size - 65)
    rows = [dict(step=int(s), reward=float(r)) for s, r in zip(steps, reward, strict=True)]
    finding = detect("REWARD_COLLAPSE", record(tmp_path, rows))
    assert finding is not None and abs(finding.first_step - 51) <= 10, finding
    assert finding.severity == "warn" and "came back" in finding.explanation, finding


def test_an_excursion_is_over_once_the_series_went_on_out_of_it_long_enough():
    """Recovered vs ongoing for a share that entered and left a level, decided once (``Excursion.over``):
    ZERO_ADVANTAGE_GROUPS and GROUP_MODE_COLLAPSE both ask it."""
    from rlprobe.doctor.toolkit import find_excursion

    share = np.r_[np.full(20, 0.1), np.full(20, 0.95), np.full(60, 0.1)]
    exc = find_excursion(share, level=0.8, sustain=5, smooth_window=3)
    assert exc is not None and exc.over(share.size, 5)
    assert not exc.over(exc.end + 10, 5)  # cut 10 points after it: not yet as long again as it lasted
    still = find_excursion(share[:45], level=0.8, sustain=5, smooth_window=3)
    assert still is not None and not still.over(45, 5)
    # An episode that left the level and came back later did not end for good, however long the gap.
    back = np.r_[share, np.full(30, 0.95)]
    again = find_excursion(back, level=0.8, sustain=5, smooth_window=3)
    assert again is not None and again.recurs and not again.over(back.size, 5)
    assert not exc.recurs
