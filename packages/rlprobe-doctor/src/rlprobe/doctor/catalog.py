"""The detector registry and the diagnosis entry points.

A detector is a pure function ``fn(view, cfg) -> Finding | list[Finding] | None`` of a
``RunView`` and its resolved config section, registered once with ``@detector``. Each
family of signatures lives in its own module under ``rlprobe.doctor.detectors``.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .config import load_config, resolve_config, split_metrics
from .errors import UnusableInput
from .findings import Finding, rank_findings
from .toolkit import calibrated
from .view import RunView

__all__ = ["detector", "registry", "diagnose", "diagnose_view", "CATALOG_V1", "Detector"]

#: Catalog v1 signature ids (ARCHITECTURE §5); every one has a detector and a synth pathology.
CATALOG_V1: tuple[str, ...] = (
    "KL_BLOWUP", "ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_HACKING", "REWARD_COLLAPSE",
    "REWARD_PLATEAU", "ZERO_ADVANTAGE_GROUPS", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE",
    "TRUNCATION_HIGH", "CLIP_RATIO_HIGH", "GRAD_NORM_SPIKE", "NONFINITE_VALUES",
    "REPETITIVE_COMPLETIONS", "GROUP_MODE_COLLAPSE", "ADVANTAGE_OUTLIERS",
    "VALUE_LOSS_DIVERGENCE", "LOGPROB_MISMATCH", "RECORDING_GAPS", "RUN_STALLED",
)

DetectorFn = Callable[[RunView, Mapping[str, Any]], "Finding | list[Finding] | None"]


@dataclass(frozen=True)
class Detector:
    signature_id: str
    fn: DetectorFn
    defaults: dict[str, Any] = field(default_factory=dict)
    live_only: bool = False
    summary: str = ""
    offline_only: bool = False


_REGISTRY: dict[str, Detector] = {}
_loaded = False


def detector(signature_id: str, *, defaults: Mapping[str, Any] | None = None,
             live_only: bool = False, offline_only: bool = False) -> Callable[[DetectorFn], DetectorFn]:
    """Register ``fn`` as the detector of ``signature_id`` with its default thresholds.
    ``live_only`` detectors (e.g. RUN_STALLED) run only when diagnosing a live run, ``offline_only`` ones
    (TOO_SHORT_TO_JUDGE: every live run starts short) only when diagnosing one after the fact."""
    def register(fn: DetectorFn) -> DetectorFn:
        if signature_id in _REGISTRY:
            raise ValueError(f"detector {signature_id} registered twice")
        summary = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ""
        _REGISTRY[signature_id] = Detector(signature_id, fn, dict(defaults or {}), live_only, summary, offline_only)
        return fn
    return register


def registry() -> dict[str, Detector]:
    """Every registered detector by signature id (importing the detector modules once)."""
    global _loaded
    if not _loaded:
        from . import detectors

        for module in pkgutil.iter_modules(detectors.__path__):
            importlib.import_module(f"{detectors.__name__}.{module.name}")
        _loaded = True
    return dict(_REGISTRY)


def diagnose_view(view: RunView, config: Mapping[str, Any] | None = None, *, live: bool = False) -> list[Finding]:
    """Run the whole catalog over an in-memory view; findings ranked most urgent first.
    ``config`` is shaped like ``doctor.toml``; its ``[metrics]`` table is applied to the view
    (``RunView.map_metrics``). Raises ``ConfigError`` for a bad config and ``UnknownMetric``
    for a mapped name the run does not have."""
    resolved = resolve_config(config)
    _, metrics = split_metrics(config)
    if metrics:
        view.map_metrics(metrics)
    chosen = [(sid, det, resolved[sid]) for sid, det in registry().items()
              if resolved[sid].get("enabled", True) and (live or not det.live_only) and not (live and det.offline_only)]
    found: list[Finding] = []
    # Live, the doctor runs inside (or beside) a training process: it takes no second core from it.
    outcomes = _run_detectors(view, chosen, 1 if live else _THREADS)
    for (sid, _, _), (result, error) in zip(chosen, outcomes, strict=True):
        if error is not None:  # one broken detector must not hide the others
            if os.environ.get("RLPROBE_DEBUG"):
                raise error
            warnings.warn(f"rlprobe: detector {sid} failed ({type(error).__name__}: {error}); skipped",
                          RuntimeWarning, stacklevel=2)
            continue
        if result is None:
            continue
        found.extend(result if isinstance(result, list) else [result])
    # The printed confidence means what it says: the share of such findings right on the labelled corpus.
    found = [f.model_copy(update={"confidence": calibrated(f.severity, f.confidence)}) for f in found]
    return rank_findings(found)


_Outcome = tuple["Finding | list[Finding] | None", "Exception | None"]


def _run_detectors(view: RunView, chosen: Sequence[tuple[str, Detector, Mapping[str, Any]]],
                   most: int) -> list[_Outcome]:
    """Each detector's result (or the exception it raised), in the order of ``chosen``. The
    detectors of one module (a family that reads the same curves, and so shares their rolling
    medians) run one after another in one thread, the families on as many threads as the machine
    has cores (at most ``most``): their work is Polars' and numpy's, which release the GIL, so
    two families run at once. The caches the detectors share (the view's facts and curves) are
    made before the threads start, so that none is made twice."""
    families: dict[str, list[int]] = {}
    for i, (_, det, _) in enumerate(chosen):
        families.setdefault(det.fn.__module__, []).append(i)
    # Larger families first, so that the last one to start is a small one.
    lanes = sorted(families.values(), key=len, reverse=True)
    outcomes: list[_Outcome] = [(None, None)] * len(chosen)

    def run(lane: list[int]) -> None:
        for i in lane:
            _, det, cfg = chosen[i]
            try:
                outcomes[i] = (det.fn(view, cfg), None)
            except Exception as exc:  # noqa: BLE001 - reported by the caller, in the catalog's order
                outcomes[i] = (None, exc)

    threads = min(len(lanes), most, _cores())
    if threads <= 1:
        for lane in lanes:
            run(lane)
        return outcomes
    from concurrent.futures import ThreadPoolExecutor

    from .facts.run import facts_of
    from .toolkit import logged

    facts_of(view), logged(view)  # the shared caches, made once
    with ThreadPoolExecutor(threads, thread_name_prefix="rlprobe-detector") as pool:
        list(pool.map(run, lanes))
    return outcomes


#: Threads the detectors run on, at most: two families at once use two cores, and the detectors'
#: Polars calls use its own threads besides.
_THREADS = 2


def _cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def diagnose(run_dir: str | os.PathLike[str], config_path: str | os.PathLike[str] | None = None,
             config: Mapping[str, Any] | None = None) -> list[Finding]:
    """Load a recording and run the whole catalog; findings ranked most urgent first.
    ``config`` (a dict) wins over ``config_path`` (a doctor.toml) where both set a key.
    Raises ``UnusableInput`` for a run with no steps recorded (``load_steps``)."""
    merged: dict[str, Any] = {}
    spelled: dict[str, str] = {}  # upper-case id → the user's spelling, for error messages
    for source in (load_config(config_path) if config_path else {}, config or {}):
        for section, values in source.items():
            key = spelled.setdefault(str(section).upper(), str(section))
            previous = merged.get(key, {})
            both_tables = isinstance(values, Mapping) and isinstance(previous, Mapping)
            merged[key] = {**previous, **values} if both_tables else values
    return diagnose_view(load_steps(run_dir, split_metrics(merged)[1]), merged)


def load_steps(run: str | os.PathLike[str], metrics: Mapping[str, str] | None = None) -> RunView:
    """``RunView.load(run, metrics)``, refusing a run with no steps recorded: a run that
    recorded nothing is not a healthy run, and an empty list of findings would say it is."""
    view = RunView.load(run, metrics)
    if view.n_steps == 0:
        raise UnusableInput(f"{run}: no steps recorded; nothing to diagnose")
    return view
