"""How the doctor scales with run length: load a recording and run the whole catalog.

    python bench/doctor_scaling.py                 # 1k, 10k and 100k steps
    python bench/doctor_scaling.py --steps 1000    # one size (a smoke run)
    python bench/doctor_scaling.py --keep DIR      # write the runs under DIR and reuse them

Each run is written once through the real Recorder (``rlprobe synth --pathology
kl_blowup``): samples are captured every step at 16 a step up to 10k steps; the 100k-step
run captures them every 10th step (the same 160k samples as the 10k run). Then, in a fresh
process per measurement, ``diagnose(run_dir)`` = ``RunView.load`` + every registered
detector, timed (best and median of --repeat) with the process's peak RSS, and the
time of each phase and of the slowest detectors. Targets (issue 3): 100k steps ≤ 2 s
and ≤ 1 GiB.

This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S, TARGET_RSS_MB = 2.0, 1024.0
SIZES = (1_000, 10_000, 100_000)

_MEASURE = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from rlprobe.doctor import diagnose
from rlprobe.doctor.catalog import registry, resolve_config
from rlprobe.doctor.view import RunView
registry()
imported = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t1 = time.perf_counter()
findings = diagnose(sys.argv[1])
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
# The phases and the slowest detectors, timed again on the loaded view.
t3 = time.perf_counter()
view = RunView.load(sys.argv[1])
t4 = time.perf_counter()
config = resolve_config(None)
per = {}
for sid, det in registry().items():
    if det.live_only:
        continue
    s = time.perf_counter()
    det.fn(view, config[sid])
    per[sid] = time.perf_counter() - s
print(json.dumps({"diagnose_s": t2 - t1, "import_s": t1 - t0, "peak_rss_mb": peak, "import_rss_mb": imported,
                  "load_s": t4 - t3, "detectors_s": sum(per.values()),
                  "slowest": sorted(per.items(), key=lambda kv: -kv[1])[:4],
                  "findings": [f.signature_id for f in findings], "steps": view.n_steps,
                  "samples": view.samples.height}))
"""


def write_run(root: Path, n_steps: int) -> Path:
    """Write the run in a child process: peak RSS survives exec, so the measuring
    processes must not descend from one that grew while writing."""
    run = root / f"kl_blowup-{n_steps}"
    if not (run / "manifest.json").exists():
        start = time.perf_counter()
        every = 1 if n_steps <= 10_000 else n_steps // 10_000
        subprocess.run([sys.executable, "-c", "import sys; from rlprobe.doctor.synth.plan import generate; "
                        "generate(sys.argv[1], 'kl_blowup', n_steps=int(sys.argv[2]), seed=0, "
                        "sample_every=int(sys.argv[3]))", str(run), str(n_steps), str(every)], check=True)
        print(f"  wrote {n_steps} steps in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return run


def measure(run: Path, repeat: int) -> dict:
    results = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(run)], check=True, capture_output=True, text=True)
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    times = [r["diagnose_s"] for r in results]
    best = min(results, key=lambda r: r["diagnose_s"])
    return {**best, "best_s": min(times), "median_s": statistics.median(times),
            "peak_rss_mb": max(r["peak_rss_mb"] for r in results)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, action="append", help="run length(s); default 1k, 10k, 100k")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write (and reuse) the runs under this directory")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    sizes = args.steps or list(SIZES)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        rows = {n: measure(write_run(root, n), args.repeat) for n in sizes}
    print(f"{'steps':>8} {'samples':>8} {'best s':>7} {'median s':>8} {'load s':>7} {'detect s':>8} "
          f"{'peak RSS MB':>11}  slowest detectors")
    for n, r in rows.items():
        slow = ", ".join(f"{sid} {s * 1000:.0f} ms" for sid, s in r["slowest"][:3])
        print(f"{n:>8} {r['samples']:>8} {r['best_s']:>7.2f} {r['median_s']:>8.2f} {r['load_s']:>7.2f} "
              f"{r['detectors_s']:>8.2f} {r['peak_rss_mb']:>11.0f}  {slow}")
    if max(sizes) >= 100_000:
        r = rows[max(sizes)]
        print(f"\n{max(sizes)} steps: {r['best_s']:.2f} s of {TARGET_S} s ({r['best_s'] / TARGET_S:.0%}), "
              f"{r['peak_rss_mb']:.0f} MB of {TARGET_RSS_MB:.0f} MB ({r['peak_rss_mb'] / TARGET_RSS_MB:.0%}); "
              f"imports alone {r['import_rss_mb']:.0f} MB")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
