"""The findings snapshot: every finding (id, severity, first step) the doctor gives on every run it
is tested on — the synthetic matrix, the numpy simulator's runs, the corpus of real TRL runs and
the published logs of ``../shared/realworld-logs`` — kept in ``tests/fixtures/findings_snapshot.json``.

It is the safety net under a restructuring of the detectors: a refactor leaves it unchanged, and a
change of behaviour moves it on purpose, in its own commit, with the moves named in the message.

    .venv/bin/python tests/doctor/snapshot.py           # show what moved against the snapshot
    .venv/bin/python tests/doctor/snapshot.py --write   # accept today's findings as the snapshot

``tests/doctor/test_findings_snapshot.py`` fails on any move and prints this diff.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
for folder in (HERE, TESTS / "realruns", TESTS / "sources"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

SNAPSHOT = TESTS / "fixtures" / "findings_snapshot.json"

Entry = list[list]  # [[signature_id, severity, first_step], ...] in the doctor's rank order


def _summary(findings) -> Entry:
    """Each finding as [id, severity, first step, confidence]: the snapshot keeps the first three
    (``pinned``), the validation command (``bench/validate.py``) reads the confidence too."""
    return [[f.signature_id, f.severity, f.first_step, round(f.confidence, 3)] for f in findings]


def pinned(entry: Entry) -> Entry:
    """What the snapshot holds of a case's findings: id, severity and first step."""
    return [finding[:3] for finding in entry]


def _matrix_cases() -> Iterator[tuple[str, Callable[[], Entry]]]:
    from test_matrix import HEALTHY, LENGTHS, PATHOLOGIES, SEEDS

    for name in PATHOLOGIES:
        for n_steps in LENGTHS:
            for seed in SEEDS:
                yield f"matrix/{name}-{n_steps}-s{seed}", (_matrix_pathology, name, n_steps, seed)
    for seed, n_steps, algorithm in HEALTHY:
        yield f"matrix/healthy-{algorithm}-{n_steps}-s{seed}", (_matrix_healthy, seed, n_steps, algorithm)


def _matrix_pathology(name: str, n_steps: int, seed: int) -> Entry:
    from test_matrix import run_view

    from rlprobe.doctor.catalog import diagnose_view, registry

    with tempfile.TemporaryDirectory() as tmp:
        _, view = run_view(name, n_steps, seed, Path(tmp))
        return _summary(diagnose_view(view, live=registry()[name.upper()].live_only))


def _matrix_healthy(seed: int, n_steps: int, algorithm: str) -> Entry:
    from rlprobe.doctor.catalog import diagnose_view
    from rlprobe.doctor.synth.frames import plan_view
    from rlprobe.doctor.synth.plan import healthy_plan

    return _summary(diagnose_view(plan_view(healthy_plan(n_steps, seed, algorithm=algorithm), "healthy")))


def _sim_cases() -> Iterator[tuple[str, tuple]]:
    from test_independent_runs import CASES, HEALTHY, SATURATES, SEEDS, TRL_LIKE

    for name, (config, seeds) in HEALTHY.items():
        for seed in seeds:
            yield f"sim/healthy-{name}-s{seed}", (_sim, config.with_(seed=seed), False)
    for seed in (13, 14):
        yield f"sim/saturates-s{seed}", (_sim, SATURATES.with_(seed=seed), False)
    for name, case in CASES.items():
        for seed in SEEDS:
            yield f"sim/{name}-s{seed}", (_sim, case.config.with_(seed=seed), False)
    for name, (config, _, _) in TRL_LIKE.items():
        yield f"sim/trl-like-{name}", (_sim, config.with_(seed=31, sample_prompts=config.prompts_per_step), True)


def _sim(config, trl_like: bool) -> Entry:
    from simrl import simulate
    from test_independent_runs import LOGGING_STEPS

    from rlprobe.doctor import RunView, diagnose_view

    with tempfile.TemporaryDirectory() as tmp:
        run = simulate(config)
        path = run.record(Path(tmp) / "run", select=True, logging_steps=LOGGING_STEPS) if trl_like \
            else run.record(Path(tmp) / "run")
        return _summary(diagnose_view(RunView.load(path)))


def _corpus_cases() -> Iterator[tuple[str, tuple]]:
    from corpus import FIXTURES, SCENARIOS

    for scenario in SCENARIOS:
        if (FIXTURES / scenario.trained / "run").is_dir():
            yield f"realruns/{scenario.name}", (_diagnose, str(scenario.judged()))


def _realworld_cases() -> Iterator[tuple[str, tuple]]:
    from sourcekit import REALWORLD, realworld_log

    if REALWORLD.is_dir():
        for folder in sorted(p for p in REALWORLD.iterdir() if p.is_dir()):
            yield f"realworld/{folder.name}", (_diagnose, str(realworld_log(folder.name)))


def _diagnose(path: str) -> Entry:
    from rlprobe.doctor import diagnose

    with tempfile.TemporaryDirectory() as cache:
        os.environ["RLPROBE_CACHE_DIR"] = cache  # foreign logs import into a throwaway cache
        return _summary(diagnose(path))


def cases() -> dict[str, tuple]:
    out: dict[str, tuple] = {}
    for source in (_matrix_cases, _sim_cases, _corpus_cases, _realworld_cases):
        out.update(source())
    return out


def _run(job: tuple) -> Entry:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    function, *args = job
    return function(*args)


def run_case(job: tuple) -> Entry:
    """A case's findings, or one ``UNREADABLE`` entry naming the error: one log the doctor cannot
    read must show as a move of its own case, not stop the whole computation."""
    try:
        return _run(job)
    except Exception as exc:  # noqa: BLE001 - any failure is the case's result
        return [["UNREADABLE", "error", None, f"{type(exc).__name__}: {exc}"[:200]]]


def compute(workers: int | None = None) -> dict[str, Entry]:
    """Today's findings on every case, by name, with their confidences (``_summary``)."""
    todo = cases()
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        results = pool.map(run_case, todo.values(), chunksize=4)
        return dict(zip(todo, results, strict=True))


def moves(old: dict[str, Entry], new: dict[str, Entry]) -> list[str]:
    """One line per case whose findings differ (cases absent from either side are skipped)."""
    out = []
    for name in sorted(set(old) & set(new)):
        if pinned(old[name]) != pinned(new[name]):
            out.append(f"{name}:\n    was {pinned(old[name])}\n    now {pinned(new[name])}")
    return out


def write(findings: dict[str, Entry]) -> None:
    """One case a line, so that a diff of the snapshot reads as the list of moves."""
    lines = [f"{json.dumps(name)}: {json.dumps(pinned(findings[name]))}" for name in sorted(findings)]
    SNAPSHOT.write_text("{\n" + ",\n".join(lines) + "\n}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="accept today's findings as the snapshot")
    parser.add_argument("--workers", type=int, default=None)
    options = parser.parse_args(argv)
    new = compute(options.workers)
    old = json.loads(SNAPSHOT.read_text()) if SNAPSHOT.exists() else {}
    changed = moves(old, new)
    print("\n".join(changed) or "no moves", f"\n{len(changed)} of {len(new)} cases moved; "
          f"{len(set(new) - set(old))} new, {len(set(old) - set(new))} gone")
    if options.write:
        write(new)
        print(f"wrote {SNAPSHOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
