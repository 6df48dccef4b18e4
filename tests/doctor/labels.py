"""What every run the doctor is tested on must and may draw: the labels ``bench/validate.py`` scores
the doctor against, and ``tests/sources/test_realworld_logs.py`` pins the published runs by.

- ``realruns``: the corpus of real TRL runs (``tests/realruns/corpus.py``: healthy or the signatures
  expected, each dated by a rule on the raw log), judged by ``corpus.verdict``;
- ``realworld``: the published runs of ``../shared/realworld-logs`` that carry an ``expect.json``
  (one engineer's blind reading: ``calm``, ``detect`` or ``noted``; ``CORRECTIONS`` where the raw
  log shows the label wrong), and the published runs judged in docs/validation.md (``VERDICTS``
  of ``test_realworld_logs.py``) that carry none;
- ``matrix``: the synthetic matrix (a pathology must draw its own signature at warn or above; a
  healthy run nothing at warn or above);
- ``sim``: the numpy simulator's runs (``tests/doctor/test_independent_runs.py``).

Each source is split into a tune and a holdout half by a seeded hash of the case's name (the corpus
keeps its own ``Scenario.half``).
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

TESTS = Path(__file__).resolve().parents[1]
for folder in (TESTS / "doctor", TESTS / "realruns", TESTS / "sources"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

#: The seed of the tune/holdout split of the published runs, fixed before any of them was scored.
REALWORLD_SPLIT_SEED = "rlprobe-realworld-split-1"
LOUD = ("warn", "critical")
#: Published labels that the raw log (and the label's own JUDGEMENT.md) shows to be wrong: folder →
#: (signature → severities it is right at, the numbers that say so). Printed with the scores.
CORRECTIONS: dict[str, tuple[dict[str, tuple[str, ...]], str]] = {
    "nipsgrpo-adabalance-s42-loop": (
        {"ZERO_ADVANTAGE_GROUPS": LOUD},
        "expect.json allows no ZERO_ADVANTAGE_GROUPS, but its JUDGEMENT.md lists it under what a tool SHOULD report, "
        "and the raw log agrees: frac_reward_zero_std 1.0 and grad_norm exactly 0 at every log from step 85 to 200, "
        "with the reward at 0 (0.05-0.1 at three logs)"),
    "nipsgrpo-rho1-s42-entropy-collapse": (
        {"ZERO_ADVANTAGE_GROUPS": LOUD, "LOGPROB_MISMATCH": LOUD},
        "expect.json allows neither, but its JUDGEMENT.md lists both under what a tool SHOULD report, and the raw log "
        "agrees: frac_reward_zero_std 1.0 with grad_norm exactly 0 from step 150 (reward 0-0.025), and the mean "
        "importance-sampling ratio 0.028 at step 140 and 1e-7 to 1e-2 from 160 (sampling_logp_difference 30x its "
        "healthy level)"),
}
#: ``expect.json`` names a signature the catalog lacks as ``NEW``: any id outside catalog v1 counts for it.
NEW = "NEW"


class Found(NamedTuple):
    signature_id: str
    severity: str
    first_step: int | None
    confidence: float


@dataclass
class Label:
    """What a run must and may draw."""

    healthy: bool
    half: str
    allowed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """signature → the severities at which it is right on this run (warn or critical)."""
    judge: object = None
    """``(findings) -> (right, note)``: the run's whole verdict."""
    blind: bool = False
    """A published run's ``expect.json``: one engineer's blind reading, written before any tool ran on it."""


def _split(name: str, seed: str = REALWORLD_SPLIT_SEED) -> str:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "holdout"


def _healthy_judge(accepted: Iterable[str] = ()) -> object:
    allowed = set(accepted)

    def judge(findings: list[Found]) -> tuple[bool, str]:
        alarms = [f for f in findings if f.severity in LOUD and f.signature_id not in allowed]
        return (not alarms, "; ".join(f"{f.signature_id} {f.severity}" for f in alarms) or "right")
    return judge




def _corpus_labels() -> dict[str, Label]:
    from corpus import SCENARIOS, verdict

    out = {}
    for scenario in SCENARIOS:
        allowed: dict[str, tuple[str, ...]] = {sig: LOUD for sig in (*scenario.expect, *scenario.accepted)}
        allowed.update({sig: ("warn",) for sig in scenario.mild})

        def judge(findings: list[Found], scenario=scenario) -> tuple[bool, str]:
            return verdict(scenario, scenario.onsets(), findings)
        out[f"realruns/{scenario.name}"] = Label(scenario.healthy, scenario.half, allowed, judge)
    return out


def _realworld_labels() -> dict[str, Label]:
    from sourcekit import REALWORLD
    from test_realworld_logs import VERDICTS

    out = {}
    if not REALWORLD.is_dir():
        return out
    for folder in sorted(p for p in REALWORLD.iterdir() if p.is_dir()):
        name, half = f"realworld/{folder.name}", _split(folder.name)
        if (folder / "expect.json").is_file():
            out[name] = _expect_label(json.loads((folder / "expect.json").read_text("utf-8")), half,
                                      CORRECTIONS.get(folder.name, ({}, ""))[0])
        elif folder.name in VERDICTS:
            pins = VERDICTS[folder.name]
            out[name] = Label(not pins, half, {sig: (sev,) for sig, sev in pins.items()},
                              _pinned_judge(pins))
    return out


def _pinned_judge(pins: dict[str, str]) -> object:
    def judge(findings: list[Found]) -> tuple[bool, str]:
        loud = {f.signature_id: f.severity for f in findings if f.severity in LOUD}
        return loud == pins, "right" if loud == pins else f"pinned {pins}, found {loud}"
    return judge


def _expect_label(expect: dict, half: str, corrected: dict[str, tuple[str, ...]]) -> Label:
    """A published run's ``expect.json``: ``calm`` (nothing critical; warn only for
    ``allowed_warn``), ``detect`` (one of ``ids`` at warn or above by ``max_first_step``) or
    ``noted`` (one of ``ids`` at any severity, nothing critical); ``corrected`` (``CORRECTIONS``)
    allows more."""
    from rlprobe.doctor.catalog import CATALOG_V1

    kind, ids, allowed_warn = expect["kind"], tuple(expect["ids"]), tuple(expect["allowed_warn"])
    latest = expect.get("max_first_step")
    allowed: dict[str, tuple[str, ...]] = {sig: ("warn",) for sig in allowed_warn}
    if kind == "detect":
        allowed.update({sig: LOUD for sig in ids})
    elif kind == "noted":
        allowed.update({sig: ("warn",) for sig in ids})
    allowed.update(corrected)

    def named(signature: str) -> bool:
        return signature in ids or (NEW in ids and signature not in CATALOG_V1)

    def judge(findings: list[Found]) -> tuple[bool, str]:
        problems = [f"{f.signature_id} {f.severity}" for f in findings
                    if f.severity in LOUD and f.severity not in allowed.get(f.signature_id, ())
                    and not (kind == "detect" and named(f.signature_id))]
        if kind == "detect":
            hits = [f for f in findings if named(f.signature_id) and f.severity in LOUD
                    and (latest is None or (f.first_step is not None and f.first_step <= latest))]
            if not hits:
                problems.append(f"none of {', '.join(ids)} at warn+ by step {latest}")
        elif kind == "noted" and not any(named(f.signature_id) for f in findings):
            problems.append(f"none of {', '.join(ids)} noted")
        return not problems, "; ".join(problems) or "right"
    return Label(kind == "calm", half, allowed, judge, blind=True)


def _matrix_labels(names: Iterable[str]) -> dict[str, Label]:
    out = {}
    for name in names:
        case = name.split("/", 1)[1]
        if case.startswith("healthy-"):
            out[name] = Label(True, _split(case), {}, _healthy_judge())
            continue
        signature = re.sub(r"-\d+-s\d+$", "", case).upper()

        def judge(findings: list[Found], signature=signature) -> tuple[bool, str]:
            ok = any(f.signature_id == signature and f.severity in LOUD for f in findings)
            return ok, "right" if ok else f"{signature} missing at warn+"
        # Other findings on a pathology's run are not labelled: the matrix names one signature.
        out[name] = Label(False, _split(case), {signature: LOUD}, judge)
    return out


def _sim_labels(names: Iterable[str]) -> dict[str, Label]:
    from test_independent_runs import CASES, TRL_LIKE

    out = {}
    for name in names:
        case = name.split("/", 1)[1]
        if case.startswith(("healthy-", "saturates-")) or case == "trl-like-healthy":
            # A saturated run without a KL anchor degenerates into repetition: that alarm is right.
            accepted = ("REPETITIVE_COMPLETIONS",) if case.startswith("saturates-") else ()
            out[name] = Label(True, _split(case), {sig: LOUD for sig in accepted}, _healthy_judge(accepted))
            continue
        if case.startswith("trl-like-"):
            _, causes, accepted_why = TRL_LIKE[case.removeprefix("trl-like-")]
            signature, allowed_ids = next(iter(causes)), set(causes) | set(accepted_why)
        else:
            mechanism = CASES[re.sub(r"-s\d+$", "", case)]
            signature = mechanism.signature
            allowed_ids = {signature, *mechanism.root_cause, *mechanism.accepted}

        def judge(findings: list[Found], signature=signature, allowed_ids=allowed_ids) -> tuple[bool, str]:
            missing = not any(f.signature_id == signature and f.severity in LOUD for f in findings)
            stray = sorted({f.signature_id for f in findings if f.severity in LOUD} - allowed_ids)
            problems = ([f"{signature} missing at warn+"] if missing else []) + [f"unexpected {s}" for s in stray]
            return not problems, "; ".join(problems) or "right"
        out[name] = Label(False, _split(case), {sig: LOUD for sig in allowed_ids}, judge)
    return out


def labels(names: Iterable[str]) -> dict[str, Label]:
    names = list(names)
    out = {**_corpus_labels(), **_realworld_labels()}
    out.update(_matrix_labels(n for n in names if n.startswith("matrix/")))
    out.update(_sim_labels(n for n in names if n.startswith("sim/")))
    return {name: label for name, label in out.items() if name in names}


