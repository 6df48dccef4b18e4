"""``rlprobe import``: a foreign log (TRL output_dir, console log, TensorBoard, ...) written
as an rlprobe recording; and what ``rlprobe ls`` prints for a foreign source."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..config import metric_map, metric_options
from ..errors import UnusableInput
from ..sources import SourceError, import_source, list_source_runs, resolve
from .output import looks_killed, metric_option, reads_logs, table


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@metric_option
@reads_logs
def import_(source: Path, out_dir: Path, metrics: tuple[str, ...]) -> None:
    """Read SOURCE, a log rlprobe did not record, and write it to OUT_DIR as an rlprobe
    recording (importing again replaces OUT_DIR). SOURCE is recognised by its content: a
    TRL/HF Trainer output_dir, checkpoint-N/ or trainer_state.json, a JSON list of Trainer
    log dicts, a training job's console output (Trainer dicts or verl step lines), and the
    other formats `rlprobe ls` and docs/sources.md name. One run of several: SOURCE#NAME.

    Every command also takes SOURCE directly; importing makes later reads fast. With
    --metric QUANTITY=NAME the recording holds a loop's own NAME as QUANTITY.

    \b
    Example:
      rlprobe import outputs/grpo-run runs/grpo-run
      rlprobe doctor runs/grpo-run
    """
    resolved = resolve(source)
    if resolved is None:
        raise UnusableInput(f"{source}: is already an rlprobe recording; nothing to import")
    if out_dir.resolve() == resolved.path.resolve() or resolved.path.resolve() in out_dir.resolve().parents:
        raise UnusableInput(f"{out_dir}: would overwrite the source; choose another OUT_DIR")
    written = import_source(resolved, out_dir, metric_map(metric_options(metrics)))
    click.echo(f"imported {resolved.format} source {source} → {written}")


def ls_source(root: Path, as_json: bool) -> bool:
    """Print the runs a foreign source holds; False when ``root`` is no foreign source."""
    try:
        source, names = list_source_runs(root)
    except UnusableInput:
        if root.is_dir():
            return False  # a folder of recordings (or nothing): `ls` lists it as before
        raise
    if source is None:
        return False
    rows: list[dict[str, Any]] = [{"name": name, "address": f"{root}#{name}"} for name in names] or \
        [{"name": None, "address": str(root)}]
    status = source.reader.status  # None: the format cannot tell a live run from a killed one
    if status is not None:
        for row in rows:
            try:
                row["status"], heartbeat = status(root, row["name"])
            except SourceError:  # the run's log cannot be read: one run's damage hides no other
                row["status"], heartbeat = "unreadable", None
            row["killed"] = looks_killed(row["status"], heartbeat)
    if as_json:
        click.echo(json.dumps({"format": source.format, "runs": rows}, indent=2))
    else:
        shown = [(r["name"] or "(single run)",) + (("killed?" if r["killed"] else r["status"],) if status else ())
                 + (r["address"],) for r in rows]
        click.echo(table(shown, ["RUN"] + ["STATUS"] * bool(status) + ["ADDRESS"]))
        click.echo(f"({source.format}: {len(rows)} run{'s' if len(rows) != 1 else ''})")
    return True


COMMANDS = [import_]
