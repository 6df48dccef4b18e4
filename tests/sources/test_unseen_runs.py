"""Verdicts on the shapes of published runs the doctor first got wrong (issue 21), each on a
log written by the real tool: W&B runs by wandb (offline), TensorBoard logs by tensorboardX,
a console capture as the Trainer prints it.

- side metrics that never held a number are broken logging, not divergence;
- a loop's own metric names are invisible until mapped (``--metric``, ``[metrics]``), and a
  run without a reward says which metrics it did log;
- a frozen run (loss 0, KL and entropy constant) is "nothing is being learned", and W&B's
  ``step`` key of such a loop is its step, not a rejected record;
- a finding's opposite does not fire on the way back (entropy settling after an explosion, a
  collapsed length wobbling up by three tokens);
- a vLLM sampler/trainer mismatch read from TRL's importance-sampling metrics;
- an imported log's start and duration are the source's own, or unknown.
"""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from test_wandb import _needs_wandb, write_wandb_runs

from rlprobe.doctor import RunView, diagnose, diagnose_view, render_report
from rlprobe.doctor.cli import main
from rlprobe.doctor.report.summary import header

#: The 20 custom diagnostics a VLM run logged, NaN at every step.
ATTENTION = [f"attention/layer_{i}/{kind}" for i in range(10) for kind in ("entropy", "sink_mass")]


def _vlm_rows(steps: int) -> list[dict]:
    """A healthy TRL GRPO run of a vision-language model as it logs to W&B (reward rising from
    2.9 to 4.0), with custom attention diagnostics that were NaN from the first step to the last."""
    rng = np.random.default_rng(7)
    rows = []
    for step in range(1, steps + 1):
        row = {"train/loss": float(rng.normal(0.0, 0.02)), "train/reward": 2.9 + 1.1 * step / steps
               + float(rng.normal(0, 0.05)), "train/reward_std": 0.4, "train/grad_norm": float(rng.uniform(0.2, 0.4)),
               "train/entropy": float(rng.uniform(0.45, 0.5)), "train/kl": 0.001 * step,
               "train/completions/mean_length": 80.0 + float(rng.normal(0, 3)), "train/global_step": step}
        row.update({f"train/{name}": math.nan for name in ATTENTION})
        rows.append(row)
    return rows


def _custom_rows(steps: int) -> list[dict]:
    """A home-grown GRPO loop's ``wandb.log`` calls: its own names, its own ``step`` key, and a
    frozen run (policy loss exactly 0, KL 0.018731 to six digits, entropy 1.0, the reward flat
    because every completion was the same fallback output)."""
    rng = np.random.default_rng(3)
    return [{"step": step, "average_reward": round(0.31 + float(rng.normal(0, 0.004)), 4), "kl_divergence": 0.018731,
             "policy_loss": 0.0, "entropy": 1.0} for step in range(1, steps + 1)]


def _vllm_rows(steps: int, collapse: int) -> list[dict]:
    """TRL GRPO with vLLM and importance-sampling correction: the mean log-prob difference
    rises tenfold and the smallest ratio falls to 1e-39 where the run collapses."""
    rng = np.random.default_rng(11)
    rows = []
    for step in range(1, steps + 1):
        broken = step >= collapse
        diff = (0.03 if broken else 0.003) * float(np.exp(rng.normal(0, 0.15)))
        rows.append({
            "train/loss": float(rng.normal(0, 0.01)), "train/grad_norm": float(rng.uniform(0.2, 0.4)),
            "train/reward": (0.1 if step >= collapse + 3 else 0.2 + 0.5 * step / collapse) + float(rng.normal(0, 0.03)),
            "train/entropy": (2.5 if step >= collapse + 3 else 0.5) + float(rng.normal(0, 0.03)),
            "train/sampling/sampling_logp_difference/mean": diff,
            "train/sampling/sampling_logp_difference/max": 40 * diff,
            "train/sampling/importance_sampling_ratio/min": float(10 ** rng.uniform(-39, -9)) if broken
            else 0.2 * float(np.exp(rng.normal(0, 0.3))),
            "train/sampling/importance_sampling_ratio/mean": (0.8 if broken else 1.0) + float(rng.normal(0, 0.01)),
            "train/sampling/importance_sampling_ratio/max": 1.0 + float(rng.uniform(0, 2)),
            "train/global_step": step})
    return rows


@pytest.fixture(scope="module")
def wandb_runs(tmp_path_factory):
    """The three W&B runs, written by wandb in one process."""
    _needs_wandb()
    tmp = tmp_path_factory.mktemp("unseen-wandb")
    vlm, custom, vllm = write_wandb_runs(tmp, [
        {"name": "vlm-grpo", "config": {"bf16": True, "max_completion_length": 256}, "rows": _vlm_rows(60)},
        {"name": "custom-grpo", "config": {"lr": 1e-6}, "rows": _custom_rows(16)},
        {"name": "vllm-grpo", "config": {"use_vllm": True, "vllm_importance_sampling_correction": True},
         "rows": _vllm_rows(200, 150)},
    ])
    return {"vlm": vlm, "custom": custom, "vllm": vllm}


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _doctor(*args: str) -> dict[str, dict]:
    code, out = _cli("doctor", *args, "--json")
    assert code in (0, 1), out
    return {f["signature_id"]: f for f in json.loads(out)}


# -- 1. side metrics that never held a number ------------------------------------------------------

def test_side_metrics_never_finite_are_broken_logging_not_divergence(wandb_runs):
    found = _doctor(str(wandb_runs["vlm"]))
    nonfinite = found["NONFINITE_VALUES"]
    assert nonfinite["severity"] == "info"
    assert "broken logging, not divergence" in nonfinite["explanation"]
    assert "20 side metrics" in nonfinite["explanation"] and "attention/layer_0/entropy" in nonfinite["explanation"]
    assert "diverged" not in nonfinite["explanation"]
    assert {e["metric"] for e in nonfinite["evidence"]} == set(ATTENTION)
    assert not [f for f in found.values() if f["severity"] == "critical"]


# -- 2. a loop's own metric names --------------------------------------------------------------------

def test_custom_names_are_listed_until_mapped_by_option_or_config(wandb_runs, tmp_path):
    run = str(wandb_runs["custom"])
    unmapped = _doctor(run)
    note = unmapped["NO_REWARD_METRIC"]
    assert note["severity"] == "info"
    assert all(name in note["explanation"] for name in ("average_reward", "kl_divergence", "policy_loss"))
    assert "--metric reward=NAME" in " ".join(note["suggested_actions"])

    by_option = _doctor(run, "--metric", "reward=average_reward", "--metric", "kl=kl_divergence")
    assert "NO_REWARD_METRIC" not in by_option
    frozen = by_option["RUN_FROZEN"]
    assert "KL 0.018731" in frozen["explanation"] and "The reward stayed flat" in frozen["explanation"]

    config = tmp_path / "doctor.toml"
    config.write_text('[metrics]\nreward = "average_reward"\nkl = "kl_divergence"\n')
    assert _doctor(run, "--config", str(config)) == by_option
    view = RunView.load(run, {"reward": "average_reward"})
    assert view.series("reward_mean")[0] == pytest.approx(_custom_rows(16)[0]["average_reward"])

    code, out = _cli("show", run, "--step", "5", "--json", "--metric", "reward=average_reward")
    assert code == 0 and "reward_mean" in {m["metric"] for m in json.loads(out)["metrics"]}


def test_an_import_can_write_a_loops_names_as_the_quantities(wandb_runs, tmp_path):
    code, out = _cli("import", str(wandb_runs["custom"]), str(tmp_path / "run"), "--metric", "reward=average_reward")
    assert code == 0, out
    view = RunView.load(tmp_path / "run")
    assert "average_reward" not in view.metric_names() and view.has("reward_mean")
    assert any("average_reward as reward_mean" in e["message"] for e in view.events_of("import_note"))
    assert "NO_REWARD_METRIC" not in _doctor(str(tmp_path / "run"))
    code, out = _cli("import", str(wandb_runs["custom"]), str(tmp_path / "other"), "--metric", "reward=avg")
    assert code == 2 and "logged no metric 'avg'" in out
    pytest.importorskip("tensorboardX")  # a reader that decodes columns at once (a step table)
    tb = _tensorboard(tmp_path / "tb", {"score": np.linspace(0, 1, 20), "reward": np.zeros(20)}, {})
    code, out = _cli("import", str(tb), str(tmp_path / "tb-run"), "--metric", "reward=score")
    assert code == 0, out
    view = RunView.load(tmp_path / "tb-run")
    assert view.series("reward_mean")[-1] == pytest.approx(1.0) and "score" not in view.metric_names()


def test_a_mapping_the_run_cannot_take_is_one_line(wandb_runs, tmp_path):
    run = str(wandb_runs["custom"])
    code, out = _cli("doctor", run, "--metric", "reward=avg_reward")
    assert code == 2 and "no metric 'avg_reward'" in out and "average_reward" in out and out.count("\n") == 1
    code, out = _cli("doctor", run, "--metric", "rewardz=average_reward")
    assert code == 2 and "cannot map 'rewardz'" in out and "reward" in out
    code, out = _cli("report", run, "--metric", "reward", "--out", str(tmp_path / "r.html"))
    assert code == 2 and "QUANTITY=NAME" in out


# -- 3. a frozen run, W&B's step key, gaps of an imported log --------------------------------------

def test_a_frozen_run_is_nothing_learned_and_its_step_key_is_its_step(wandb_runs):
    view = RunView.load(wandb_runs["custom"])
    assert list(view.step) == list(range(1, 17)) and "step" not in view.metric_names()
    found = {f.signature_id: f for f in diagnose(wandb_runs["custom"])}
    frozen = found["RUN_FROZEN"]
    assert frozen.severity == "warn" and frozen.first_step == 1
    assert frozen.explanation.startswith("Nothing is being learned: over all 16 logged steps (1–16)")
    assert "policy loss exactly 0" in frozen.explanation and "entropy 1" in frozen.explanation
    assert "RECORDING_GAPS" not in found


def test_a_loops_own_step_is_its_step_read_whole_or_followed():
    """A tracker's rows as they arrive (``rlprobe watch``) give the steps the whole read gives."""
    from rlprobe.doctor.sources.base import ImportedRun
    from rlprobe.doctor.sources.trainer_logs import TrackerRowsTail, add_tracker_rows

    rows = [(i, {"_timestamp": 1_700_000_000.0 + i, **row}) for i, row in enumerate(_custom_rows(16))]
    whole, followed = ImportedRun("log", "wandb"), ImportedRun("log", "wandb")
    add_tracker_rows(whole, rows, "W&B")
    tail = TrackerRowsTail("W&B")
    for start in range(0, len(rows), 5):
        tail.add(followed, rows[start:start + 5])
    whole_rows = _rows(whole)  # a whole log's rows are its step table
    assert [r["step"] for r in whole_rows] == [r["step"] for r in followed.steps] == list(range(1, 17))
    assert whole_rows == followed.steps
    assert all(set(r) == {"step", "time", "average_reward", "kl_divergence", "policy_loss", "entropy_mean"}
               for r in whole_rows)
    assert not whole.problems.total() and not followed.problems.total()


def test_a_media_rows_own_step_is_not_the_runs_step_read_whole_or_followed():
    """A loop that logs its metrics without a step and its images with one (``{"step": i,
    "images": <media>}``, as the published frozen W&B run does): the steps are the tracker's,
    whole or followed; the media rows' ``step`` would have left every row of metrics out."""
    from rlprobe.doctor.sources.base import ImportedRun
    from rlprobe.doctor.sources.trainer_logs import TrackerRowsTail, add_tracker_rows

    rows: list[tuple[int, dict]] = []
    for i in range(1, 9):
        rows.append((len(rows), {"average_reward": 0.7, "policy_loss": 0.0, "iteration": i}))
        rows.append((len(rows), {"val/success_rate": 0.0}))
        rows.append((len(rows), {"step": i, "images": {"_type": "images/separated", "count": 2}}))
    whole, followed = ImportedRun("log", "wandb"), ImportedRun("log", "wandb")
    add_tracker_rows(whole, rows, "W&B")
    tail = TrackerRowsTail("W&B")
    for start in range(0, len(rows), 4):
        tail.add(followed, rows[start:start + 4])
    assert [r["step"] for r in _rows(whole) if "policy_loss" in r] == list(range(0, 24, 3))
    assert _rows(whole) == followed.steps


def _rows(run: Any) -> list[dict]:
    """A run's step table as the rows a follower gives: each step's values, nulls left out."""
    return [{k: v for k, v in row.items() if v is not None} for row in run.step_table.to_pylist()]


def test_a_frozen_runs_opposite_draws_nothing():
    """The same loop, learning: its loss, KL and entropy move, its reward rises."""
    rng = np.random.default_rng(0)
    rows = [{"step": s, "average_reward": 0.3 + 0.02 * s + float(rng.normal(0, 0.01)),
             "kl_divergence": 0.001 * s + float(rng.uniform(0, 1e-4)), "policy_loss": float(rng.normal(0, 0.01)),
             "entropy": 1.0 - 0.01 * s + float(rng.normal(0, 0.005))} for s in range(1, 17)]
    view = _rows_view(rows)
    assert "RUN_FROZEN" not in {f.signature_id for f in diagnose_view(view)}


def _rows_view(rows: list[dict]) -> RunView:
    frame = pl.DataFrame(rows).rename({"entropy": "entropy_mean"})
    return RunView(frame, manifest={"status": "finished"})


def test_gaps_in_an_imported_log_are_about_the_log_not_the_recorder(tmp_path):
    """A Trainer's console capture with 30 logged steps missing: a gap, with advice about the log."""
    lines = []
    for step in [*range(1, 41), *range(71, 121)]:
        entry = {"loss": 0.01, "grad_norm": 0.3, "learning_rate": 1e-6, "reward": 0.5, "kl": 0.001 * step,
                 "entropy": 0.5, "epoch": round(step / 120, 3), "step": step}
        lines.append(f"{entry}\n")
    log = tmp_path / "train.out"
    log.write_text("".join(lines))
    found = {f.signature_id: f for f in diagnose(log)}
    gaps = found["RECORDING_GAPS"]
    assert gaps.explanation.startswith("The imported log is incomplete")
    assert "30 of 120 expected steps" in gaps.explanation
    assert "queue_size" not in " ".join(gaps.suggested_actions) and "rejected" not in gaps.explanation


# -- 4. a finding's opposite on the way back -------------------------------------------------------

def _tensorboard(folder: Path, series: dict[str, np.ndarray], args: dict, wall0: float | None = None) -> Path:
    """Scalars as the Trainer's TensorBoard callback logs them (``train/<key>`` by step), with
    the run's ``args``; ``wall0``: the wall time of step 1 (a minute a step), else now."""
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(str(folder))
    writer.add_text("args", json.dumps(args))
    for i in range(len(next(iter(series.values())))):
        for tag, values in series.items():
            writer.add_scalar(f"train/{tag}", float(values[i]), i + 1,
                              walltime=None if wall0 is None else wall0 + 60.0 * i)
    writer.close()
    return folder


def test_a_collapsed_length_wobbling_up_three_tokens_is_no_explosion(tmp_path):
    pytest.importorskip("tensorboardX")
    rng = np.random.default_rng(3)
    length = np.concatenate([[53.0], 2.6 * np.exp(rng.normal(0, 0.15, 39)), 5.2 * np.exp(rng.normal(0, 0.15, 40))])
    run = _tensorboard(tmp_path / "tb", {"completions/mean_length": length, "reward": rng.normal(0.2, 0.05, 80),
                                         "loss": rng.normal(0, 0.01, 80)}, {"max_completion_length": 2048})
    found = {f.signature_id: f for f in diagnose(run)}
    assert found["LENGTH_COLLAPSE"].severity == "critical" and found["LENGTH_COLLAPSE"].first_step == 1
    assert "LENGTH_EXPLOSION" not in found


def test_entropy_settling_after_an_explosion_is_no_collapse(tmp_path):
    pytest.importorskip("tensorboardX")
    rng = np.random.default_rng(1)
    entropy = np.concatenate([0.4 + rng.normal(0, 0.02, 30), 1.6 + rng.normal(0, 0.05, 30),
                              0.6 + rng.normal(0, 0.03, 40)])
    run = _tensorboard(tmp_path / "tb", {"entropy": entropy, "reward": rng.normal(0.2, 0.05, 100),
                                         "loss": rng.normal(0, 0.01, 100)}, {})
    found = {f.signature_id: f for f in diagnose(run)}
    assert found["ENTROPY_EXPLOSION"].severity == "critical" and found["ENTROPY_EXPLOSION"].first_step == 31
    assert "ENTROPY_COLLAPSE" not in found
    # A fall below where it started is a collapse all the same.
    entropy[60:] = 0.08 + rng.normal(0, 0.005, 40)
    found = {f.signature_id: f for f in diagnose(_tensorboard(tmp_path / "tb2", {"entropy": entropy}, {}))}
    assert "ENTROPY_COLLAPSE" in found and "the level it held before rising" in found["ENTROPY_COLLAPSE"].explanation


# -- 5. vLLM importance sampling -------------------------------------------------------------------

def test_a_vllm_mismatch_is_read_from_the_importance_sampling_metrics_and_ranks_first(wandb_runs):
    findings = diagnose(wandb_runs["vllm"])
    assert findings[0].signature_id == "LOGPROB_MISMATCH", [(f.signature_id, f.severity) for f in findings]
    mismatch = findings[0]
    assert mismatch.severity == "critical" and abs(mismatch.first_step - 150) <= 3
    assert "×10 its early level" in mismatch.explanation
    assert re.search(r"smallest importance-sampling ratio fell to [\d.]+e-3\d", mismatch.explanation)
    assert "sampling/importance_sampling_ratio/min" in {e.metric for e in mismatch.evidence}
    symptoms = {f.signature_id for f in findings[1:] if f.severity == "critical"}
    assert {"REWARD_COLLAPSE", "ENTROPY_EXPLOSION"} <= symptoms


# -- 6. an imported log's clock --------------------------------------------------------------------

def _duration_cell(page: str) -> str:
    return re.search(r"<dt>duration</dt><dd>(.*?)</dd>", page, re.S).group(1)


def test_a_log_without_a_clock_has_no_start_and_one_with_a_clock_keeps_its_own(tmp_path, wandb_runs):
    pytest.importorskip("tensorboardX")
    console = tmp_path / "train.out"
    console.write_text("".join(f"{ {'loss': 0.1, 'reward': 0.5, 'step': s} }\n" for s in range(1, 30)))
    cell = _duration_cell(render_report(console, tmp_path / "console.html").read_text())
    assert "unknown" in cell and "from" not in cell and "UTC" not in cell

    # A run logged on 2023-11-14 from 22:13:20 UTC, a minute a step for 20 steps.
    run = _tensorboard(tmp_path / "tb", {"reward": np.linspace(0, 1, 20)}, {}, wall0=1_700_000_000.0)
    cell = _duration_cell(render_report(run, tmp_path / "tb.html").read_text())
    assert cell.startswith("19m 00s") and "from 2023-11-14 22:13:20 UTC" in cell

    # W&B: the run's start, and its rows' times.
    view = RunView.load(wandb_runs["vlm"])
    head = header(view)
    assert view.manifest["imported_from"]["started_at"] > 1_700_000_000
    assert head["started"].endswith("UTC") and "unknown" not in head["duration"] and head["duration"]


def test_an_mlflow_runs_start_and_end_are_its_own(tmp_path):
    pytest.importorskip("mlflow")
    code = f"""
from mlflow.tracking import MlflowClient
client = MlflowClient({(tmp_path / "mlruns").as_uri()!r})
run = client.create_run(client.create_experiment("exp"), start_time=1_700_000_000_000, run_name="grpo")
for s in range(1, 21):
    client.log_metric(run.info.run_id, "reward", 0.05 * s, timestamp=1_700_000_000_000 + 60_000 * s, step=s)
client.set_terminated(run.info.run_id, end_time=1_700_001_140_000)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MLFLOW_ALLOW_FILE_STORE": "true"})
    assert done.returncode == 0, done.stderr[-2000:]
    head = header(RunView.load(tmp_path / "mlruns"))
    assert head["started"] == "2023-11-14 22:13:20 UTC" and head["duration"] == "19m 00s"
