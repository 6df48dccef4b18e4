"""query_samples, spike_drivers and metrics_around over runs written through the real Recorder."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from rlprobe import Recorder
from rlprobe.doctor import RunView, UnusableInput, query_samples, spike_drivers
from rlprobe.doctor.forensics import SORT_KEYS, CapturedSamples, metrics_around, sample_records
from rlprobe.sampling import SamplingConfig
from rlprobe.storage import RunWriter

N_STEPS, SPIKE, PLANTED = 60, 30, "planted-outlier"
LONG_COMPLETION = "<think>" + "I will repeat myself. " * 40 + "</think> The answer is 42."


def write_run(path: Path, *, samples: bool = True, sampling: SamplingConfig | None = None,
              kl: bool = True) -> Path:
    """60 steps of 8 samples each; at step 30 one sample carries an advantage of 12 (the
    rest are standard normal) and the KL metric jumps tenfold."""
    rng = np.random.default_rng(7)
    with Recorder(path, algorithm="grpo", run_id=path.name, trainer_config={"learning_rate": 1e-6},
                  capture_env=False, install_handlers=False, sampling=sampling) as rec:
        for step in range(N_STEPS):
            rec.log_step(step, reward=0.5 + rng.normal(0, 0.02),
                         kl=(0.5 if step == SPIKE else 0.05) * rng.uniform(0.9, 1.1), loss=rng.normal(0, 0.01))
            if not samples:
                continue
            batch = []
            for i in range(8):
                batch.append({
                    "sample_id": f"s{step}-{i}", "prompt_id": f"q{i % 4}", "group_id": f"{step}-{i // 4}",
                    "prompt": f"Question {i % 4}: what is {step} + {i}?", "completion": f"It is {step + i}.",
                    "reward": float(rng.uniform(0, 1)), "advantage": float(rng.normal()),
                    "logprob": float(-rng.uniform(0.1, 2)), "length": int(rng.integers(5, 500)),
                    **({"kl": float(rng.uniform(0, 0.1))} if kl else {}),
                })
            if step == SPIKE:
                batch[3].update(sample_id=PLANTED, advantage=12.0, completion=LONG_COMPLETION)
            rec.log_samples(step, batch, select=sampling is not None)
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("forensics") / "planted")


@pytest.fixture(scope="module")
def view(run: Path) -> RunView:
    return RunView.load(run)


# -- spike_drivers ---------------------------------------------------------------------------


def test_planted_outlier_drives_the_spike_with_its_share_of_total_advantage(run, view):
    drivers = spike_drivers(run, SPIKE, window=5, k=8)
    assert drivers["sample_id"][0] == PLANTED
    assert drivers.height == 8
    weights = drivers["abs_advantage"].to_numpy()
    assert np.all(np.diff(weights) <= 0)
    window = view.samples.filter(pl.col("step").is_between(SPIKE - 5, SPIKE + 5))
    total = window["advantage"].abs().sum()
    assert drivers["share"][0] == pytest.approx(12.0 / total)
    assert drivers["share"].to_numpy() == pytest.approx(weights / total)
    expected = window.sort(pl.col("advantage").abs(), descending=True)["sample_id"].head(8).to_list()
    assert drivers["sample_id"].to_list() == expected


def test_spike_drivers_from_a_view_match_those_from_the_directory(run, view):
    assert spike_drivers(view, SPIKE, 3, 5).equals(spike_drivers(run, SPIKE, 3, 5))


def test_spike_drivers_away_from_the_outlier_do_not_include_it(run):
    drivers = spike_drivers(run, 10, window=2, k=40)
    assert PLANTED not in drivers["sample_id"].to_list()
    assert drivers["step"].is_between(8, 12).all()
    assert drivers["share"].sum() == pytest.approx(1.0)  # k covers the whole window


# -- query_samples ---------------------------------------------------------------------------


@pytest.mark.parametrize("sort", SORT_KEYS)
@pytest.mark.parametrize("ascending", [False, True])
def test_query_ranks_like_a_full_sort(run, view, sort, ascending):
    got = query_samples(run, sort=sort, step_from=10, step_to=40, k=7, ascending=ascending)
    window = view.samples.filter(pl.col("step").is_between(10, 40))
    values = np.sort(window[sort].cast(pl.Float64).to_numpy())
    expected = values[:7] if ascending else values[::-1][:7]
    assert got[sort].cast(pl.Float64).to_numpy() == pytest.approx(expected)
    assert got["step"].is_between(10, 40).all()


def test_query_defaults_rank_by_reward_highest_first_over_the_whole_run(run, view):
    got = query_samples(run)
    assert got.height == 10
    assert got["reward"].to_list() == sorted(view.samples["reward"].to_list(), reverse=True)[:10]


def test_query_returns_full_rows_with_text_untruncated(run):
    top = query_samples(run, sort="advantage", k=1)
    assert top["sample_id"][0] == PLANTED
    assert top["completion"][0] == LONG_COMPLETION
    record = sample_records(top)[0]
    assert record["completion"] == LONG_COMPLETION and record["step"] == SPIKE
    assert set(record) >= {"prompt", "reward", "advantage", "length", "kl", "logprob"}


def test_open_ended_ranges_and_ties_go_to_the_earlier_step(tmp_path):
    with Recorder(tmp_path / "ties", capture_env=False, install_handlers=False) as rec:
        for step in range(5):
            rec.log_step(step, reward=1.0)
            rec.log_samples(step, [{"sample_id": f"s{step}", "reward": 1.0}], select=False)
    assert query_samples(tmp_path / "ties", k=3)["step"].to_list() == [0, 1, 2]
    assert query_samples(tmp_path / "ties", step_from=3)["step"].to_list() == [3, 4]
    assert query_samples(tmp_path / "ties", step_to=1)["step"].to_list() == [0, 1]


def test_query_reads_compacted_rows_and_parts_written_after_them(run, tmp_path):
    """A run reopened for writing (or read mid-run) has both; every row counts once."""
    import shutil

    copy = tmp_path / "continued"
    shutil.copytree(run, copy)
    writer = RunWriter(copy, {"run_id": "continued"})
    writer.write_part([], [{"step": N_STEPS, "rank": 0, "sample_id": "late", "reward": 99.0, "advantage": -50.0}])
    assert query_samples(copy, k=1)["sample_id"].to_list() == ["late"]
    assert spike_drivers(copy, N_STEPS, window=1, k=1)["sample_id"].to_list() == ["late"]
    assert CapturedSamples.open(copy).captured == N_STEPS * 8 + 1


def test_an_empty_window_inside_the_run_is_an_empty_answer(tmp_path):
    with Recorder(tmp_path / "sparse", capture_env=False, install_handlers=False) as rec:
        for step in range(20):
            rec.log_step(step, reward=0.1)
            if step % 10 == 0:
                rec.log_samples(step, [{"reward": 0.5, "advantage": 1.0}], select=False)
    assert query_samples(tmp_path / "sparse", step_from=3, step_to=7).is_empty()
    assert spike_drivers(tmp_path / "sparse", 5, window=2).is_empty()
    assert CapturedSamples.open(tmp_path / "sparse").nearest(3, 7) == (0, 10)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("call, message", [
    (lambda r: query_samples(r, step_from=500), "has steps 0–59"),
    (lambda r: query_samples(r, step_to=-3), "has steps 0–59"),
    (lambda r: spike_drivers(r, 75), "step 75 is outside the run"),
    (lambda r: query_samples(r, step_from=9, step_to=3), "first step is after the last"),
    (lambda r: query_samples(r, sort="entropy"), "reward, advantage, kl, length, logprob"),
    (lambda r: query_samples(r, k=0), "k must be a positive"),
    (lambda r: spike_drivers(r, 5, window=-1), "window must be"),
    (lambda r: metrics_around(r, 60), "has steps 0–59"),
])
def test_bad_queries_say_what_is_wrong(run, call, message):
    with pytest.raises(UnusableInput, match=message):
        call(run)


def test_a_run_that_logged_no_samples_says_so(tmp_path):
    path = write_run(tmp_path / "bare", samples=False)
    with pytest.raises(UnusableInput, match="no samples were captured — the run logged no samples"):
        query_samples(path)
    with pytest.raises(UnusableInput, match="no samples were captured"):
        spike_drivers(RunView.load(path), 10)


def test_a_sampling_policy_keeping_nothing_is_named_as_the_reason(tmp_path):
    path = write_run(tmp_path / "policy", sampling=SamplingConfig(top_k=0, bottom_k=0, random_k=0))
    with pytest.raises(UnusableInput, match="sampling policy keeps none"):
        query_samples(path)


def test_ranking_by_a_field_no_sample_records_names_what_they_do_record(tmp_path):
    path = write_run(tmp_path / "nokl", kl=False)
    with pytest.raises(UnusableInput, match="records kl; they record: reward, advantage, length, logprob"):
        query_samples(path, sort="kl")


def test_a_directory_without_a_recording_is_unusable(tmp_path):
    with pytest.raises(UnusableInput, match="no rlprobe recording"):
        query_samples(tmp_path)


# -- metrics_around --------------------------------------------------------------------------


def test_metrics_around_a_spike_compare_with_the_window_before(run, view):
    table = {r["metric"]: r for r in metrics_around(run, SPIKE, window=2).iter_rows(named=True)}
    kl = view.series("kl_mean")
    row = table["kl_mean"]
    assert row["at_step"] == pytest.approx(kl[SPIKE])
    assert row["window_mean"] == pytest.approx(kl[SPIKE - 2:SPIKE + 3].mean())
    assert row["before_mean"] == pytest.approx(kl[SPIKE - 7:SPIKE - 2].mean())
    assert row["change_rel"] == pytest.approx(row["change"] / row["before_mean"])
    assert row["z"] > 10 and abs(table["reward_mean"]["z"]) < 10
    assert list(table) == view.metric_names()


def test_metrics_at_the_first_step_have_no_before(run):
    first = metrics_around(run, 0, window=3)
    assert first["before_mean"].is_null().all() and first["z"].is_null().all()
    assert first["window_mean"].is_not_null().all()


def test_a_view_whose_samples_lack_a_column_is_unusable_not_a_crash():
    view = RunView(pl.DataFrame({"step": [0, 1]}), pl.DataFrame({"step": [0, 1], "reward": [0.5, 0.7]}))
    assert query_samples(view, k=1)["reward"].to_list() == [0.7]
    with pytest.raises(UnusableInput, match="records advantage; they record: reward"):
        spike_drivers(view, 1)
