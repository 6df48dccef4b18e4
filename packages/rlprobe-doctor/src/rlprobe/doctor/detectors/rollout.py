"""Rollout-engine signatures: the policy that sampled the completions (vLLM) and the one
being trained disagree about their probabilities, so the run trains off-policy."""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from ..catalog import detector
from ..excursions import find_excursion
from ..findings import Evidence, Finding
from ..stats import confidence_from, smooth
from ..view import RunView

#: TRL GRPOTrainer's names (logged when `use_vllm` and `vllm_importance_sampling_correction`).
LOGP_DIFF_MEAN = "sampling/sampling_logp_difference/mean"
LOGP_DIFF_MAX = "sampling/sampling_logp_difference/max"
IS_RATIO_MIN = "sampling/importance_sampling_ratio/min"
IS_RATIO_MEAN = "sampling/importance_sampling_ratio/mean"
IS_RATIO_MAX = "sampling/importance_sampling_ratio/max"


@detector("LOGPROB_MISMATCH", defaults={
    "warn_level": 0.05,
    "critical_level": 0.2,
    "ratio_drift": 0.2,
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
    the numerical floor) for `sustain` consecutive steps (or, with only the ratio logged,
    |1 − mean ratio| stays at least `ratio_drift`); critical when the median over the
    episode reaches `critical_level`. The onset is walked back to where the difference left
    its early level.

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
    ratio_drift: |1 − mean importance-sampling ratio| that counts when no log-prob difference is logged
    smooth_window: steps in the trailing median
    sustain: consecutive steps the condition must hold
    """
    if view.has(LOGP_DIFF_MEAN):
        diff = view.series(LOGP_DIFF_MEAN)
        exc = find_excursion(diff, level=cfg["warn_level"], sustain=cfg["sustain"], smooth_window=cfg["smooth_window"])
        metric, unit = LOGP_DIFF_MEAN, " nats/token"
        strength = None if exc is None else exc.observed / cfg["warn_level"]
    elif view.has(IS_RATIO_MEAN):
        drift = np.abs(1.0 - view.series(IS_RATIO_MEAN))
        exc = find_excursion(drift, level=cfg["ratio_drift"], sustain=cfg["sustain"], smooth_window=cfg["smooth_window"])
        metric, unit = "|1 − " + IS_RATIO_MEAN + "|", ""
        strength = None if exc is None else exc.observed / cfg["ratio_drift"]
    else:
        return None
    if exc is None or strength is None:
        return None
    steps = view.step
    first, last = int(steps[exc.onset]), int(steps[exc.end])
    critical = metric == LOGP_DIFF_MEAN and exc.observed >= cfg["critical_level"]
    confidence = confidence_from(math.log(strength) + 0.3, 1.0, floor=0.55)
    evidence = [Evidence(metric=metric, window=(first, last), baseline=exc.baseline, observed=exc.observed,
                         note=f"median over the episode; baseline = first fifth of the run; peak {exc.peak:.3g} "
                              f"({cfg['smooth_window']}-step trailing median)")]
    extra = ""
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
        during = float(np.nanmedian(smooth(ratio, cfg["smooth_window"])[window])) if window.any() else float("nan")
        if math.isfinite(during):
            extra += f" The mean importance-sampling ratio went from {before:.3g} to {during:.3g}."
            evidence.append(Evidence(metric=IS_RATIO_MEAN, window=(first, last), baseline=before, observed=during,
                                     note="median; far below 1 means masked or clipped sequences"))
    config = view.manifest.get("trainer_config") or {}
    truncating = [f"{k}={config[k]}" for k in ("top_p", "top_k", "min_p")
                  if k in config and config[k] not in (None, 1.0, 1, 0, -1, 0.0)]
    hint = f" The sampler truncates the distribution ({', '.join(truncating)}), which biases the ratio." \
        if truncating else ""
    return Finding(
        signature_id="LOGPROB_MISMATCH",
        severity="critical" if critical else "warn",
        confidence=confidence,
        first_step=first,
        explanation=(f"From step {first}, the rollout engine and the trainer disagreed on token log-probs by "
                     f"{exc.observed:.3g}{unit} (median over steps {first}–{last}), against {exc.baseline:.3g} "
                     f"early in the run: the run is training off-policy.{extra}{hint}"),
        evidence=evidence,
        suggested_actions=[
            "Check that vLLM receives the trainer's weights every step (sleep mode / server-mode sync can fail "
            "silently); a gap that grows step after step is the signature of stale sampler weights.",
            "Keep `top_p=1.0` and `top_k=0` (GRPOConfig) so sampler and trainer share one distribution, and run "
            "both in the same dtype.",
            "Keep `vllm_importance_sampling_correction=True`; choose `vllm_importance_sampling_mode` and "
            "`vllm_importance_sampling_clip_max` (formerly `vllm_importance_sampling_cap`) so the mismatch is masked "
            "or clipped rather than trained on.",
        ],
        links_to_samples=view.top_samples(first, last, "logprob", k=5, descending=False),
    )
