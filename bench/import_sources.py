"""What reading a foreign source costs against reading the same run as an rlprobe recording.

    python bench/import_sources.py                  # 100k steps
    python bench/import_sources.py --steps 10000    # a smaller run (a smoke run)
    python bench/import_sources.py --keep DIR       # write the sources under DIR and reuse them

Two sources of one 100k-step run: a ``trainer_state.json`` (30 TRL GRPO keys a log entry,
an eval row every 1000 steps, written as the Trainer writes it: indented, sorted keys) and
a TensorBoard event file of 100k steps x 30 tags (written record by record with
tensorboardX's protobuf classes and CRCs, as its SummaryWriter does, without the writer's
per-call overhead). Each is measured in a fresh process: the first command on a source
(``RunView.load`` = recognise + import into the cache + load), a later command on the
unchanged source (recognise + identity check + load the cached import), and ``RunView.load``
of the equivalent rlprobe recording (the import's output). Ratios are against the last.

This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KEYS = ["loss", "grad_norm", "learning_rate", "num_tokens", "completions/mean_length", "completions/min_length",
        "completions/max_length", "completions/clipped_ratio", "completions/mean_terminated_length",
        "completions/min_terminated_length", "completions/max_terminated_length", "rewards/accuracy/mean",
        "rewards/accuracy/std", "rewards/format/mean", "rewards/format/std", "reward", "reward_std",
        "frac_reward_zero_std", "kl", "entropy", "clip_ratio/low_mean", "clip_ratio/low_min",
        "clip_ratio/high_mean", "clip_ratio/high_max", "clip_ratio/region_mean", "step_time", "epoch",
        "completion_length", "rewards/length/mean", "rewards/length/std"]
assert len(KEYS) == 30

_MEASURE = r"""
import json, os, sys, time
t0 = time.perf_counter()
from rlprobe.doctor import RunView
view = RunView.load(sys.argv[1])
elapsed = time.perf_counter() - t0
from rlprobe.doctor.sources import recording_dir
print(json.dumps({"s": elapsed, "steps": view.n_steps, "recording": str(recording_dir(sys.argv[1]))}))
"""


def _value(step: int, k: int) -> float:
    return round(0.001 * ((step * (k + 7)) % 997) + k, 6)


def write_trainer_state(path: Path, n: int) -> None:
    history = []
    for step in range(1, n + 1):
        history.append({**{key: _value(step, k) for k, key in enumerate(KEYS)}, "step": step})
        if step % 1000 == 0:
            history.append({"eval_loss": 0.5, "eval_reward": 0.4, "eval_runtime": 10.0, "epoch": step / n,
                            "step": step})
    with open(path, "w") as fh:
        json.dump({"global_step": n, "epoch": 1.0, "log_history": history}, fh, indent=2, sort_keys=True)


def write_event_file(folder: Path, n: int) -> None:
    import struct

    from tensorboardX.proto import event_pb2, summary_pb2
    from tensorboardX.record_writer import masked_crc32c

    folder.mkdir(parents=True, exist_ok=True)
    Event, Summary, Value = event_pb2.Event, summary_pb2.Summary, summary_pb2.Summary.Value
    with open(folder / "events.out.tfevents.1.bench", "wb") as fh:
        def record(data: bytes) -> None:
            header = struct.pack("Q", len(data))
            fh.write(header + struct.pack("I", masked_crc32c(header)) + data + struct.pack("I", masked_crc32c(data)))

        record(Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString())
        tags = [f"train/{key}" for key in KEYS]
        for step in range(1, n + 1):
            for k, tag in enumerate(tags):
                record(Event(wall_time=1.0 + step, step=step,
                             summary=Summary(value=[Value(tag=tag, simple_value=_value(step, k))])).SerializeToString())


def timed(target: Path, cache: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(target)], check=True, capture_output=True, text=True,
                         env={**__import__("os").environ, "RLPROBE_CACHE_DIR": str(cache), "OMP_NUM_THREADS": "1"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="write (and reuse) the sources under this directory")
    args = parser.parse_args()
    n = args.steps
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        sources = {"trainer_state.json": root / f"trainer_state-{n}.json", "tensorboard": root / f"tb-{n}"}
        for name, path in sources.items():
            if not path.exists():
                start = time.perf_counter()
                (write_trainer_state if name == "trainer_state.json" else write_event_file)(path, n)
                print(f"  wrote {name} ({n} steps x {len(KEYS)} metrics) in {time.perf_counter() - start:.0f} s",
                      file=sys.stderr)
        print(f"{'source':<20} {'size MB':>8} {'first s':>8} {'cached s':>9} {'recording s':>12} "
              f"{'first/rec':>10} {'cached/rec':>11}")
        for name, path in sources.items():
            cache = Path(tmp) / f"cache-{name}"
            size = sum(p.stat().st_size for p in ([path] if path.is_file() else path.iterdir())) / 2**20
            first = timed(path, cache)
            cached = timed(path, cache)
            recording = timed(Path(first["recording"]), cache)
            assert first["steps"] == cached["steps"] == recording["steps"] == n, (first, recording)
            print(f"{name:<20} {size:>8.1f} {first['s']:>8.2f} {cached['s']:>9.2f} {recording['s']:>12.2f} "
                  f"{first['s'] / recording['s']:>9.1f}x {cached['s'] / recording['s']:>10.1f}x")


if __name__ == "__main__":
    main()
