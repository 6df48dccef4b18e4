"""``rlprobe show``, ``rlprobe samples``, ``rlprobe diff``: looking closely at one step, at the
captured samples, and at what separates two runs. Tables fit the terminal; ``--json``
carries full text."""
from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import polars as pl

from ..catalog import diagnose_view
from ..config import metric_map, metric_options
from ..diff import RunDiff, diff_runs
from ..errors import UnusableInput
from ..findings import Finding
from ..forensics import SORT_KEYS, CapturedSamples, RunLike, metrics_around, sample_records
from ..view import RunView
from .output import RUN, metric_option, number, reads_logs, severity, shorten, style, table, terminal_width

#: Below this many columns for prompt and completion together, each goes on a line of its own.
MIN_TEXT_COLUMNS = 60
DEFAULT_WINDOW = 5


def _width() -> int:
    return max(40, terminal_width())


def _ends(text: Any, width: int) -> str:
    """One line of at most ``width`` characters keeping both ends: a completion's answer
    and a prompt's question sit at the end, how they open at the start."""
    flat = re.sub(r"[ \t]+", " ", shorten(text, 1 << 30)).strip()
    if len(flat) <= width:
        return flat
    tail = max(0, (width - 1) // 2)
    return shorten(flat, width - tail) + (flat[len(flat) - tail:] if tail else "")


def _percent(value: Any) -> str:
    return "—" if value is None else f"{100 * float(value):+.1f}%"


def _cell(value: Any, fmt: str) -> str:
    if value is None:
        return "—"
    return number(value) if fmt == "n" else f"{100 * value:.1f}%" if fmt == "%" else shorten(value, 16)


def sample_table(frame: pl.DataFrame, lead: Sequence[tuple[str, str, str]], width: int) -> str:
    """Samples as a table within ``width`` columns: the ``lead`` columns (header, column,
    format: ``n`` number, ``%`` share, ``s`` text), then prompt and completion, shortened
    keeping both ends. They share the width left as two more columns, or, when too little
    is left, each take a line of their own under the sample's row."""
    samples = list(frame.iter_rows(named=True))
    cells = [[_cell(row.get(column), fmt) for _, column, fmt in lead] for row in samples]
    headers = [h for h, _, _ in lead]
    align = "".join("l" if fmt == "s" else "r" for _, _, fmt in lead)
    fixed = sum(max([len(h)] + [len(r[i]) for r in cells]) + 2 for i, h in enumerate(headers))
    room = width - fixed - 2
    if room >= MIN_TEXT_COLUMNS:
        prompt_w = room * 2 // 5
        rows = [r + [_ends(s.get("prompt"), prompt_w), _ends(s.get("completion"), room - prompt_w)]
                for r, s in zip(cells, samples, strict=False)]
        return table(rows, headers + ["PROMPT", "COMPLETION"], align + "ll")
    lines = table(cells, headers, align).splitlines()
    out, indent = [lines[0]], "    "
    text_w = max(10, width - len(indent) - len("completion: "))
    for line, sample in zip(lines[1:], samples, strict=False):
        out += [line, f"{indent}prompt:     {_ends(sample.get('prompt'), text_w)}",
                f"{indent}completion: {_ends(sample.get('completion'), text_w)}"]
    return "\n".join(out)


def _echo_json(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=2, ensure_ascii=False))


# -- rlprobe show ----------------------------------------------------------------------------


@click.command("show")
@click.argument("run", type=RUN)
@click.option("--step", type=int, help="The step to look at (required).")
@click.option("--window", default=DEFAULT_WINDOW, show_default=True, type=int,
              help="Steps either side of --step that count as around it.")
@click.option("--max-samples", default=10, show_default=True, type=int, help="Captured samples to show.")
@click.option("--json", "as_json", is_flag=True, help="Everything as JSON, sample text in full.")
@metric_option
@reads_logs
def show(run: Path, step: int | None, window: int, max_samples: int, as_json: bool, metrics: tuple[str, ...]) -> None:
    """Show RUN around one step: metrics against the window before, events and findings
    near it, and the captured samples that drove the update (by |advantage|).

    \b
    Example:
      rlprobe show runs/my-run --step 412 --window 5
    """
    if step is None:
        raise UnusableInput("show needs the step to look at: rlprobe show RUN --step N")
    if window < 0 or max_samples < 1:
        raise UnusableInput("--window must be ≥ 0 and --max-samples ≥ 1")
    view = RunView.load(run, metric_map(metric_options(metrics)))
    around = metrics_around(view, step, window)
    start, end = int(view.step[0]), int(view.step[-1])
    first, last = step - window, step + window
    samples, ranked_by, note = _show_samples(view, step, window, max_samples)
    report = {
        "run": str(run), "step": step, "window": [max(start, first), min(end, last)],
        "before": [max(start, first - 2 * window - 1), first - 1] if first - 1 >= start else None,
        "run_steps": [start, end], "metrics": around.to_dicts(),
        "events": [e for e in view.events if isinstance(e.get("step"), int) and first <= e["step"] <= last],
        "findings": [f.model_dump(mode="json") for f in diagnose_view(view) if _near(f, first, last)],
        "samples_ranked_by": ranked_by, "samples_note": note, "samples": sample_records(samples),
    }
    if as_json:
        _echo_json(report)
    else:
        click.echo(render_show(report, around, samples, _width()))


def render_show(report: dict[str, Any], metrics: pl.DataFrame, samples: pl.DataFrame, width: int) -> str:
    """``show``'s report (its JSON) as terminal text within ``width`` columns."""
    def heading(text: str) -> str:
        return style(shorten(text, width), bold=True)

    (first, last), before, (start, end) = report["window"], report["before"], report["run_steps"]
    out = [heading(f"{report['run']} — step {report['step']}"),
           shorten(f"around: steps {first}–{last} · "
                   f"before: {f'steps {before[0]}–{before[1]}' if before else 'none (the run starts here)'} · "
                   f"run: steps {start}–{end}", width), ""]
    out += [_metrics_table(metrics, report["step"], width)]
    out += ["", heading(f"Events in steps {first}–{last}")]
    out += [shorten(f"  step {e['step']}  {e.get('kind')}: {e.get('message') or ''}", width)
            for e in report["events"]] or ["  none"]
    out += ["", heading(f"Findings active in steps {first}–{last}")]
    out += [f"  {severity(f['severity'])} " + shorten(f"{f['signature_id']} from step {f['first_step']} "
                                                      f"({f['confidence']:.0%}): {f['explanation']}",
                                                      width - len(f["severity"]) - 3)
            for f in report["findings"]] or ["  none"]
    by_advantage = report["samples_ranked_by"] == "advantage"
    title = ("by |advantage|, with share of Σ|A| over the window's captured samples" if by_advantage
             else "by reward (the samples record no advantage)")
    out += ["", heading(f"Samples {title}")]
    if report["samples_note"]:
        out += textwrap.wrap(report["samples_note"], width, initial_indent="  ", subsequent_indent="  ")
    else:
        lead = [("STEP", "step", "n"), ("ID", "sample_id", "s")]
        lead += [("SHARE", "share", "%"), ("ADV", "advantage", "n")] if by_advantage else []
        lead += [("REWARD", "reward", "n"), ("LEN", "length", "n")]
        out.append(sample_table(samples, lead, width))
    return "\n".join(out)


def _metrics_table(metrics: pl.DataFrame, step: int, width: int) -> str:
    """Metric names are shortened to whatever the number columns leave of ``width``."""
    numbers = [(number(r["at_step"]), number(r["window_mean"]), number(r["before_mean"]), _percent(r["change_rel"]),
                "—" if r["z"] is None else f"{r['z']:+.1f}") for r in metrics.iter_rows(named=True)]
    headers = ["METRIC", f"AT {step}", "AROUND", "BEFORE", "CHANGE", "Z"]
    used = sum(max([len(h)] + [len(row[i]) for row in numbers]) + 2 for i, h in enumerate(headers[1:]))
    name_w = max(10, width - used)
    rows = [(shorten(name, name_w), *row) for name, row in zip(metrics["metric"], numbers, strict=False)]
    return table(rows, headers, "lrrrrr")


def _near(finding: Finding, first: int, last: int) -> bool:
    """The finding began in the window or its evidence covers part of it."""
    if finding.first_step is not None and first <= finding.first_step <= last:
        return True
    return any(e.window[0] <= last and e.window[1] >= first for e in finding.evidence)


def _show_samples(view: RunView, step: int, window: int, k: int) -> tuple[pl.DataFrame, str, str | None]:
    """The samples ``show`` lists, what they are ranked by, and a note when there are none."""
    captured = CapturedSamples.open(view)
    empty = pl.DataFrame()
    if captured.captured == 0:
        return empty, "advantage", captured.why_none()
    try:
        frame, by = captured.drivers(step, window, k), "advantage"
    except UnusableInput:  # the samples carry no advantage: reward is the next best lens
        try:
            frame, by = captured.query("reward", step - window, step + window, k), "reward"
        except UnusableInput as exc:  # nor reward: the metrics and events above still stand
            return empty, "reward", str(exc)
    if frame.is_empty():
        return empty, by, _no_samples_between(captured, step - window, step + window)
    return frame, by, None


def _no_samples_between(captured: CapturedSamples, first: int, last: int, what: str = "") -> str:
    before, after = captured.nearest(first, last)
    near = [f"step {s}" for s in (before, after) if s is not None]
    hint = f"; the nearest captured: {' and '.join(near)}" if near else ""
    return f"no captured samples{what} in steps {first}–{last}{hint}"


# -- rlprobe samples -------------------------------------------------------------------------


@click.command("samples")
@click.argument("run", type=RUN)
@click.option("--sort", default="reward", show_default=True, metavar="|".join(SORT_KEYS),
              help="What to rank the captured samples by.")
@click.option("--around", type=int, help="Centre step; with --window K covers steps N-K..N+K.")
@click.option("--window", type=int, help=f"Steps either side of --around (default {DEFAULT_WINDOW}).")
@click.option("--from", "step_from", type=int, help="First step (inclusive).")
@click.option("--to", "step_to", type=int, help="Last step (inclusive).")
@click.option("--asc", is_flag=True, help="Lowest first (default: highest first).")
@click.option("-k", "k", default=10, show_default=True, type=int, help="How many samples.")
@click.option("--json", "as_json", is_flag=True, help="Samples as a JSON list, text in full.")
@reads_logs
def samples(run: Path, sort: str, around: int | None, window: int | None, step_from: int | None,
            step_to: int | None, asc: bool, k: int, as_json: bool) -> None:
    """Rank the captured samples of RUN by reward, advantage, kl, length or logprob.

    \b
    Examples:
      rlprobe samples runs/my-run --sort advantage --around 412 --window 3
      rlprobe samples runs/my-run --sort length --from 300 --to 400 -k 5
      rlprobe samples runs/my-run --sort reward --asc --json
    """
    if around is not None and (step_from is not None or step_to is not None):
        raise UnusableInput("use either --around N [--window K] or --from A --to B, not both")
    if window is not None and around is None:
        raise UnusableInput("--window goes with --around N (for a plain range use --from A --to B)")
    if around is not None:
        span = DEFAULT_WINDOW if window is None else window
        if span < 0:
            raise UnusableInput(f"--window must be ≥ 0, got {span}")
        step_from, step_to = around - span, around + span
    captured = CapturedSamples.open(run)
    if around is not None:
        captured.steps_within(step_from, step_to, around=around)
    found = captured.query(sort, step_from, step_to, k, asc)
    if as_json:
        _echo_json(sample_records(found))
        return
    first, last = captured.steps_within(step_from, step_to)
    if found.is_empty():
        click.echo(_no_samples_between(captured, first, last, f" with {sort}"))
        return
    order = "lowest" if asc else "highest"
    width = _width()
    click.echo(style(shorten(f"{run}: {found.height} captured sample(s) with the {order} {sort} "
                             f"in steps {first}–{last}", width), bold=True))
    lead = [("STEP", "step", "n"), ("ID", "sample_id", "s"), ("REWARD", "reward", "n"),
            ("ADV", "advantage", "n"), ("LEN", "length", "n")]
    if sort in ("kl", "logprob"):
        lead.append((sort.upper(), sort, "n"))
    click.echo(sample_table(found, lead, width))


# -- rlprobe diff ----------------------------------------------------------------------------


@click.command("diff")
@click.argument("run_a", type=RUN)
@click.argument("run_b", type=RUN)
@click.option("--json", "as_json", is_flag=True, help="The whole diff as JSON (stable, machine-readable).")
@click.option("--z-thresh", default=4.0, show_default=True, type=float,
              help="A metric diverges where the runs differ by this many times their step-to-step noise...")
@click.option("--sustain", default=5, show_default=True, type=int, help="...for this many steps in a row.")
@metric_option
@reads_logs
def diff(run_a: Path, run_b: Path, as_json: bool, z_thresh: float, sustain: int, metrics: tuple[str, ...]) -> None:
    """Compare RUN_B with RUN_A: trainer-config delta, the step each metric starts to
    diverge, and the prompts whose mean reward differs most.

    \b
    Example:
      rlprobe diff runs/baseline runs/lr-3e-6 --z-thresh 4 --sustain 5
    """
    pair: tuple[RunLike, RunLike] = (
        _mapped_pair(run_a, run_b, metric_map(metric_options(metrics))) if metrics else (run_a, run_b))
    result = diff_runs(*pair, z_thresh=z_thresh, sustain=sustain)
    if as_json:
        _echo_json(result.model_dump(mode="json"))
    else:
        click.echo(render_diff(result))


def _value(value: Any, width: int = 40) -> str:
    return shorten(json.dumps(value, ensure_ascii=False, default=str), width)


def _spans(spans: list[tuple[int, int]]) -> str:
    text = ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in spans[:6])
    return text + (f" (+{len(spans) - 6} more stretches)" if len(spans) > 6 else "")


def _mapped_pair(run_a: Path, run_b: Path, mapping: dict[str, str]) -> tuple[RunView, RunView]:
    """Both runs loaded, each reading the mapped names it logged (two loops may name a
    quantity differently: ``--metric reward=average_reward`` for one, ``reward`` in the other);
    a name neither run has is an error."""
    views = RunView.load(run_a), RunView.load(run_b)
    for column, name in mapping.items():
        if not any(name in view.steps.columns for view in views):
            raise UnusableInput(f"neither run has a metric {name!r} to read as {column}")
    for view in views:
        view.map_metrics({column: name for column, name in mapping.items() if name in view.steps.columns})
    return views


def render_diff(d: RunDiff, max_prompts: int = 10) -> str:
    """A diff as readable terminal text; the ``max_prompts`` largest prompt gaps are listed
    (``--json`` has them all)."""
    width = _width()
    names = [f"{r.path or r.run_id}" + (f" ({r.run_id})" if r.run_id and r.path else "") for r in (d.run_a, d.run_b)]
    out = [style(shorten(f"A = {names[0]}", width), bold=True), style(shorten(f"B = {names[1]}", width), bold=True)]
    if not d.differs:
        out.append(f"no differences: same trainer config, steps and metrics; no metric diverges "
                   f"(|B−A| > {d.z_thresh:g}σ for {d.sustain} steps) and no prompt's mean reward differs.")
        return "\n".join(out)
    common = (f"steps {d.common_steps[0]}–{d.common_steps[1]} ({d.n_common_steps} in both)" if d.common_steps
              else "no step in common")
    out.append(common)
    for side, spans in (("A", d.steps_only_in_a), ("B", d.steps_only_in_b)):
        if spans:
            out.append(f"steps only in {side}: {_spans(spans)}")
    for side, metrics in (("A", d.metrics_only_in_a), ("B", d.metrics_only_in_b)):
        if metrics:
            out.append(shorten(f"metrics only in {side} ({len(metrics)}): {', '.join(metrics)}", width))
    out += ["", style("Config (flattened trainer_config)", bold=True)]
    delta = d.config
    lines = ([f"  ~ {k}: {_value(a, width // 3)} → {_value(b, width // 3)}" for k, (a, b) in delta.changed.items()]
             + [f"  + {k}: {_value(v, width // 2)}  (only B)" for k, v in delta.added.items()]
             + [f"  - {k}: {_value(v, width // 2)}  (only A)" for k, v in delta.removed.items()])
    out += [shorten(line, width) for line in lines] or ["  identical"]
    out += ["", style(f"Divergence (first step with |B−A| > {d.z_thresh:g}σ for {d.sustain} steps in a row)",
                      bold=True)]
    if d.divergences:
        out.append(table([(shorten(v.metric, max(12, width - 60)), v.step, number(v.a), number(v.b), number(v.delta),
                           number(v.noise), "—" if v.z is None else f"{v.z:.1f}") for v in d.divergences],
                         ["METRIC", "STEP", "A", "B", "B−A", "NOISE σ", "Z"], "lrrrrrr"))
    else:
        out.append("  no metric diverges")
    out += ["", style(f"Prompt gaps (mean reward B−A, prompts captured in both; {len(d.prompt_gaps)} differ)",
                      bold=True)]
    if d.prompt_gaps:
        rows = [(shorten(g.prompt_id, 16), g.n_a, g.n_b, number(g.reward_a), number(g.reward_b), f"{g.gap:+.3g}")
                for g in d.prompt_gaps[:max_prompts]]
        room = max(20, width - max(len(r[0]) for r in rows) - 40)
        out.append(table([r + (_ends(g.prompt, room),) for r, g in zip(rows, d.prompt_gaps, strict=False)],
                         ["PROMPT ID", "N A", "N B", "A", "B", "GAP", "PROMPT"], "lrrrrrl"))
    else:
        out.append("  none")
    return "\n".join(out)


COMMANDS = [show, samples, diff]
