"""``attach(trainer, run_dir, upload_to=URL)``: a real TRL GRPO run on the CPU mirrored to the
bucket as it trains; once ``train()`` returns, the bucket holds the same recording as the
local directory and the doctor reads the same findings from both."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trl"))
from tiny_trl import build_tiny_model, make_trainer  # noqa: E402

from rlprobe.doctor import diagnose  # noqa: E402
from rlprobe.integrations.trl import attach  # noqa: E402
from rlprobe.storage import RunReader  # noqa: E402


def test_attach_mirrors_a_real_trl_run_to_the_bucket(bucket, tmp_path):
    model = build_tiny_model(tmp_path / "model")
    trainer = make_trainer(model, tmp_path / "out", max_steps=8)
    url = f"{bucket}/runs/trl"
    callback = attach(trainer, tmp_path / "run", upload_to=url)
    trainer.train()
    callback.recorder.close()

    local, remote = RunReader(tmp_path / "run"), RunReader(url)
    assert remote.manifest["status"] == "finished" and remote.manifest["run_id"] == local.manifest["run_id"]
    assert remote.steps().column("step").to_pylist() == list(range(1, 9))
    assert remote.steps().drop_columns(["time"]).equals(local.steps().drop_columns(["time"]))
    assert remote.samples().num_rows == local.samples().num_rows > 0
    assert [f.model_dump() for f in diagnose(url)] == [f.model_dump() for f in diagnose(tmp_path / "run")]
