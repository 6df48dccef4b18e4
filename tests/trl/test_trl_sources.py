"""The doctor on what a real TRL 1.7 GRPO run left behind in every foreign format reaches
the findings it reaches on rlprobe's own recording of the same run: the output_dir
(checkpoints, training_args.bin, completions parquet), the TensorBoard dir, the trackio
database, the MLflow file store and the console output."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlprobe.doctor import RunView, diagnose

pytest.importorskip("tensorboardX")
pytest.importorskip("trackio")
pytest.importorskip("mlflow")

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def import_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLPROBE_CACHE_DIR", str(tmp_path_factory.mktemp("import-cache")))


def _train(root: Path, model_dir: Path, pathology: str) -> dict[str, Path]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    with open(root / "console.log", "w") as out:
        done = subprocess.run([sys.executable, str(HERE / "sources_run.py"), str(root), str(model_dir), pathology],
                              stdout=out, stderr=subprocess.PIPE, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    tensorboard = next((root / "out" / "runs").iterdir())
    return {
        "output_dir": root / "out",
        "checkpoint": sorted((root / "out").glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))[-1],
        "tensorboard": tensorboard,
        "trackio": root / "trackio" / "rlprobe-test.db",
        "mlflow": root / "mlruns",
        "console": root / "console.log",
    }


def _signatures(source: Path | str) -> list[tuple[str, str]]:
    return [(f.signature_id, f.severity) for f in diagnose(source)]


@pytest.mark.parametrize("pathology, expected",
                         [("kl_blowup", "KL_BLOWUP"), ("zero_advantage", "ZERO_ADVANTAGE_GROUPS")])
def test_every_foreign_source_of_a_real_run_gets_the_recordings_findings(tiny_model_dir, tmp_path, pathology, expected):
    sources = _train(tmp_path, tiny_model_dir, pathology)
    recording = RunView.load(tmp_path / "recording")
    reference = _signatures(tmp_path / "recording")
    assert (expected, "critical") in reference
    for kind, source in sources.items():
        view = RunView.load(source)
        if kind == "checkpoint":  # a checkpoint holds the history up to its step
            assert view.n_steps <= recording.n_steps
            continue
        assert view.n_steps == recording.n_steps, kind
        assert set(recording.metric_names()) <= set(view.metric_names()) | {"step_time"}, kind
        assert _signatures(source) == reference, kind
    output_dir = RunView.load(sources["output_dir"])
    assert output_dir.manifest["trainer_config"]["config_class"] == "GRPOConfig"
    assert output_dir.manifest["algorithm"] == "grpo"
    assert output_dir.samples.height == recording.samples.height
    assert RunView.load(sources["trackio"]).samples.height == recording.samples.height
    assert RunView.load(sources["tensorboard"]).manifest["trainer_config"]["num_generations"] == 4
