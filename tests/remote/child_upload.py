"""Records with ``upload_to`` until killed: python child_upload.py RUN_DIR URL.

Logs steps 0, 1, 2, ... (samples every 5th) with small, fast flushes, so that parts,
compactions and uploads all happen within seconds; prints each step count it has flushed."""
from __future__ import annotations

import sys

from rlprobe import Recorder

run_dir, url = sys.argv[1], sys.argv[2]
rec = Recorder(run_dir, upload_to=url, flush_interval_s=0.02, steps_per_flush=10, capture_env=False)
step = 0
while True:
    rec.log_step(step, kl=0.01, reward=float(step % 7))
    if step % 5 == 0:
        rec.log_samples(step, [{"prompt": f"p{step}", "completion": "c" * 40, "reward": 1.0}])
    step += 1
    if step % 20 == 0:
        rec.flush()
        print(step, flush=True)
