"""Pathologies of the training curves (KL, entropy, reward, length, optimisation), each
injected into a healthy plan from ``plan.onset`` on, and the completion modes that show
them in the sampled text.

Each develops over ``plan.span()`` steps (a tenth of the run, 25–250 steps) with the
noise of the healthy run it edits, and starts changing at the onset itself, so a
detector's ``first_step`` can be checked against ``plan.onset``.
"""
from __future__ import annotations

import numpy as np

from . import text
from .plan import SynthPlan, hidden_series, pathology, refresh_rewards, set_lengths

_GIBBERISH = ("ĠPrivacy", "}$$", "adjud", "<|im_start|>", "ฏ", "wooden", "Thus Thus", "###", "ılmaz", "0x7f",
              "\\\\", "_REF", "pérdida", "∑∑", "iterator", "ENDIF", "—", "Toggle", "9999", "ѣ", "sucht", "〉")
_RAMBLE = ("Wait, let me reconsider the problem from the beginning.", "Hmm, maybe I should double-check that.",
           "Actually, another way to think about it is to count up from {a}.", "Let me verify once more: {a} and {b}.",
           "But what if the question means something else?", "Let me re-read the question carefully.",
           "Alternatively, I could add {b} first and then {a}.", "So far I think the tens are {t}, but let me check.",
           "I am not fully sure, so let me go through it again.", "One more time, slowly: {a} plus {b}.")


@text.register_mode("gibberish")
def _gibberish(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """High-entropy sampling: a token soup with the odd fragment of the task."""
    u = rng.random(40).tolist()
    words = [text.pick(_GIBBERISH, v) if v > 0.1 else str(a + int(v * 100)) for v in u[:8 + int(u[0] * 32)]]
    return " ".join(words)


@text.register_mode("rambling")
def _rambling(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Ever longer second-guessing before (sometimes) reaching an answer."""
    u = rng.random(30).tolist()
    q = text.numbers(a, b, text.answer(rng, a, b, correct))
    parts = [text.pick(_RAMBLE, v).format(**q) for v in u[:10 + int(u[0] * 20)]]
    return "<think>" + " ".join(parts) + f"</think> The answer is {q['s']}."


@text.register_mode("unfinished")
def _unfinished(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Reasoning that runs out of budget: it never closes or answers."""
    u = rng.random(30).tolist()
    q = text.numbers(a, b, a + b)
    return "<think>" + " ".join(text.pick(_RAMBLE, v).format(**q) for v in u[:15 + int(u[0] * 15)])


@text.register_mode("terse")
def _terse(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Collapsed length: the bare number, no reasoning."""
    return str(text.answer(rng, a, b, correct))


@text.register_mode("collapsed")
def _collapsed(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Collapsed entropy: one fixed completion per prompt and outcome (no sampling diversity)."""
    q = text.numbers(a, b, a + b if correct else a + b + 10)
    return "<think>{a} plus {b}: the tens give {t}, the ones give {o}.</think> The answer is {s}.".format(**q)


@text.register_mode("hollow")
def _hollow(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Format gaming: perfectly tagged, the reasoning gone, the answer often wrong."""
    if correct:
        return text.MODES["healthy"](rng, a, b, correct)
    return f"<think>Done.</think> The answer is {text.answer(rng, a, b, False)}."


def _ease(plan: SynthPlan, duration: int) -> np.ndarray:
    """0 before onset, then 1 - (1 - x)²: changes fastest at the onset itself."""
    x = np.clip(plan.after() / max(1, duration), 0.0, 1.0)
    return 1.0 - (1.0 - x) ** 2


def _decay(plan: SynthPlan, floor: float, tau: float) -> np.ndarray:
    """1 before onset, then an exponential decay to ``floor`` with time scale ``tau``."""
    return np.where(plan.t >= plan.onset, floor + (1 - floor) * np.exp(-plan.after() / max(1.0, tau)), 1.0)


def _trend(x: np.ndarray, window: int) -> np.ndarray:
    """A moving average (edges padded): the curve without its step-to-step noise."""
    window = max(1, window)
    padded = np.pad(x, (window // 2, window - 1 - window // 2), mode="edge")
    return np.convolve(padded, np.ones(window) / window, mode="valid")


def _ensure_kl(plan: SynthPlan) -> np.ndarray:
    """The run's KL, creating a healthy one (and ``beta`` > 0) when it logs none."""
    if "kl" not in plan.metrics:
        rng, progress = plan.rng, plan.t / max(1, plan.n_steps - 1)
        plan.trainer_config["beta"] = 0.04
        plan.metrics["kl"] = rng.uniform(0.003, 0.03) * (1 - np.exp(-2 * progress)) / (1 - np.exp(-2)) \
            * np.exp(rng.normal(0, 0.25, plan.n_steps))
    return plan.metrics["kl"]


@pathology("kl_blowup")
def kl_blowup(plan: SynthPlan) -> None:
    """KL grows exponentially from the onset to 1.5–10 nats/token, then stays up;
    entropy and the loss follow, accuracy starts to slip."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    kl = _ensure_kl(plan)
    start = max(float(np.median(kl[max(0, plan.onset - 20):plan.onset + 1])), 0.01)
    peak = rng.uniform(1.5, 10.0)
    rate = np.log(peak / start) / span
    grown = start * np.exp(rate * np.minimum(plan.after(), span)) * np.exp(rng.normal(0, 0.15, plan.n_steps))
    kl[plan.onset:] = np.maximum(kl, grown)[plan.onset:]
    plan.metrics["loss"][plan.onset:] += float(plan.trainer_config["beta"]) * kl[plan.onset:]
    plan.metrics["entropy"] *= 1 + 0.4 * _ease(plan, span)
    plan.metrics["rewards/accuracy/mean"] *= 1 - 0.3 * _ease(plan, 2 * span)
    refresh_rewards(plan)
    plan.set_mode("gibberish", plan.onset + span)


@pathology("entropy_collapse")
def entropy_collapse(plan: SynthPlan) -> None:
    """Entropy decays from the onset to 3–12 % of its level; completions within a group
    become identical and accuracy stops improving."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    plan.metrics["entropy"] *= _decay(plan, rng.uniform(0.03, 0.12), span / 3)
    acc = plan.metrics["rewards/accuracy/mean"]
    level = float(np.median(acc[max(0, plan.onset - 20):plan.onset + 1]))
    acc[plan.onset:] = np.clip(level + (acc - _trend(acc, 25))[plan.onset:], 0, 1)
    refresh_rewards(plan)
    plan.set_mode("collapsed", plan.onset + span // 3)


@pathology("entropy_explosion")
def entropy_explosion(plan: SynthPlan) -> None:
    """Entropy climbs from the onset to 2.5–5× its level; completions turn to gibberish,
    rewards fall, KL (when logged) rises."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    ramp = _ease(plan, span)
    plan.metrics["entropy"] *= 1 + rng.uniform(1.5, 4.0) * ramp
    plan.metrics["rewards/accuracy/mean"] *= 1 - 0.7 * ramp
    plan.metrics["rewards/format/mean"] *= 1 - 0.5 * ramp
    if "kl" in plan.metrics:
        plan.metrics["kl"] *= 1 + 4 * ramp
    refresh_rewards(plan)
    plan.set_mode("gibberish", plan.onset + span // 4)


@pathology("reward_hacking")
def reward_hacking(plan: SynthPlan) -> None:
    """The cheap format reward climbs to ~1 from the onset while accuracy falls by a
    third to a half: the total reward holds up, the task is being gamed."""
    rng, span = plan.rng, plan.span(0.15, 30, 300)
    ramp = _ease(plan, span)
    fmt = plan.metrics["rewards/format/mean"]
    fmt[:] = np.clip(fmt + (rng.uniform(0.97, 1.0) - _trend(fmt, 25)) * ramp, 0, 1)
    plan.metrics["rewards/accuracy/mean"] *= 1 - rng.uniform(0.35, 0.6) * ramp
    refresh_rewards(plan)
    plan.set_mode("hollow", plan.onset + span // 4)


@pathology("reward_collapse")
def reward_collapse(plan: SynthPlan) -> None:
    """Accuracy and format collapse from the onset (to 5–30 % and ~40 % of their level);
    entropy rises and completions degenerate."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    plan.metrics["rewards/accuracy/mean"] *= _decay(plan, rng.uniform(0.05, 0.3), span / 3)
    plan.metrics["rewards/format/mean"] *= _decay(plan, rng.uniform(0.3, 0.5), span / 3)
    plan.metrics["entropy"] *= 1 + 0.6 * _ease(plan, span)
    refresh_rewards(plan)
    plan.set_mode("gibberish", plan.onset + span // 2)


@pathology("reward_plateau")
def reward_plateau(plan: SynthPlan) -> None:
    """From the onset the reward stops improving because the learning signal dries up:
    prompts become all-or-nothing (whole groups agree), so ``frac_reward_zero_std``
    climbs to 0.7–0.95 and the advantages vanish."""
    span = plan.span(0.1, 25, 200)
    ramp = _ease(plan, span)
    for name in ("rewards/accuracy/mean", "rewards/format/mean"):
        series = plan.metrics[name]
        level = float(np.median(series[max(0, plan.onset - 20):plan.onset + 1]))
        series[plan.onset:] = np.clip(level + (series - _trend(series, 25))[plan.onset:], 0, 1)
    for key, default in (("prompt_concentration", 2.0), ("format_concentration", 6.0)):
        # Geometric: groups start agreeing as soon as the prompts start polarising.
        plan.hidden[key] = hidden_series(plan, key, default) ** (1 - ramp) * 0.01 ** ramp
    refresh_rewards(plan)


@pathology("length_explosion")
def length_explosion(plan: SynthPlan) -> None:
    """Completions grow 3–6× from the onset until they hit the token budget: rambling
    text, rising truncation, slipping accuracy."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    ramp = _ease(plan, span)
    length = plan.metrics["completions/mean_length"] * rng.uniform(3.0, 6.0) ** ramp
    set_lengths(plan, length)
    plan.metrics["rewards/accuracy/mean"] *= 1 - 0.4 * ramp
    refresh_rewards(plan)
    plan.set_mode("rambling", plan.onset + span // 3)


@pathology("length_collapse")
def length_collapse(plan: SynthPlan) -> None:
    """Completions shrink from the onset to 8–25 % of their length: the bare answer, no
    reasoning."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    set_lengths(plan, plan.metrics["completions/mean_length"] * _decay(plan, rng.uniform(0.08, 0.25), span / 3))
    plan.metrics["rewards/accuracy/mean"] *= 1 - 0.2 * _ease(plan, span)
    refresh_rewards(plan)
    plan.set_mode("terse", plan.onset + span // 3)


@pathology("truncation_high")
def truncation_high(plan: SynthPlan) -> None:
    """From the onset a growing share (to 50–100 %) of completions loop until the token
    budget cuts them off; cut-off completions earn nothing."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    m, cap = plan.metrics, plan.max_completion_length
    share = m["completions/clipped_ratio"]
    target = rng.uniform(0.5, 1.0)
    batch = int(plan.hidden.get("groups_per_step", 16)) * plan.group_size
    expected = share + (target - share) * _ease(plan, span)
    new_share = rng.binomial(batch, np.clip(expected, 0, 1)) / batch
    length = m["completions/mean_length"]
    for name, series in (("completions/clipped_ratio", new_share),
                         ("completions/mean_length", (1 - new_share) * length + new_share * cap),
                         ("completions/max_length", np.where(new_share > 0, cap, m["completions/max_length"]))):
        m[name][plan.onset:] = series[plan.onset:]
    m["rewards/accuracy/mean"][plan.onset:] *= (1 - new_share)[plan.onset:]
    m["rewards/format/mean"][plan.onset:] *= (1 - new_share)[plan.onset:]
    refresh_rewards(plan)
    plan.set_mode("unfinished", plan.onset + span // 3)


@pathology("clip_ratio_high")
def clip_ratio_high(plan: SynthPlan) -> None:
    """A multi-iteration run (``num_iterations=4``) whose clipped share climbs from a few
    per mille to 20–45 % at the onset: each update moves the policy too far."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    plan.trainer_config["num_iterations"] = 4
    n = plan.n_steps
    base = rng.uniform(0.002, 0.02) * np.exp(rng.normal(0, 0.4, n))
    clip = np.clip(base + rng.uniform(0.2, 0.45) * _ease(plan, span) * np.exp(rng.normal(0, 0.15, n)), 0, 1)
    plan.metrics["clip_ratio/region_mean"] = clip
    plan.metrics["clip_ratio/low_mean"] = clip * 0.4
    plan.metrics["clip_ratio/high_mean"] = clip * 0.6
    plan.metrics["grad_norm"][plan.onset:] *= (1 + 0.5 * _ease(plan, span))[plan.onset:]
    if "kl" in plan.metrics:
        plan.metrics["kl"] *= 1 + 2 * _ease(plan, span)


@pathology("grad_norm_spike")
def grad_norm_spike(plan: SynthPlan) -> None:
    """From the onset the gradient norm spikes again and again (every 3–8 steps, ×5–40)
    on a level that doubles; the loss jumps with it."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    grad, loss = plan.metrics["grad_norm"], plan.metrics["loss"]
    lift = 1 + rng.uniform(0.5, 1.5) * _ease(plan, span)
    grad *= lift
    gaps = rng.geometric(1.0 / rng.uniform(3.0, 8.0), size=plan.n_steps)
    spikes = plan.onset + np.concatenate([[0], np.cumsum(gaps)])
    spikes = spikes[spikes < plan.n_steps]
    level = float(np.median(grad[max(0, plan.onset - 50):plan.onset + 1]))
    magnitude = rng.uniform(5.0, 40.0, spikes.size)
    grad[spikes] = np.maximum(grad[spikes], level * lift[spikes] * magnitude)
    loss[spikes] += rng.normal(0, 0.05, spikes.size) * magnitude


@pathology("value_loss_divergence", algorithm="ppo")
def value_loss_divergence(plan: SynthPlan) -> None:
    """A PPO run whose value loss grows exponentially from the onset (×20–300): the
    critic diverges, its clipped share saturates, the policy's scores start to slide."""
    rng, span = plan.rng, plan.span(0.1, 25, 200)
    m = plan.metrics
    value = m["loss/value_avg"]
    growth = np.log(rng.uniform(20.0, 300.0)) / span
    value[plan.onset:] = (value * np.exp(growth * np.minimum(plan.after(), span)))[plan.onset:]
    ramp = _ease(plan, span)
    clip = m["val/clipfrac_avg"]
    m["val/clipfrac_avg"] = np.clip(clip + (rng.uniform(0.6, 0.9) - clip) * ramp, 0, 1)
    m["val/ratio_var"] = m["val/ratio_var"] * (1 + 20 * ramp)
    m["objective/scores"] = m["objective/scores"] - rng.uniform(0.5, 1.5) * _ease(plan, 2 * span)
    m["objective/rlhf_reward"] = m["objective/scores"] + m["objective/non_score_reward"]
