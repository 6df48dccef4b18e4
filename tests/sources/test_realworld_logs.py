"""Real, published RL training logs (``../shared/realworld-logs``, each folder with a SOURCE.md
naming its repository and commit), read where they are, are read by the doctor: every folder
there (the set grows) with no parse error and the step count its SOURCE.md states; the twelve
known ones with the number of steps and metrics their authors' files hold (counted
independently in ``_expected_metrics``); verdicts pinned only for the runs judged in
docs/validation.md ("Published runs")."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sourcekit import REALWORLD, realworld_log, realworld_names, realworld_root

from rlprobe.doctor import RunView, diagnose
from rlprobe.doctor.sources import resolve
from rlprobe.records import canonical_metric

VALIDATION = Path(__file__).resolve().parents[2] / "docs" / "validation.md"

#: name → (reader format, steps, first step, last step, algorithm), from each SOURCE.md: the
#: twelve logs first published there, pinned exactly; a folder added later is held to
#: ``test_every_published_log_reads_with_plausible_counts`` alone.
LOGS = {
    "chaos-economy-grpo": ("trainer", 50, 5, 250, "grpo"),
    "finqa-toolcall-grpo-2400": ("trainer-console", 2400, 1, 2400, "grpo"),
    "legaloom-grpo": ("trainer", 40, 1, 40, "grpo"),
    "minesweeper-grpo-aaipl": ("trainer", 50, 10, 500, "grpo"),
    "tsc-signal-grpo": ("trainer-console", 69, 1, 69, "grpo"),
    "unlearning-grpo-8b-v4": ("trainer-console", 300, 1, 300, "grpo"),
    "unlearning-grpo-8b": ("trainer-console", 300, 1, 300, "grpo"),
    "unlearning-grpo-after-rmu": ("trainer-console", 300, 1, 300, "grpo"),
    "unlearning-grpo-after-sft": ("trainer-console", 300, 1, 300, "grpo"),
    "unsloth-gsm8k-llama31-8b-grpo": ("trainer", 250, 1, 250, "grpo"),
    "verl-ppo-gemma2b-gsm8k": ("verl-console", 106, 0, 105, "ppo"),
    "verl-ppo-qwen05b-gsm8k": ("verl-console", 435, 0, 434, "ppo"),
}


def test_every_pinned_log_is_there_with_its_source():
    root = realworld_root()
    assert all((root / name / "SOURCE.md").is_file() for name in LOGS), sorted(LOGS)


def _stated_steps(name: str) -> list[int] | None:
    """The whole numbers of the "logged steps" row of the folder's SOURCE.md (its authors'
    count, e.g. "50 log entries covering steps 5-250"), or None when it has no such row."""
    text = (realworld_root() / name / "SOURCE.md").read_text("utf-8")
    row = re.search(r"^\|\s*logged steps\s*\|(.*)$", text, re.MULTILINE)
    return [int(n) for n in re.findall(r"(?<![\d.])\d+(?![\d.])", row.group(1))] if row else None


@pytest.mark.parametrize("name", realworld_names())
def test_every_published_log_reads_with_plausible_counts(name):
    """Every folder, also one added after these tests were written: it reads without a bad
    record, with the step count its SOURCE.md states (else at least 10), each step once, a
    reward and a handful of metrics, and the doctor diagnoses it within its steps."""
    path = realworld_log(name)
    assert resolve(path) is not None, f"{path}: no reader recognises it"
    view = RunView.load(path)
    stated = _stated_steps(name)
    assert (view.n_steps in stated) if stated else (view.n_steps >= 10), (view.n_steps, stated)
    assert len(set(view.step.tolist())) == view.n_steps, "a step read twice"
    # A reward: under a name the doctor knows, or a loop's own (``average_reward``), which the
    # doctor reports as no reward metric and a user maps (``--metric reward=NAME``).
    assert 3 <= len(view.metric_names()) <= 1000
    assert view.has("reward_mean") or any("reward" in name for name in view.metric_names())
    assert not view.events_of("bad_record")
    first, last = int(view.step.min()), int(view.step.max())
    assert all(f.first_step is None or first <= f.first_step <= last for f in diagnose(path))


def _expected_metrics(path: Path) -> set[str]:
    """The metric keys of the log's train and eval entries, found without the readers."""
    text = path.read_text("utf-8", errors="replace")
    if path.suffix == ".json":
        data = json.loads(text)
        entries = data["log_history"] if isinstance(data, dict) else data
    elif "verl" in path.parent.name:
        return {canonical_metric(item.rpartition(":")[0].split("(")[0]) for m in re.finditer(r"step:\d+ - (.*)", text)
                for item in m.group(1).split(" - ")}
    else:
        entries = [ast.literal_eval(m) for m in re.findall(r"\{'[^{}\n\r]*\}", text)]
        entries = [e for e in entries if "loss" in e or "train_runtime" in e]
        if any("reward" in e for e in entries):  # tsc: SFT dicts before the GRPO ones
            entries = [e for e in entries if "reward" in e or "train_runtime" in e]
    keys = {k for e in entries if not ("train_runtime" in e and "loss" not in e) for k in e} - {"step"}
    return {canonical_metric(k) for k in keys}  # spellings of one field (completion_length) are one metric


@pytest.mark.parametrize("name", sorted(LOGS))
def test_real_log_is_read_with_its_steps_and_metrics(name):
    path = realworld_log(name)
    fmt, n_steps, first, last, algorithm = LOGS[name]
    source = resolve(path)
    assert source is not None and source.read().format == fmt
    view = RunView.load(path)
    assert view.n_steps == n_steps
    assert (int(view.step[0]), int(view.step[-1])) == (first, last)
    assert view.algorithm == algorithm
    assert len(view.metric_names()) == len(_expected_metrics(path))
    assert view.has("reward_mean")
    assert view.has("length_mean")
    assert not view.events_of("bad_record")


def test_steps_are_inferred_from_order_and_said_so():
    view = RunView.load(realworld_log("unlearning-grpo-8b"))
    notes = [e["message"] for e in view.events_of("import_note")]
    assert any("carry no step" in n and "logging_steps" in n for n in notes)
    summary = view.events_of("train_summary")
    assert len(summary) == 1 and summary[0]["data"]["train_runtime"] == pytest.approx(889.0517)


def test_a_log_of_sft_then_grpo_keeps_the_grpo_stage_and_says_so():
    view = RunView.load(realworld_log("tsc-signal-grpo"))
    notes = " ".join(e["message"] for e in view.events_of("import_note"))
    assert "left out a stage of 40 printed dicts that logged no reward" in notes
    assert view.series("reward_mean")[0] == pytest.approx(-0.2, abs=5.0)  # a GRPO row, not SFT
    assert view.has("kl_mean")


def test_two_trainer_runs_in_one_json_list_continue_one_step_axis():
    view = RunView.load(realworld_log("legaloom-grpo"))
    assert list(view.step) == list(range(1, 41))
    assert [e["step"] for e in view.events_of("stage_start")] == [21]
    assert len(view.events_of("train_summary")) == 2


def test_the_real_non_finite_value_is_kept():
    data = json.loads(realworld_log("legaloom-grpo").read_text())
    bad = [e["step"] for e in data if any(isinstance(v, float) and v != v or v in (float("inf"), float("-inf"))
                                          for v in e.values())]
    assert bad
    view = RunView.load(realworld_log("legaloom-grpo"))
    assert not __import__("numpy").isfinite(view.series("grad_norm")).all()


def test_verl_console_units_and_validation_lines():
    view = RunView.load(realworld_log("verl-ppo-gemma2b-gsm8k"))
    assert view.series("actor/lr")[0] == pytest.approx(1e-6)  # printed as actor/lr(1e-4):0.010
    assert "test_score/openai/gsm8k" in view.metric_names()
    assert view.series("test_score/openai/gsm8k")[0] == pytest.approx(0.521)


@pytest.mark.parametrize("name", ["unlearning-grpo-after-sft", "verl-ppo-qwen05b-gsm8k"])
def test_the_cli_diagnoses_a_real_log(name, import_cache):
    done = subprocess.run([str(Path(sys.executable).parent / "rlprobe"), "doctor", str(realworld_log(name)), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    json.loads(done.stdout)


def test_old_trl_names_are_read_as_todays():
    """TRL 0.14 logged ``completion_length`` and ``rewards/<fn>`` (the mean, without ``/mean``)."""
    view = RunView.load(realworld_log("unsloth-gsm8k-llama31-8b-grpo"))
    assert view.series("length_mean")[-1] == pytest.approx(176.33334350585938)
    assert sorted(view.components()) == ["correctness_reward_func", "int_reward_func", "soft_format_reward_func",
                                         "strict_format_reward_func", "xmlcount_reward_func"]


#: name → what the doctor must say at warn and above, as judged from each run's raw curves
#: (docs/validation.md, "Published runs"); an empty dict is a run judged healthy. The one
#: place these pins live: a deliberate change of the doctor's judgement is one edit here
#: (and one in that table). A run not judged there gets no pin.
VERDICTS = {
    "chaos-economy-grpo": {"TRUNCATION_HIGH": "critical"},  # most completions hit the budget from the start
    "finqa-toolcall-grpo-2400": {  # lr 2e-7: the reward sits at 0.5 for 2,400 steps
        "REWARD_PLATEAU": "warn", "ZERO_ADVANTAGE_GROUPS": "warn", "ENTROPY_COLLAPSE": "warn"},
    "legaloom-grpo": {},  # 40 steps; one real NaN grad norm (info)
    # The reward, -9.7 at step 10 and -6 over the first 50, sits at about 1 (-8 to +11, no trend) over steps
    # 60-500 with a median of 60 % of groups agreeing at temperature 0.3: a plateau beside the budget's cut.
    "minesweeper-grpo-aaipl": {"TRUNCATION_HIGH": "critical", "REWARD_PLATEAU": "warn"},
    "tsc-signal-grpo": {"ZERO_ADVANTAGE_GROUPS": "critical", "REWARD_PLATEAU": "warn"},  # every group flat
    "unlearning-grpo-8b-v4": {"TRUNCATION_HIGH": "critical"},
    "unlearning-grpo-8b": {"LENGTH_COLLAPSE": "warn"},  # 98 → 10 tokens as the refusal reward peaks
    "unlearning-grpo-after-rmu": {"TRUNCATION_HIGH": "critical"},
    "unlearning-grpo-after-sft": {},
    "unsloth-gsm8k-llama31-8b-grpo": {},
    "verl-ppo-gemma2b-gsm8k": {},
    "verl-ppo-qwen05b-gsm8k": {},  # entropy 0.48 → 0.05 while the score climbs 0.03 → 0.73 (info)
}


def _judged_in_validation_doc() -> set[str]:
    """The runs the "Published runs" table of docs/validation.md judges (first column)."""
    text = VALIDATION.read_text("utf-8")
    section = text.split("\n## Published runs\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    return {name.strip() for cell in rows[1:] for name in cell.split(",")}


def test_verdicts_are_pinned_for_exactly_the_runs_the_validation_doc_judges():
    assert set(VERDICTS) == _judged_in_validation_doc()


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_the_doctor_says_what_the_curves_show(name):
    loud = {f.signature_id: f.severity for f in diagnose(realworld_log(name)) if f.severity in ("warn", "critical")}
    assert loud == VERDICTS[name]


def test_the_noise_after_rmu_is_named_as_the_cause_of_the_truncation():
    [finding] = diagnose(realworld_log("unlearning-grpo-after-rmu"))
    assert finding.signature_id == "TRUNCATION_HIGH" and "noise" in finding.explanation


def _blind_labels() -> list[str]:
    return [name for name in realworld_names() if (REALWORLD / name / "expect.json").is_file()]


@pytest.mark.parametrize("name", _blind_labels())
def test_the_doctor_agrees_with_the_blind_label(name):
    """Each published run that carries one engineer's blind reading (``expect.json``: calm, detect or
    noted), judged as ``bench/validate.py`` judges it (``labels.py``, with its argued ``CORRECTIONS``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "doctor"))
    from labels import Found, labels

    key = f"realworld/{name}"
    found = [Found(f.signature_id, f.severity, f.first_step, f.confidence) for f in diagnose(realworld_log(name))]
    ok, note = labels([key])[key].judge(found)
    assert ok, f"{note}; found {[(f.signature_id, f.severity, f.first_step) for f in found]}"


def test_the_frozen_wandb_run_cut_inside_its_last_record_reads_and_is_named_frozen():
    """A W&B run file of wandb 0.20.1 (a custom GRPO loop: train, val and image rows
    interleaved, the image rows alone carrying a ``step`` of their own), cut inside its last
    record: its 1,300 whole records are kept, the note says at which byte the cut record
    starts, the 16 training iterations are read (the image rows' ``step`` is not taken for the
    run's step, which would leave every row of metrics out), and the doctor names the frozen
    run: policy loss and entropy the same at every iteration, nothing being learned."""
    path = realworld_log("wkdgnsgo-sd-grpo-wandb-frozen")
    view = RunView.load(path)
    train = view.steps.filter(view.steps["policy_loss"].is_not_null())
    assert train["iteration"].to_list() == list(range(1, 17))
    assert train["average_reward"].is_not_null().all()
    [note] = [e["message"] for e in view.events_of("import_note") if "cut short" in e["message"]]
    assert "inside the record at byte 229296" in note and "46 history rows" in note
    findings = {f.signature_id: f for f in diagnose(path)}
    assert findings["RUN_FROZEN"].severity in ("warn", "critical")
    assert not findings.keys() & {"KL_BLOWUP", "ENTROPY_COLLAPSE", "GRAD_NORM_SPIKE", "NONFINITE_VALUES"}
