"""Refresh the corpus tables of ``docs/validation.md`` from the fixtures and today's doctor.

    python tests/realruns/validation.py

Rewrites what lies between the ``corpus-table`` markers: per scenario its shape, mechanism,
the onsets established from the raw ``log_history`` (by the rules of ``corpus.py``), what
``rlprobe doctor`` reports on the recording now (warn and critical findings, with their first
step), and the verdict.
"""
from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from corpus import SCENARIOS, verdict  # noqa: E402

DOC = HERE.parents[1] / "docs" / "validation.md"
#: The batches written and trained after the detectors they judge (``Scenario.batch``).
FRESH_BATCHES = (36, 37, 38, 39)
START, END = "<!-- corpus-table:start -->", "<!-- corpus-table:end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _commit() -> str:
    """HEAD, marked ``+changes`` when the doctor's sources differ from it."""
    root = HERE.parents[1]
    run = functools.partial(subprocess.run, cwd=root, capture_output=True, text=True)
    head = run(["git", "rev-parse", "--short", "HEAD"]).stdout.strip() or "unknown"
    dirty = run(["git", "status", "--porcelain", "--", "packages/rlprobe-doctor"]).stdout.strip()
    return head + ("+changes" if dirty else "")


def tables() -> str:
    from rlprobe.doctor import diagnose

    rows = ["| half | batch | scenario | run | mechanism | onset from the raw log | doctor now (warn+; first step) "
            "| verdict |", "|---|---|---|---|---|---|---|---|"]
    rules = ["| scenario | signature | onset rule (on `log_history.json.gz`) | tolerance |", "|---|---|---|---|"]
    right: dict[str, int] = {"tune": 0, "holdout": 0, "fresh": 0}
    total: dict[str, int] = {"tune": 0, "holdout": 0, "fresh": 0}
    for scenario in sorted(SCENARIOS, key=lambda s: (s.half != "holdout", SCENARIOS.index(s))):
        onsets = scenario.onsets()
        findings = diagnose(scenario.judged())
        loud = [f"{f.signature_id} {f.severity[:4]} @{f.first_step}" for f in findings
                if f.severity in ("warn", "critical")]
        mild = [f"{f.signature_id} {f.severity} @{f.first_step}" for f in findings
                if f.signature_id in scenario.mild and f.severity == "info"]
        ok, note = verdict(scenario, onsets, findings)
        right[scenario.half] += ok
        total[scenario.half] += 1
        if scenario.batch in FRESH_BATCHES and scenario.half == "holdout":
            right["fresh"] += ok
            total["fresh"] += 1
        onset_text = "healthy" if scenario.healthy else ", ".join(
            f"{sig}{' (mild)' if sig in scenario.mild else ''} @{step}" for sig, step in onsets.items())
        rows.append(f"| {scenario.half} | {scenario.batch} | `{scenario.name}` | {_cell(scenario.shape())} | "
                    f"{_cell(scenario.mechanism)} | "
                    f"{onset_text} | {_cell('; '.join(loud + mild) or 'nothing')} | {'✅' if ok else '❌'} "
                    f"{_cell(note)} |")
        for signature, rule in {**scenario.expect, **scenario.mild}.items():
            rules.append(f"| `{scenario.name}` | {signature} | {_cell(rule.text)} | ±{scenario.tolerance} |")
    score = {half: f"{right[half]} of {total[half]} ({100 * right[half] / max(total[half], 1):.0f}%)"
             for half in right}
    fresh = ", ".join(map(str, FRESH_BATCHES))
    head = (f"**Holdout: {score['holdout']} judged right (of them the fresh batches {fresh}: {score['fresh']}). "
            f"Tune: {score['tune']}.** "
            f"Refreshed {time.strftime('%Y-%m-%d', time.gmtime())} on `{_commit()}`.\n")
    return "\n".join([START, head, *rows, "", "Onset rules:", "", *rules, END])


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    text = DOC.read_text()
    before, _, rest = text.partition(START)
    _, _, after = rest.partition(END)
    DOC.write_text(before + tables() + after)
    return 0


if __name__ == "__main__":
    sys.exit(main())
