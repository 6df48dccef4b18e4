"""``rlprobe synth``: write a synthetic healthy or pathological recording."""
from __future__ import annotations

from pathlib import Path

import click

from ..synth import generate, pathologies


@click.command("synth")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--pathology", default="healthy", show_default=True,
              help="healthy, or a signature id in lower case (e.g. kl_blowup); an unknown name lists them.")
@click.option("--n-steps", default=500, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=int)
def synth(directory: Path, pathology: str, n_steps: int, seed: int) -> None:
    """Generate a synthetic recording in DIRECTORY through the real Recorder.

    \b
    Example:
      rlprobe synth runs/kl --pathology kl_blowup --n-steps 800 --seed 3
      rlprobe doctor runs/kl
    """
    plan = generate(directory, pathology.lower(), n_steps=n_steps, seed=seed)
    where = f" (onset at step {plan.onset})" if pathology.lower() != "healthy" else ""
    click.echo(f"wrote {n_steps} steps of {pathology.lower()}{where} to {directory}")


synth.help = (synth.help or "") + "\n\nPathologies: " + ", ".join(pathologies())
COMMANDS = [synth]
