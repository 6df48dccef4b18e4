"""Recording-level signatures: values that are not numbers, and holes in the recording
itself (dropped or rejected records, missing steps, a run that crashed)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import polars as pl

from rlprobe.records import SAMPLE_KINDS, STEP_FIELDS, EventKind
from rlprobe.storage import RunStatus

from ..catalog import detector
from ..facts.severity import decide
from ..findings import Evidence, Finding, Severity
from ..toolkit import MIN_LOGGED, MIN_STEPS, confidence_from, logging_stride, long_enough
from ..view import NON_METRICS, RunView

#: Sample fields that are never legitimately non-finite: the schema's float fields but
#: ``reward`` (TRL scores a completion no reward function applies to as NaN).
_SAMPLE_FLOATS = tuple(name for name, kind in SAMPLE_KINDS.items() if kind == "float" and name != "reward")
#: Metrics whose occasional non-finite values are routine under fp16: its dynamic loss scaler
#: skips a step with an inf/NaN gradient norm now and then. bf16 and fp32 have no loss scaler:
#: there the optimizer applies the step.
_SKIPPABLE = frozenset({"grad_norm"})
#: Metrics computed from the rewards alone: non-finite there means a reward function returned
#: values float32 cannot hold (or NaN), not that the weights diverged.
_REWARD_SIDE = frozenset({"reward_mean", "reward_std", "frac_reward_zero_std"})
#: TRL logs a metric whose values were all NaN as None (the key vanishes); a metric logged at
#: the same point of the step (its companion) being present tells such a gap from a step that
#: never computes it (``num_iterations`` > 1, a strided log).
_COMPANIONS = {"reward_std": "reward_mean", "frac_reward_zero_std": "reward_mean", "kl_mean": "clip_ratio",
               "entropy_mean": "clip_ratio"}
#: A crash this many logged steps after the first non-finite value is its consequence.
_CRASH_WITHIN = 3
#: The training quantities (the recording's typed columns: loss, grad norm, reward, KL,
#: entropy, advantages, ...). Divergence is read in these, or in any metric that was finite
#: and then stopped being; a side metric that never held a number is broken logging.
_TRAINING = frozenset(STEP_FIELDS)


def _training_quantity(name: str) -> bool:
    return name in _TRAINING or name.startswith("rewards/")


def _never_finite(name: str, info: Mapping[str, Any]) -> bool:
    """A side metric (not a training quantity) non-finite at every step that logged it: the
    diagnostic never worked (computed on something empty, a placeholder), nothing diverged."""
    return not _training_quantity(name) and info["count"] == info["logged"]


def _reward_side(name: str) -> bool:
    return name in _REWARD_SIDE or name.startswith("rewards/") or name.startswith("objective/scores")


def _precision(view: RunView) -> str | None:
    """"fp16", "bf16" or "fp32" as the recorded trainer config says; None when it does not."""
    config = view.manifest.get("trainer_config") or {}
    if not any(k in config for k in ("fp16", "bf16", "half_precision_backend")):
        return None
    if config.get("fp16"):
        return "fp16"
    return "bf16" if config.get("bf16") else "fp32"


def _routine(name: str, info: Mapping[str, Any], n_steps: int, cfg: Mapping[str, Any], precision: str | None) -> bool:
    """Non-finite values that are normal: isolated fp16 loss-scaling skips (any precision when
    the config is unknown), and TRL's per-function reward means/stds, which are NaN (never
    inf) in steps where that function scored no completion (multi-task runs whose reward
    functions return None outside their task)."""
    if name.startswith("rewards/") and name.endswith(("/mean", "/std")):
        return not info["inf"]
    return name in _SKIPPABLE and precision in ("fp16", None) and info["longest"] < cfg["sustain"] \
        and info["count"] <= max(1.0, cfg["skippable_share"] * n_steps)


# -- NONFINITE_VALUES ----------------------------------------------------------------------

@detector("NONFINITE_VALUES", defaults={
    "sustain": 3,
    "skippable_share": 0.01,
    "min_samples": 3,
})
def nonfinite_values(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Logged metrics or captured samples hold NaN or infinity.

    Meaning: A NaN loss or gradient almost always means the weights are already NaN or about
    to be (an overflow, a division by zero in a loss, a log of 0); every update after it is
    garbage. Only fp16 has a loss scaler that skips a step with a non-finite gradient; in
    bf16 and fp32 the optimizer applies it. A non-finite reward statistic means a reward
    function returned values float32 cannot hold (or NaN): TRL turns the NaN advantages this
    gives into 0, so every group holding such a reward silently teaches nothing. TRL and the
    Trainer hide NaN: a NaN loss is logged as 0.0, and a metric whose values were all NaN is
    logged as None (the key vanishes).

    Metrics: Every logged metric (NaN logged on purpose is kept as data, unlike a step that
    did not log the metric; a TRL metric missing while its companion is logged counts as
    NaN), the trainer config's precision (`fp16`/`bf16`), `crash` events and the run's
    status, and the samples' `advantage`, `logprob`, `ref_logprob`, `kl`, `entropy`
    (`reward` is left out: TRL scores unscorable completions as NaN).

    Rule: Divergence is read in the training quantities (loss, gradient norm, reward, KL,
    entropy, advantages and the other known fields, per-function rewards) and in any metric
    that was finite and then stopped being: a side metric non-finite at every step that
    logged it never worked, which is broken logging, info, naming those metrics. Otherwise:
    critical when a metric is non-finite for `sustain` consecutive logged steps, or
    when a gradient, loss or other training metric went non-finite in bf16/fp32 and the run
    then crashed (within 3 logged steps) or the value was the run's last; warn for any
    other non-finite metric value, or non-finite sample fields in at least `min_samples`
    samples; info when the only ones are routine: `grad_norm` non-finite at no more than
    `skippable_share` of steps and never `sustain` in a row in an fp16 run (or one whose
    precision was not recorded: loss scaling skips those steps), and TRL's
    `rewards/<fn>/mean|std`, NaN in steps where that reward function scored no completion.
    The finding dates from the first non-finite value.

    Actions: Resume from a checkpoint before the first step, lower `learning_rate`, keep
    `max_grad_norm` set, train in bf16 rather than fp16, and guard reward functions against
    NaN/inf returns and values float32 cannot hold (clip or log-scale them).

    Source: Mixed-precision training practice (dynamic loss scaling skips non-finite
    gradient steps, fp16 only); TRL GRPOTrainer (NaN rewards for unscorable completions,
    `nan_to_num` of advantages, all-NaN metrics logged as None); Transformers Trainer
    (`logging_nan_inf_filter` logs a NaN loss as the running mean, 0.0 at a step's start).

    Keys:
    sustain: consecutive non-finite logged values of one metric that make it critical
    skippable_share: share of steps with a non-finite grad_norm still treated as loss-scaling skips (fp16)
    min_samples: non-finite sample fields needed for a warning
    """
    metrics = _nonfinite_metrics(view)
    samples = _nonfinite_samples(view)
    if not metrics and samples is None:
        return None
    n_steps = max(view.n_steps, 1)
    precision = _precision(view)
    broken = {name: info for name, info in metrics.items() if _never_finite(name, info)}
    routine = {name: info for name, info in metrics.items()
               if name not in broken and _routine(name, info, n_steps, cfg, precision)}
    serious = {name: info for name, info in metrics.items() if name not in routine and name not in broken}
    sustained = {name: info for name, info in serious.items() if info["longest"] >= cfg["sustain"]}
    training = {name: info for name, info in serious.items() if not _reward_side(name)}
    fatal = _fatal_aftermath(view, training) if precision in ("bf16", "fp32") or precision is None else None
    if fatal is not None and precision is None and not fatal["crash"]:
        fatal = None  # without the precision, only a crash says the step was not skipped
    sample_count = samples["count"] if samples is not None else 0
    # Non-finite values in training are the harm itself; sustained, or fatal to the run, they are critical.
    severity: Severity = decide(view, "NONFINITE_VALUES", None, strong=bool(sustained) or fatal is not None,
                                benign=not (serious or sample_count >= cfg["min_samples"]
                                            or sustained or fatal is not None)).severity
    if severity != "info":
        candidates = [info["first"] for info in serious.values()]
        if samples is not None and (sample_count >= cfg["min_samples"] or not candidates):
            candidates.append(samples["first"])
    else:
        candidates = [info["first"] for info in metrics.values()] + ([samples["first"]] if samples else [])
    first = min(candidates)
    shown = serious or routine or broken
    total_bad = sum(info["count"] for info in shown.values())
    longest = max((info["longest"] for info in shown.values()), default=0)
    if severity == "critical":
        confidence = confidence_from(max(longest / cfg["sustain"], 1.0 if fatal else 0.0), 2.0, floor=0.85)
    elif severity == "warn":
        confidence = confidence_from(total_bad + sample_count / max(cfg["min_samples"], 1), 3.0, floor=0.6,
                                     ceiling=0.85)
    else:
        confidence = confidence_from(total_bad, 5.0, floor=0.4, ceiling=0.6)
    ordered = sorted(shown.items(), key=lambda kv: kv[1]["first"])
    if shown is broken:
        explanation = _broken_text(view, broken, samples)
    else:
        parts = [_describe(name, info) for name, info in ordered[:4]]
        if samples is not None:
            parts.append(f"{samples['count']} captured samples with non-finite fields ({samples['fields']}) from "
                         f"step {samples['first']}")
        explanation = f"Non-finite values from step {first}: " + "; ".join(parts) + "."
    rewards_only = bool(serious) and not training
    if fatal is not None:
        explanation += _fatal_text(fatal, precision)
    elif rewards_only:
        explanation += _reward_text(view, serious)
    elif severity == "critical":
        explanation += " The run has diverged: every update since is meaningless."
    elif severity == "info" and routine:
        explanation += (" Isolated non-finite gradient norms are what fp16 loss scaling produces when it skips a step;"
                        " a per-function reward is NaN in steps where that function scored no completion.")
    elif training and precision in ("bf16", "fp32"):
        explanation += (f" This run trained in {precision}, which has no loss scaler to skip such a step: the "
                        "optimizer applied it.")
    if broken and shown is not broken:
        explanation += f" Apart from this, {_names(broken)} never held a number (broken logging, not divergence)."
    evidence = [Evidence(metric=name, window=(info["first"], info["last"]), baseline=0.0, observed=float(info["count"]),
                         note=f"count of non-finite logged values (baseline: none); longest run "
                              f"{info['longest']} steps" + (f"; {info['hidden']} of them logged as None (TRL drops "
                                                            "an all-NaN metric)" if info["hidden"] else ""))
                for name, info in ordered]
    if samples is not None:
        evidence.append(Evidence(metric=f"samples: {samples['fields']}", window=(samples["first"], samples["last"]),
                                 baseline=0.0, observed=float(samples["count"]),
                                 note="count of samples with non-finite fields (baseline: none)"))
    actions = [
        f"Resume from a checkpoint saved before step {first}; lower `learning_rate` and keep `max_grad_norm` set "
        "(e.g. 1.0).",
        "Train in bf16 rather than fp16 (`bf16=True`), whose range rarely overflows.",
        "Guard reward functions and custom losses against NaN/inf (a log of 0, a division by a zero std).",
    ]
    if shown is broken and samples is None:
        actions = [
            "Nothing is wrong with the training: fix or drop these diagnostics where they are computed (a mean over "
            "an empty selection, a placeholder never filled in, a hook on a module that never runs).",
        ]
    elif rewards_only:
        culprit = _culprit(view, first)
        actions = [
            (f"Fix the reward function '{culprit[0]}': " if culprit else "Fix the reward functions: ")
            + "return values float32 can hold (clip, or reward the log of a growing quantity) and never NaN/inf.",
            "Until then the groups holding such a reward get zero advantage: the run learns from the others only.",
            actions[2],
        ]
    return Finding(
        signature_id="NONFINITE_VALUES",
        severity=severity,
        confidence=confidence,
        first_step=first,
        explanation=explanation,
        evidence=evidence,
        suggested_actions=actions,
        links_to_samples=samples["ids"] if samples is not None else [],
    )


def _fatal_aftermath(view: RunView, training: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """What followed the first non-finite training metric, when it was fatal: a crash within
    ``_CRASH_WITHIN`` logging strides (or the run's status says it crashed there), or the value
    was the last the run logged. Also what TRL and the Trainer hid: metrics that stopped
    being logged, a loss logged as 0.0."""
    if not training:
        return None
    first = min(info["first"] for info in training.values())
    steps = view.step
    after = steps[steps >= first]
    stride = int(np.median(np.diff(steps))) if steps.size > 1 else 1
    horizon = first + _CRASH_WITHIN * max(stride, 1)
    crashes = [e for e in view.events_of(EventKind.CRASH) if isinstance(e.get("step"), int) and e["step"] >= first]
    crash = crashes[0] if crashes else None
    crashed_status = str(view.manifest.get("status") or "") == RunStatus.CRASHED
    last = bool(after.size <= _CRASH_WITHIN and (crashed_status or crash is not None or after.size == 1))
    if crash is None and crashed_status and int(steps[-1]) <= horizon:
        crash = {"step": int(steps[-1]), "message": ""}  # crashed, but no crash event with a step
    if crash is not None and int(crash["step"]) > horizon:
        crash = None
    if crash is None and not last:
        return None
    hidden = []
    before = view.steps.filter(pl.col("step") < first)
    since = view.steps.filter(pl.col("step") >= first)
    for name in ("kl_mean", "entropy_mean"):
        if (name in view.steps.columns and before.height and before[name].is_not_null().all()
                and since[name].is_null().any()):
            hidden.append(name)
    zero_loss = bool("loss" in view.steps.columns and since.height and since["loss"][0] == 0.0
                     and before.height and (before["loss"].fill_null(0.0) != 0.0).any())
    return {"first": first, "metric": min(training, key=lambda n: training[n]["first"]), "crash": crash,
            "vanished": hidden, "zero_loss": zero_loss}


def _fatal_text(fatal: Mapping[str, Any], precision: str | None) -> str:
    where = f"in {precision}, which has no loss scaler to skip the step" if precision else "with no step skipped"
    text = (f" {fatal['metric']} went non-finite at step {fatal['first']} {where}: the optimizer applied it and "
            "the weights are no longer numbers")
    crash = fatal["crash"]
    if crash is not None:
        message = (crash.get("message") or "").strip().splitlines()[:1]
        text += f"; the run crashed at step {crash['step']}" + (f" ({message[0]})" if message else "")
    text += "."
    hidden = []
    if fatal["zero_loss"]:
        hidden.append("the Trainer logged the NaN loss as 0.0")
    if fatal["vanished"]:
        hidden.append(f"{', '.join(fatal['vanished'])} stopped being logged (TRL logs an all-NaN metric as None)")
    if hidden:
        text += " The log hides it: " + "; ".join(hidden) + "."
    return text


def _culprit(view: RunView, first: int) -> tuple[str, float] | None:
    """The reward function behind non-finite reward statistics, with the largest |mean| it
    logged from ``first`` on: the component whose mean went infinite first, else the one
    with the largest |mean|."""
    names = view.components()
    if not names:
        return None
    near = view.step >= first
    size, infinite = {}, {}
    for name in names:
        values = view.component(name)
        bad = np.flatnonzero(np.isinf(values))
        if bad.size:
            infinite[name] = int(view.step[bad[0]])
        kept = np.abs(values[near])
        kept = kept[~np.isnan(kept)]
        size[name] = float(kept.max()) if kept.size else 0.0
    name = min(infinite, key=infinite.__getitem__) if infinite else max(size, key=size.__getitem__)
    return name, size[name]


def _reward_text(view: RunView, serious: Mapping[str, Mapping[str, Any]]) -> str:
    culprit = _culprit(view, min(info["first"] for info in serious.values()))
    text = (" The reward statistics overflowed, not the weights: a reward function returned values float32 cannot "
            "hold (or NaN). TRL turns the NaN advantages of every group holding such a reward into 0, so those groups "
            "taught nothing")
    if culprit is not None:
        size = "inf" if not np.isfinite(culprit[1]) else f"{culprit[1]:.3g}"
        text += f"; reward function '{culprit[0]}' is the source (rewards/{culprit[0]}/mean reached {size})"
    return text + "."


def _nonfinite_metrics(view: RunView) -> dict[str, dict[str, Any]]:
    """Per metric with any NaN/inf logged: count, first/last step, longest run of
    consecutive logged non-finite values and where it starts, whether any was infinite, and
    how many were hidden — logged as None by TRL (the metric missing where its companion,
    computed at the same point of the step, is logged)."""
    steps = view.steps
    columns = [c for c in steps.columns if c not in NON_METRICS and not c.startswith("_")
               and steps.schema[c].is_float()]
    if not columns:
        return {}
    flags = steps.select(pl.col("step"), *[(pl.col(c).is_nan() | pl.col(c).is_infinite()).alias(c) for c in columns])
    hits = flags.select(pl.col(columns).fill_null(False).sum()).row(0)
    step = flags["step"].to_numpy()
    out: dict[str, dict[str, Any]] = {}
    for name, count in zip(columns, hits, strict=False):
        if not count:
            continue
        present = steps[name].is_not_null().to_numpy()
        hidden = np.zeros_like(present)
        companion = _COMPANIONS.get(name)
        if companion in steps.columns:
            hidden = ~present & steps[companion].is_not_null().to_numpy()
        logged = present | hidden
        bad = (flags[name].fill_null(False).to_numpy() | hidden)[logged]
        at = step[logged]
        start, longest = _longest_run(bad)
        out[name] = {"count": int(bad.sum()), "first": int(at[bad][0]), "last": int(at[bad][-1]),
                     "longest": longest, "run_start": int(at[start]), "hidden": int(hidden.sum()),
                     "inf": bool(steps.select(pl.col(name).is_infinite().any()).item()),
                     "logged": int(logged.sum()), "tail": bool(bad[-1])}
    return out


def _longest_run(mask: np.ndarray) -> tuple[int, int]:
    """(start index, length) of the longest run of True in ``mask`` (earliest on ties)."""
    padded = np.concatenate([[False], mask, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    starts, ends = edges[::2], edges[1::2]
    if not starts.size:
        return 0, 0
    best = int(np.argmax(ends - starts))
    return int(starts[best]), int(ends[best] - starts[best])


def _nonfinite_samples(view: RunView) -> dict[str, Any] | None:
    samples = view.samples
    fields = [c for c in _SAMPLE_FLOATS if c in samples.columns]
    if samples.is_empty() or not fields:
        return None
    bad_any = pl.any_horizontal([(pl.col(c).is_nan() | pl.col(c).is_infinite()).fill_null(False) for c in fields])
    bad = samples.filter(bad_any)
    if bad.is_empty():
        return None
    per_field = bad.select([(pl.col(c).is_nan() | pl.col(c).is_infinite()).fill_null(False).sum().alias(c)
                            for c in fields]).row(0, named=True)
    named = ", ".join(f"{c} ×{n}" for c, n in per_field.items() if n)
    ids = bad.sort("step")["sample_id"].drop_nulls().head(5).to_list() if "sample_id" in bad.columns else []
    # The step column is an integer column, and bad is not empty: its min and max are ints.
    return {"count": bad.height, "first": cast(int, bad["step"].min()), "last": cast(int, bad["step"].max()),
            "fields": named, "ids": ids}


def _names(metrics: Mapping[str, Any], shown: int = 6) -> str:
    names = sorted(metrics)
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return f"{len(names)} side metric{'s' if len(names) > 1 else ''} ({', '.join(names[:shown])}{more})"


#: The training quantities named when saying they stayed finite, as a reader knows them.
_VITALS = {"loss": "loss", "policy_loss": "policy loss", "grad_norm": "gradient norm", "reward_mean": "reward",
           "kl_mean": "KL", "entropy_mean": "entropy"}


def _broken_text(view: RunView, broken: Mapping[str, Mapping[str, Any]], samples: Mapping[str, Any] | None) -> str:
    vitals = [label for column, label in _VITALS.items() if view.has(column)]
    finite = (f": {', '.join(vitals[:-1])}{' and ' if len(vitals) > 1 else ''}{vitals[-1]} stayed finite throughout"
              if vitals else "")
    text = (f"{_names(broken)} never held a number: non-finite at every step that logged "
            f"{'them' if len(broken) > 1 else 'it'}, from the first to the last. That is broken logging, not "
            f"divergence{finite}.")
    if samples is not None:
        text += (f" Separately, {samples['count']} captured samples had non-finite fields ({samples['fields']}) "
                 f"from step {samples['first']}.")
    return text


def _describe(name: str, info: Mapping[str, Any]) -> str:
    text = f"{name} non-finite at {info['count']} of {info['logged']} logged steps"
    if info["longest"] > 1:
        text += f" (a run of {info['longest']} from step {info['run_start']}"
        text += ", still non-finite at the last step)" if info["tail"] else ")"
    return text


# -- RECORDING_GAPS ------------------------------------------------------------------------

@detector("RECORDING_GAPS", defaults={
    "warn_missing_share": 0.05,
    "warn_bad_share": 0.01,
})
def recording_gaps(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The recording has holes: dropped or rejected records, missing steps, or the run crashed.

    Meaning: What is not recorded cannot be diagnosed. The recorder drops records rather than
    block training when its queue is full, rejects values that are not numbers (`bad_record`),
    and a crash or SIGTERM ends the recording early; any finding near a gap rests on less
    evidence than it appears to.

    Metrics: The manifest's `counts.dropped` and `status`, `queue_overflow`, `bad_record`,
    `storage_error`, `crash` and `terminated` events, and the logged step sequence (its
    usual stride, e.g. TRL's `logging_steps`, is inferred, so a strided log is not a gap).

    Rule: Warn when records were dropped, the run crashed, steps are missing at
    `warn_missing_share` of the run or more, or bad records reach `warn_bad_share` of the
    steps; info for smaller gaps and for a terminated (SIGTERM) run. Never critical: a hole
    in the recording does not hurt training.

    An imported log is judged as the log it is: what its reader could not keep (a metric
    name no column can hold; the source's own `step`) is not a gap, and the advice is about
    the source, not the recorder.

    Actions: For a recording, as its holes say: raise the Recorder's `queue_size` (or pass it
    through `attach(...)`) and capture fewer samples per step (`sampling=SamplingConfig(...)`)
    when records were dropped, fix the values the `bad_record` events name, read the `crash`
    event's traceback. For an imported log, diagnose a fuller log of the run if one exists.

    Source: rlprobe's recorder promises (bounded queue, drop and count; `bad_record` events;
    crash and SIGTERM handlers).

    Keys:
    warn_missing_share: share of expected steps missing that warns
    warn_bad_share: bad records per logged step that warns
    """
    counts = view.manifest.get("counts") or {}
    status = str(view.manifest.get("status") or "")
    n_logged = max(view.n_steps, 1)
    overflow = view.events_of(EventKind.QUEUE_OVERFLOW)
    dropped = max([_int(counts.get("dropped"))] + [_int((e.get("data") or {}).get("dropped_total")) for e in overflow])
    imported = bool(view.manifest.get("imported_from"))
    # An import's bad records are what its reader could not keep of the source (a name no
    # column can hold, a value that is not a number); its notes say so. Not a hole in the run.
    bad_events = [] if imported else view.events_of(EventKind.BAD_RECORD)
    bad = 0 if imported else max(_int(counts.get("bad_records")),
                                 sum(max(1, _int((e.get("data") or {}).get("count"))) for e in bad_events))
    storage = view.events_of(EventKind.STORAGE_ERROR)
    # A session that a later one resumed ended early, but its steps from the resume on were
    # recorded again: only the latest session's end can leave the recording short.
    resumed_at = max((e.get("time", 0.0) for e in view.events_of(EventKind.RUN_RESUMED)), default=-math.inf)
    crashes = [e for e in view.events_of(EventKind.CRASH) if e.get("time", 0.0) > resumed_at]
    crashed = bool(crashes) or status == RunStatus.CRASHED
    terminated = (any(e.get("time", 0.0) > resumed_at for e in view.events_of(EventKind.TERMINATED))
                  or status == RunStatus.TERMINATED)
    gaps = _missing_steps(view.step)

    parts: list[str] = []
    evidence: list[Evidence] = []
    starts: list[int] = []
    score = 0.0  # strength of the evidence, in "facts"
    warn = False
    last = int(view.step[-1]) if view.n_steps else 0
    if dropped or overflow:
        warn = True
        score += 1.0 + math.log10(1 + dropped) / 2
        steps_at = [e["step"] for e in overflow if isinstance(e.get("step"), int)]
        starts += steps_at[:1]
        parts.append(f"the recorder's queue overflowed {len(overflow) or 'at least once'} time(s) and dropped "
                     f"{dropped} records")
        evidence.append(Evidence(metric="counts.dropped", window=(min(steps_at, default=0), last), baseline=0.0,
                                 observed=float(dropped), note=f"{len(overflow)} queue_overflow events"))
    if gaps is not None:
        share = gaps["missing"] / max(gaps["expected"], 1)
        warn |= share >= cfg["warn_missing_share"]
        score += min(3.0, share / cfg["warn_missing_share"])
        starts.append(gaps["first"])
        parts.append(f"{gaps['missing']} of {gaps['expected']} expected steps ({share:.1%}) are missing in "
                     f"{gaps['holes']} gap(s), the longest {gaps['longest']} steps from step {gaps['longest_at']}")
        evidence.append(Evidence(metric="missing steps", window=(gaps["first"], last), baseline=0.0,
                                 observed=float(gaps["missing"]),
                                 note=f"of {gaps['expected']} expected at the usual stride of {gaps['stride']}"))
    if bad:
        warn |= bad / n_logged >= cfg["warn_bad_share"]
        score += min(2.0, bad / n_logged / cfg["warn_bad_share"])
        at = [e["step"] for e in bad_events if isinstance(e.get("step"), int)]
        starts += at[:1]
        example = bad_events[0].get("message", "") if bad_events else ""
        parts.append(f"{bad} record(s) were rejected as invalid" + (f" (e.g. “{example}”)" if example else ""))
        evidence.append(Evidence(metric="counts.bad_records", window=(min(at, default=0), last), baseline=0.0,
                                 observed=float(bad), note=f"{len(bad_events)} bad_record events"))
    if storage:
        warn = True
        score += 1.0
        at = [e["step"] for e in storage if isinstance(e.get("step"), int)]
        starts += at[:1]
        parts.append(f"{len(storage)} storage error(s) (disk full, read-only or vanished directory)")
    if crashed:
        warn = True
        score += 2.0
        at = [e["step"] for e in crashes if isinstance(e.get("step"), int)]
        crash_step = at[0] if at else last
        starts.append(crash_step)
        message = (crashes[0].get("message") or "").strip().splitlines()[:1] if crashes else []
        parts.append(f"the run crashed at step {crash_step}" + (f" ({message[0]})" if message else ""))
    elif terminated:
        score += 0.5
        starts.append(last)
        parts.append(f"the run was terminated (SIGTERM) at step {last}")
    if not parts:
        return None
    first = min(starts) if starts else last
    confidence = confidence_from(score, 2.0, floor=0.6 if warn else 0.4, ceiling=0.99 if warn else 0.7)
    provisional = ("Treat findings whose window overlaps a gap as provisional; after resuming a crashed or terminated "
                   "run from its last checkpoint, compare the two with `rlprobe diff`.")
    if imported:
        actions = [
            "The source itself has these holes (a log written with a stride that changed, a run stopped early, a file "
            "cut short); if a fuller log of the run exists (a later checkpoint's trainer_state.json, the tracker's "
            "copy), diagnose that instead.",
            provisional,
        ]
    else:
        actions = [
            *(["Raise the recorder's `queue_size` (Recorder(...) or attach(trainer, run_dir, queue_size=...)) and "
               "capture fewer samples per step (`sampling=SamplingConfig(top_k=..., bottom_k=..., random_k=...)`)."]
              if dropped or overflow else []),
            *(["Fix the values the `bad_record` events name (metrics must be numbers)."] if bad else []),
            *(["Read the `crash` event's traceback in events.jsonl."] if crashed else []),
            provisional,
        ]
    return Finding(
        signature_id="RECORDING_GAPS",
        severity="warn" if warn else "info",
        confidence=confidence,
        first_step=first,
        explanation=("The imported log is incomplete: " if imported else "The recording is incomplete: ")
        + "; ".join(parts) + ". Findings near these steps rest on less evidence than they seem.",
        evidence=evidence,
        suggested_actions=actions,
        links_to_samples=[],
    )


def _int(value: Any) -> int:
    try:
        out = int(value)
    except (TypeError, ValueError):
        return 0
    return out if out > 0 else 0


def _missing_steps(steps: np.ndarray) -> dict[str, int] | None:
    """Holes in the logged step sequence, judged against its usual stride; None when there
    are none (or too few steps to tell)."""
    if steps.size < 3:
        return None
    diffs = np.diff(steps)
    diffs = diffs[diffs > 0]
    if not diffs.size:
        return None
    values, counts = np.unique(diffs, return_counts=True)
    stride = int(values[np.argmax(counts)])
    holes = np.flatnonzero(np.diff(steps) > stride)
    if not holes.size:
        return None
    missing_per = np.diff(steps)[holes] // stride - 1
    keep = missing_per > 0
    holes, missing_per = holes[keep], missing_per[keep]
    if not holes.size:
        return None
    longest = int(np.argmax(missing_per))
    expected = int((steps[-1] - steps[0]) // stride + 1)
    return {"missing": int(missing_per.sum()), "expected": expected, "holes": int(holes.size),
            "first": int(steps[holes[0]] + stride), "longest": int(missing_per[longest] * stride),
            "longest_at": int(steps[holes[longest]] + stride), "stride": stride}


# -- NO_REWARD_METRIC ----------------------------------------------------------------------

#: Algorithms that train without a reward signal: no reward is expected of them.
_REWARDLESS = frozenset({"sft", "dpo", "kto", "orpo", "reward", "gkd"})
#: Metric names listed in the note, at most.
_LISTED = 24


@detector("NO_REWARD_METRIC", defaults={})
def no_reward_metric(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """No reward metric was found: the reward detectors had nothing to read.

    Meaning: A run logged under names of its own (a training loop of one's own logging
    `average_reward`) looks to the doctor like a run without a reward, so every reward
    signature (collapse, plateau, hacking, zero-advantage groups) stays silent whatever the
    reward did. Mapping the name makes them read it.

    Metrics: `reward_mean` (every known spelling: TRL's `reward`, verl's `critic/score/mean`,
    ...), TRL's per-function `rewards/<fn>/mean`, the samples' `reward`; the numeric metrics
    the run did log, listed.

    Rule: Info when a run with steps has none of these (runs of algorithms trained without a
    reward, such as SFT or DPO, are left alone).

    Actions: Map the run's reward: `--metric reward=NAME` on any command, or a `[metrics]`
    table in `doctor.toml` (`reward = "NAME"`); KL, entropy and loss map the same way.

    Source: rlprobe's metric names (`rlprobe.records.METRIC_ALIASES`).
    """
    if not view.n_steps or view.algorithm in _REWARDLESS or view.has("reward_mean") or view.components():
        return None
    samples = view.samples
    if "reward" in samples.columns and samples["reward"].is_not_nan().fill_null(False).any():
        return None
    numeric = sorted(name for name in view.metric_names() if view.steps.schema[name].is_numeric() and view.has(name))
    first, last = int(view.step[0]), int(view.step[-1])
    listed = ", ".join(numeric[:_LISTED]) + (f" and {len(numeric) - _LISTED} more" if len(numeric) > _LISTED else "")
    seen = f"The numeric metrics it logged: {listed}." if numeric else "It logged no numeric metric."
    return Finding(
        signature_id="NO_REWARD_METRIC",
        severity="info",
        confidence=0.9,
        first_step=first,
        explanation=("No reward metric was found, so the reward detectors (collapse, plateau, hacking) had nothing to "
                     f"read. {seen} If one of them is the reward, map it."),
        evidence=[Evidence(metric="reward_mean", window=(first, last), note=f"not logged; numeric metrics seen: "
                                                                          f"{len(numeric)}")],
        suggested_actions=[
            "Map the run's reward: `rlprobe doctor RUN --metric reward=NAME`, or in doctor.toml a `[metrics]` table "
            "with `reward = \"NAME\"` (passed with `--config`); `kl`, `entropy` and `loss` map the same way.",
        ],
        links_to_samples=[],
    )


@detector("TOO_SHORT_TO_JUDGE", defaults={}, offline_only=True)
def too_short_to_judge(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The run is too short to judge its curves: silence about them is no clean bill of health.

    Meaning: Every detector that reads a curve's level or trend (entropy, length, reward, KL,
    the progress facts) needs enough logged values over enough steps to tell a change from noise,
    and stays silent below that. Said once here, so that a short run's silence is not read as
    health.

    Metrics: The logged steps.

    Rule: Info when the run logged fewer than `toolkit.MIN_LOGGED` values or they span fewer than
    `toolkit.MIN_STEPS` steps (``toolkit.long_enough``, the one "too short to judge" of every
    detector). Not run live: every run being watched starts short.

    Actions: Diagnose again once the run has logged more; log more often (`logging_steps`).

    Source: rlprobe's own rule (``toolkit.long_enough``).
    """
    if not view.n_steps or long_enough(view.step):
        return None
    first, last = int(view.step[0]), int(view.step[-1])
    span = int(round(view.n_steps * logging_stride(view.step)))
    missing = (f"{view.n_steps} logged values over about {span} steps, where the curves need {MIN_LOGGED} values "
               f"spanning {MIN_STEPS} steps")
    return Finding(
        signature_id="TOO_SHORT_TO_JUDGE",
        severity=decide(view, "TOO_SHORT_TO_JUDGE", first, strong=False, missing=missing).severity,
        confidence=0.99,
        first_step=first,
        explanation=(f"Too short to judge: {missing}. The detectors of levels and trends (entropy, length, reward, "
                     "KL) said nothing, and that says nothing of the run's health."),
        evidence=[Evidence(metric="step", window=(first, last), observed=float(view.n_steps),
                           note=f"logged values; needed {MIN_LOGGED} spanning {MIN_STEPS} steps")],
        suggested_actions=["Diagnose again once the run has logged more, or log more often (`logging_steps`)."],
        links_to_samples=[],
    )
