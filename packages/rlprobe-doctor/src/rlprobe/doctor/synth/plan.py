"""The synthetic run: healthy dynamics, the pathology registry, and writing it out."""
from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..errors import UnusableInput
from . import text

HEALTHY = "healthy"
PathologyFn = Callable[["SynthPlan"], None]
_PATHOLOGIES: dict[str, PathologyFn] = {}


def pathology(name: str) -> Callable[[PathologyFn], PathologyFn]:
    """Register ``fn(plan)`` as the pathology ``name`` (lower-case signature id)."""
    def register(fn: PathologyFn) -> PathologyFn:
        if name in _PATHOLOGIES:
            raise ValueError(f"pathology {name} registered twice")
        _PATHOLOGIES[name] = fn
        return fn
    return register


def pathologies() -> list[str]:
    """Every name ``generate`` accepts, ``healthy`` first."""
    from .. import synth

    for module in pkgutil.iter_modules(synth.__path__):
        if module.name not in ("plan", "text"):
            importlib.import_module(f"{synth.__name__}.{module.name}")
    return [HEALTHY] + sorted(_PATHOLOGIES)


@dataclass
class SynthPlan:
    """Everything a synthetic run will log. Pathologies edit it in place.

    ``metrics`` maps TRL log keys to per-step arrays (NaN = not logged that step).
    ``mode[step]`` names how that step's sampled completions look (see ``text``);
    ``overrides[step]`` are values logged verbatim that step (NaN/inf included);
    ``skip_steps`` are steps never logged; ``sample_edits`` are callables ``fn(step, samples) -> samples`` applied after
    generation, for pathologies that live in the samples themselves. ``finishers`` are
    callables ``fn(run_dir)`` applied to the recording after the Recorder has closed it, for
    what no Recorder call can express (when steps were logged, a run left "running").
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
    finishers: list[Callable[[Path], None]] = field(default_factory=list)
    rng: np.random.Generator = field(init=False)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    @property
    def t(self) -> np.ndarray:
        return np.arange(self.n_steps)

    def after(self) -> np.ndarray:
        """Steps since onset (0 before it): handy for ramps."""
        return np.clip(self.t - self.onset, 0, None)


def healthy_plan(n_steps: int, seed: int, onset: int | None = None) -> SynthPlan:
    """A noisy but healthy GRPO run: reward rises and saturates, entropy declines by a
    fifth to a third, KL drifts slowly (when beta > 0), loss hovers near 0, grad norm is
    noisy with a few isolated spikes, and the first steps are a warm-up transient."""
    plan = SynthPlan(n_steps=n_steps, seed=seed, onset=onset if onset is not None else int(n_steps * 0.45))
    rng, t, n = plan.rng, plan.t.astype(float), float(n_steps)
    progress = t / n
    warm = np.exp(-t / max(5.0, n * 0.02))  # warm-up transient, fades in ~2% of the run
    beta = float(rng.choice([0.0, 0.04]))
    plan.trainer_config = {"learning_rate": 1e-6, "beta": beta, "num_generations": plan.group_size,
                           "max_completion_length": 512, "per_device_train_batch_size": 16,
                           "seed": seed, "max_grad_norm": 1.0}

    acc0, acc1 = rng.uniform(0.1, 0.3), rng.uniform(0.5, 0.8)
    rate = rng.uniform(4.0, 8.0)
    accuracy = acc0 + (acc1 - acc0) * (1 - np.exp(-rate * progress))
    accuracy = np.clip(accuracy + rng.normal(0, 0.06, n_steps), 0, 1)
    fmt = np.clip(0.5 + 0.45 * (1 - np.exp(-12 * progress)) + rng.normal(0, 0.05, n_steps), 0, 1)
    plan.metrics["rewards/accuracy/mean"] = accuracy
    plan.metrics["rewards/format/mean"] = fmt
    plan.metrics["reward"] = accuracy + 0.2 * fmt
    plan.metrics["reward_std"] = np.clip(0.35 + rng.normal(0, 0.04, n_steps) - 0.1 * progress, 0.05, None)
    plan.metrics["frac_reward_zero_std"] = np.clip(0.15 + 0.2 * progress + rng.normal(0, 0.06, n_steps), 0, 1)
    ent0 = rng.uniform(0.6, 1.2)
    plan.metrics["entropy"] = ent0 * (1 - rng.uniform(0.15, 0.3) * (1 - np.exp(-3 * progress))) \
        * np.exp(rng.normal(0, 0.04, n_steps)) * (1 + 0.3 * warm)
    if beta > 0:
        kl_end = rng.uniform(0.01, 0.06)
        plan.metrics["kl"] = kl_end * progress ** 0.7 * np.exp(rng.normal(0, 0.25, n_steps))
    plan.metrics["loss"] = rng.normal(0, 0.02, n_steps) + (beta * plan.metrics["kl"] if beta > 0 else 0)
    grad = rng.uniform(0.2, 0.6) * np.exp(rng.normal(0, 0.3, n_steps)) * (1 + 2 * warm)
    for spike in rng.choice(n_steps, size=min(3, n_steps), replace=False):
        grad[spike] *= rng.uniform(4, 8)
    plan.metrics["grad_norm"] = grad
    warmup = max(1, int(0.05 * n_steps))
    plan.metrics["learning_rate"] = 1e-6 * np.minimum(1.0, (t + 1) / warmup)
    len0 = rng.uniform(120, 220)
    length = len0 * (1 + rng.uniform(-0.2, 0.3) * progress) * np.exp(rng.normal(0, 0.05, n_steps))
    plan.metrics["completions/mean_length"] = length
    plan.metrics["completions/min_length"] = length * rng.uniform(0.3, 0.5)
    plan.metrics["completions/max_length"] = np.minimum(512, length * rng.uniform(1.8, 2.4))
    plan.metrics["completions/clipped_ratio"] = np.clip(rng.normal(0.02, 0.015, n_steps), 0, 1)
    plan.metrics["clip_ratio/region_mean"] = np.clip(rng.normal(0.003, 0.002, n_steps), 0, 1)
    plan.metrics["num_tokens"] = np.cumsum(length * plan.group_size * plan.prompts_per_step)
    plan.mode = ["healthy"] * n_steps
    return plan


def build_plan(name: str, n_steps: int = 500, seed: int = 0, onset: int | None = None) -> SynthPlan:
    """The healthy plan with pathology ``name`` applied. Raises ``UnusableInput`` for an
    unknown name (listing the valid ones) or too short a run."""
    valid = pathologies()
    if name not in valid:
        raise UnusableInput(f"unknown pathology {name!r}; valid: {', '.join(valid)}")
    if n_steps < 50:
        raise UnusableInput(f"--n-steps must be at least 50 for a meaningful run, got {n_steps}")
    plan = healthy_plan(n_steps, seed, onset)
    if n_steps > 10_000:
        plan.sample_every = n_steps // 2_000
    if name != HEALTHY:
        _PATHOLOGIES[name](plan)
    return plan


def generate(run_dir: str | os.PathLike[str], pathology: str = HEALTHY, n_steps: int = 500, seed: int = 0,
             onset: int | None = None) -> SynthPlan:
    """Write a synthetic run through the real Recorder; returns the plan (its ``onset`` is
    where the pathology begins)."""
    from rlprobe import Recorder

    plan = build_plan(pathology, n_steps, seed, onset)
    names = list(plan.metrics)
    columns = [plan.metrics[k] for k in names]
    events = sorted(plan.events, key=lambda e: e[0])
    with Recorder(run_dir, algorithm=plan.algorithm, model_name=f"synth/{pathology}",
                  run_id=f"synth-{pathology}-s{seed}", trainer_config=plan.trainer_config,
                  capture_env=False, install_handlers=False, queue_size=1 << 20) as rec:
        for step in range(n_steps):
            while events and events[0][0] == step:
                _, kind, message, data = events.pop(0)
                rec.log_event(kind, step=step, message=message, **data)
            if step in plan.skip_steps:
                continue
            values = {k: float(c[step]) for k, c in zip(names, columns) if not np.isnan(c[step])}
            values.update(plan.overrides.get(step, {}))
            rec.log_step(step, **values)
            if step % plan.sample_every == 0:
                samples = text.samples_for_step(plan, step)
                for edit in plan.sample_edits:
                    samples = edit(step, samples)
                rec.log_samples(step, samples, select=False)
    for finish in plan.finishers:
        finish(Path(run_dir))
    return plan
