"""Liveness: a run that is still marked running but has stopped stepping, and a run that
steps but whose optimisation does not move at all."""
from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import polars as pl

from rlprobe.storage import RunStatus

from ..catalog import detector
from ..facts.severity import decide
from ..findings import Evidence, Finding
from ..toolkit import confidence_from, level_noise, logged, trend_t
from ..view import RunView

#: The recorder rewrites the manifest at every flush (default every 5 s); one older than
#: this means the recording process itself has gone quiet (``rlprobe ls`` says "killed?" by it too).
HEARTBEAT_STALE_S = 120.0


@detector("RUN_STALLED", live_only=True, defaults={
    "factor": 20.0,
    "min_stall_s": 600.0,
    "critical_multiple": 3.0,
    "interval_window": 200,
    "min_steps": 5,
})
def run_stalled(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """No new step for far longer than the run's usual step interval, while it is still marked running.

    Meaning: the training loop has stopped making progress without ending: a hung collective
    (one rank died or waits forever), a stuck dataloader or generation server, a deadlock, or a
    process killed so hard it could not mark its recording closed. GPUs stay allocated and
    nothing is learnt. Live only: it compares the last step's time with the clock now.

    Metrics: the steps table's ``time`` column (when each step was logged), the manifest's
    ``status`` and ``updated_at`` (the recorder's heartbeat).

    Rule: the usual interval is the median gap between consecutive steps over the last
    ``interval_window`` steps; the run is stalled when its status is ``running`` and the time
    since its last step exceeds both ``factor`` × that interval and ``min_stall_s`` (so evals
    and checkpoint saves, which also pause stepping, pass). Critical at ``critical_multiple``
    times that threshold. Confidence grows with how far past the threshold the silence runs.

    Actions: check that the training process is alive and where it waits (``py-spy dump
    --pid``, GPU utilisation in ``nvidia-smi``); lower TrainingArguments ``ddp_timeout`` so a
    hung collective fails fast instead of idling; if the process is gone, resume from the last
    checkpoint (``resume_from_checkpoint``).

    Source: operational practice in distributed training: hangs show up as silence, not as bad
    metrics, and NCCL's watchdog (and ``ddp_timeout``) default to 30 minutes before failing.

    Keys:
    factor: a stall is a silence at least this many usual step intervals long
    min_stall_s: and at least this many seconds (evals and checkpoint saves pause stepping too)
    critical_multiple: silent this many times the stall threshold is critical
    interval_window: the usual interval is the median over this many most recent step gaps
    min_steps: steps needed before the usual interval is trusted
    """
    if view.manifest.get("status") != RunStatus.RUNNING or "time" not in view.steps.columns:
        return None
    logged = view.steps.select("step", "time").drop_nulls().drop_nans()
    if logged.height < cfg["min_steps"]:
        return None
    recent = logged.tail(int(cfg["interval_window"]) + 1)
    usual = recent.select(pl.col("time").diff().filter(pl.col("time").diff() > 0).median()).item()
    if usual is None:
        return None
    last_step, last_time = logged.row(cast(int, logged["time"].arg_max()))  # an int: logged is not empty
    last_step, last_time = int(last_step), float(last_time)
    now = time.time()
    silent = now - last_time
    threshold = max(cfg["factor"] * usual, cfg["min_stall_s"])
    if silent < threshold:
        return None
    critical = silent >= cfg["critical_multiple"] * threshold
    heartbeat = _seconds_since(view.manifest.get("updated_at"), now)
    if heartbeat is not None and heartbeat < HEARTBEAT_STALE_S:
        why = (f"the recorder is still writing (manifest updated {heartbeat:.0f} s ago), so the process is "
               "alive but the training loop is stuck")
    else:
        why = "the recorder has gone quiet too, so the process was likely killed or frozen without closing the run"
    return Finding(
        signature_id="RUN_STALLED",
        severity=decide(view, "RUN_STALLED", last_step, strong=critical).severity,
        confidence=confidence_from(silent / threshold - 1.0, 2.0, floor=0.6),
        first_step=last_step,
        explanation=(f"No step for {_duration(silent)} since step {last_step}, against a usual step interval of "
                     f"{_duration(usual)} (×{silent / usual:.0f}), while the run is still marked running; {why}."),
        evidence=[Evidence(metric="time", window=(last_step, last_step), baseline=float(usual), observed=silent,
                           note="seconds: median step interval vs time since the last step")],
        suggested_actions=[
            "Check the training process is alive and where it waits: `py-spy dump --pid PID`, "
            "GPU utilisation in `nvidia-smi`.",
            "Lower TrainingArguments `ddp_timeout` (default 1800 s) so a hung collective fails fast instead of idling.",
            "If the process is gone, restart from the last checkpoint (`resume_from_checkpoint`).",
        ],
    )


def _seconds_since(timestamp: Any, now: float) -> float | None:
    try:
        return max(0.0, now - float(timestamp))
    except (TypeError, ValueError):
        return None


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# -- RUN_FROZEN ------------------------------------------------------------------------------

#: What the optimisation moves, as (column, how a reader calls it); the first logged loss is read.
_LOSSES = (("loss", "loss"), ("policy_loss", "policy loss"))
_POLICY = (("kl_mean", "KL"), ("entropy_mean", "entropy"))
#: A trend this many standard errors from flat, beyond 3× the step noise, is a reward that moves.
_MOVING_T = 3.0


@detector("RUN_FROZEN", defaults={"min_steps": 5, "rounding": 1e-4})
def run_frozen(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The optimisation quantities do not move at all: nothing is being learned.

    Meaning: A loss that is exactly 0 (or one constant) at every step, beside a KL to the
    reference or an entropy that stays the same to rounding over different batches, is a run
    whose policy is not changing: no gradient reaches the weights (a loss detached from them,
    a learning rate of 0, frozen or unregistered parameters), or every batch is the same (a
    generation that always fails and falls back to one placeholder output, rewards computed
    on that). Whatever the reward does then, it is not learning. Real measurements over
    fresh samples wobble in their later digits from step to step.

    Metrics: `loss` (else `policy_loss`), `kl_mean` and `entropy_mean` (a KL that is exactly 0
    everywhere is a KL nobody computed, `beta` = 0, and tells nothing), `grad_norm` when
    logged, `reward_mean` when logged.

    Rule: Over at least `min_steps` logged steps the loss spreads by no more than `rounding`
    of its size (exactly, when it is 0), every logged KL and entropy does too, at least one of
    them is logged and not identically 0, a logged gradient norm does not move either, and a
    logged reward shows no trend (slope under 3 standard errors, or a change between its first
    and last quarter under 3× its step noise). Warn, however short the run.

    Actions: Check that the loss is computed from the policy's log-probs and reaches the
    optimizer (no `.detach()`, no `torch.no_grad()`, the parameters passed to the optimizer are
    the ones trained), that `learning_rate` is not 0, and read the completions: one placeholder
    output at every step means generation failed and a fallback filled in.

    Source: Training practice: optimised quantities measured on fresh samples are never
    constant to six digits.

    Keys:
    min_steps: logged steps needed before a run is called frozen
    rounding: largest spread, as a share of a metric's size, still read as constant
    """
    loss = next(((name, label, curve) for name, label in _LOSSES
                 for curve in [logged(view, name)] if curve is not None), None)
    if loss is None or loss[2].size < cfg["min_steps"] or not _constant(loss[2].values, cfg["rounding"]):
        return None
    frozen = [loss]
    telling = False
    for name, label in (*_POLICY, ("grad_norm", "gradient norm")):
        curve = logged(view, name)
        if curve is None:
            continue
        if curve.size < cfg["min_steps"] or not _constant(curve.values, cfg["rounding"]):
            return None
        frozen.append((name, label, curve))
        telling |= name != "grad_norm" and bool(np.any(curve.values != 0))
    if not telling:
        return None
    reward = logged(view, "reward_mean")
    if reward is not None and _moves(reward.steps, reward.values):
        return None
    first, last = int(view.step[0]), int(view.step[-1])
    said = [f"{label} {_value(curve.values)}" for _, label, curve in frozen]
    flat = ""
    if reward is not None:
        flat = (f" The reward stayed flat ({np.median(reward.values[: max(1, reward.size // 4)]):.3g} at the start, "
                f"{np.median(reward.values[-max(1, reward.size // 4):]):.3g} at the end): whatever it scores, the "
                "policy did not earn it by changing.")
    evidence = [Evidence(metric=name, window=(first, last), baseline=float(curve.values[0]),
                         observed=float(curve.values[-1]),
                         note=f"first and last of {curve.size} logged values; spread {np.ptp(curve.values):.3g}")
                for name, _, curve in frozen]
    if reward is not None:
        evidence.append(Evidence(metric=reward.name, window=(first, last), baseline=float(reward.values[0]),
                                 observed=float(reward.values[-1]), note="first and last logged values; no trend"))
    steps = max(curve.size for _, _, curve in frozen)
    return Finding(
        signature_id="RUN_FROZEN",
        severity="warn",
        confidence=confidence_from(steps / cfg["min_steps"] + len(frozen) - 2, 2.0, floor=0.6, ceiling=0.95),
        first_step=first,
        explanation=(f"Nothing is being learned: over all {steps} logged steps ({first}–{last}), "
                     + ", ".join(said[:-1]) + f" and {said[-1]}" + " were the same at every step, to rounding. "
                     "Measured on fresh samples these wobble from step to step; this constant, the policy is not "
                     "changing (no gradient reaches the weights) or every batch is the same (generation falling "
                     "back to one placeholder output)." + flat),
        evidence=evidence,
        suggested_actions=[
            "Check that the loss is computed from the policy's log-probs and reaches the optimizer: no `.detach()` "
            "or `torch.no_grad()` on the way, the optimizer holds the parameters being trained, `learning_rate` > 0.",
            "Read the completions of a few steps: one output repeated at every step means generation failed and a "
            "fallback filled in (check the generation's errors and its stop conditions).",
        ],
        links_to_samples=[],
    )


def _constant(values: np.ndarray, rounding: float) -> bool:
    """Whether ``values`` are one number to rounding: their spread is at most ``rounding`` of
    their size (none at all for a metric that is 0)."""
    return bool(np.ptp(values) <= rounding * float(np.max(np.abs(values))))


def _moves(steps: np.ndarray, values: np.ndarray) -> bool:
    """Whether a curve has a trend: a slope ``_MOVING_T`` standard errors from flat, and its
    last quarter's median that far from its first quarter's beyond 3× its step noise."""
    if values.size < 4 or _constant(values, 0.0):
        return False
    quarter = max(1, values.size // 4)
    change = abs(float(np.median(values[-quarter:]) - np.median(values[:quarter])))
    return abs(trend_t(steps.astype(float), values)) >= _MOVING_T and change > 3 * level_noise(values, 0, values.size)


def _value(values: np.ndarray) -> str:
    value = float(np.median(values))
    return "exactly 0" if value == 0 and not np.ptp(values) else f"{value:.6g}"
