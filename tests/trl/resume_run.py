"""One session of a real TRL GRPO run recorded with ``attach``, for tests/trl/test_trl_resume.py:
a checkpoint every 20 steps, the recording flushed only when asked (so what a kill loses is
known), and a hang at a chosen step for the test to SIGKILL it there.

Usage: python resume_run.py ROOT MODEL_DIR [--resume CHECKPOINT] [--flush-at STEP] [--hang-at STEP]

Prints ``logged STEP`` (flushed) after each train log is recorded.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tiny_trl import make_trainer  # noqa: E402
from transformers import TrainerCallback  # noqa: E402

from rlprobe.integrations.trl import attach  # noqa: E402

MAX_STEPS, SAVE_STEPS = 40, 20

parser = argparse.ArgumentParser()
parser.add_argument("root", type=Path)
parser.add_argument("model_dir", type=Path)
parser.add_argument("--resume")
parser.add_argument("--flush-at", type=int)
parser.add_argument("--hang-at", type=int)
options = parser.parse_args()


class Steer(TrainerCallback):
    """Registered after rlprobe's callback, so a step's log is recorded (queued) before this sees it."""

    def on_log(self, args, state, control, logs=None, **kwargs):
        step = state.global_step
        if step == options.flush_at:
            assert recording.recorder.flush(30)
        print("logged", step, flush=True)
        if step == options.hang_at:
            time.sleep(600)  # the test SIGKILLs us here


trainer = make_trainer(options.model_dir, options.root / "out", max_steps=MAX_STEPS, save_strategy="steps",
                       save_steps=SAVE_STEPS)
# Nothing reaches the disk but at --flush-at: the steps after it are what a kill loses.
recording = attach(trainer, options.root / "run", flush_interval_s=3600, steps_per_flush=100_000)
trainer.add_callback(Steer())
trainer.train(resume_from_checkpoint=options.resume)
