"""Unit tests of the scalar-dynamics detectors on hand-built curves: what healthy runs do
never fires, each pathology fires at its onset, and confidence grows with the evidence."""
from __future__ import annotations

import inspect

import numpy as np
import polars as pl
import pytest

from rlprobe.doctor import diagnose_view
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.catalogdoc import parse_docstring
from rlprobe.doctor.config import resolve_config
from rlprobe.doctor.errors import ConfigError
from rlprobe.doctor.view import RunView
from rlprobe.records import canonical_metric

OURS = ("KL_BLOWUP", "ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_HACKING", "REWARD_COLLAPSE",
        "REWARD_PLATEAU", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "CLIP_RATIO_HIGH",
        "GRAD_NORM_SPIKE", "VALUE_LOSS_DIVERGENCE")
N, ONSET = 800, 400


def view_of(algorithm: str = "grpo", trainer_config: dict | None = None, **series: np.ndarray) -> RunView:
    """A run logging exactly ``series`` (trainer spellings accepted), one row per step."""
    n = len(next(iter(series.values())))
    frame = pl.DataFrame({"step": np.arange(n), **{canonical_metric(k): np.asarray(v, float)
                                                   for k, v in series.items()}})
    return RunView(frame, manifest={"algorithm": algorithm, "trainer_config": trainer_config or {}})


def fallen(onset: int = ONSET, n: int = N, seed: int = 9) -> np.ndarray:
    """A pass rate that falls from 0.8 to 0.2 at ``onset`` and stays there: the harm that makes a strong
    symptom critical (``facts.severity``); without it the same symptom is a warning."""
    return np.where(np.arange(n) < onset, 0.8, 0.2) + np.random.default_rng(seed).normal(0.0, 0.02, n)


def detect(signature: str, view: RunView, **overrides):
    cfg = resolve_config({signature: overrides} if overrides else None)[signature]
    result = registry()[signature].fn(view, cfg)
    assert result is None or not isinstance(result, list)
    return result


def noise(seed: int, sd: float, n: int = N) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, sd, n)


def after(onset: int = ONSET, n: int = N) -> np.ndarray:
    return np.clip(np.arange(n) - onset, 0, None).astype(float)


def decay_to(floor: float, tau: float = 20.0) -> np.ndarray:
    """1 before the onset, then an exponential approach to ``floor``."""
    return np.where(np.arange(N) >= ONSET, floor + (1 - floor) * np.exp(-after() / tau), 1.0)


def rise_to(factor: float, span: float = 60.0) -> np.ndarray:
    return 1 + (factor - 1) * np.clip(after() / span, 0, 1)


# -- entropy ------------------------------------------------------------------------------


def entropy_curve(seed: int = 0) -> np.ndarray:
    """A healthy shape: warm-up bump, then a decline by a third, fastest early."""
    t = np.arange(N)
    return 0.9 * (1 - 0.33 * (1 - np.exp(-4 * t / N))) * (1 + 0.3 * np.exp(-t / 15)) * np.exp(noise(seed, 0.05))


def test_entropy_falling_by_a_third_and_a_low_absolute_level_are_healthy():
    assert detect("ENTROPY_COLLAPSE", view_of(entropy=entropy_curve())) is None
    assert detect("ENTROPY_COLLAPSE", view_of(entropy=0.02 * entropy_curve())) is None  # no absolute floor
    assert detect("ENTROPY_EXPLOSION", view_of(entropy=entropy_curve())) is None


def test_entropy_collapse_found_at_onset_and_confidence_grows_with_depth():
    mild = detect("ENTROPY_COLLAPSE", view_of(entropy=entropy_curve() * decay_to(0.35), reward=fallen()))
    deep = detect("ENTROPY_COLLAPSE", view_of(entropy=entropy_curve() * decay_to(0.05), reward=fallen()))
    assert mild and deep
    assert abs(mild.first_step - ONSET) <= 10 and abs(deep.first_step - ONSET) <= 10
    assert deep.confidence > mild.confidence
    assert (mild.severity, deep.severity) == ("warn", "critical")
    # The same depth in a run that shows no harm (no reward logged) is a warning.
    assert detect("ENTROPY_COLLAPSE", view_of(entropy=entropy_curve() * decay_to(0.05))).severity == "warn"
    assert deep.evidence[0].observed < 0.1 * deep.evidence[0].baseline


def test_entropy_explosion_found_and_confidence_grows_with_height():
    low = detect("ENTROPY_EXPLOSION", view_of(entropy=entropy_curve() * rise_to(2.2)))
    high = detect("ENTROPY_EXPLOSION", view_of(entropy=entropy_curve() * rise_to(5.0)))
    assert low and high and high.confidence > low.confidence
    assert abs(high.first_step - ONSET) <= 10 and high.severity == "critical" and low.severity == "warn"


# -- KL -----------------------------------------------------------------------------------


def kl_healthy(end: float, seed: int = 0) -> np.ndarray:
    p = np.arange(N) / N
    return end * (1 - np.exp(-3 * p)) / (1 - np.exp(-3)) * np.exp(noise(seed, 0.25))


def test_kl_absent_near_zero_or_rising_and_flattening_is_healthy():
    assert detect("KL_BLOWUP", view_of(loss=noise(1, 0.01))) is None  # beta = 0: no KL logged
    assert detect("KL_BLOWUP", view_of(kl=kl_healthy(0.08))) is None
    quick = 0.15 * (1 - np.exp(-np.arange(N) / 15.0)) * np.exp(noise(2, 0.2))  # fast early rise that flattens
    assert detect("KL_BLOWUP", view_of(kl=quick)) is None
    sequence_kl = 25 * (1 - np.exp(-np.arange(N) / 60.0)) * np.exp(noise(3, 0.2))  # PPO sums KL per sequence
    assert detect("KL_BLOWUP", view_of("ppo", **{"objective/kl": sequence_kl})) is None


@pytest.mark.parametrize("peak", [0.6, 6.0])
def test_kl_blowup_found_at_its_onset(peak: float):
    grown = 0.02 * np.exp(np.log(peak / 0.02) * np.clip(after() / 80, 0, 1))
    finding = detect("KL_BLOWUP", view_of(kl=np.maximum(kl_healthy(0.02), grown * np.exp(noise(5, 0.1)))))
    assert finding and abs(finding.first_step - ONSET) <= 20
    assert finding.severity == ("critical" if peak >= 1 else "warn")


def test_kl_confidence_grows_with_the_blowup():
    def run(peak: float):
        grown = 0.02 * np.exp(np.log(peak / 0.02) * np.clip(after() / 80, 0, 1))
        return detect("KL_BLOWUP", view_of(kl=np.maximum(kl_healthy(0.02), grown)))
    assert run(0.5).confidence < run(2.0).confidence < run(20.0).confidence


# -- reward -------------------------------------------------------------------------------


def reward_curve(seed: int = 0, lo: float = 0.2, hi: float = 0.8) -> np.ndarray:
    p = np.arange(N) / N
    return lo + (hi - lo) * (1 - np.exp(-5 * p)) + noise(seed, 0.06)


def test_a_rising_reward_is_healthy():
    rising = view_of(reward=reward_curve(), frac_reward_zero_std=np.clip(0.2 + noise(1, 0.08), 0, 1))
    for signature in ("REWARD_COLLAPSE", "REWARD_PLATEAU"):
        assert detect(signature, rising) is None


def test_reward_collapse_severity_and_confidence_grow_with_the_loss():
    base = reward_curve()
    partial = detect("REWARD_COLLAPSE", view_of(reward=base * decay_to(0.55)))
    total = detect("REWARD_COLLAPSE", view_of(reward=base * decay_to(0.05)))
    assert partial and total and total.confidence > partial.confidence
    assert (partial.severity, total.severity) == ("warn", "critical")
    assert abs(total.first_step - ONSET) <= 15


def test_reward_collapse_needs_more_than_noise():
    noisy = 0.5 + noise(4, 0.15)  # a flat, very noisy reward: dips are noise, not collapse
    assert detect("REWARD_COLLAPSE", view_of(reward=noisy)) is None


def plateau_view(dry: float) -> RunView:
    flat = np.where(np.arange(N) < ONSET, reward_curve(hi=0.9), 0.0)
    flat[ONSET:] = np.median(flat[ONSET - 20:ONSET]) + noise(7, 0.03)[ONSET:]
    zero = 0.2 + (dry - 0.2) * np.clip(after() / 40, 0, 1) + noise(8, 0.05)
    return view_of(reward=flat, frac_reward_zero_std=np.clip(zero, 0, 1))


def test_reward_plateau_needs_a_dry_signal_and_confidence_grows_with_it():
    assert detect("REWARD_PLATEAU", plateau_view(0.3)) is None  # flat, but groups still disagree
    some, most = detect("REWARD_PLATEAU", plateau_view(0.7)), detect("REWARD_PLATEAU", plateau_view(0.95))
    assert some and most and most.confidence > some.confidence
    assert abs(most.first_step - ONSET) <= 25


def hacking_view(fall: float, names: tuple[str, str] = ("accuracy", "format")) -> RunView:
    accuracy = 0.3 + 0.3 * (1 - np.exp(-5 * np.arange(N) / N)) + noise(9, 0.04)
    accuracy = accuracy * (1 - fall * np.clip(after() / 60, 0, 1))
    fmt = np.clip(0.7 + noise(10, 0.03) + 0.28 * np.clip(after() / 60, 0, 1), 0, 1)
    return view_of(**{f"rewards/{names[0]}/mean": accuracy, f"rewards/{names[1]}/mean": fmt,
                      "reward": accuracy + fmt})


def test_reward_hacking_is_a_modest_early_warning_growing_with_the_fall():
    small, large = detect("REWARD_HACKING", hacking_view(0.25)), detect("REWARD_HACKING", hacking_view(0.6))
    assert small and large and large.confidence > small.confidence
    assert large.severity == "warn" and large.confidence <= 0.6
    assert abs(large.first_step - ONSET) <= 20
    assert "format" in large.explanation and "accuracy" in large.explanation


@pytest.mark.parametrize("layout", ["map", "key_value_list"])
def test_reward_hacking_links_the_gamed_samples(layout: str):
    """Samples with the cheap reward and none of the task's are linked, whether Polars reads
    the Arrow map column as a Map (Polars ≥ 2) or as a list of key/value structs (1.x)."""
    view = hacking_view(0.6)
    rows = [(f"s{step}-{i}", step, {"accuracy": float(i % 2), "format": 1.0}) for step in range(0, N, 10)
            for i in range(4)]
    parts = [c for _, _, c in rows]
    if layout == "map":
        import pyarrow as pa
        column = pl.from_arrow(pa.array([list(c.items()) for c in parts], pa.map_(pa.string(), pa.float64())))
    else:
        column = pl.Series([[{"key": k, "value": v} for k, v in c.items()] for c in parts])
    view.samples = pl.DataFrame({"sample_id": [r[0] for r in rows], "step": [r[1] for r in rows],
                                 "reward": [1.0 + c["accuracy"] for c in parts]}).with_columns(
        column.alias("reward_components"))
    finding = detect("REWARD_HACKING", view)
    linked = set(finding.links_to_samples)
    assert linked and all(int(s.split("-")[1]) % 2 == 0 for s in linked)  # accuracy 0, format 1
    assert all(int(s[1:].split("-")[0]) >= finding.first_step for s in linked)


def test_a_hack_pinned_at_zero_is_dated_where_it_began_not_at_an_early_wobble():
    """Once gamed, the task's component sits at exactly 0 (and the cheap one at 1) for most of a short run
    logged every 5 steps: measured over the whole run, its noise shrank towards nothing and the walk back
    to the onset stopped at an ordinary wobble of the level it fell from (2 seeds of 12, 5-10 steps early).
    The noise is now the one over the stretch the walk back reads."""
    points, stride, onset = 30, 5, 50
    t = np.arange(points) * stride
    ramp = np.clip((t - onset) / 20, 0, 1)
    dated = []
    for seed in range(12):
        accuracy = np.where(t < onset + 20, np.clip(0.17 + noise(seed, 0.04, points), 0, 1) * (1 - ramp), 0.0)
        fmt = np.where(t < onset + 20, np.clip(0.1 + noise(seed + 100, 0.03, points) + 0.9 * ramp, 0, 1), 1.0)
        frame = pl.DataFrame({"step": t, canonical_metric("rewards/accuracy/mean"): accuracy,
                              canonical_metric("rewards/format/mean"): fmt, "reward_mean": accuracy + fmt})
        finding = detect("REWARD_HACKING", RunView(frame, manifest={"algorithm": "grpo", "trainer_config": {}}))
        dated.append(finding.first_step if finding else None)
    assert all(d is not None and onset <= d <= onset + 15 for d in dated), dated


def test_reward_hacking_ignores_components_rising_together_and_unnamed_pairs_get_less_confidence():
    assert detect("REWARD_HACKING", hacking_view(0.0)) is None
    unnamed = detect("REWARD_HACKING", hacking_view(0.6, names=("alpha", "beta")))
    assert unnamed and unnamed.confidence <= 0.6 * 0.75 + 1e-9


def test_a_task_component_chosen_by_its_name_alone_is_said_so():
    """Issue 17: which component measures the task is guessed from names only as a last resort,
    and a finding resting on that guess (no sample confirms it) says so; one without a name to
    go on does not claim it."""
    named = detect("REWARD_HACKING", hacking_view(0.6))
    unnamed = detect("REWARD_HACKING", hacking_view(0.6, names=("alpha", "beta")))
    assert "from its name alone" in named.explanation
    assert "from its name alone" not in unnamed.explanation


# -- length -------------------------------------------------------------------------------


def length_curve(seed: int = 0) -> np.ndarray:
    """Healthy reasoning-length growth: ×1.5 over the run."""
    return 180 * 1.5 ** (np.arange(N) / N) * np.exp(noise(seed, 0.05))


def test_slow_length_growth_is_healthy():
    view = view_of(**{"completions/mean_length": length_curve()})
    assert detect("LENGTH_EXPLOSION", view) is None and detect("LENGTH_COLLAPSE", view) is None


def test_length_explosion_and_collapse_grow_in_confidence_with_the_change():
    def explode(factor: float):
        return detect("LENGTH_EXPLOSION", view_of(**{"completions/mean_length": length_curve() * rise_to(factor)},
                                                  reward=fallen()))
    def collapse(floor: float):
        return detect("LENGTH_COLLAPSE", view_of(**{"completions/mean_length": length_curve() * decay_to(floor)},
                                                 reward=fallen()))
    assert explode(2.2).confidence < explode(5.0).confidence
    assert explode(5.0).severity == "critical" and abs(explode(5.0).first_step - ONSET) <= 10
    assert collapse(0.4).confidence < collapse(0.1).confidence
    assert collapse(0.1).severity == "critical" and abs(collapse(0.1).first_step - ONSET) <= 10


def test_length_explosion_is_critical_at_the_token_budget():
    length = np.minimum(length_curve() * rise_to(2.4), 512)
    finding = detect("LENGTH_EXPLOSION", view_of(trainer_config={"max_completion_length": 480},
                                                 **{"completions/mean_length": length}))
    assert finding.severity == "critical" and "480-token budget" in finding.explanation


def test_truncation_levels():
    base = np.clip(0.03 + noise(11, 0.02), 0, 1)
    assert detect("TRUNCATION_HIGH", view_of(**{"completions/clipped_ratio": base})) is None
    def share(target: float):
        return detect("TRUNCATION_HIGH", view_of(**{"completions/clipped_ratio": np.clip(
            base + (target - 0.03) * np.clip(after() / 30, 0, 1), 0, 1)}))
    some, every = share(0.4), share(1.0)
    assert (some.severity, every.severity) == ("warn", "critical")
    assert every.confidence > some.confidence
    # The share has a fixed meaning: the finding dates from where it reached the warn level (25 %),
    # 18 steps into this 30-step rise to 40 %, not from the first step of the rise.
    crossing = ONSET + int(np.ceil(30 * (0.25 - 0.03) / (0.4 - 0.03)))
    assert abs(some.first_step - crossing) <= 5


# -- optimisation -------------------------------------------------------------------------


def test_clip_ratio_on_policy_zero_and_stable_ppo_level_are_healthy():
    assert detect("CLIP_RATIO_HIGH", view_of(**{"clip_ratio/region_mean": np.zeros(N)})) is None
    ppo = np.clip(0.15 + noise(12, 0.02), 0, 1)
    assert detect("CLIP_RATIO_HIGH", view_of("ppo", **{"policy/clipfrac_avg": ppo})) is None


def test_clip_ratio_confidence_grows_with_the_share():
    base = 0.004 * np.exp(noise(13, 0.4))
    def share(level: float):
        clip = base + level * np.clip(after() / 30, 0, 1)
        return detect("CLIP_RATIO_HIGH", view_of(**{"clip_ratio/region_mean": clip}))
    low, high = share(0.08), share(0.6)
    assert low and high and high.confidence > low.confidence
    assert (low.severity, high.severity) == ("warn", "critical")
    assert abs(low.first_step - ONSET) <= 15


def grad_curve(seed: int = 0) -> np.ndarray:
    t = np.arange(N)
    return 0.4 * (1 + 2 * np.exp(-t / 20)) * np.exp(noise(seed, 0.3))


def test_isolated_grad_norm_spikes_are_healthy():
    grad = grad_curve()
    grad[[90, 260, 430, 610, 770]] *= 25  # one-step spikes, far apart
    assert detect("GRAD_NORM_SPIKE", view_of(grad_norm=grad)) is None


def test_repeated_grad_norm_spikes_found_at_the_first_and_confidence_grows_with_count():
    def burst(count: int):
        grad = grad_curve()
        grad[ONSET + 6 * np.arange(count)] *= 20
        return detect("GRAD_NORM_SPIKE", view_of(grad_norm=grad))
    few, many = burst(3), burst(12)
    assert few and many and many.confidence > few.confidence
    assert few.first_step == ONSET and many.first_step == ONSET


def test_grad_norm_level_shift_is_found_and_critical_when_large():
    shifted = detect("GRAD_NORM_SPIKE", view_of(grad_norm=grad_curve() * rise_to(4.0, 20), reward=fallen()))
    huge = detect("GRAD_NORM_SPIKE", view_of(grad_norm=grad_curve() * rise_to(20.0, 20), reward=fallen()))
    assert (shifted.severity, huge.severity) == ("warn", "critical") and huge.confidence > shifted.confidence
    assert abs(shifted.first_step - ONSET) <= 15


def value_loss_curve(seed: int = 0) -> np.ndarray:
    t = np.arange(N)
    return (0.15 + 1.5 * np.exp(-t / 40)) * np.exp(noise(seed, 0.25))


def test_value_loss_decaying_or_absent_is_healthy():
    assert detect("VALUE_LOSS_DIVERGENCE", view_of("ppo", **{"loss/value_avg": value_loss_curve()})) is None
    assert detect("VALUE_LOSS_DIVERGENCE", view_of(loss=noise(0, 0.01))) is None


def test_value_loss_divergence_confidence_grows_with_the_growth():
    def grow(factor: float):
        value = value_loss_curve() * np.exp(np.log(factor) * np.clip(after() / 80, 0, 1))
        return detect("VALUE_LOSS_DIVERGENCE", view_of("ppo", **{"loss/value_avg": value}, reward=fallen()))
    some, much = grow(8.0), grow(200.0)
    assert some and much and much.confidence > some.confidence
    assert (some.severity, much.severity) == ("warn", "critical")
    assert abs(much.first_step - ONSET) <= 20


# -- the catalog as a whole ----------------------------------------------------------------


def test_grpo_loss_near_zero_alone_raises_nothing():
    view = view_of(loss=noise(0, 0.005), grad_norm=grad_curve(), reward=reward_curve(),
                   entropy=entropy_curve())
    assert [f for f in diagnose_view(view) if f.severity != "info"] == []


def test_config_overrides_thresholds_and_disables():
    collapsing = view_of(entropy=entropy_curve() * decay_to(0.3))
    assert detect("ENTROPY_COLLAPSE", collapsing) is not None
    assert detect("ENTROPY_COLLAPSE", collapsing, drop_ratio=0.2, exit_ratio=0.25) is None
    ids = [f.signature_id for f in diagnose_view(collapsing, {"entropy_collapse": {"enabled": False}})]
    assert "ENTROPY_COLLAPSE" not in ids
    with pytest.raises(ConfigError, match="drop_ratio"):
        resolve_config({"entropy_collapse": {"drop_ration": 0.2}})


@pytest.mark.parametrize("signature", OURS)
def test_docstring_documents_every_section_and_key(signature: str):
    detector = registry()[signature]
    summary, sections, keys = parse_docstring(detector.fn.__doc__ or "")
    assert summary.endswith(".") and len(summary) < 140
    assert set(sections) == {"Meaning", "Metrics", "Rule", "Actions", "Source"}
    assert set(keys) == set(detector.defaults), set(keys) ^ set(detector.defaults)
    assert all(keys.values())
    assert "`" in sections["Actions"]  # names trainer knobs
    assert inspect.getmodule(detector.fn).__name__.startswith("rlprobe.doctor.detectors.")


@pytest.mark.parametrize("shape", ["constant", "zeros", "nan_gaps", "negative", "short", "inf"])
def test_odd_curves_never_break_a_detector(shape: str, monkeypatch):
    monkeypatch.setenv("RLPROBE_DEBUG", "1")  # a detector error raises instead of being skipped
    n = 12 if shape == "short" else N
    base = {"constant": np.full(n, 0.5), "zeros": np.zeros(n), "negative": -np.abs(noise(1, 1.0, n)),
            "short": np.linspace(0.1, 5, n), "inf": np.where(np.arange(n) % 50 == 0, np.inf, 0.3)}
    x = base.get(shape, np.where(np.arange(n) % 7 == 0, np.nan, entropy_curve()[:n]))
    names = ("entropy", "kl", "reward", "grad_norm", "loss/value_avg", "completions/mean_length",
             "completions/clipped_ratio", "clip_ratio/region_mean", "frac_reward_zero_std",
             "rewards/accuracy/mean", "rewards/format/mean")
    view = view_of(**{name: x for name in names})
    for signature in OURS:
        detect(signature, view)


# -- the reward's course decides what a fall of entropy or length means (real runs: verl's PPO on
# GSM8K, an unlearning run whose goal is a short refusal) --------------------------------------


def climbing_reward(seed: int = 0, stall: int | None = None) -> np.ndarray:
    """A reward rising steadily from the onset to the end (or flat from ``stall`` on)."""
    t = np.clip(np.arange(N) - ONSET, 0, (stall or N) - ONSET).astype(float)
    return 0.2 + 0.5 * t / (N - ONSET) + noise(seed, 0.03)


def test_entropy_collapse_while_the_reward_keeps_climbing_is_info_and_critical_without_it():
    entropy = entropy_curve() * decay_to(0.05)
    learning = detect("ENTROPY_COLLAPSE", view_of(entropy=entropy, reward=climbing_reward()))
    stalled = detect("ENTROPY_COLLAPSE", view_of(entropy=entropy, reward=climbing_reward(stall=ONSET + 120)))
    flat = detect("ENTROPY_COLLAPSE", view_of(entropy=entropy, reward=0.4 + noise(1, 0.03)))
    assert (learning.severity, stalled.severity, flat.severity) == ("info", "warn", "critical")
    assert "still climbing" in learning.explanation and "exploration ceiling" in stalled.explanation
    assert learning.suggested_actions[0].startswith("Nothing to do")
    assert not stalled.suggested_actions[0].startswith("Nothing to do")
    assert [e.metric for e in learning.evidence] == ["entropy_mean", "reward_mean"]
    assert learning.first_step == stalled.first_step == flat.first_step


def test_length_collapse_that_the_reward_pays_for_is_a_warning_unless_the_answers_are_empty():
    pays = detect("LENGTH_COLLAPSE", view_of(completion_length=length_curve() * decay_to(0.05),
                                             reward=climbing_reward()))
    empty = detect("LENGTH_COLLAPSE", view_of(completion_length=length_curve() / 180 * 8 * decay_to(0.1),
                                              reward=climbing_reward()))
    unpaid = detect("LENGTH_COLLAPSE", view_of(completion_length=length_curve() * decay_to(0.05),
                                               reward=0.4 + noise(1, 0.03)))
    assert (pays.severity, empty.severity, unpaid.severity) == ("warn", "critical", "critical")
    assert "what the reward pays for" in pays.explanation and "empty" in empty.explanation


def grad_burst(reward: np.ndarray, every: int | None = None) -> object:
    grad = grad_curve()
    grad[ONSET + 8 * np.arange(3)] *= 20  # a burst of three
    if every:
        grad[np.arange(ONSET + 30, N, every)] *= 20  # ... that goes on
    return detect("GRAD_NORM_SPIKE", view_of(grad_norm=grad, reward=reward))


def test_a_burst_of_grad_spikes_that_set_the_run_back_in_nothing_is_info():
    harmless = grad_burst(climbing_reward())
    assert harmless.severity == "info" and harmless.first_step == ONSET and "reward held" in harmless.explanation
    assert harmless.suggested_actions[0].startswith("Nothing to do")
    falling = 0.7 - 0.4 * np.clip(after() / 100, 0, 1) + noise(2, 0.03)
    assert grad_burst(falling).severity == "warn"  # the reward fell after it
    assert grad_burst(climbing_reward(), every=6).severity == "warn"  # the spikes went on
    grad = grad_curve()
    grad[N - 40 + 8 * np.arange(3)] *= 20  # too recent to know
    assert detect("GRAD_NORM_SPIKE", view_of(grad_norm=grad, reward=climbing_reward())).severity == "warn"


def test_entropy_rising_from_near_certainty_is_not_an_explosion():
    """A policy fine-tuned to entropy 0.03 that loosens to 0.08 (a real FinQA tool-call run) has
    tripled its entropy, far from noise; the same rise at 0.3 → 0.8 nats is an explosion."""
    low = 0.03 * entropy_curve() / 0.9 * rise_to(2.7)
    assert detect("ENTROPY_EXPLOSION", view_of(entropy=low)) is None
    assert detect("ENTROPY_EXPLOSION", view_of(entropy=10 * low)) is not None


def test_truncation_with_noise_level_entropy_says_the_completions_are_noise():
    """A real unlearning run after RMU: every completion cut at 128 tokens, entropy 3.5 nats a token."""
    cut = np.ones(N)
    noisy = detect("TRUNCATION_HIGH", view_of(truncated_frac=cut, entropy=3.5 + noise(0, 0.05)))
    fluent = detect("TRUNCATION_HIGH", view_of(truncated_frac=cut, entropy=0.4 + noise(0, 0.05)))
    assert noisy.severity == fluent.severity == "critical"
    assert "noise" in noisy.explanation and "noise" not in fluent.explanation


def test_length_growth_that_buys_reward_is_a_warning_that_says_so():
    """R1-style training: reasoning lengthens as accuracy climbs. ×5 within 60 steps is worth a
    look (compute, the budget), not a critical 'rambling' verdict while the reward climbs with it."""
    grown = length_curve() * rise_to(5.0)
    paying = detect("LENGTH_EXPLOSION", view_of(completion_length=grown, reward=climbing_reward()))
    alone = detect("LENGTH_EXPLOSION", view_of(completion_length=grown, reward=0.4 + noise(1, 0.03)))
    assert (paying.severity, alone.severity) == ("warn", "critical")
    assert "buying reward" in paying.explanation and "buying reward" not in alone.explanation
    assert [e.metric for e in paying.evidence] == ["length_mean", "reward_mean"]


# -- episodes that ended --------------------------------------------------------------------------


def test_a_collapse_that_recovered_is_rated_by_the_state_at_the_end():
    """Issue 17 class 4: the reward (and the length) fell for 60 steps and came back to their level for
    the rest of the run. Severity says the state at the end: warn at most, naming the recovery step;
    the same fall that stays down is critical."""
    dip = (np.arange(N) >= ONSET) & (np.arange(N) < ONSET + 60)
    level = 0.6 + noise(31, 0.02)
    recovered = detect("REWARD_COLLAPSE", view_of(reward=np.where(dip, 0.05, level)))
    ongoing = detect("REWARD_COLLAPSE", view_of(reward=np.where(np.arange(N) >= ONSET, 0.05, level)))
    assert ongoing.severity == "critical" and "came back" not in ongoing.explanation
    assert recovered.severity == "warn" and abs(recovered.first_step - ONSET) <= 10
    back = int(recovered.explanation.split("from step ")[-1].split()[0])
    assert ONSET + 60 <= back <= ONSET + 90, recovered.explanation
    lengths = 235 * (1 + noise(32, 0.03))
    short = detect("LENGTH_COLLAPSE", view_of(**{"completions/mean_length": np.where(dip, 3.0, lengths)}))
    assert short.severity == "warn" and "came back to its level" in short.explanation
