"""What the captured groups of completions say about groups with identical rewards: were
they all solved, all failed, or did they earn the top reward through a cheap component
without the task's? Facts shared by the detectors that read groups (no detector lives here)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt
import polars as pl

from ..toolkit import logged, logging_stride
from ..view import RunView
from .extremes import extreme_step
from .metrics import REWARD_METRICS
from .regimes import informative, regime_of

__all__ = ["CONVERGED_SHARE", "CORRECTNESS", "MOSTLY", "ZERO_STD", "Copies", "FlatGroups", "best_reward", "component",
           "copies", "dequantising_window", "every_group_agreed", "flat_groups", "given_up", "group_keys",
           "group_size", "grid_of", "groups_per_value", "has_zero_std_share", "latter_half",
           "logged_step_may_have_agreed", "samples_with", "settled", "shared_texts", "spiked_steps", "zero_std_metric",
           "zero_std_share"]

#: Per-group reward spread below this counts as "all equal" (TRL uses torch.isclose(std, 0)).
ZERO_STD = 1e-6
#: Groups a de-quantised share must average over: with TRL's defaults a step holds 1–2 groups,
#: so ``frac_reward_zero_std`` takes only the values 0, ½, 1 and a median jumps in one step.
GROUPS_PER_MEAN = 20
#: A logged share on a grid of 1/n for n up to this is read as n groups a value.
_MAX_GRID = 8
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
    """Share of them whose reward is the best their prompt earned (``best_reward``)."""
    failed: float
    """Share of them whose reward is the lowest any captured sample of the run earned."""
    gamed: float
    """Share of the solved ones that score nothing on the task's component ``truth`` (``given_up``)."""
    truth: str | None
    links: list[str]
    """One sample of each of the first few such groups."""
    truncated: float = 0.0
    """Share of them whose captured completions were all cut off by the token budget: their
    rewards agree because the budget caps them, whatever the prompt."""
    identical: float = 0.0
    """Share of the solved ones whose completions are all one text: the policy settled on its
    answer (convergence), rather than prompts that any answer solves."""
    shared: float = 0.0
    """Share of the solved ones whose text also answers ``SHARED_PROMPTS`` or more different prompts
    in the window (``shared_texts``): one answer for every question is not a solved prompt."""

    def converged(self, share: float) -> bool:
        """Solved (at least ``share`` at their prompt's best), each prompt with an answer of its own."""
        return self.solved >= share and self.shared < SHARED_LIMIT


def flat_groups(view: RunView, first: int, last: int) -> FlatGroups | None:
    """The zero-variance groups captured in steps [first, last]; None without samples,
    group ids or rewards, or when there are no such groups."""
    frame = samples_with(view, "group_id", "reward")
    if frame is None:
        return None
    frame = frame.filter(informative(view))
    window = frame.with_columns(_best=best_reward(frame, view)).filter(pl.col("step").is_between(first, last))
    if window.is_empty():
        return None
    bottom = cast(float, frame["reward"].min())  # a float column, and frame is not empty
    keys = group_keys(window)
    cut = pl.col("truncated").fill_null(False).all().over(keys) if "truncated" in window.columns else pl.lit(False)
    flat = window.with_columns(sd=pl.col("reward").std().over(keys).fill_null(0.0), n=pl.len().over(keys),
                               _cut=cut).filter((pl.col("sd").abs() <= ZERO_STD) & (pl.col("n") > 1))
    if flat.is_empty():
        return None
    if "completion" in flat.columns:
        wide = shared_texts(window.with_columns(_text=pl.col("completion").str.strip_chars()))
        flat = flat.with_columns(_one=pl.col("completion").str.strip_chars().n_unique().over(keys) == 1,
                                 _shared=pl.col("completion").str.strip_chars().is_in(wide.implode()))
    else:
        flat = flat.with_columns(_one=pl.lit(False), _shared=pl.lit(False))
    heads = flat.unique(subset=keys, keep="first", maintain_order=True)
    at_top = heads.filter(pl.col("reward") >= pl.col("_best") - ZERO_STD)
    gamed, truth = given_up(frame, at_top)
    # The mean of a boolean column that is not empty is a float.
    return FlatGroups(count=heads.height, solved=at_top.height / heads.height,
                      failed=cast(float, (heads["reward"] <= bottom + ZERO_STD).mean()), gamed=gamed, truth=truth,
                      links=heads.head(5)["sample_id"].to_list() if "sample_id" in heads.columns else [],
                      truncated=cast(float, heads["_cut"].mean()),
                      identical=cast(float, at_top["_one"].mean()) if at_top.height else 0.0,
                      shared=cast(float, at_top["_shared"].mean()) if at_top.height else 0.0)


def given_up(run: pl.DataFrame, at_top: pl.DataFrame) -> tuple[float, str | None]:
    """(share, component): the share of the top-reward samples ``at_top`` that score nothing on
    the task's component, and its name. The task's component is one named like correctness
    (``CORRECTNESS``) when others are not; without such a name, a component that other
    captured samples of the ``run`` earned and most top-reward samples score nothing on: the
    top reward is then bought with the rest (0.0, None when no component is given up)."""
    if not at_top.height or "reward_components" not in at_top.columns:
        return 0.0, None
    names = _component_names(at_top)
    task = [c for c in names if CORRECTNESS.search(c)]
    candidates = task[:1] if task and len(task) < len(names) else names if len(names) > 1 else []
    best: tuple[float, str | None] = (0.0, None)
    for name in candidates:
        earned = cast(float | None, run.select(component(run, name).alias("v"))["v"].fill_null(0.0).max())
        scores = at_top.select(component(at_top, name).alias("v"))["v"].fill_null(0.0)
        share = cast(float, (scores <= 0).mean())  # at_top is not empty
        if (name in task or (earned is not None and earned > 0)) and share > best[0]:
            best = (share, name)
    if best[1] is None and task and len(task) < len(names):
        return 0.0, task[0]
    return best


#: Share of the copies (or zero-variance groups) at their prompt's best reward that makes a policy's
#: sameness convergence rather than collapse. Chosen on the corpus's tune half: converged runs hold
#: 0.85-1.0 of their late copies at the best, stuck and collapsed ones 0.5 or less (a coin-flip reward's
#: copies are right half the time); 0.8 sits in that gap.
CONVERGED_SHARE = 0.8
#: Share of the groups (solved ones, or agreeing ones as the reward rose) that is "most": the reward's
#: progress then says whether the rest are being learnt (``run.converged_by_reward``), rather than the
#: share calling it a failure.
MOSTLY = 0.5


def latter_half(first: int, last: int) -> tuple[int, int]:
    """The second half of the steps [first, last]: where a policy's state at the end of an episode is
    read (a policy still learning early in the episode has not settled yet)."""
    return first + (last - first) // 2, last


#: A prompt's own best reward stands in for the run's top once it was captured at this many steps:
#: a prompt seen in one group only has no best of its own beyond what that group earned.
PROMPT_SEEN = 2
#: Copies of one text answering at least this many different prompts are a policy that ignores its prompt.
SHARED_PROMPTS = 3
#: Share of the copies that may be such shared texts before settling is read as a stuck policy.
SHARED_LIMIT = 0.5


def best_reward(frame: pl.DataFrame, view: RunView) -> pl.Expr:
    """Per sample, the best reward it could have earned: the highest reward any captured sample of
    its prompt earned (at any step), once the prompt was captured at ``PROMPT_SEEN`` steps or more
    and earned more than the run's lowest reward there; otherwise the highest any captured sample of
    the run earned. Prompts differ in what they can earn (a judge's scale, partial credit), so
    "solved" means the prompt's own best, not the run's. The samples of a single extreme reward step
    (``spiked_steps``) do not count: one batch scored ×1000 by a unit bug says nothing of what a prompt
    can earn. Each is read within its reward regime (``regimes.regime_of``): after the grader changed,
    what the old one paid says nothing of what the new one can."""
    counted = pl.col("reward").is_finite()
    spiked = spiked_steps(view)
    if spiked is not None:
        counted = counted & ~pl.col("step").is_between(*spiked)
    finite = pl.col("reward").filter(counted)
    regime = regime_of(view)
    top, bottom = finite.max().over(regime), finite.min().over(regime)
    if "prompt" not in frame.columns:
        return top
    own = finite.max().over("prompt", regime)
    seen = pl.col("step").n_unique().over("prompt", regime)
    return pl.when((seen >= PROMPT_SEEN) & (own > bottom + ZERO_STD)).then(own).otherwise(top)


def spiked_steps(view: RunView) -> tuple[int, int] | None:
    """The steps (first, last) whose samples the logged reward's single extreme step averages
    (``extremes.extreme_step``: ×``EXTREME_RATIO`` its median, back at the next points), or None."""
    curve = logged(view, *REWARD_METRICS)
    spike = extreme_step(view, curve)
    if curve is None or spike is None:
        return None
    before = curve.steps[curve.steps < spike.step]
    return (int(before[-1]) + 1 if before.size else spike.step), spike.step


@dataclass(frozen=True)
class Copies:
    """Completions that repeat an earlier one of their group (the textual face of a policy
    that has settled on one answer), in a window of captured samples."""

    count: int
    """How many captured completions repeat another of their group."""
    at_top: float
    """Share of them that earned the best reward any captured sample of their prompt earned
    (``best_reward``), without giving up the task's component (``given_up``): copies of right answers."""
    top: float
    """The highest reward any captured sample of the run earned."""
    shared: float = 0.0
    """Share of them whose text also answers ``SHARED_PROMPTS`` or more different prompts in the
    window: one answer for every question is a policy ignoring its prompt, not one that solved them."""

    def converged(self, share: float) -> bool:
        """Copies of right answers (at least ``share`` at their prompt's best), each prompt its own."""
        return self.at_top >= share and self.shared < SHARED_LIMIT


#: Copies a window needs before it says what the policy settled on.
MIN_COPIES = 8


def copies(view: RunView, first: int, last: int) -> Copies | None:
    """The copies among the captured groups of steps [first, last]; None without samples
    holding group ids, completions and rewards, or with fewer than ``MIN_COPIES`` copies."""
    frame = samples_with(view, "group_id", "reward", "completion")
    if frame is None:
        return None
    frame = frame.filter(informative(view))
    finite = frame.filter(pl.col("reward").is_finite())
    if finite.is_empty():
        return None
    top = cast(float, finite["reward"].max())  # a float column, and finite is not empty
    keys = group_keys(frame)
    text = pl.col("completion").str.strip_chars()
    scored = frame.with_columns(_best=best_reward(frame, view), _text=text)
    span = scored.filter(pl.col("step").is_between(first, last))
    window = span.filter(pl.int_range(pl.len()).over([*keys, "_text"]) > 0)
    if window.height < MIN_COPIES:
        return None
    right = window.filter(pl.col("reward") >= pl.col("_best") - ZERO_STD)
    gamed, _ = given_up(finite, right)
    shared = cast(float, window.select(pl.col("_text").is_in(shared_texts(span).implode())).to_series().mean())
    return Copies(count=window.height, at_top=right.height / window.height * (1.0 - gamed), top=top, shared=shared)


def shared_texts(span: pl.DataFrame) -> pl.Series:
    """The texts (column ``_text``) of ``span`` that answer ``SHARED_PROMPTS`` or more different
    prompts: the cross-prompt sameness of a policy that ignores its prompt (empty without prompts)."""
    if "prompt" not in span.columns or span["prompt"].n_unique() < SHARED_PROMPTS:
        return pl.Series("_text", [], dtype=pl.String)
    answers = span.group_by("_text").agg(prompts=pl.col("prompt").n_unique())
    return answers.filter(pl.col("prompts") >= SHARED_PROMPTS)["_text"]


def settled(view: RunView, first: int, last: int) -> Copies | None:
    """What the policy settled on by the end of an episode: the copies of the latter half of steps
    [first, last] (of the whole episode when the latter half holds too few)."""
    return copies(view, *latter_half(first, last)) or copies(view, first, last)


def _component_names(frame: pl.DataFrame) -> list[str]:
    column = frame["reward_components"]
    if isinstance(frame.schema["reward_components"], pl.List):
        keys = column.list.eval(pl.element().struct.field("key")).explode()
    else:
        keys = column.map.keys().explode()
    return sorted(k for k in keys.drop_nulls().unique().to_list())


def _shaped_share(view: RunView) -> bool:
    """Whether the logged ``frac_reward_zero_std`` counts groups of a KL-shaped reward rather than the
    task's: TRL's RLOO subtracts beta × the sequence KL from every reward before its group statistics,
    so with ``beta`` > 0 a group's shaped rewards differ as soon as its completions' KLs do, and the
    share reads 0 while every completion earns the same task reward."""
    beta = (view.manifest.get("trainer_config") or {}).get("beta")
    return view.manifest.get("algorithm") == "rloo" and isinstance(beta, (int, float)) and beta > 0


def _logged_share(view: RunView) -> bool:
    """Whether ``frac_reward_zero_std`` is logged and counts the task reward's groups."""
    return view.has("frac_reward_zero_std") and not _shaped_share(view)


def has_zero_std_share(view: RunView) -> bool:
    """Whether the run logs what ``zero_std_share`` reads."""
    return view.has("frac_reward_zero_std") or view.has("reward_std")


def zero_std_metric(view: RunView) -> str:
    """What ``zero_std_share`` is read from, as evidence names it."""
    return "frac_reward_zero_std" if _logged_share(view) else "share of steps with reward_std == 0"


def zero_std_share(view: RunView) -> tuple[np.ndarray, int]:
    """The share of zero-variance groups at each step, read as a share of enough groups to be a
    level, and the number of logged points averaged for it (1: the series as logged). With few
    groups a logged value, a centred mean over ``dequantising_window`` points replaces the raw 0, ½, 1.

    From ``frac_reward_zero_std`` (TRL since 0.15); in older key sets, and where that share counts a
    KL-shaped reward (``_shaped_share``: RLOO with a KL penalty), from ``reward_std``: TRL logs the
    spread of the task rewards (GRPO's mean of the groups' standard deviations, RLOO's over the batch),
    so 0 means every group agreed (share 1) and anything above means at least one did not (counted 0:
    a lower bound). NaN throughout when the run logs neither."""
    if not _logged_share(view):
        if not view.has("reward_std"):
            return np.full(view.n_steps, np.nan), 1
        spread = view.series("reward_std")
        return np.where(np.isfinite(spread), (np.abs(spread) <= ZERO_STD).astype(float), np.nan), 1
    share = view.series("frac_reward_zero_std")
    window = dequantising_window(view, share)
    if window <= 1:
        return share, 1
    mean = (pl.Series(share, dtype=pl.Float64).fill_nan(None)
            .rolling_mean(window, center=True, min_samples=1).fill_null(np.nan).to_numpy())
    return mean, window


def every_group_agreed(view: RunView) -> npt.NDArray[np.bool_] | None:
    """Per step, whether every group of the logged step had identical rewards: the logged
    ``frac_reward_zero_std`` at 1, or, where that is not logged or counts a KL-shaped reward
    (``_shaped_share``), ``reward_std`` at 0. None when the run logs neither."""
    if _logged_share(view):
        agreed: npt.NDArray[np.bool_] = view.series("frac_reward_zero_std") >= 1.0 - 1e-9
        return agreed
    if view.has("reward_std"):
        flat: npt.NDArray[np.bool_] = np.abs(view.series("reward_std")) <= ZERO_STD
        return flat
    return None


def logged_step_may_have_agreed(view: RunView) -> npt.NDArray[np.bool_] | None:
    """Per step, whether the step a log ends on could have had every group agree. TRL averages
    ``frac_reward_zero_std`` over the steps since the previous log (the window), so a share of at least
    1/window can hold one step at 1; logged every step, that is the share at 1 (``every_group_agreed``).
    Without the share (TRL 0.14's keys, or a share counting a KL-shaped reward), any log averaging more
    than one step could. None when the run logs neither the share nor ``reward_std``."""
    agreed = every_group_agreed(view)
    if agreed is None or view.n_steps == 0:
        return None
    steps = view.step.astype(float)
    window = np.maximum(np.diff(steps, prepend=steps[0] - logging_stride(view.step)), 1.0)
    if _logged_share(view):
        share = np.nan_to_num(view.series("frac_reward_zero_std"), nan=0.0)
        maybe: npt.NDArray[np.bool_] = agreed | (share * window >= 1.0 - 1e-9)
        return maybe
    return agreed | (window > 1.0)


def dequantising_window(view: RunView, share: np.ndarray) -> int:
    """Logged points whose mean holds about ``GROUPS_PER_MEAN`` groups (1 when a value
    already holds that many, or when the share is not quantised and the config says nothing)."""
    per_value = groups_per_value(view) or grid_of(share)
    return max(1, math.ceil(GROUPS_PER_MEAN / per_value)) if per_value else 1


def groups_per_value(view: RunView) -> float | None:
    """Groups behind one logged ``frac_reward_zero_std``: per-device batch × gradient
    accumulation × processes / ``num_generations``, times ``logging_steps`` (TRL averages the
    values between logs); None when the config does not say."""
    config = view.manifest.get("trainer_config") or {}
    batch, g = config.get("per_device_train_batch_size"), config.get("num_generations")
    if not isinstance(batch, (int, float)) or not isinstance(g, (int, float)) or g <= 0:
        return None
    accumulation = config.get("gradient_accumulation_steps") or 1
    world = view.manifest.get("world_size") or 1
    logging = config.get("logging_steps") or 1
    logging = logging if isinstance(logging, (int, float)) and logging >= 1 else 1
    return max(batch * accumulation * world / g, 1.0) * logging


def grid_of(share: np.ndarray) -> int | None:
    """n when every logged share is a multiple of 1/n (n ≤ ``_MAX_GRID``): a log without its
    config (a console capture, a trainer_state.json) still says how few groups a value holds."""
    values = np.unique(share[np.isfinite(share)])
    if values.size < 2:
        return None
    for n in range(1, _MAX_GRID + 1):
        if np.all(np.abs(values * n - np.round(values * n)) < 1e-6):
            return n
    return None


def group_size(view: RunView, frame: pl.DataFrame | None) -> int | None:
    """G from the trainer config, else from the samples when every group looks complete."""
    config = view.manifest.get("trainer_config") or {}
    for key in ("num_generations", "group_size", "n_samples_per_prompt"):
        value = config.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 2:
            return int(value)
    if frame is None or "group_id" not in frame.columns:
        return None
    sizes = frame.drop_nulls("group_id").group_by(group_keys(frame)).len()["len"]
    if sizes.is_empty():
        return None
    largest = cast(int, sizes.max())  # a count column, and sizes is not empty
    # Selected (top/bottom-k) captures hold partial groups: a size seen in 90% of groups is complete.
    return largest if largest >= 2 and cast(float, (sizes == largest).mean()) >= 0.9 else None
