"""TensorBoard, trackio, MLflow and verl JSONL sources written by the real writers here
(tensorboardX, trackio, mlflow), multi-run sources listed by `rlprobe ls` and addressed as
SOURCE#NAME, and the one-line errors for damaged ones."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rlprobe.doctor import RunView, UnusableInput
from rlprobe.doctor.sources import list_source_runs, resolve

RLPROBE = str(Path(sys.executable).parent / "rlprobe")


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([RLPROBE, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def _metrics(step: int) -> dict[str, float]:
    return {"loss": 0.01 * step, "reward": 0.5 + 0.01 * step, "kl": 0.002 * step, "entropy": 0.7,
            "completions/mean_length": 30.0 + step}


def _tensorboard(folder: Path, steps: int = 40, new_style: bool = False, args: dict | None = None) -> None:
    """Scalars as tensorboardX writes them (``simple_value``), or (``new_style``) as scalar
    tensors, the form TensorFlow 2 and ``torch.utils.tensorboard(new_style=True)`` write,
    built with tensorboardX's own protobuf classes and record writer."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto import event_pb2, summary_pb2, tensor_pb2, tensor_shape_pb2, types_pb2

    writer = SummaryWriter(str(folder))
    if args is not None:
        writer.add_text("args", json.dumps(args))

    def scalar(tag: str, value: float, step: int) -> None:
        if not new_style:
            writer.add_scalar(tag, value, step)
            return
        tensor = tensor_pb2.TensorProto(dtype=types_pb2.DT_FLOAT, float_val=[value],
                                        tensor_shape=tensor_shape_pb2.TensorShapeProto())
        plugin = summary_pb2.SummaryMetadata.PluginData(plugin_name="scalars")
        metadata = summary_pb2.SummaryMetadata(plugin_data=plugin)
        summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, tensor=tensor, metadata=metadata)])
        writer._get_file_writer().add_event(event_pb2.Event(summary=summary, step=step, wall_time=1.0))

    for step in range(1, steps + 1):
        for key, value in _metrics(step).items():
            scalar(f"train/{key}", float("nan") if (key == "kl" and step == 5) else value, step)
        if step % 10 == 0:
            scalar("eval/reward", 0.3, step)
    scalar("train/train_runtime", 12.5, steps)
    writer.close()


@pytest.mark.parametrize("new_style", [False, True])
def test_tensorboard_scalars_text_args_and_the_summary(tmp_path, new_style):
    pytest.importorskip("tensorboardX")
    _tensorboard(tmp_path / "tb", new_style=new_style, args={"beta": 0.04, "num_generations": 8})
    view = RunView.load(tmp_path / "tb")
    assert view.n_steps == 40 and view.series("reward_mean")[9] == pytest.approx(0.6)
    assert np.isnan(view.series("kl_mean")[4]) and view.series("eval/reward")[9] == pytest.approx(0.3)
    assert view.manifest["trainer_config"]["num_generations"] == 8
    assert view.events_of("train_summary")[0]["data"]["train_runtime"] == 12.5
    event_file = next((tmp_path / "tb").iterdir())
    assert RunView.load(event_file).n_steps == 40


def test_a_tensorboard_root_with_several_runs_is_listed_and_addressed(tmp_path):
    pytest.importorskip("tensorboardX")
    _tensorboard(tmp_path / "runs" / "a", steps=20)
    _tensorboard(tmp_path / "runs" / "b", steps=30)
    assert list_source_runs(tmp_path / "runs")[1] == ["a", "b"]
    listed = _cli("ls", str(tmp_path / "runs"))
    assert listed.returncode == 0 and f"{tmp_path / 'runs'}#b" in listed.stdout
    assert RunView.load(f"{tmp_path / 'runs'}#b").n_steps == 30
    done = _cli("doctor", str(tmp_path / "runs"))
    assert done.returncode == 2 and "holds 2 runs" in done.stderr and "#NAME" in done.stderr
    missing = _cli("doctor", f"{tmp_path / 'runs'}#c")
    assert missing.returncode == 2 and "no run named 'c'" in missing.stderr


def test_a_truncated_or_damaged_event_file_is_read_up_to_the_damage_and_garbage_is_one_line(tmp_path):
    pytest.importorskip("tensorboardX")
    _tensorboard(tmp_path / "tb", steps=40)
    event_file = next((tmp_path / "tb").iterdir())
    data = event_file.read_bytes()
    event_file.write_bytes(data[: len(data) - 7])
    assert 35 <= RunView.load(event_file).n_steps <= 40
    damaged = tmp_path / "bad" / event_file.name
    damaged.parent.mkdir()
    damaged.write_bytes(data[:200] + b"\xff" * 64 + data[264:])
    view = RunView.load(damaged)
    assert view.n_steps == 1 and any("bad CRC" in e["message"] for e in view.events_of("import_note"))
    noise = tmp_path / "noise" / event_file.name
    noise.parent.mkdir()
    noise.write_bytes(data[:64] + b"\xff" * 500)  # the file_version record, then garbage
    done = _cli("doctor", str(noise))
    assert done.returncode == 2 and str(noise) in done.stderr and done.stderr.count("\n") == 1
    assert "no scalars before the damage" in done.stderr


def _trackio_project(root: Path) -> Path:
    code = """
import trackio
for name, n in (("run-a", 25), ("run-b", 15)):
    trackio.init(project="proj", name=name, config={"beta": 0.04, "model_name_or_path": "tiny/model"})
    for s in range(1, n + 1):
        trackio.log({"profiling/Time taken: x": 0.1})
        trackio.log({"train/loss": 0.01 * s, "train/reward": float("nan") if s == 3 else 0.1 * s,
                     "train/kl": 0.001 * s, "train/global_step": s})
    trackio.finish()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TRACKIO_DIR": str(root)})
    assert done.returncode == 0, done.stderr[-2000:]
    return root / "proj.db"


def test_trackio_runs_by_trainer_step_with_nan_strings(tmp_path):
    pytest.importorskip("trackio")
    db = _trackio_project(tmp_path / "trackio")
    assert list_source_runs(db)[1] == ["run-a", "run-b"]
    view = RunView.load(f"{db}#run-a")
    assert view.n_steps == 25 and list(view.step[:3]) == [1, 2, 3]
    assert np.isnan(view.series("reward_mean")[2]) and view.series("reward_mean")[3] == pytest.approx(0.4)
    assert view.manifest["model_name"] == "tiny/model" and view.manifest["trainer_config"]["beta"] == 0.04
    assert RunView.load(f"{db}#run-b").n_steps == 15
    listed = _cli("ls", str(db), "--json")
    assert [r["name"] for r in json.loads(listed.stdout)["runs"]] == ["run-a", "run-b"]
    out = tmp_path / "imported"
    assert _cli("import", f"{db}#run-b", str(out)).returncode == 0
    assert RunView.load(out).n_steps == 15


def test_a_damaged_sqlite_file_is_one_line(tmp_path):
    pytest.importorskip("trackio")
    db = _trackio_project(tmp_path / "trackio")
    data = db.read_bytes()
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(data[:4096] + b"\x00" * 100)
    done = _cli("doctor", str(damaged))
    assert done.returncode == 2 and str(damaged) in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("store", ["file", "sqlite"])
def test_mlflow_stores_written_by_mlflow(tmp_path, store):
    pytest.importorskip("mlflow")
    if store == "sqlite":
        pytest.importorskip("sqlalchemy")
        pytest.importorskip("alembic")
    uri = (tmp_path / "mlruns").as_uri() if store == "file" else f"sqlite:///{tmp_path / 'mlflow.db'}"
    code = f"""
import mlflow
mlflow.set_tracking_uri({uri!r})
mlflow.set_experiment("exp")
for name, n in (("first", 20), ("second", 12)):
    with mlflow.start_run(run_name=name):
        mlflow.log_params({{"beta": 0.04, "learning_rate": 1e-6}})
        for s in range(1, n + 1):
            mlflow.log_metrics({{"loss": 0.01 * s, "reward": float("nan") if s == 4 else 0.1 * s,
                                "rewards/fmt/mean": 0.5, "profiling/Time taken: x": 0.1}}, step=s)
        mlflow.log_metrics({{"train_runtime": 3.0}}, step=n)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MLFLOW_ALLOW_FILE_STORE": "true"})
    assert done.returncode == 0, done.stderr[-2000:]
    source = tmp_path / ("mlruns" if store == "file" else "mlflow.db")
    assert list_source_runs(source)[1] == ["first", "second"]
    view = RunView.load(f"{source}#first")
    assert view.n_steps == 20 and np.isnan(view.series("reward_mean")[3])
    assert view.components() == ["fmt"] and not any(n.startswith("profiling/") for n in view.metric_names())
    assert view.manifest["trainer_config"]["beta"] == 0.04
    assert view.events_of("train_summary")[0]["data"]["train_runtime"] == 3.0
    assert RunView.load(f"{source}#second").n_steps == 12
    if store == "file":
        run_dir = next(p for p in source.glob("*/*") if p.is_dir() and (p / "metrics").is_dir())
        assert RunView.load(run_dir).n_steps in (20, 12)


def test_verl_file_logger_jsonl_with_rollout_dumps(tmp_path):
    log = tmp_path / "verl_demo" / "exp.jsonl"
    (log.parent / "rollouts").mkdir(parents=True)
    with open(log, "w") as fh:
        for s in range(1, 31):
            fh.write(json.dumps({"step": s, "elapsed_seconds": 2.0 * s, "data": {
                "critic/score/mean": 0.02 * s, "actor/entropy": 0.5, "actor/ppo_kl": 1e-4, "actor/kl_loss": 0.001,
                "actor/pg_loss": -0.01, "actor/grad_norm": 0.3, "response_length/mean": 200.0,
                "response_length/clip_ratio": 0.01, "training/global_step": s}}) + "\n")
        fh.write('{"step": 31, "data": {"critic/sc')  # the writer was killed mid-line
    for s in (10, 20):
        with open(log.parent / "rollouts" / f"{s}.jsonl", "w") as fh:
            for i in range(8):
                fh.write(json.dumps({"input": f"q{i // 4}", "output": "x" * i, "gts": "4", "score": float(i % 2),
                                     "step": s}) + "\n")
    view = RunView.load(log)
    assert view.n_steps == 30 and view.series("reward_mean")[-1] == pytest.approx(0.6)
    assert view.series("grad_norm")[0] == 0.3 and "actor/ppo_kl" in view.metric_names()
    assert view.samples.height == 16 and view.samples["group_id"].n_unique() == 4
    assert any("cut short" in e["message"] for e in view.events_of("import_note"))


def test_an_empty_directory_is_not_a_source(tmp_path):
    with pytest.raises(UnusableInput, match="not an rlprobe recording or a known log format"):
        resolve(tmp_path)
