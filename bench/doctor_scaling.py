"""How the doctor scales with run length: load a recording and run the whole catalog; and
what a whole ``rlprobe doctor RUN`` process costs on the longest run.

    python bench/doctor_scaling.py                 # 1k, 10k and 100k steps
    python bench/doctor_scaling.py --steps 1000    # one size (a smoke run)
    python bench/doctor_scaling.py --keep DIR      # write the runs under DIR and reuse them
    python bench/doctor_scaling.py --compare ../before   # also the command in another checkout

Each run is written once through the real Recorder (``rlprobe synth --pathology
kl_blowup``): samples are captured every step at 16 a step up to 10k steps; the 100k-step
run captures them every 10th step (the same 160k samples as the 10k run). Then, in a fresh
process per measurement, ``diagnose(run_dir)`` = ``RunView.load`` + every registered
detector, timed (best and median of --repeat) with the process's peak RSS, and the
time of each phase and of the slowest detectors. Targets (issue 3): 100k steps ≤ 2 s
and ≤ 1 GiB.

On the longest run, the command as a user runs it (issue 17: ≤ 0.7 s at 100k steps; issue 30: ≤
0.75 s and a peak RSS ≤ 200 MiB above the CLI's start): what the ``rlprobe`` console script
runs, best and median of --process-repeat fresh processes, with their CPU time (user + system)
and peak RSS, against baselines measured in the same run: the CLI's start (``rlprobe doctor
--help``: the command's module and its libraries loaded, nothing read), the floor no code of
ours can go under, an interpreter that only imports the libraries the doctor is built on; with
--compare, the same command in another checkout too (a ``git worktree`` of an earlier
revision), in turn with this one; and this checkout's command pinned to one core (the detector
families run on two threads where there are two cores: on one, or on a machine whose other core
is busy, they run in turn). Every process runs this checkout's packages (or the other's),
whatever the interpreter has installed. Then the same work split into its phases, each in a
fresh process (best of --process-repeat): import (the CLI, the ``doctor`` command's module, the
detectors), read (``load_steps``), diagnose (``diagnose_view``: every detector and the facts
they ask for, on the detectors' threads; CPU counts every thread), of which facts (the time
inside ``RunFacts``' properties, summed over the threads, each with its thread's CPU time),
render (``render_findings``). Every measured process reads its bytecode from a private cache
written by a first, untimed run, as an installed package does (pip compiles it at install; a
checkout run with ``PYTHONDONTWRITEBYTECODE`` would compile rlprobe's sources in every process
instead).

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
from collections.abc import Mapping
from pathlib import Path

TARGET_S, TARGET_RSS_MB = 2.0, 1024.0
#: A whole ``rlprobe doctor`` process at 100k steps (issue 17).
TARGET_PROCESS_S = 0.7
#: ... whose peak RSS is at most this many MiB above the CLI's start, ``rlprobe doctor --help`` (issue 30).
TARGET_OVER_START_MIB = 200.0
SIZES = (1_000, 10_000, 100_000)
#: This checkout (the one the bench is in): its packages are measured, whatever is installed.
REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("rlprobe-core", "rlprobe-doctor", "rlprobe-trl")
#: The libraries ``rlprobe doctor`` cannot run without: the floor of the whole-process figure.
FLOOR = "import numpy, polars, pyarrow.parquet, pydantic, click"
#: The label suffix of the whole command run on one core.
ONE_CORE = ", one core"

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


_PHASES = r"""
import json, resource, sys, time
from functools import cached_property
try:  # the libraries' settings the command's process runs with (rlprobe.doctor.cli.process), where there are any
    from rlprobe.doctor.cli import process
    process.prepare()
except ImportError:
    pass

def clock():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), r.ru_utime + r.ru_stime

marks = {"start": clock()}
from rlprobe.doctor.catalog import diagnose_view, load_steps, registry
from rlprobe.doctor.cli import main
from rlprobe.doctor.cli.diagnosis import render_findings
registry()
marks["import"] = clock()
view = load_steps(sys.argv[1])
marks["read"] = clock()

# The facts are computed inside diagnose, by the first detector that asks (on whichever of the
# detectors' threads): time spent in RunFacts' properties (the outermost, when one asks another),
# summed over the threads, with each thread's own CPU time, is the facts part of diagnose.
import threading
from rlprobe.doctor.facts.run import RunFacts
facts, local, lock = [0.0, 0.0], threading.local(), threading.Lock()

def thread_clock():
    return time.perf_counter(), time.thread_time()

def timed(fn):
    def measured(self):
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        start = thread_clock()
        try:
            return fn(self)
        finally:
            local.depth = depth
            if not depth:
                end = thread_clock()
                with lock:
                    facts[0] += end[0] - start[0]
                    facts[1] += end[1] - start[1]
    return measured

for attr in vars(RunFacts).values():
    if isinstance(attr, cached_property):
        attr.func = timed(attr.func)
findings = diagnose_view(view)
marks["diagnose"] = clock()
render_findings(findings, sys.argv[1])
marks["render"] = clock()
names = list(marks)
phases = {b: [marks[b][0] - marks[a][0], marks[b][1] - marks[a][1]] for a, b in zip(names, names[1:])}
phases = {"import": phases["import"], "read": phases["read"], "diagnose": phases["diagnose"],
          "of which facts": facts, "render": phases["render"]}
print(json.dumps(phases))
"""


def bytecode_env(cache: Path) -> dict[str, str]:
    """The environment of every measured process: bytecode read from (and written once to)
    ``cache``, as an installed package reads it from its ``__pycache__``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def tree_env(env: Mapping[str, str], tree: Path) -> dict[str, str]:
    """``env`` with the packages of the checkout at ``tree`` first on the path, whatever the
    interpreter's editable installs point at."""
    return {**env, "PYTHONPATH": os.pathsep.join(str(tree / "packages" / p / "src") for p in PACKAGES)}


def timed(argv: list[str], env: Mapping[str, str], cpus: set[int] | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system: what other work on the machine moves least)
    and peak RSS (MB) of one process, its output discarded; run on the cores ``cpus`` only
    when given (``sched_setaffinity``)."""
    start = time.perf_counter()
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pin)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4; the exit code (1: a critical finding) is not the point
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def doctor_argv(run: Path | str) -> list[str]:
    """``rlprobe doctor RUN`` as a user types it: what the ``rlprobe`` console script runs, in
    this interpreter."""
    return [sys.executable, "-c", "import sys; from rlprobe.doctor.cli import main; sys.exit(main())", "doctor",
            str(run)]


#: The label of the CLI's start: ``rlprobe doctor --help`` (the command's module and its libraries
#: loaded, nothing read), the baseline of issue 30's memory target.
CLI_START = "cli start"


def measure_process(run: Path, repeat: int, envs: Mapping[str, Mapping[str, str]]) -> dict:
    """The whole command in each checkout of ``envs`` (label → environment) and the floor,
    interleaved so that all see the same machine load, then each one's phases."""
    first = next(iter(envs.values()))
    commands: dict[str, tuple[list[str], Mapping[str, str], set[int] | None]] = {
        "floor": ([sys.executable, "-c", FLOOR], first, None), CLI_START: (doctor_argv("--help"), first, None)}
    commands.update({label: (doctor_argv(run), env, None) for label, env in envs.items()})
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if len(cores) > 1:
        # The first checkout on one core: the detectors' threads then run in turn (a machine busy elsewhere).
        commands[f"{next(iter(envs))}{ONE_CORE}"] = (doctor_argv(run), first, {min(cores)})
    for argv, env, cpus in commands.values():
        timed(argv, env, cpus)  # first runs write the bytecode cache
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    phases: dict[str, dict[str, list[list[float]]]] = {label: {} for label in envs}
    for _ in range(repeat):
        for name, (argv, env, cpus) in commands.items():
            runs[name].append(timed(argv, env, cpus))
        for label, env in envs.items():
            out = subprocess.run([sys.executable, "-c", _PHASES, str(run)], env=env, check=True, capture_output=True,
                                 text=True)
            for phase, clocks in json.loads(out.stdout.strip().splitlines()[-1]).items():
                phases[label].setdefault(phase, []).append(clocks)
    result: dict = {name: {"best_s": min(w for w, _, _ in r), "median_s": statistics.median(w for w, _, _ in r),
                           "best_cpu_s": min(c for _, c, _ in r), "peak_rss_mb": max(m for _, _, m in r),
                           "median_rss_mb": statistics.median(m for _, _, m in r)}
                    for name, r in runs.items()}
    for label, clocks in phases.items():
        result[label]["phases"] = {p: {"wall_s": min(w for w, _ in c), "cpu_s": min(u for _, u in c)}
                                   for p, c in clocks.items()}
    return result


def report_process(n_steps: int, r: dict) -> None:
    floor, start = r["floor"], r[CLI_START]
    trees = [label for label in r if label not in ("floor", CLI_START) and not label.endswith(ONE_CORE)]
    print(f"\nA whole `rlprobe doctor` process at {n_steps} steps (wall best / median, CPU best, peak RSS):")
    print(f"  floor ({FLOOR}): {floor['best_s']:.2f} / {floor['median_s']:.2f} s, "
          f"{floor['best_cpu_s']:.2f} s CPU, {floor['peak_rss_mb']:.0f} MiB")
    print(f"  {CLI_START} (rlprobe doctor --help): {start['best_s']:.2f} / {start['median_s']:.2f} s, "
          f"{start['peak_rss_mb']:.0f} MiB")
    for label in trees:
        doctor = r[label]
        print(f"  {label}: {doctor['best_s']:.2f} / {doctor['median_s']:.2f} s, {doctor['best_cpu_s']:.2f} s CPU, "
              f"{doctor['peak_rss_mb']:.0f} MiB: {doctor['best_s'] / floor['best_s']:.2f}x the floor "
              f"({doctor['best_cpu_s'] / floor['best_cpu_s']:.2f}x in CPU), "
              f"{doctor['best_s'] / TARGET_PROCESS_S:.0%} of the {TARGET_PROCESS_S} s target")
        over = doctor["peak_rss_mb"] - start["peak_rss_mb"]
        print(f"    peak RSS {over:.0f} MiB over the CLI's start ({over / TARGET_OVER_START_MIB:.0%} of the "
              f"{TARGET_OVER_START_MIB:.0f} MiB target; median {doctor['median_rss_mb'] - start['peak_rss_mb']:.0f})")
        print("    phases, best of fresh processes (wall / CPU s): " + ", ".join(
            f"{p} {c['wall_s']:.3f} / {c['cpu_s']:.3f}" for p, c in doctor["phases"].items()))
        alone = r.get(f"{label}{ONE_CORE}")
        if alone is not None:
            print(f"  {label}{ONE_CORE}: {alone['best_s']:.2f} / {alone['median_s']:.2f} s, "
                  f"{alone['best_cpu_s']:.2f} s CPU, {alone['peak_rss_mb']:.0f} MiB: "
                  f"{alone['best_s'] / TARGET_PROCESS_S:.0%} of the {TARGET_PROCESS_S} s target")
    if len(trees) > 1:
        this, other = r[trees[0]], r[trees[1]]
        print(f"  {trees[0]} / {trees[1]}: {this['best_s'] / other['best_s']:.2f} in wall time, "
              f"{this['best_cpu_s'] / other['best_cpu_s']:.2f} in CPU, "
              f"{this['peak_rss_mb'] / other['peak_rss_mb']:.2f} in peak RSS")


def write_run(root: Path, n_steps: int, env: Mapping[str, str]) -> Path:
    """Write the run in a child process: peak RSS survives exec, so the measuring
    processes must not descend from one that grew while writing."""
    run = root / f"kl_blowup-{n_steps}"
    if not (run / "manifest.json").exists():
        start = time.perf_counter()
        every = 1 if n_steps <= 10_000 else n_steps // 10_000
        subprocess.run([sys.executable, "-c", "import sys; from rlprobe.doctor.synth.plan import generate; "
                        "generate(sys.argv[1], 'kl_blowup', n_steps=int(sys.argv[2]), seed=0, "
                        "sample_every=int(sys.argv[3]))", str(run), str(n_steps), str(every)], env=env, check=True)
        print(f"  wrote {n_steps} steps in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return run


def measure(run: Path, repeat: int, env: Mapping[str, str]) -> dict:
    subprocess.run([sys.executable, "-c", _MEASURE, str(run)], env=env, check=True, capture_output=True)  # bytecode
    results = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(run)], env=env, check=True, capture_output=True,
                             text=True)
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
    parser.add_argument("--process-repeat", type=int, default=5, help="processes for the whole-command figures")
    parser.add_argument("--compare", type=Path, metavar="CHECKOUT",
                        help="also time the command in another checkout (e.g. a `git worktree` of an earlier "
                             "revision), interleaved with this one")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    sizes = args.steps or list(SIZES)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        env = tree_env(bytecode_env(Path(tmp) / "pycache"), REPO)
        runs = {n: write_run(root, n, env) for n in sizes}
        rows = {n: measure(run, args.repeat, env) for n, run in runs.items()}
        trees = {"this checkout": env}
        if args.compare:
            trees[str(args.compare)] = tree_env(env, args.compare.resolve())
        process = measure_process(runs[max(sizes)], args.process_repeat, trees)
    print(f"{'steps':>8} {'samples':>8} {'best s':>7} {'median s':>8} {'load s':>7} {'detect s':>8} "
          f"{'peak RSS MiB':>12}  slowest detectors")
    for n, r in rows.items():
        slow = ", ".join(f"{sid} {s * 1000:.0f} ms" for sid, s in r["slowest"][:3])
        print(f"{n:>8} {r['samples']:>8} {r['best_s']:>7.2f} {r['median_s']:>8.2f} {r['load_s']:>7.2f} "
              f"{r['detectors_s']:>8.2f} {r['peak_rss_mb']:>12.0f}  {slow}")
    if max(sizes) >= 100_000:
        r = rows[max(sizes)]
        print(f"\n{max(sizes)} steps: {r['best_s']:.2f} s of {TARGET_S} s ({r['best_s'] / TARGET_S:.0%}), "
              f"{r['peak_rss_mb']:.0f} MiB of {TARGET_RSS_MB:.0f} MiB ({r['peak_rss_mb'] / TARGET_RSS_MB:.0%}); "
              f"imports alone {r['import_rss_mb']:.0f} MiB")
    report_process(max(sizes), process)
    if args.json:
        args.json.write_text(json.dumps({"diagnose": rows, "process": process}, indent=2))


if __name__ == "__main__":
    main()
