"""The detection matrix: every registered pathology × seeds × lengths is found under its own
signature id near the injected onset, and healthy runs of every length draw no warn or
critical finding from any detector.

Runs are built in memory (``plan_view``: the rows the Recorder would write, cleaned and
typed by core); pathologies that finish their recording on disk (``plan.finishers``) go
through the real Recorder. ``tests/doctor/test_synth_dynamics.py`` checks that both paths
give the same frames.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rlprobe.doctor.catalog import diagnose_view, registry
from rlprobe.doctor.synth import pathologies
from rlprobe.doctor.synth.frames import plan_view
from rlprobe.doctor.synth.plan import build_plan, generate, healthy_plan
from rlprobe.doctor.view import RunView

SEEDS = (0, 1, 2)
LENGTHS = (240, 1500)
PATHOLOGIES = [name for name in pathologies() if name != "healthy"]
#: 24 healthy GRPO runs cycling through lengths from 100 to 5,000 steps, plus PPO controls.
HEALTHY = [(seed, (100, 300, 1000, 2500, 5000, 600)[seed % 6], "grpo") for seed in range(24)] \
    + [(seed, (150, 800, 3000)[seed % 3], "ppo") for seed in range(100, 106)]


def onset_tolerance(n_steps: int) -> int:
    """How far from the injected onset ``first_step`` may be: 20 steps, or 5 % of the run."""
    return max(20, int(0.05 * n_steps))


def run_view(name: str, n_steps: int, seed: int, tmp_path: Path):
    plan = build_plan(name, n_steps, seed)
    if not plan.finishers:
        return plan, plan_view(plan, name)
    run_dir = tmp_path / f"{name}-{n_steps}-{seed}"
    return generate(run_dir, name, n_steps=n_steps, seed=seed), RunView.load(run_dir)


def test_every_pathology_has_a_detector_of_its_name():
    ids = set(registry())
    assert PATHOLOGIES and all(name.upper() in ids for name in PATHOLOGIES), \
        sorted(name for name in PATHOLOGIES if name.upper() not in ids)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_steps", LENGTHS)
@pytest.mark.parametrize("name", PATHOLOGIES)
def test_pathology_found_at_its_onset(name: str, n_steps: int, seed: int, tmp_path: Path):
    signature = name.upper()
    plan, view = run_view(name, n_steps, seed, tmp_path)
    findings = diagnose_view(view, live=registry()[signature].live_only)
    ours = [f for f in findings if f.signature_id == signature]
    summary = [(f.signature_id, f.severity, f.first_step) for f in findings]
    assert ours, f"{signature} not found (onset {plan.onset}); found {summary}"
    finding = ours[0]
    assert finding.severity in ("warn", "critical")
    assert abs(finding.first_step - plan.onset) <= onset_tolerance(n_steps), \
        f"{signature} first_step {finding.first_step}, injected onset {plan.onset}"
    assert finding.evidence and finding.suggested_actions and finding.explanation


@pytest.mark.parametrize(("seed", "n_steps", "algorithm"), HEALTHY,
                         ids=[f"{a}-{n}-s{s}" for s, n, a in HEALTHY])
def test_healthy_run_draws_no_alarm(seed: int, n_steps: int, algorithm: str):
    plan = healthy_plan(n_steps, seed, algorithm=algorithm)
    findings = diagnose_view(plan_view(plan, "healthy"))
    alarms = [(f.signature_id, f.severity, f.first_step, round(f.confidence, 2), f.explanation)
              for f in findings if f.severity != "info"]
    assert not alarms
