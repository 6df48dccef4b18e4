"""The synthetic run: healthy dynamics, the pathology registry, and writing it out."""
from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UnusableInput
from . import text

HEALTHY = "healthy"
PathologyFn = Callable[["SynthPlan"], None]
_PATHOLOGIES: dict[str, PathologyFn] = {}
_ALGORITHMS: dict[str, str] = {}
#: Modules of this package that hold no pathologies.
_FRAMEWORK_MODULES = frozenset({"plan", "text", "frames"})


def pathology(name: str, *, algorithm: str = "grpo") -> Callable[[PathologyFn], PathologyFn]:
    """Register ``fn(plan)`` as the pathology ``name`` (lower-case signature id); it edits
    a healthy ``algorithm`` run ("grpo" or "ppo")."""
    def register(fn: PathologyFn) -> PathologyFn:
        if name in _PATHOLOGIES:
            raise ValueError(f"pathology {name} registered twice")
        _PATHOLOGIES[name] = fn
        _ALGORITHMS[name] = algorithm
        return fn
    return register


def pathologies() -> list[str]:
    """Every name ``generate`` accepts, ``healthy`` first."""
    from .. import synth

    for module in pkgutil.iter_modules(synth.__path__):
        if module.name not in _FRAMEWORK_MODULES:
            importlib.import_module(f"{synth.__name__}.{module.name}")
    return [HEALTHY] + sorted(_PATHOLOGIES)


@dataclass
class SynthPlan:
    """Everything a synthetic run will log. Pathologies edit it in place.

    ``metrics`` maps trainer log keys to per-step arrays (NaN = not logged that step).
    ``mode[step]`` names how that step's sampled completions look (see ``text``);
    ``overrides[step]`` are values logged verbatim that step (NaN/inf included);
    ``skip_steps`` are steps never logged; ``sample_edits`` are callables ``fn(step, samples) -> samples`` applied after
    generation, for pathologies that live in the samples themselves. ``hidden`` holds
    generator state the samples follow but the run never logs (e.g. the lengths behind a
    PPO run, the log-spread of lengths within a batch). ``finishers`` are callables
    ``fn(run_dir)`` applied to the recording after the Recorder has closed it, for what no
    Recorder call can express (when steps were logged, a run left "running").
    """

    n_steps: int
    seed: int
    onset: int
    algorithm: str = "grpo"
    group_size: int = 8
    prompts_per_step: int = 2
    sample_every: int = 1
    metrics: dict[str, np.ndarray] = field(default_factory=dict)
    mode: list[str] = field(default_factory=list)
    sample_edits: list[Callable[[int, list[dict[str, Any]]], list[dict[str, Any]]]] = field(default_factory=list)
    skip_steps: set[int] = field(default_factory=set)
    overrides: dict[int, dict[str, float]] = field(default_factory=dict)
    events: list[tuple[int, str, str, dict[str, Any]]] = field(default_factory=list)
    trainer_config: dict[str, Any] = field(default_factory=dict)
    hidden: dict[str, Any] = field(default_factory=dict)
    finishers: list[Callable[[Path], None]] = field(default_factory=list)
    rng: np.random.Generator = field(init=False)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    @property
    def t(self) -> np.ndarray:
        return np.arange(self.n_steps)

    def after(self) -> np.ndarray:
        """Steps since onset (0 before it): handy for ramps."""
        return np.asarray(np.clip(self.t - self.onset, 0, None))

    def span(self, fraction: float = 0.1, lo: int = 25, hi: int = 250) -> int:
        """A duration for a pathology to develop over: ``fraction`` of the run, within
        [lo, hi] steps and never past the run's end."""
        room = max(2, self.n_steps - self.onset - 1)
        return int(min(room, max(lo, min(hi, fraction * self.n_steps))))

    def ramp(self, duration: int) -> np.ndarray:
        """0 before onset, rising smoothly to 1 over ``duration`` steps, then 1."""
        x = np.clip(self.after() / max(1, duration), 0.0, 1.0)
        return x * x * (3.0 - 2.0 * x)

    def set_mode(self, mode: str, start: int | None = None, stop: int | None = None) -> None:
        """Sampled completions look like ``mode`` for steps ``[start, stop)`` (default: onset on)."""
        start = self.onset if start is None else start
        for step in range(max(0, start), min(self.n_steps, self.n_steps if stop is None else stop)):
            self.mode[step] = mode

    @property
    def max_completion_length(self) -> int:
        config = self.trainer_config
        return int(config.get("max_completion_length") or config.get("response_length") or 512)


# -- healthy dynamics ---------------------------------------------------------------------


def wobble(rng: np.random.Generator, n: int, sd: float, tau: float) -> np.ndarray:
    """Slow, zero-mean noise (white noise through an exponential filter of time scale
    ``tau`` steps) with standard deviation about ``sd``: the drift real curves show."""
    tau = max(1.0, tau)
    kernel = np.exp(-np.arange(int(5 * tau) + 1) / tau)
    kernel /= np.sqrt((kernel ** 2).sum())
    return sd * np.convolve(rng.normal(0.0, 1.0, n + kernel.size), kernel, mode="valid")[:n]


def learning_curve(rng: np.random.Generator, progress: np.ndarray) -> np.ndarray:
    """0 → 1 over the run in one of the shapes reward curves take: saturating, late
    take-off (sigmoid) or steady."""
    shape = rng.integers(3)
    if shape == 0:
        rate = rng.uniform(3.0, 8.0)
        return np.asarray((1 - np.exp(-rate * progress)) / (1 - np.exp(-rate)))
    if shape == 1:
        centre, width = rng.uniform(0.1, 0.4), rng.uniform(0.05, 0.15)
        lo, hi = 1 / (1 + np.exp(centre / width)), 1 / (1 + np.exp(-(1 - centre) / width))
        return np.asarray((1 / (1 + np.exp(-(progress - centre) / width)) - lo) / (hi - lo))
    return progress ** rng.uniform(0.5, 1.0)


def beta_moment(mean: np.ndarray, concentration: np.ndarray | float, power: int) -> np.ndarray:
    """E[q^power] for q ~ Beta(mean·c, (1-mean)·c): the chance a whole group agrees."""
    a = np.clip(mean, 1e-4, 1 - 1e-4) * concentration
    b = concentration - a
    out: np.ndarray = np.ones_like(a)
    for i in range(power):
        out *= (a + i) / (a + b + i)
    return out


def agreement(accuracy: np.ndarray, fmt: np.ndarray, concentration: np.ndarray | float,
              format_concentration: np.ndarray | float, group: int) -> np.ndarray:
    """Share of groups whose completions all get the same reward (no learning signal):
    each component's success rate varies by prompt (Beta-distributed around its mean with
    the given concentration; lower = more all-or-nothing prompts)."""
    both = (beta_moment(accuracy, concentration, group) + beta_moment(1 - accuracy, concentration, group)) \
        * (beta_moment(fmt, format_concentration, group) + beta_moment(1 - fmt, format_concentration, group))
    return np.asarray(np.clip(both, 0.0, 1.0))


def truncated_share(length: np.ndarray, cap: float, spread: float) -> np.ndarray:
    """Share of completions longer than ``cap`` when lengths are log-normal around
    ``length`` with log-spread ``spread``."""
    z = (np.log(cap) - np.log(np.maximum(length, 1.0))) / (spread * np.sqrt(2.0))
    return 0.5 * _erfc(z)


def _erfc(x: np.ndarray) -> np.ndarray:
    """Complementary error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7)."""
    a = np.abs(x)
    k = 1.0 / (1.0 + 0.3275911 * a)
    poly = k * (0.254829592 + k * (-0.284496736 + k * (1.421413741 + k * (-1.453152027 + k * 1.061405429))))
    tail = poly * np.exp(-a * a)
    return np.asarray(np.where(x >= 0, tail, 2.0 - tail))


def healthy_plan(n_steps: int, seed: int, onset: int | None = None, algorithm: str = "grpo") -> SynthPlan:
    """A noisy but healthy run. GRPO (default): reward rises in one of several shapes and
    saturates, the format component is learnt first, entropy drifts by -35 % … +20 %, KL
    (when beta > 0) rises slowly and stays bounded, loss hovers near 0, grad norm is
    noisy with rare isolated spikes, lengths drift by -20 % … +40 %, the first steps are a
    warm-up transient, and per-step means carry the sampling noise of a real batch.
    ``algorithm="ppo"`` gives a TRL PPO run (value head, sequence-level KL, RM scores)."""
    plan = SynthPlan(n_steps=n_steps, seed=seed, onset=onset if onset is not None else int(n_steps * 0.45))
    rng, n = plan.rng, n_steps
    t = plan.t.astype(float)
    progress = t / max(1, n - 1)
    warm = np.exp(-t / min(100.0, max(4.0, 0.02 * n)))
    lr = float(rng.choice([5e-7, 1e-6, 2e-6, 3e-6]))
    max_len = int(rng.choice([512, 1024, 2048]))
    plan.trainer_config = {
        "learning_rate": lr, "max_completion_length": max_len, "per_device_train_batch_size": 16,
        "gradient_accumulation_steps": int(rng.choice([1, 2, 4])), "max_grad_norm": 1.0, "seed": seed,
        "temperature": float(rng.choice([0.7, 1.0])), "lr_scheduler_type": str(rng.choice(["constant", "cosine"])),
        "warmup_ratio": float(rng.choice([0.0, 0.03, 0.1])),
    }
    if algorithm == "ppo":
        _healthy_ppo(plan, progress, warm, max_len)
        return plan
    if algorithm != "grpo":
        raise ValueError(f"synthetic runs are grpo or ppo, not {algorithm!r}")
    G = plan.group_size
    groups = int(rng.choice([8, 16, 32]))           # groups per optimizer step (the logged batch)
    concentration = rng.uniform(1.0, 4.0)            # how much prompts differ in difficulty
    format_concentration = rng.uniform(4.0, 10.0)    # ... and in how reliably they get formatted
    beta = float(rng.choice([0.0, 0.0, 0.04, 0.001]))
    num_iterations = int(rng.choice([1, 1, 2, 4]))
    w_fmt = float(rng.choice([1.0, 0.5, 0.2]))
    plan.trainer_config.update({
        "beta": beta, "num_generations": G, "num_iterations": num_iterations, "epsilon": 0.2,
        "loss_type": str(rng.choice(["dapo", "grpo", "dr_grpo"])), "scale_rewards": "group",
        "mask_truncated_completions": bool(rng.random() < 0.3), "reward_weights": [1.0, w_fmt],
        "reward_funcs": ["accuracy", "format"],
    })

    acc0, acc1 = rng.uniform(0.05, 0.35), rng.uniform(0.45, 0.85)
    acc_true = acc0 + (acc1 - acc0) * learning_curve(rng, progress) + wobble(rng, n, 0.015, 0.03 * n + 5)
    fmt0, fmt1 = rng.uniform(0.15, 0.55), rng.uniform(0.6, 0.92)
    fmt_true = fmt0 + (fmt1 - fmt0) * (1 - np.exp(-rng.uniform(6.0, 20.0) * progress))
    acc_true, fmt_true = np.clip(acc_true, 0.01, 0.99), np.clip(fmt_true, 0.01, 0.99)
    # A batch of `groups` prompts × G completions: the logged means carry its sampling noise.
    rho = 1.0 / (concentration + 1.0)
    acc_sd = np.sqrt(acc_true * (1 - acc_true) * (1 + (G - 1) * rho) / (groups * G))
    accuracy = np.clip(acc_true + rng.normal(0, 1, n) * acc_sd, 0, 1)
    fmt = np.clip(fmt_true + rng.normal(0, 1, n) * np.sqrt(fmt_true * (1 - fmt_true) / (groups * G)), 0, 1)
    plan.metrics["rewards/accuracy/mean"] = accuracy
    plan.metrics["rewards/accuracy/std"] = np.sqrt(accuracy * (1 - accuracy))
    plan.metrics["rewards/format/mean"] = fmt
    plan.metrics["rewards/format/std"] = np.sqrt(fmt * (1 - fmt))
    plan.metrics["reward"] = accuracy + w_fmt * fmt
    plan.metrics["reward_std"] = np.sqrt(accuracy * (1 - accuracy) + w_fmt ** 2 * fmt * (1 - fmt))
    agree = agreement(acc_true, fmt_true, concentration, format_concentration, G)
    plan.metrics["frac_reward_zero_std"] = rng.binomial(groups, agree) / groups

    ent0 = rng.uniform(0.3, 1.5)
    drift = rng.uniform(-0.35, 0.2)
    ent_curve = (1 - np.exp(-rng.uniform(2.0, 6.0) * progress)) / (1 - np.exp(-2.0))
    plan.metrics["entropy"] = ent0 * (1 + drift * np.clip(ent_curve, 0, 1)) * (1 + rng.uniform(0, 0.3) * warm) \
        * np.exp(wobble(rng, n, 0.02, 0.02 * n + 3) + rng.normal(0, rng.uniform(0.02, 0.06), n))
    if beta > 0:
        kl_end = rng.uniform(0.003, 0.08)
        rate = rng.uniform(1.0, 4.0)
        jitter = np.exp(rng.normal(0, rng.uniform(0.15, 0.35), n))
        kl = kl_end * (1 - np.exp(-rate * progress)) / (1 - np.exp(-rate)) * jitter
        plan.metrics["kl"] = _isolated_spikes(rng, kl, rate_per_step=1 / 500, lo=2.0, hi=5.0)
    plan.metrics["loss"] = rng.normal(0, 0.01, n) * (1 + 2 * warm) + (beta * plan.metrics["kl"] if beta > 0 else 0)
    grad = rng.uniform(0.05, 1.0) * (1 + rng.uniform(1.0, 3.0) * warm) * rng.uniform(0.6, 1.5) ** progress \
        * np.exp(rng.normal(0, rng.uniform(0.15, 0.35), n) + wobble(rng, n, 0.05, 0.02 * n + 3))
    plan.metrics["grad_norm"] = _isolated_spikes(rng, grad, rate_per_step=1 / 600, lo=3.0, hi=12.0, at_least=1)
    plan.metrics["learning_rate"] = lr * _schedule(plan, progress)

    spread = rng.uniform(0.3, 0.45)                  # log-spread of lengths within a batch
    plan.hidden.update({"length_spread": spread, "groups_per_step": groups, "prompt_concentration": concentration,
                        "format_concentration": format_concentration})
    len0 = rng.uniform(0.12, 0.3) * max_len
    growth = rng.uniform(0.8, 1.4)
    length = len0 * growth ** learning_curve(rng, progress) \
        * np.exp(rng.normal(0, rng.uniform(0.03, 0.07), n) + wobble(rng, n, 0.03, 0.02 * n + 3))
    _set_lengths(plan, length, spread, groups * G)
    plan.metrics["clip_ratio/region_mean"] = _clip_ratio(rng, n, num_iterations)
    plan.metrics["clip_ratio/low_mean"] = plan.metrics["clip_ratio/region_mean"] / 2
    plan.metrics["clip_ratio/high_mean"] = plan.metrics["clip_ratio/region_mean"] / 2
    plan.metrics["num_tokens"] = np.cumsum(length * groups * G + 80.0 * groups * G)
    plan.mode = ["healthy"] * n
    return plan


def _healthy_ppo(plan: SynthPlan, progress: np.ndarray, warm: np.ndarray, max_len: int) -> None:
    """TRL PPOTrainer's log keys: sequence-level KL and entropy, RM scores, a value head."""
    rng, n = plan.rng, plan.n_steps
    plan.algorithm = "ppo"
    plan.group_size, plan.prompts_per_step = 1, 16
    kl_coef = float(rng.choice([0.05, 0.02]))
    del plan.trainer_config["max_completion_length"]
    plan.trainer_config.update({"kl_coef": kl_coef, "cliprange": 0.2, "cliprange_value": 0.2, "vf_coef": 0.1,
                                "num_ppo_epochs": 4, "response_length": max_len,
                                "whiten_rewards": False})
    score = rng.uniform(-2.0, 0.0) + rng.uniform(1.0, 4.0) * learning_curve(rng, progress)
    score = score + rng.normal(0, 0.12, n) + wobble(rng, n, 0.05, 0.03 * n + 5)
    length = rng.uniform(0.1, 0.3) * max_len * rng.uniform(0.8, 1.3) ** progress * np.exp(rng.normal(0, 0.05, n))
    kl_token = rng.uniform(0.005, 0.05) * (1 - np.exp(-3 * progress)) / (1 - np.exp(-3))
    kl = kl_token * length * np.exp(rng.normal(0, 0.2, n))
    entropy = rng.uniform(0.4, 1.2) * (1 - rng.uniform(0.0, 0.3) * progress) * length \
        * np.exp(rng.normal(0, 0.04, n)) * (1 + 0.2 * warm)
    v0, v_end = rng.uniform(0.5, 3.0), rng.uniform(0.05, 0.4)
    value_loss = (v_end + (v0 - v_end) * np.exp(-plan.t / max(5.0, 0.05 * n))) * rng.uniform(1.0, 1.5) ** progress \
        * np.exp(rng.normal(0, rng.uniform(0.15, 0.3), n))
    m = plan.metrics
    m["objective/kl"] = kl
    m["objective/entropy"] = entropy
    m["objective/non_score_reward"] = -kl_coef * kl
    m["objective/scores"] = score
    m["objective/rlhf_reward"] = score - kl_coef * kl
    m["policy/approxkl_avg"] = np.abs(rng.normal(0.01, 0.004, n))
    m["policy/clipfrac_avg"] = np.clip(rng.uniform(0.03, 0.12) + rng.normal(0, 0.015, n), 0, 1)
    m["loss/policy_avg"] = rng.normal(-0.01, 0.01, n)
    m["loss/value_avg"] = value_loss
    m["val/clipfrac_avg"] = np.clip(rng.uniform(0.05, 0.2) + 0.2 * warm + rng.normal(0, 0.02, n), 0, 1)
    m["policy/entropy_avg"] = entropy / length
    m["val/ratio"] = 1 + rng.normal(0, 0.01, n)
    m["val/ratio_var"] = np.abs(rng.normal(0.002, 0.001, n))
    m["val/num_eos_tokens"] = np.round(16 * (1 - truncated_share(length, max_len, 0.35)))
    m["lr"] = float(plan.trainer_config["learning_rate"]) * _schedule(plan, progress)
    m["episode"] = (plan.t + 1.0) * 64
    plan.hidden.update({"length_spread": 0.35, "groups_per_step": 16, "length": length})
    plan.mode = ["healthy"] * n


def _set_lengths(plan: SynthPlan, length: np.ndarray, spread: float, batch: int, start: int = 0) -> None:
    """Log TRL's completion-length metrics consistent with mean ``length`` and the cap,
    from step ``start`` on."""
    rng, cap, n = plan.rng, plan.max_completion_length, plan.n_steps
    share = truncated_share(length, cap, spread)
    values = {
        "completions/mean_length": np.minimum(length, cap),
        "completions/min_length": np.maximum(1.0, np.minimum(cap, length * np.exp(-2.5 * spread))),
        "completions/max_length": np.minimum(cap, length * np.exp(2.5 * spread)),
        "completions/clipped_ratio": rng.binomial(batch, np.clip(share, 0, 1)) / batch,
        "completions/mean_terminated_length": np.minimum(length, cap) * (1 - 0.5 * share),
    }
    for key, series in values.items():
        plan.metrics.setdefault(key, np.full(n, np.nan))[start:] = series[start:]


def set_lengths(plan: SynthPlan, length: np.ndarray, start: int | None = None) -> None:
    """Replace the run's completion lengths (and with them the truncated share) by
    ``length`` from ``start`` (default: the onset) on."""
    batch = int(plan.hidden.get("groups_per_step", 16)) * plan.group_size
    _set_lengths(plan, length, float(plan.hidden.get("length_spread", 0.35)), batch,
                 plan.onset if start is None else start)


def hidden_series(plan: SynthPlan, key: str, default: float) -> np.ndarray:
    """Hidden parameter ``key`` (a scalar or one value per step) as a per-step array."""
    return np.broadcast_to(np.asarray(plan.hidden.get(key, default), dtype=float), (plan.n_steps,))


def refresh_rewards(plan: SynthPlan, start: int | None = None) -> None:
    """Recompute the total reward, its spread and ``frac_reward_zero_std`` from the
    component means (after a pathology edited them), from ``start`` (default: onset) on."""
    start = plan.onset if start is None else start
    m, G = plan.metrics, plan.group_size
    acc, fmt = m["rewards/accuracy/mean"], m["rewards/format/mean"]
    w_fmt = float(plan.trainer_config.get("reward_weights", [1.0, 1.0])[1])
    groups = int(plan.hidden.get("groups_per_step", 16))
    concentration, format_concentration = (hidden_series(plan, key, default) for key, default in
                                           (("prompt_concentration", 2.0), ("format_concentration", 6.0)))
    for name, series in (("rewards/accuracy/std", np.sqrt(acc * (1 - acc))),
                         ("rewards/format/std", np.sqrt(fmt * (1 - fmt))),
                         ("reward", acc + w_fmt * fmt),
                         ("reward_std", np.sqrt(acc * (1 - acc) + w_fmt ** 2 * fmt * (1 - fmt))),
                         ("frac_reward_zero_std",
                          plan.rng.binomial(groups, agreement(acc, fmt, concentration, format_concentration, G))
                          / groups)):
        m[name][start:] = series[start:]


def _isolated_spikes(rng: np.random.Generator, x: np.ndarray, rate_per_step: float, lo: float, hi: float,
                     at_least: int = 0, spacing: int = 100) -> np.ndarray:
    """``x`` with rare one-step spikes (×lo…×hi) at random steps, at least ``spacing`` / 2
    steps apart: healthy runs have isolated spikes (a cluster of them is a finding)."""
    out = x.copy()
    slots = max(1, x.size // spacing)
    count = min(slots, max(at_least, int(rng.poisson(rate_per_step * x.size))))
    at = rng.choice(slots, size=count, replace=False) * spacing + rng.integers(0, max(1, spacing // 2), size=count)
    at = at[at < x.size]
    out[at] *= rng.uniform(lo, hi, size=at.size)
    return out


def _clip_ratio(rng: np.random.Generator, n: int, num_iterations: int) -> np.ndarray:
    """GRPO's clipped share: exactly 0 on-policy (one iteration), a few per mille otherwise."""
    if num_iterations == 1:
        return np.zeros(n)
    level = rng.uniform(0.001, 0.01) * num_iterations / 2
    return np.clip(level * np.exp(rng.normal(0, 0.4, n)), 0, 1)


def _schedule(plan: SynthPlan, progress: np.ndarray) -> np.ndarray:
    warmup = max(1e-9, float(plan.trainer_config.get("warmup_ratio", 0.0)))
    rise = np.minimum(1.0, (progress + 1.0 / plan.n_steps) / warmup)
    if plan.trainer_config.get("lr_scheduler_type") == "cosine":
        return np.asarray(rise * 0.5 * (1 + np.cos(np.pi * progress)))
    return rise


# -- building and writing -----------------------------------------------------------------


def build_plan(name: str, n_steps: int = 500, seed: int = 0, onset: int | None = None,
               sample_every: int | None = None) -> SynthPlan:
    """The healthy plan with pathology ``name`` applied; samples are captured every
    ``sample_every`` steps (default: every step, or 2,000 steps' worth on longer runs).
    Raises ``UnusableInput`` for an unknown name (listing the valid ones) or too short a run."""
    valid = pathologies()
    if name not in valid:
        raise UnusableInput(f"unknown pathology {name!r}; valid: {', '.join(valid)}")
    if n_steps < 50:
        raise UnusableInput(f"--n-steps must be at least 50 for a meaningful run, got {n_steps}")
    plan = healthy_plan(n_steps, seed, onset, algorithm=_ALGORITHMS.get(name, "grpo"))
    if sample_every is not None:
        plan.sample_every = max(1, sample_every)
    elif n_steps > 10_000:
        plan.sample_every = n_steps // 2_000
    if name != HEALTHY:
        _PATHOLOGIES[name](plan)
    return plan


def step_log(plan: SynthPlan, metrics: bool = True) -> Iterator[tuple[
        int, list[tuple[str, str, dict[str, Any]]], dict[str, float] | None, list[dict[str, Any]] | None]]:
    """What the run logs, step by step: (step, events, metrics or None when the step is
    skipped or ``metrics`` is False, samples or None when none are captured that step)."""
    names = list(plan.metrics) if metrics else []
    columns = np.column_stack([plan.metrics[k] for k in names]) if names else np.empty((plan.n_steps, 0))
    events: dict[int, list[tuple[str, str, dict[str, Any]]]] = {}
    for step, kind, message, data in sorted(plan.events, key=lambda e: e[0]):
        events.setdefault(step, []).append((kind, message, data))
    sampled = text.sample_steps(plan)
    pending = next(sampled, None)
    for step in range(plan.n_steps):
        values = None
        if metrics and step not in plan.skip_steps:
            row = columns[step]
            values = {k: float(v) for k, v in zip(names, row, strict=False) if v == v}
            values.update(plan.overrides.get(step, {}))
        samples = None
        if pending is not None and pending[0] == step:
            samples = pending[1]
            for edit in plan.sample_edits:
                samples = edit(step, samples)
            pending = next(sampled, None)
        yield step, events.get(step, []), values, samples


def generate(run_dir: str | os.PathLike[str], pathology: str = HEALTHY, n_steps: int = 500, seed: int = 0,
             onset: int | None = None, sample_every: int | None = None) -> SynthPlan:
    """Write a synthetic run through the real Recorder; returns the plan (its ``onset`` is
    where the pathology begins). ``sample_every`` as in ``build_plan``."""
    from rlprobe import Recorder

    plan = build_plan(pathology, n_steps, seed, onset, sample_every)
    with Recorder(run_dir, algorithm=plan.algorithm, model_name=f"synth/{pathology}",
                  run_id=f"synth-{pathology}-s{seed}", trainer_config=plan.trainer_config,
                  capture_env=False, install_handlers=False, queue_size=1 << 20) as rec:
        for step, events, values, samples in step_log(plan):
            for kind, message, data in events:
                rec.log_event(kind, step=step, message=message, **data)
            if values is not None:
                rec.log_step(step, **values)
            if samples is not None:
                rec.log_samples(step, samples, select=False)
    for finish in plan.finishers:
        finish(Path(run_dir))
    return plan
