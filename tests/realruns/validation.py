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

from corpus import FIXTURES, SCENARIOS, Scenario  # noqa: E402

DOC = HERE.parents[1] / "docs" / "validation.md"
START, END = "<!-- corpus-table:start -->", "<!-- corpus-table:end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def verdict(scenario: Scenario, onsets: dict[str, int | None], findings: list) -> tuple[bool, str]:
    """(right, what is wrong) for one scenario's findings."""
    loud = [f for f in findings if f.severity in ("warn", "critical")]
    if scenario.healthy:
        if not loud:
            return True, "silent at warn+"
        return False, "false alarm: " + ", ".join(f"{f.signature_id} ({f.severity})" for f in loud)
    problems = []
    for signature, onset in onsets.items():
        ours = [f for f in loud if f.signature_id == signature]
        if not ours:
            lower = [f for f in findings if f.signature_id == signature]
            problems.append(f"{signature} only at {lower[0].severity}" if lower else f"{signature} missing")
        elif ours[0].first_step is None or onset is None or abs(ours[0].first_step - onset) > scenario.tolerance:
            problems.append(f"{signature} dated {ours[0].first_step}, onset {onset} (±{scenario.tolerance})")
    allowed = set(onsets) | set(scenario.accepted)
    extra = sorted({f.signature_id for f in loud} - allowed)
    if extra:
        problems.append("unexpected: " + ", ".join(extra))
    return not problems, "; ".join(problems) or "right"


def _commit() -> str:
    """HEAD, marked ``+changes`` when the doctor's sources differ from it."""
    root = HERE.parents[1]
    run = functools.partial(subprocess.run, cwd=root, capture_output=True, text=True)
    head = run(["git", "rev-parse", "--short", "HEAD"]).stdout.strip() or "unknown"
    dirty = run(["git", "status", "--porcelain", "--", "packages/rlprobe-doctor"]).stdout.strip()
    return head + ("+changes" if dirty else "")


def tables() -> str:
    from rlprobe.doctor import diagnose

    rows = ["| scenario | run | mechanism | onset from the raw log | doctor now (warn+; first step) | verdict |",
            "|---|---|---|---|---|---|"]
    rules = ["| scenario | signature | onset rule (on `log_history.json`) | tolerance |", "|---|---|---|---|"]
    right = 0
    for scenario in SCENARIOS:
        onsets = scenario.onsets()
        findings = diagnose(FIXTURES / scenario.name / "run")
        loud = [f"{f.signature_id} {f.severity[:4]} @{f.first_step}" for f in findings
                if f.severity in ("warn", "critical")]
        ok, note = verdict(scenario, onsets, findings)
        right += ok
        onset_text = "healthy" if scenario.healthy else ", ".join(f"{sig} @{step}" for sig, step in onsets.items())
        rows.append(f"| `{scenario.name}` | {_cell(scenario.shape())} | {_cell(scenario.mechanism)} | "
                    f"{onset_text} | {_cell('; '.join(loud) or 'nothing')} | {'✅' if ok else '❌'} "
                    f"{_cell(note)} |")
        for signature, rule in scenario.expect.items():
            rules.append(f"| `{scenario.name}` | {signature} | {_cell(rule.text)} | ±{scenario.tolerance} |")
    head = (f"**{right} of {len(SCENARIOS)} scenarios judged right** by the doctor at this refresh "
            f"({time.strftime('%Y-%m-%d', time.gmtime())}, on `{_commit()}`).\n")
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
