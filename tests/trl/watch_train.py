"""A real TRL GRPO run on the CPU that knows nothing of rlprobe (no ``attach``), for
tests/trl/test_trl_watch.py: a learning rate far too high makes the KL to the reference
blow up within a few steps. Its Trainer prints its log dicts on stdout (the console log),
``report_to`` may add TensorBoard, and ``--checkpoints`` saves one every 10 steps and the
final state (``trainer.save_state()``), as TRL's example scripts do.

Usage: python watch_train.py OUTPUT_DIR MODEL_DIR REPORT_TO MAX_STEPS [--checkpoints]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tiny_trl import KL_BLOWUP_TRAINING, make_trainer  # noqa: E402

output_dir, model_dir, report_to, max_steps = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
checkpoints = "--checkpoints" in sys.argv
settings = {**KL_BLOWUP_TRAINING, "max_steps": max_steps}
if checkpoints:
    settings.update(save_strategy="steps", save_steps=10)
trainer = make_trainer(model_dir, output_dir, report_to=report_to, **settings)
trainer.train()
if checkpoints:
    trainer.save_state()
