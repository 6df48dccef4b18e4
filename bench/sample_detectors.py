"""Cost of the sample-level and recording-level detectors on long runs.

    .venv/bin/python bench/sample_detectors.py                 # 1k, 10k, 100k steps
    .venv/bin/python bench/sample_detectors.py --steps 2000    # smoke run

For each run length it builds a synthetic run in memory (``synth_view``; 16 samples every
step up to 10k steps, then samples every n/2000 steps, as ``rlprobe synth`` writes them),
then times each detector of this family (best and median of ``--repeat`` calls) and prints
the total against the whole catalog's budget (issue 3: load + full catalog on a 100k-step run
≤ 2 s). Run on a quiet machine; figures go in docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import statistics
import time

from rlprobe.doctor.catalog import registry
from rlprobe.doctor.config import resolve_config
from rlprobe.doctor.synth.frames import synth_view

DETECTORS = ("ZERO_ADVANTAGE_GROUPS", "REPETITIVE_COMPLETIONS", "GROUP_MODE_COLLAPSE", "ADVANTAGE_OUTLIERS",
             "NONFINITE_VALUES", "RECORDING_GAPS", "LOGPROB_MISMATCH")
#: A pathology per run that makes most of these detectors do their full work (a finding to build).
PATHOLOGY = "repetitive_completions"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    detectors, config = registry(), resolve_config(None)
    print(f"{'steps':>8} {'samples':>8}  " + "  ".join(f"{d[:12]:>12}" for d in DETECTORS) + f"  {'total':>8}")
    for n in args.steps:
        _, view = synth_view(PATHOLOGY, n, 0)
        best: dict[str, float] = {}
        median: dict[str, float] = {}
        for sid in DETECTORS:
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                detectors[sid].fn(view, config[sid])
                times.append(time.perf_counter() - start)
            best[sid], median[sid] = min(times), statistics.median(times)
        cells = "  ".join(f"{best[d] * 1e3:9.0f} ms" for d in DETECTORS)
        print(f"{n:>8} {view.samples.height:>8}  {cells}  {sum(best.values()):7.2f} s   (best of {args.repeat})")
        cells = "  ".join(f"{median[d] * 1e3:9.0f} ms" for d in DETECTORS)
        print(f"{'':>8} {'':>8}  {cells}  {sum(median.values()):7.2f} s   (median)")


if __name__ == "__main__":
    main()
