"""Benchmark: forensic sample queries over a run with 1M captured samples (target ≤ 1 s each).

Writes a run of 62,500 steps × 16 samples (realistic prompt/completion text, ~250 B a
sample) straight through ``RunWriter`` in parts, compacts it, then times from a cold
``query_samples`` / ``spike_drivers`` call on the directory (open + rank + fetch rows):

    .venv/bin/python bench/samples_query.py [--samples 1000000] [--repeats 5] [--parts] [--baseline]

``--parts`` leaves the run uncompacted (a run read mid-training); ``--baseline`` also
times the naive way, loading the whole run into a ``RunView`` first.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa

from rlprobe.doctor import RunView, query_samples, spike_drivers
from rlprobe.storage import RunWriter
from rlprobe.storage.schema import SAMPLE_TYPES

TARGET_S = 1.0
PER_STEP = 16
CHUNK = 100_000


def samples_chunk(start: int, stop: int, rng: np.random.Generator) -> pa.Table:
    """Rows ``start..stop`` of the synthetic run as a samples table (no Python loop per row)."""
    n = stop - start
    i = pl.Series("i", np.arange(start, stop))
    frame = pl.DataFrame({
        "i": i,
        "step": i // PER_STEP,
        "a": (i * 7919) % 90 + 10,
        "b": (i * 104729) % 90 + 10,
        "reward": rng.random(n),
        "advantage": rng.normal(size=n),
        "logprob": -rng.gamma(2.0, 0.4, n),
        "kl": rng.exponential(0.02, n),
        "entropy": rng.uniform(0.3, 1.2, n),
        "length": rng.integers(20, 1024, n),
        "reps": rng.integers(1, 4, n),
    }).with_columns(
        rank=pl.lit(0, pl.Int64),
        sample_id=pl.format("s{}", "i"),
        prompt_id=pl.format("q{}", pl.col("i") % 5000),
        group_id=pl.format("{}-{}", "step", (pl.col("i") % PER_STEP) // 8),
        prompt=pl.format("What is {} + {}? Think step by step, then give the final answer.", "a", "b"),
        completion=pl.format("<think>{}Check: the sum of {} and {}.</think> The answer is {}.",
                             pl.lit("Add the tens, then the ones, carrying where needed. ").repeat_by("reps")
                             .list.join(""), "a", "b", pl.col("a") + pl.col("b")),
        truncated=pl.col("length") >= 1023,
    )
    columns = {}
    for name, typ in SAMPLE_TYPES.items():
        columns[name] = (frame[name].to_arrow().cast(typ) if name in frame.columns
                         else pa.nulls(n, typ))
    return pa.table(columns)


def write_run(path: Path, n: int, compact: bool) -> float:
    started = time.perf_counter()
    rng = np.random.default_rng(0)
    writer = RunWriter(path, {"run_id": "bench-1m", "algorithm": "grpo", "trainer_config": {}})
    n_steps = -(-n // PER_STEP)
    steps = pa.table({"step": pa.array(np.arange(n_steps)), "reward_mean": pa.array(rng.random(n_steps))})
    for start in range(0, n, CHUNK):
        writer.write_part(steps if start == 0 else None, samples_chunk(start, min(n, start + CHUNK), rng))
    if compact:
        writer.close()
    return time.perf_counter() - started


def timed(fn, repeats: int) -> tuple[float, float, object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--parts", action="store_true", help="leave the run uncompacted")
    parser.add_argument("--baseline", action="store_true", help="also time loading the whole run first")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="rlprobe-bench-") as tmp:
        run = Path(tmp) / "run"
        wrote = write_run(run, args.samples, compact=not args.parts)
        size = sum(p.stat().st_size for p in run.rglob("*.parquet")) / 2**20
        mid = args.samples // PER_STEP // 2
        layout = "uncompacted parts" if args.parts else "compacted"
        print(f"{args.samples:,} samples ({layout}, {size:.0f} MiB on disk) written in {wrote:.1f} s")
        cases = [
            ("query_samples: top 10 by reward, whole run", lambda: query_samples(run, "reward", k=10)),
            ("query_samples: bottom 10 by length, whole run", lambda: query_samples(run, "length", k=10,
                                                                                      ascending=True)),
            ("query_samples: top 10 by kl in 101 steps", lambda: query_samples(run, "kl", mid, mid + 100)),
            ("spike_drivers: window 5 around a step", lambda: spike_drivers(run, mid, window=5, k=8)),
        ]
        worst = 0.0
        print(f"{'case':<48} {'min':>8} {'median':>8}  ratio to {TARGET_S:g} s")
        for name, fn in cases:
            best, median, result = timed(fn, args.repeats)
            assert len(result) > 0, name
            worst = max(worst, median)
            print(f"{name:<48} {best:>7.3f}s {median:>7.3f}s  {median / TARGET_S:.2f}")
        script = str(Path(sys.executable).with_name("rlprobe"))
        for name, argv in (("rlprobe samples --json (a whole process)", ["samples", str(run), "--json"]),
                           ("rlprobe --version (its start-up alone)", ["--version"])):
            best, median, _ = timed(partial(subprocess.run, [script, *argv], check=True, capture_output=True), 3)
            print(f"{name:<48} {best:>7.3f}s {median:>7.3f}s  {median / TARGET_S:.2f}")
        if args.baseline:
            best, median, _ = timed(lambda: query_samples(RunView.load(run), "reward"), 1)
            print(f"{'baseline: RunView.load + query_samples':<48} {best:>7.3f}s {median:>7.3f}s  "
                  f"{median / TARGET_S:.2f}")
        verdict = "meets" if worst <= TARGET_S else "MISSES"
        print(f"worst median {worst:.3f} s — {verdict} the {TARGET_S:g} s target")
        return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
