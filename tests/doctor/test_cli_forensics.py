"""`rlprobe show | samples | diff` through click's runner and the real console script."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from rlprobe import Recorder
from rlprobe.doctor.cli import main

RLPROBE = shutil.which("rlprobe", path=os.path.dirname(sys.executable)) or "rlprobe"
SPIKE, PLANTED = 30, "planted-outlier"
LONG_PROMPT = "System: you are a careful assistant. " * 10 + "User: what is 30 + 3?"
LONG_COMPLETION = "<think>" + "Carry the one, then check again. " * 30 + "</think> The answer is 33."


def write_run(path: Path, learning_rate: float = 1e-6, reward_shift_from: int | None = None) -> Path:
    rng = np.random.default_rng(11)
    with Recorder(path, algorithm="grpo", run_id=path.name, trainer_config={"learning_rate": learning_rate},
                  capture_env=False, install_handlers=False) as rec:
        for step in range(60):
            shift = 0.6 if reward_shift_from is not None and step >= reward_shift_from else 0.0
            rec.log_step(step, reward=0.5 + shift + rng.normal(0, 0.03), kl=0.05 * (8 if step == SPIKE else 1),
                         entropy=0.9 + rng.normal(0, 0.01))
            batch = [{"sample_id": f"s{step}-{i}", "prompt_id": f"q{i % 3}", "prompt": f"What is {step} + {i}?",
                      "completion": f"It is {step + i}.", "reward": float(rng.uniform()),
                      "advantage": float(rng.normal()), "length": int(rng.integers(5, 300)),
                      "kl": float(rng.uniform(0, 0.1)), "logprob": float(-rng.uniform(0, 2))} for i in range(6)]
            if step == SPIKE:
                batch[2].update(sample_id=PLANTED, advantage=9.0, prompt=LONG_PROMPT, completion=LONG_COMPLETION)
            rec.log_samples(step, batch, select=False)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cli-forensics")
    bare = root / "bare"
    with Recorder(bare, capture_env=False, install_handlers=False) as rec:
        for step in range(10):
            rec.log_step(step, reward=0.1)
    sparse = root / "sparse"  # samples every 10 steps, without advantages
    with Recorder(sparse, capture_env=False, install_handlers=False) as rec:
        for step in range(30):
            rec.log_step(step, reward=0.1 * step)
            if step % 10 == 0:
                rec.log_samples(step, [{"sample_id": f"x{step}-{i}", "reward": float(i), "prompt": "p",
                                        "completion": "c"} for i in range(3)], select=False)
    return {"a": write_run(root / "a"), "b": write_run(root / "b", 3e-6, reward_shift_from=40), "bare": bare,
            "sparse": sparse}


def invoke(*args: str, columns: int = 80):
    return CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": str(columns)})


def assert_fits(text: str, columns: int) -> None:
    too_wide = [line for line in text.splitlines() if len(line) > columns]
    assert not too_wide, too_wide


# -- show ------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 120])
def test_show_puts_metrics_events_findings_and_the_driving_sample_on_one_screen(runs, columns):
    result = invoke("show", runs["a"], "--step", SPIKE, "--window", 3, columns=columns)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "around: steps 27–33 · before: steps 20–26" in out
    metrics = [line for line in out.splitlines() if line.startswith("kl_mean")]
    assert metrics and "+" in metrics[0]  # the KL jump shows as a positive change
    samples = out.split("Samples by |advantage|")[1].splitlines()
    assert PLANTED in samples[2]  # first row under the header
    assert "The answer is 33." in "\n".join(samples[2:5])  # the completion's end survives shortening
    assert_fits(out, columns)


def test_show_json_has_full_text_and_every_section(runs):
    result = invoke("show", runs["a"], "--step", SPIKE, "--max-samples", 3, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) >= {"metrics", "events", "findings", "samples", "window", "run_steps"}
    assert payload["window"] == [SPIKE - 5, SPIKE + 5] and payload["run_steps"] == [0, 59]
    assert len(payload["samples"]) == 3 and payload["samples_ranked_by"] == "advantage"
    first = payload["samples"][0]
    assert first["sample_id"] == PLANTED and first["completion"] == LONG_COMPLETION
    assert first["share"] > 0.1
    assert {m["metric"] for m in payload["metrics"]} >= {"reward_mean", "kl_mean", "entropy_mean"}


def test_show_of_a_run_without_samples_says_why(runs):
    result = invoke("show", runs["bare"], "--step", 5)
    assert result.exit_code == 0, result.output
    assert "no samples were captured — the run logged no samples" in " ".join(result.stdout.split())
    assert_fits(result.stdout, 80)


def test_show_ranks_by_reward_when_samples_carry_no_advantage(runs):
    result = invoke("show", runs["sparse"], "--step", 10, "--window", 2)
    assert result.exit_code == 0, result.output
    assert "Samples by reward (the samples record no advantage)" in result.stdout
    rows = result.stdout.split("Samples by reward")[1].splitlines()[2:]
    assert [row.split()[1] for row in rows if row.strip()[:2].isdigit()] == ["x10-2", "x10-1", "x10-0"]


def test_show_between_captured_steps_names_the_nearest(runs):
    payload = json.loads(invoke("show", runs["sparse"], "--step", 15, "--window", 2, "--json").stdout)
    assert payload["samples"] == []
    assert payload["samples_note"] == "no captured samples in steps 13–17; the nearest captured: step 10 and step 20"


@pytest.mark.parametrize("args, message", [
    (["--step", "600"], "step 600 is outside the run"),
    ([], "show needs the step"),
    (["--step", "3", "--window", "-1"], "--window must be"),
])
def test_show_bad_input_is_one_line_exit_2(runs, args, message):
    result = invoke("show", runs["a"], *args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


# -- samples ---------------------------------------------------------------------------------


def test_samples_around_a_step_sorted_by_advantage(runs):
    result = invoke("samples", runs["a"], "--sort", "advantage", "--around", SPIKE, "--window", 2, "-k", 4, "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows[0]["sample_id"] == PLANTED and rows[0]["prompt"] == LONG_PROMPT
    assert all(SPIKE - 2 <= r["step"] <= SPIKE + 2 for r in rows)
    advantages = [r["advantage"] for r in rows]
    assert advantages == sorted(advantages, reverse=True) and len(rows) == 4


def test_samples_around_without_window_uses_five_steps_either_side(runs):
    rows = json.loads(invoke("samples", runs["a"], "--around", 10, "-k", 100, "--json").stdout)
    assert {r["step"] for r in rows} == set(range(5, 16))


def test_samples_range_ascending(runs):
    rows = json.loads(invoke("samples", runs["a"], "--sort", "length", "--from", 10, "--to", 19, "--asc",
                             "--json").stdout)
    lengths = [r["length"] for r in rows]
    assert len(rows) == 10 and lengths == sorted(lengths)
    assert all(10 <= r["step"] <= 19 for r in rows)


def test_samples_in_an_empty_window_say_where_samples_are(runs):
    result = invoke("samples", runs["sparse"], "--from", 3, "--to", 7)
    assert result.exit_code == 0
    assert result.stdout.strip() == ("no captured samples with reward in steps 3–7; "
                                     "the nearest captured: step 0 and step 10")
    assert invoke("samples", runs["sparse"], "--from", 3, "--to", 7, "--json").stdout.strip() == "[]"


@pytest.mark.parametrize("columns", [60, 80, 160])
def test_samples_table_fits_the_terminal(runs, columns):
    result = invoke("samples", runs["a"], "--sort", "advantage", "-k", 5, columns=columns)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert PLANTED in lines[2]
    assert "answer is 33." in "\n".join(lines[2:5])
    assert_fits(result.stdout, columns)


@pytest.mark.parametrize("args, message", [
    (["--around", "5", "--from", "2"], "use either --around"),
    (["--around", "5", "--to", "9"], "use either --around"),
    (["--window", "3"], "--window goes with --around"),
    (["--around", "99"], "step 99 is outside the run: "),
    (["--from", "70", "--to", "80"], "has steps 0–59"),
    (["--sort", "entropy"], "choose one of reward, advantage, kl, length, logprob"),
    (["-k", "0"], "k must be a positive"),
])
def test_samples_bad_flags_are_one_line_exit_2(runs, args, message):
    result = invoke("samples", runs["a"], *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_samples_of_a_run_without_samples_is_exit_2_saying_why(runs):
    result = invoke("samples", runs["bare"])
    assert result.exit_code == 2
    assert "no samples were captured" in result.stderr


# -- diff ------------------------------------------------------------------------------------


def test_diff_names_the_config_change_and_the_divergence(runs):
    result = invoke("diff", runs["a"], runs["b"], columns=100)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "~ learning_rate: 1e-06 → 3e-06" in out
    reward = [line for line in out.splitlines() if line.startswith("reward_mean")]
    assert reward and reward[0].split()[1] == "40"
    assert_fits(out, 100)


def test_diff_json_and_thresholds(runs):
    payload = json.loads(invoke("diff", runs["a"], runs["b"], "--json").stdout)
    assert payload["differs"] and payload["config"]["changed"] == {"learning_rate": [1e-6, 3e-6]}
    assert [d["metric"] for d in payload["divergences"]] == ["reward_mean"]
    strict = json.loads(invoke("diff", runs["a"], runs["b"], "--json", "--z-thresh", "1000").stdout)
    assert strict["divergences"] == []


def test_diff_of_a_run_with_itself_says_no_differences(runs):
    result = invoke("diff", runs["a"], runs["a"])
    assert result.exit_code == 0 and "no differences" in result.stdout


# -- the real console script: exit codes -----------------------------------------------------


def test_console_script_exit_codes(runs):
    ok = subprocess.run([RLPROBE, "samples", str(runs["a"]), "--around", "5", "-k", "2"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "s" in ok.stdout.splitlines()[-1]
    bad = subprocess.run([RLPROBE, "samples", str(runs["a"]), "--around", "5", "--from", "1"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.strip() == "rlprobe: error: use either --around N [--window K] or --from A --to B, not both"
    missing = subprocess.run([RLPROBE, "diff", str(runs["a"]), str(runs["a"].parent / "nope"), "--json"],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
