"""Sample-level detectors: ZERO_ADVANTAGE_GROUPS, REPETITIVE_COMPLETIONS, GROUP_MODE_COLLAPSE,
ADVANTAGE_OUTLIERS — each fires on its synthetic pathology near the onset, stays silent on
healthy runs, grows more confident with stronger evidence, and copes without samples or
without metrics."""
from __future__ import annotations

import math
from functools import cache

import numpy as np
import polars as pl
import pytest

from rlprobe.doctor import RunView, diagnose, diagnose_view
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.config import resolve_config
from rlprobe.doctor.detectors.samples import _repetition
from rlprobe.doctor.synth.frames import plan_view, synth_view
from rlprobe.doctor.synth.plan import build_plan, healthy_plan

PATHOLOGIES = {
    "zero_advantage_groups": "ZERO_ADVANTAGE_GROUPS",
    "repetitive_completions": "REPETITIVE_COMPLETIONS",
    "group_mode_collapse": "GROUP_MODE_COLLAPSE",
    "advantage_outliers": "ADVANTAGE_OUTLIERS",
}
MINE = tuple(PATHOLOGIES.values())


@cache
def _synth(pathology: str, n_steps: int, seed: int, onset: int | None = None):
    return synth_view(pathology, n_steps, seed, onset)


def run_detector(sid: str, view: RunView, **overrides):
    cfg = resolve_config({sid: overrides} if overrides else None)[sid]
    return registry()[sid].fn(view, cfg)


def tolerance(n_steps: int) -> int:
    """How far first_step may sit from the injected onset: the pathologies ramp in over a
    few percent of the run, and onsets are walked back from a trailing median."""
    return max(8, int(0.04 * n_steps))


def strip_samples(view: RunView) -> RunView:
    return RunView(view.steps, None, view.events, view.manifest)


def strip_metrics(view: RunView) -> RunView:
    return RunView(pl.DataFrame({"step": pl.Series([], dtype=pl.Int64)}), view.samples, view.events, view.manifest)


# -- each pathology is found, near its onset --------------------------------------------------

@pytest.mark.parametrize("n_steps", [150, 800])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("pathology", sorted(PATHOLOGIES))
def test_pathology_is_found_near_its_onset(pathology, seed, n_steps):
    plan, view = _synth(pathology, n_steps, seed)
    sid = PATHOLOGIES[pathology]
    found = {f.signature_id: f for f in diagnose_view(view)}
    assert sid in found, f"{sid} missed; got {sorted(found)}"
    finding = found[sid]
    assert finding.severity in ("warn", "critical")
    assert abs(finding.first_step - plan.onset) <= tolerance(n_steps), (finding.first_step, plan.onset)
    assert finding.evidence and finding.evidence[0].window[0] == finding.first_step
    assert finding.links_to_samples, "a sample-level finding links the samples that show it"
    assert any(ch.isdigit() for ch in finding.explanation)
    assert any("`" in action for action in finding.suggested_actions), "actions name trainer knobs"


def test_linked_samples_show_the_pathology():
    _, view = _synth("repetitive_completions", 400, 4)
    finding = run_detector("REPETITIVE_COMPLETIONS", view)
    linked = view.samples.filter(pl.col("sample_id").is_in(finding.links_to_samples))
    scored = _repetition(linked, 4, 200)
    assert scored.height == len(finding.links_to_samples)
    assert scored["repetition"].min() >= 0.5

    _, view = _synth("advantage_outliers", 400, 4)
    finding = run_detector("ADVANTAGE_OUTLIERS", view)
    linked = view.samples.filter(pl.col("sample_id").is_in(finding.links_to_samples))
    assert linked["advantage"].abs().min() > 7 / math.sqrt(8)

    _, view = _synth("group_mode_collapse", 400, 4)
    finding = run_detector("GROUP_MODE_COLLAPSE", view)
    linked = view.samples.filter(pl.col("sample_id").is_in(finding.links_to_samples))
    assert linked.group_by("group_id").agg(pl.col("completion").n_unique())["completion"].max() == 1


def test_zero_advantage_explains_too_easy_prompts():
    _, view = _synth("zero_advantage_groups", 400, 1)
    finding = run_detector("ZERO_ADVANTAGE_GROUPS", view)
    assert "too easy" in finding.explanation
    assert any("num_generations" in a for a in finding.suggested_actions)


# -- silence on healthy runs ------------------------------------------------------------------

@pytest.mark.parametrize("n_steps, seeds", [(100, range(8)), (1200, range(4)), (5000, range(1))])
def test_silent_on_healthy_runs(n_steps, seeds):
    for seed in seeds:
        _, view = _synth("healthy", n_steps, seed)
        loud = [f for f in diagnose_view(view) if f.signature_id in MINE and f.severity != "info"]
        assert not loud, (seed, [(f.signature_id, f.explanation) for f in loud])


def test_silent_on_a_healthy_ppo_run():
    view = plan_view(healthy_plan(600, 3, algorithm="ppo"))
    assert not [f for f in diagnose_view(view) if f.signature_id in MINE]


# -- confidence follows the strength of the evidence -----------------------------------------

def _with_zero_std(share: float, n_steps: int = 400, seed: int = 0) -> RunView:
    plan = build_plan("healthy", n_steps, seed)
    frac = plan.metrics["frac_reward_zero_std"].copy()
    frac[plan.onset:] = share + np.random.default_rng(seed).normal(0, 0.02, n_steps - plan.onset)
    plan.metrics["frac_reward_zero_std"] = np.clip(frac, 0, 1)
    return plan_view(plan)


def test_zero_advantage_confidence_grows_with_the_share():
    weak = run_detector("ZERO_ADVANTAGE_GROUPS", _with_zero_std(0.84))
    strong = run_detector("ZERO_ADVANTAGE_GROUPS", _with_zero_std(0.97))
    assert weak is not None and strong is not None
    assert strong.confidence > weak.confidence
    assert (weak.severity, strong.severity) == ("warn", "critical")
    assert run_detector("ZERO_ADVANTAGE_GROUPS", _with_zero_std(0.6)) is None


def _text_view(n_steps: int, onset: int, share: float, kind: str, seed: int = 0) -> RunView:
    """Samples only: 2 groups of 8 per step; from ``onset`` a ``share`` of completions
    loop (``kind="loop"``) or copy their group's first completion (``kind="copy"``)."""
    rng = np.random.default_rng(seed)
    vocab = np.array("we add the tens then ones carry one and check sum digits so result is".split())
    rows = []
    for step in range(n_steps):
        for g in range(2):
            first = None
            for i in range(8):
                words = " ".join(rng.choice(vocab, 40))
                hit = step >= onset and rng.random() < share
                if hit and kind == "loop":
                    words = " ".join(["let me check again"] * 12)
                elif hit and kind == "copy" and first is not None:
                    words = first
                first = first or words
                rows.append({"step": step, "sample_id": f"{step}-{g}-{i}", "group_id": f"{step}-{g}",
                             "completion": words, "reward": float(rng.random() < 0.5), "advantage": 0.0})
    return RunView(pl.DataFrame({"step": np.arange(n_steps)}), pl.DataFrame(rows))


@pytest.mark.parametrize("sid, kind, weak, strong", [
    ("REPETITIVE_COMPLETIONS", "loop", 0.35, 0.9),
    ("GROUP_MODE_COLLAPSE", "copy", 0.6, 0.95),
])
def test_textual_confidence_grows_with_the_share(sid, kind, weak, strong):
    lo = run_detector(sid, _text_view(200, 100, weak, kind))
    hi = run_detector(sid, _text_view(200, 100, strong, kind))
    assert lo is not None and hi is not None
    assert hi.confidence > lo.confidence
    assert abs(lo.first_step - 100) <= 8 and abs(hi.first_step - 100) <= 8
    assert run_detector(sid, _text_view(200, 100, 0.05, kind)) is None


def _inflated(factor: float, scale_rewards: str = "group", n_steps: int = 300) -> RunView:
    plan = build_plan("healthy", n_steps, 5)
    plan.trainer_config["scale_rewards"] = scale_rewards

    def inflate(step, samples):
        if step >= plan.onset:
            for s in samples[:8]:
                s["advantage"] *= factor
        return samples

    plan.sample_edits.append(inflate)
    return plan_view(plan)


def test_advantage_confidence_grows_with_the_excess():
    weak, strong = run_detector("ADVANTAGE_OUTLIERS", _inflated(1.6)), run_detector("ADVANTAGE_OUTLIERS", _inflated(8))
    assert weak is not None and strong is not None
    assert strong.confidence > weak.confidence
    assert weak.severity == strong.severity == "critical"


def test_advantages_within_the_bound_are_silent_even_when_large():
    """|A| up to (G−1)/√G is legitimate, however often it occurs."""
    view = _inflated(1.0)
    assert view.samples["advantage"].abs().max() <= 7 / math.sqrt(8)
    assert run_detector("ADVANTAGE_OUTLIERS", view) is None


def test_heavy_tail_rule_where_no_bound_applies():
    view = _inflated(8, scale_rewards="batch")
    finding = run_detector("ADVANTAGE_OUTLIERS", view)
    assert finding is not None and finding.severity == "warn"
    assert "not group-normalised" in finding.explanation
    assert run_detector("ADVANTAGE_OUTLIERS", _inflated(1.0, scale_rewards="batch")) is None


def test_heavy_tail_is_measured_on_groups_whose_rewards_differ():
    """RLOO with a KL penalty in the reward: while every group agrees on its reward, the advantages are the
    KL term's alone (tiny, never exactly 0). When the groups start to disagree, the advantages take the
    reward's own scale: that is the signal arriving, not a few samples dominating (batch 12's healthy
    RLOO run at temperature 0.6 drew a warn at ×40). A jump in that scale later still warns."""
    plan = build_plan("healthy", 300, 5)
    plan.algorithm, plan.trainer_config["beta"] = "rloo", 0.05

    def agree_early(step, samples):
        if step < plan.onset:
            by_group: dict = {}
            for i, s in enumerate(samples):
                s["reward"] = by_group.setdefault(s["group_id"], s["reward"])
                s["advantage"] = 0.01 * (i % 5 - 2.5)  # the KL term alone: each completion's own KL
        return samples

    plan.sample_edits.append(agree_early)
    view = plan_view(plan)
    early = view.samples.filter(pl.col("step") < plan.onset)
    assert early.group_by("step", "group_id").agg(pl.col("reward").n_unique())["reward"].max() == 1
    assert early["advantage"].abs().min() > 0
    assert run_detector("ADVANTAGE_OUTLIERS", view) is None
    plan.sample_edits.append(lambda step, samples: [dict(s, advantage=s["advantage"] * 8)
                                                    if step >= plan.onset + 60 and i < 8 else s
                                                    for i, s in enumerate(samples)])
    finding = run_detector("ADVANTAGE_OUTLIERS", plan_view(plan))
    assert finding is not None and finding.severity == "warn"


def test_group_size_from_complete_sample_groups_when_config_lacks_it():
    plan = build_plan("advantage_outliers", 300, 2)
    del plan.trainer_config["num_generations"]
    finding = run_detector("ADVANTAGE_OUTLIERS", plan_view(plan))
    assert finding is not None and "G=8" in finding.explanation


# -- without samples, without metrics ---------------------------------------------------------

@pytest.mark.parametrize("sid", ["REPETITIVE_COMPLETIONS", "GROUP_MODE_COLLAPSE", "ADVANTAGE_OUTLIERS"])
def test_sample_detectors_are_silent_without_samples(sid):
    pathology = {v: k for k, v in PATHOLOGIES.items()}[sid]
    _, view = _synth(pathology, 300, 0)
    assert run_detector(sid, strip_samples(view)) is None


@pytest.mark.parametrize("sid", ["REPETITIVE_COMPLETIONS", "GROUP_MODE_COLLAPSE", "ADVANTAGE_OUTLIERS"])
def test_sample_detectors_need_no_metrics(sid):
    pathology = {v: k for k, v in PATHOLOGIES.items()}[sid]
    plan, view = _synth(pathology, 300, 0)
    finding = run_detector(sid, strip_metrics(view))
    assert finding is not None and abs(finding.first_step - plan.onset) <= tolerance(300)


def test_zero_advantage_uses_the_metric_without_samples_and_samples_without_the_metric():
    plan, view = _synth("zero_advantage_groups", 400, 2)
    from_metric = run_detector("ZERO_ADVANTAGE_GROUPS", strip_samples(view))
    assert from_metric is not None and from_metric.evidence[0].metric == "frac_reward_zero_std"
    from_samples = run_detector("ZERO_ADVANTAGE_GROUPS", strip_metrics(view))
    assert from_samples is not None and from_samples.evidence[0].metric.startswith("samples")
    assert abs(from_samples.first_step - plan.onset) <= tolerance(400)
    empty = RunView(pl.DataFrame({"step": pl.Series([], dtype=pl.Int64)}))
    assert all(run_detector(sid, empty) is None for sid in MINE)


# -- focused units ----------------------------------------------------------------------------

def test_repetition_score_counts_repeated_ngrams():
    frame = pl.DataFrame({"step": [0, 0, 0], "sample_id": ["a", "b", "c"], "completion": [
        "one two three four five six seven eight nine ten",
        "la la la la la la la la la la",
        "short text",
    ]})
    scores = dict(_repetition(frame, 4, 200).select("sample_id", "repetition").iter_rows())
    assert scores["a"] == 0.0
    assert scores["b"] == pytest.approx(1 - 1 / 7)
    assert "c" not in scores  # too short to judge


def test_a_completion_too_short_for_ngrams_is_scored_on_its_words():
    """A list of three words that loops ("juice juice juice") holds no 4-gram at all: it is scored on
    the share of its words that repeat one, and a list of different words scores 0."""
    frame = pl.DataFrame({"step": [0] * 4, "sample_id": ["loop", "list", "half", "long"], "completion": [
        "juice juice juice", "lemon mango grape", "pig pig pig cow", "a b c d e f g h",
    ]})
    scores = dict(_repetition(frame, 4, 200).select("sample_id", "repetition").iter_rows())
    assert scores["loop"] == pytest.approx(2 / 3) and scores["list"] == 0.0
    assert scores["half"] == pytest.approx(0.5)
    assert scores["long"] == 0.0  # 8 words: scored on its 4-grams, as before


def test_through_a_recording_on_disk(synth_run):
    run = synth_run("repetitive_completions", 200, 1)
    found = {f.signature_id: f for f in diagnose(run)}
    assert found["REPETITIVE_COMPLETIONS"].severity in ("warn", "critical")


@pytest.mark.parametrize("sid", MINE + ("NONFINITE_VALUES", "RECORDING_GAPS", "LOGPROB_MISMATCH"))
def test_docstring_documents_the_detector(sid):
    """docs/detectors.md is generated from these docstrings: every section and key present."""
    from rlprobe.doctor.catalogdoc import SECTIONS, parse_docstring

    det = registry()[sid]
    summary, sections, keys = parse_docstring(det.fn.__doc__)
    assert summary.endswith(".") and len(summary) < 120
    assert set(SECTIONS) <= set(sections)
    assert set(keys) == set(det.defaults), set(keys) ^ set(det.defaults)
