"""The Recorder as the API reference describes it: arguments, methods, properties,
the manifest, known metric names, ranks."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from corekit import events_of, parts_left, steps_of

import rlprobe
from rlprobe import EventKind, Recorder, SampleRecord, SamplingConfig, StepRecord
from rlprobe.records import METRIC_ALIASES, STEP_FIELDS
from rlprobe.storage import RunReader, list_runs, load_manifest
from rlprobe.storage.layout import list_parts


def test_public_names() -> None:
    assert set(rlprobe.__all__) >= {"Recorder", "SamplingConfig", "StepRecord", "SampleRecord", "EventKind",
                                    "RlprobeWarning", "__version__"}
    assert StepRecord(step=1).extra == {} and SampleRecord().extra == {}
    assert EventKind.CRASH == "crash" and EventKind.QUEUE_OVERFLOW == "queue_overflow"


def test_manifest_holds_the_run_metadata(make_recorder, run_dir: Path) -> None:
    config = {"lr": 1e-6, "beta": float("inf"), "nested": {"k": [1, 2]}, "obj": object}
    rec = make_recorder(algorithm="grpo", run_id="my-run", model_name="org/model", trainer_config=config,
                        sampling=SamplingConfig(top_k=1, bottom_k=1, random_k=2, seed=7), capture_env=True)
    running = load_manifest(run_dir)
    assert running["status"] == "running" and running["closed_at"] is None
    rec.log_step(0, loss=1.0)
    rec.close()
    m = load_manifest(run_dir)
    assert m["format_version"] == 1 and m["run_id"] == "my-run" and rec.run_id == "my-run"
    assert m["algorithm"] == "grpo" and m["model_name"] == "org/model"
    assert m["trainer_config"] == {"lr": 1e-6, "beta": "inf", "nested": {"k": [1, 2]}, "obj": str(object)}
    assert m["world_size"] == 1 and m["rank"] == 0 and m["recorded_ranks"] == [0]
    assert m["sampling"] == {"top_k": 1, "bottom_k": 1, "random_k": 2, "seed": 7, "whole_groups": False}
    assert m["status"] == "finished" and m["closed_at"] >= m["created_at"]
    assert m["counts"] == {"steps": 1, "samples": 0, "events": 2, "dropped": 0, "bad_records": 0,
                           "storage_errors": 0, "lost": 0}
    env = m["env"]
    assert {"python", "platform", "hostname", "git", "packages", "gpus"} <= set(env)
    assert env["packages"]["rlprobe-core"] == rlprobe.__version__
    assert isinstance(env["gpus"], list)
    assert json.loads((run_dir / "manifest.json").read_text()) == m


def test_default_run_id_is_generated_and_unique(make_recorder, tmp_path: Path) -> None:
    a = make_recorder(tmp_path / "a")
    b = make_recorder(tmp_path / "b")
    assert a.run_id and b.run_id and a.run_id != b.run_id


def test_known_metric_names_map_to_fields_and_others_to_extra_columns(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    trl_logs = {"reward": 0.5, "reward_std": 0.1, "kl": 0.01, "entropy": 1.2, "loss": 0.3, "grad_norm": 2.0,
                "learning_rate": 1e-6, "clip_ratio/region_mean": 0.05, "completions/mean_length": 100.0,
                "completions/min_length": 10.0, "completions/max_length": 200.0,
                "completions/clipped_ratio": 0.2, "frac_reward_zero_std": 0.25, "rewards/accuracy/mean": 0.7,
                "num_tokens": 12345.0, "epoch": 0.1}
    rec.log_step(1, **trl_logs)
    rec.log_step(2, reward_mean=0.6, my_metric=3.0)
    rec.close()
    table = RunReader(run_dir).steps()
    row = table.to_pylist()[0]
    assert row["reward_mean"] == 0.5 and row["reward_std"] == 0.1 and row["kl_mean"] == 0.01
    assert row["entropy_mean"] == 1.2 and row["loss"] == 0.3 and row["grad_norm"] == 2.0
    assert row["learning_rate"] == 1e-6 and row["clip_ratio"] == 0.05 and row["length_mean"] == 100.0
    assert row["length_min"] == 10.0 and row["length_max"] == 200.0 and row["truncated_frac"] == 0.2
    assert row["frac_reward_zero_std"] == 0.25 and row["rewards/accuracy/mean"] == 0.7
    assert row["num_tokens"] == 12345.0 and row["epoch"] == 0.1
    assert table.to_pylist()[1]["reward_mean"] == 0.6
    for alias in METRIC_ALIASES:
        assert alias not in table.column_names or alias == METRIC_ALIASES[alias]
    assert set(STEP_FIELDS) <= set(table.column_names)
    assert all(str(table.schema.field(name).type) == "double" for name in table.column_names
               if name not in ("step", "rank"))


def test_trl_ppo_log_keys_land_in_the_known_fields(make_recorder, run_dir: Path) -> None:
    """The metrics dict of trl.experimental.ppo's PPOTrainer (trl 1.7), as it logs it."""
    rec = make_recorder()
    ppo_logs = {"eps": 12, "objective/kl": 0.4, "objective/entropy": 35.0, "objective/non_score_reward": -0.02,
                "objective/rlhf_reward": 0.98, "objective/scores": 1.0, "policy/approxkl_avg": 0.01,
                "policy/clipfrac_avg": 0.07, "loss/policy_avg": -0.01, "loss/value_avg": 0.8,
                "val/clipfrac_avg": 0.1, "policy/entropy_avg": 0.9, "val/ratio": 1.0, "val/ratio_var": 0.002,
                "val/num_eos_tokens": 14, "lr": 3e-6, "episode": 64}
    rec.log_step(1, **ppo_logs)
    rec.close()
    row = RunReader(run_dir).steps().to_pylist()[0]
    assert row["reward_mean"] == 1.0 and row["clip_ratio"] == 0.07 and row["learning_rate"] == 3e-6
    assert row["kl_mean"] == 0.4 and row["policy_loss"] == -0.01 and row["value_loss"] == 0.8
    assert row["entropy_mean"] == 0.9, "the per-token policy/entropy_avg; objective/entropy is a per-sequence sum"
    assert row["objective/entropy"] == 35.0 and row["objective/rlhf_reward"] == 0.98
    assert not [name for name in ppo_logs if name in row and METRIC_ALIASES.get(name, name) != name]


def test_step_by_keyword_and_a_metric_called_self(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    rec.log_step(step=3, loss=1.0)
    rec.log_step(4, self=2.0, kind=1.0)
    rec.log_step()
    rec.close()
    rows = RunReader(run_dir).steps().to_pylist()
    assert [r["step"] for r in rows] == [3, 4]
    assert rows[1]["self"] == 2.0 and rows[1]["kind"] == 1.0
    assert any("step None" in e["message"] for e in events_of(run_dir, "bad_record"))


def test_log_event_is_on_disk_when_it_returns(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(flush_interval_s=60)
    rec.log_event("checkpoint", step=5, message="saved", path="/ckpt/5", size=3)
    lines = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert lines[-1]["kind"] == "checkpoint" and lines[-1]["step"] == 5 and lines[-1]["message"] == "saved"
    assert lines[-1]["data"] == {"path": "/ckpt/5", "size": 3} and lines[-1]["time"] <= time.time()
    rec.log_event("kind_in_data", kind="also fine")
    assert events_of(run_dir, "kind_in_data")[0]["data"] == {"kind": "also fine"}


def test_flush_makes_everything_logged_so_far_readable(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(flush_interval_s=60, steps_per_flush=10**6)
    for step in range(10):
        rec.log_step(step, loss=float(step))
    rec.log_samples(9, [{"completion": "x", "reward": 1.0}], select=False)
    assert rec.flush()
    reader = RunReader(run_dir)
    assert reader.steps().column("step").to_pylist() == list(range(10))
    assert reader.samples().num_rows == 1
    assert load_manifest(run_dir)["counts"]["steps"] == 10
    assert rec.queued == 0


def test_parts_are_written_by_size_and_by_time_without_flush(make_recorder, tmp_path: Path) -> None:
    by_size = make_recorder(tmp_path / "size", flush_interval_s=60, steps_per_flush=20)
    assert by_size.flush(30)  # let the writer start up
    for step in range(20):
        by_size.log_step(step, loss=1.0)
    by_time = make_recorder(tmp_path / "time", flush_interval_s=0.2, steps_per_flush=10**6)
    by_time.log_step(0, loss=1.0)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not (list_parts(tmp_path / "size", "steps")
                                               and list_parts(tmp_path / "time", "steps")):
        time.sleep(0.05)
    assert steps_of(tmp_path / "size") == list(range(20))
    assert steps_of(tmp_path / "time") == [0]


def test_close_compacts_is_idempotent_and_stops_recording(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    rec.log_step(0, loss=1.0)
    rec.close()
    rec.close()
    rec.log_step(1, loss=1.0)
    rec.log_samples(1, [{"completion": "late"}])
    rec.log_event("late")
    assert rec.flush() is True
    assert parts_left(run_dir) == [] and (run_dir / "steps.parquet").exists()
    assert steps_of(run_dir) == [0]
    kinds = [e["kind"] for e in events_of(run_dir)]
    assert kinds == ["run_start", "run_end"]


def test_close_with_a_status(make_recorder, run_dir: Path) -> None:
    make_recorder().close(status="halted")
    assert load_manifest(run_dir)["status"] == "halted"
    assert events_of(run_dir, "run_end")[0]["message"] == "halted"


def test_context_manager_marks_crashes(run_dir: Path, tmp_path: Path) -> None:
    with Recorder(run_dir, install_handlers=False, capture_env=False) as rec:
        rec.log_step(0, loss=1.0)
    assert load_manifest(run_dir)["status"] == "finished"

    crashed = tmp_path / "crashed"
    with pytest.raises(RuntimeError):
        with Recorder(crashed, install_handlers=False, capture_env=False) as rec:
            rec.log_step(0, loss=1.0)
            raise RuntimeError("diverged")
    assert load_manifest(crashed)["status"] == "crashed"
    (crash,) = events_of(crashed, "crash")
    assert crash["message"] == "RuntimeError: diverged" and "diverged" in crash["data"]["traceback"]
    assert steps_of(crashed) == [0]

    interrupted = tmp_path / "interrupted"
    with pytest.raises(KeyboardInterrupt):
        with Recorder(interrupted, install_handlers=False, capture_env=False):
            raise KeyboardInterrupt
    assert load_manifest(interrupted)["status"] == "terminated"


def test_non_recording_rank_is_a_no_op(tmp_path: Path) -> None:
    run = tmp_path / "run"
    rec = Recorder(run, world_size=4, rank=2, capture_env=False)
    assert rec.active is False and rec.rank == 2 and rec.run_dir == run
    rec.log_step(0, loss=1.0)
    rec.log_samples(0, [{"completion": "x"}])
    rec.log_event("anything")
    assert rec.flush() is True
    rec.close()
    with rec:
        pass
    assert rec.dropped == 0 and rec.queued == 0
    assert not run.exists()
    assert "active=False" in repr(rec)


def test_record_all_ranks_writes_one_directory_per_rank_and_reads_merged(tmp_path: Path) -> None:
    run = tmp_path / "run"
    recorders = [Recorder(run, world_size=2, rank=r, record_all_ranks=True, install_handlers=False,
                          capture_env=False) for r in (0, 1)]
    for r, rec in enumerate(recorders):
        assert rec.active and rec.run_dir == run / f"rank-{r}"
        for step in range(3):
            rec.log_step(step, loss=float(10 * r + step))
        rec.log_samples(0, [{"completion": f"r{r}"}], select=False)
        rec.log_event("hello", message=f"rank {r}")
        rec.close()
    reader = RunReader(run)
    steps = reader.steps()
    assert steps.column("rank").to_pylist() == [0, 0, 0, 1, 1, 1]
    assert steps.column("loss").to_pylist() == [0.0, 1.0, 2.0, 10.0, 11.0, 12.0]
    assert sorted(reader.samples().column("rank").to_pylist()) == [0, 1]
    hello = [e for e in reader.events() if e["kind"] == "hello"]
    assert sorted(e["rank"] for e in hello) == [0, 1]
    manifest = load_manifest(run)
    assert manifest["rank"] == 0 and manifest["recorded_ranks"] == [0, 1]
    assert [Path(r["path"]) for r in list_runs(tmp_path)] == [run]


@pytest.mark.parametrize("kwargs", [
    {"queue_size": 0}, {"flush_interval_s": 0}, {"steps_per_flush": -1}, {"world_size": 0},
    {"rank": 2, "world_size": 2}, {"rank": -1}, {"queue_size": True},
])
def test_bad_constructor_arguments_fail_at_once(tmp_path: Path, kwargs: dict) -> None:
    with pytest.raises(ValueError):
        Recorder(tmp_path / "run", install_handlers=False, capture_env=False, **kwargs)
    assert not (tmp_path / "run").exists()


def test_a_run_dir_whose_name_is_not_utf8_fails_at_once_rather_than_never_writing(tmp_path: Path) -> None:
    """pyarrow opens files by UTF-8 name: such a recorder would keep every record in memory and lose it."""
    run = tmp_path / os.fsdecode(b"run-\xff")
    with pytest.raises(ValueError, match="valid UTF-8"):
        Recorder(run, install_handlers=False, capture_env=False)
    assert not run.exists()


def test_bad_sampling_argument(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        Recorder(tmp_path / "run", sampling={"top_k": 1}, install_handlers=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SamplingConfig(top_k=-1)


def test_many_different_sets_of_metric_names_in_one_flush(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(flush_interval_s=60)
    for step in range(100):
        rec.log_step(step, loss=float(step), **{f"only_at_{step}": 1.0, "bad": "x" if step % 2 else 2.0})
    rec.close()
    rows = RunReader(run_dir).steps().to_pylist()
    assert [r["step"] for r in rows] == list(range(100))
    assert all(r["loss"] == r["step"] and r[f"only_at_{r['step']}"] == 1.0 for r in rows)
    assert all(r["only_at_0"] is None for r in rows[1:])
    assert [r["bad"] for r in rows[:4]] == [2.0, None, 2.0, None]
    (bad,) = events_of(run_dir, "bad_record")
    assert bad["data"]["count"] == 50
