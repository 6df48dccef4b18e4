"""A real TRL GRPO run on the CPU that knows nothing of rlprobe (no ``attach``), for
tests/trl/test_trl_watch.py: a learning rate far too high makes the KL to the reference
blow up within a few steps. Its Trainer prints its log dicts on stdout (the console log),
and ``report_to`` may add TensorBoard.

Usage: python watch_train.py OUTPUT_DIR MODEL_DIR REPORT_TO MAX_STEPS
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tiny_trl import KL_BLOWUP_TRAINING, make_trainer  # noqa: E402

output_dir, model_dir, report_to, max_steps = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
settings = {**KL_BLOWUP_TRAINING, "max_steps": max_steps}
make_trainer(model_dir, output_dir, report_to=report_to, **settings).train()
