"""``rlprobe push``: upload a recorded run to object storage after the fact."""
from __future__ import annotations

from pathlib import Path

import click

from ..errors import UnusableInput


@click.command("push")
@click.argument("run", type=click.Path(file_okay=False, path_type=Path))
@click.argument("url")
@click.option("--replace", is_flag=True, help="Delete another run found at URL first (without it, push refuses).")
def push(run: Path, url: str, replace: bool) -> None:
    """Upload the run directory RUN (finished, crashed or killed mid-run) to URL, in the
    order that keeps the bucket readable at every moment: data files first, the manifest
    last. Objects already there unchanged are not sent again, so a push can be repeated,
    e.g. to finish an upload a recorder's close() ran out of time for. A URL that holds
    another run (another run id) is refused, exit 2: the two would read as one run;
    --replace deletes that run's files first.

    \b
    Example:
      rlprobe push runs/my-run s3://my-bucket/runs/my-run
    """
    from rlprobe.storage.layout import is_url
    from rlprobe.storage.upload import push as push_run

    if not is_url(url):
        raise UnusableInput(f"{url}: not a URL; push uploads to object storage, e.g. s3://bucket/runs/my-run")
    try:
        mirror = push_run(run, url, replace=replace)
    except FileNotFoundError:
        raise UnusableInput(f"{run}: no rlprobe recording here (no manifest.json)") from None
    except ValueError as exc:
        raise UnusableInput(str(exc)) from None
    click.echo(f"{mirror.url}: {mirror.requests} request(s), {mirror.bytes_sent} bytes uploaded")


COMMANDS = [push]
