"""Rollout-engine signatures: the policy that sampled the completions (vLLM) and the one
being trained disagree about their probabilities, so the run trains off-policy."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..catalog import detector
from ..facts.severity import decide
from ..findings import Evidence, Finding
from ..toolkit import confidence_from, find_excursion, in_points, logging_stride, smooth
from ..view import RunView

#: TRL GRPOTrainer's names (logged when `use_vllm` and `vllm_importance_sampling_correction`).
LOGP_DIFF_MEAN = "sampling/sampling_logp_difference/mean"
LOGP_DIFF_MAX = "sampling/sampling_logp_difference/max"
IS_RATIO_MIN = "sampling/importance_sampling_ratio/min"
IS_RATIO_MEAN = "sampling/importance_sampling_ratio/mean"
IS_RATIO_MAX = "sampling/importance_sampling_ratio/max"

#: What to do about a sampler that disagrees with the trainer, whatever showed it.
_ACTIONS = [
    "Check that vLLM receives the trainer's weights every step (sleep mode / server-mode sync can fail "
    "silently); a gap that grows step after step is the signature of stale sampler weights.",
    "Keep `top_p=1.0` and `top_k=0` (GRPOConfig) so sampler and trainer share one distribution, and run "
    "both in the same dtype.",
    "Keep `vllm_importance_sampling_correction=True`; choose `vllm_importance_sampling_mode` and "
    "`vllm_importance_sampling_clip_max` (formerly `vllm_importance_sampling_cap`) so the mismatch is masked "
    "or clipped rather than trained on.",
]


@detector("LOGPROB_MISMATCH", defaults={
    "warn_level": 0.05,
    "critical_level": 0.2,
    "rise_ratio": 5.0,
    "min_level": 0.01,
    "ratio_drift": 0.2,
    "ratio_floor": 1e-6,
    "floor_sustain": 3,
    "smooth_window": 9,
    "sustain": 10,
})
def logprob_mismatch(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The rollout engine's token log-probs disagree with the trainer's: the run trains off-policy.

    Meaning: With vLLM generating, the trainer recomputes each sampled token's log-prob; the
    two differ a little by numerics (about 0.01 nats per token in bf16). A difference that
    grows, or sits far above that, means the sampler runs a different policy — weights not
    synced to vLLM, a sampler that truncates the distribution (`top_p`/`top_k`), a precision
    or kernel mismatch — and importance-sampling correction then masks or clips most of the
    batch.

    Metrics: `sampling/sampling_logp_difference/mean` (mean |Δ log p| per token) with its
    `/max`, and `sampling/importance_sampling_ratio/min|mean|max` (TRL GRPO with vLLM and
    `vllm_importance_sampling_correction`); without the log-prob difference, the drift of
    the mean importance-sampling ratio from 1.

    Rule: The trailing median of the mean difference is at least `warn_level` (several times
    the numerical floor) for `sustain` consecutive steps, or at least `rise_ratio` × its early
    level (the first fifth of the run) and `min_level` (a mismatch that grew is a mismatch
    even where its level is modest); with only the ratio logged, |1 − mean ratio| stays at
    least `ratio_drift`. Separately, the smallest importance-sampling ratio of a batch falls
    to `ratio_floor` or below for `floor_sustain` consecutive logged steps: the sampler drew
    tokens the trained policy gives next to no probability (a ratio of 1e-39 is a log-prob
    gap of 90 nats). Critical when the median difference over the episode reaches
    `critical_level`, or when a grown difference and the ratio floor come together. The
    onset is walked back to where the difference left its early level (the earlier of the
    two, so the cause ranks before the collapse it brings).

    Actions: Check that vLLM receives the trainer's weights every step (sleep mode and
    server-mode sync bugs stop it silently), keep `top_p=1.0` and `top_k=0` so sampler and
    trainer share one distribution, match dtypes, and keep
    `vllm_importance_sampling_correction=True` with `vllm_importance_sampling_mode` and
    `vllm_importance_sampling_clip_max` (formerly `vllm_importance_sampling_cap`) set.

    Source: TRL GRPOTrainer (truncated / masked importance sampling for the vLLM mismatch);
    "Your Efficient RL Framework Secretly Brings You Off-Policy RL Training" (F. Yao et al.).

    Keys:
    warn_level: mean per-token |Δ log p| (nats) that warns once sustained
    critical_level: median over the episode that makes it critical
    rise_ratio: a mean difference this many times its early level also warns once sustained...
    min_level: ... when it is at least this many nats per token
    ratio_drift: |1 − mean importance-sampling ratio| that counts when no log-prob difference is logged
    ratio_floor: smallest importance-sampling ratio at or below which sampled tokens are off the policy's support
    floor_sustain: consecutive logged steps the smallest ratio must stay at or below ratio_floor
    smooth_window: steps in the trailing median
    sustain: consecutive steps the condition must hold
    """
    grown = False
    # Windows are stated in steps: a run logged every 5 steps holds 15 in 3 logged values (3 at least).
    stride = logging_stride(view.step)
    sustain, smoothing = (max(3, in_points(cfg[key], stride)) for key in ("sustain", "smooth_window"))
    if view.has(LOGP_DIFF_MEAN):
        diff = view.series(LOGP_DIFF_MEAN)
        exc = find_excursion(diff, level=cfg["warn_level"], sustain=sustain, smooth_window=smoothing)
        if exc is None:
            exc = find_excursion(diff, level=cfg["min_level"], min_ratio=cfg["rise_ratio"], sustain=sustain,
                                 smooth_window=smoothing)
            grown = exc is not None
        metric, unit = LOGP_DIFF_MEAN, " nats/token"
        strength = None if exc is None else max(exc.observed / cfg["warn_level"],
                                                exc.observed / max(exc.baseline, 1e-12) / cfg["rise_ratio"])
    elif view.has(IS_RATIO_MEAN):
        drift = np.abs(1.0 - view.series(IS_RATIO_MEAN))
        exc = find_excursion(drift, level=cfg["ratio_drift"], sustain=sustain, smooth_window=smoothing)
        metric, unit = "|1 − " + IS_RATIO_MEAN + "|", ""
        strength = None if exc is None else exc.observed / cfg["ratio_drift"]
    else:
        exc = strength = None
        metric, unit = IS_RATIO_MIN, ""
    floor = _ratio_floor(view, cfg)
    if exc is None or strength is None:
        return None if floor is None else _floor_only(view, floor, cfg)
    steps = view.step
    first, last = int(steps[exc.onset]), int(steps[exc.end])
    if floor is not None:
        first = min(first, floor["first"])
    critical = metric == LOGP_DIFF_MEAN and (exc.observed >= cfg["critical_level"] or (grown and floor is not None))
    confidence = confidence_from(math.log(strength) + 0.3 + (0.5 if floor is not None else 0.0), 1.0, floor=0.55)
    evidence = [Evidence(metric=metric, window=(first, last), baseline=exc.baseline, observed=exc.observed,
                         note=f"median over the episode; baseline = first fifth of the run; peak {exc.peak:.3g} "
                              f"({cfg['smooth_window']}-step trailing median)")]
    extra = (f" That is ×{exc.observed / exc.baseline:.0f} its early level: a mismatch that grew."
             if grown and exc.baseline > 0 else "")
    if floor is not None:
        extra += _floor_text(floor)
        evidence.append(_floor_evidence(floor))
    window = (steps >= first) & (steps <= last)
    if view.has(LOGP_DIFF_MAX):
        worst = float(np.nanmax(view.series(LOGP_DIFF_MAX)[window])) if window.any() else float("nan")
        if math.isfinite(worst):
            extra += f" The largest per-token difference reached {worst:.3g} nats."
            evidence.append(Evidence(metric=LOGP_DIFF_MAX, window=(first, last), observed=worst, note="largest"))
    if view.has(IS_RATIO_MEAN) and metric == LOGP_DIFF_MEAN:
        ratio = view.series(IS_RATIO_MEAN)
        before = float(np.nanmedian(ratio[: max(1, exc.onset)])) if np.isfinite(ratio[: max(1, exc.onset)]).any() \
            else float("nan")
        during = float(np.nanmedian(smooth(ratio, smoothing)[window])) if window.any() else float("nan")
        if math.isfinite(during):
            extra += f" The mean importance-sampling ratio went from {before:.3g} to {during:.3g}."
            evidence.append(Evidence(metric=IS_RATIO_MEAN, window=(first, last), baseline=before, observed=during,
                                     note="median; far below 1 means masked or clipped sequences"))
    judgement = decide(view, "LOGPROB_MISMATCH", first, strong=critical)
    return Finding(
        signature_id="LOGPROB_MISMATCH",
        severity=judgement.severity,
        confidence=confidence,
        first_step=first,
        explanation=(f"From step {first}, the rollout engine and the trainer disagreed on token log-probs by "
                     f"{exc.observed:.3g}{unit} (median over steps {int(steps[exc.hit])}–{last}), against "
                     f"{exc.baseline:.3g} early in the run: the run is training off-policy."
                     f"{extra}{_truncation_hint(view)}"
                     + judgement.why),
        evidence=evidence,
        suggested_actions=_ACTIONS,
        links_to_samples=view.top_samples(first, last, "logprob", k=5, descending=False),
    )


def _truncation_hint(view: RunView) -> str:
    config = view.manifest.get("trainer_config") or {}
    truncating = [f"{k}={config[k]}" for k in ("top_p", "top_k", "min_p")
                  if k in config and config[k] not in (None, 1.0, 1, 0, -1, 0.0)]
    return f" The sampler truncates the distribution ({', '.join(truncating)}), which biases the ratio." \
        if truncating else ""


def _ratio_floor(view: RunView, cfg: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where the smallest importance-sampling ratio of a batch stayed at or below
    ``ratio_floor`` for ``floor_sustain`` logged steps: its first step there, the lowest
    value and its step; None when it never did (or is not logged)."""
    if not view.has(IS_RATIO_MIN):
        return None
    ratio = view.series(IS_RATIO_MIN)
    logged = np.isfinite(ratio)
    at, values = view.step[logged], ratio[logged]
    low = values <= cfg["ratio_floor"]
    run = np.convolve(low.astype(int), np.ones(int(cfg["floor_sustain"]), int), mode="valid")
    hits = np.flatnonzero(run >= cfg["floor_sustain"])
    if not hits.size:
        return None
    start = int(hits[0])
    lowest = int(np.argmin(values))
    return {"first": int(at[start]), "last": int(at[-1]), "lowest": float(values[lowest]),
            "lowest_at": int(at[lowest]), "count": int(low.sum()), "logged": int(values.size),
            "before": float(np.median(values[:start])) if start else None}


def _floor_text(floor: Mapping[str, Any]) -> str:
    return (f" The smallest importance-sampling ratio fell to {floor['lowest']:.3g} (step {floor['lowest_at']}) and "
            f"sat at or below the floor from step {floor['first']}"
            + (f" (it was {floor['before']:.3g} before)" if floor["before"] is not None else "")
            + ": the sampler drew tokens the trained policy gives next to no probability.")


def _floor_evidence(floor: Mapping[str, Any]) -> Evidence:
    return Evidence(metric=IS_RATIO_MIN, window=(floor["first"], floor["last"]), baseline=floor["before"],
                    observed=floor["lowest"], note=f"lowest logged; at or below the floor at {floor['count']} of "
                                                   f"{floor['logged']} logged steps")


def _floor_only(view: RunView, floor: Mapping[str, Any], cfg: Mapping[str, Any]) -> Finding:
    """The ratio floor without a log-prob difference that rose: warn, with the floor's evidence."""
    first, last = floor["first"], floor["last"]
    return Finding(
        signature_id="LOGPROB_MISMATCH",
        severity="warn",
        confidence=confidence_from(floor["count"] / max(cfg["floor_sustain"], 1), 3.0, floor=0.55, ceiling=0.85),
        first_step=first,
        explanation=(f"From step {first}, the rollout engine sampled tokens the trainer's policy all but rules out."
                     + _floor_text(floor) + " Importance-sampling correction masks or clips those tokens; if the "
                     "mean log-prob difference rises too, the run is training off-policy." + _truncation_hint(view)),
        evidence=[_floor_evidence(floor)],
        suggested_actions=_ACTIONS,
        links_to_samples=view.top_samples(first, last, "logprob", k=5, descending=False),
    )

