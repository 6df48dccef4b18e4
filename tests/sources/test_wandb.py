"""W&B run logs (``wandb/<offline-run-…>/run-<ID>.wandb``) written by the real wandb package,
offline, read by the doctor without it: steps by ``train/global_step``, NaN and infinities
kept, the config as the trainer config, ``rlprobe ls`` of a ``wandb/`` folder, a pathology
found at the step it is found on the rlprobe recording, damaged files, and the completions
tables a real TRL GRPO run logs with ``log_completions=True`` read as samples."""
from __future__ import annotations

import json
import math
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from rlprobe.doctor import RunView
from rlprobe.doctor.cli import main
from rlprobe.doctor.sources import list_source_runs, resolve
from rlprobe.doctor.sources.wandb_log import records

RLPROBE = str(Path(sys.executable).parent / "rlprobe")
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "wandb"

#: What keeps wandb from reaching for anything but its own files (no network here).
WANDB_ENV = {"WANDB_MODE": "offline", "WANDB_SILENT": "true", "WANDB_DISABLE_GIT": "true",
             "WANDB_DISABLE_CODE": "true", "WANDB_ERROR_REPORTING": "false", "WANDB__DISABLE_STATS": "true",
             "WANDB__DISABLE_META": "true", "WANDB__DISABLE_MACHINE_INFO": "true"}

_WRITER = """
import json, sys, wandb
for spec in json.load(open(sys.argv[1])):
    run = wandb.init(mode="offline", dir=sys.argv[2], project="rlprobe-test", name=spec.get("name"),
                     config=spec["config"])
    for row in spec["rows"]:
        run.log(row)
    for key, value in spec.get("summary", {}).items():
        run.summary[key] = value
    run.finish(exit_code=spec.get("exit_code", 0))
"""


_TRL_RUN = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from tiny_trl import KL_BLOWUP_TRAINING, build_tiny_model, make_trainer
from rlprobe.integrations.trl import attach
root = Path(sys.argv[2])
trainer = make_trainer(build_tiny_model(root / "model"), root / "out", report_to=["wandb"], run_name="tiny-grpo",
                       **KL_BLOWUP_TRAINING)
attach(trainer, root / "recording")
trainer.train()
"""

_TRL_COMPLETIONS_RUN = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from tiny_trl import build_tiny_model, make_trainer
root = Path(sys.argv[2])
trainer = make_trainer(build_tiny_model(root / "model"), root / "out", report_to=["wandb"], run_name="tiny-tables",
                       max_steps=6, log_completions=True, eval_prompts=sys.argv[3].split(","), eval_strategy="steps",
                       eval_steps=3, per_device_eval_batch_size=4)
trainer.train()
"""
#: Prompts of the evaluation only (not in tiny_trl.PROMPTS): its tables are told apart by them.
EVAL_PROMPTS = ["quiz", "jump"]


def _needs_wandb() -> None:
    if os.environ.get("CI"):
        import wandb  # noqa: F401  CI must run these tests: never skip there
    else:
        pytest.importorskip("wandb", reason="needs wandb (requirements/test.txt)")


def _wandb_env(root: Path) -> dict[str, str]:
    state = root / ".wandb-state"
    return {**os.environ, **WANDB_ENV, "WANDB_DIR": str(root), "WANDB_CONFIG_DIR": str(state / "config"),
            "WANDB_CACHE_DIR": str(state / "cache"), "WANDB_DATA_DIR": str(state / "data")}


def _run_logs(root: Path) -> list[Path]:
    """The ``.wandb`` files under ``root/wandb``, oldest first (not through ``latest-run``)."""
    return sorted((p for p in (root / "wandb").glob("*/run-*.wandb") if not p.parent.is_symlink()),
                  key=lambda p: p.stat().st_mtime_ns)


def write_wandb_runs(root: Path, specs: list[dict]) -> list[Path]:
    """Log each ``{"name", "config", "rows", "summary"}`` as an offline W&B run under
    ``root`` (one subprocess, the real wandb); the ``.wandb`` files, in the order written."""
    root.mkdir(parents=True, exist_ok=True)
    spec_file = root / "specs.json"
    spec_file.write_text(json.dumps(specs))
    done = subprocess.run([sys.executable, "-c", _WRITER, str(spec_file), str(root)], capture_output=True,
                          text=True, timeout=300, env=_wandb_env(root))
    assert done.returncode == 0, done.stderr[-3000:]
    files = _run_logs(root)
    assert len(files) == len(specs)
    return files


def _trl_rows(steps: int) -> list[dict]:
    """As TRL logs through W&B: ``train/`` keys with ``train/global_step``, eval rows, and
    profiling rows without a step between them (so W&B's ``_step`` runs ahead)."""
    rows = []
    for step in range(1, steps + 1):
        rows.append({"profiling/Time taken: GRPOTrainer._prepare_inputs": 0.1})
        rows.append({"train/loss": 0.01 * step, "train/reward": math.nan if step == 3 else 0.1 * step,
                     "train/kl": math.inf if step == 4 else 0.001 * step, "train/entropy": 0.7,
                     "train/completions/mean_length": 30.0 + step, "train/global_step": step})
        if step % 10 == 0:
            rows.append({"eval/reward": 0.3, "train/global_step": step})
    return rows


def _synth_rows(pathology: str, tmp: Path) -> tuple[Path, list[dict]]:
    """A synthetic rlprobe recording and its steps as TRL would log them to W&B."""
    from rlprobe.doctor.synth import generate
    from rlprobe.storage import RunReader

    recording = tmp / pathology
    generate(recording, pathology, n_steps=400, seed=1)
    rows = []
    for row in RunReader(recording).steps().to_pylist():
        logged = {f"train/{k}": v for k, v in row.items() if k not in ("step", "rank", "time") and v is not None}
        rows.append({**logged, "train/global_step": row["step"]})
    return recording, rows


@pytest.fixture(scope="module")
def wandb_runs(tmp_path_factory):
    """Two offline runs in one ``wandb/`` folder: TRL-style rows, and a synthetic KL blowup
    beside the rlprobe recording it was taken from."""
    _needs_wandb()
    tmp = tmp_path_factory.mktemp("wandb")
    recording, blowup = _synth_rows("kl_blowup", tmp)
    config = {"beta": 0.04, "num_generations": 8, "loss_type": "dapo", "_name_or_path": "tiny/model"}
    trl_file, blowup_file = write_wandb_runs(tmp / "logs", [
        {"name": "trl-run", "config": config, "rows": _trl_rows(30),
         "summary": {"train_runtime": 12.5, "train_loss": 0.2}, "exit_code": 1},
        # A 70 kB config value: its record spans three blocks (FIRST, MIDDLE, LAST chunks).
        {"name": "kl-blowup", "config": {"beta": 0.0, "notes": "x" * 70_000}, "rows": blowup}])
    return {"root": tmp / "logs" / "wandb", "trl": trl_file, "blowup": blowup_file, "recording": recording}


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([RLPROBE, *args], capture_output=True, text=True, timeout=300)


def _findings(*args: str) -> list[tuple[str, int | None]]:
    done = _cli("doctor", *args, "--json")
    assert done.returncode in (0, 1), done.stderr
    return sorted((f["signature_id"], f["first_step"]) for f in json.loads(done.stdout))


def test_trl_rows_are_read_by_global_step_with_nan_kept(wandb_runs):
    run_dir = wandb_runs["trl"].parent
    view = RunView.load(run_dir)
    assert view.n_steps == 30 and list(view.step[:3]) == [1, 2, 3]
    reward = view.series("reward_mean")
    assert reward[0] == pytest.approx(0.1) and np.isnan(reward[2]) and reward[29] == pytest.approx(3.0)
    assert math.isinf(view.series("kl_mean")[3]) and view.series("kl_mean")[4] == pytest.approx(0.005)
    assert view.series("eval/reward")[9] == pytest.approx(0.3) and np.isnan(view.series("eval/reward")[8])
    manifest = view.manifest
    assert manifest["trainer_config"]["beta"] == 0.04 and manifest["trainer_config"]["num_generations"] == 8
    assert manifest["trainer_config"]["loss_type"] == "dapo" and manifest["model_name"] == "tiny/model"
    assert manifest["imported_from"]["format"] == "wandb" and manifest["run_id"] == "trl-run"
    assert manifest["status"] == "crashed"  # it exited with 1
    assert view.events_of("train_summary")[0]["data"] == {"train_runtime": 12.5, "train_loss": 0.2}
    assert any("profiling" in e["message"] for e in view.events_of("import_note"))
    assert RunView.load(wandb_runs["trl"]).n_steps == 30


def test_a_run_without_global_step_is_read_by_wandbs_step(tmp_path):
    _needs_wandb()
    rows = [{"reward": 0.1 * i, "kl": 0.01, "loss": 0.5, "nested": {"a": 1.0}} for i in range(12)]
    (log,) = write_wandb_runs(tmp_path, [{"name": None, "config": {}, "rows": rows}])
    view = RunView.load(log)
    assert list(view.step) == list(range(12)) and view.series("reward_mean")[11] == pytest.approx(1.1)
    assert view.series("nested/a")[0] == 1.0
    assert view.manifest["run_id"] == log.stem[len("run-"):]  # an unnamed offline run: its id


def test_doctor_finds_the_kl_blowup_where_it_finds_it_on_the_recording(wandb_runs, tmp_path):
    recorded = dict(_findings(str(wandb_runs["recording"])))
    on_file = _findings(str(wandb_runs["blowup"]))
    on_dir = _findings(str(wandb_runs["blowup"].parent))
    assert on_file == on_dir
    kl_step = dict(on_file)["KL_BLOWUP"]
    assert abs(kl_step - recorded["KL_BLOWUP"]) <= 5
    assert len(RunView.load(wandb_runs["blowup"]).manifest["trainer_config"]["notes"]) == 70_000
    imported = tmp_path / "imported"
    done = _cli("import", str(wandb_runs["blowup"]), str(imported))
    assert done.returncode == 0, done.stderr
    assert _findings(str(imported)) == on_file


def test_a_wandb_folder_lists_its_runs_by_name_and_takes_the_id(wandb_runs):
    root = wandb_runs["root"]
    assert list_source_runs(root)[1] == ["trl-run", "kl-blowup"]
    listed = _cli("ls", str(root))
    assert listed.returncode == 0 and f"{root}#kl-blowup" in listed.stdout and "wandb: 2 runs" in listed.stdout
    run_id = wandb_runs["blowup"].stem[len("run-"):]
    by_id = resolve(f"{root}#{run_id}")
    assert by_id is not None and by_id.name == "kl-blowup"
    assert RunView.load(f"{root}#{run_id}").n_steps == 400
    done = _cli("doctor", str(root))
    assert done.returncode == 2 and "holds 2 runs" in done.stderr and done.stderr.count("\n") == 1


def test_a_log_cut_short_or_damaged_reads_the_records_before_the_damage(wandb_runs, tmp_path):
    data = wandb_runs["blowup"].read_bytes()
    block = 32 * 1024
    assert len(data) > 8 * block
    whole, damage = records(data)
    assert damage is None
    cut = tmp_path / "cut" / "run-cut.wandb"
    cut.parent.mkdir()
    cut.write_bytes(data[:5 * block + 5000])  # mid-block, mid-record
    prefix, damage = records(cut.read_bytes())
    assert damage and prefix == whole[:len(prefix)] and 0 < len(prefix) < len(whole)
    view = RunView.load(cut)
    assert 10 < view.n_steps < 400 and list(view.step[:3]) == [0, 1, 2]
    assert any("cut short" in e["message"] for e in view.events_of("import_note"))
    assert _cli("doctor", str(cut)).returncode in (0, 1)
    flipped = bytearray(data)
    flipped[7 * block + 100] ^= 0xFF
    bad = tmp_path / "bad" / "run-bad.wandb"
    bad.parent.mkdir()
    bad.write_bytes(bytes(flipped))
    view = RunView.load(bad)
    assert 10 < view.n_steps < 400
    assert any("bad CRC" in e["message"] or "damaged" in e["message"] for e in view.events_of("import_note"))


def test_random_bytes_or_a_bare_header_are_one_line_and_exit_2(wandb_runs, tmp_path):
    noise = tmp_path / "run-noise.wandb"
    noise.write_bytes(random.Random(1).randbytes(70_000))
    done = _cli("doctor", str(noise))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "not an rlprobe recording or a known log format" in done.stderr and "W&B" in done.stderr
    header_only = tmp_path / "run-empty.wandb"
    header_only.write_bytes(wandb_runs["trl"].read_bytes()[:7] + b"\x00" * 3)
    done = _cli("doctor", str(header_only))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and str(header_only) in done.stderr


_KILLED_WRITER = """
import sys, time, wandb
run = wandb.init(mode="offline", dir=sys.argv[1], project="rlprobe-test", name="killed")
started = time.time() - 3600  # its rows stamped as if it ran an hour ago (W&B keeps a logged _timestamp)
for step in range(1, 10**6):
    run.log({"train/reward": 0.01 * step, "train/loss": 1.0, "train/global_step": step, "_timestamp": started + step})
    print(step, flush=True)
"""


def _status_of(root: Path) -> dict:
    done = _cli("ls", str(root), "--json")
    assert done.returncode == 0, done.stderr
    [run] = json.loads(done.stdout)["runs"]
    return run


def test_a_run_whose_writer_was_killed_is_not_running_forever(tmp_path):
    """No exit record: running while the file or its last record is fresh, ``killed?`` in ls
    once both are older than a writer's heartbeat, and RUN_STALLED fires on it."""
    from rlprobe.doctor.catalog import diagnose_view, registry

    _needs_wandb()
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(tmp_path)], stdout=subprocess.PIPE,
                            text=True, env=_wandb_env(tmp_path))
    try:
        for _ in proc.stdout:  # wandb-core writes 32 KiB blocks: kill once two are on disk
            logs = _run_logs(tmp_path)
            if logs and logs[0].stat().st_size >= 2 * 32 * 1024:
                proc.kill()
                break
        assert proc.wait(60) == -9
    finally:
        proc.kill()
        proc.stdout.close()
    [log] = _run_logs(tmp_path)
    assert records(log.read_bytes())[0] and b"train/global_step" in log.read_bytes()
    root = tmp_path / "wandb"

    live = _status_of(root)  # its records are an hour old, but the file was just written
    assert live["status"] == "running" and live["killed"] is False
    an_hour_ago = time.time() - 3600
    os.utime(log, (an_hour_ago, an_hour_ago))
    killed = _status_of(root)
    assert killed["status"] == "running" and killed["killed"] is True
    listed = _cli("ls", str(root))
    assert "killed?" in listed.stdout and "STATUS" in listed.stdout, listed.stdout

    view = RunView.load(log)
    assert view.manifest["status"] == "running" and view.manifest["closed_at"] is None
    assert view.manifest["updated_at"] == pytest.approx(max(an_hour_ago, float(view.steps["time"].max())))
    only_stalled = {sid: {"enabled": False} for sid in registry() if sid != "RUN_STALLED"}
    [stalled] = diagnose_view(view, only_stalled, live=True)
    assert stalled.signature_id == "RUN_STALLED" and stalled.first_step == int(view.step[-1])
    assert "killed" in stalled.explanation
    assert diagnose_view(RunView.load(_run_logs_finished(tmp_path)), only_stalled, live=True) == []


def _run_logs_finished(tmp: Path) -> Path:
    """A run that ended (an exit record), its rows as old as the killed one's: never stalled."""
    rows = [{"train/reward": 0.01 * step, "train/global_step": step, "_timestamp": time.time() - 3600 + step}
            for step in range(1, 40)]
    (log,) = write_wandb_runs(tmp / "finished", [{"name": "done", "config": {}, "rows": rows}])
    return log


def test_the_documented_fixture_was_written_by_wandb_and_reads_without_it():
    log = next(FIXTURE.glob("*/run-*.wandb"))
    found, damage = records(log.read_bytes())
    assert damage is None and len(found) > 100
    view = RunView.load(FIXTURE)
    assert view.manifest["imported_from"]["format"] == "wandb" and view.n_steps == 200
    assert view.manifest["trainer_config"]["beta"] == 0.0


def test_a_real_trl_grpo_run_reported_to_wandb_gets_the_recordings_findings(tmp_path):
    _needs_wandb()
    pytest.importorskip("trl")
    trl_tests = Path(__file__).resolve().parents[1] / "trl"
    env = {**_wandb_env(tmp_path), "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run([sys.executable, "-c", _TRL_RUN, str(trl_tests), str(tmp_path)], capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    (log,) = _run_logs(tmp_path)
    recording = RunView.load(tmp_path / "recording")
    view = RunView.load(log.parent)
    assert view.n_steps == recording.n_steps and list(view.step) == list(recording.step)
    assert np.allclose(view.series("kl_mean"), recording.series("kl_mean"), equal_nan=True)
    assert view.manifest["trainer_config"]["beta"] == 0.1 and view.manifest["trainer_config"]["num_generations"] == 4
    assert view.manifest["algorithm"] == "grpo" and view.manifest["run_id"] == "tiny-grpo"
    assert "train_runtime" in view.events_of("train_summary")[0]["data"]
    assert _findings(str(log)) == _findings(str(tmp_path / "recording"))


def _run_trl(script: str, root: Path, *args: str) -> Path:
    """Run a tiny TRL GRPO ``script`` reporting to W&B offline under ``root``; its ``.wandb`` log."""
    trl_tests = Path(__file__).resolve().parents[1] / "trl"
    env = {**_wandb_env(root), "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run([sys.executable, "-c", script, str(trl_tests), str(root), *args], capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    (log,) = _run_logs(root)
    return log


@pytest.fixture(scope="module")
def trl_tables(tmp_path_factory):
    """A real TRL GRPO run (6 steps, an eval every 3) logging its completions to W&B offline."""
    _needs_wandb()
    pytest.importorskip("trl")
    root = tmp_path_factory.mktemp("wandb-tables")
    return _run_trl(_TRL_COMPLETIONS_RUN, root, ",".join(EVAL_PROMPTS)).parent


def _train_table_rows(run_dir: Path) -> list[dict]:
    """The rows of the run's table files, read here from the JSON: each distinct file once
    (TRL logs the last table again at the end), the eval's (its prompts) left out."""
    contents = {p.read_bytes() for p in (run_dir / "files" / "media" / "table").glob("*.table.json")}
    rows = []
    for content in contents:
        table = json.loads(content)
        table_rows = [dict(zip(table["columns"], row, strict=True)) for row in table["data"]]
        if not any(row["prompt"] in EVAL_PROMPTS for row in table_rows):
            rows += table_rows
    return rows


def test_trl_completions_tables_become_the_runs_samples(trl_tables):
    tables = sorted((trl_tables / "files" / "media" / "table").glob("completions_*.table.json"))
    first = json.loads(tables[0].read_text())
    assert first["columns"] == ["step", "prompt", "completion", "reward_vowels", "reward_short", "advantage"]
    expected = _train_table_rows(trl_tables)
    assert len(tables) > len({p.read_bytes() for p in tables})  # the end-of-training repeat
    assert sorted({row["step"] for row in expected}) == [1, 2, 3, 4, 5, 6] and len(expected) == 6 * 4
    view = RunView.load(trl_tables)
    samples = view.samples.to_dicts()
    assert len(samples) == len(expected)
    assert not {s["prompt"] for s in samples} & set(EVAL_PROMPTS)
    by_key = {(s["step"], s["prompt"], s["completion"]): s for s in samples}
    for row in expected[:: 5]:
        sample = by_key[(row["step"], row["prompt"], row["completion"])]
        assert sample["reward"] == pytest.approx(row["reward_vowels"] + row["reward_short"])
        assert sample["advantage"] == pytest.approx(row["advantage"])
    notes = [e["message"] for e in view.events_of("import_note")]
    assert any("eval completions tables at steps 3, 6 left out" in n for n in notes), notes
    assert not any(c.startswith("completions/") and c.endswith(("nrows", "ncols", "size"))
                   for c in view.metric_names())  # the table's sizes are not metrics


def test_rlprobe_samples_sorts_a_wandb_runs_completions_by_reward(trl_tables):
    result = CliRunner().invoke(main, ["samples", str(trl_tables), "--sort", "reward", "-k", "3", "--json"])
    assert result.exit_code == 0, result.output
    top = json.loads(result.stdout)
    rewards = sorted((row["reward_vowels"] + row["reward_short"] for row in _train_table_rows(trl_tables)),
                     reverse=True)
    assert [s["reward"] for s in top] == pytest.approx(rewards[:3])
    assert all(s["completion"] and s["prompt"] for s in top)
    result = CliRunner().invoke(main, ["samples", str(trl_tables), "--sort", "reward", "-k", "3"])
    assert result.exit_code == 0, result.output
    assert top[0]["completion"].strip() in result.stdout


def test_a_deleted_table_file_is_left_out_with_a_note(trl_tables, tmp_path):
    run_dir = tmp_path / trl_tables.name
    shutil.copytree(trl_tables, run_dir)
    gone = min((run_dir / "files" / "media" / "table").glob("completions_*.table.json"),
               key=lambda p: int(p.name.split("_")[1]))  # the first step's
    gone_rows = json.loads(gone.read_text())["data"]
    gone.unlink()
    view = RunView.load(run_dir)
    assert view.n_steps == 6
    samples = view.samples.to_dicts()
    assert len(samples) == len(_train_table_rows(run_dir)) == 6 * 4 - len(gone_rows)
    assert 1 not in {s["step"] for s in samples}
    notes = [e for e in view.events_of("import_note") if "missing or unreadable" in e["message"]]
    assert len(notes) == 1 and gone.name in notes[0]["message"]


def test_the_fast_reading_of_history_rows_equals_the_field_by_field_one():
    """Most of a W&B log is history rows, read by a fast path for the shape wandb writes them
    in; it must give what reading them field by field gives, and step aside for anything else."""
    from rlprobe.doctor.sources import wandb_log
    from rlprobe.doctor.sources.protobuf import fields

    [log] = FIXTURE.rglob("*.wandb")
    rows = [raw for record in records(log.read_bytes())[0] for number, wire, raw in fields(record)
            if number == 2 and wire == 2]
    fast = [wandb_log._fast_history(raw) for raw in rows]
    assert len(rows) >= 200 and all(row is not None for row in fast)
    assert json.dumps(fast, sort_keys=True) == json.dumps([wandb_log._history_fields(raw) for raw in rows],
                                                          sort_keys=True)  # NaN included
    typed = b"\x0a\x11\x12\x06reward" + b"\x31\x00\x00\x00\x00\x00\x00\xe0\x3f" + b"\x12\x02\x08\x07"
    assert wandb_log._fast_history(typed) is None  # a typed double value: read field by field
    assert wandb_log._history_fields(typed) == (7, {"reward": 0.5})


def test_the_fast_reading_of_damaged_history_rows_steps_aside_or_agrees():
    """A row read by a pattern learnt from another row, or walked byte by byte, is what
    reading it field by field gives, whatever byte of it is changed (or it is read so)."""
    import random

    from rlprobe.doctor.sources import wandb_log
    from rlprobe.doctor.sources.protobuf import fields

    [log] = FIXTURE.rglob("*.wandb")
    rows = [raw for record in records(log.read_bytes())[0] for number, wire, raw in fields(record)
            if number == 2 and wire == 2]
    for raw in rows:
        wandb_log._fast_history(raw)  # learns the rows' patterns
    rng = random.Random(3)
    checked = 0
    for _ in range(3000):
        raw = bytearray(rng.choice(rows))
        raw[rng.randrange(len(raw))] = rng.choice([0x0A, 0x12, 0x82, 0x01, 0x00, 0x7F, 0x80, ord("1"), ord('"')])
        fast = wandb_log._fast_history(bytes(raw))
        if fast is None:
            continue
        try:
            slow = wandb_log._history_fields(bytes(raw))
        except (ValueError, IndexError):
            raise AssertionError(f"the fast path read a row the field-by-field one cannot: {bytes(raw)!r}") from None
        assert json.dumps(fast, sort_keys=True) == json.dumps(slow, sort_keys=True), bytes(raw)
        checked += 1
    assert checked > 1000
