"""The doctor on runs nobody tuned it to: a real GRPO loop over a tiny policy (``simrl``),
recorded through the real Recorder, shares no code or curve formula with ``synth``.

Healthy runs (noisy learning curves, slow KL drift, GRPO's loss near 0, runs that learn
slowly or never, runs that saturate) draw no warn or critical finding. Each pathology is
switched on by a mechanism at a known step (``ONSET``) and must be found under the
signature a human expert would give it, with ``first_step`` near the switch, linked
samples that really show it, and the root cause ranked first. Every other warn/critical
finding on a pathological run must be one an expert would also accept; each accepted id
says why it is right for that mechanism.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from simrl import EOS, SimConfig, SimRun, simulate

from rlprobe.doctor import Finding, RunView, diagnose_view

# -- healthy runs ----------------------------------------------------------------------------------

#: name → (config, seeds). Learning rates, schedules and lengths a user would pick.
HEALTHY: dict[str, tuple[SimConfig, tuple[int, ...]]] = {
    "linear-decay": (SimConfig(n_steps=800, lr_schedule="linear"), (0, 1)),
    "kl-penalty": (SimConfig(n_steps=600, beta=0.04), (3, 4)),
    "short": (SimConfig(n_steps=150, lr=0.03), (5, 6, 7)),
    "long-cosine-kl": (SimConfig(n_steps=2000, lr=0.01, lr_schedule="cosine", beta=0.02), (8,)),
    "two-iterations": (SimConfig(n_steps=800, num_iterations=2), (9,)),
    "warmup": (SimConfig(n_steps=600, lr=0.03, warmup_steps=60, lr_schedule="linear"), (10,)),
    # Learns slowly: accuracy creeps up over the whole run.
    "slow-learner": (SimConfig(n_steps=1200, lr=0.01, difficulty=-1.5), (11,)),
    # Never learns the task (only the format): not a pathology signature.
    "never-learns": (SimConfig(n_steps=600, difficulty=-6.0), (12,)),
    # Saturates: every group solved late, frac_reward_zero_std climbs to ~1 (info at most).
    "saturates-kl": (SimConfig(n_steps=1000, lr=0.03, difficulty=1.5, beta=0.04), (15, 16)),
}
#: Saturates with no KL anchor: past convergence nothing holds the working words, and the
#: policy gradient's rich-get-richer drift collapses them onto one repeated word.
SATURATES = SimConfig(n_steps=1000, lr=0.03, difficulty=1.5)


@cache
def _run(config: SimConfig, root: str) -> tuple[SimRun, RunView, tuple[Finding, ...]]:
    run = simulate(config)
    directory = Path(root) / f"run-{abs(hash(config))}"
    run.record(directory)
    view = RunView.load(directory)
    return run, view, tuple(diagnose_view(view))


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("simrl"))


def _loud(findings) -> list[tuple]:
    return [(f.signature_id, f.severity, f.first_step, round(f.confidence, 2), f.explanation)
            for f in findings if f.severity != "info"]


@pytest.mark.parametrize(("name", "seed"), [(n, s) for n, (_, seeds) in HEALTHY.items() for s in seeds])
def test_healthy_run_draws_no_alarm(name: str, seed: int, root: str):
    config = HEALTHY[name][0].with_(seed=seed)
    _, _, findings = _run(config, root)
    assert not _loud(findings)


@pytest.mark.parametrize("seed", (13, 14))
def test_a_saturated_run_is_reported_as_convergence(seed: int, root: str):
    """Every group solved, gradually: info saying the run has converged, no plateau. The one
    alarm allowed is the degeneration that really follows (linked samples must loop)."""
    _, view, findings = _run(SATURATES.with_(seed=seed), root)
    zero = [f for f in findings if f.signature_id == "ZERO_ADVANTAGE_GROUPS"]
    assert zero and zero[0].severity == "info" and "converged" in zero[0].explanation
    assert not [f for f in findings if f.signature_id == "REWARD_PLATEAU"]
    loud = _loud(findings)
    assert all(s[0] == "REPETITIVE_COMPLETIONS" for s in loud), loud
    for finding in findings:
        if finding.signature_id == "REPETITIVE_COMPLETIONS":
            linked = view.samples.filter(pl.col("sample_id").is_in(finding.links_to_samples))
            words = [c.split() for c in linked["completion"]]
            assert all(max(w.count(x) for x in set(w)) >= len(w) / 2 for w in words), words


def test_a_weak_kl_anchor_past_saturation(root: str):
    """beta = 0.001 and a saturated task: KL drifts steadily past 1 nat/token while the
    working words degenerate. That drift is worth a finding, but it must not be described
    as an accelerating blow-up; and once nearly every group has zero advantage, the
    gradient of the odd informative group (at the run's usual level) is not a spike."""
    _, _, findings = _run(SimConfig(n_steps=1000, lr=0.03, difficulty=1.5, beta=0.001, seed=3), root)
    kl = [f for f in findings if f.signature_id == "KL_BLOWUP"]
    assert kl and "drift" in kl[0].explanation and "accelerating blow-up" in kl[0].explanation
    assert kl[0].evidence[0].observed >= 1.0
    assert not [f for f in findings if f.signature_id == "GRAD_NORM_SPIKE"]


# -- pathologies ---------------------------------------------------------------------------------

N_STEPS, ONSET = 600, 300
W = (("accuracy", 1.0), ("format", 0.2))


@dataclass(frozen=True)
class Case:
    """A mechanism switched on at ``ONSET``, what it must be diagnosed as, and why."""

    config: SimConfig
    signature: str
    """The finding that names the mechanism; it must be present, warn or critical."""
    root_cause: frozenset[str]
    """Ids the top-ranked finding may have: the mechanism's own signature(s)."""
    accepted: dict[str, str] = field(default_factory=dict)
    """Other warn/critical ids an expert accepts for this mechanism, with the reason."""
    lag: int = 30
    """How many steps after ONSET the onset may be: how long the mechanism takes to show."""
    shows: Callable[[pl.DataFrame, SimRun, Finding], bool] | None = None
    """Whether the linked samples show the pathology."""


def _after_onset(linked: pl.DataFrame, *_: object) -> bool:
    return bool(linked["step"].min() >= ONSET - 5)


def _low_entropy(linked: pl.DataFrame, run: SimRun, _: Finding) -> bool:
    before = np.median([s["entropy"] for step in range(ONSET - 50, ONSET) for s in run.samples.get(step, [])])
    return bool(linked["entropy"].max() < 0.3 * before)


def _high_kl(linked: pl.DataFrame, run: SimRun, _: Finding) -> bool:
    before = np.median([s["kl"] for step in range(ONSET - 50, ONSET) for s in run.samples.get(step, [])])
    return bool(linked["kl"].min() > 3 * before)


def _gamed(linked: pl.DataFrame, *_: object) -> bool:
    parts = linked["reward_components"].to_list()
    return all(dict(p)["tags"] > 0 and dict(p)["accuracy"] == 0 for p in parts)


def _at_budget(linked: pl.DataFrame, run: SimRun, _: Finding) -> bool:
    return bool(linked["length"].min() >= 0.9 * run.config.max_len)


def _truncated(linked: pl.DataFrame, *_: object) -> bool:
    return bool(linked["truncated"].all())


def _misfit_groups(linked: pl.DataFrame, run: SimRun, _: Finding) -> bool:
    """Each linked sample's group has advantages that are not a positive multiple of its
    rewards minus their mean: recomputed here from the recorded group."""
    for step, group in linked.select("step", "group_id").iter_rows():
        rows = [s for s in run.samples[step] if s["group_id"] == group]
        r = np.array([s["reward"] for s in rows])
        a = np.array([s["advantage"] for s in rows])
        centred = r - r.mean()
        c = max(0.0, float(a @ centred) / float(centred @ centred)) if centred @ centred > 0 else 0.0
        if np.linalg.norm(a - c * centred) <= 0.05 * np.linalg.norm(a):
            return False
    return True


def _nonfinite(linked: pl.DataFrame, *_: object) -> bool:
    return bool(linked["advantage"].is_nan().all())


def _low_reward(linked: pl.DataFrame, run: SimRun, finding: Finding) -> bool:
    return bool(linked["step"].min() >= ONSET and linked["reward"].max() <= finding.evidence[0].observed)


COLLAPSED_POLICY = {
    "ZERO_ADVANTAGE_GROUPS": "a deterministic policy gives every completion of a prompt the same reward",
    "GROUP_MODE_COLLAPSE": "a deterministic policy writes the same completion for a whole group",
    "REWARD_PLATEAU": "with every group agreeing the reward is stuck below its maximum (some prompts "
                      "collapsed onto wrong answers)",
    "TRUNCATION_HIGH": "some prompts collapse onto a loop that never emits <eos>",
    "LENGTH_EXPLOSION": "prompts that collapse onto a loop run to the token budget",
    "REPETITIVE_COMPLETIONS": "collapsed completions loop on one word",
}

CASES: dict[str, Case] = {
    # A learning rate 100× too high from ONSET: Adam steps of ~2 nats make the policy greedy.
    "lr-too-high": Case(
        SimConfig(n_steps=N_STEPS, lr_switch=(ONSET, 100.0)), "ENTROPY_COLLAPSE",
        frozenset({"ENTROPY_COLLAPSE"}), COLLAPSED_POLICY, lag=10, shows=_low_entropy),
    # The same with a KL penalty: the policy runs away from the reference as well.
    "lr-too-high-kl": Case(
        SimConfig(n_steps=N_STEPS, beta=0.04, lr_switch=(ONSET, 30.0)), "KL_BLOWUP",
        frozenset({"KL_BLOWUP", "ENTROPY_COLLAPSE"}),
        {"ENTROPY_COLLAPSE": "the same too-large steps make the policy greedy",
         "GRAD_NORM_SPIKE": "the KL penalty's gradient grows as the policy leaves the reference",
         **COLLAPSED_POLICY}, lag=10, shows=_high_kl),
    # A cheap "tags" reward (one third per <ans>, up to three) weighted 4× from ONSET: the
    # strict verifier wants exactly one <ans>, so earning tags means failing the task.
    "reward-hacking": Case(
        SimConfig(n_steps=N_STEPS, reward_weights=W + (("tags", 0.1),), weight_switch=(ONSET, W + (("tags", 4.0),))),
        "REWARD_HACKING", frozenset({"REWARD_HACKING"}),
        {"ZERO_ADVANTAGE_GROUPS": "once every completion games the tags, groups agree",
         "REWARD_PLATEAU": "the gamed reward sits at its maximum with every group agreeing",
         "GROUP_MODE_COLLAPSE": "the gamed completions are copies of one tag pattern",
         "ENTROPY_COLLAPSE": "the policy narrows onto the tag pattern",
         "LENGTH_COLLAPSE": "the gamed completions are shorter than worked answers"},
        lag=40, shows=_gamed),
    # A reward that pays for length from ONSET: completions run into the 32-token budget.
    "length-reward": Case(
        SimConfig(n_steps=N_STEPS, reward_weights=W + (("thoroughness", 0.0),),
                  weight_switch=(ONSET, W + (("thoroughness", 3.0),))),
        "LENGTH_EXPLOSION", frozenset({"LENGTH_EXPLOSION", "TRUNCATION_HIGH"}),
        {"TRUNCATION_HIGH": "the exploded completions are cut off by the budget",
         "REWARD_HACKING": "'thoroughness' is a cheap component earned instead of the task"},
        lag=90, shows=_at_budget),
    # The scheduler's horizon is ONSET steps: the learning rate is 0 for the second half.
    "lr-schedule-ends-early": Case(
        SimConfig(n_steps=N_STEPS, lr_end_step=ONSET), "REWARD_PLATEAU", frozenset({"REWARD_PLATEAU"}),
        lag=5, shows=_after_onset),
    # A dataset join off by one from ONSET: every answer is graded against another prompt's key.
    "label-bug": Case(
        SimConfig(n_steps=N_STEPS, label_bug_step=ONSET), "REWARD_COLLAPSE", frozenset({"REWARD_COLLAPSE"}),
        {"ZERO_ADVANTAGE_GROUPS": "almost nothing is graded correct, so groups agree"},
        lag=5, shows=_low_reward),
    # Advantages normalised over the whole batch (32) instead of groups of 8 from ONSET.
    "advantage-group-size": Case(
        SimConfig(n_steps=N_STEPS, adv_group_bug=(ONSET, 32)), "ADVANTAGE_OUTLIERS",
        frozenset({"ADVANTAGE_OUTLIERS"}), lag=3, shows=_misfit_groups),
    # The normaliser loses its epsilon at ONSET: the first group with equal rewards divides
    # 0 by 0, the weights turn NaN and the run is dead.
    "nan-from-zero-std": Case(
        SimConfig(n_steps=N_STEPS, nan_bug_step=ONSET), "NONFINITE_VALUES", frozenset({"NONFINITE_VALUES"}),
        {"REWARD_COLLAPSE": "NaN weights emit <eos> at once: reward 0",
         "LENGTH_COLLAPSE": "NaN weights emit <eos> at once: empty completions",
         "ZERO_ADVANTAGE_GROUPS": "every completion scores 0 after the NaN",
         "GROUP_MODE_COLLAPSE": "every completion is the same empty text after the NaN",
         "REWARD_PLATEAU": "the reward is stuck at 0 with every group agreeing"},
        lag=40, shows=_nonfinite),
    # Four updates per generation and a learning rate 10× too high from ONSET.
    "clipped-updates": Case(
        SimConfig(n_steps=N_STEPS, num_iterations=4, lr_switch=(ONSET, 10.0)), "CLIP_RATIO_HIGH",
        frozenset({"CLIP_RATIO_HIGH", "ENTROPY_COLLAPSE"}),
        {"ENTROPY_COLLAPSE": "the same too-large steps make the policy greedy", **COLLAPSED_POLICY},
        lag=10, shows=_after_onset),
}
SEEDS = (21, 22)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_pathology_is_diagnosed_at_its_mechanism(name: str, seed: int, root: str):
    case = CASES[name]
    run, view, findings = _run(case.config.with_(seed=seed), root)
    summary = [(f.signature_id, f.severity, f.first_step) for f in findings]
    ours = [f for f in findings if f.signature_id == case.signature]
    assert ours and ours[0].severity in ("warn", "critical"), f"{case.signature} missing: {summary}"
    finding = ours[0]
    expected_onset = ONSET
    if name == "nan-from-zero-std":  # the bug bites at the first equal-reward group after the switch
        steps, loss = run.series("loss")
        expected_onset = int(steps[~np.isfinite(loss)][0])
    assert expected_onset - 5 <= finding.first_step <= expected_onset + case.lag, \
        f"{case.signature} first_step {finding.first_step}, mechanism from {expected_onset}"
    assert findings[0].signature_id in case.root_cause, f"ranked first: {summary}"
    allowed = case.accepted.keys() | case.root_cause | {case.signature}
    stray = [s for s in _loud(findings) if s[0] not in allowed]
    assert not stray, stray
    assert finding.links_to_samples, "no linked samples"
    linked = view.samples.filter(pl.col("sample_id").is_in(finding.links_to_samples))
    assert linked.height == len(finding.links_to_samples)
    assert case.shows(linked, run, finding), linked.select("sample_id", "step", "reward", "advantage",
                                                          "entropy", "kl", "length", "completion").to_dicts()


# -- the same, recorded as the TRL integration records -----------------------------------------

#: Logged every 5th step (means over the interval, as the Trainer's `logging_steps`), and only
#: the Recorder's default selection of samples (top/bottom by reward plus a few at random).
LOGGING_STEPS, LATE = 5, 600
TRL_LIKE: dict[str, tuple[SimConfig, frozenset[str], dict[str, str]]] = {
    "healthy": (SimConfig(n_steps=2 * LATE, lr_schedule="linear"), frozenset(), {}),
    "lr-too-high-kl": (SimConfig(n_steps=2 * LATE, beta=0.04, lr_switch=(LATE, 30.0)),
                       frozenset({"KL_BLOWUP", "ENTROPY_COLLAPSE"}),
                       {**CASES["lr-too-high-kl"].accepted,
                        "REWARD_HACKING": "a metric-only hedge (warn, low confidence): format rose while accuracy "
                                          "fell, as gaming would look; the samples do not confirm it"}),
    "reward-hacking": (CASES["reward-hacking"].config.with_(n_steps=2 * LATE,
                                                            weight_switch=(LATE, W + (("tags", 4.0),))),
                       frozenset({"REWARD_HACKING"}), CASES["reward-hacking"].accepted),
    "label-bug": (SimConfig(n_steps=2 * LATE, label_bug_step=LATE), frozenset({"REWARD_COLLAPSE"}),
                  {**CASES["label-bug"].accepted,
                   "REWARD_PLATEAU": "with the task graded 0 and the format learnt, groups agree and the reward "
                                     "is flat"}),
}


@pytest.mark.parametrize("name", sorted(TRL_LIKE))
def test_through_a_trl_like_recording(name: str, tmp_path: Path):
    config, causes, accepted = TRL_LIKE[name]
    run = simulate(config.with_(seed=31, sample_prompts=config.prompts_per_step))
    view = RunView.load(run.record(tmp_path / name, select=True, logging_steps=LOGGING_STEPS))
    findings = diagnose_view(view)
    if not causes:
        assert not _loud(findings)
        return
    summary = [(f.signature_id, f.severity, f.first_step) for f in findings]
    assert findings[0].signature_id in causes, summary
    first = [f for f in findings if f.signature_id in causes][0]
    assert LATE - 4 * LOGGING_STEPS <= first.first_step <= LATE + 40, summary
    assert first.links_to_samples
    stray = [s for s in _loud(findings) if s[0] not in causes | accepted.keys()]
    assert not stray, stray


def test_the_simulated_mechanisms_do_what_they_say(root: str):
    """Guards the simulator, so a change to it cannot make the tests above vacuous."""
    run, _, _ = _run(CASES["nan-from-zero-std"].config.with_(seed=SEEDS[0]), root)
    _, loss = run.series("loss")
    assert np.isfinite(loss[:ONSET]).all() and np.isnan(loss[-1])
    healthy = simulate(HEALTHY["linear-decay"][0].with_(seed=0, n_steps=400))
    _, accuracy = healthy.series("rewards/accuracy/mean")
    assert accuracy[-100:].mean() > accuracy[:100].mean() + 0.1  # it learns
    _, loss = healthy.series("loss")
    assert abs(np.median(loss)) < 0.05  # GRPO's loss sits near 0
    hack, _, _ = _run(CASES["reward-hacking"].config.with_(seed=SEEDS[0]), root)
    _, accuracy = hack.series("rewards/accuracy/mean")
    assert accuracy[ONSET - 50:ONSET].mean() > 0.2 and accuracy[-50:].mean() < 0.05
    completions = [s["completion"] for s in hack.samples[N_STEPS - 1]]
    assert sum(c.split().count("<ans>") >= 2 for c in completions) >= 0.75 * len(completions)  # tag spam
    assert EOS == 0
