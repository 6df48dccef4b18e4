"""How long ``render_report`` takes on a 100k-step run, and how big the file is.

    python bench/report_render.py                  # 100k steps (writes the runs first, ~1-2 min)
    python bench/report_render.py --steps 10000    # a smoke run
    python bench/report_render.py --keep runs/bench-report   # reuse the runs between invocations

Two recordings of ``--steps`` steps:

- ``synth``: ``rlprobe synth --pathology kl_blowup`` (22 metrics, samples every 50 steps);
- ``wide``: 200 metrics a step (no samples), each with a one-step spike planted, written
  with ``RunWriter`` so the run takes seconds to make.

For each it times ``render_report`` end to end (load + diagnose + render + write; best and
median of ``--repeat``), splits one run of it into its phases, and checks that every
planted spike is still in the downsampled chart data. The target (issue 5): a 100k-step
run renders in <= 5 s into <= 5 MB. A benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from rlprobe.doctor import RunView, diagnose_view, render_report
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.report.charts import build_charts, points_per_chart
from rlprobe.doctor.synth import generate
from rlprobe.storage import RunWriter, compact_run

WIDE_METRICS = 200


def make_synth(path: Path, steps: int) -> dict[str, int]:
    generate(path, "kl_blowup", n_steps=steps, seed=1)
    return {}


def make_wide(path: Path, steps: int) -> dict[str, int]:
    """Returns the planted spike step of every metric."""
    rng = np.random.default_rng(0)
    writer = RunWriter(path, {"run_id": "bench-wide", "algorithm": "grpo", "model_name": "bench/wide"})
    spikes = {f"extra/m{i:03d}": int(rng.integers(0, steps)) for i in range(WIDE_METRICS)}
    now = time.time()
    for first in range(0, steps, 10_000):
        last = min(steps, first + 10_000)
        step = np.arange(first, last)
        columns = {"step": pa.array(step, pa.int64()), "time": pa.array(now - (steps - step) * 0.5)}
        for name, at in spikes.items():
            values = rng.normal(1.0, 0.05, last - first)
            if first <= at < last:
                values[at - first] = 1e3
            columns[name] = pa.array(values)
        writer.write_part(pa.table(columns))
    writer.close()
    compact_run(path)
    return spikes


def measure(run: Path, out: Path, repeat: int, spikes: dict[str, int]) -> dict[str, object]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        render_report(run, out)
        times.append(time.perf_counter() - start)
    t0 = time.perf_counter()
    view = RunView.load(run)
    t1 = time.perf_counter()
    findings = diagnose_view(view)
    t2 = time.perf_counter()
    charts = build_charts(view, findings)
    t3 = time.perf_counter()
    page = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
    by_name = {c["name"]: c for c in data["charts"]}
    kept = sum(1 for name, at in spikes.items()
               if at in by_name[name]["x"] and by_name[name]["y"][by_name[name]["x"].index(at)] == 1e3)
    return {"steps": view.n_steps, "samples": view.samples.height, "metrics": len(charts),
            "points/chart": points_per_chart(len(charts)), "findings": len(findings),
            "best_s": min(times), "median_s": statistics.median(times),
            "load_s": t1 - t0, "diagnose_s": t2 - t1, "charts_s": t3 - t2,
            "size_mb": out.stat().st_size / 1e6, "spikes_kept": f"{kept}/{len(spikes)}" if spikes else "—"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="directory to keep (and reuse) the recordings in")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="rlprobe-bench-report-"))
    print(f"{len(registry())} detectors registered; runs of {args.steps} steps under {root}")
    rows = {}
    for name, make in (("synth", make_synth), ("wide", make_wide)):
        run = root / f"{name}-{args.steps}"
        spikes_file = run / "bench-spikes.json"
        if not (run / "manifest.json").exists():
            shutil.rmtree(run, ignore_errors=True)
            start = time.perf_counter()
            spikes = make(run, args.steps)
            spikes_file.write_text(json.dumps(spikes))
            print(f"  wrote {name} in {time.perf_counter() - start:.1f} s")
        spikes = json.loads(spikes_file.read_text()) if spikes_file.exists() else {}
        rows[name] = measure(run, root / f"{name}-{args.steps}.html", args.repeat, spikes)
    keys = list(next(iter(rows.values())))
    print(f"{'':14}" + "".join(f"{name:>12}" for name in rows))
    for key in keys:
        cells = "".join(f"{v:>12.2f}" if isinstance(v := rows[name][key], float) else f"{v!s:>12}" for name in rows)
        print(f"{key:14}{cells}")
    worst_time = max(r["best_s"] for r in rows.values())
    worst_size = max(r["size_mb"] for r in rows.values())
    print(f"target <= 5 s and <= 5 MB: slowest {worst_time:.2f} s ({worst_time / 5:.0%} of budget), "
          f"largest {worst_size:.2f} MB ({worst_size / 5:.0%} of budget)")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
