"""Score the doctor on every labelled run it is tested on, in one command (``make validate``).

    .venv/bin/python bench/validate.py            # print the scores, the false criticals, the reliability table
    .venv/bin/python bench/validate.py --write    # and rewrite that section of docs/validation.md

The labelled runs (what an engineer says each must and must not draw) are ``tests/doctor/labels.py``:
the corpus of real TRL runs, the published runs of ``../shared/realworld-logs``, the synthetic matrix
and the simulator, each split into tune and holdout; cut-offs are chosen on tune, the holdout score is
the one to quote.

It prints, and ``--write`` puts between the ``validate`` markers of docs/validation.md:

1. the score per source and half;
2. the **false criticals**: critical findings on runs labelled healthy (the count must be 0), and
   every critical that its run's label does not allow;
3. the **reliability table** of the printed confidence: for warn and critical findings whose
   signature the run's label speaks to, the share that were right, per bin of printed confidence.
   A finding is right when its run's label expects or accepts that signature at that severity.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "tests" / "doctor", ROOT / "tests" / "realruns", ROOT / "tests" / "sources"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import snapshot  # noqa: E402
from labels import CORRECTIONS, LOUD, Found, Label, labels  # noqa: E402

from rlprobe.doctor.toolkit.confidence import UNCALIBRATED_ENV, calibrated  # noqa: E402

DOC = ROOT / "docs" / "validation.md"
START, END = "<!-- validate:start -->", "<!-- validate:end -->"
#: Bins of printed confidence for the reliability table (lower edges; the last bin is closed).
BINS = (0.5, 0.6, 0.7, 0.8, 0.9)


# -- scoring ----------------------------------------------------------------------------------------------


@dataclass
class Scores:
    right: dict[tuple[str, str], int] = field(default_factory=dict)
    total: dict[tuple[str, str], int] = field(default_factory=dict)
    false_criticals: list[str] = field(default_factory=list)
    """Critical findings on runs labelled healthy."""
    disallowed_criticals: list[str] = field(default_factory=list)
    """Critical findings that a pathological run's label does not allow at critical."""
    wrong: list[str] = field(default_factory=list)
    calibration: list[tuple[str, float, bool]] = field(default_factory=list)
    """(severity, printed confidence, right) for every warn/critical finding a label speaks to."""
    realworld_rows: list[str] = field(default_factory=list)
    blind: list[bool] = field(default_factory=list)
    """The verdicts on the published runs labelled blind (``expect.json``)."""


def score(findings: dict[str, list[Found]], labelled: dict[str, Label]) -> Scores:
    out = Scores()
    for name in sorted(labelled):
        label, found = labelled[name], findings[name]
        source = name.split("/", 1)[0]
        ok, note = label.judge(found)  # type: ignore[operator]
        key = (source, label.half)
        out.right[key] = out.right.get(key, 0) + ok
        out.total[key] = out.total.get(key, 0) + 1
        if not ok:
            out.wrong.append(f"{name} ({label.half}): {note}")
        for f in found:
            if f.severity != "critical":
                continue
            if label.healthy and "critical" not in label.allowed.get(f.signature_id, ()):
                out.false_criticals.append(f"{name}: {f.signature_id} from step {f.first_step}")
            elif not label.healthy and f.signature_id in label.allowed and \
                    "critical" not in label.allowed[f.signature_id]:
                out.disallowed_criticals.append(f"{name}: {f.signature_id} from step {f.first_step}")
        for f in found:
            # Matrix pathologies label one signature only: their other findings say nothing either way.
            speaks = label.healthy or f.signature_id in label.allowed or source != "matrix"
            if f.severity in LOUD and speaks:
                out.calibration.append((f.severity, f.confidence,
                                        f.severity in label.allowed.get(f.signature_id, ())))
        if label.blind:
            out.blind.append(ok)
        if source == "realworld":
            loud = "; ".join(f"{f.signature_id} {f.severity} @{f.first_step}" for f in found if f.severity in LOUD)
            out.realworld_rows.append(f"| {label.half} | `{name.split('/', 1)[1]}` | "
                                      f"{'healthy' if label.healthy else 'pathological'} | {loud or 'nothing'} | "
                                      f"{'✅' if ok else '❌ ' + note.replace('|', '/')} |")
    return out


def reliability(calibration: list[tuple[str, float, bool]]) -> list[str]:
    rows = ["| severity | printed confidence | findings | mean printed | observed right | gap (points) |",
            "|---|---|---|---|---|---|"]
    for severity in LOUD:
        for lo, hi in zip(BINS, (*BINS[1:], 1.01), strict=True):
            inside = [(c, r) for s, c, r in calibration if s == severity and lo <= c < hi]
            if not inside:
                continue
            printed = sum(c for c, _ in inside) / len(inside)
            observed = sum(r for _, r in inside) / len(inside)
            gap = f"{100 * (observed - printed):+.0f}{'' if len(inside) >= 10 else ' (few)'}"
            rows.append(f"| {severity} | {lo:.1f}–{min(hi, 1.0):.1f} | {len(inside)} | {printed:.0%} | "
                        f"{observed:.0%} | {gap} |")
    return rows


def report(scores: Scores, commit: str) -> str:
    sources = sorted({source for source, _ in scores.total})
    lines = [START, f"Generated by `make validate` (`bench/validate.py`) on `{commit}`, "
             f"{time.strftime('%Y-%m-%d', time.gmtime())}.", "",
             "| source | tune | holdout |", "|---|---|---|"]
    for source in sources:
        cells = []
        for half in ("tune", "holdout"):
            right, total = scores.right.get((source, half), 0), scores.total.get((source, half), 0)
            cells.append(f"{right}/{total} ({100 * right / max(total, 1):.0f} %)" if total else "—")
        lines.append(f"| {source} | {cells[0]} | {cells[1]} |")
    lines += ["", f"**Published runs labelled blind (`expect.json`): {sum(scores.blind)}/{len(scores.blind)} right.**",
              "", f"**False criticals on healthy runs: {len(scores.false_criticals)}.**"
              + ("" if not scores.false_criticals else " " + "; ".join(scores.false_criticals)), "",
              f"Criticals a pathological run's label allows only at warn or info: {len(scores.disallowed_criticals)}"
              + ("." if not scores.disallowed_criticals else ": " + "; ".join(scores.disallowed_criticals) + "."),
              "", "Published runs (`../shared/realworld-logs`), warn and above:", "",
              *[f"- Label corrected, `{name}`: {why}." for name, (_, why) in sorted(CORRECTIONS.items())], "",
              "| half | run | label | doctor (warn+; first step) | verdict |", "|---|---|---|---|---|",
              *scores.realworld_rows, "",
              "Reliability of the printed confidence (warn and critical findings whose signature the run's label "
              "speaks to; right = the label expects or accepts it at that severity):", "",
              *reliability(scores.calibration), "",
              "Wrong verdicts:", "", *([f"- {w}" for w in scores.wrong] or ["- none"]), END]
    return "\n".join(lines)


# -- calibration ------------------------------------------------------------------------------------------

CALIBRATION = ROOT / "packages" / "rlprobe-doctor" / "src" / "rlprobe" / "doctor" / "toolkit" / "calibration.py"
#: Raw-confidence bins the calibration is fitted in (lower edges).
FIT_BINS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9)


def fit(calibration: list[tuple[str, float, bool]]) -> dict[str, list[tuple[float, float]]]:
    """Per severity, (bin's lower edge, smoothed share right), non-decreasing (pool-adjacent-violators,
    weighted by the findings in each bin); bins without findings are left out."""
    table: dict[str, list[tuple[float, float]]] = {}
    for severity in LOUD:
        blocks = []  # [lower, right, n]
        for lo, hi in zip(FIT_BINS, (*FIT_BINS[1:], 1.01), strict=True):
            inside = [r for s, c, r in calibration if s == severity and lo <= c < hi]
            if inside:
                blocks.append([lo, sum(inside), len(inside)])
        def share(block: list) -> float:
            return (block[1] + 1) / (block[2] + 2)
        pooled: list[list] = []
        for block in blocks:
            pooled.append([block[0], block[1], block[2], [block[0]]])
            while len(pooled) > 1 and share(pooled[-2]) > share(pooled[-1]):
                last = pooled.pop()
                pooled[-1][1] += last[1]
                pooled[-1][2] += last[2]
                pooled[-1][3] += last[3]
        table[severity] = [(edge, round((right + 1) / (n + 2), 3)) for _, right, n, edges in pooled for edge in edges]
    return table


def write_calibration(table: dict[str, list[tuple[float, float]]], commit: str, findings: int) -> None:
    text = CALIBRATION.read_text("utf-8").split("RELIABILITY:", 1)[0]
    body = "".join(f"    {severity!r}: ({', '.join(f'({lo}, {share})' for lo, share in steps)},),\n"
                   for severity, steps in table.items() if steps)
    CALIBRATION.write_text(text + f"RELIABILITY: dict[str, tuple[tuple[float, float], ...]] = {{\n{body}}}\n"
                           f"#: Fitted on {findings} findings of the tune half, doctor {commit}.\n")


def apply(raw: dict[str, list[list]], table: dict[str, list[tuple[float, float]]]) -> dict[str, list[list]]:
    """The findings with their confidence as the new table would print it."""
    return {name: [[f[0], f[1], f[2], calibrated(f[1], f[3], table) if isinstance(f[3], float) else f[3]]
                   for f in entry] for name, entry in raw.items()}


def _commit() -> str:
    import subprocess

    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "packages/rlprobe-doctor"], cwd=ROOT,
                           capture_output=True, text=True)
    return (head.stdout.strip() or "unknown") + ("+changes" if dirty.stdout.strip() else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the validate section of docs/validation.md")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--only", default="", help="comma-separated sources (realruns, realworld, matrix, sim)")
    parser.add_argument("--fit", action="store_true",
                        help="fit the confidence calibration on the tune half (on uncalibrated findings) and write it")
    parser.add_argument("--cache", type=Path, default=None,
                        help="read the findings from this JSON file if it exists, else compute and write it")
    options = parser.parse_args(argv)
    if options.fit:
        os.environ[UNCALIBRATED_ENV] = "1"  # the workers inherit it: the detectors' own confidences
    if options.cache is not None and options.cache.exists():
        raw = json.loads(options.cache.read_text())
    else:
        raw = snapshot.compute(options.workers)
        if options.cache is not None:
            options.cache.write_text(json.dumps(raw))
    if options.only:
        keep = tuple(f"{s}/" for s in options.only.split(","))
        raw = {name: entry for name, entry in raw.items() if name.startswith(keep)}
    findings = {name: [Found(*f) for f in entry] for name, entry in raw.items()}
    labelled = labels(findings)
    if options.fit:
        tune = score({n: f for n, f in findings.items() if n in labelled and labelled[n].half == "tune"},
                     {n: label for n, label in labelled.items() if label.half == "tune"})
        table = fit(tune.calibration)
        write_calibration(table, _commit(), len(tune.calibration))
        print(f"wrote {CALIBRATION}", file=sys.stderr)
        findings = {name: [Found(*f) for f in entry] for name, entry in apply(raw, table).items()}
    text = report(score(findings, labelled), _commit())
    print(text)
    if options.write:
        doc = DOC.read_text("utf-8")
        if START not in doc:
            raise SystemExit(f"{DOC}: no {START} marker")
        head, rest = doc.split(START, 1)
        DOC.write_text(head + text + rest.split(END, 1)[1])
        print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
