"""What a SIGKILL costs a recording: the steps logged but not yet on disk when the process dies.

    python bench/kill_loss.py                 # 8 kills at 20 steps/s, today's defaults
    python bench/kill_loss.py --trials 3      # fewer (a smoke run)

Each trial runs a child process that logs steps as TRL does (30 metrics a step) at a steady
``--rate`` steps/s into a Recorder with the given flush settings, and SIGKILLs it at a random
moment 3-13 s in. The loss is the last step the child logged minus the last step on disk,
as steps and as wall time (steps / rate). Two settings run in the same invocation: today's
defaults (``flush_interval_s=5``, ``steps_per_flush=200``) and ``flush_interval_s=1`` as the
baseline, so that the loss is seen to follow the flush interval (wall time), not the step
count; the ratios printed are the worst loss in seconds over each setting's interval.

This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import sys, time
from rlprobe import Recorder
run, rate, interval, per_flush = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
rec = Recorder(run, flush_interval_s=interval, steps_per_flush=per_flush, capture_env=False)
metrics = {f"train/metric_{i:02d}": 0.5 + i for i in range(30)}
start = time.monotonic()
step = 0
while True:
    step += 1
    rec.log_step(step, **metrics)
    print(step, flush=True)
    time.sleep(max(0.0, start + step / rate - time.monotonic()))
"""


def trial(root: Path, rate: float, interval: float, per_flush: int, rng: random.Random) -> int:
    """Steps lost by one kill: last logged - last on disk."""
    from rlprobe.storage import RunReader

    run = root / f"run-{rng.getrandbits(32):08x}"
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(run), str(rate), str(interval), str(per_flush)],
                            stdout=subprocess.PIPE, text=True)
    kill_at = time.monotonic() + rng.uniform(3.0, 13.0)
    logged = 0
    for line in proc.stdout:
        logged = int(line)
        if time.monotonic() >= kill_at:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    logged = max([logged] + [int(line) for line in proc.stdout.read().split()])  # printed before the kill landed
    proc.stdout.close()
    try:
        steps = RunReader(run).steps().column("step").to_pylist()
    except FileNotFoundError:
        steps = []
    return logged - (max(steps) if steps else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--rate", type=float, default=20.0, help="steps per second")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    settings = [("defaults (5 s, 200 steps)", 5.0, 200), ("baseline (1 s, 200 steps)", 1.0, 200)]
    print(f"SIGKILL at a random moment 3-13 s into a run logging {options.rate:g} steps/s; {options.trials} kills each")
    print(f"{'setting':28} {'lost steps (mean / max)':>24} {'lost s (mean / max)':>20} {'max / interval':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, interval, per_flush in settings:
            lost = [trial(Path(tmp), options.rate, interval, per_flush, rng) for _ in range(options.trials)]
            seconds = [n / options.rate for n in lost]
            print(f"{label:28} {sum(lost) / len(lost):>12.1f} / {max(lost):<9d} "
                  f"{sum(seconds) / len(seconds):>9.2f} / {max(seconds):<8.2f} {max(seconds) / interval:>14.2f}")


if __name__ == "__main__":
    main()
