"""One real TRL GRPO run on the CPU that every foreign writer records at once, for
tests/trl/test_trl_sources.py: checkpoints + completions parquet (output_dir), TensorBoard,
trackio, an MLflow file store, the printed log dicts on stdout, and rlprobe's own recording.

Usage: python sources_run.py ROOT MODEL_DIR PATHOLOGY  (stdout is the console capture)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

root, model_dir, pathology = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
os.environ["TRACKIO_DIR"] = str(root / "trackio")
os.environ["MLFLOW_TRACKING_URI"] = (root / "mlruns").as_uri()
os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
os.environ["MLFLOW_EXPERIMENT_NAME"] = "rlprobe-test"
sys.path.insert(0, str(Path(__file__).parent))

from tiny_trl import KL_BLOWUP_TRAINING, make_trainer  # noqa: E402

from rlprobe.integrations.trl import attach  # noqa: E402


def constant(completions: list[str], **kwargs: object) -> list[float]:
    """Every completion scores the same: every group's advantage is zero."""
    return [1.0] * len(completions)


settings: dict = dict(KL_BLOWUP_TRAINING) if pathology == "kl_blowup" else dict(reward_funcs=[constant], max_steps=30)
trainer = make_trainer(model_dir, root / "out", report_to=["tensorboard", "trackio", "mlflow"],
                       save_strategy="steps", save_steps=10, log_completions=True, project="rlprobe-test",
                       trackio_static_space_id=False, **settings)
attach(trainer, root / "recording")
trainer.train()
