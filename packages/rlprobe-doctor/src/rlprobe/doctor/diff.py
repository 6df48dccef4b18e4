"""Comparing two runs: what changed in the config, where the metrics part ways, and which
prompts fare differently (``rlprobe diff``).

Runs are aligned on step. Steps or metrics only one run has are reported, never compared.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import polars as pl
from pydantic import BaseModel, Field, computed_field

from .errors import UnusableInput
from .forensics import RunLike, as_view
from .toolkit import MAD_SCALE, rolling_mad, shift, sustained_onset
from .view import RunView

__all__ = ["diff_runs", "RunDiff", "RunRef", "ConfigDelta", "Divergence", "PromptGap", "flatten_config"]

#: Differences below this fraction of the values compared are float noise, never divergence.
RELATIVE_TOLERANCE = 1e-9
#: Step-to-step differences a metric's noise is estimated from, and the fewest it takes.
NOISE_WINDOW, NOISE_MIN_PERIODS = 50, 20
# Column-name suffixes while the two runs are joined (a NUL never appears in a metric name).
NOISE_SUFFIX, B_SUFFIX = "\x00noise", "\x00b"


class RunRef(BaseModel):
    """Which run a side of the diff is."""

    path: str | None
    run_id: str | None = None
    algorithm: str | None = None
    model_name: str | None = None
    steps: tuple[int, int] | None = None
    """First and last recorded step."""


class ConfigDelta(BaseModel):
    """The flattened ``trainer_config`` (nested keys joined with ``.``) of B against A."""

    added: dict[str, Any] = Field(default_factory=dict)
    """Keys only B sets, with B's value."""
    removed: dict[str, Any] = Field(default_factory=dict)
    """Keys only A sets, with A's value."""
    changed: dict[str, tuple[Any, Any]] = Field(default_factory=dict)
    """Keys both set to different values: ``(A's, B's)``."""

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


class Divergence(BaseModel):
    """Where one metric stops agreeing between the runs."""

    metric: str
    step: int
    """First step of the first stretch of ``sustain`` compared steps that all differ by more
    than ``z_thresh`` times the runs' step-to-step noise."""
    a: float
    b: float
    delta: float
    """``b - a`` at ``step``."""
    noise: float
    """Combined step-to-step noise of the two runs just before ``step`` (robust standard deviation)."""
    z: float | None
    """``|delta| / noise`` at ``step``; None when the metric is noise-free (e.g. a schedule)."""


class PromptGap(BaseModel):
    """A prompt both runs sampled, by how differently it was rewarded."""

    prompt_id: str
    prompt: str | None
    n_a: int
    n_b: int
    """Captured samples of the prompt in each run."""
    reward_a: float
    reward_b: float
    gap: float
    """``reward_b - reward_a`` (mean reward)."""


class RunDiff(BaseModel):
    """Run B compared with run A. Its JSON is ``rlprobe diff --json``."""

    run_a: RunRef
    run_b: RunRef
    z_thresh: float
    sustain: int
    config: ConfigDelta
    common_steps: tuple[int, int] | None
    """First and last step both runs recorded."""
    n_common_steps: int
    steps_only_in_a: list[tuple[int, int]]
    """Stretches of steps (first, last) only A recorded."""
    steps_only_in_b: list[tuple[int, int]]
    metrics_only_in_a: list[str]
    metrics_only_in_b: list[str]
    divergences: list[Divergence]
    """One per diverging metric, earliest first."""
    prompt_gaps: list[PromptGap]
    """Prompts with a nonzero mean-reward gap, largest first."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def differs(self) -> bool:
        """False when the runs are the same as far as this diff can tell."""
        return bool(not self.config.empty or self.steps_only_in_a or self.steps_only_in_b
                    or self.metrics_only_in_a or self.metrics_only_in_b or self.divergences
                    or self.prompt_gaps)


def flatten_config(config: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts become ``parent.child`` keys; other values (lists included) stay whole."""
    flat: dict[str, Any] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            flat.update(flatten_config(value, name + "."))
        else:
            flat[name] = value
    return flat


def config_delta(a: Mapping[str, Any], b: Mapping[str, Any]) -> ConfigDelta:
    fa, fb = flatten_config(a), flatten_config(b)
    return ConfigDelta(
        added={k: fb[k] for k in sorted(fb.keys() - fa.keys())},
        removed={k: fa[k] for k in sorted(fa.keys() - fb.keys())},
        changed={k: (fa[k], fb[k]) for k in sorted(fa.keys() & fb.keys()) if not _same(fa[k], fb[k])},
    )


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
        return True
    # True == 1 in Python, but a flag turned into a count is a change worth showing.
    return isinstance(x, bool) == isinstance(y, bool) and bool(x == y)


def step_noise(values: np.ndarray) -> np.ndarray:
    """Each value's step-to-step noise as a robust standard deviation: the MAD of the
    ``NOISE_WINDOW`` first differences before it, which a trend barely moves and a few
    spikes do not move at all. Trailing, so a run that starts to diverge is measured
    against how noisy it was before; values with too little past use the run's first
    ``NOISE_WINDOW`` differences. NaN where the value is missing; 0 with under 3 values."""
    out = np.full(len(values), np.nan)
    logged = np.isfinite(values)
    x = values[logged]
    if x.size < 3:
        out[logged] = 0.0
        return out
    d = np.diff(x)
    trailing = shift(rolling_mad(d, NOISE_WINDOW, NOISE_MIN_PERIODS), 1)
    head = d[:NOISE_WINDOW]
    early = MAD_SCALE * float(np.median(np.abs(head - np.median(head))))
    noise = np.concatenate([[early], np.where(np.isfinite(trailing), trailing, early)])
    out[logged] = noise / math.sqrt(2.0)
    return out


def _stretches(steps: pl.Series) -> list[tuple[int, int]]:
    """Sorted step numbers as (first, last) stretches of consecutive steps."""
    if steps.is_empty():
        return []
    frame = pl.DataFrame({"step": steps.sort()}).with_columns(
        run=(pl.col("step").diff().fill_null(1) != 1).cum_sum())
    spans = frame.group_by("run", maintain_order=True).agg(pl.col("step").min().alias("lo"),
                                                           pl.col("step").max().alias("hi"))
    return [(int(lo), int(hi)) for lo, hi in spans.select("lo", "hi").iter_rows()]


def divergences(a: RunView, b: RunView, metrics: list[str], z_thresh: float, sustain: int) -> list[Divergence]:
    """For each metric, the first sustained stretch of common steps where the runs differ
    by more than ``z_thresh`` times their combined trailing step-to-step noise."""
    def values_and_noise(view: RunView) -> pl.DataFrame:
        columns: dict[str, Any] = {"step": view.step}
        for m in metrics:
            columns[m], columns[m + NOISE_SUFFIX] = view.series(m), step_noise(view.series(m))
        return pl.DataFrame(columns)

    joined = values_and_noise(a).join(values_and_noise(b), on="step", how="inner", suffix=B_SUFFIX).sort("step")
    steps = joined["step"].to_numpy()
    found = []
    for m in metrics:
        x, y = joined[m].to_numpy(), joined[m + B_SUFFIX].to_numpy()
        both = np.isfinite(x) & np.isfinite(y)
        x, y, at = x[both], y[both], steps[both]
        noise = np.hypot(joined[m + NOISE_SUFFIX].to_numpy(), joined[m + NOISE_SUFFIX + B_SUFFIX].to_numpy())[both]
        tolerance = np.maximum(z_thresh * noise, RELATIVE_TOLERANCE * np.maximum(np.abs(x), np.abs(y)))
        onset = sustained_onset(np.abs(y - x) > tolerance, sustain)
        if onset is None:
            continue
        delta, sigma = float(y[onset] - x[onset]), float(noise[onset])
        found.append(Divergence(metric=m, step=int(at[onset]), a=float(x[onset]), b=float(y[onset]),
                                delta=delta, noise=sigma, z=abs(delta) / sigma if sigma > 0 else None))
    return sorted(found, key=lambda d: (d.step, d.metric))


def prompt_gaps(a: RunView, b: RunView) -> list[PromptGap]:
    """Mean reward per prompt (``prompt_id``, or the prompt text when it has none) in each
    run, for prompts both runs captured, largest gap first; equal means are left out."""
    per_run = []
    for view in (a, b):
        frame = view.samples
        if frame.is_empty() or "reward" not in frame.columns:
            return []
        per_run.append(
            frame.filter(pl.col("reward").is_not_null() & pl.col("reward").is_not_nan())
            .with_columns(key=pl.coalesce("prompt_id", "prompt"))
            .filter(pl.col("key").is_not_null())
            .group_by("key").agg(n=pl.len(), reward=pl.col("reward").mean(), prompt=pl.col("prompt").first()))
    gaps = (per_run[0].join(per_run[1], on="key", suffix="_b")
            .with_columns(gap=pl.col("reward_b") - pl.col("reward"))
            .filter(pl.col("gap").abs() > RELATIVE_TOLERANCE * pl.max_horizontal(pl.col("reward").abs(),
                                                                                 pl.col("reward_b").abs(), 1.0))
            .sort([pl.col("gap").abs(), pl.col("key")], descending=[True, False]))
    return [PromptGap(prompt_id=r["key"], prompt=r["prompt"], n_a=r["n"], n_b=r["n_b"], reward_a=r["reward"],
                      reward_b=r["reward_b"], gap=r["gap"]) for r in gaps.iter_rows(named=True)]


def _ref(view: RunView, run: RunLike) -> RunRef:
    m = view.manifest
    path = str(view.run_dir) if view.run_dir is not None else (None if isinstance(run, RunView) else str(run))
    steps = (int(view.step[0]), int(view.step[-1])) if view.n_steps else None
    return RunRef(path=path, run_id=m.get("run_id"), algorithm=m.get("algorithm"), model_name=m.get("model_name"),
                  steps=steps)


def diff_runs(run_a: RunLike, run_b: RunLike, z_thresh: float = 4.0, sustain: int = 5) -> RunDiff:
    """Compare run B with run A (directories or loaded ``RunView``s).

    Reports the flattened ``trainer_config`` delta; for each metric both runs log, the
    first step where they differ by more than ``z_thresh`` times their combined
    step-to-step noise for ``sustain`` consecutive compared steps; and the per-prompt
    mean-reward gaps. A run diffed with itself (or with an identical recording) differs in
    nothing. Raises ``UnusableInput`` for a bad threshold or a missing recording.
    """
    if not isinstance(z_thresh, (int, float)) or not z_thresh > 0 or not math.isfinite(z_thresh):
        raise UnusableInput(f"z_thresh must be a positive number of noise deviations, got {z_thresh!r}")
    if not isinstance(sustain, int) or isinstance(sustain, bool) or sustain < 1:
        raise UnusableInput(f"sustain must be a positive number of steps, got {sustain!r}")
    a, b = as_view(run_a), as_view(run_b)
    names_a, names_b = a.metric_names(), b.metric_names()
    common = [m for m in names_a if m in set(names_b)]
    steps_a, steps_b = a.steps["step"], b.steps["step"]
    shared = steps_a.filter(steps_a.is_in(steps_b.implode()))
    return RunDiff(
        run_a=_ref(a, run_a), run_b=_ref(b, run_b), z_thresh=float(z_thresh), sustain=sustain,
        config=config_delta(a.manifest.get("trainer_config") or {}, b.manifest.get("trainer_config") or {}),
        common_steps=(cast(int, shared.min()), cast(int, shared.max())) if shared.len() else None,
        n_common_steps=shared.len(),
        steps_only_in_a=_stretches(steps_a.filter(~steps_a.is_in(steps_b.implode()))),
        steps_only_in_b=_stretches(steps_b.filter(~steps_b.is_in(steps_a.implode()))),
        metrics_only_in_a=sorted(set(names_a) - set(names_b)),
        metrics_only_in_b=sorted(set(names_b) - set(names_a)),
        divergences=divergences(a, b, common, z_thresh, sustain) if shared.len() else [],
        prompt_gaps=prompt_gaps(a, b),
    )
