"""What recording costs the training loop, and how fast the recorder's writer is.

    python bench/recorder_overhead.py            # every case, a fresh process each
    python bench/recorder_overhead.py --quick    # fewer steps (a smoke run)
    python bench/recorder_overhead.py --json out.json

Per-call latency of ``log_step(step, **20 floats)`` on the calling thread (median, p99),
each case in a fresh process and each measured against the floor measured in that same
process: an empty function with the same signature, timed the same way. trackio, W&B
(offline mode) and tensorboardX are measured when importable and skipped otherwise.
Then the writer: steps/s and samples/s (1 KB texts) with ``queue_size=8192`` and no drops,
and ``close()`` time for a 100k-step run. Targets (issue 2): median ≤ 2× floor,
p99 ≤ 20 µs, ≥ 50k steps/s, ≥ 10k samples/s, close(100k steps) ≤ 1 s.

This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

N_METRICS = 20
TEXT_BYTES = 1024
SAMPLES_PER_CALL = 16

TARGETS = {
    "median_ratio": 2.0,
    "p99_us": 20.0,
    "steps_per_s": 50_000,
    "samples_per_s": 10_000,
    "close_100k_s": 1.0,
}


def _metrics() -> dict[str, float]:
    return {f"train/metric_{i:02d}": 0.5 + i for i in range(N_METRICS)}


def _summary(ns: list[int]) -> dict[str, float]:
    ordered = sorted(ns)
    return {"median_us": ordered[len(ordered) // 2] / 1e3, "p99_us": ordered[int(len(ordered) * 0.99)] / 1e3,
            "mean_us": statistics.fmean(ordered) / 1e3}


def _floor(step: int, **metrics: float) -> None:
    return None


# -- the logging functions under test; each returns (log, finish) ----------------------------


def _setup_rlprobe(tmp: str) -> tuple[Callable[..., Any], Callable[[], dict[str, Any]]]:
    from rlprobe import Recorder

    rec = Recorder(Path(tmp) / "run", capture_env=False, install_handlers=False)
    rec.flush(30)  # the writer thread has started up, as it has long before a training loop's first step

    def finish() -> dict[str, Any]:
        rec.close()
        return {"dropped": rec.dropped}

    return rec.log_step, finish


def _setup_trackio(tmp: str) -> tuple[Callable[..., Any], Callable[[], dict[str, Any]]]:
    os.environ["TRACKIO_DIR"] = tmp
    import trackio

    trackio.init(project="rlprobe-bench", name="bench")

    def log(step: int, **metrics: float) -> None:
        trackio.log(metrics, step=step)

    def finish() -> dict[str, Any]:
        trackio.finish()
        return {}

    return log, finish


def _setup_wandb(tmp: str) -> tuple[Callable[..., Any], Callable[[], dict[str, Any]]]:
    os.environ["WANDB_SILENT"] = "true"
    import wandb

    run = wandb.init(mode="offline", dir=tmp, project="rlprobe-bench")

    def log(step: int, **metrics: float) -> None:
        run.log(metrics, step=step)

    def finish() -> dict[str, Any]:
        run.finish()
        return {}

    return log, finish


def _setup_tensorboardx(tmp: str) -> tuple[Callable[..., Any], Callable[[], dict[str, Any]]]:
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(tmp)

    def log(step: int, **metrics: float) -> None:
        for name, value in metrics.items():
            writer.add_scalar(name, value, step)

    def finish() -> dict[str, Any]:
        writer.close()
        return {}

    return log, finish


CASES = {"rlprobe": _setup_rlprobe, "trackio": _setup_trackio, "wandb": _setup_wandb,
         "tensorboardX": _setup_tensorboardx}
MODULES = {"rlprobe": "rlprobe", "trackio": "trackio", "wandb": "wandb", "tensorboardX": "tensorboardX"}


def run_latency_case(name: str, n: int) -> dict[str, Any]:
    """In this (fresh) process: ``n`` calls of ``name``'s log function, each paired with a
    call of the floor timed right before it, so that both see the same machine."""
    metrics = _metrics()
    clock = time.perf_counter_ns
    with tempfile.TemporaryDirectory() as tmp:
        log, finish = CASES[name](tmp)
        for i in range(min(n // 10, 500)):
            _floor(i, **metrics)
            log(i, **metrics)
        floor_ns, log_ns = [0] * n, [0] * n
        for i in range(n):
            t0 = clock()
            _floor(i, **metrics)
            t1 = clock()
            log(i, **metrics)
            t2 = clock()
            floor_ns[i], log_ns[i] = t1 - t0, t2 - t1
        extra = finish()
    floor, measured = _summary(floor_ns), _summary(log_ns)
    return {"case": name, "n": n, "floor": floor, "log": measured,
            "median_ratio": measured["median_us"] / floor["median_us"],
            "p99_ratio": measured["p99_us"] / floor["p99_us"], **extra}


# -- writer figures ----------------------------------------------------------------------------


def _paced(rec: Any, limit: int) -> None:
    """Wait while the queue is nearly full, so that nothing is dropped."""
    while rec.queued > limit:
        time.sleep(0.0005)


def run_writer_figures(n_steps: int, n_samples: int, n_close: int) -> dict[str, Any]:
    from rlprobe import Recorder

    out: dict[str, Any] = {}
    metrics = _metrics()
    with tempfile.TemporaryDirectory() as tmp:
        rec = Recorder(Path(tmp) / "steps", capture_env=False, install_handlers=False, queue_size=8192)
        start = time.perf_counter()
        for i in range(n_steps):
            if i % 256 == 0:
                _paced(rec, 6000)
            rec.log_step(i, **metrics)
        assert rec.flush(60)
        elapsed = time.perf_counter() - start
        rec.close()
        out["steps_per_s"] = n_steps / elapsed
        out["steps_dropped"] = rec.dropped

        text = "x" * TEXT_BYTES
        rec = Recorder(Path(tmp) / "samples", capture_env=False, install_handlers=False, queue_size=8192)
        start = time.perf_counter()
        calls = n_samples // SAMPLES_PER_CALL
        for i in range(calls):
            if i % 16 == 0:
                _paced(rec, 6000)
            rec.log_samples(i, [{"prompt": text, "completion": text, "reward": float(j), "advantage": 0.1 * j,
                                 "prompt_id": f"p{i}", "length": TEXT_BYTES} for j in range(SAMPLES_PER_CALL)],
                            select=False)
        assert rec.flush(60)
        elapsed = time.perf_counter() - start
        rec.close()
        out["samples_per_s"] = calls * SAMPLES_PER_CALL / elapsed
        out["samples_dropped"] = rec.dropped

        rec = Recorder(Path(tmp) / "close", capture_env=False, install_handlers=False, queue_size=8192)
        for i in range(n_close):
            if i % 256 == 0:
                _paced(rec, 6000)
            rec.log_step(i, **metrics)
        start = time.perf_counter()
        rec.close()
        out["close_s"] = time.perf_counter() - start
        out["close_steps"] = n_close
        out["close_dropped"] = rec.dropped
        parts = list((Path(tmp) / "close" / "parts").glob("*.parquet"))
        out["close_left_parts"] = len(parts)
    return out


def _child(args: list[str]) -> dict[str, Any] | None:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"  ! {' '.join(args)} failed:\n{done.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def _importable(module: str) -> bool:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps: a smoke run, not a measurement")
    parser.add_argument("--steps", type=int, default=20_000, help="calls timed per latency case")
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per latency case")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--writer", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    steps = 2_000 if args.quick else args.steps
    if args.case:
        print(json.dumps(run_latency_case(args.case, steps)))
        return 0
    if args.writer:
        n = (10_000, 4_000, 10_000) if args.quick else (200_000, 50_000, 100_000)
        print(json.dumps(run_writer_figures(*n)))
        return 0

    import platform

    print(f"rlprobe recorder benchmark — Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"{steps} calls of log_step(step, **{N_METRICS} floats) per case; the median of {args.repeats} fresh "
          f"processes (by median × floor); load average {os.getloadavg()[0]:.1f}")
    results: dict[str, Any] = {"latency": {}, "skipped": []}
    for name in CASES:
        if not _importable(MODULES[name]):
            results["skipped"].append(name)
            continue
        runs = [r for r in (_child(["--case", name, "--steps", str(steps)] + (["--quick"] if args.quick else []))
                            for _ in range(1 if args.quick else args.repeats)) if r]
        if runs:
            runs.sort(key=lambda r: r["median_ratio"])
            chosen = dict(runs[len(runs) // 2])
            chosen["median_ratio_range"] = [runs[0]["median_ratio"], runs[-1]["median_ratio"]]
            chosen["p99_us_range"] = [min(r["log"]["p99_us"] for r in runs), max(r["log"]["p99_us"] for r in runs)]
            results["latency"][name] = chosen
    rows = [("case", "median µs", "p99 µs", "floor median", "floor p99", "median × floor", "p99 × floor",
             "median × floor, all runs")]
    for name, r in results["latency"].items():
        low, high = r["median_ratio_range"]
        rows.append((name, f"{r['log']['median_us']:.2f}", f"{r['log']['p99_us']:.2f}",
                     f"{r['floor']['median_us']:.2f}", f"{r['floor']['p99_us']:.2f}",
                     f"{r['median_ratio']:.2f}", f"{r['p99_ratio']:.2f}", f"{low:.2f}–{high:.2f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = zip(row, widths, strict=True)
        print("  " + "  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(cells)))
    if results["skipped"]:
        print(f"  skipped (not importable): {', '.join(results['skipped'])}")
    if "rlprobe" in results["latency"]:
        print(f"  rlprobe dropped {results['latency']['rlprobe']['dropped']} records in the timed tight loop "
              f"(queue_size=8192)")

    writer = _child(["--writer"] + (["--quick"] if args.quick else []))
    if writer:
        results["writer"] = writer
        print(f"  writer: {writer['steps_per_s']:,.0f} steps/s (dropped {writer['steps_dropped']}), "
              f"{writer['samples_per_s']:,.0f} samples/s with {TEXT_BYTES} B texts (dropped "
              f"{writer['samples_dropped']}), close() of a {writer['close_steps']:,}-step run "
              f"{writer['close_s']:.3f} s")

    rl = results["latency"].get("rlprobe")
    if rl and writer:
        checks = [
            ("median ≤ 2× floor", rl["median_ratio"] <= TARGETS["median_ratio"], f"{rl['median_ratio']:.2f}×"),
            ("p99 ≤ 20 µs", rl["log"]["p99_us"] <= TARGETS["p99_us"], f"{rl['log']['p99_us']:.1f} µs"),
            ("≥ 50k steps/s", writer["steps_per_s"] >= TARGETS["steps_per_s"], f"{writer['steps_per_s']:,.0f}"),
            ("≥ 10k samples/s", writer["samples_per_s"] >= TARGETS["samples_per_s"],
             f"{writer['samples_per_s']:,.0f}"),
            ("close(100k) ≤ 1 s", writer["close_s"] <= TARGETS["close_100k_s"], f"{writer['close_s']:.3f} s"),
        ]
        print("  targets: " + "; ".join(f"{label}: {value} {'ok' if ok else 'MISSED'}" for label, ok, value in checks))
        results["targets_met"] = all(ok for _, ok, _ in checks)
    print(f"  load average at the end {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
