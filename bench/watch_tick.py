"""What one ``RunWatcher.tick()`` costs on a short and on a long run.

    python bench/watch_tick.py            # 1k and 100k steps
    python bench/watch_tick.py --quick    # 1k and 10k steps (a smoke run)

For each run length it writes a running recording the way the Recorder does (parts of
1000 steps, compacted; 25 metrics a step, 8 samples every 10 steps, an event every 100
steps), starts a watcher on it (the first tick reads and diagnoses the whole run), then
times ticks that each find one new part of 10 steps (a flush), ticks that find nothing
new, and ticks right after a compaction. The same is repeated with ``window_steps=None``
(every tick diagnoses the whole run) to show what the window saves. Last, the Recorder's
real cadence on a slow job — one step per part, compacted every 256 parts — where the
compacted file holds one Parquet row group per part: the reader opens it (parses its
footer) every tick, so that cost grows with the number of parts. The target (issue 6):
a tick's cost does not grow with the run's length — the ratio 100k/1k stays near 1 (a
run shorter than the window is diagnosed whole, so 10k/100k compares like with like).

Then a console log (the Trainer's printed dicts, as a TRL job without rlprobe writes them)
of the same length, watched as it grows (``rlprobe watch job.out``): each timed tick finds 10
new lines, against a tick on the recording that finds a new part of 10 steps, measured in the
same run. Target (issue 19): the log's tick costs about what the recording's does.

    python bench/watch_tick.py --log-only         # just that comparison, at 100k steps

The figures depend on how many detectors are registered; the count is printed.
This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rlprobe.doctor.catalog import registry
from rlprobe.doctor.live import RunWatcher
from rlprobe.storage import RunWriter, compact_run

METRICS = 25
PART_STEPS = 10
TICKS = 30


def _steps(first: int, last: int, t_end: float, rng: np.random.Generator) -> list[dict[str, Any]]:
    values = rng.normal(1.0, 0.05, (last - first, METRICS))
    return [{"step": s, "time": t_end - (last - s), "kl_mean": 0.01 * v[0], "reward_mean": 0.5 * v[1],
             "entropy_mean": v[2], "grad_norm": v[3], **{f"extra/m{i}": float(v[i]) for i in range(4, METRICS)}}
            for s, v in zip(range(first, last), values, strict=True)]


def _samples(first: int, last: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    return [{"step": s, "sample_id": f"s{s}-{g}", "prompt_id": f"q{s % 97}", "group_id": f"{s}",
             "prompt": "What is 12 + 30?", "completion": "<think>12 + 30 = 42</think> 42",
             "reward": float(rng.random()), "advantage": float(rng.normal()), "length": 40}
            for s in range(first, last) if s % 10 == 0 for g in range(8)]


def _recording(root: Path, n: int) -> tuple[RunWriter, np.random.Generator]:
    rng = np.random.default_rng(0)
    writer = RunWriter(root / f"run-{n}", {"run_id": f"bench-{n}", "algorithm": "grpo"})
    now = time.time()
    for first in range(0, n, 1000):
        last = min(n, first + 1000)
        writer.write_part(_steps(first, last, now - (n - last), rng), _samples(first, last, rng))
        writer.append_events([("checkpoint", s, "saved", None, None) for s in range(first, last, 100)])
    compact_run(writer.run_dir)
    return writer, rng


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(root: Path, n: int, window: int | None) -> dict[str, float]:
    writer, rng = _recording(root / f"w{window}", n)
    watcher = RunWatcher(writer.run_dir, window_steps=window)
    first = _timed(watcher.tick)
    step = n
    fresh, idle, after_compaction = [], [], []
    for i in range(TICKS):
        writer.write_part(_steps(step, step + PART_STEPS, time.time(), rng), _samples(step, step + PART_STEPS, rng))
        step += PART_STEPS
        if i % 10 == 9:
            compact_run(writer.run_dir)
            after_compaction.append(_timed(watcher.tick))
        else:
            fresh.append(_timed(watcher.tick))
        idle.append(_timed(watcher.tick))
    assert watcher.view is not None and watcher.view.n_steps == step, "the watcher missed or doubled rows"
    return {"first": first, "fresh": statistics.median(fresh), "fresh_max": max(fresh),
            "idle": statistics.median(idle), "compaction": statistics.median(after_compaction)}


def measure_cadence(root: Path, n: int) -> dict[str, float]:
    """Idle and new-step tick on a run written one step per part, compacted every 256 parts."""
    rng = np.random.default_rng(0)
    writer = RunWriter(root / f"cadence-{n}", {"run_id": f"cadence-{n}", "algorithm": "grpo"})
    now = time.time()
    for step in range(n):
        writer.write_part(_steps(step, step + 1, now - (n - step), rng))
        if step % 256 == 255:
            compact_run(writer.run_dir)
    watcher = RunWatcher(writer.run_dir)
    watcher.tick()
    idle, fresh = [], []
    for i in range(10):
        writer.write_part(_steps(n + i, n + i + 1, time.time(), rng))
        fresh.append(_timed(watcher.tick))
        idle.append(_timed(watcher.tick))
    return {"fresh": statistics.median(fresh), "idle": statistics.median(idle)}


def _dict_lines(first: int, last: int, rng: np.random.Generator) -> bytes:
    """Trainer log dicts as the Trainer prints them (values as 4-significant-digit strings)."""
    values = rng.normal(1.0, 0.05, (last - first, METRICS))
    lines = []
    for s, v in zip(range(first, last), values, strict=True):
        row = {"loss": v[0], "grad_norm": v[1], "learning_rate": 1e-6, "reward": 0.5 * v[2], "kl": 0.01 * v[3],
               "entropy": v[4], **{f"extra/m{i}": v[i] for i in range(5, METRICS)}, "epoch": s / 1000}
        lines.append(repr({k: f"{float(x):.4g}" for k, x in row.items()}))
    return ("\n".join(lines) + "\n").encode()


def measure_log(root: Path, n: int, ticks: int = 10) -> dict[str, float]:
    """Ticks on a console log of ``n`` printed dicts that each find 10 new lines, and ticks on
    a recording of ``n`` steps that each find a new part of 10 steps."""
    rng = np.random.default_rng(1)
    log = root / f"job-{n}.out"
    with open(log, "wb") as out:
        for first in range(0, n, 10_000):
            out.write(_dict_lines(first, min(n, first + 10_000), rng))
    watcher = RunWatcher(log)
    first_tick = _timed(watcher.tick)
    fresh = []
    for i in range(ticks):
        with open(log, "ab") as out:
            out.write(_dict_lines(n + 10 * i, n + 10 * (i + 1), rng))
        fresh.append(_timed(watcher.tick))
    assert watcher.view is not None and watcher.view.n_steps == n + 10 * ticks, "the watcher missed or doubled lines"
    writer, rng = _recording(root / "log-baseline", n)
    recorded = RunWatcher(writer.run_dir)
    recorded.tick()
    baseline = []
    for i in range(ticks):
        writer.write_part(_steps(n + 10 * i, n + 10 * (i + 1), time.time(), rng))
        baseline.append(_timed(recorded.tick))
    return {"first": first_tick, "log": statistics.median(fresh), "log_max": max(fresh),
            "recording": statistics.median(baseline)}


def report_log(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        r = measure_log(Path(tmp), n)
    print(f"console log of {n} printed dicts: first tick (reads it whole) {r['first']:.2f}s; tick after 10 new lines "
          f"{r['log'] * 1e3:.1f}ms (max {r['log_max'] * 1e3:.1f}ms), recording's tick after a part of 10 steps "
          f"{r['recording'] * 1e3:.1f}ms: {r['log'] / r['recording']:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k steps instead of 1k and 100k")
    parser.add_argument("--log-only", action="store_true", help="only a growing console log against a recording")
    args = parser.parse_args()
    if args.log_only:
        print(f"{len(registry())} detectors registered; {METRICS} metrics/step")
        report_log(10_000 if args.quick else 100_000)
        return
    sizes = (1_000, 5_000, 10_000) if args.quick else (1_000, 10_000, 100_000)
    print(f"{len(registry())} detectors registered; ticks after one new part of {PART_STEPS} steps each; "
          f"{METRICS} metrics/step, 8 samples every 10 steps")
    print(f"{'window':>8} {'steps':>8} {'first tick':>11} {'new part':>9} {'(max)':>8} {'idle':>8} "
          f"{'compacted':>10}")
    results: dict[tuple[int | None, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for window in (4096, None):
            for n in sizes:
                r = results[(window, n)] = measure(Path(tmp), n, window)
                print(f"{str(window):>8} {n:>8} {r['first'] * 1e3:>9.1f}ms {r['fresh'] * 1e3:>7.1f}ms "
                      f"{r['fresh_max'] * 1e3:>6.1f}ms {r['idle'] * 1e3:>6.1f}ms {r['compaction'] * 1e3:>8.1f}ms")
    print("recorder cadence (one step per part, compacted every 256 parts):")
    cadence = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (500, 4000):
            r = cadence[n] = measure_cadence(Path(tmp), n)
            print(f"{n:>8} steps: tick with a new step {r['fresh'] * 1e3:.1f}ms, idle tick {r['idle'] * 1e3:.1f}ms")
    print(f"cadence 4000/500 steps: tick with a new step {cadence[4000]['fresh'] / cadence[500]['fresh']:.2f}x, "
          f"idle tick {cadence[4000]['idle'] / cadence[500]['idle']:.2f}x")
    report_log(sizes[-1])
    small, middle, large = sizes
    for window in (4096, None):
        for base in (small, middle):
            a, b = results[(window, base)], results[(window, large)]
            print(f"window={window}: {large // 1000}k/{base // 1000}k steps: tick with a new part "
                  f"{b['fresh'] / a['fresh']:.2f}x, idle tick {b['idle'] / a['idle']:.2f}x")


if __name__ == "__main__":
    main()
