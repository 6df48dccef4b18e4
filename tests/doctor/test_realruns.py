"""The doctor on the corpus of real TRL runs (``tests/fixtures/realruns``, ``make realruns``).

Each scenario of ``tests/realruns/corpus.py`` is a real GRPOTrainer/RLOOTrainer run of a tiny
instruct model on the CPU, recorded with ``attach``. Its onsets come from TRL's raw
``log_history`` by the explicit rule the table gives, never from the doctor. Each expected
signature must be found at warn or above with ``first_step`` within the scenario's tolerance
of its onset; healthy runs draw nothing at warn or above; and the numbers a finding quotes as
evidence must be values the run really logged around the steps it names.

Scenarios the detectors still get wrong are strict xfails naming the issue-17 class that
fixes them: when a fix lands the test XPASSes, fails, and the mark must go.
"""
from __future__ import annotations

import math
import sys
from functools import cache
from pathlib import Path

import pytest

from rlprobe.doctor import Finding, diagnose

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "realruns"))
from corpus import FIXTURES, SCENARIOS, Scenario, load_history, series, verdict  # noqa: E402

BY_NAME = {scenario.name: scenario for scenario in SCENARIOS}

#: (scenario, what) → why the doctor still gets it wrong, naming the issue-17 class whose fix should
#: flip it. Strict: when a fix lands the test XPASSes, fails, and the entry must go.
KNOWN_FAILURES: dict[tuple[str, str], str] = {
    ("partial_credit_budget", "verdict"):
        "TRUNCATION_HIGH warns at a 25% clipped share from step 106; the raw onset rule dates 50% at step 181",
    # The fresh batch (session 5): the doctor's first look at runs written after its rules.
    ("reward_hacking_seed2", "verdict"):
        "REWARD_HACKING missing: in_category falls 0.75 -> 0.38 while letter_o rises 0.10 -> 0.54",
    ("reward_outage_breaks_policy", "verdict"):
        "GRAD_NORM_SPIKE warns from step 14: the norm's level rises x4.7 as the groups start to disagree",
    # Batch 4 (session 6): the doctor's first look (c4ac82e), before any fix for it.
    ("entropy_collapse_bnpo_cool_log2", "verdict"):
        "ENTROPY_COLLAPSE dated 34 (onset 94); GROUP_MODE_COLLAPSE dated 51 (onset 9)",
    # Batch 6 (session 7): the doctor's first look (a761b37), before any fix for it.
    ("entropy_collapse_slow_cool_log12", "verdict"): "ENTROPY_COLLAPSE dated 72, onset 144 (±36)",
    ("length_explosion_slow_log15", "verdict"):
        "LENGTH_EXPLOSION dated 60, where the length left 5.8 tokens; the rule dates x1.5 at 105 (±36)",
    # Batch 8 (session 7): the doctor's first look (857badb), before any fix for it.
    ("length_collapse_brevity_nosamples_log4", "verdict"):
        "LENGTH_COLLAPSE missing: a fall from 5.6 to 1 token over 60 of 140 steps drags its trailing reference",
    # Batch 9 (session 8): the doctor's first look (2e365f0), after the severity policy, before any fix for it.
    ("reward_collapse_binary_2x4_late_warmup_log4", "verdict"):
        "REWARD_COLLAPSE dated 108, where the reward left 0.6; the rule dates the fall under 0.2 at 152 (±30)",
    # Batch 11 (session 9): the doctor's first look (42edb84), after the session's tune fixes, before any fix for it.
    ("reward_collapse_key_changed_4x2_log4", "verdict"):
        "KL_BLOWUP critical from 84: the KL's 3-log median rose from 0.23 (two low logs at 60-64) to 0.9-1.1 as the "
        "run learned, and the grader's change at 110 (not the drift) dropped the reward",
    # Batch 12 (session 9): the doctor's first look (6b6fb58), after the session's fixes, before any fix for it.
    ("entropy_collapse_coin_2x8_log6", "verdict"): "GROUP_MODE_COLLAPSE dated 48, onset 77 (±25)",
    # Batch 13 (session 10): the doctor's first look (6cc0cc8), after the session's fixes, before any fix for it.
    ("entropy_collapse_coin_1x8_temp08_log5", "verdict"): "ENTROPY_COLLAPSE dated 55, onset 100 (±25)",
    ("repetition_word_count_mixed_2x4_temp09_log3", "verdict"): "REPETITIVE_COMPLETIONS dated 109, onset 171 (±27)",
    # Batch 14 (session 10): the doctor's first look (567c84b), after the session's fixes, before any fix for it.
    ("reward_plateau_half_key_4x4_temp09_log5", "verdict"):
        "KL_BLOWUP warn from 215: the KL's 3-log median from 0.19-0.25 to 0.76 over the last 35 steps (x4.04 "
        "against one low median a window back)",
    # Batch 15 (session 10): the doctor's first look (1220995), after the session's fixes, before any fix for it.
    ("healthy_bnpo_judge_1x8_cool05_nosamples_log8", "verdict"):
        "REWARD_PLATEAU warn from 64 and ENTROPY_COLLAPSE warn from 144 on a healthy run (now: the entropy warn, and "
        "a REWARD_PLATEAU warn from 136 again: a judge score of one group of 8 read without samples, near 8.7 with "
        "75 % of groups agreeing over its last 64 steps, is the later stretch a plateau search now reaches)",
    ("reward_plateau_after_jump_grpo_loss_2x5_kl01_lr1e3_log1", "verdict"):
        "REWARD_PLATEAU missing (onset 44; now found, dated 82)",
    ("reward_collapse_key_untaught_after_learning_2x5_log3", "verdict"): "KL_BLOWUP critical from 36, not accepted",
    ("entropy_collapse_coin_drgrpo_2x5_cool05_log3", "verdict"):
        "GROUP_MODE_COLLAPSE dated 82, onset 7 (±25); ENTROPY_EXPLOSION warn from 69, not accepted",
    ("reward_plateau_half_key_rloo_nokl_2x8_temp09_oldkeys_log11", "verdict"): "REWARD_PLATEAU missing (onset 88)",
    # Batch 16 (session 10): the doctor's first look (376cec3), after the session's fixes, before any fix for it.
    ("healthy_partial_rloo_2x4_temp08_nosamples_log4", "verdict"):
        "KL_BLOWUP critical from 136 (now warn: a steady drift past 1 on the last 4 logs) and ZERO_ADVANTAGE_GROUPS "
        "warn from 48 on a healthy RLOO run (now info: its groups were solved one by one)",
    ("kl_blowup_rloo_judge_warmup20_2x4_log5", "verdict"): "KL_BLOWUP dated 10, onset 40 (±25)",
    # Batch 17 (session 11): the doctor's first look (65b5005), after the session's fixes, before any fix for it.
    ("healthy_rloo_judge_2x6_temp11_log3", "verdict"): "GROUP_MODE_COLLAPSE warn from 83 on a healthy RLOO run",
    ("reward_collapse_outage_rloo_binary_4x3_cool05_nosamples_log4", "verdict"):
        "ENTROPY_COLLAPSE critical from 28, not accepted",
    ("repetition_target_mentions_lists_4x3_temp11_log1", "verdict"): "REPETITIVE_COMPLETIONS dated 57, onset 99 (±25)",
    ("reward_plateau_half_key_2x6_log10", "verdict"): "REWARD_PLATEAU missing (onset 150)",
    # Batch 18 (session 11): the doctor's first look (5badf45), after the session's fixes, before any fix for it.
    ("reward_hacking_letter_o_exact_8x2_log5", "verdict"):
        "REWARD_HACKING dated 35 (now 40: the letter proxy rising), onset 70 (±25)",
    ("reward_plateau_half_key_4x3_temp11_nosamples_log9", "verdict"): "REWARD_PLATEAU missing (onset 162)",
    ("entropy_collapse_brevity_category_grpo_loss_4x4_cool08_log3", "verdict"): "ENTROPY_COLLAPSE missing (onset 75)",
    # Batch 19 (session 11): the doctor's first look (be3b85a), after the session's fixes, before any fix for it.
    ("length_collapse_brevity_exact_6x2_hot12_nosamples_log7", "verdict"): "LENGTH_COLLAPSE missing (onset 84)",
    # Batch 20 (session 11): the doctor's first look (b2c11ca), after the session's fixes, before any fix for it.
    ("reward_plateau_half_key_8x2_oldkeys_log12", "verdict"): "REWARD_PLATEAU missing (onset 84)",
    # Batch 21 (session 12): the doctor's first look (da8d234), before any fix for it.
    ("healthy_converges_grpo_loss_binary_4x3_cool06_log2", "verdict"):
        "REWARD_PLATEAU warn from 82 and ENTROPY_COLLAPSE warn from 126 on a healthy run that converges (now: the "
        "entropy warn)",
    # Batch 22 (session 12): the doctor's first look (5e8733d), after the session's fixes, before any fix for it.
    ("reward_collapse_outage_bnpo_binary_4x2_cool05_log10", "verdict"):
        "KL_BLOWUP critical from 30 and GROUP_MODE_COLLAPSE warn from 45, not accepted",
    ("reward_plateau_half_key_3x5_kl_temp09_oldkeys_log8", "verdict"): "REWARD_PLATEAU missing (onset 96)",
    # Batch 23 (session 12): the doctor's first look (3375299), after the session's fixes, before any fix for it.
    ("reward_plateau_half_key_rloo_2x4_temp09_log6", "verdict"):
        "REWARD_PLATEAU missing (onset 66) and GROUP_MODE_COLLAPSE warn from 31, not accepted",
    # Batches 24 and 25 (session 13): the doctor's first look (77e8721, the doctor of 0a9788b), before any fix.
    ("reward_collapse_key_untaught_after_learning_rloo_partial_2x4_log4", "verdict"):
        "GROUP_MODE_COLLAPSE warn from 53, not accepted",
    ("reward_hacking_word_count_list_credit_lists_1x8_kl_log5", "verdict"):
        "REWARD_HACKING missing (onset 75) and REWARD_COLLAPSE warn from 20, not accepted",
    # Batches 26 and 27 (session 13): the doctor's first look (4b47660, the doctor of 531138b), before any fix.
    ("healthy_judge_drgrpo_nokl_4x2_cool075_log4", "verdict"): "ZERO_ADVANTAGE_GROUPS warn from 4 on a healthy run",
    ("repetition_target_mentions_lists_bnpo_2x4_hot12_log4", "verdict"):
        "REPETITIVE_COMPLETIONS dated 54, onset 102 (±25)",
    # Batches 28 and 29 (session 13): the doctor's first look (461ce4f, the doctor of 1e375ec), before any fix.
    ("reward_plateau_half_key_grpo_loss_2x6_kl_log10", "verdict"):
        "REWARD_PLATEAU dated 220, onset 70 (±45); GROUP_MODE_COLLAPSE warn from 60, not accepted",
    ("entropy_collapse_coin_grpo_loss_nokl_2x4_cool07_log3", "verdict"): "GROUP_MODE_COLLAPSE dated 28, onset 65 (±25)",
    ("reward_plateau_half_key_grpo_loss_4x3_kl_log6", "verdict"): "REWARD_PLATEAU missing (onset 114)",
    # Batches 30 and 31 (session 13): the doctor's first look (161ccad, the doctor of 1e375ec), before any fix.
    ("entropy_explosion_distinct_letters_bnpo_kl_3x4_hot12_log4_b30", "verdict"):
        "ENTROPY_EXPLOSION dated 16, onset 44 (±25)",
    ("repetition_target_mentions_lists_rloo_2x4_log5_b30", "verdict"):
        "REPETITIVE_COMPLETIONS dated 41, onset 93 (±27)",
    ("length_explosion_char_bonus_exact_rloo_nokl_2x4_log1_b31", "verdict"):
        "ADVANTAGE_OUTLIERS warn from 24 and ENTROPY_EXPLOSION warn from 33, not accepted",
    ("repetition_target_mentions_lists_bnpo_4x3_kl_log10_b31", "verdict"):
        "REPETITIVE_COMPLETIONS dated 64, onset 116 (±30)",
    # Batches 32 and 33 (session 14): the doctor's first look (15e3413, the doctor of a464be9), before any fix.
    ("healthy_judge_cosine_1x8_kl_hot11_log12_b32", "verdict"):
        "GROUP_MODE_COLLAPSE warn from 65 on a healthy run (an episode over steps 65-75 of 180)",
    ("group_mode_collapse_early_letter_nokl_2x4_temp09_log11_b32", "verdict"):
        "REWARD_COLLAPSE warn from 99, not accepted",
    # Batch 35 (session 14): the doctor's first look (8e0adcf, the doctor of e252610), before any fix.
    ("reward_collapse_outage_judge_bnpo_2x5_kl_cool075_log6_b35", "verdict"):
        "GROUP_MODE_COLLAPSE warn from 106, not accepted",
    # Batch 34 (session 14): the doctor's first look (67a7d53, the doctor of e252610), before any fix.
    ("reward_plateau_half_key_bnpo_3x4_kl_log8_b34", "verdict"): "REWARD_PLATEAU dated 128, onset 88 (±36)",
    # Session 14: REWARD_HACKING read without samples from a fall beside the proxy's rise over the same logs (the
    # label of the same mechanism accepts it in batches 31 and 35, not in these two of batches 22 and 23).
    ("length_collapse_brevity_exact_bnpo_2x4_nosamples_log6", "verdict"):
        "REWARD_HACKING warn from 18, not accepted: exact match 0.10 at step 18 and 0 from 24 while brevity rose "
        "from -0.57 to 0 over the same logs (the policy traded the task for the cheap term)",
    ("length_collapse_brevity_exact_3x4_cool08_nosamples_log4", "verdict"):
        "REWARD_HACKING warn from 12, not accepted: exact match 0.25-0.31 over the first four logs and 0 from 20 "
        "while brevity rose from -0.61 to 0 over the same logs (the policy traded the task for the cheap term)",
    # Batches 36 and 37 (session 14): the doctor's first look (f030c7f, the doctor of 5589f08), before any fix.
    ("reward_hacking_letter_o_category_rloo_2x4_kl_log4_b36", "verdict"): "REWARD_HACKING dated 16, onset 52 (±25)",
    ("entropy_collapse_coin_rloo_nokl_1x8_temp09_log3_b36", "verdict"): "ENTROPY_COLLAPSE dated 18, onset 48 (±25)",
    ("reward_plateau_half_key_4x3_kl_cool06_log10_b36", "verdict"): "REWARD_PLATEAU dated 130, onset 90 (±30)",
    # Batches 38 and 39 (session 14): the doctor's first look (974629e, the doctor of 5589f08), before any fix.
    ("reward_plateau_half_key_bnpo_2x4_kl_hot11_log6_b38", "verdict"):
        "REWARD_PLATEAU dated 60, onset 96 (±27); GROUP_MODE_COLLAPSE warn from 29, not accepted",
}

#: Recorded step columns → the TRL log key they copy (evidence naming these is checkable).
TRL_KEYS = {
    "reward_mean": "reward", "reward_std": "reward_std", "kl_mean": "kl", "entropy_mean": "entropy",
    "grad_norm": "grad_norm", "length_mean": "completions/mean_length",
    "truncated_frac": "completions/clipped_ratio", "frac_reward_zero_std": "frac_reward_zero_std",
    "clip_ratio": "clip_ratio/region_mean", "learning_rate": "learning_rate", "loss": "loss",
}


@cache
def findings_of(name: str) -> tuple[Finding, ...]:
    return tuple(diagnose(BY_NAME[name].judged()))


def _mark(name: str, what: str) -> list[pytest.MarkDecorator]:
    reason = KNOWN_FAILURES.get((name, what))
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def _summary(findings) -> list[tuple]:
    return [(f.signature_id, f.severity, f.first_step) for f in findings]


def test_the_corpus_is_complete():
    """At least 40 scenarios over several reward shapes, both halves of the split populated, every
    trained run has its recording and raw log, and every onset rule finds its onset."""
    assert len(SCENARIOS) >= 40 and sum(s.healthy for s in SCENARIOS) >= 12
    assert len({s.name for s in SCENARIOS}) == len(SCENARIOS)
    halves = {half: [s for s in SCENARIOS if s.half == half] for half in ("tune", "holdout")}
    assert all(len(h) >= 15 and any(s.healthy for s in h) and any(not s.healthy for s in h) for h in halves.values())
    assert len({frozenset(s.rewards) for s in SCENARIOS}) >= 8
    for scenario in SCENARIOS:
        assert (FIXTURES / scenario.trained / "run" / "manifest.json").is_file(), scenario.name
        assert load_history(scenario.trained), scenario.name
        for signature, onset in scenario.onsets().items():
            assert onset is not None, f"{scenario.name}: no onset for {signature} in the raw log"


@pytest.mark.parametrize("name", [pytest.param(s.name, id=f"{s.half}-{s.name}", marks=_mark(s.name, "verdict"))
                                  for s in SCENARIOS])
def test_scenario_judged_right(name: str):
    """The corpus verdict (``corpus.verdict``): expected signatures at warn+ near their onset, mild
    episodes at info or warn, nothing unexpected at warn+, healthy runs silent at warn+."""
    scenario = BY_NAME[name]
    ok, note = verdict(scenario, scenario.onsets(), list(findings_of(name)))
    assert ok, f"{note}; found {_summary(findings_of(name))}"


def _checkable(scenario: Scenario):
    history = load_history(scenario.trained)
    for finding in findings_of(scenario.name):
        for evidence in finding.evidence:
            key = TRL_KEYS.get(evidence.metric)
            derived = any(word in evidence.note.lower() for word in ("count", "share", "fraction"))
            if key is not None and not derived and evidence.observed is not None and math.isfinite(evidence.observed):
                yield finding, evidence, series(history, key)


@pytest.mark.parametrize("name", [pytest.param(s.name, marks=_mark(s.name, "numbers")) for s in SCENARIOS])
def test_quoted_numbers_are_true_to_the_log(name: str):
    """An observed value quoted for a logged metric lies within what the run logged over the
    evidence window (widened by the scenario's tolerance: rolling statistics look back), and
    its baseline within what the run logged up to the window's end.
    Evidence whose note says it is a count, share or fraction of the metric is not its value."""
    scenario = BY_NAME[name]
    wrong = []
    for finding, evidence, points in _checkable(scenario):
        lo, hi = evidence.window
        # The observed value comes from the window; a baseline from anywhere before its end.
        for what, value, first in (("observed", evidence.observed, lo - scenario.tolerance),
                                   ("baseline", evidence.baseline, -math.inf)):
            values = [v for step, v in points if first <= step <= hi and math.isfinite(v)]
            if value is None or not math.isfinite(value) or not values:
                continue
            slack = 1e-6 + 0.01 * max(abs(min(values)), abs(max(values)))
            if not min(values) - slack <= value <= max(values) + slack:
                wrong.append((finding.signature_id, evidence.metric, evidence.window, what, value,
                              (min(values), max(values))))
    assert not wrong


#: (scenario, cause, symptom): the mechanism's own signature must rank before what it caused.
CAUSES = [("length_explosion", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"),
          ("repetition", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"),
          ("kl_blowup", "KL_BLOWUP", "REWARD_COLLAPSE"),
          ("entropy_collapse", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE")]


@pytest.mark.parametrize(("name", "cause", "symptom"), [pytest.param(*case, marks=_mark(case[0], "ranking"))
                                                       for case in CAUSES])
def test_cause_ranks_before_its_symptom(name: str, cause: str, symptom: str):
    order = [f.signature_id for f in findings_of(name)]
    assert cause in order and symptom in order, order
    assert order.index(cause) < order.index(symptom), order


def test_groups_that_fail_under_a_destroyed_policy_are_not_blamed_on_hard_prompts():
    """lr_typo: one Adam step at lr 1e6 turns the policy to noise (entropy 3.4 nats a token);
    its groups all score nothing because it emits noise, not because the prompts are hard."""
    [flat] = [f for f in findings_of("lr_typo") if f.signature_id == "ZERO_ADVANTAGE_GROUPS"]
    assert "emits noise" in flat.explanation and "the prompts are too hard" not in flat.explanation
    healthy = [f for s in SCENARIOS if s.healthy for f in findings_of(s.name)
               if f.signature_id == "ZERO_ADVANTAGE_GROUPS"]
    assert not any("emits noise" in f.explanation for f in healthy)


def test_without_samples_solved_groups_are_convergence_and_a_stuck_policy_is_not():
    """Read from TRL's trainer_state.json (no samples), groups that agree because a binary reward is
    solved are info (issue 17 class 1), while the policy that answers every question 'chisel' keeps
    its alarms: its total reward held, but the exact-match component it earned early fell to 0."""
    import dataclasses

    solved = findings_of("healthy_binary_solved_nosamples")
    assert [f.severity for f in solved if f.signature_id == "ZERO_ADVANTAGE_GROUPS"] == ["info"]
    assert "most prompts are solved" in [f for f in solved if f.signature_id == "ZERO_ADVANTAGE_GROUPS"][0].explanation
    stuck = dataclasses.replace(BY_NAME["stuck_one_answer"], source="trainer_state")
    loud = {f.signature_id: f.severity for f in diagnose(stuck.judged()) if f.severity != "info"}
    assert loud.get("ZERO_ADVANTAGE_GROUPS") == "critical" and loud.get("ENTROPY_COLLAPSE") == "critical", loud


def test_a_single_extreme_step_is_reported_with_its_samples():
    """grad_spike_once: one batch's rewards came back 1000x too large at step 80; the clipped update
    left the policy where it was. GRAD_NORM_SPIKE reports that one step at info, linking its samples
    (issue 17 class 5); a single step is never more on a run that came back."""
    [spike] = [f for f in findings_of("grad_spike_once") if f.signature_id == "GRAD_NORM_SPIKE"]
    assert (spike.severity, spike.first_step) == ("info", 80)
    import polars as pl

    linked = pl.read_parquet(FIXTURES / "grad_spike_once" / "run" / "samples.parquet").filter(
        pl.col("sample_id").is_in(spike.links_to_samples))
    assert linked.height == len(spike.links_to_samples) and set(linked["step"]) == {80}
    assert linked["reward"].max() > 100  # the batch whose rewards came back in the wrong unit


def test_copies_from_the_first_steps_are_a_stuck_policy_only_when_they_are_wrong():
    """Issue 17 class 2 at a low temperature: stuck_low_temperature's groups are copies from the first
    sample steps (temperature 0.3), so no rise shows; they settle on words worth less than their
    prompts' best while the reward falls, and GROUP_MODE_COLLAPSE warns from the start. Runs sampled
    as cool whose copies are right answers keep it at info or silent."""
    scenario = BY_NAME["stuck_low_temperature"]
    [stuck] = [f for f in findings_of(scenario.name) if f.signature_id == "GROUP_MODE_COLLAPSE"]
    onset = scenario.onsets()["GROUP_MODE_COLLAPSE"]
    assert stuck.severity == "warn" and abs(stuck.first_step - onset) <= scenario.tolerance, stuck
    assert "there from the start" in stuck.explanation and "stuck policy" in stuck.explanation
    for name in ("healthy_bnpo_cool", "healthy_1group_cool", "healthy_1group_answers"):
        assert all(f.severity == "info" for f in findings_of(name) if f.signature_id == "GROUP_MODE_COLLAPSE"), name


def test_a_weak_copies_episode_is_told_at_info_in_its_own_words():
    """Batch 13's reward_plateau_half_key_2x4_log4: copies at a 42 % median share over steps 40-45 that came
    back later are a trailing median's crossing (info), and the finding does not call them 'mostly copies'."""
    found = findings_of("reward_plateau_half_key_2x4_log4")
    finding = next(f for f in found if f.signature_id == "GROUP_MODE_COLLAPSE")
    assert finding.severity == "info" and "often copies" in finding.explanation and "weak" in finding.explanation


def test_groups_solved_one_by_one_are_judged_where_their_share_held():
    """Batch 16's healthy_partial_rloo_2x4_temp08_nosamples_log4 (no samples): the zero-variance share climbs
    from 0-0.25 to 0.88-1 as the questions are learnt one by one, over 0.8 only from step 124. Whether most
    groups agree is asked of where the share held, the stretch the finding quotes, not of the climb from 48
    (a median under 0.8): the reward rose and held, so ZERO_ADVANTAGE_GROUPS is convergence, at info."""
    name = "healthy_partial_rloo_2x4_temp08_nosamples_log4"
    [flat] = [f for f in findings_of(name) if f.signature_id == "ZERO_ADVANTAGE_GROUPS"]
    assert flat.severity == "info" and "most prompts are solved" in flat.explanation, flat
    held = flat.explanation.split("median over steps ")[1].split(")")[0]
    first, last = (int(x) for x in held.split("–"))
    share = dict((s, v) for s, v in series(load_history(name), "frac_reward_zero_std"))
    inside = sorted(v for s, v in share.items() if first <= s <= last)
    climb = sorted(v for s, v in share.items() if flat.first_step <= s <= last)
    assert inside[len(inside) // 2] >= 0.8 > climb[len(climb) // 2], (first, last)
