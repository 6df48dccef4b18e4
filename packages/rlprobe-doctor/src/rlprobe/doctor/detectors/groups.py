"""What the captured groups of completions say about groups with identical rewards: were
they all solved, all failed, or did they earn the top reward through a cheap component
without the task's? Shared by the detectors that read zero-variance groups (no detector
lives here)."""
from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from ..view import RunView

__all__ = ["CORRECTNESS", "ZERO_STD", "FlatGroups", "component", "flat_groups", "group_keys", "samples_with"]

#: Per-group reward spread below this counts as "all equal" (TRL uses torch.isclose(std, 0)).
ZERO_STD = 1e-6
#: Reward components that measure the task itself rather than its form.
CORRECTNESS = re.compile(r"acc|correct|verif|math|answer|solution|solve|exact|match|pass|test|judge|score|gold",
                         re.IGNORECASE)


def samples_with(view: RunView, *columns: str) -> pl.DataFrame | None:
    """The captured samples that have every one of ``columns``, or None when there are none."""
    samples = view.samples
    if samples.is_empty() or any(c not in samples.columns for c in columns):
        return None
    kept = samples.drop_nulls(list(columns))
    return kept if kept.height else None


def group_keys(frame: pl.DataFrame) -> list[str]:
    """Columns naming one group: merged ranks may reuse a group id."""
    return ["step", "rank", "group_id"] if "rank" in frame.columns else ["step", "group_id"]


def component(frame: pl.DataFrame, name: str) -> pl.Expr:
    """One reward component's value from the ``reward_components`` column, whether Polars
    reads the Arrow map as a Map (Polars ≥ 2) or as a list of key/value structs (1.x)."""
    parts = pl.col("reward_components")
    if isinstance(frame.schema["reward_components"], pl.List):
        return parts.list.eval(pl.element().filter(pl.element().struct.field("key") == name)
                               .struct.field("value")).list.first()
    return parts.map.get(name)


@dataclass(frozen=True)
class FlatGroups:
    """The zero-variance groups (at least two captured samples, identical rewards) of a window."""

    count: int
    solved: float
    """Share of them whose reward is the highest any captured sample of the run earned."""
    failed: float
    """Share of them whose reward is the lowest any captured sample of the run earned."""
    gamed: float
    """Share of the solved ones that score nothing on the correctness component ``truth``."""
    truth: str | None
    links: list[str]
    truncated: float = 0.0
    """Share of them whose captured completions were all cut off by the token budget: their
    rewards agree because the budget caps them, whatever the prompt."""
    """One sample of each of the first few such groups."""


def flat_groups(view: RunView, first: int, last: int) -> FlatGroups | None:
    """The zero-variance groups captured in steps [first, last]; None without samples,
    group ids or rewards, or when there are no such groups."""
    frame = samples_with(view, "group_id", "reward")
    if frame is None:
        return None
    window = frame.filter(pl.col("step").is_between(first, last))
    if window.is_empty():
        return None
    top, bottom = frame["reward"].max(), frame["reward"].min()
    keys = group_keys(window)
    cut = pl.col("truncated").fill_null(False).all().over(keys) if "truncated" in window.columns else pl.lit(False)
    flat = window.with_columns(sd=pl.col("reward").std().over(keys).fill_null(0.0), n=pl.len().over(keys),
                               _cut=cut).filter((pl.col("sd").abs() <= ZERO_STD) & (pl.col("n") > 1))
    if flat.is_empty():
        return None
    heads = flat.unique(subset=keys, keep="first", maintain_order=True)
    at_top = heads.filter(pl.col("reward") >= top - ZERO_STD)
    gamed, truth = 0.0, None
    if at_top.height and "reward_components" in at_top.columns:
        names = _component_names(at_top)
        task = [c for c in names if CORRECTNESS.search(c)]
        if task and len(task) < len(names):
            truth = task[0]
            scores = at_top.select(component(at_top, truth).alias("v"))["v"]
            gamed = float((scores.fill_null(0.0) <= 0).mean())
    return FlatGroups(count=heads.height, solved=at_top.height / heads.height,
                      failed=float((heads["reward"] <= bottom + ZERO_STD).mean()), gamed=gamed, truth=truth,
                      links=heads.head(5)["sample_id"].to_list() if "sample_id" in heads.columns else [],
                      truncated=float(heads["_cut"].mean()))


def _component_names(frame: pl.DataFrame) -> list[str]:
    column = frame["reward_components"]
    if isinstance(frame.schema["reward_components"], pl.List):
        keys = column.list.eval(pl.element().struct.field("key")).explode()
    else:
        keys = column.map.keys().explode()
    return sorted(k for k in keys.drop_nulls().unique().to_list())
