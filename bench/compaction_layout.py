"""What compaction leaves behind when a run is flushed one step at a time, and what that
costs a reader.

    python bench/compaction_layout.py                # 3000 one-step parts
    python bench/compaction_layout.py --parts 500    # a smoke run

A slow job (one step per flush) writes one part per step; the Recorder compacts every 64
parts and at close. This writes ``--parts`` one-step parts of 25 metrics straight through
``RunWriter``, compacting every ``--every`` parts and at the end, then reports the
compacted file's row groups and footer size, how long opening it takes, and how long a
``read_new`` that finds nothing new takes (what a live watcher pays on an idle tick).
Before compaction re-cut row groups, each part became a row group: 3000 parts gave an
11 MB footer. This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from rlprobe.storage import RunReader, RunWriter, compact_run

METRICS = 25


def _timed(fn, repeats: int) -> float:
    """Median seconds of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, default=3000, help="one-step parts to write")
    parser.add_argument("--every", type=int, default=256, help="compact after this many parts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        writer = RunWriter(Path(tmp) / "run", {"run_id": "compaction-layout"})
        compactions = []
        for step in range(args.parts):
            writer.write_part([{"step": step, "time": 1.0, **{f"m{i}": float(i) for i in range(METRICS)}}])
            if (step + 1) % args.every == 0 or step + 1 == args.parts:
                compactions.append(_timed(lambda: compact_run(writer.run_dir), 1))
        path = writer.run_dir / "steps.parquet"
        meta = pq.read_metadata(path)
        open_s = _timed(lambda: pq.ParquetFile(path).close(), 9)
        _, cursor = RunReader(writer.run_dir).read_new("steps")
        idle_s = _timed(lambda: RunReader(writer.run_dir).read_new("steps", cursor), 21)
    print(f"{args.parts} one-step parts, compacted every {args.every}: {meta.num_row_groups} row group(s), "
          f"footer {meta.serialized_size / 1e3:,.1f} kB, open {open_s * 1e3:.2f} ms, "
          f"idle read_new (fresh RunReader) {idle_s * 1e3:.2f} ms, {len(compactions)} compactions "
          f"{sum(compactions):.2f} s in all (median {statistics.median(compactions) * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
