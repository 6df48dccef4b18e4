"""The corpus table: every real TRL scenario, its mechanism, what it must be diagnosed as, and
the rule that dates its onset from TRL's raw ``log_history`` (never from the doctor).

One source of truth: ``generate.py`` trains from it, ``tests/doctor/test_realruns.py`` judges
the doctor against it, ``validation.py`` writes ``docs/validation.md`` from it.

Onset rules read only ``<scenario>/log_history.json.gz`` (what ``trainer.state.log_history``
held), except the two about completion texts (repeated words, copies within a group): those
read TRL's own completions buffer as recorded (``samples.parquet``), not any rlprobe analysis.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import math
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "realruns"

History = list[dict[str, Any]]

#: GRPOConfig/RLOOConfig settings every scenario starts from (its ``args`` override them):
#: 2 groups of 4 per step, a 12-token budget, fp32 on the CPU, nothing reported anywhere.
BASE_ARGS: dict[str, Any] = dict(
    per_device_train_batch_size=8, num_generations=4, max_completion_length=12, logging_steps=1,
    learning_rate=1e-3, lr_scheduler_type="constant", bf16=False, use_cpu=True, report_to="none",
    save_strategy="no", activation_checkpointing=False, disable_tqdm=True, seed=0, dataloader_num_workers=0,
    temperature=1.0,
)


# -- reading the raw log --------------------------------------------------------------------------


#: TRL's raw ``trainer.state.log_history`` beside each recording, gzipped: the raw logs were most of the
#: fixtures' bytes (issue 17's budget: 20 MB for all of them, raised to 30 MB in session 13 when about 400 runs
#: took 22 MB; a fresh batch of 14 runs adds about 0.8 MB).
RAW_LOG = "log_history.json.gz"


def raw_log(folder: Path) -> list[dict[str, Any]]:
    """The whole raw ``log_history`` kept in ``folder`` (``RAW_LOG``)."""
    return json.loads(gzip.decompress((folder / RAW_LOG).read_bytes()))


def write_raw_log(folder: Path, entries: list[dict[str, Any]]) -> None:
    """Keep ``entries`` as ``folder``'s raw log: compact JSON, gzipped without a timestamp (same bytes each time)."""
    text = json.dumps(entries, separators=(",", ":")) + "\n"
    (folder / RAW_LOG).write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))


def load_history(name: str, root: Path = FIXTURES) -> History:
    """The training entries of a scenario's ``log_history`` (no evaluation or summary entries)."""
    entries = raw_log(root / name)
    return [e for e in entries if "train_runtime" not in e and not any(k.startswith("eval_") for k in e)]


def series(history: History, key: str) -> list[tuple[int, float]]:
    """(step, value) for every logged entry; a missing key or None is NaN (TRL drops all-NaN metrics)."""
    out = []
    for entry in history:
        value = entry.get(key)
        out.append((int(entry["step"]), math.nan if value is None else float(value)))
    return out


def finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if math.isfinite(v)]


def baseline(history: History, key: str, first: int = 10) -> float:
    """Median of the first ``first`` finite logged values of ``key``."""
    return statistics.median(finite([v for _, v in series(history, key)])[:first])


def first_sustained(points: list[tuple[int, float]], test: Callable[[float], bool], run: int) -> int | None:
    """First step from which ``test`` holds for ``run`` consecutive logged points (or to the end)."""
    for i, (step, _) in enumerate(points):
        window = points[i:i + run]
        if window and all(test(v) for _, v in window) and (len(window) == run or i + len(window) == len(points)):
            return step
    return None


def rolling(points: list[tuple[int, float]], width: int) -> list[tuple[int, float]]:
    """Trailing mean over ``width`` logged points (NaNs skipped): per-step means of 8 samples are noisy."""
    out = []
    for i, (step, _) in enumerate(points):
        window = finite([v for _, v in points[max(0, i - width + 1):i + 1]])
        out.append((step, statistics.fmean(window) if window else math.nan))
    return out


# -- onset rules ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Onset:
    """A named, explicit rule; ``text`` is what docs/validation.md prints."""

    text: str
    rule: Callable[[History, Path], int | None]

    def __call__(self, history: History, run_dir: Path) -> int | None:
        return self.rule(history, run_dir)


def _level(first: int) -> str:
    return "its first logged value" if first == 1 else f"its first-{first}-log median"


def rises(key: str, factor: float, run: int = 5, first: int = 10, floor: float = 0.0) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        level = max(baseline(history, key, first), floor)
        return first_sustained(series(history, key), lambda v: v > factor * level, run)
    return Onset(f"first step where `{key}` > {factor:g} x {_level(first)}"
                 + (f" (at least {floor:g})" if floor else "") + f", for {run} logs in a row", rule)


def falls(key: str, factor: float, run: int = 5, first: int = 10, smooth: int = 1) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        level = baseline(history, key, first)
        points = rolling(series(history, key), smooth) if smooth > 1 else series(history, key)
        return first_sustained(points, lambda v: v < factor * level, run)
    mean = f"the {smooth}-log mean of " if smooth > 1 else ""
    return Onset(f"first step where {mean}`{key}` < {factor:g} x {_level(first)}, for {run} logs in a row", rule)


def above(key: str, level: float, run: int = 5, smooth: int = 1) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        points = rolling(series(history, key), smooth) if smooth > 1 else series(history, key)
        return first_sustained(points, lambda v: v > level, run)
    mean = f"the {smooth}-log mean of " if smooth > 1 else ""
    return Onset(f"first step where {mean}`{key}` > {level:g}, for {run} logs in a row", rule)


def nonfinite(*keys: str) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        logged = [key for key in keys if any(key in entry for entry in history)]
        for entry in history:
            for key in logged:
                value = entry.get(key, math.nan)
                if value is None or not math.isfinite(float(value)):
                    return int(entry["step"])
        return None
    return Onset(f"first logged step where any of {', '.join(f'`{k}`' for k in keys)} is NaN, infinite "
                 "or None (TRL logs an all-NaN metric as None)", rule)


def repeated_words(share: float, run: int = 5) -> Onset:
    def rule(_: History, run_dir: Path) -> int | None:
        import pyarrow.parquet as pq

        table = pq.read_table(run_dir / "samples.parquet", columns=["step", "completion"]).to_pylist()
        by_step: dict[int, list[str]] = {}
        for row in table:
            by_step.setdefault(row["step"], []).append(row["completion"] or "")
        points = []
        for step in sorted(by_step):
            texts = by_step[step]
            loops = [t for t in texts if len(t.split()) >= 3 and len(set(t.split())) <= len(t.split()) / 2]
            points.append((step, len(loops) / len(texts)))
        return first_sustained(points, lambda v: v >= share, run)
    return Onset(f"first step where >= {share:.0%} of the completions (TRL's completions buffer) repeat a word "
                 f"(3+ words, at most half distinct), for {run} steps in a row", rule)


def copied_groups(share: float, run: int = 5, smooth: int = 5) -> Onset:
    def rule(_: History, run_dir: Path) -> int | None:
        import pyarrow.parquet as pq

        rows = pq.read_table(run_dir / "samples.parquet", columns=["step", "group_id", "completion"]).to_pylist()
        groups: dict[tuple[int, str], list[str]] = {}
        for row in rows:
            groups.setdefault((row["step"], row["group_id"]), []).append(" ".join((row["completion"] or "").split()))
        by_step: dict[int, list[float]] = {}
        for (step, _), texts in groups.items():
            if len(texts) > 1:
                by_step.setdefault(step, []).append((len(texts) - len(set(texts))) / (len(texts) - 1))
        points = [(step, statistics.fmean(shares)) for step, shares in sorted(by_step.items())]
        return first_sustained(rolling(points, smooth), lambda v: v >= share, run)
    return Onset(f"first step where the groups' duplicate share, (n - distinct)/(n - 1) of their completions in "
                 f"TRL's completions buffer, averages >= {share:.0%} over {smooth} steps, for {run} steps in a row",
                 rule)


def hacked(honest: str, cheap: str, smooth: int = 10, run: int = 5) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        honest_0, cheap_0 = baseline(history, honest), baseline(history, cheap)
        both = [(step, float(h < 0.5 * honest_0 and c > 2 * cheap_0))
                for (step, h), (_, c) in zip(rolling(series(history, honest), smooth),
                                             rolling(series(history, cheap), smooth), strict=True)]
        return first_sustained(both, lambda v: v == 1.0, run)
    return Onset(f"first step where the {smooth}-log mean of `{honest}` < 0.5 x its first-10-log median while "
                 f"that of `{cheap}` > 2 x its own, for {run} logs in a row", rule)


# -- the table ------------------------------------------------------------------------------------


#: Seed of the tune/holdout split: fixed before any scenario's result was looked at.
SPLIT_SEED = "rlprobe-corpus-split-1"
#: Keys TRL added after 0.14 (entropy, clipped share, zero-variance groups, ...): a log in the old
#: key set has none of them, and names the mean length and the components differently.
_NEW_KEYS = ("entropy", "frac_reward_zero_std", "clip_ratio", "completions/", "num_tokens")
_OLD_NAMES = {"completions/mean_length": "completion_length"}


@dataclass(frozen=True)
class Scenario:
    name: str
    mechanism: str
    """What was done to the run, and why that produces the pathology."""
    algorithm: str = "grpo"
    prompts: str = "single"
    """Questions trained on: ``single`` (``a fruit?``), ``lists`` (``some fruits?``) or ``mixed``."""
    rewards: tuple[str, ...] = ("correct", "in_category")
    weights: tuple[float, ...] | None = None
    steps: int = 120
    args: dict[str, Any] = field(default_factory=dict)
    """GRPOConfig / RLOOConfig overrides over BASE_ARGS."""
    expect: dict[str, Onset] = field(default_factory=dict)
    """signature → the rule dating its onset: what the doctor must report at warn or above, from
    about that step. Empty (and no ``mild``): a healthy run, on which nothing may be reported at
    warn or above."""
    mild: dict[str, Onset] = field(default_factory=dict)
    """signature → onset of an episode that ended or never mattered (a recovered dip, one extreme
    step): it must be reported at info or warn, never critical, near its onset."""
    accepted: tuple[str, ...] = ()
    """Other warn/critical signatures an expert accepts on this run (consequences of the mechanism)."""
    swap: tuple[int, int, str] | None = None
    """(first, last, reward): from the ``first`` to the ``last`` reward call (one a generation) every
    reward function is replaced by ``reward`` — an outage of the reward service, say."""
    spike: tuple[int, float] | None = None
    """(call, factor): at that reward call every reward is multiplied by ``factor`` (a unit bug in one batch)."""
    eval_steps: int | None = None
    """Evaluate every so many steps (evaluation rows in the log)."""
    source: str = "recording"
    """What the doctor is given: the ``recording`` made by ``attach``; TRL's ``trainer_state`` (no
    samples, no config); or ``old_keys``, that log in the key set of TRL 0.14 (no entropy, clipped
    share or zero-variance share)."""
    fixture: str | None = None
    """Another scenario whose training run this one reads (a different ``source`` of the same run)."""
    batch: int = 1
    """When the scenario was written: 1 the first corpus, 2 issue 17's additions, 3 the fresh batch of
    session 5, split and trained after the detectors it judges had been written, 4 a second fresh batch
    (new strides, losses and seeds), its expectations written before training and checked on the raw
    log only, never against the doctor; 5 a third such batch (strides of 4, 6 and 8, runs read from
    trainer_state.json or in TRL 0.14's key set among the pathologies too); 6 a fourth such batch
    (strides of 1 with one group of 16, 5, 12 and 15, long runs whose pathology begins late, a reward
    service answering 0, a unit bug that recurs, sampling above temperature 1); 7 a fifth such batch
    (strides of 1 with one group of 2, 3, 7, 9, and 20 over a 500-step run; RLOO read from
    trainer_state.json or in TRL 0.14's key set, healthy and pathological; a reward service stuck on a
    constant nonzero answer, an outage that ends, a grader changed mid-run to another scale, group
    copies on the judge score; seeds 12-14); 8 a sixth, small such batch (strides of 4, 6 and 11, GRPO read
    in TRL 0.14's key set, healthy at a large learning rate held by a KL penalty, a task learnt in one jump, a
    length collapse read from trainer_state.json, an entropy collapse with RLOO, a reward collapse late in a
    long warm-up without KL, the judge score gamed through a cheap proxy; seeds 15-16); 9 a seventh such
    batch (issue 28: two completions a group and four with a binary exact-match reward, healthy ones that
    learn, where a group's rewards agree by chance on most steps, and stuck or collapsing ones; healthy runs
    without a KL term whose groups saturate; a KL blow-up logged every 10 steps; healthy runs sampled at
    temperature 0.6 for late single gradient-norm spikes; strides 1-5 and 10, seeds 17-20); 10 an eighth such
    batch (a binary exact-match reward with groups of 2 and 4 once more, healthy runs whose questions are
    learnt at different steps, an answer key joined off by one that leaves a run stuck, a grader outage after
    learning, a learning rate far too high that breaks a run and leaves it without advantage; a healthy run
    without a KL term sampled at temperature 0.7; a per-character bonus beside exact match; strides 2-8,
    seeds 21-24); 11 a ninth such batch (a binary exact-match reward with groups of 2 and 4 at other learning
    rates and strides, a binary reward on the list questions, healthy runs without a KL term at temperature
    0.6-0.7, a long healthy run at temperature 0.6, runs that converge; a KL blow-up on the judge score
    logged every 10 steps, an answer key changed after learning, a key of words never taught, the coin-flip
    reward with groups of 4 whose answers run to the budget; strides 2-10, seeds 25-30); 12 a tenth such batch
    (a binary exact-match reward with groups of 2, 4 and 8 at learning rates of 2e-4 to 8e-4, healthy runs
    without a KL term at temperature 0.7-0.8, a run that converges, exact match beside the category with RLOO,
    a long RLOO run at temperature 0.6; a KL blow-up on exact match logged every 10 steps, an entropy collapse
    under a reward that says nothing, a reward collapse late in an RLOO warm-up, a grader outage after
    learning, a per-character bonus, a list task beyond the model, a keyword-count reward, a letter proxy
    gamed against exact match; strides 1-10, seeds 31-46); 13 an eleventh such batch
    (a binary exact-match reward with groups of 2, 4 and 8, healthy runs that learn the questions at different
    steps or over the whole run, with and without a KL term, sampled at temperature 0.7-1.1, RLOO healthy and
    pathological, a letter proxy that RLOO's exact-match signal outweighed (written as reward hacking,
    re-labelled healthy from its log), the judge score in TRL 0.14's key set; a reward plateau at half the best,
    from a key half of whose words can be said and from a run without a KL term whose unlearnt answers deformed
    (written as converging, re-labelled from its log), a learning rate far too high with RLOO, a KL blow-up with
    no warm-up logged every 10 steps, an entropy collapse under a reward that says nothing with one group of 8, a
    per-character bonus with groups of 8, a per-word reward on the mixed questions, a key of untaught words at
    temperature 1.1; a brevity reward with RLOO trained and left out, its length never halving; strides 1-10,
    seeds 47-62); 14 a twelfth such batch (a binary exact-match reward with groups of 2, 3, 4, 6 and 8, partial
    credit and the judge score; healthy runs with and without a KL term, a slow learner over 360 steps at 1e-4, an
    uneven learner at 1e-3 held by a KL penalty of 0.1, RLOO at temperature 1.1 and without a KL term over 400 steps;
    an answer key changed after learning, a KL blow-up after a warm-up with RLOO, an entropy collapse under a reward
    that says nothing at temperature 0.6, a reward collapse at temperature 1.3 and 3e-3 (written as an entropy
    explosion, re-labelled from its log), a brevity bonus that outpays the answer, a keyword-count reward with RLOO, a
    letter proxy gamed at temperature 1.2, a list task beyond the model with groups of 6, reward plateaus from a half
    key and from a run without a KL term (written as converging, re-labelled from its log); strides 1-12, seeds
    63-78); 15 a thirteenth such batch (a binary exact-match reward with groups of 2, 4, 5 and 8, partial credit,
    the judge score and the category reward, the loss types grpo, dr_grpo, dapo and bnpo; healthy runs with and
    without a KL term that converge, learn slowly over 440 steps at 1e-4 without a KL term, approach the best
    sampled at 1.2, RLOO with a linear warm-up and groups of 5, the judge score with one group of 8 sampled at 0.5
    (one question lost, its KL accepted); an answer key changed after learning to words never taught, a KL blow-up
    with BNPO after a warm-up, an entropy collapse under a reward that says nothing sampled at 0.5 with groups of 5,
    an entropy explosion under a reward paying for distinct letters sampled at 1.3, a brevity reward with one group
    of 8, the category reward the model already earns, reward plateaus from a half key with RLOO and from a fast
    learner held by a KL penalty (written as a healthy run that learns in a jump, re-labelled from its log); a
    per-character bonus with RLOO and a per-word reward against exact match trained and left out, their logs showing
    neither; strides 1-15, seeds 79-94); 16 a fourteenth such batch (a binary exact-match reward with groups of 2, 3
    and 4, partial credit and the judge score with one group of 6; healthy runs with and without a KL term that learn,
    converge with eight groups of 3 at temperature 0.7 in TRL 0.14's key set, or learn slowly over 250 steps at 2e-4,
    RLOO with partial credit read from trainer_state.json and RLOO at temperature 1.1; a grader outage after learning in
    TRL 0.14's key set, a KL blow-up with RLOO on the judge score after a warm-up into 2e-3, an entropy collapse under a
    reward that says nothing with one group of 8 at temperature 0.6, a per-character bonus with groups of 6, a per-word
    reward on the list questions whose repetition came late, a letter proxy gamed against exact match with groups of 3,
    a list task beyond the model read from trainer_state.json, a reward plateau from a half key; strides 1-6 and 10,
    seeds 95-108); 17 a fifteenth such batch (a binary exact-match reward with groups of 2, 3 and 4, partial credit with
    groups of 6 and 8, the judge score with RLOO; healthy runs with and without a KL term that learn, converge with
    their groups solved or learn slowly over 240 steps at 1.5e-4, a letter proxy beside the category at temperature 1.3
    that steered the answers without costing the category (written as reward hacking, re-labelled healthy from its log);
    a grader outage after learning with RLOO at temperature 0.5, a KL blow-up at 3e-3 with the original GRPO loss, a
    length explosion under a reward that says nothing with groups of 4 (written as an entropy collapse, re-labelled from
    its log), a per-character bonus beside exact match with groups of 2, a keyword-count reward on the list questions
    logged every step, a brevity reward that outpays exact match, a reward plateau from a half key with groups of 6;
    strides 1-10 and 12, seeds 109-122); 18 a sixteenth such batch (a binary exact-match reward with groups of 2, 4, 5
    and 6, partial credit with RLOO and groups of 8, the judge score with groups of 3; healthy runs with and without a
    KL term that learn, learn until most groups agree without a KL term (three groups of 5 at temperature 0.8 read from
    trainer_state.json, one question's answer lost to letter strings), learn slowly (250 steps at 1.5e-4 with BNPO in
    TRL 0.14's key set), the judge score with Dr. GRPO at temperature 1.2, RLOO with partial credit that solves seven
    questions of eight; an answer key changed after learning with groups of 5, a KL blow-up after a warm-up into 3e-3
    with groups of 4, an entropy collapse under a reward that says nothing with RLOO at temperature 0.5, a
    per-character bonus beside the category at temperature 1.3, a keyword-count reward on the list questions with
    Dr. GRPO, a letter proxy gamed against exact match with eight groups of 2, a reward plateau from a half key with
    groups of 3 whose rule dates it late, an entropy collapse onto the shortest word of each category under a brevity
    reward beside it (written as a length collapse, re-labelled from its log); strides 1-10, seeds 123-136); 19 a
    seventeenth such batch (a binary exact-match reward with groups of 2, 4, 5 and 6, partial credit with RLOO and
    groups of 4, the judge score with groups of 4 and with RLOO and groups of 8; healthy runs with and without a KL term
    that learn (seven groups of 2 with BNPO in TRL 0.14's key set), converge with their groups solved (Dr. GRPO at
    temperature 0.7 read from trainer_state.json), learn slowly (240 steps at 1.5e-4 with groups of 5), the judge score
    at temperature 0.5 (the bird's answer lost for a while to a non-word), RLOO with partial credit at temperature 1.2;
    a grader outage after learning on the judge score with RLOO, a KL blow-up after a warm-up into 2.5e-3 with one group
    of 8, an entropy collapse under a reward that says nothing with BNPO, a per-character bonus beside exact match with
    groups of 5 at temperature 1.3, a per-word reward on the mixed questions with groups of 3 whose repetition came late
    (the answers ran to the budget first), a letter proxy gamed against exact match with groups of 6, a reward plateau
    from a half key with groups of 3, a brevity reward beside exact match with groups of 2; strides 1-12, seeds
    137-150); 20 an eighteenth such batch (a binary exact-match reward with groups of 2, 4 and 5, partial credit with
    groups of 3 and 6, the judge score with groups of 6, RLOO with exact match and groups of 4; healthy runs with and
    without a KL term that learn (four groups of 2 with Dr. GRPO at temperature 0.8, the colour's answer lost to
    non-words, its KL accepted), converge on six questions of eight (BNPO in TRL 0.14's key set), learn slowly (240
    steps at 1.5e-4 with groups of 5), the judge score with the original GRPO loss, partial credit at temperature 1.2,
    RLOO at temperature 0.5 (the fruit's answer lost at the end, its KL and one gradient-norm spike accepted); a grader
    outage after learning on partial credit with Dr. GRPO, a KL blow-up after a warm-up into 3e-3 with groups of 5, an
    entropy collapse onto the empty answer under a reward that says nothing with the original GRPO loss and groups of 8,
    a per-character bonus beside exact match with groups of 3, a per-word reward on the list questions with BNPO and
    groups of 6, a letter proxy gamed against exact match with groups of 4 within its first ten logs (its onset rule
    re-dated from the first log), a reward plateau from a half key with eight groups of 2, a list task beyond the model
    with groups of 8 at temperature 1.3; strides 1-12, seeds 151-164); 21 a nineteenth such batch (a binary exact-match
    reward with groups of 2, 3 and 4, partial credit with RLOO and groups of 5, the judge score with BNPO and one group
    of 8; healthy runs with and without a KL term that learn (two groups of 3 at temperature 0.9, three groups of 4
    with Dr. GRPO in TRL 0.14's key set), learn slowly (240 steps at 2e-4 with groups of 2 read from
    trainer_state.json), RLOO with partial credit read from trainer_state.json, converge on six questions of eight (the
    original GRPO loss at temperature 0.6, its KL accepted); an answer key joined off by one after learning read from
    trainer_state.json, a KL blow-up after a warm-up into 3e-3 with Dr. GRPO in TRL 0.14's key set, an entropy collapse
    onto the empty answer under a reward that says nothing with groups of 4, a per-character bonus beside a format
    reward with BNPO at temperature 1.3, a per-word reward on the list questions logged every 12 steps, a letter proxy
    gamed against exact match with Dr. GRPO in TRL 0.14's key set, a reward plateau from a half key with groups of 8
    read from trainer_state.json, a key of untaught words with BNPO logged every step; strides 1-12, seeds 165-178); 22
    a twentieth such batch (a binary exact-match reward with groups of 2, 3, 4 and 8, partial credit with RLOO and
    groups of 4, the judge score with groups of 4 and 5; healthy runs with and without a KL term that learn (three
    groups of 4 at temperature 0.8, four groups of 3 with BNPO in TRL 0.14's key set), learn slowly (240 steps at 1.5e-4
    with Dr. GRPO read from trainer_state.json), the judge score at temperature 1.1, RLOO with partial credit logged
    every step (the bird's answer lost at the end, its KL accepted), converge on seven questions of eight with one group
    of 8 (its KL and one gradient-norm spike accepted); a grader outage after learning with BNPO and groups of 2, a KL
    blow-up on the judge score after a warm-up into 3e-3 read from trainer_state.json, an entropy collapse under a
    reward that says nothing with Dr. GRPO and groups of 5 (the answers run to the budget first), a per-character bonus
    beside exact match with groups of 6 at temperature 1.3, a per-word reward on the list questions with six groups of 2
    logged every step, a letter proxy gamed against exact match with groups of 3 at temperature 1.2, a reward plateau
    from a half key with groups of 5 in TRL 0.14's key set, a brevity reward beside exact match with BNPO read from
    trainer_state.json; strides 1-12, seeds 179-192); 23 a twenty-first such batch (a binary exact-match reward with
    groups of 2, 4 and 6, partial credit, the judge score with one group of 8; healthy runs with and without a KL term
    that learn (four groups of 2 with Dr. GRPO, two groups of 6 with BNPO and no KL term in TRL 0.14's key set, RLOO at
    temperature 1.2, the judge score with the original GRPO loss, its KL accepted), learn slowly (200 steps at 1.5e-4
    read from trainer_state.json), partial credit at temperature 0.6; a grader outage after learning with Dr. GRPO, a
    KL blow-up after a warm-up into 3e-3 with BNPO, an entropy collapse under a reward that says nothing with RLOO (the
    answers run to the budget first), a per-character bonus beside exact match with four groups of 2, a per-word
    reward on the list questions logged every 2 steps, a letter proxy gamed against exact match with groups of 6, a
    reward plateau from a half key with RLOO (its onset rule re-dated with a lower agreeing share), a brevity reward
    beside exact match read from trainer_state.json; strides 2-10, seeds 193-206); 24 a twenty-second such batch (a
    binary exact-match reward with groups of 2, 4, 5 and 6, partial credit with BNPO and groups of 2, the judge score
    with RLOO and groups of 2; healthy runs with and without a KL term that learn (two groups of 5 at temperature 0.8,
    three groups of 4 with Dr. GRPO and no KL term read from trainer_state.json), learn steadily (240 steps at 2e-4 with
    the original GRPO loss and groups of 6 in TRL 0.14's key set), RLOO on the judge score, partial credit at
    temperature 1.1 logged every step, RLOO that converges at temperature 0.7 in TRL 0.14's key set; an answer key
    changed after learning to words never taught with RLOO on partial credit, a KL blow-up after a warm-up into 3.5e-3
    with Dr. GRPO read from trainer_state.json, an entropy collapse under a reward that says nothing with BNPO and
    groups of 7, an entropy explosion under a reward paying for distinct letters with RLOO and normalised advantages, a
    per-word proxy gamed against partial list credit with one group of 8, a reward plateau from a half key with two
    groups of 4 read from trainer_state.json (written with four groups of 2, whose reward was still rising at the end,
    and retrained), a per-character bonus beside the judge score in TRL 0.14's key set, a brevity reward beside exact
    match with RLOO; strides 1-10, seeds 207-220); 25 a twenty-third such batch (a
    binary exact-match reward with groups of 2, 4 and 8, partial credit with groups of 4 and 6, the judge score with
    groups of 4; healthy runs with and without a KL term that learn (four groups of 2 with the original GRPO loss logged
    every step, its KL accepted, two groups of 6 with BNPO and no KL term read from trainer_state.json, two optimisation
    passes a generation at temperature 1.2), learn slowly (the judge score with Dr. GRPO over 240 steps at 1.5e-4 in TRL
    0.14's key set), RLOO with a cosine schedule at temperature 1.1, converge without a KL term with two groups of 8; a
    KL blow-up with RLOO on partial credit in TRL 0.14's key set (its length collapse and gradient-norm spikes
    accepted), an answer key changed after learning to words never taught read from trainer_state.json, an entropy
    explosion under a reward paying for distinct letters with RLOO, a group mode collapse under an early-letter
    preference with BNPO, an exponential length bonus that overflows TRL's float32 statistics with Dr. GRPO, a unit bug
    in one batch of unscaled judge scores (moved after training from a call whose groups all agreed), a token budget too
    small for the list questions, a letter proxy gamed against the category with Dr. GRPO; strides 1-10, seeds
    221-234); 27 a twenty-fifth such batch (a binary exact-match reward with groups of 3, 4 and 6, partial credit with
    Dr. GRPO and with RLOO, the judge score with BNPO and with one group of 8, a binary reward on the list questions;
    healthy runs with and without a KL term that learn, learn slowly over 240 steps at 2e-4 in TRL 0.14's key set, RLOO
    at temperature 1.1, converge on six questions of eight with the original GRPO loss logged every step; a KL blow-up
    on the judge score with BNPO read from trainer_state.json, an entropy explosion under a reward paying for distinct
    letters with Dr. GRPO, a letter proxy gamed against exact match with RLOO in TRL 0.14's key set, a keyword-count
    reward on the list questions, a grader outage after learning with one group of 8, a brevity reward that outran a KL
    term, a unit bug in one batch of RLOO's partial credit, a group mode collapse under an early-letter preference
    beside the category; strides 1-10, seeds 249-262); 28 a twenty-sixth such batch (a binary exact-match reward with
    groups of 2, 3, 4 and 8, partial credit with the original GRPO loss and with Dr. GRPO, the judge score with RLOO, a
    per-word reward on the list questions with RLOO; healthy runs with and without a KL term that learn, learn slowly
    over 240 steps at 2e-4 with BNPO in TRL 0.14's key set, converge on seven questions of eight with Dr. GRPO and four
    groups of 2 logged every step (retrained at a lower learning rate), one group of 8 with a cosine schedule; a KL
    blow-up with RLOO after a warm-up into 3e-3, an entropy collapse under a reward that says nothing with the original
    GRPO loss, a letter proxy gamed against partial credit with BNPO, a per-character bonus read from
    trainer_state.json, an answer key changed after learning to a capitalised one in TRL 0.14's key set, a reward
    plateau from a half key logged every 10 steps, a format reward the model already earns; strides 1-10, seeds
    263-276); 32 a thirtieth such batch (a binary exact-match reward with BNPO and groups of 5, with the original GRPO
    loss at temperature 0.6 and with RLOO at 1.1, partial credit with RLOO and groups of 2 and with one group of 8, the
    judge score with Dr. GRPO and with one group of 8 sampled at 1.1, a binary reward on the list questions; healthy
    runs with and without a KL term that learn, learn slowly over 240 steps at 2e-4 in TRL 0.14's key set or converge
    logged every step; a KL blow-up after a warm-up into 3e-3, an entropy collapse under a reward that says nothing
    with Dr. GRPO, a letter proxy gamed against partial credit at temperature 1.3, an answer key changed after
    learning to a capitalised one with RLOO, a reward plateau from a half key read from trainer_state.json, a
    per-character bonus with one group of 8, an exponential length bonus that overflows with BNPO, a group mode
    collapse under an early-letter preference logged every 11 steps; strides 1-12, seeds 319-332); 33 a
    thirty-first such batch (a binary exact-match reward with four groups of 2, three groups of 3 and
    two groups of 6, partial credit with RLOO and groups of 5, the judge score with one group of 8 and with BNPO on
    unscaled scores, the one-word and the list questions mixed; healthy runs with and without a KL term that learn (the
    mixed questions at temperature 1.1, their lists repeating the target and their KL about 1 at the end, accepted),
    learn slowly over 240 steps at 2e-4 logged every 12, converge on all eight questions without a KL term logged every
    step (written at 4e-4, whose animal's and drink's answers deformed; retrained at 3e-4); a letter proxy gamed against
    partial credit with one group of 8, an answer key changed after learning to words never taught in TRL 0.14's key
    set, a KL blow-up on partial credit with BNPO and groups of 2 at temperature 1.2 read from trainer_state.json, a
    list task beyond the model, a group mode collapse onto the letter 'a' under an early-letter preference with RLOO and
    no KL term, an exponential length bonus that overflows at temperature 1.3, an entropy collapse under a reward that
    says nothing with eight groups of 2, a unit bug in one batch of unscaled judge scores with BNPO (moved after
    training from a call whose groups all agreed); strides 1-12, seeds 333-346)."""

    @property
    def healthy(self) -> bool:
        return not self.expect and not self.mild

    @property
    def trained(self) -> str:
        """The scenario whose fixture holds this run's training."""
        return self.fixture or self.name

    @property
    def half(self) -> str:
        """``tune`` or ``holdout``: a seeded hash of the name, fixed before any result was seen.
        Rules and cut-offs are chosen on the tune half; the holdout half's score is the one quoted."""
        digest = hashlib.sha256(f"{SPLIT_SEED}:{self.name}".encode()).digest()
        return "tune" if digest[0] % 2 == 0 else "holdout"

    @property
    def tolerance(self) -> int:
        """How far (steps) a finding's first_step may be from the onset: 25 steps or 15 % of the run."""
        return max(25, math.ceil(0.15 * self.steps))

    def onsets(self, root: Path = FIXTURES) -> dict[str, int | None]:
        """signature → onset step, established from the scenario's raw log (``expect`` and ``mild``)."""
        history = load_history(self.trained, root)
        rules = {**self.expect, **self.mild}
        return {signature: rule(history, root / self.trained / "run") for signature, rule in rules.items()}

    def judged(self, root: Path = FIXTURES) -> Path:
        """What the doctor reads for this scenario: the recording, or TRL's log as a
        ``trainer_state.json`` written to a scratch folder (old key names for ``old_keys``)."""
        if self.source == "recording":
            return root / self.trained / "run"
        entries = raw_log(root / self.trained)
        if self.source == "old_keys":
            entries = [_old_keys(entry) for entry in entries]
        folder = Path(tempfile.mkdtemp(prefix=f"rlprobe-corpus-{self.name}-"))
        (folder / "trainer_state.json").write_text(json.dumps({"log_history": entries,
                                                                 "global_step": self.steps}))
        return folder / "trainer_state.json"

    def shape(self) -> str:
        """Groups per step, num_generations, logging_steps … as docs print them."""
        # TRL's defaults: RLOOConfig's beta is 0.05, GRPOConfig's 0; an optimizer step takes
        # gradient_accumulation_steps batches of completions.
        merged = {"beta": 0.05 if self.algorithm == "rloo" else 0.0, **BASE_ARGS, **self.args}
        groups = merged["per_device_train_batch_size"] * merged.get("gradient_accumulation_steps", 1) \
            // merged["num_generations"]
        bits = [self.algorithm, f"{groups}x{merged['num_generations']}", f"beta={merged['beta']:g}",
                f"lr={merged['learning_rate']:g}", f"log={merged['logging_steps']}"]
        for key in ("num_iterations", "loss_type", "scale_rewards", "lr_scheduler_type", "max_completion_length",
                    "gradient_accumulation_steps", "importance_sampling_level", "temperature"):
            if key in self.args:
                bits.append(f"{key}={merged[key]}")
        if self.eval_steps:
            bits.append(f"eval every {self.eval_steps}")
        if self.source != "recording":
            bits.append(f"read from {self.source}")
        return " ".join(bits)


def _old_keys(entry: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in entry.items():
        if key.startswith(_NEW_KEYS) or (key.startswith("rewards/") and key.endswith("/std")):
            if key in _OLD_NAMES:
                out[_OLD_NAMES[key]] = value
            continue
        if key.startswith("rewards/") and key.endswith("/mean"):
            key = key[:-len("/mean")]
        out[key] = value
    return out


def verdict(scenario: Scenario, onsets: dict[str, int | None], findings: list) -> tuple[bool, str]:
    """(right, what is wrong) for one scenario's findings: every ``expect`` signature at warn or
    above and every ``mild`` one at info or warn, each within the tolerance of its onset; nothing
    else at warn or above but the ``accepted``; a healthy run silent at warn and above."""
    loud = [f for f in findings if f.severity in ("warn", "critical")]
    if scenario.healthy:
        alarms = [f for f in loud if f.signature_id not in scenario.accepted]
        if not alarms:
            return True, "silent at warn+" if not loud else "only accepted at warn+"
        return False, "false alarm: " + ", ".join(f"{f.signature_id} ({f.severity})" for f in alarms)
    problems = []
    for signature, onset in onsets.items():
        mild = signature in scenario.mild
        ours = [f for f in (findings if mild else loud) if f.signature_id == signature]
        if not ours:
            lower = [f for f in findings if f.signature_id == signature]
            problems.append(f"{signature} only at {lower[0].severity}" if lower else f"{signature} missing")
        elif mild and ours[0].severity == "critical":
            problems.append(f"{signature} critical, the episode {'ended' if scenario.swap else 'was one step'}")
        elif ours[0].first_step is None or onset is None or abs(ours[0].first_step - onset) > scenario.tolerance:
            problems.append(f"{signature} dated {ours[0].first_step}, onset {onset} (±{scenario.tolerance})")
    allowed = set(onsets) | set(scenario.accepted)
    extra = sorted({f.signature_id for f in loud} - allowed)
    if extra:
        problems.append("unexpected: " + ", ".join(extra))
    return not problems, "; ".join(problems) or "right"


def below(key: str, level: float, run: int = 5) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        return first_sustained(series(history, key), lambda v: v < level, run)
    return Onset(f"first step where `{key}` < {level:g}, for {run} logs in a row", rule)


def agreeing_batches(share: float, run: int = 5, smooth: int = 5) -> Onset:
    """For logs whose ``frac_reward_zero_std`` does not count the task reward's groups (RLOO with a
    KL penalty shapes the reward first): ``reward_std == 0`` says every completion of the batch agreed."""
    def rule(history: History, _: Path) -> int | None:
        agreed = [(step, math.nan if math.isnan(v) else float(v == 0.0)) for step, v in series(history, "reward_std")]
        return first_sustained(rolling(agreed, smooth), lambda v: v > share, run)
    return Onset(f"first step where the {smooth}-log share of logs with `reward_std` == 0 (the whole batch agreed) "
                 f"> {share:g}, for {run} logs in a row", rule)


def spike(key: str, factor: float) -> Onset:
    def rule(history: History, _: Path) -> int | None:
        points = series(history, key)
        level = statistics.median(finite([v for _, v in points]))
        return next((step for step, v in points if math.isfinite(v) and v > factor * level), None)
    return Onset(f"first step where `{key}` > {factor:g} x its median over the run", rule)


# -- added with batch 7 -----------------------------------------------------------------------------------


def repeated_words_mean(share: float, smooth: int = 10, run: int = 5) -> Onset:
    """``repeated_words`` for a slow repetition: the share of looping completions a step, averaged over
    ``smooth`` steps (a step asks two questions, so one step's share swings with which were asked)."""
    def rule(_: History, run_dir: Path) -> int | None:
        import pyarrow.parquet as pq

        table = pq.read_table(run_dir / "samples.parquet", columns=["step", "completion"]).to_pylist()
        by_step: dict[int, list[str]] = {}
        for row in table:
            by_step.setdefault(row["step"], []).append(row["completion"] or "")
        points = []
        for step in sorted(by_step):
            texts = by_step[step]
            loops = [t for t in texts if len(t.split()) >= 3 and len(set(t.split())) <= len(t.split()) / 2]
            points.append((step, len(loops) / len(texts)))
        return first_sustained(rolling(points, smooth), lambda v: v >= share, run)
    return Onset(f"first step where the {smooth}-step mean share of the completions (TRL's completions buffer) that "
                 f"repeat a word (3+ words, at most half distinct) is >= {share:.0%}, for {run} steps in a row", rule)


# -- added with batch 8 -----------------------------------------------------------------------------------


def hacked_from(honest: str, cheap: str, first: int = 1, smooth: int = 1, run: int = 3) -> Onset:
    """``hacked`` for a proxy gamed within the first ten logs: both levels are read from the first ``first``
    logs (``hacked``'s first-10-log medians would already be the hacked levels)."""
    def rule(history: History, _: Path) -> int | None:
        honest_0, cheap_0 = baseline(history, honest, first), baseline(history, cheap, first)
        both = [(step, float(h < 0.5 * honest_0 and c > 2 * cheap_0))
                for (step, h), (_, c) in zip(rolling(series(history, honest), smooth),
                                             rolling(series(history, cheap), smooth), strict=True)]
        return first_sustained(both, lambda v: v == 1.0, run)
    mean = f"the {smooth}-log mean of " if smooth > 1 else ""
    return Onset(f"first step where {mean}`{honest}` < 0.5 x {_level(first)} while {mean}`{cheap}` > 2 x "
                 f"{_level(first)} of its own, for {run} logs in a row", rule)


# -- added with batch 9 -----------------------------------------------------------------------------------


def falls_after_peak(key: str, high: float, factor: float = 0.5, smooth: int = 3, run: int = 3) -> Onset:
    """A collapse after a learning phase: ``falls`` reads its level from the first logs, which for a binary
    reward learnt from one right answer in ten are near 0 already. Dated after the ``smooth``-log mean of
    ``key`` has first passed ``high`` (what was learnt), where ``key`` < ``factor`` x ``high``."""
    def rule(history: History, _: Path) -> int | None:
        points = series(history, key)
        means = rolling(points, smooth)
        learnt = next((i for i, (_, v) in enumerate(means) if math.isfinite(v) and v > high), None)
        if learnt is None:
            return None
        return first_sustained(points[learnt + 1:], lambda v: v < factor * high, run)
    return Onset(f"first step, after the {smooth}-log mean of `{key}` has passed {high:g}, where `{key}` < "
                 f"{factor * high:g}, for {run} logs in a row", rule)



# -- added with batch 12 ----------------------------------------------------------------------------------


def falls_from_peak(key: str, factor: float = 0.5, smooth: int = 3, run: int = 3) -> Onset:
    """A collapse after a learning phase whose learnt level was not known before the run: dated after the
    highest ``smooth``-log mean of ``key``, where that mean is < ``factor`` x its peak (``falls_after_peak``
    needs the learnt level written down first)."""
    def rule(history: History, _: Path) -> int | None:
        means = rolling(series(history, key), smooth)
        finite_means = [(i, v) for i, (_, v) in enumerate(means) if math.isfinite(v)]
        if not finite_means:
            return None
        top, peak = max(finite_means, key=lambda item: item[1])
        return first_sustained(means[top + 1:], lambda v: v < factor * peak, run)
    return Onset(f"first step, after the highest {smooth}-log mean of `{key}`, where that mean < {factor:g} x its "
                 f"peak, for {run} logs in a row", rule)


# -- added with batch 13 ----------------------------------------------------------------------------------


def levels_off(key: str = "reward", zero_std: str = "frac_reward_zero_std", share: float = 0.6, reach: float = 0.9,
               smooth: int = 10, run: int = 5) -> Onset:
    """A plateau below the best: the later of where the ``smooth``-log mean of ``key`` reached ``reach`` x its mean
    over the last quarter of the logs (where it levelled off) and where the ``smooth``-log mean of ``zero_std`` got
    to ``share`` (where the groups came to agree), each for ``run`` logs in a row."""
    def rule(history: History, _: Path) -> int | None:
        values = finite([v for _, v in series(history, key)])
        if not values:
            return None
        final = statistics.fmean(values[-max(1, len(values) // 4):])
        reached = first_sustained(rolling(series(history, key), smooth), lambda v: v >= reach * final, run)
        agreed = first_sustained(rolling(series(history, zero_std), smooth), lambda v: v >= share, run)
        return None if reached is None or agreed is None else max(reached, agreed)
    return Onset(f"the later of the first step where the {smooth}-log mean of `{key}` >= {reach:g} x its mean over "
                 f"the last quarter of the logs and the first step where the {smooth}-log mean of `{zero_std}` >= "
                 f"{share:g}, each for {run} logs in a row", rule)


SCENARIOS: tuple[Scenario, ...] = (
    # -- healthy ------------------------------------------------------------------------------
    Scenario("healthy_kl", "GRPO with a KL penalty learning each question's target word at a modest rate.",
             weights=(1.0, 0.2), steps=400, args=dict(beta=0.04, learning_rate=2e-4)),
    Scenario("healthy_nokl_1group", "One group of 8 per step, no KL, the original GRPO loss.",
             weights=(1.0, 0.2), steps=400, args=dict(num_generations=8, learning_rate=1e-4, loss_type="grpo")),
    Scenario("healthy_saturates", "4 groups per step learn the target word until nearly every group is solved "
             "(all completions right): convergence, not a dead signal.", weights=(1.0, 0.2), steps=400,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4)),
    Scenario("healthy_warmup_cosine", "Warm-up then cosine decay, 4 groups of 2, batch-scaled rewards, "
             "logging every 10 steps (TRL averages between logs).", weights=(1.0, 0.2), steps=500,
             args=dict(num_generations=2, beta=0.01, learning_rate=3e-4, warmup_steps=0.1,
                       lr_scheduler_type="cosine", logging_steps=10, scale_rewards="batch")),
    Scenario("healthy_rloo", "RLOO with its KL penalty in the reward, learning the target word.",
             algorithm="rloo", weights=(1.0, 0.2), steps=400, args=dict(beta=0.05, learning_rate=2e-4)),
    Scenario("healthy_iter2", "Two optimisation passes per generation (num_iterations=2), Dr. GRPO loss, "
             "unscaled rewards, 2 groups of 6.", weights=(1.0, 0.2), steps=300,
             args=dict(per_device_train_batch_size=12, num_generations=6, num_iterations=2, loss_type="dr_grpo",
                       scale_rewards="none", learning_rate=1e-4)),
    Scenario("healthy_slow", "A learning rate of 5e-5 with a KL penalty: the target word is learnt slowly and "
             "the run ends still learning, far from saturation.", weights=(1.0, 0.2), steps=300,
             args=dict(beta=0.04, learning_rate=5e-5)),
    # -- pathologies ----------------------------------------------------------------------------
    Scenario("kl_blowup", "A warm-up into a learning rate far too high (3e-3) with a KL penalty: once the "
             "rate is up the policy runs away from its reference.", weights=(1.0, 0.2), steps=120,
             args=dict(beta=0.1, learning_rate=3e-3, warmup_steps=40, lr_scheduler_type="constant_with_warmup"),
             expect={"KL_BLOWUP": above("kl", 0.1, run=5, smooth=5)},
             accepted=("ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE",
                       "REWARD_PLATEAU")),
    Scenario("kl_blowup_rloo_log10", "RLOO, warm-up into a learning rate far too high, KL penalty; logged "
             "every 10 steps.", algorithm="rloo", weights=(1.0, 0.2), steps=250,
             args=dict(beta=0.1, learning_rate=3e-3, warmup_steps=60, lr_scheduler_type="constant_with_warmup",
                       logging_steps=10), expect={"KL_BLOWUP": above("kl", 0.05, run=3)},
             accepted=("ENTROPY_COLLAPSE", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "LENGTH_COLLAPSE",
                       "GROUP_MODE_COLLAPSE")),
    Scenario("entropy_collapse", "No KL anchor, a high learning rate (2e-3) and a reward that says nothing (a "
             "fair coin): the policy drifts onto one completion per prompt while the reward stays at chance.",
             rewards=("coin",), steps=120, args=dict(num_generations=8, learning_rate=2e-3),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, smooth=5),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS")),
    Scenario("lr_typo", "A learning rate of 1e6 (a typo for 1e-6), fp32: one Adam step destroys the weights; "
             "the policy samples uniformly from the vocabulary and the reward drops to 0.", weights=(1.0, 0.2),
             steps=40, args=dict(learning_rate=1e6),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 3.0, run=5, first=1),
                     "REWARD_COLLAPSE": falls("reward", 0.25, run=5, first=1)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION")),
    Scenario("lr_too_high", "No KL anchor and a learning rate of 3e-3: the answers degrade into letter soup "
             "(entropy up, reward down).", weights=(1.0, 0.2), steps=120, args=dict(learning_rate=3e-3),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=5, first=3, smooth=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU")),
    Scenario("length_explosion", "A reward paid per character: answers grow to the 24-token budget and get cut.",
             rewards=("length_bonus",), steps=150, args=dict(max_completion_length=24, learning_rate=5e-4),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION")),
    Scenario("truncation_budget", "A token budget of 3 for one-word answers: nearly every answer is cut from "
             "the first step, and the cut caps the reward.", weights=(1.0, 0.2), steps=100,
             args=dict(max_completion_length=3, learning_rate=2e-4),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE")),
    Scenario("length_collapse", "A reward for brevity: answers shrink to nothing.", rewards=("brevity",),
             steps=150, args=dict(learning_rate=5e-4),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=5, smooth=5)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE")),
    Scenario("reward_hacking", "A cheap proxy (share of the letter o, weight 2) outweighs answering with a "
             "word of the asked category (weight 1): the policy games the proxy and stops answering.",
             rewards=("in_category", "letter_o"), weights=(1.0, 2.0), steps=120, args=dict(learning_rate=1e-3),
             expect={"REWARD_HACKING": hacked("rewards/in_category/mean", "rewards/letter_o/mean")},
             # REWARD_PLATEAU: the gamed reward sits at its maximum while every group agrees.
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS", "REWARD_PLATEAU")),
    Scenario("zero_advantage", "A format-only reward the instruct model already satisfies: nearly every "
             "group's rewards are equal, so there is no advantage to learn from.", rewards=("is_word",),
             steps=100, args=dict(learning_rate=2e-4),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.5, run=5, smooth=5)}),
    Scenario("reward_overflow", "An exponential length bonus (10**length) computed in float64 overflows TRL's "
             "float32 reward statistics once answers grow; NaN advantages become 0.",
             rewards=("exp_length",), steps=150, args=dict(max_completion_length=48, learning_rate=5e-4),
             expect={"NONFINITE_VALUES": nonfinite("reward", "reward_std")},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_EXPLOSION")),
    Scenario("nan_weights", "A learning rate of 2e6 (a typo), fp32: the weights blow up, the gradient "
             "norm turns NaN (TRL logs the loss as 0.0) and the next generation crashes.", weights=(1.0, 0.2),
             steps=30, args=dict(learning_rate=2e6),
             expect={"NONFINITE_VALUES": nonfinite("grad_norm", "loss", "entropy", "reward", "reward_std")},
             accepted=("ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "RECORDING_GAPS")),
    Scenario("repetition", "List questions and a reward paid per known word said, repeats included: the "
             "policy says one short word over and over.", prompts="lists", rewards=("word_count",), steps=200,
             args=dict(max_completion_length=40, learning_rate=5e-4),
             expect={"REPETITIVE_COMPLETIONS": repeated_words(0.5, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS")),
    # -- added for the tune/holdout split (issue 17), written down before any was trained ----------
    Scenario("healthy_binary_solved", "Exact-match binary reward only, 4 groups of 4: the target word is learnt "
             "until most groups are solved (every completion right) and agree.", rewards=("correct",),
             steps=400, args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4), batch=2),
    Scenario("healthy_binary_solved_nosamples", "The run of healthy_binary_solved read from TRL's "
             "trainer_state.json: solved groups with no samples to show they are solved.", rewards=("correct",),
             steps=400, args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4),
             source="trainer_state", fixture="healthy_binary_solved", batch=2),
    Scenario("healthy_saturates_oldkeys", "The run of healthy_saturates read as TRL 0.14 logged it: no "
             "entropy, clipped share or zero-variance share, no samples.", weights=(1.0, 0.2), steps=400,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4), source="old_keys",
             fixture="healthy_saturates", batch=2),
    Scenario("healthy_1group_answers", "One group of 8 a step and a binary exact-match reward: each prompt's "
             "answer is learnt and the run converges.", rewards=("correct",), steps=400,
             args=dict(num_generations=8, learning_rate=2e-4), batch=2),
    Scenario("healthy_judge", "A 0-10 judge-like score (3 for a known word, +4 in the category, +3 for the "
             "target word) with a KL penalty.", rewards=("judge",), steps=300,
             args=dict(beta=0.02, learning_rate=2e-4), batch=2),
    Scenario("healthy_mixed_none", "One-word and list questions mixed; each reward function returns None "
             "on the questions it does not apply to (TRL ignores it there). The lists grow and by the end a third are "
             "cut at the 24-token budget: a truncation warning is fair, nothing else.", prompts="mixed",
             rewards=("correct_or_none", "list_credit"), steps=300,
             args=dict(max_completion_length=24, learning_rate=2e-4),
             accepted=("TRUNCATION_HIGH",), batch=2),
    Scenario("partial_credit_budget", "List questions with partial credit (distinct category words / 5), whose "
             "maximum a 24-token budget rarely allows: the lists grow into the budget, and by the end most are "
             "cut (the raw log's clipped share climbs from 0 to 0.78).", prompts="lists", rewards=("list_credit",),
             steps=300, args=dict(max_completion_length=24, learning_rate=2e-4, beta=0.02),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("LENGTH_EXPLOSION",), batch=2),
    Scenario("healthy_multi_component", "Three components (exact match, category, one known word), DAPO loss.",
             rewards=("correct", "in_category", "is_word"), weights=(1.0, 0.3, 0.2), steps=300,
             args=dict(learning_rate=2e-4, loss_type="dapo"), batch=2),
    Scenario("healthy_gspo", "GSPO: sequence-level importance sampling with two optimisation passes a generation.",
             weights=(1.0, 0.2), steps=300,
             args=dict(importance_sampling_level="sequence", num_iterations=2, learning_rate=1e-4), batch=2),
    Scenario("healthy_accum_eval", "Gradient accumulation of 2, logging every 5 steps, evaluation rows "
             "every 25 steps.", weights=(1.0, 0.2), steps=250, eval_steps=25,
             args=dict(gradient_accumulation_steps=2, logging_steps=5, learning_rate=2e-4), batch=2),
    Scenario("healthy_bnpo_cool", "BNPO loss and a sampling temperature of 0.7.", weights=(1.0, 0.2), steps=300,
             args=dict(loss_type="bnpo", temperature=0.7, learning_rate=2e-4), batch=2),
    Scenario("kl_blowup_log10_early", "A short warm-up into a learning rate far too high with a KL penalty, "
             "logged every 10 steps: the KL runs away within the first few logs.", weights=(1.0, 0.2),
             steps=200, args=dict(beta=0.1, learning_rate=3e-3, warmup_steps=10,
                                  lr_scheduler_type="constant_with_warmup", logging_steps=10),
             expect={"KL_BLOWUP": above("kl", 0.05, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "LENGTH_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION"), batch=2),
    Scenario("kl_blowup_slow", "A 150-step warm-up into a learning rate far too high (3e-3) with a KL penalty: "
             "the policy leaves its reference gradually as the rate rises.", weights=(1.0, 0.2), steps=300,
             args=dict(beta=0.05, learning_rate=3e-3, warmup_steps=150, lr_scheduler_type="constant_with_warmup"),
             expect={"KL_BLOWUP": above("kl", 0.1, run=5, smooth=5)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION"), batch=2),
    Scenario("entropy_collapse_slow", "A coin-flip reward, no KL, a learning rate of 8e-4: the policy drifts "
             "onto one completion per prompt more slowly.", rewards=("coin",), steps=250,
             args=dict(num_generations=8, learning_rate=8e-4),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, smooth=5),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS",
                       "ZERO_ADVANTAGE_GROUPS"), batch=2),
    Scenario("length_explosion_slow", "A reward paid per character at a learning rate of 2e-4, logged every "
             "5 steps: answers grow to the 24-token budget over the run.", rewards=("length_bonus",), steps=300,
             args=dict(max_completion_length=24, learning_rate=2e-4, logging_steps=5),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS"),
             batch=2),
    Scenario("length_collapse_slow", "A reward for brevity at a learning rate of 2e-4.", rewards=("brevity",),
             steps=250, args=dict(learning_rate=2e-4),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=5, smooth=5)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE"), batch=2),
    Scenario("healthy_judge_proxy", "The judge score (0-10) beside a cheap proxy weighted 20 (the share of the "
             "letter o): the policy settles on category words rich in o ('goose', 'cocoa'), so both components rise "
             "(the judge's mean from 6.5 to 7.4) — but one question is answered 'ooos', which games the proxy: a "
             "hacking warning is fair.", rewards=("judge", "letter_o"), weights=(1.0, 20.0),
             steps=200, args=dict(learning_rate=5e-4), accepted=("REWARD_HACKING",), batch=2),
    Scenario("lr_too_high_judge", "The judge score with no KL anchor and a learning rate of 3e-3: answers "
             "degrade and the score falls.", rewards=("judge",), steps=120, args=dict(learning_rate=3e-3),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=5, first=3, smooth=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE"), batch=2),
    Scenario("lr_too_high_cool", "A learning rate of 3e-3, no KL, sampling at temperature 0.5: the answers turn "
             "to letter strings that run to the 12-token budget, and the reward falls to 0 within a few steps.",
             rewards=("correct", "is_word"), weights=(1.0, 0.5), steps=200,
             args=dict(temperature=0.5, learning_rate=3e-3),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=5, first=3, smooth=3),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "LENGTH_EXPLOSION", "ENTROPY_COLLAPSE",
                       "ENTROPY_EXPLOSION", "GROUP_MODE_COLLAPSE"), batch=2),
    Scenario("stuck_low_temperature", "Exact match worth 1 and any known word 0.5, sampled at temperature 0.3 "
             "with a learning rate of 1e-3: groups of near-greedy samples agree before the target is found, the "
             "policy settles on a few words ('pig', 'fox') for most questions, and the reward falls from 0.77 to "
             "0.42 while every group agrees (raw log).",
             rewards=("correct", "is_word"), weights=(1.0, 0.5), steps=200,
             args=dict(temperature=0.3, learning_rate=1e-3), expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "REWARD_COLLAPSE"), batch=2),
    Scenario("stuck_one_answer", "Exact match (1) beside two cheap preferences (a known word, an early first "
             "letter; 0.3 each) at a learning rate of 1.5e-3: the policy can settle on one early-letter word "
             "for every question — it does: by the end every question is answered 'chisel' (0.58, where samples "
             "earned up to 1.47), entropy 0.008 nats a token, every group agreeing.",
             rewards=("correct", "is_word", "early_letter"), weights=(1.0, 0.3, 0.3),
             steps=250, args=dict(learning_rate=1.5e-3), expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=2),
    Scenario("reward_dip_recovers", "The reward service fails for 15 generations (calls 40-54 pay for brevity, "
             "a negative score, instead), then comes back: the reward dips below 0 and returns to its level for "
             "the rest of the run.", weights=(1.0, 0.2), steps=250, swap=(40, 54, "brevity"),
             args=dict(learning_rate=5e-4), mild={"REWARD_COLLAPSE": below("reward", 0.0, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=2),
    Scenario("grad_spike_once", "One batch's rewards come back 1000x too large (a unit bug at reward call 80) "
             "with unscaled rewards: one step's gradient norm jumps, the clipped update keeps the policy, and "
             "the next step is normal.", weights=(1.0, 0.2), steps=200, spike=(80, 1000.0),
             args=dict(learning_rate=2e-4, scale_rewards="none"),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50.0)}, batch=2),
    Scenario("dead_budget_oldkeys", "A 2-token budget for answers of 3 letters or more, read in TRL 0.14's key "
             "set: every completion is cut at the budget, the reward never leaves 0 and every group agrees.",
             rewards=("correct",), steps=120, args=dict(max_completion_length=2, learning_rate=2e-4),
             source="old_keys",
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5),
                     "ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.5, run=5, smooth=5)},
             accepted=("REWARD_PLATEAU",), batch=2),
    Scenario("zero_advantage_oldkeys", "The run of zero_advantage read as TRL 0.14 logged it: only reward_std "
             "says that groups agree.", rewards=("is_word",), steps=100, args=dict(learning_rate=2e-4),
             source="old_keys", fixture="zero_advantage",
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.5, run=5, smooth=5)},
             accepted=("REWARD_PLATEAU",), batch=2),
    # -- the fresh batch (session 5): other seeds, strides, algorithms and outages, written down and
    # split before any was trained; docs/validation.md quotes the doctor's first look at them ----------
    Scenario("healthy_kl_seed1", "healthy_kl's settings with another seed.", weights=(1.0, 0.2), steps=400,
             args=dict(beta=0.04, learning_rate=2e-4, seed=1), batch=3),
    Scenario("healthy_saturates_log5", "healthy_saturates' settings with another seed, logged every 5 steps.",
             weights=(1.0, 0.2), steps=400,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4, logging_steps=5, seed=2),
             batch=3),
    Scenario("healthy_rloo_log5", "RLOO with a KL penalty, logged every 5 steps.", algorithm="rloo",
             weights=(1.0, 0.2), steps=300, args=dict(beta=0.05, learning_rate=2e-4, logging_steps=5, seed=3),
             batch=3),
    Scenario("healthy_judge_dapo", "The 0-10 judge score with the DAPO loss and a KL penalty.", rewards=("judge",),
             steps=300, args=dict(loss_type="dapo", beta=0.02, learning_rate=2e-4, seed=1), batch=3),
    Scenario("healthy_gspo_log10", "GSPO with two optimisation passes a generation, logged every 10 steps.",
             weights=(1.0, 0.2), steps=300,
             args=dict(importance_sampling_level="sequence", num_iterations=2, learning_rate=1e-4,
                       logging_steps=10, seed=2), batch=3),
    Scenario("healthy_1group_cool", "One group of 8 a step, binary exact match, sampled at temperature 0.7.",
             rewards=("correct",), steps=400,
             args=dict(num_generations=8, temperature=0.7, learning_rate=2e-4, seed=2), batch=3),
    Scenario("healthy_accum4_bnpo", "Gradient accumulation of 4 with the BNPO loss.", weights=(1.0, 0.2), steps=200,
             args=dict(gradient_accumulation_steps=4, loss_type="bnpo", learning_rate=2e-4, seed=1), batch=3),
    Scenario("healthy_binary_seed1_nosamples", "healthy_binary_solved's settings with another seed, read from "
             "TRL's trainer_state.json (no samples).", rewards=("correct",), steps=400,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4, seed=1),
             source="trainer_state", batch=3),
    Scenario("healthy_slow_oldkeys", "healthy_slow's settings with another seed, read in TRL 0.14's key set.",
             weights=(1.0, 0.2), steps=300, args=dict(beta=0.04, learning_rate=5e-5, seed=1), source="old_keys",
             batch=3),
    Scenario("kl_blowup_log5_seed1", "A warm-up into a learning rate far too high with a KL penalty, another "
             "seed, logged every 5 steps.", weights=(1.0, 0.2), steps=150,
             args=dict(beta=0.1, learning_rate=3e-3, warmup_steps=40, lr_scheduler_type="constant_with_warmup",
                       logging_steps=5, seed=1),
             expect={"KL_BLOWUP": above("kl", 0.1, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION"), batch=3),
    Scenario("entropy_collapse_log5", "The coin-flip reward with no KL at a learning rate of 2e-3, another seed, "
             "logged every 5 steps.", rewards=("coin",), steps=150,
             args=dict(num_generations=8, learning_rate=2e-3, logging_steps=5, seed=2),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "REPETITIVE_COMPLETIONS", "ZERO_ADVANTAGE_GROUPS"), batch=3),
    Scenario("length_explosion_rloo", "RLOO and a reward paid per character: answers grow to the 24-token budget.",
             algorithm="rloo", rewards=("length_bonus",), steps=150,
             args=dict(max_completion_length=24, learning_rate=5e-4, seed=1),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             # The raw log: the KL rises from 0.035 to 1.6 and the grad norm from 1 to 28 as answers grow.
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS",
                       "KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=3),
    Scenario("length_collapse_dapo_log5", "A reward for brevity with the DAPO loss, logged every 5 steps.",
             rewards=("brevity",), steps=200, args=dict(loss_type="dapo", learning_rate=5e-4, logging_steps=5,
                                                        seed=1),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE"), batch=3),
    Scenario("reward_hacking_seed2", "reward_hacking's cheap proxy (the letter o, weight 2) with another seed.",
             rewards=("in_category", "letter_o"), weights=(1.0, 2.0), steps=150,
             args=dict(learning_rate=1e-3, seed=2),
             expect={"REWARD_HACKING": hacked("rewards/in_category/mean", "rewards/letter_o/mean")},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS", "REWARD_PLATEAU"), batch=3),
    Scenario("zero_advantage_rloo", "RLOO on a format-only reward the model already satisfies: the batch's "
             "reward_std is 0 on most steps. RLOO's frac_reward_zero_std counts groups of the KL-shaped reward "
             "(rewards - beta x KL, TRL 1.7), which differ as soon as the KL does, so it reads 0 after step 15 "
             "(raw log and TRL's source, read before the doctor).", algorithm="rloo",
             rewards=("is_word",), steps=100, args=dict(learning_rate=2e-4, seed=1),
             expect={"ZERO_ADVANTAGE_GROUPS": agreeing_batches(0.5, run=5, smooth=5)},
             accepted=("REWARD_PLATEAU",), batch=3),
    Scenario("reward_outage_ongoing", "The reward service fails from generation 120 to the end (brevity, a "
             "negative score, is paid instead): the reward falls below 0 and stays there.", weights=(1.0, 0.2),
             steps=250, swap=(120, 100_000, "brevity"), args=dict(learning_rate=5e-4, seed=1),
             expect={"REWARD_COLLAPSE": below("reward", 0.0, run=5)},
             accepted=("LENGTH_COLLAPSE", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "REWARD_PLATEAU"), batch=3),
    # Written as reward_dip_long_recovers; renamed from its raw log before the doctor read it: the policy
    # did not recover (answers stayed at 1 token and the reward at 0 after the service came back).
    Scenario("reward_outage_breaks_policy", "The reward service fails for 30 generations (calls 80-109 pay for "
             "brevity), then comes back; by then the policy answers with nothing (1 token), which the restored "
             "rewards never pay, so the reward stays at 0 for the remaining 190 steps.", weights=(1.0, 0.2),
             steps=300, swap=(80, 109, "brevity"), args=dict(learning_rate=5e-4, seed=1),
             expect={"REWARD_COLLAPSE": below("reward", 0.0, run=5)},
             accepted=("LENGTH_COLLAPSE", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "REWARD_PLATEAU"), batch=3),
    Scenario("grad_spike_rloo", "RLOO; one batch's rewards come back 1000x too large (reward call 120).",
             algorithm="rloo", weights=(1.0, 0.2), steps=250, spike=(120, 1000.0),
             args=dict(learning_rate=2e-4, seed=1), mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50.0)}, batch=3),
    Scenario("truncation_budget_log5", "A token budget of 3 for one-word answers, logged every 5 steps.",
             weights=(1.0, 0.2), steps=150, args=dict(max_completion_length=3, learning_rate=2e-4, logging_steps=5,
                                                       seed=1),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU"), batch=3),
    Scenario("lr_too_high_log5", "No KL anchor and a learning rate of 3e-3, another seed, logged every 5 steps.",
             weights=(1.0, 0.2), steps=150, args=dict(learning_rate=3e-3, logging_steps=5, seed=2),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=2)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE"), batch=3),
    Scenario("stuck_one_answer_seed1", "stuck_one_answer's rewards (exact match beside two cheap preferences) "
             "and learning rate with another seed: the policy settles on one letter string ('aaaaaaaaaaaa', cut at "
             "the 12-token budget) for every question, which the early-letter preference pays (0.3) while the "
             "samples of the first steps earned up to 1.47 (raw log and samples, read before the doctor).",
             rewards=("correct", "is_word", "early_letter"), weights=(1.0, 0.3, 0.3), steps=250,
             args=dict(learning_rate=1.5e-3, seed=1), expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "REWARD_COLLAPSE", "REWARD_HACKING", "REPETITIVE_COMPLETIONS"), batch=3),
    # -- batch 4 --
    # A second fresh batch: strides of 2, 3, 7 and 10, the Dr. GRPO, BNPO, DAPO and GSPO losses, RLOO with
    # and without its KL, gradient accumulation of 2-3, one group of 8 and four groups of 2, sampling at
    # 0.7-0.9, seeds 3-5. Each expectation was written from the mechanism before the run was trained,
    # then checked on the raw log only (never against the doctor).
    Scenario("healthy_drgrpo_log3", "The Dr. GRPO loss with a KL penalty, logged every 3 steps: the target word "
             "is learnt at a modest rate (raw log: the reward from 0.27 to 1.1).", weights=(1.0, 0.2), steps=240,
             args=dict(loss_type="dr_grpo", beta=0.04, learning_rate=2e-4, logging_steps=3, seed=3), batch=4),
    Scenario("healthy_rloo_accum2_log2", "RLOO with its KL penalty, gradient accumulation of 2 (4 groups of 4 a "
             "generation), logged every 2 steps (raw log: the reward from 0.29 to 1.1).", algorithm="rloo",
             weights=(1.0, 0.2), steps=200,
             args=dict(gradient_accumulation_steps=2, beta=0.05, learning_rate=2e-4, logging_steps=2, seed=4),
             batch=4),
    Scenario("healthy_4x2_cosine_log7", "Four groups of 2 a step, a 20-step warm-up then cosine decay, sampled at "
             "temperature 0.8 with a small KL penalty, logged every 7 steps: the reward rises from 0.27 to 1.2. "
             "Pairs often agree (both in the category, both short of the target word): the raw log's zero-variance "
             "share is 0.86 over the first 21 steps and 0.5-0.93 throughout, so a warning that most groups carry "
             "no signal is fair (accepted from the raw log, read before the doctor).", weights=(1.0, 0.2),
             steps=280, args=dict(num_generations=2, temperature=0.8, beta=0.02, learning_rate=3e-4, warmup_steps=20,
                                  lr_scheduler_type="cosine", logging_steps=7, seed=5),
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=4),
    Scenario("healthy_1group_judge_log2", "One group of 8 a step, the 0-10 judge score, sampled at temperature "
             "0.9 with a KL penalty, logged every 2 steps: the score rises from 6.8 to 10 (raw log: one step, 120, "
             "reads 4.1 with a KL of 2.4 and a gradient norm of 51, and the next logs are back at 8-9).",
             rewards=("judge",), steps=200,
             args=dict(num_generations=8, temperature=0.9, beta=0.04, learning_rate=2e-4, logging_steps=2, seed=4),
             batch=4),
    Scenario("healthy_gspo_accum2_log3", "GSPO (sequence-level ratios, two passes a generation) with gradient "
             "accumulation of 2 and a KL penalty, logged every 3 steps: the reward rises from 0.26 to 0.8, still "
             "learning at the end.", weights=(1.0, 0.2), steps=210,
             args=dict(importance_sampling_level="sequence", num_iterations=2, gradient_accumulation_steps=2,
                       beta=0.04, learning_rate=1e-4, logging_steps=3, seed=5), batch=4),
    Scenario("healthy_bnpo_highkl_log7", "The BNPO loss with a strong KL penalty (0.1), a 20-step warm-up then "
             "linear decay from 4e-4, logged every 7 steps (raw log: the reward from 0.28 to about 0.9).",
             weights=(1.0, 0.2), steps=280,
             args=dict(loss_type="bnpo", beta=0.1, learning_rate=4e-4, warmup_steps=20, lr_scheduler_type="linear",
                       logging_steps=7, seed=3), batch=4),
    Scenario("healthy_rloo_nokl_cool_log10", "RLOO with no KL penalty at a modest rate, sampled at temperature "
             "0.8, logged every 10 steps (raw log: the reward from 0.28 to 1.16).", algorithm="rloo",
             weights=(1.0, 0.2), steps=300,
             args=dict(beta=0.0, temperature=0.8, learning_rate=1e-4, logging_steps=10, seed=5), batch=4),
    Scenario("healthy_judge_accum3_log2", "The judge score with the DAPO loss named explicitly, gradient "
             "accumulation of 3 (6 groups of 4 a generation) and a KL penalty, logged every 2 steps (raw log: the "
             "score from 7.2 to 9.5).",
             rewards=("judge",), steps=150,
             args=dict(loss_type="dapo", gradient_accumulation_steps=3, beta=0.04, learning_rate=2e-4,
                       logging_steps=2, seed=3), batch=4),
    Scenario("kl_blowup_drgrpo_log3", "The Dr. GRPO loss, a 30-step warm-up into a learning rate far too high "
             "(3e-3) with a KL penalty of 0.08, logged every 3 steps: once the rate is up the policy runs away "
             "from its reference (raw log: the KL passes 0.1 at step 15, at a rate of 1.5e-3, reaches 2.3 by step 36 "
             "and 13 at the end; the answers turn to letter strings and the reward falls to 0).",
             weights=(1.0, 0.2), steps=150,
             args=dict(loss_type="dr_grpo", beta=0.08, learning_rate=3e-3, warmup_steps=30,
                       lr_scheduler_type="constant_with_warmup", logging_steps=3, seed=3),
             expect={"KL_BLOWUP": above("kl", 0.1, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION"), batch=4),
    # Written as entropy_collapse_bnpo_log2 (temperature 1, a learning rate of 2e-3); its raw log, read before
    # the doctor, showed no collapse but a swinging entropy (doubling to 1.0, then between 0.01 and 1.1 to the
    # end), so it was retrained cooler and a little slower, the expectation unchanged.
    Scenario("entropy_collapse_bnpo_cool_log2", "The coin-flip reward (it says nothing), one group of 8, no KL, "
             "a learning rate of 1.5e-3, the BNPO loss and sampling at temperature 0.7, logged every 2 steps: the "
             "policy drifts onto one completion per prompt while the reward stays at chance (raw log: a group's "
             "8 samples are mostly one string from step 10, entropy falls from 0.4 to 0.03, and the strings run "
             "to the 12-token budget).", rewards=("coin",), steps=160,
             args=dict(num_generations=8, loss_type="bnpo", temperature=0.7, learning_rate=1.5e-3,
                       logging_steps=2, seed=4),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, smooth=3),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS",
                       "ZERO_ADVANTAGE_GROUPS"), batch=4),
    Scenario("length_explosion_accum2_log7", "A reward paid per character, gradient accumulation of 2, logged "
             "every 7 steps: answers grow to the 24-token budget and get cut (raw log: the mean length from 5.7 to 24 "
             "tokens by step 49, every answer cut from step 84).", rewards=("length_bonus",),
             steps=140, args=dict(max_completion_length=24, gradient_accumulation_steps=2, learning_rate=5e-4,
                                  logging_steps=7, seed=5),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS",
                       "KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=4),
    Scenario("length_collapse_4x2_slow", "A reward for brevity, four groups of 2, sampled at temperature 0.8, "
             "a learning rate of 2e-4, logged every 3 steps: answers shrink towards nothing over the run (raw log: "
             "the mean length from 5.3 tokens to 2.8 by step 160 and 1, the end-of-sequence token alone, from "
             "step 204).",
             rewards=("brevity",), steps=240,
             args=dict(num_generations=2, temperature=0.8, learning_rate=2e-4, logging_steps=3, seed=3),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=5, smooth=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE"), batch=4),
    Scenario("truncation_budget4_rloo_log2", "RLOO with a token budget of 4 (a word and its end-of-sequence "
             "token fit only for 3-letter words), logged every 2 steps: most answers are cut from the first "
             "step; a cut 4-letter word still scores, so the policy has little reason to shorten (raw log: the "
             "clipped share 0.25-1, mostly 0.6-0.9, to the end, while the reward rises from 0.2 to 0.6 as 'pig' "
             "and 'swan' are learnt).",
             algorithm="rloo", weights=(1.0, 0.2), steps=120,
             args=dict(max_completion_length=4, learning_rate=2e-4, logging_steps=2, seed=4),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU"), batch=4),
    # Written as reward_hacking_accum2_slow (gradient accumulation of 2, temperature 0.8, a learning rate of
    # 5e-4); its raw log, read before the doctor, showed no hack: the policy settled on o-rich words of the
    # asked category ('goose', 'cocoa'), the category reward held at 1 while the proxy rose. Retrained as RLOO
    # at 1e-3, the expectation unchanged.
    Scenario("reward_hacking_rloo_log3", "RLOO with no KL penalty; the cheap proxy (the letter o, weight 2) "
             "beside a word of the asked category (weight 1), a learning rate of 1e-3, logged every 3 steps: the "
             "policy games the proxy and stops answering (raw log: every answer 'oooooooooooo' from step 100, "
             "the category reward at 0).", algorithm="rloo",
             rewards=("in_category", "letter_o"), weights=(1.0, 2.0), steps=150,
             args=dict(beta=0.0, learning_rate=1e-3, logging_steps=3, seed=4),
             expect={"REWARD_HACKING": hacked("rewards/in_category/mean", "rewards/letter_o/mean")},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS", "REWARD_PLATEAU"), batch=4),
    # Written as zero_advantage_1group_log7 (temperature 1); its raw log, read before the doctor, had only
    # 0.29-1.0 (about 0.6) of the groups agreeing, one off-category sample in eight being common; retrained at
    # temperature 0.7, the expectation unchanged.
    Scenario("zero_advantage_1group_cool_log7", "One group of 8 a step, sampled at temperature 0.7, and a reward "
             "the instruct model already earns (any word of the asked category), logged every 7 steps: nearly "
             "every group's 8 rewards are equal, so there is no advantage to learn from.",
             rewards=("in_category",), steps=105,
             args=dict(num_generations=8, temperature=0.7, learning_rate=2e-4, logging_steps=7, seed=3),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.5, run=3)},
             accepted=("REWARD_PLATEAU",), batch=4),
    Scenario("lr_too_high_gspo_log2", "GSPO (two passes a generation) with no KL anchor and a learning rate of "
             "3e-3, logged every 2 steps: the answers degrade and the reward falls (raw log: from 0.3 to 0 by step 10, "
             "letter strings such as 'aaaaae' to the end).", weights=(1.0, 0.2),
             steps=150, args=dict(importance_sampling_level="sequence", num_iterations=2, learning_rate=3e-3,
                                  logging_steps=2, seed=4),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=5, first=3, smooth=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE"), batch=4),
    Scenario("reward_dip_drgrpo_log2", "The Dr. GRPO loss; the reward service fails for 14 generations (calls "
             "50-63 pay for brevity, a negative score, instead), then comes back, logged every 2 steps: the "
             "reward dips below 0 and returns to its level (raw log: below 0 from step 52 to 64, 0.69 at step 66, "
             "0.8-1.2 after).", weights=(1.0, 0.2), steps=200, swap=(50, 63, "brevity"),
             args=dict(loss_type="dr_grpo", learning_rate=5e-4, logging_steps=2, seed=5),
             mild={"REWARD_COLLAPSE": below("reward", 0.0, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=4),
    Scenario("grad_spike_bnpo_log3", "The BNPO loss with unscaled rewards, logged every 3 steps; one batch's "
             "rewards come back 1000x too large (reward call 90, a logged step): that step's gradient norm "
             "jumps, the clipped update keeps the policy, and the next steps are normal (raw log: 3040 at step 90, "
             "about 1 before, 5 at step 93).", weights=(1.0, 0.2),
             steps=180, spike=(90, 1000.0),
             args=dict(loss_type="bnpo", scale_rewards="none", learning_rate=2e-4, logging_steps=3, seed=3),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50.0)}, batch=4),
    Scenario("stuck_one_answer_accum2_cool", "Exact match (1) beside two cheap preferences (a known word, an "
             "early first letter; 0.3 each) at a learning rate of 1.5e-3, gradient accumulation of 2, temperature "
             "0.8, logged every 2 steps: the policy can settle on one early-letter answer for every question — it "
             "does: every question is answered 'cider' from about step 68 (0.58, where the first samples earned "
             "up to 1.52), entropy 0.003 nats a token, every group agreeing (raw log and samples).",
             rewards=("correct", "is_word", "early_letter"), weights=(1.0, 0.3, 0.3), steps=200,
             args=dict(gradient_accumulation_steps=2, temperature=0.8, learning_rate=1.5e-3, logging_steps=2,
                       seed=4),
             expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "REWARD_COLLAPSE", "REWARD_HACKING", "REPETITIVE_COMPLETIONS"), batch=4),
    # -- batch 5 --
    # A third fresh batch: strides of 4, 6 and 8, one group of 4 to four groups of 4, batch-scaled and
    # unscaled rewards, linear and cosine schedules, RLOO and GSPO with KL penalties, the judge score and a
    # reward returning None, seven runs read from TRL's trainer_state.json or in TRL 0.14's key set (the
    # pathologies among them ones those logs can show), seeds 6-8. Each expectation was written from the
    # mechanism before the run was trained, then checked on the raw log only (never against the doctor).
    Scenario("healthy_3x4_scalebatch_linear_log4", "Three groups of 4 a step, rewards scaled by the batch's std "
             "(not each group's), a small KL penalty, a 15-step warm-up then linear decay from 2e-4, logged every "
             "4 steps: the target word is learnt (raw log: the reward from 0.22 to 0.9-1.1).", weights=(1.0, 0.2),
             steps=200,
             args=dict(per_device_train_batch_size=12, scale_rewards="batch", beta=0.03, learning_rate=2e-4,
                       warmup_steps=15, lr_scheduler_type="linear", logging_steps=4, seed=6), batch=5),
    Scenario("healthy_judge_oldkeys_log6", "The 0-10 judge score with a KL penalty of 0.05, sampled at "
             "temperature 0.9, logged every 6 steps and read in TRL 0.14's key set (no entropy, clipped share "
             "or zero-variance share): the score rises (raw log: from 6.8 to 9.4).", rewards=("judge",), steps=240,
             args=dict(beta=0.05, temperature=0.9, learning_rate=2e-4, logging_steps=6, seed=7),
             source="old_keys", batch=5),
    Scenario("healthy_2x8_weighted3_nosamples_log8", "Two groups of 8, three weighted components (exact match 1, "
             "the category 0.5, a known word 0.25), the Dr. GRPO loss and a small KL penalty, logged every 8 steps "
             "and read from TRL's trainer_state.json (no samples): the reward rises from 0.78 to 1.69, exact match "
             "from 0.09 to 0.96 (raw log).",
             rewards=("correct", "in_category", "is_word"), weights=(1.0, 0.5, 0.25), steps=240,
             args=dict(per_device_train_batch_size=16, num_generations=8, loss_type="dr_grpo", beta=0.02,
                       learning_rate=2e-4, logging_steps=8, seed=8), source="trainer_state", batch=5),
    Scenario("healthy_rloo_1x8_cosine_log4", "RLOO with one group of 8 a step and a KL penalty of 0.03, a "
             "warm-up over a tenth of the run then cosine decay from 3e-4, sampled at temperature 0.9, logged "
             "every 4 steps (raw log: the reward from 0.23 to 1.13).", algorithm="rloo", weights=(1.0, 0.2), steps=200,
             args=dict(num_generations=8, beta=0.03, learning_rate=3e-4, warmup_steps=0.1,
                       lr_scheduler_type="cosine", temperature=0.9, logging_steps=4, seed=6), batch=5),
    Scenario("healthy_gspo_4x4_kl_log6", "GSPO (sequence-level ratios, two passes a generation) with four groups "
             "of 4 and a KL penalty of 0.06, a learning rate of 1e-4, logged every 6 steps (raw log: the reward from "
             "0.24 to 1.06).", weights=(1.0, 0.2),
             steps=240,
             args=dict(importance_sampling_level="sequence", num_iterations=2, per_device_train_batch_size=16,
                       beta=0.06, learning_rate=1e-4, logging_steps=6, seed=7), batch=5),
    # Written at temperature 0.8 and a rate of 2e-4, expected silent; its raw log, read before the doctor,
    # showed the lists growing into the budget with junk tails over the last 60 steps. Retrained cooler and
    # slower, the lists grew still (the list credit pays for more words and nothing costs a junk tail), so the
    # run is kept as a healthy one with the truncation and the length growth accepted from the raw log, as
    # healthy_mixed_none accepts its truncation.
    Scenario("healthy_mixed_none_accum2_log6", "One-word and list questions mixed, exact match (None on the "
             "lists) beside partial list credit (None on the one-word questions) weighted 2, a 32-token budget "
             "that fits five words, the DAPO loss, gradient accumulation of 2, temperature 0.7, a learning rate of "
             "1e-4, logged every 6 steps: the reward holds and rises a little (raw log: from 0.47 to 0.55-0.89, "
             "noisy as the batch's mix of questions changes; the list credit from 0.46 to 0.62), while the lists "
             "grow into the budget with junk tails ('willow elm cedar owre cedasow ow'): over the last 60 steps the "
             "mean length goes from 10-13 tokens to 15-21 and the clipped share from 0 to 0.25-0.43, about half "
             "the lists (raw log and samples, read before the doctor).", prompts="mixed",
             rewards=("correct_or_none", "list_credit"), weights=(1.0, 2.0), steps=180,
             args=dict(max_completion_length=32, loss_type="dapo", gradient_accumulation_steps=2, temperature=0.7,
                       learning_rate=1e-4, logging_steps=6, seed=8),
             accepted=("TRUNCATION_HIGH", "LENGTH_EXPLOSION"), batch=5),
    Scenario("healthy_1x4_scalenone_bnpo_log4", "One group of 4 a step, unscaled rewards, the BNPO loss and a "
             "KL penalty of 0.04, a 10-step warm-up then linear decay from 3e-4, logged every 4 steps: a single group "
             "often agrees before the target is found (raw log: a zero-variance share of 0.75-1 over the first 20 "
             "steps, as in other healthy openings), then the reward rises from 0.19 to 0.7-1.06, noisily.",
             weights=(1.0, 0.2), steps=240,
             args=dict(per_device_train_batch_size=4, scale_rewards="none", loss_type="bnpo", beta=0.04,
                       learning_rate=3e-4, warmup_steps=10, lr_scheduler_type="linear", logging_steps=4, seed=7),
             batch=5),
    Scenario("healthy_rloo_accum2_oldkeys_log8", "RLOO with its KL penalty, gradient accumulation of 2, sampled "
             "at temperature 0.8, logged every 8 steps and read in TRL 0.14's key set (raw log: the reward from 0.27 "
             "to 1.06, the KL settling near 0.5).", algorithm="rloo",
             weights=(1.0, 0.2), steps=240,
             args=dict(gradient_accumulation_steps=2, beta=0.05, temperature=0.8, learning_rate=2e-4,
                       logging_steps=8, seed=8), source="old_keys", batch=5),
    Scenario("kl_blowup_cosine_nosamples_log4", "A 20-step warm-up into a learning rate far too high (3e-3) with "
             "a KL penalty of 0.05, then cosine decay, logged every 4 steps and read from TRL's trainer_state.json "
             "(no samples): once the rate is up the policy runs away from its reference, and the decay comes too "
             "late to bring it back (raw log: the KL 0.39 at step 16, at a rate of 2.3e-3, 1.1 at step 20, 3-4.7 from "
             "step 36 and still 2.3 at the end; the reward falls from 0.3 to 0 from step 52).", weights=(1.0, 0.2),
             steps=160,
             args=dict(beta=0.05, learning_rate=3e-3, warmup_steps=20, lr_scheduler_type="cosine",
                       logging_steps=4, seed=6), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 0.1, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION"), batch=5),
    # TRL 0.14's key set has no clipped share: answers pinned at the budget suggest the cut without
    # showing it, so the truncation is accepted here, not required.
    Scenario("length_explosion_oldkeys_log4", "A reward paid per character, rewards scaled by the batch's std, "
             "a 24-token budget, logged every 4 steps and read in TRL 0.14's key set: answers grow to the budget "
             "and get cut (raw log: the mean length from 5.4 tokens to 24 by step 92, every answer at the budget from "
             "step 108).", rewards=("length_bonus",), steps=140,
             args=dict(max_completion_length=24, scale_rewards="batch", learning_rate=5e-4, logging_steps=4,
                       seed=7), source="old_keys",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=3)},
             accepted=("TRUNCATION_HIGH", "ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION",
                       "REPETITIVE_COMPLETIONS", "GRAD_NORM_SPIKE"), batch=5),
    Scenario("lr_too_high_rloo_oldkeys_log6", "RLOO with no KL anchor and a learning rate of 3e-3, logged every "
             "6 steps and read in TRL 0.14's key set: the answers degrade and the reward falls (raw log: from 0.2 to "
             "0 by step 18, the answers one or two letters or nothing to the end).", algorithm="rloo",
             weights=(1.0, 0.2), steps=150, args=dict(beta=0.0, learning_rate=3e-3, logging_steps=6, seed=8),
             source="old_keys",
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=1)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE"), batch=5),
    Scenario("reward_hacking_judge_dapo_log4", "The 0-10 judge score beside the cheap proxy (the share of the "
             "letter o) weighted 60, so that a string of o's (60) pays more than any answer (at most 10 + 60 x 0.4), "
             "the DAPO loss, a learning rate of 1e-3, logged every 4 steps: the policy games the proxy and stops "
             "answering (raw log: the judge's score from 7 to 0 by step 36, every answer 'oooooooooooo' from step 44).",
             rewards=("judge", "letter_o"), weights=(1.0, 60.0), steps=150,
             args=dict(loss_type="dapo", learning_rate=1e-3, logging_steps=4, seed=8),
             expect={"REWARD_HACKING": hacked("rewards/judge/mean", "rewards/letter_o/mean", smooth=5, run=3)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS", "REWARD_PLATEAU"), batch=5),
    Scenario("entropy_collapse_4x4_drgrpo_log4", "The coin-flip reward (it says nothing), four groups of 4, no "
             "KL, the Dr. GRPO loss, a learning rate of 2e-3, sampled at temperature 0.9, logged every 4 steps: "
             "the policy drifts onto one completion per prompt while the reward stays at chance (raw log and samples: "
             "the strings first grow to the 12-token budget, steps 20-36, then each group's 4 samples are one letter "
             "string ('csserss', 'ck') from step 48 and entropy falls from 0.45 to 0.1 by step 60; it rises again to "
             "0.5 at steps 112-128, and from step 136 every answer is empty, entropy 5e-5).",
             rewards=("coin",), steps=160,
             args=dict(per_device_train_batch_size=16, loss_type="dr_grpo", temperature=0.9, learning_rate=2e-3,
                       logging_steps=4, seed=7),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=3, smooth=3),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS",
                       "ZERO_ADVANTAGE_GROUPS"), batch=5),
    Scenario("reward_outage_rescaled_log4", "The judge score (0-10) with a small KL penalty and gradient "
             "accumulation of 2; from reward call 100 to the end the reward service answers on another scale "
             "(exact match, 0 or 1) under the same name, logged every 4 steps: the reward falls to a tenth of its "
             "level and stays there (raw log: 7-8.4 before, 0.69 at step 104, then 0.55-0.95 as exact match is "
             "learnt).", rewards=("judge",), steps=200, swap=(100, 100_000, "correct"),
             args=dict(gradient_accumulation_steps=2, beta=0.02, learning_rate=2e-4, logging_steps=4, seed=6),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=5),
    Scenario("grad_spike_2x8_dapo_log4", "Two groups of 8, the DAPO loss with unscaled rewards, sampled at "
             "temperature 0.8, logged every 4 steps; one batch's rewards come back 1000x too large (reward call "
             "100, a logged step): that step's gradient norm jumps, the clipped update keeps the policy, and the "
             "next steps are normal (raw log: 1020 at step 100, a median of 0.55; the reward 0.95-1.16 after).",
             weights=(1.0, 0.2), steps=200, spike=(100, 1000.0),
             args=dict(per_device_train_batch_size=16, num_generations=8, loss_type="dapo", scale_rewards="none",
                       temperature=0.8, learning_rate=2e-4, logging_steps=4, seed=6),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50.0)}, batch=5),
    Scenario("truncation_budget3_judge_nosamples_log6", "The judge score with a token budget of 3 (no word and "
             "its end-of-sequence token fit), one group of 8, sampled at temperature 0.9, logged every 6 steps and "
             "read from TRL's trainer_state.json: every answer is cut from the first step; a cut 3-letter word "
             "still scores, so the reward can rise while the cut stays (raw log: every answer cut to the end, the "
             "score from 1.9 to 5-7.8 as 'red' and the like are learnt).", rewards=("judge",), steps=150,
             args=dict(num_generations=8, max_completion_length=3, temperature=0.9, learning_rate=3e-4,
                       logging_steps=6, seed=8), source="trainer_state",
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU"), batch=5),
    # Written as length_collapse_rloo_log6 (RLOO with its KL penalty of 0.05, KL_BLOWUP accepted); its raw
    # log, read before the doctor, showed no collapse: the mean length went from 5.5 tokens to 4.3 and held,
    # the KL penalty (0.3-0.6) outweighing the brevity reward's gain, and normalized advantages did not change
    # that. Retrained without the KL penalty, the expectation otherwise unchanged.
    Scenario("length_collapse_rloo_nokl_log6", "RLOO with no KL penalty and a reward for brevity, a learning rate "
             "of 5e-4, logged every 6 steps: answers shrink towards nothing (raw log: the mean length from 5.5 "
             "tokens to 2.3 at step 78 and 1, the end-of-sequence token alone, from step 96, the reward at its "
             "maximum 0 with every group agreeing).", algorithm="rloo", rewards=("brevity",),
             steps=200, args=dict(beta=0.0, learning_rate=5e-4, logging_steps=6, seed=6),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE"), batch=5),
    # -- batch 6 --
    # A fourth fresh batch: strides of 1 (one group of 16), 5, 12 and 15, sampling at 0.7 to 1.15, two long
    # runs whose pathology begins late after a healthy learning phase (a long warm-up into a rate far too
    # high, a reward service that answers 0), a unit bug that recurs (two spikes in one RLOO run read from
    # trainer_state.json), an overflow at a stride (TRL drops NaN before averaging the steps between two logs,
    # not inf), the list task gamed and cut, seeds 9-11. Each expectation was written from the mechanism before
    # the run was trained, then checked on the raw log only (never against the doctor).
    Scenario("healthy_1x16_log1", "One group of 16 a step (every completion answers the same question), a "
             "small KL penalty, a learning rate of 2e-4, logged every step: the target word is learnt (raw log: the "
             "reward from a first-10-step median of 0.33 to a median of 0.99 over the last 30 steps, 1.2 (every "
             "sample right) on several; one question a step makes every logged value noisy: over the last 30 "
             "steps the KL is 0.19-2.1 (median 0.39) and the gradient norm up to 18. frac_reward_zero_std reads 0 "
             "throughout, even where all 16 samples scored 1.2: reward_std is 1.2e-7 there, float rounding).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=16, beta=0.02, learning_rate=2e-4, seed=9),
             batch=6),
    Scenario("healthy_hot115_log5", "Sampled at temperature 1.15 (above 1: flatter samples), a KL penalty of "
             "0.04, a learning rate of 2e-4, logged every 5 steps: the target word is learnt all the same (raw log: "
             "the reward from 0.22 to 0.9-1.1, exact match from 0.03 to 0.9; entropy from 0.52 to 0.13-0.21 as it "
             "learns; the KL up to 0.3-0.8; 90 % of the answers known words throughout).", weights=(1.0, 0.2),
             steps=250, args=dict(temperature=1.15, beta=0.04, learning_rate=2e-4, logging_steps=5, seed=10),
             batch=6),
    Scenario("healthy_saturates_binary_log12", "Exact match only, four groups of 4, a small KL penalty, a "
             "learning rate of 3e-4, logged every 12 steps: the target word is learnt until most groups are "
             "solved (every completion right) and agree: convergence, not a dead signal (raw log: the reward from "
             "0.08 to 0.97; the zero-variance share 0.73 at the first log (groups all wrong), 0.35 while learning, "
             "0.88 at the end (groups all right); entropy from 0.47 to 0.05).", rewards=("correct",),
             steps=240,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4, logging_steps=12, seed=11),
             batch=6),
    Scenario("healthy_kl_drift_oldkeys_log5", "A weak KL anchor (0.01) and a learning rate of 3e-4, logged "
             "every 5 steps and read in TRL 0.14's key set: the policy moves steadily away from its reference as "
             "it learns, the KL drifting up while the reward rises (raw log: the KL from 0.002 to 0.1-0.2 by step "
             "40, 0.25-0.5 by step 100 and 0.3-0.74 after, with single logs of 0.99 at step 135 and 1.6 at the last; "
             "the reward from 0.34 to 1.0-1.15).", weights=(1.0, 0.2), steps=250,
             args=dict(beta=0.01, learning_rate=3e-4, logging_steps=5, seed=9), source="old_keys", batch=6),
    Scenario("healthy_strongkl_lr1e3_nosamples_log15", "A high learning rate (1e-3) held by a strong KL "
             "anchor (0.2), logged every 15 steps and read from TRL's trainer_state.json (no samples): the target "
             "word is learnt and the KL settles instead of running away (raw log: the reward from 0.26 to 0.85, "
             "exact match from 0.08 to 0.7; the KL 0.7 by step 60 and 0.7-1.5 from there to the end without "
             "growing; entropy from 0.5 to 0.25; the samples, which the doctor is not given, show 56-78 % known "
             "words after step 20, against 87 % at the start: the high rate costs some letter strings).",
             weights=(1.0, 0.2), steps=240,
             args=dict(beta=0.2, learning_rate=1e-3, logging_steps=15, seed=10), source="trainer_state", batch=6),
    Scenario("healthy_cool07_weighted3_log15", "Sampled at temperature 0.7 (a low-entropy start), three weighted "
             "components (exact match 1, the category 0.5, a known word 0.25), a small KL penalty, a learning "
             "rate of 2e-4, logged every 15 steps: the target word is learnt (raw log: the reward from 0.83 to "
             "1.74 of a possible 1.75, exact match from 0.09 to 0.99; entropy from 0.43 to 0.03 and the zero-variance "
             "share to 0.97 as the groups are solved; one KL of 1.36 at step 165, at most 0.78 otherwise).",
             rewards=("correct", "in_category", "is_word"), weights=(1.0, 0.5, 0.25), steps=240,
             args=dict(temperature=0.7, beta=0.02, learning_rate=2e-4, logging_steps=15, seed=11), batch=6),
    # The KL's threshold is 1, not batch 5's 0.1: here the run learns for 90 steps first, with a KL of 0.15-0.77
    # there, the range of the corpus's healthy runs with a KL penalty; 0.1 would date the blow-up at step 40,
    # inside that healthy phase (raw log, read before the doctor).
    Scenario("kl_blowup_late_warmup200_log5", "A 200-step warm-up into a learning rate far too high (3e-3) with "
             "a KL penalty of 0.05, logged every 5 steps: while the rate is low the target word is learnt, then "
             "as it rises the policy runs away from its reference (raw log: the reward from 0.22 to 0.8 by steps "
             "75-95, the KL 0.15-0.77 until step 90; then 0.97 at step 95 (a rate of 1.4e-3), 1.74 at 100, 2.2-2.7 "
             "from 130 and 3.4-6.6 from 160 to the end; the answers turn to letter strings, entropy from 0.4 to "
             "1.5-1.8, and the reward falls to 0 from step 175, every group agreeing).", weights=(1.0, 0.2),
             steps=320,
             args=dict(beta=0.05, learning_rate=3e-3, warmup_steps=200, lr_scheduler_type="constant_with_warmup",
                       logging_steps=5, seed=10),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "GRAD_NORM_SPIKE"), batch=6),
    Scenario("reward_outage_zero_late_log12", "A healthy run (small KL penalty, a learning rate of 3e-4) whose "
             "reward service answers 0 for everything from reward call 260 to the end (it times out and the "
             "client defaults to 0), logged every 12 steps: after 260 steps of learning the reward drops to 0 and "
             "every group agrees (raw log: the reward from 0.28 to 1.05-1.14 by step 144, the zero-variance share "
             "0.75-0.83 as groups are solved; 0.65 at step 264, a log averaging both sides of the outage, then 0 "
             "with every group agreeing from step 276; the answers, still the right words, do not change).",
             weights=(1.0, 0.2), steps=360, swap=(260, 100_000, "nothing"),
             args=dict(beta=0.02, learning_rate=3e-4, logging_steps=12, seed=11),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=6),
    Scenario("reward_overflow_log5", "An exponential length bonus (10**length) computed in float64 overflows "
             "TRL's float32 reward statistics once answers grow, logged every 5 steps: TRL drops NaN before "
             "averaging the steps between two logs but not inf, so an infinite reward reaches the log (raw log: "
             "the reward 1e5-1e11 to step 35, inf (reward and reward_std) at every log from step 40, never None; "
             "the answers grow from 5 tokens to 32-43 of the 48-token budget from step 65, 0.3-0.8 of them cut, "
             "entropy from 0.5 to 0.94-1.09, the gradient norm 0 on most logs from step 45).",
             rewards=("exp_length",), steps=150, args=dict(max_completion_length=48, learning_rate=5e-4,
                                                          logging_steps=5, seed=11),
             expect={"NONFINITE_VALUES": nonfinite("reward", "reward_std")},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_EXPLOSION"), batch=6),
    # Written as entropy_collapse_slow_log12 (temperature 1); its raw log, read before the doctor, showed no
    # collapse: the answers turned to letter strings that grew to the 12-token budget and the entropy rose from
    # 0.5 to 0.93 (step 168), falling to 0.25 only at the last log. Retrained at temperature 0.8, the
    # expectation unchanged. Its copy rule asks more than the corpus's usual 0.6 over 5 steps: with one group
    # of 8 a step sampled cool, single questions' groups agree on a favourite word early ('owl' x8 at step 16,
    # 'oak' x7 at 27) and that 5-step mean passes 0.6 from step 23 and falls back to 0.3-0.4 by step 40; the
    # copying that stays begins near step 70 (samples, read before the doctor).
    Scenario("entropy_collapse_slow_cool_log12", "The coin-flip reward (it says nothing), one group of 8, no KL, a "
             "learning rate of 8e-4, sampled at temperature 0.8, logged every 12 steps: the policy drifts slowly "
             "onto one completion per prompt while the reward stays at chance (raw log and samples: entropy 0.41 "
             "to step 48, 0.19 at step 84, 0.09-0.13 at 96-120, 0.27 at 132, below 0.065 from 144 and 0.005 from "
             "168; every question answered 'on' from about step 80, then 'o' or nothing; the reward 0.4-0.56).",
             rewards=("coin",), steps=240,
             args=dict(num_generations=8, temperature=0.8, learning_rate=8e-4, logging_steps=12, seed=9),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.8, run=5, smooth=10)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS",
                       "ZERO_ADVANTAGE_GROUPS"), batch=6),
    Scenario("length_explosion_slow_log15", "A reward paid per character at a learning rate of 2e-4, a 24-token "
             "budget, logged every 15 steps: answers grow slowly, then to the budget, and get cut (raw log: the "
             "mean length from 5.8 tokens to 8.3 by step 90, 13.8 at step 105, 20 at 120 and 23.5-24 from 135; the "
             "clipped share 0.67 at step 120 and 0.95-1 from 135; entropy from 0.45 to 0.85-0.99; letter strings "
             "such as 'cedarsssseeewcedarsasasa').",
             rewards=("length_bonus",), steps=240,
             args=dict(max_completion_length=24, learning_rate=2e-4, logging_steps=15, seed=10),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=1),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS",
                       "GRAD_NORM_SPIKE"), batch=6),
    Scenario("repetition_drgrpo_log5", "List questions, a reward paid per known word said (repeats included), "
             "a 40-token budget, the Dr. GRPO loss, logged every 5 steps: the policy says one short word over and "
             "over (raw log and samples: the mean length from 14 tokens to the budget by step 75, every list cut "
             "from then; 'gray gray gray ...' and 'tea tea tea ...' from about step 113, nearly every answer "
             "'tea tea tea ...' by the end; the reward from 2.3 to 9.5 words, entropy from 0.58 to 0.03).",
             prompts="lists", rewards=("word_count",), steps=200,
             args=dict(max_completion_length=40, loss_type="dr_grpo", learning_rate=5e-4, logging_steps=5, seed=10),
             expect={"REPETITIVE_COMPLETIONS": repeated_words(0.5, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=6),
    Scenario("grad_spike_twice_rloo_nosamples_log5", "RLOO with its KL penalty on the judge score, logged every "
             "5 steps and read from TRL's trainer_state.json; a unit bug that recurs: the batches of steps 60 and "
             "150 (both logged steps) come back 1000x too large. Each time that step's gradient norm jumps, the "
             "clipped update keeps the policy, and the next steps are normal (raw log: the gradient norm 2.4e5 at "
             "step 60 and 7.5e4 at step 150, a median of 19 and at most 315 elsewhere; the logged reward 1760 and "
             "1380 there, the mean of the five steps each log covers, 7.3 and 8.7 at the next logs; the score "
             "from 7.2 to 9.5).", algorithm="rloo",
             rewards=("judge_glitchy",), steps=200,
             args=dict(beta=0.05, learning_rate=2e-4, logging_steps=5, seed=9), source="trainer_state",
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50.0)}, batch=6),
    Scenario("truncation_lists_budget16_log12", "List questions with partial credit (distinct category words / "
             "5) and a 16-token budget that fits two words but rarely three, a small KL penalty, a learning rate "
             "of 3e-4, logged every 12 steps: the credit pays for longer lists, so more and more are cut (raw log: "
             "the clipped share 0.34 at the first log, 0.47 at the second, 0.57-0.85 from step 36 to the end; the "
             "mean length from 14 tokens to 15.5-15.9; the credit flat at 0.4-0.48, a cut word earning nothing).",
             prompts="lists", rewards=("list_credit",), steps=200,
             args=dict(max_completion_length=16, beta=0.02, learning_rate=3e-4, logging_steps=12, seed=9),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("LENGTH_EXPLOSION", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=6),
    # Written as reward_hacking_lists_repeat_log5 (a learning rate of 5e-4); its raw log, read before the
    # doctor, showed the proxy rising (2.5 to 6.7 words) but the list credit holding (0.29-0.49): the lists kept
    # one or two category words and padded them with repeats and junk, and the repeats took over only at the
    # last few logs. Retrained at 1e-3, the expectation unchanged.
    Scenario("reward_hacking_lists_repeat_lr1e3_log5", "List questions; the honest reward is partial credit "
             "(distinct words of the asked category / 5), beside a cheap proxy weighted the same, a count of known "
             "words said (repeats included), a 40-token budget, a learning rate of 1e-3, logged every 5 steps: "
             "saying one short word over and over pays the proxy most, so the policy repeats a word and the list "
             "credit falls (raw log and samples: the lists grow to the budget by step 65; the credit 0.45 at the "
             "first log, 0.15-0.43 to step 125, 0.04-0.07 from step 130 and 0-0.06 from 155, while the word count "
             "goes from 2.5 to 3.7-4.3 at steps 130-135 and 7.9-10 from 145: 'pig pig pig ...' for every question).",
             prompts="lists", rewards=("list_credit", "word_count"), weights=(1.0, 1.0), steps=200,
             args=dict(max_completion_length=40, learning_rate=1e-3, logging_steps=5, seed=11),
             expect={"REWARD_HACKING": hacked("rewards/list_credit/mean", "rewards/word_count/mean", smooth=3,
                                              run=3),
                     "REPETITIVE_COMPLETIONS": repeated_words(0.5, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=6),
    # Written as nan_weights_log5 (30 steps, NONFINITE_VALUES expected); its raw log, read before the doctor,
    # had no NaN or infinite value: the first steps turned the weights into uniform sampling and every logged
    # gradient norm after them was exactly 0, so the weights stopped moving and nothing overflowed (nan_weights'
    # NaN came from another seed's path). Retrained for 60 steps (12 logs), the expectation rewritten from that
    # raw log.
    Scenario("lr_typo_log5", "A learning rate of 2e6 (a typo for 2e-6), fp32, logged every 5 steps: the first "
             "Adam steps destroy the weights; the policy samples uniformly from the tokenizer's 30 symbols "
             "(entropy ln 30 = 3.40 nats a token) and the reward drops to 0 (raw log: the first log, the mean of "
             "steps 1-5, reads an entropy of 1.65 and a reward of 0.115; from step 10 on the entropy is 3.40, the "
             "reward 0, every group agrees, the gradient norm and the loss are 0, and 0.5-0.85 of the answers, "
             "random letters, are cut at the 12-token budget).", weights=(1.0, 0.2), steps=60,
             args=dict(learning_rate=2e6, logging_steps=5, seed=10),
             expect={"ENTROPY_EXPLOSION": above("entropy", 3.0, run=3),
                     "REWARD_COLLAPSE": falls("reward", 0.25, run=3, first=1)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "REWARD_PLATEAU"), batch=6),
    # -- batch 7 --
    # A fifth fresh batch: strides of 1 (one group of 2), 3, 7, 9 and 20 (a 500-step run with one group of 4),
    # RLOO read from TRL's trainer_state.json or in TRL 0.14's key set (healthy and pathological), healthy runs
    # that look alarming (unscaled judge scores, a fast learner solved for 190 steps, sampling at 1.2, a reward
    # component that never fires, evaluation rows), a reward service stuck on a constant nonzero answer, an
    # outage that ends, a grader changed mid-run to another scale, group copies on the judge score, seeds 12-14.
    # Each expectation was written from the mechanism before the run was trained, then checked on the raw log
    # only (never against the doctor).
    # First trained for 150 steps at a learning rate of 1e-4: its raw log showed the score barely moving (a
    # first-10-log median of 6.9, 7-8.8 at the end), too slow to call learning; retrained at 2e-4 for 240 steps.
    Scenario("healthy_judge_scalenone_log3", "The 0-10 judge score with unscaled rewards (scale_rewards none: "
             "advantages of several points, large gradient norms), a small KL penalty and a learning rate of 2e-4, "
             "logged every 3 steps: the score rises (raw log: from a first-10-log median of 6.9 to a last-10-log "
             "median of 9.6, 8.75-10; the gradient norm a median of 1.7 and up to 59; the KL 0.1-0.55 from step 60, "
             "one log of 1.01 at step 168; entropy from 0.47 to 0.06-0.19; every group agreeing at step 231, "
             "solved).", rewards=("judge",), steps=240,
             args=dict(scale_rewards="none", beta=0.02, learning_rate=2e-4, logging_steps=3, seed=12), batch=7),
    Scenario("healthy_fast_saturates_4x4_log9", "Four groups of 4, exact match beside the category, a KL penalty "
             "of 0.05 and a learning rate of 8e-4, logged every 9 steps: the target word is learnt within about 50 "
             "steps and the run stays solved for the 190 after, its groups agreeing because they are solved (raw "
             "log: the reward 0.31 at step 9, 0.98 at 54 and 0.86-1.14 to the end, exact match 0.72-0.95; the "
             "zero-variance share from 0.31 to 0.75-0.94; entropy from 0.47 to 0.05-0.14; the KL 0.4-0.95 with one "
             "log of 4.65 at step 198; the gradient norm up to 8.5).",
             weights=(1.0, 0.2), steps=243,
             args=dict(per_device_train_batch_size=16, beta=0.05, learning_rate=8e-4, logging_steps=9, seed=13),
             batch=7),
    Scenario("healthy_hot12_kl_log7", "Sampled at temperature 1.2 (flat samples, a high entropy) held by a KL "
             "penalty of 0.05, a learning rate of 2e-4, logged every 7 steps: the target word is learnt all the "
             "same, still learning at the end (raw log: the reward 0.21-0.33 over the first 56 steps, 0.7-0.97 over "
             "the last six logs, exact match from 0.04-0.16 to 0.52-0.79, the category share 0.77-0.93 throughout; "
             "entropy from 0.54-0.58 to 0.3-0.43; the KL up to 0.2-0.5).", weights=(1.0, 0.2), steps=210,
             args=dict(temperature=1.2, beta=0.05, learning_rate=2e-4, logging_steps=7, seed=14), batch=7),
    Scenario("healthy_rloo_deadcomponent_oldkeys_log3", "RLOO with its KL penalty and three components, exact "
             "match 1, the category 0.2 and a politeness bonus 0.5 that never fires (no answer says 'please'), "
             "logged every 3 steps and read in TRL 0.14's key set: the component reads 0 throughout while the "
             "run learns (raw log: rewards/says_please 0 at every log; the reward from a first-10-log median of "
             "0.28 to a last-10-log median of 0.77, 0.35-1.02, exact match from 0.08 to 0.17-0.83; the KL up to "
             "0.2-0.43; entropy from 0.47 to 0.24-0.36; the gradient norm a median of 5.7 and up to 50).",
             algorithm="rloo", rewards=("correct", "in_category", "says_please"),
             weights=(1.0, 0.2, 0.5), steps=150,
             args=dict(beta=0.05, learning_rate=2e-4, logging_steps=3, seed=12), source="old_keys", batch=7),
    Scenario("healthy_eval20_cool09_log5", "A KL penalty of 0.03, sampled at temperature 0.9, a learning rate of "
             "2e-4, logged every 5 steps with evaluation rows every 20 steps: the target word is learnt (raw log: "
             "the reward from 0.32 to 0.82-1.17 from step 105, exact match from 0.13 to 0.65-0.97; the evaluation "
             "reward 0.36 at step 20 and 0.96-1.06 from 120; the KL up to 0.4-0.6; entropy from 0.4 to 0.11-0.16).",
             weights=(1.0, 0.2), steps=200, eval_steps=20,
             args=dict(temperature=0.9, beta=0.03, learning_rate=2e-4, logging_steps=5, seed=13), batch=7),
    # The zero-variance warning is accepted from the raw log (read before the doctor), as batch 4's
    # healthy_4x2_cosine_log7 accepts it: one pair a step agrees on most steps from the first.
    Scenario("healthy_1x2_log1", "One group of 2 a step (a pair of answers to one question), a small KL penalty, "
             "a learning rate of 4e-4, logged every step: every logged value is the mean of two samples, and a pair "
             "often agrees, but the target word is learnt (raw log: the reward a mean of 0.30 over the first 30 "
             "steps and 0.75 over the last 30, exact match from 0.13 to 0.53-0.63 in 15-step means; the zero-variance "
             "share 0.73 over the first 30 steps and 0.47-0.73 in 15-step means throughout; the KL a median of 0.23 "
             "over the last 30 steps, single steps up to 3.5; the gradient norm a median of 0.03, up to 18).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=2, num_generations=2, beta=0.02, learning_rate=4e-4, seed=14),
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=7),
    Scenario("healthy_rloo_1x4_long500_nosamples_log20", "RLOO with its KL penalty, one group of 4 a step, a "
             "warm-up over a twentieth of the run then cosine decay from 2e-4, 500 steps logged every 20 (25 "
             "logs) and read from TRL's trainer_state.json: the target word is learnt slowly over the long run (raw "
             "log: the reward 0.26 at step 20, 0.99 at 240 and 0.95-1.17 to the end, exact match from 0.08 to "
             "0.78-0.98; the KL 0.3-0.6 from step 180; entropy from 0.45 to 0.12-0.2; the gradient norm, the last "
             "step's of each log, 0-40).",
             algorithm="rloo", weights=(1.0, 0.2), steps=500,
             args=dict(per_device_train_batch_size=4, beta=0.05, learning_rate=2e-4, warmup_steps=0.05,
                       lr_scheduler_type="cosine", logging_steps=20, seed=12), source="trainer_state", batch=7),
    Scenario("reward_outage_constant_half_judge_log3", "The judge score (0-10) with a small KL penalty; from "
             "reward call 90 to the end the reward service answers 0.5 for everything (a stuck, cached score), "
             "logged every 3 steps: the reward falls from the judge's level to 0.5 and every group agrees, so no "
             "advantage is left to learn from (raw log: the score 5.9-8.8 to step 87, the zero-variance share 0-0.67 "
             "there; 5.96 at step 90, a log covering one outage step; from step 93 to the end the reward is 0.5, "
             "reward_std 0 and every group agrees; the gradient norm from 1-8 to 0.01-0.2, the KL penalty alone "
             "moving the policy).", rewards=("judge",), steps=180, swap=(90, 100_000, "constant_half"),
             args=dict(beta=0.02, learning_rate=2e-4, logging_steps=3, seed=13),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3),
                     "ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=7),
    Scenario("reward_outage_ends_rloo_oldkeys_log7", "RLOO with its KL penalty, logged every 7 steps and read in "
             "TRL 0.14's key set; the reward service answers 0 for 28 generations (calls 71-98), then comes back: "
             "while it is out every completion is paid 0, the policy gets no reward signal and hardly moves, so "
             "the reward returns to its level when the service does (raw log: the reward from 0.39 to 0.70-0.77 at "
             "steps 63-70; 0, reward_std 0, at steps 77-98; 0.84 at step 105, 0.68-1.12 after and 1.0-1.12 at the "
             "end; meanwhile the KL penalty alone moves the policy: the gradient norm 0.7-13, entropy from 0.38 to "
             "0.23-0.31).", algorithm="rloo", weights=(1.0, 0.2),
             steps=210, swap=(71, 98, "nothing"),
             args=dict(beta=0.05, learning_rate=3e-4, logging_steps=7, seed=14), source="old_keys",
             mild={"REWARD_COLLAPSE": below("reward", 0.05, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=7),
    Scenario("grader_change_judge_to_category_log9", "The judge score (0-10) with a small KL penalty; from reward "
             "call 109 to the end the grader is changed to the category check (0 or 1) under the same name, "
             "logged every 9 steps: the reward falls to about a tenth of its level and stays there, and as the "
             "taught model already answers in the category most groups agree (raw log: the score 6.6-7.9 to step "
             "108, the zero-variance share 0.28-0.61 there; 0.88-1 from step 117 to the end, the zero-variance "
             "share 0.61-1, mostly 0.83-0.94; the gradient norm mostly 0.01-0.2 after the change).",
             rewards=("judge",), steps=225, swap=(109, 100_000, "in_category"),
             args=dict(beta=0.02, learning_rate=2e-4, logging_steps=9, seed=12),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=7),
    Scenario("entropy_collapse_lists_coin_log3", "List questions, the coin-flip reward (it says nothing), one "
             "group of 8, no KL, a learning rate of 2e-3, a 24-token budget, logged every 3 steps: the policy "
             "drifts onto one completion per question while the reward stays at chance (raw log and samples: the "
             "reward 0.33-0.75 throughout; the lists turn to letter strings ('pranrshrrrrrrr') and entropy rises "
             "from 0.59-0.81 to 0.98 at step 48, then falls: 0.33 at step 66, 0.16-0.19 at 72-75, 0.02-0.05 from "
             "78 to the end; from step 63 every answer runs to the budget, letter strings ending in d's, and from "
             "about step 81 nearly every answer to every question is 'dddddddddddddddddddddddd'; the gradient "
             "norm about 1e-8 on most logs from step 81).", prompts="lists",
             rewards=("coin",), steps=150,
             args=dict(num_generations=8, max_completion_length=24, learning_rate=2e-3, logging_steps=3, seed=13),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, smooth=3),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS",
                       "ZERO_ADVANTAGE_GROUPS"), batch=7),
    # Written with repeated_words(0.5, run=5), which dates step 131; its samples, read before the doctor, show
    # a slow repetition: the share of looping answers a step swings with the two questions asked (the colours
    # loop first, 'gray gray gray'), its 10-step mean 0.01 to step 40, 0.11-0.19 at 51-80, 0.24-0.44 at 81-130
    # and 0.7-0.93 from 131. The onset is dated where that mean clearly leaves its level, 0.3 (step 93), with a
    # rule added for it; the expected signature is unchanged.
    Scenario("repetition_cool07_log7", "List questions, a reward paid per known word said (repeats included), "
             "a 40-token budget, sampled at temperature 0.7, a learning rate of 5e-4, logged every 7 steps: the "
             "policy says one short word over and over (raw log and samples: the lists grow to the budget with "
             "junk tails by step 56, the mean length from 16.6 tokens to 39.7 and the clipped share from 0.02 to "
             "0.96; the share of looping answers from 0.01 to a 10-step mean of 0.24-0.44 at steps 81-130 and "
             "0.7-0.93 from 131, 'gray gray gray ...', then 'ten ten ten ...' by the end; the reward from 2.6 to 8.5 "
             "words; entropy from 0.46-0.5 to 0.12-0.15).", prompts="lists", rewards=("word_count",), steps=210,
             args=dict(max_completion_length=40, temperature=0.7, learning_rate=5e-4, logging_steps=7, seed=14),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=7),
    # The KL's threshold is 1: healthy RLOO runs of this corpus with the same penalty settle at a KL of 0.5-0.6
    # (healthy_rloo_log5's raw log), so 0.1 would date a healthy level.
    Scenario("kl_blowup_rloo_nosamples_log3", "RLOO with its KL penalty (0.05), a 30-step warm-up into a "
             "learning rate far too high (3e-3), logged every 3 steps and read from TRL's trainer_state.json (no "
             "samples): once the rate is up the policy runs away from its reference (raw log: the KL below 0.03 to "
             "step 12, 0.31-0.51 at steps 15-24 (a rate of 1.4e-3 to 2.3e-3), 1.98 at 27, 1.7-5.4 at 30-54 and "
             "5-8.9 from 57 to the end; the reward from 0.19-0.62 over the first 8 logs to a mean of 0.08 from step 27 "
             "(at most 0.5), 0 on most logs from 81 and every log from 123; the answers shrink to the end-of-sequence "
             "token alone (a mean length of 1-2 on most logs from step 66, 1 from 123), entropy "
             "from 0.47-0.63 to 0.001-0.002, every group agreeing from step 123; the gradient norm up to 110).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(beta=0.05, learning_rate=3e-3, warmup_steps=30, lr_scheduler_type="constant_with_warmup",
                       logging_steps=3, seed=12), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "GRAD_NORM_SPIKE"), batch=7),
    # Written expecting the score to stall below its maximum (GROUP_MODE_COLLAPSE alone, REWARD_COLLAPSE
    # accepted); its raw log, read before the doctor, showed the score falling to under a tenth of where it
    # opened as the copied answers turned to letter strings, so REWARD_COLLAPSE is expected too.
    Scenario("group_mode_collapse_judge_cool04_log9", "The 0-10 judge score sampled at temperature 0.4 with no "
             "KL anchor and a learning rate of 1.5e-3, logged every 9 steps: groups of near-greedy samples agree "
             "before the target word is found, and the policy settles on one answer per question, often not the "
             "target (raw log and samples: a group's samples are mostly one answer from about step 20 ('ten' x3, "
             "'owl' x3, 'hammer' x4); entropy from 0.35 to 0.13-0.21 by step 27 and 0.07-0.09 at the end; the "
             "copied answers drift into letter strings ('aaalnghawk', 'eaak', 'kkk') and 'hawk' for a tool, so the "
             "score falls from 5.5 at the first log (7 on the first samples) to 2.9-4.9 at steps 18-63 and 0-0.9 "
             "from step 72, but 2.8-3.3 at 135-144; every group agrees on most logs from step 72).",
             rewards=("judge",), steps=198,
             args=dict(temperature=0.4, learning_rate=1.5e-3, logging_steps=9, seed=14),
             expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6),
                     "REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "REPETITIVE_COMPLETIONS"), batch=7),
    Scenario("lr_too_high_gspo_kl_log9", "GSPO (sequence-level ratios, two passes a generation) with a KL "
             "penalty of 0.04 that cannot hold a learning rate of 3e-3 reached after a 30-step warm-up, logged "
             "every 9 steps: the answers degrade and the reward falls (raw log and samples: the reward 0.42 over "
             "steps 1-9 (a rate up to 9e-4); letter strings ('orak', 'hpiose') from step 13, the category share "
             "from 0.98 to 0.63 at step 18 and 0.43 at 27, the reward 0.19-0.22 there, 0.39 at 36, 0.07 at 45 and "
             "0-0.04 from 54 to the end, every group agreeing from step 63; the KL 0.56 at step 18, 2.9 at 27 and "
             "2.3-6.4 after; entropy from 0.42 to 0.68-1.1 at steps 45-153, then 0.04-0.07 as every answer turns "
             "to 'e' or 'ne').", weights=(1.0, 0.2), steps=180,
             args=dict(importance_sampling_level="sequence", num_iterations=2, beta=0.04, learning_rate=3e-3,
                       warmup_steps=30, lr_scheduler_type="constant_with_warmup", logging_steps=9, seed=13),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=2)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE",
                       "KL_BLOWUP"), batch=7),
    # -- batch 8 --
    # A sixth, small fresh batch: strides of 4, 6 and 11, GRPO read in TRL 0.14's key set (one at a large
    # learning rate held by a KL penalty), a task learnt in one jump, a length collapse read from TRL's
    # trainer_state.json, an entropy collapse with RLOO, a reward that collapses late in a long warm-up into a
    # rate far too high without KL, the judge score gamed through a cheap proxy, seeds 15-16. Each expectation
    # was written from the mechanism before the run was trained, then checked on the raw log only (never
    # against the doctor).
    # Written expecting large gradient norms while it learns; its raw log, read before the doctor, shows them
    # moderate, within the range of the corpus's healthy runs at 2e-4 (a median of 1.6, at most 8.6): the text
    # says so, the (healthy) expectation is unchanged.
    Scenario("healthy_lr5e4_kl_oldkeys_log4", "A large learning rate (5e-4) held by a KL penalty of 0.08, logged "
             "every 4 steps and read in TRL 0.14's key set: the target word is learnt fast and the KL settles (raw "
             "log: the reward from a first-10-log median of 0.36 to a last-10-log median of 0.96, 0.63-1.09, exact "
             "match from 0.17 to 0.78; the KL 0.25-0.51 over the last 10 logs with one of 1.17 at step 108; the "
             "gradient norm, the last step's of each log, a median of 1.6 and up to 8.6, 4.5 over the last 10 logs; "
             "entropy from 0.45 to 0.16-0.29 from step 100, one log of 0.46 at 104).",
             weights=(1.0, 0.2), steps=140,
             args=dict(beta=0.08, learning_rate=5e-4, logging_steps=4, seed=15), source="old_keys", batch=8),
    Scenario("healthy_drgrpo_weighted3_oldkeys_log11", "Three weighted components (exact match 1, the category "
             "0.5, a known word 0.25), the Dr. GRPO loss, a KL penalty of 0.03 and a learning rate of 3e-4, logged "
             "every 11 steps and read in TRL 0.14's key set: the target word is learnt (raw log: the reward from "
             "0.76-0.84 over the first three logs to 1.59 of a possible 1.75 at the last, exact match from 0.08 "
             "to 0.89, the category and known-word shares 0.87-0.98 throughout; the KL 0.2-0.53 from step 66; "
             "entropy from 0.46 to 0.16; the gradient norm at most 2.5).",
             rewards=("correct", "in_category", "is_word"), weights=(1.0, 0.5, 0.25), steps=154,
             args=dict(loss_type="dr_grpo", beta=0.03, learning_rate=3e-4, logging_steps=11, seed=16),
             source="old_keys", batch=8),
    # First trained with a constant learning rate of 6e-4 and a KL penalty of 0.02: its raw log showed no jump but a
    # gradual rise (the reward 0.06 at step 6, 0.19-0.4 at steps 24-84, 0.46-0.77 from 90 but for 0.25 at step 144)
    # and the KL drifting to 0.5-1.6. Retrained with a 40-step warm-up into 1.5e-3 then cosine decay and a KL
    # penalty of 0.05: no jump either (the reward 0.06 to 0.31 by step 36, 0.06-0.56 to step 102 and 0.33-0.69
    # after) and the KL above 1 at most logs from step 48. Retrained at a constant 1e-3 with a KL penalty of 0.1;
    # the mechanism text rewritten from that raw log: the jump comes after a first rise and a plateau.
    Scenario("healthy_sudden_binary_log6", "Exact match alone (0 or 1), a KL penalty of 0.1, a learning rate of "
             "1e-3, logged every 6 steps: a fresh model is right one time in ten; a few questions' target words "
             "are learnt first, then after a plateau several more in one jump (raw log: the reward 0.06 at step "
             "6, 0.29-0.48 at steps 30-90, then 0.71 at 96 and 0.85 at 102, 0.65-0.9 to the end; the samples: "
             "the colour, number and animal questions right on 2/28, 12/44 and 6/28 samples over steps 61-90 and "
             "22/24, 33/44 and 27/28 over steps 91-120; the KL 0.58-1.69 at steps 24-90 and 0.47-0.96 after; "
             "entropy from 0.44-0.56 to 0.17-0.32; the zero-variance share 0.17-0.75, groups all wrong early and "
             "all right late; the gradient norm up to 19).", rewards=("correct",), steps=150,
             args=dict(beta=0.1, learning_rate=1e-3, logging_steps=6, seed=15), batch=8),
    Scenario("healthy_bnpo_judge_log11", "The 0-10 judge score, the BNPO loss, a KL penalty of 0.04 and a "
             "learning rate of 3e-4, logged every 11 steps: the score rises towards 10 (raw log: the score 6.3-7.5 "
             "at steps 11-99, 8.2-8.7 from step 110; the KL 0.09-0.33 to step 121 and 0.44-0.61 after; entropy from "
             "0.47 to 0.23; the gradient norm a median of 1.3 with one log of 13.8 at step 143).",
             rewards=("judge",),
             steps=154, args=dict(loss_type="bnpo", beta=0.04, learning_rate=3e-4, logging_steps=11, seed=16),
             batch=8),
    # Written with hacked(smooth=3, run=3), which finds no onset on this raw log (read before the doctor): the
    # proxy was gamed within the first ten logs, so their medians (a judge's score of 0, the proxy at 1) are
    # the hacked levels. The onset is dated from the first log's levels, with a rule added for it; the
    # expected signature is unchanged.
    Scenario("reward_hacking_judge_letter_o_log6", "The 0-10 judge score beside the cheap proxy (the share of "
             "the letter o) weighted 40, so that a string of o's (40) pays more than any answer (at most 10 + 40 "
             "x 0.4), no KL, a learning rate of 1e-3, logged every 6 steps: the policy games the proxy and the "
             "judge's score falls as the o's rise (raw log and samples: the judge's score 6.7 at step 6, 4.4 at "
             "12, 2.1 at 18, 0.48 at 24 and 0 from 30, while the proxy goes 0.1, 0.17, 0.3, 0.42, 0.74 and 1 from "
             "step 42; answers such as 'oors' and 'ooqoboow' by step 24, every answer 'oooooooooooo' from about "
             "step 36, cut at the 12-token budget; entropy 0.001-0.003 and the gradient norm 0 from step 42, every "
             "group agreeing).", rewards=("judge", "letter_o"), weights=(1.0, 40.0),
             steps=150, args=dict(learning_rate=1e-3, logging_steps=6, seed=16),
             expect={"REWARD_HACKING": hacked_from("rewards/judge/mean", "rewards/letter_o/mean", first=1, run=3)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS", "REWARD_PLATEAU"), batch=8),
    Scenario("length_collapse_brevity_nosamples_log4", "A reward for brevity, no KL, a learning rate of 3e-4, "
             "logged every 4 steps and read from TRL's trainer_state.json (no samples): answers shrink towards the "
             "end-of-sequence token alone (raw log: the mean length 5.0-5.9 tokens to step 64 (4.4-4.6 on four "
             "logs), 3.9 at 68, 2.5 at 76, 1.5-1.7 at 88-100 and 1, the end-of-sequence token alone, on most logs "
             "from 104; the reward from -0.58 to its maximum 0 with every group agreeing; entropy 0.43-0.77 to step "
             "84, 0.24-0.32 at 88-100 and 0.004-0.14 after; the gradient norm up to 14 at step 96, 0 from 104).",
             rewards=("brevity",), steps=140,
             args=dict(learning_rate=3e-4, logging_steps=4, seed=15), source="trainer_state",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE"), batch=8),
    # Written as entropy_collapse_rloo_coin_log11 (temperature 1, a learning rate of 1.5e-3); its raw log, read
    # before the doctor, showed no steady collapse: the answers turned to letter strings that ran to the 12-token
    # budget from step 44 ('saaaaaaaaaaa', 'kkkkkkkkkkkk') and the entropy swung between 0.13 and 0.83 (0.68 at
    # step 99), falling to 0.04 only at the last log. Retrained at temperature 0.8 and 1e-3, as batch 6's
    # entropy_collapse_slow_cool_log12 was, the expectation unchanged. Its entropy rule was written with 0.3 x the
    # first-2-log median, which dates step 132 on the retrained raw log; the entropy leaves its level of 0.36-0.52
    # at step 99 (0.275) and stays under 0.15 from 110, so the rule asks 0.5 x (step 110).
    Scenario("entropy_collapse_rloo_cool_log11", "RLOO with no KL penalty, the coin-flip reward (it says "
             "nothing), one group of 8, a learning rate of 1e-3, sampled at temperature 0.8, logged every 11 "
             "steps: the policy drifts onto one completion per question while the reward stays at chance (raw log "
             "and samples: the reward 0.4-0.58; a group's 8 samples mostly one answer from about step 50 ('eagle' "
             "x7 at 55, 'eeeeeeeeeeee' x8 at 66), letter strings running to the 12-token budget, the clipped share "
             "0.76-1 from step 66; entropy 0.36-0.46 to step 55, 0.135 at 66, 0.44-0.52 at 77-88, then 0.275 at "
             "99, 0.12-0.15 at 110-121 and 0.01-0.04 from 132, nearly every answer to every question "
             "'cccccccccccc' from about step 115; the gradient norm 21-50 on most logs to step 99, 1e-7 on most "
             "from 121).",
             algorithm="rloo", rewards=("coin",), steps=154,
             args=dict(beta=0.0, num_generations=8, temperature=0.8, learning_rate=1e-3, logging_steps=11,
                       seed=16),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.5, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS",
                       "ZERO_ADVANTAGE_GROUPS"), batch=8),
    # First trained with a 120-step warm-up: its raw log, read before the doctor, showed the collapse early, not
    # late: the reward from 0.23 to 0.43-0.69 at steps 44-56, then 0.23 at step 60 (a rate of 1.5e-3), 0.16-0.23
    # to step 84 and 0-0.06 from 88, after 56 steps of learning in a 160-step run. Retrained with a 200-step
    # warm-up (the rate 1.5e-3 near step 100, 2.4e-3 at the last), the expectation unchanged.
    Scenario("reward_collapse_late_warmup_nokl_log4", "A 200-step warm-up (constant_with_warmup) towards a "
             "learning rate far too high (3e-3) with no KL penalty, over 160 steps logged every 4: while the rate "
             "is low the target word is learnt, then as it rises the answers degrade and the reward collapses "
             "late in the run (raw log and samples: the reward from a first-10-log median of 0.33 to 0.44-0.87 "
             "at steps 44-100 (a rate up to 1.5e-3), exact match to 0.72 at step 100; then 0.075 at 104 (about half "
             "the answers letter strings cut at the budget), 0.23-0.61 at 108-120, 0.16-0.25 at 124-132 and 0.02-0.11 "
             "from 136, the category share 0.09-0.53 there; 'ninnnnnnnnnn', 'nen', 'paa' for answers; the "
             "zero-variance share 0.75-1 from step 136; entropy 0.24-0.65 throughout; the gradient norm 0 on most "
             "logs from step 124).",
             weights=(1.0, 0.2), steps=160,
             args=dict(learning_rate=3e-3, warmup_steps=200, lr_scheduler_type="constant_with_warmup",
                       logging_steps=4, seed=15),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE",
                       "GRAD_NORM_SPIKE"), batch=8),
    # -- batch 9 --
    # A seventh fresh batch (issue 28): a binary exact-match reward with two completions a group (where a
    # pair agrees by chance on most steps, before and after its question is learnt) and with four, healthy
    # runs that learn and pathological ones (an answer key no completion can match, a collapse late in a
    # warm-up into a rate far too high), healthy runs without a KL term whose groups saturate, a KL blow-up
    # logged every 10 steps, healthy runs sampled at temperature 0.6 (for late single gradient-norm spikes),
    # strides 1, 2, 3, 4, 5 and 10, runs read from TRL's trainer_state.json and in TRL 0.14's key set, seeds
    # 17-20. Each expectation was written from the mechanism before the run was trained, then checked on the
    # raw log only (never against the doctor). The healthy runs with two completions a group accept no
    # ZERO_ADVANTAGE_GROUPS warning (batches 4 and 7 accepted it on theirs): a pair's rewards agree by chance on
    # most steps of a healthy binary run, before and after its question is learnt, and issue 28 asks that this
    # normal case not be a warning; written so before training.
    Scenario("healthy_binary_4x2_log2", "Exact match alone (0 or 1), four groups of 2 a step, a small KL "
             "penalty and a learning rate of 4e-4, logged every 2 steps: a fresh model is right one time in "
             "ten, so most pairs agree (both wrong) at first and, as the target words are learnt, most agree "
             "again (both right); the pairs that disagree carry the signal and the target is learnt (raw log: the "
             "reward a first-10-log median of 0.19 (0-0.31) and 0.63-0.88 over the last 10 logs; the zero-variance "
             "share 0.375-1, a median of 0.75, 0.75 or more on two logs in three, from the first log to the last; "
             "the KL 0.23-0.6 over the last 10 logs, one log of 1.22 at step 116; entropy from 0.46 to 0.21; the "
             "gradient norm up to 6.5; the samples: the tree question still unlearnt at the end).",
             rewards=("correct",), steps=160,
             args=dict(num_generations=2, beta=0.02, learning_rate=4e-4, logging_steps=2, seed=17), batch=9),
    # First trained at a learning rate of 5e-4 for 200 steps: its raw log and samples showed no saturation but a
    # split: four questions solved ('swan', 'lemon', 'ash', 'pig'), while the colour answer decayed to 'pin', the
    # drink's and the tool's to letter strings ('juuuue', 'hammahe') and the number's never found its target; the
    # reward held at 0.4-0.7 (0.4 at the last log) with most pairs agreeing. Retrained at 3e-4 for 240 steps,
    # the expectation unchanged.
    Scenario("healthy_binary_4x2_nokl_saturates_nosamples_log5", "Exact match alone, four groups of 2 a step, "
             "no KL term (beta 0) and a learning rate of 3e-4, logged every 5 steps and read from TRL's "
             "trainer_state.json (no samples): the target words are learnt until most pairs are right, their two "
             "rewards equal because they are solved: convergence, not a dead signal (raw log: the reward a "
             "first-10-log median of 0.14 (0.05-0.38) and 0.68-0.88 over the last 10 logs; the zero-variance share "
             "0.55-0.95, a median of 0.8, 0.7-0.95 over the last 10 logs; entropy from 0.49 to 0.19; the gradient "
             "norm 0 on most late logs, up to 6.8 at the last; the samples, which the doctor is not given: seven "
             "of the eight questions answered with their target on 72-98 % of the samples of steps 200-240, the "
             "number question not yet, its pairs agreeing both wrong).",
             rewards=("correct",), steps=240,
             args=dict(num_generations=2, beta=0.0, learning_rate=3e-4, logging_steps=5, seed=18),
             source="trainer_state", batch=9),
    Scenario("healthy_binary_2x4_kl_oldkeys_log3", "Exact match alone, two groups of 4 a step, a KL penalty of "
             "0.04 and a learning rate of 4e-4, logged every 3 steps and read in TRL 0.14's key set (no "
             "zero-variance share, entropy or clipped share): the target words are learnt (raw log: the reward a "
             "first-10-log median of 0.10 (0-0.42) and 0.71-0.96 over the last 10 logs, 1 at step 120; the KL "
             "0.29-1.0 over the last 10 logs, one log of 2.66 at step 117; entropy from 0.5 to 0.15; the gradient "
             "norm up to 10.1 at step 84).",
             rewards=("correct",), steps=150,
             args=dict(beta=0.04, learning_rate=4e-4, logging_steps=3, seed=19), source="old_keys", batch=9),
    Scenario("healthy_binary_4x4_nokl_saturates_log4", "Exact match alone, four groups of 4 a step, no KL term "
             "(beta 0) and a learning rate of 3e-4, logged every 4 steps: the target words are learnt until "
             "most groups are solved (every completion right) and agree: convergence, not a dead signal (raw "
             "log: the reward a first-10-log median of 0.23 (0.05-0.47) and 0.83-0.95 over the last 10 logs; the "
             "zero-variance share 0.25-0.81, 0.5-0.81 over the last 10 logs; entropy from 0.47 to 0.12; the "
             "gradient norm 1.3-4.9 over the last 10 logs; the samples: every question's target on 87-98 % of "
             "its samples over steps 120-160).",
             rewards=("correct",), steps=160,
             args=dict(per_device_train_batch_size=16, beta=0.0, learning_rate=3e-4, logging_steps=4, seed=20),
             batch=9),
    Scenario("zero_advantage_answer_key_caps_4x2_log1", "Exact match graded against an answer key written with "
             "capitals ('Pear'), which the model's lowercase vocabulary can never produce, four groups of 2 a "
             "step, a KL penalty of 0.04 and a learning rate of 3e-4, logged every step: every completion scores "
             "0, every pair agrees from the first step, and there is no advantage to learn from; the run is stuck "
             "(raw log: the reward and reward_std 0 and the zero-variance share 1 at every step; the gradient norm "
             "and the KL 0 throughout, the policy never moving; entropy 0.36-0.57).",
             rewards=("correct_capitalized",), steps=80,
             args=dict(num_generations=2, beta=0.04, learning_rate=3e-4, seed=17),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=5)},
             accepted=("REWARD_PLATEAU",), batch=9),
    Scenario("zero_advantage_answer_key_caps_2x4_nosamples_log5", "The capitalised answer key (no completion "
             "can match it) with two groups of 4 a step, no KL term and a learning rate of 3e-4, logged every 5 "
             "steps and read from TRL's trainer_state.json (no samples): every completion scores 0 and every "
             "group agrees from the first step; the run is stuck (raw log: the reward and reward_std 0 and the "
             "zero-variance share 1 at every log; the gradient norm 0 throughout; entropy 0.43-0.49).",
             rewards=("correct_capitalized",), steps=100,
             args=dict(beta=0.0, learning_rate=3e-4, logging_steps=5, seed=20), source="trainer_state",
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=9),
    # First trained for 160 steps: its raw log showed the mechanism, but the collapse only at the end (the reward
    # from 0.06-0.3 to 0.75 at step 60, down to 0.19-0.34 at steps 108-148, and 0-0.09 only over the last three
    # logs, 152-160). Retrained for 200 steps (the same seed and schedule: the first 160 steps repeat), so the
    # collapse has logs to be read from; the expectation unchanged.
    Scenario("reward_collapse_binary_2x4_late_warmup_log4", "Exact match alone, two groups of 4 a step, a "
             "200-step warm-up (constant_with_warmup) towards a learning rate far too high (3e-3) with no KL "
             "term, 200 steps logged every 4: while the rate is low target words are learnt, then as it rises "
             "the answers degrade and the reward collapses to 0 (raw log and samples: the reward a first-10-log "
             "median of 0.125 (0.06-0.31), 0.75 at step 60 (a rate of 8.9e-4), 0.31-0.63 at steps 64-104, 0-0.34 "
             "at 108-148, 0.09 at 152 and 0 on the 12 logs from 156 to the end, every group agreeing; the "
             "learnt answers deform into letter strings ('pank', 'loonon', 'hama'); the gradient norm 0 on every "
             "log from step 124; entropy 0.43-0.78 at the end).",
             rewards=("correct",), steps=200,
             args=dict(beta=0.0, learning_rate=3e-3, warmup_steps=200, lr_scheduler_type="constant_with_warmup",
                       logging_steps=4, seed=18),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE",
                       "GRAD_NORM_SPIKE"), batch=9),
    Scenario("kl_blowup_warmup20_log10", "A 20-step warm-up into a learning rate far too high (3e-3) with a KL "
             "penalty of 0.05, 150 steps logged every 10: once the rate is up the policy runs away from its "
             "reference (KL well above the 0.1-0.8 of the corpus's healthy runs) and the answers degrade (raw "
             "log and samples: the KL 0.03 at step 10, 0.31 at 20 (a rate of 2.85e-3), 1.07 at 30, 2.35 at 40 and "
             "1.5-3.9 from there to the end; the reward 0.2-0.4 over the first three logs, 0.12-0.35 at steps "
             "40-130 and 0.01-0.02 at 140-150, the category share from 0.89 to 0.05-0.09; letter strings ('wap', "
             "'pan', 'p', 'z') for answers at the end; entropy from 0.5 to 0.25-0.49; the gradient norm up to "
             "15.5).",
             weights=(1.0, 0.2), steps=150,
             args=dict(beta=0.05, learning_rate=3e-3, warmup_steps=20, lr_scheduler_type="constant_with_warmup",
                       logging_steps=10, seed=19),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "GRAD_NORM_SPIKE"), batch=9),
    # Written as healthy_cool06_spike_late_log1, expecting one late gradient-norm spike; its raw log, read before
    # the doctor, has none: logged every step with two groups a step, the norm is near 0 on the steps whose
    # groups all agree and up to 18 on those where one does not, from step 6 to the end (10 or more on 13 steps,
    # from step 27 to 146). Renamed for what it shows, still healthy; the late single spike is sought again below
    # (healthy_cool06_weighted3_spike_late_log5).
    Scenario("healthy_cool06_log1", "Sampled at temperature 0.6, exact match beside the category (0.2), a small "
             "KL penalty and a learning rate of 3e-4, logged every step: the target words are learnt (raw log: the "
             "reward a median of 0.2 over the first 30 steps, every answer in the category and none right, and 0.7 "
             "over the last 30 (0.2-1.2), exact match a median of 0.5 there; entropy from 0.39 to 0.23; the KL a "
             "median of 0.28 over the last 30 steps, up to 2.35 on single steps). With two groups of 4 a step "
             "sampled cool, every group agrees on many steps (the zero-variance share 1, the gradient norm near 0) "
             "and a disagreeing group gives a norm of up to 18 on the others, from step 6 to the end: 10 or more "
             "on 13 steps (17.4 at 31, 17.6 at 77, 16.5 at 139), no single spike.", weights=(1.0, 0.2), steps=150,
             args=dict(temperature=0.6, beta=0.02, learning_rate=3e-4, seed=19), batch=9),
    # Written as healthy_cool06_weighted3_spike_late_log5, expecting one late spike; its raw log, read before the
    # doctor, shows three, each a single log among logs near 0 (7.8 at step 110, 1.6 at 175, 3.9 at 190), so it
    # is renamed for them; still healthy, the expectation unchanged.
    Scenario("healthy_cool06_weighted3_spikes_late_log5", "Sampled at temperature 0.6, three weighted components "
             "(exact match 1, the category 0.5, a known word 0.25), a small KL penalty and a learning rate of "
             "4e-4, 200 steps logged every 5 (each log's gradient norm is its last step's): the target words are "
             "learnt early and the groups stay solved, every completion scoring the same, so the norm is near 0 "
             "on most late logs; a late step where one sample strays gives a single large norm and the next logs "
             "are back near 0 (raw log: the reward a first-10-log median of 1.1 (0.8-1.52) and 1.66-1.75 of a "
             "possible 1.75 over the last 10 logs, exact match from 0.05-0.15 at steps 5-15 to 0.95-1; the "
             "zero-variance share from 0.3-0.8 to 0.8-1; entropy from 0.43 to 0.016-0.05; the KL 0.29-0.72 from "
             "step 115; the gradient norm 14 at step 25 and 9.7 at 40 while learning, then three single late "
             "logs: 7.8 at step 110 (between 2.0 and 0.002), 1.6 at 175 and 3.9 at 190, every other log from step "
             "115 at 0.0005-0.004).",
             rewards=("correct", "in_category", "is_word"), weights=(1.0, 0.5, 0.25), steps=200,
             args=dict(temperature=0.6, beta=0.02, learning_rate=4e-4, logging_steps=5, seed=18), batch=9),
    Scenario("healthy_cool06_binary_4x2_spike_late_log2", "Sampled at temperature 0.6, exact match alone, four "
             "groups of 2 a step, a small KL penalty and a learning rate of 4e-4, logged every 2 steps: the "
             "target words are learnt, pairs agree on most steps (both wrong, then both right), and a late "
             "step's gradient norm stands alone above the rest: one spike in a healthy run (raw log and samples: "
             "the reward a first-10-log median of 0.16 (0.06-0.31) and 0.44-1 over the last 10 logs, still "
             "learning; the zero-variance share 0.5-1, a median of 0.875; the gradient norm a median of 0.1, at "
             "most 5.9 on every log but one, 12.8 at step 122 between two logs of 0; the KL 0.22-1.43 over the "
             "last 10 logs; entropy from 0.36 to 0.16; the samples over steps 130-160: five questions answered "
             "with their target on 79-97 % of samples, the number's on 11 of 26, the drink's not yet, the "
             "tree's drifting to a letter string ('ak', 14 of 30)).",
             rewards=("correct",), steps=160,
             args=dict(num_generations=2, temperature=0.6, beta=0.02, learning_rate=4e-4, logging_steps=2,
                       seed=20), batch=9),
    # -- batch 10 --
    # An eighth fresh batch: the binary exact-match reward with groups of 2 and 4 again (healthy runs, where the
    # eight questions are learnt at different steps, and a stuck and a collapsing one), a healthy run without a
    # KL term sampled at temperature 0.7, a per-character bonus beside exact match, a learning rate far too
    # high (written as an entropy collapse, re-labelled from its log); strides 2-8, runs read from
    # trainer_state.json and in TRL 0.14's key set, seeds 21-24. Each expectation was written from the mechanism
    # before the run was trained (committed first), then checked on the raw log only, never against the doctor.
    # As in batch 9, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by
    # chance on most steps.
    Scenario("healthy_binary_4x2_staggered_log3", "Exact match alone, four groups of 2 a step, a small KL "
             "penalty and a learning rate of 4e-4, 150 steps logged every 3: the questions' target words are "
             "learnt one after another, some early and some late, and most pairs agree (both wrong, then both "
             "right); the disagreeing pairs carry the signal (raw log and samples: the reward a first-10-log "
             "median of 0.19 (0.04-0.29) and 0.5-0.83 over the last 10 logs; the zero-variance share 0.42-1, a "
             "median of 0.75, from the first log to the last; entropy from 0.47 to 0.22-0.40; the KL 0.46-1.34 "
             "over the last 10 logs, 1.6 at step 78; the gradient norm up to 5.6; the questions learnt at "
             "different steps: the fruit's 'lemon' on 15 of 30 samples over steps 0-29, the tree's 'ash' and the "
             "colour's 'pink' over 30-59, the bird's 'swan' over 60-89, the tool's, the drink's and the animal's "
             "over 90-119 (32 of 44, 15 of 24, 20 of 32), the number's never; the colour's answer half drifting "
             "to 'piery' late).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, beta=0.02, learning_rate=4e-4, logging_steps=3, seed=21), batch=10),
    Scenario("healthy_binary_2x4_nosamples_log6", "Exact match alone, two groups of 4 a step, a KL penalty of "
             "0.04 and a learning rate of 4e-4, 180 steps logged every 6 and read from TRL's trainer_state.json "
             "(no samples): the target words are learnt, the reward rising from about one in ten (raw log: the "
             "reward a first-10-log median of 0.19 (0.04-0.35) and 0.81-0.96 over the last 10 logs; the "
             "zero-variance share 0.17-0.83, a median of 0.63; entropy from 0.47 to 0.10-0.24; the KL 0.29-0.91 "
             "over the last 10 logs; the gradient norm up to 11.4 at step 144; the samples, which the doctor is "
             "not given: the fruit's and the colour's targets early (steps 0-39), the drink's and the tree's over "
             "40-79, the bird's, the number's, the tool's and the animal's over 80-119; every question on its "
             "target on 75-100 % of its samples from step 120).",
             rewards=("correct",), steps=180,
             args=dict(beta=0.04, learning_rate=4e-4, logging_steps=6, seed=22), source="trainer_state",
             batch=10),
    Scenario("healthy_nokl_temp07_log4", "Sampled at temperature 0.7, exact match beside the category (0.2), no "
             "KL term (beta 0) and a learning rate of 3e-4, two groups of 4, 160 steps logged every 4: the target "
             "words are learnt and groups saturate as they are solved: convergence, not a dead signal (raw log and "
             "samples: the reward a first-10-log median of 0.49 (0.23-0.66) and 0.63-1.07 of a possible 1.2 over "
             "the last 10 logs, exact match from 0.03 to 0.5-0.88; the zero-variance share 0.63-1 over the last "
             "10 logs, 1 on the last three; entropy from 0.40 to 0.04-0.20; the gradient norm 0 on half the late "
             "logs, 15.7 at step 124, 8.4-9.0 at 76 and 120; six questions on their target by the end, the tree "
             "not (its answers 'pine' and 'palm'), and the bird's 'swan', learnt by steps 40-79 (35 of 48), "
             "drifting to the letter string 'uch' (39 of 44 over steps 120-159), which is why the category share "
             "falls to 0.53-0.63 on some late logs).",
             weights=(1.0, 0.2), steps=160,
             args=dict(temperature=0.7, beta=0.0, learning_rate=3e-4, logging_steps=4, seed=23), batch=10),
    Scenario("healthy_binary_4x4_oldkeys_log8", "Exact match alone, four groups of 4 a step, a small KL penalty "
             "and a learning rate of 3e-4, 160 steps logged every 8 and read in TRL 0.14's key set (no "
             "zero-variance share, entropy or clipped share): the target words are learnt (raw log and samples: the "
             "reward a first-10-log median of 0.44 (0.08-0.70) and 0.70-0.96 over the last 10 logs, from 0.08 at "
             "step 8; the zero-variance share 0.25-0.88; entropy from 0.48 to 0.08; the KL 0.32-0.57 over the "
             "last 10 logs; the gradient norm up to 6.0; the colour's and the tree's targets early (steps 0-39), "
             "the fruit's, the bird's, the tool's and the animal's over 40-79, the number's and the drink's over "
             "80-119; every question on its target on 85-100 % of its samples over steps 120-159).",
             rewards=("correct",), steps=160,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=3e-4, logging_steps=8, seed=24),
             source="old_keys", batch=10),
    Scenario("zero_advantage_shifted_key_4x2_log2", "Exact match graded against an answer key joined to the "
             "questions off by one ('a fruit?' graded against 'pig', task.py's correct_shifted), four groups of 2 a "
             "step, a KL penalty of 0.04 and a learning rate of 3e-4, 100 steps logged every 2: the wanted word is "
             "of another category, which the model does not give, so nearly every completion scores 0 and nearly "
             "every pair agrees from the start; the run is stuck (raw log and samples: the reward and reward_std 0 "
             "and the zero-variance share 1 on every log; the gradient norm and the KL 0 throughout, the policy "
             "never moving; entropy 0.41-0.53; the answers the category's words, as taught, to the end).",
             rewards=("correct_shifted",), steps=100,
             args=dict(num_generations=2, beta=0.04, learning_rate=3e-4, logging_steps=2, seed=21),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.9, run=5)},
             accepted=("REWARD_PLATEAU",), batch=10),
    Scenario("reward_outage_binary_2x4_log4", "Exact match alone, two groups of 4 a step, a small KL penalty and a "
             "learning rate of 5e-4, 170 steps logged every 4; from the 110th reward call to the end the grader "
             "answers 0 for everything (an outage, the client defaulting to 0): after the target words are "
             "learnt the reward drops to 0 and every group agrees (raw log and samples: the reward a first-10-log "
             "median of 0.125 (0-0.31), 0.5-0.91 at steps 84-108, 0.19 at step 112 (a log averaging both sides of "
             "the outage) and 0 with every group agreeing on every log from 116 to the end; the gradient norm "
             "0.01-0.19 from there (the KL term alone); the answers, still the learnt words ('pig', 'pink', "
             "'lemon', 'juice'), do not change).",
             rewards=("correct",), steps=170, swap=(110, 100_000, "nothing"),
             args=dict(beta=0.02, learning_rate=5e-4, logging_steps=4, seed=22),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=10),
    Scenario("length_explosion_char_bonus_4x2_log7", "Exact match plus a bonus paid per character (weights 1 and "
             "0.5), four groups of 2 a step, no KL term, a learning rate of 5e-4 and a 24-token budget, 140 steps "
             "logged every 7: the bonus outweighs the one-word answer, so answers grow past the word towards the "
             "budget and get cut (raw log and samples: the mean length 5.6 and 5.9 tokens over the first two logs, "
             "9.3 at step 35, 15 at 42, 22.9 at 56 and 23.6-24 from 77; the clipped share 0.55 at step 49, 0.89 "
             "at 56 and 0.96-1 from 77; exact match from 0.05-0.21 to 0 from step 63, the bonus at its maximum "
             "(3) from 84; entropy from 0.45 to 0.9-1.0; answers letter strings with category words in them "
             "('lemon chech pluhch ralms', 'hammer hammmer spadmmuce')).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.5), steps=140,
             args=dict(num_generations=2, max_completion_length=24, beta=0.0, learning_rate=5e-4, logging_steps=7,
                       seed=23),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2)},
             accepted=("TRUNCATION_HIGH", "ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION",
                       "REPETITIVE_COMPLETIONS", "GRAD_NORM_SPIKE", "REWARD_COLLAPSE"), batch=10),
    # Written as entropy_collapse_lr2e3_binary_2x4_log3, expecting the policy to collapse onto one string per
    # question (ENTROPY_COLLAPSE); its raw log, read before the doctor, shows the opposite: the rate broke the
    # policy within ten steps, entropy rose (0.47 at the first log, 0.6-0.96 after) and the reward fell to 0 with
    # every group agreeing, the gradient 0 from then on, so the run can never move again. Re-labelled and renamed
    # for what its log shows (the same run, retrained under the new name): a run left without any advantage.
    # The fall of a reward of one in ten to 0 and the rise in entropy are accepted, not required.
    Scenario("zero_advantage_lr2e3_broken_2x4_log3", "Exact match alone, two groups of 4 a step, no KL term and "
             "a constant learning rate far too high (2e-3), 100 steps logged every 3: the first updates overshoot "
             "and break the answers into letter strings that never match, every group then agrees on 0 and, with "
             "no KL term, the gradient is 0: the run is stuck for good (raw log and samples: the reward 0.125, "
             "0.21 and 0.08 over the first three logs and 0 with the zero-variance share 1 on every log from step "
             "12 to the end; the gradient norm 5.1 at step 6 and 0 on every log from step 9; entropy from 0.47 to "
             "0.6-0.96; the mean length from 5.3 to 6.5-9.8 tokens, the clipped share up to 0.42; answers such as "
             "'pigeee egeee', 'segpe', 'pk').",
             rewards=("correct",), steps=100,
             args=dict(beta=0.0, learning_rate=2e-3, logging_steps=3, seed=24),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_PLATEAU", "TRUNCATION_HIGH",
                       "LENGTH_EXPLOSION", "GROUP_MODE_COLLAPSE", "GRAD_NORM_SPIKE"), batch=10),
    # -- batch 11 --
    # A ninth fresh batch (issue 28 again, with variations batches 9 and 10 did not use): a binary exact-match
    # reward with groups of 2 and 4 at learning rates of 3e-4 to 6e-4 and strides 2, 4, 5 and 10, a binary
    # reward on the list questions (another prompt set), healthy runs without a KL term sampled at temperature
    # 0.6 and 0.7, a long healthy run at temperature 0.6 (late noise), runs that converge until nearly every
    # group agrees because it is solved; a KL blow-up on the judge score logged every 10 steps, an answer key
    # changed after learning, a key of words the model was never taught, the coin-flip reward with groups of 4
    # (written as an entropy collapse, re-labelled from its log); runs read from trainer_state.json and in TRL
    # 0.14's key set, seeds 25-30. Each expectation was written from the mechanism before the run was trained
    # (committed first), then checked on the raw log only, never against the doctor. As in batches 9 and 10, the
    # healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps,
    # and when solved. A tenth scenario written before training, length_collapse_brevity_weighted_2x4_log3
    # (exact match beside a brevity term weighted 2, expecting LENGTH_COLLAPSE), was trained and left out: its
    # raw log showed no collapse (the mean length from 5.3-5.8 tokens to 3.4-5.4 over its last 10 logs, exact
    # match learnt from 0.08 to 0.17-0.83, unlearnt questions answered with clipped words such as 'ow'), and the
    # batch's fixtures were over their size budget without it.
    Scenario("healthy_binary_4x2_lr6e4_log5", "Exact match alone (0 or 1), four groups of 2 a step, a KL penalty of "
             "0.04 and a learning rate of 6e-4, 150 steps logged every 5: a fresh model is right one time in ten, most "
             "pairs agree (both wrong, later both right) and the pairs that disagree carry the signal; the target "
             "words are learnt (raw log and samples: the reward 0.15 over the first two logs, a first-10-log median of "
             "0.36 (0.15-0.675) and 0.75-0.9 over the last 10 logs; the zero-variance share 0.5-0.9, a median of 0.75, "
             "from the first log to the last; entropy from 0.49 to 0.14-0.25 over the last 10 logs; the KL 0.36-0.88 "
             "over the last 10 logs, 1.12 at step 60; the gradient norm up to 5.6 (step 45); the questions learnt at "
             "different steps: the tree's 'ash' and the tool's 'hammer' early (21 of 28 and 17 of 30 samples over "
             "steps 0-29), the colour's and the bird's over 30-59, the fruit's, the drink's and the number's over "
             "60-89, the animal's 'pig' over 90-119 (24 of 42); every question on its target on 63-97 % of its samples "
             "over steps 120-149).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, beta=0.04, learning_rate=6e-4, logging_steps=5, seed=25), batch=11),
    # Accepts REPETITIVE_COMPLETIONS (not written before training): the reward pays for naming the target
    # anywhere in the list, and the samples show lists that repeat it growing late ('lemon lemon lemon').
    Scenario("healthy_lists_names_target_2x4_log2", "The list questions ('some fruits?') with a binary reward, 1 when "
             "the list names the question's target word ('lemon'; task.py's names_target), two groups of 4 a step, a "
             "small KL penalty, a learning rate of 4e-4 and a 24-token budget, 100 steps logged every 2: a fresh list "
             "of two or three of ten words names the target about one time in four, and the lists learn to name it "
             "(raw log and samples: the reward a first-10-log median of 0.25 (0.125-0.44) and 0.69-1 over the last 10 "
             "logs; the zero-variance share 0-1, a median of 0.25, of 0.75 over the last 10 logs; entropy from 0.56 to "
             "0.41-0.53; the KL 0.41-0.88 over the last 10 logs but for 2.82 at step 82, where the gradient norm is "
             "10.1 (at most 5.4 elsewhere); the mean length 12.6-17.3 tokens, nothing cut; over steps 75-99 the "
             "animal's, the colour's, the drink's, the fruit's and the tree's lists name the target on 23-33 of 28-36 "
             "samples, the number's on 13 of 20, the bird's and the tool's on 7 of 16 and 4 of 12. The reward does not "
             "ask for different words, and lists that repeat one (3+ words, at most half distinct) grow from 0-1 % "
             "before step 40 to 7 % of the samples over steps 50-59, 15 % over 70-79, 20 % over 80-89 and 26 % over "
             "90-99: 'lemon lemon lemon' on 15 of 32 fruit lists over 75-99, 'pig pig pig pig').",
             prompts="lists", rewards=("names_target",), steps=100,
             args=dict(max_completion_length=24, beta=0.02, learning_rate=4e-4, logging_steps=2, seed=26),
             accepted=("REPETITIVE_COMPLETIONS",), batch=11),
    Scenario("healthy_nokl_cool06_binary_4x2_oldkeys_log10", "Exact match alone, four groups of 2 a step, no KL term "
             "(beta 0), sampled at temperature 0.6, a learning rate of 4e-4, 200 steps logged every 10 and read in TRL "
             "0.14's key set (no zero-variance share, entropy or clipped share): sampled cool, pairs agree on most "
             "steps; the target words are learnt (raw log and samples: the reward 0.15 at step 10, 0.56-0.66 at 40-60 "
             "and 0.76-0.94 over the last 10 logs; the zero-variance share, which the doctor is not given, "
             "0.725-0.975, 0.9-0.975 over the last 10 logs; entropy, not given either, from 0.41 to 0.03-0.10; the "
             "gradient norm 0 on 13 of the 20 logs, up to 7.1 at step 60; seven questions on their target on 94-100 % "
             "of their samples over steps 150-199, the tree's never ('palm', 'pine'), its pairs agreeing both wrong).",
             rewards=("correct",), steps=200,
             args=dict(num_generations=2, temperature=0.6, beta=0.0, learning_rate=4e-4, logging_steps=10,
                       seed=27), source="old_keys", batch=11),
    Scenario("healthy_cool06_binary_2x4_long_log5", "Exact match alone, two groups of 4 a step, sampled at temperature "
             "0.6, a small KL penalty and a learning rate of 4e-4, 250 steps logged every 5: the target words are "
             "learnt and the run goes on long after, solved groups agreeing, a stray sample now and then giving a "
             "single larger gradient norm or KL: late noise in a healthy run (raw log and samples: the reward 0.025 at "
             "step 5, a first-10-log median of 0.31 (0.025-0.85) and 0.95-1 over the last 10 logs, 1 on 9 logs from "
             "step 125; the zero-variance share 0.5-1, 0.9-1 over the last 10 logs; entropy from 0.41 to 0.011-0.054 "
             "from step 125; the KL 0.33-0.59 over the last 10 logs, single logs of 1.2 at step 105, 1.08 at 120 and "
             "1.33 at 195; the gradient norm 13.4 at step 45 and 15.3 at 70 while learning, then below 0.01 on most "
             "logs from 125 with single late logs of 8.1 at 130, 3.9 and 5.2 at 155 and 160, 2.3 and 12.0 at 195 and "
             "200, 4.3 at 220; every question on its target on 94-100 % of its samples over steps 200-249).",
             rewards=("correct",), steps=250,
             args=dict(temperature=0.6, beta=0.02, learning_rate=4e-4, logging_steps=5, seed=28), batch=11),
    Scenario("healthy_nokl_temp07_converges_4x4_nosamples_log5", "Exact match alone, four groups of 4 a step, no KL "
             "term, sampled at temperature 0.7, a learning rate of 5e-4, 200 steps logged every 5 and read from TRL's "
             "trainer_state.json (no samples): the target words are learnt until most groups are solved, every "
             "completion right, and late nearly every group agrees: convergence, not a dead signal (raw log and "
             "samples: the reward 0.075 at step 5, a first-10-log median of 0.57 (0.075-0.79) and 0.64-0.96 over the "
             "last 10 logs; the zero-variance share 0.75-1 from step 45, 0.85-1 from step 60, 1 on 10 logs; entropy "
             "from 0.42 to 0.03-0.16 over the last 10 logs; the gradient norm 0 on 22 of the 40 logs, up to 7.6 (step "
             "115); the samples, which the doctor is not given: six questions on their target on 97-100 % of their "
             "samples over steps 150-199, the number's never (0 of 440), and the tool's 'hammer', learnt early (63 of "
             "104 over steps 0-49), drifting with no KL anchor to 'hammmer' (0 of 148 on target over 50-149) and half "
             "back over 150-199 (32 of 84)).",
             rewards=("correct",), steps=200,
             args=dict(per_device_train_batch_size=16, temperature=0.7, beta=0.0, learning_rate=5e-4,
                       logging_steps=5, seed=29), source="trainer_state", batch=11),
    # Its accepted signatures beyond REWARD_COLLAPSE (written before training) were added from the raw log and
    # samples, each an episode they show.
    Scenario("kl_blowup_judge_2x4_log10", "The 0-10 judge score, two groups of 4 a step, a KL penalty of 0.05 and a "
             "30-step warm-up (constant_with_warmup) into a learning rate far too high (3e-3), 220 steps logged every "
             "10: once the rate is up each update overshoots and the policy runs away from its reference (the KL well "
             "above the 0.1-0.8 of the corpus's healthy runs) while its answers degrade (raw log and samples: the KL "
             "0.01 at step 10, 0.36 at 20, 0.89 at 30 (a rate of 2.9e-3), 2.27 at 40, 2.9-8.4 at 50-140 and 2.1-3.7 "
             "from 150 to the end; the judge score 6.7 and 6.05 over the first two logs, 0.31-1.9 at steps 60-140 but "
             "for 3.2 at 120, and 2.6-3.8 from 150; the answers letter strings by steps 40-79 ('tene', 'p', 'jrice'), "
             "'pig' to most questions over 80-119 ('pigrpigrpigs'), then 'pine' to every question but the number's "
             "('e') from about step 160; the mean length 4.3-6.5 tokens to step 60, 7.5-9.9 at 70-140 but for 5.95 at "
             "120, 4.1-5.1 from 150; the clipped share 0.26-0.6 at 70-140 (0.075 at 120), 0 from 150; entropy "
             "0.47-0.75 to step 110, 0.12-0.38 at 120-150 and 0.005-0.074 from 160; the zero-variance share 0.75-1 "
             "from step 60 but for 0.65 at 100, 0.8-1 from 120; the groups' duplicate share (samples) 0.19-0.49 to "
             "step 139 and 0.89-0.98 from 140; the gradient norm 17.3 at step 140, at most 6.4 elsewhere, below 0.01 "
             "on 7 of the 8 logs from 150).",
             rewards=("judge",), steps=220,
             args=dict(beta=0.05, learning_rate=3e-3, warmup_steps=30, lr_scheduler_type="constant_with_warmup",
                       logging_steps=10, seed=30),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "REWARD_PLATEAU", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "GRAD_NORM_SPIKE"), batch=11),
    Scenario("reward_collapse_key_changed_4x2_log4", "Exact match alone, four groups of 2 a step, a small KL penalty "
             "and a learning rate of 6e-4, 170 steps logged every 4; from the 110th reward call to the end the grader "
             "reads an answer key joined off by one (task.py's correct_shifted: a data change after learning): the "
             "learnt target words no longer match, the reward drops to about 0 and nearly every pair agrees on it (raw "
             "log and samples: the reward a first-10-log median of 0.23 (0.125-0.34), 0.31-0.72 at steps 44-108 (0.72 "
             "at 76, 0.66 at 100), 0.125 at 112 (a log averaging both sides of the change) and 0 with the "
             "zero-variance share 1 on every log from 116 to the end; the KL 0.45-1.4 at steps 72-108 and 0.36-2.7 "
             "after, 1.75 at 116, 1.87 at 140 and 2.7 at 156; the gradient norm 0.002-2.3 from 116 (the KL term "
             "alone); the answers still the learnt words ('juice', 'lemon', 'pink', 'hammer') to the end, the tree's "
             "'ash' giving way to 'spruce' over the last 20 steps).",
             rewards=("correct",), steps=170, swap=(110, 100_000, "correct_shifted"),
             args=dict(num_generations=2, beta=0.02, learning_rate=6e-4, logging_steps=4, seed=25),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=11),
    # Written as entropy_collapse_coin_2x4_log5, expecting the policy to settle on one completion per question
    # (ENTROPY_COLLAPSE, GROUP_MODE_COLLAPSE); its raw log, read before the doctor, shows no collapse: entropy
    # rose (0.50 and 0.55 over the first two logs, 0.84 at step 40), fell to 0.33-0.36 at 60-80, rose to 0.69 at
    # 90 and swung between 0.20 and 0.67 to the last log (0.11), never three logs below 0.3 x its start; the
    # groups' copies came and went (a duplicate share of 0.45-0.63 over steps 50-79, 0.07-0.25 over 80-149). What it
    # shows instead: the answers, letter strings from step 30, run to the 12-token budget from step 85 and are
    # all cut from 90 to the end. Re-labelled and renamed for what its log shows (the same run, retrained under
    # the new name): a length explosion under a reward that says nothing; the truncation, the copying episode
    # and the looped letters of its last 30 steps ('eeeeeeeeeeee') accepted.
    Scenario("length_explosion_coin_2x4_log5", "The coin-flip reward (it says nothing), two groups of 4 a step, no KL "
             "term and a learning rate of 1.5e-3, 150 steps logged every 5: the advantages are noise, and with no "
             "anchor each update moves the policy at random; the answers break into letter strings and run to the "
             "budget (raw log and samples: the reward 0.375-0.65 throughout; the mean length 5.6 and 5.15 tokens over "
             "the first two logs, 4.5-7.4 to step 80, 8.1 at 85, 11.5 at 90 and 11.85-12 from 95 to the end; the "
             "clipped share 0-0.15 to step 80, 0.325 at 85 and 0.925-1 from 90; entropy 0.50 to 0.84 at step 40, "
             "0.33-0.36 at 60-80, 0.20-0.69 after, 0.11 at the last log; answers 'aaal', 'ckal', 'ccch' by steps "
             "30-59, groups copying one ('te' on 18 of 20 number answers over 60-89, a duplicate share of 0.45-0.63 "
             "over 50-79), then 12-letter strings ('alllkkkkllkk', 'ckockockocko'): over steps 120-149 two answers in "
             "three are one letter looped for two thirds of the string or more (15 % over 105-119, none before but "
             "7 % over 45-59), 'eeeeeeeeeeee' on 37 of 240; the gradient norm 0.45-7.1, 2e-7 at step 80).",
             rewards=("coin",), steps=150,
             args=dict(beta=0.0, learning_rate=1.5e-3, logging_steps=5, seed=26),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2)},
             accepted=("TRUNCATION_HIGH", "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS"), batch=11),
    Scenario("zero_advantage_untaught_key_4x2_log10", "Exact match graded against an answer key from another edition "
             "of the word lists, whose words the model was never taught ('kiwi', 'goat', 'teal'; task.py's "
             "correct_untaught), four groups of 2 a step, a small KL penalty and a learning rate of 3e-4, 150 steps "
             "logged every 10: no completion ever matches, every pair agrees on 0 from the first step and there is no "
             "advantage to learn from; the run is stuck (raw log and samples: the reward and reward_std 0 and the "
             "zero-variance share 1 on every log; the gradient norm and the KL 0 throughout, the policy never moving; "
             "entropy 0.44-0.50; the answers the category's taught words, as at the start, to the end).",
             rewards=("correct_untaught",), steps=150,
             args=dict(num_generations=2, beta=0.02, learning_rate=3e-4, logging_steps=10, seed=27),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=11),
    # -- batch 12 --
    # A tenth fresh batch, 16 scenarios: a binary exact-match reward with groups of 2, 4 and 8 at learning rates
    # of 2e-4 to 8e-4 and strides 1, 3, 4, 5, 6 and 8, healthy runs without a KL term sampled at temperature 0.7
    # and 0.8, runs that converge until nearly every group agrees because it is solved, exact match beside the
    # category with RLOO, a long RLOO run at temperature 0.6; a KL blow-up on exact match logged every 10 steps,
    # an entropy collapse under a reward that says nothing, a reward collapse late in an RLOO warm-up, a grader
    # outage after learning, a per-character bonus beside exact match, a list task beyond the model (task.py's
    # exact_list), a keyword-count reward (task.py's target_mentions), a letter proxy gamed against exact match;
    # runs read from trainer_state.json and in TRL 0.14's key set, seeds 31-46. Each expectation was written
    # from the mechanism before the run was trained (committed first), then checked on the raw log only, never
    # against the doctor; the accepted signatures were then set from what each raw log shows (each named with
    # its numbers in the text), and the onset rule of reward_collapse_rloo_late_warmup_2x4_log6 changed (below).
    # As in batches 9-11, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by
    # chance on most steps, and when solved; nor single gradient-norm spikes while learning or late.
    Scenario("healthy_binary_1x8_log1", "Exact match alone, one group of 8 a step, a KL penalty of 0.04 and a learning "
             "rate of 3e-4, 150 steps logged every step: a fresh model is right about one time in ten, a group of 8 "
             "usually holds a right answer, and the target words are learnt one question after another (raw log and "
             "samples: the reward a first-10-log median of 0.125 (0-0.5), means of 0.26, 0.41, 0.63, 0.71 and 0.9 over "
             "steps 1-30, 31-60, 61-90, 91-120 and 121-150, 0.875-1 over the last 10 logs; the group agreeing "
             "(zero-variance share 1) on 11 of the first 50 logs and 13 of the last 30, solved there; entropy from "
             "0.49 to 0.04-0.29 over the last 10 logs; the KL 0.23-0.91 over the last 10 logs, 1.17-1.27 on five "
             "single logs (steps 37, 42, 70, 80, 86); the gradient norm a median of 2.5, 28.6 and 24.0 at steps 94-95, "
             "17.4 at 80, 15.4 at 99 and 14.0 at 126 while learning; the colour's and the tree's targets early (29 of "
             "48 and 23 of 56 samples over steps 0-29), the fruit's over 30-59, the drink's, the tool's and the "
             "animal's over 60-119, the bird's last; every question on its target on 78-97 % of its samples over steps "
             "120-149).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=8, beta=0.04, learning_rate=3e-4, seed=31), batch=12),
    # Accepts KL_BLOWUP (not written before training): the raw log shows the KL past 1 on each of the last 8 logs.
    Scenario("healthy_binary_4x2_lr8e4_nosamples_log3", "Exact match alone, four groups of 2 a step, a KL penalty of "
             "0.05 and a learning rate of 8e-4, 150 steps logged every 3 and read from TRL's trainer_state.json (no "
             "samples): a fast learner held by its KL term; most pairs agree (both wrong, then both right) and the "
             "target words are learnt, while at this rate the KL keeps climbing and some learnt answers deform (raw "
             "log and samples: the reward a first-10-log median of 0.19 (0-0.375), 0.83 at step 72 and 0.5-0.83 over "
             "the last 10 logs; the zero-variance share 0.5-1, a median of 0.75; entropy from 0.46 to 0.20-0.35 over "
             "the last 10 logs; the KL a first-10-log median of 0.21, 0.18-1.3 over steps 33-126 (above 1 on 6 of "
             "those 32 logs) and above 1 on every one of the last 8 logs, from step 129: 1.05-1.42, 2.0 at 138 and "
             "4.06 at 132; the gradient norm at most 6.2; the samples, which the doctor is not given: the bird's, the "
             "fruit's and the tool's targets early (21 of 30, 29 of 34 and 19 of 26 over steps 30-59), the colour's, "
             "the drink's and the number's over 60-89, the tree's and the animal's over 90-149, while the tool's "
             "'hammer' deforms to 'hamme' (0 of 56 on target over 90-149) and the fruit's answer half to letter "
             "strings late ('een', 15 of 34 on target over 120-149)).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, beta=0.05, learning_rate=8e-4, logging_steps=3, seed=32),
             source="trainer_state", accepted=("KL_BLOWUP",), batch=12),
    Scenario("healthy_binary_2x4_lr2e4_oldkeys_log5", "Exact match alone, two groups of 4 a step, a small KL penalty "
             "and a learning rate of 2e-4, 200 steps logged every 5 and read in TRL 0.14's key set (no zero-variance "
             "share, entropy or clipped share): a slow learner, the reward rising from about one in ten over the whole "
             "run (raw log and samples: the reward a first-10-log median of 0.16 (0.075-0.275) and 0.725-0.975 over "
             "the last 10 logs; the zero-variance share, which the doctor is not given, 0.1-0.9, a median of 0.6; "
             "entropy, not given either, from 0.48 to 0.08-0.21; the KL 0.27-0.60 over the last 10 logs but for 1.28 "
             "at step 170; the gradient norm below 0.01 on 10 of the 40 logs, up to 10.9 (step 185); the colour's and "
             "the fruit's targets early, the bird's, the drink's, the tool's and the animal's over steps 50-149, the "
             "number's and the tree's last; every question on its target on 73-98 % of its samples over steps "
             "150-199).",
             rewards=("correct",), steps=200,
             args=dict(beta=0.02, learning_rate=2e-4, logging_steps=5, seed=33), source="old_keys", batch=12),
    Scenario("healthy_nokl_temp08_binary_2x4_log8", "Exact match alone, two groups of 4 a step, no KL term (beta 0), "
             "sampled at temperature 0.8, a learning rate of 5e-4, 200 steps logged every 8: the target words are "
             "learnt and groups saturate as they are solved: convergence, not a dead signal (raw log and samples: the "
             "reward 0.16 and 0.23 over the first two logs, a first-10-log median of 0.48 (0.125-0.875) and 0.69-0.98 "
             "over the last 10 logs; the zero-variance share 0.19-0.81 over the first 10 logs and 0.62-1 over the last "
             "10; entropy from 0.42 to 0.04-0.20; the gradient norm 0 on 9 of the 25 logs, 20.0 at step 96, at most "
             "8.7 elsewhere; seven questions on their target on 81-100 % of their samples over steps 150-199, the "
             "number's never (0 of 160 samples over 0-199)).",
             rewards=("correct",), steps=200,
             args=dict(temperature=0.8, beta=0.0, learning_rate=5e-4, logging_steps=8, seed=34), batch=12),
    # Written expecting every group of 8 to agree late because it is solved; its raw log shows the task learnt
    # (every question on its target on 90-99 % of its samples at the end) but a stray sample in one group of 8 in
    # two or so, the zero-variance share 0.38-0.88 over the last 10 logs. Still healthy; the text says so.
    Scenario("healthy_binary_2x8_converges_log4", "Exact match alone, two groups of 8 a step, a small KL penalty and a "
             "learning rate of 6e-4, 180 steps logged every 4: the target words are learnt until nearly every "
             "completion is right; a group of 8 agrees only when all eight are, so a stray sample keeps many groups "
             "apart to the end: convergence, not a dead signal (raw log and samples: the reward 0.11 and 0.09 over the "
             "first two logs, a first-10-log median of 0.23 (0.06-0.72), 0.98 at step 64 and 0.86-0.97 over the last "
             "10 logs; the zero-variance share 0.13-1, 0.38-0.88 over the last 10 logs; entropy from 0.48 to "
             "0.04-0.14; the KL 0.29-0.85 over the last 10 logs but for 1.05 at step 152, single logs of 3.02 at 76 "
             "and 1.71 at 104; the gradient norm up to 11.9 (step 136); the fruit's and the animal's targets early (61 "
             "of 96 and 57 of 120 samples over steps 0-44), the other six over 45-89; every question on its target on "
             "90-99 % of its samples over steps 135-179, the tool's 'hammer' drifting to 'hammmer' on the way (18 of "
             "88 over 90-134) and back).",
             rewards=("correct",), steps=180,
             args=dict(per_device_train_batch_size=16, num_generations=8, beta=0.02, learning_rate=6e-4,
                       logging_steps=4, seed=35), batch=12),
    Scenario("healthy_rloo_partial_credit_2x4_log2", "RLOO with its KL penalty (0.05) in the reward, partial credit: "
             "exact match (1) beside a word of the asked category (0.3), two groups of 4 a step, a learning rate of "
             "4e-4, 120 steps logged every 2: the category is already given, the target words are learnt (raw log and "
             "samples: the reward a first-10-log median of 0.33 (0.26-0.43) and 0.81-1.3 of a possible 1.3 over the "
             "last 10 logs, exact match from 0.06 to 0.56-1, the category share 0.63-1 throughout (0.81-1 over the "
             "last 10 logs); the zero-variance share 0 over most of the first 10 logs, 0.25-1 over the last 10; "
             "entropy from 0.44 to 0.08-0.23; the KL 0.18-0.59 from step 60; the gradient norm, RLOO's advantages not "
             "normalised, a median of 6, above 20 on 9 of the 60 logs while learning, 30-61 on five of them (32.9 at "
             "step 50, 53.7 at 76, 47.8 at 80, 30.4 at 84, 61.0 at 88); the bird's, the drink's, the fruit's and the "
             "tool's targets learnt over steps 40-79, the colour's and the tree's by 80-119 (40 of 48 and 46 of 52), "
             "the number's half (16 of 32), the animal's never (0 of 112)).",
             algorithm="rloo", weights=(1.0, 0.3), steps=120,
             args=dict(beta=0.05, learning_rate=4e-4, logging_steps=2, seed=36), batch=12),
    # Accepts KL_BLOWUP (not written before training): the raw log shows the KL at 1.07-2.06 on 9 logs in a row.
    Scenario("healthy_rloo_cool06_binary_4x2_long_log5", "RLOO, exact match alone, four groups of 2 a step, sampled at "
             "temperature 0.6, a KL penalty of 0.03 in the reward and a learning rate of 4e-4, 250 steps logged every "
             "5: the target words are learnt and the run goes on long after, solved pairs agreeing; a KL excursion "
             "while two answers deform and are corrected, late noise in a healthy run (raw log and samples: the reward "
             "0.075 at step 5, a first-10-log median of 0.275 (0.075-0.55) and 0.95-1 over the last 10 logs, 1 on 13 "
             "of the 24 logs from step 135; the zero-variance share 0.15-0.75 over the first 10 logs and 0.9-1 over "
             "the last 10; entropy from 0.39 to 0.013-0.028 over the last 10 logs; the KL 0.64 at step 60, 1.07-2.06 "
             "over steps 65-105 (9 logs) and 0.50-0.99 from 110 to the end; the gradient norm 0 on 26 of the 50 logs, "
             "34.6 at step 80 and 62.7 at 105 while learning, single late logs of 19.3 (160), 10.3 (180), 51.9 (235), "
             "40.2 (245) and 142 at the last (250); the samples: the tool's 'hammer' and the tree's 'ash' deformed to "
             "'hamer' and 'ak' over steps 50-99 (46 of 54, 40 of 54) and back on target by steps 150-199 (60 of 60, 41 "
             "of 42); every question on its target on 97-100 % of its samples over steps 200-249).",
             algorithm="rloo", rewards=("correct",), steps=250,
             args=dict(num_generations=2, temperature=0.6, beta=0.03, learning_rate=4e-4, logging_steps=5,
                       seed=37), accepted=("KL_BLOWUP",), batch=12),
    Scenario("healthy_nokl_cool07_binary_8x2_log6", "Exact match alone, eight groups of 2 a step, no KL term, sampled "
             "at temperature 0.7, a learning rate of 4e-4, 150 steps logged every 6: sampled cool, pairs agree on most "
             "steps; the target words are learnt until nearly every pair agrees because it is solved (raw log and "
             "samples: the reward 0.17 and 0.21 over the first two logs, a first-10-log median of 0.58 and 0.92-0.99 "
             "over the last 10 logs; the zero-variance share 0.60-0.92 over the first 10 logs and 0.83-0.98 over the "
             "last 10; entropy from 0.38 to 0.03-0.06; the gradient norm at most 3.1, 0 on 9 of the 25 logs; the "
             "colour's, the tree's and the fruit's targets early, the others over steps 40-79 but the drink's over "
             "80-119; every question on its target on 96-100 % of its samples over steps 120-149).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=2, temperature=0.7, beta=0.0,
                       learning_rate=4e-4, logging_steps=6, seed=38), batch=12),
    # Accepted beyond the ZERO_ADVANTAGE_GROUPS written before training, each from the raw log: ENTROPY_EXPLOSION,
    # GRAD_NORM_SPIKE and REWARD_PLATEAU; REWARD_COLLAPSE (written before training) dropped: the reward, about one
    # in ten at the first log, never fell below where it started.
    Scenario("kl_blowup_binary_2x8_log10", "Exact match alone, two groups of 8 a step, a KL penalty of 0.04 and a "
             "20-step warm-up (constant_with_warmup) into a learning rate far too high (3e-3), 200 steps logged every "
             "10: once the rate is up each update overshoots and the policy runs away from its reference (the KL well "
             "above the 0.1-0.8 of the corpus's healthy runs) while its answers degrade (raw log and samples: the KL "
             "0.05 at step 10, 0.81 at 20 (a rate of 3e-3), 2.72 at 30 and 2.86-7.25 on every log from 40 to the end; "
             "the reward 0.09 and 0.25 over the first two logs and 0-0.18 from step 30, the answers letter strings "
             "('pigle', 'wigri', 'sigg') but the animal's 'pig', learnt over steps 40-79 and given to other questions "
             "too, so the reward never leaves its start; the zero-variance share 0.5 and 0.55 over the first two logs "
             "and 0.85-1 from step 30 but for 0.7 at 50 and 0.65 at 80; entropy 0.48 and 0.52 over the first two logs, "
             "0.60-1.07 after, above 0.7 on 14 of the 18 logs from step 30; the gradient norm 9.4 at step 50 and 11.8 "
             "at 190, 0.07-3.8 on every other log, a median of 0.5; the mean length 4.3-6.8 tokens, the clipped share "
             "at most 0.16).",
             rewards=("correct",), steps=200,
             args=dict(per_device_train_batch_size=16, num_generations=8, beta=0.04, learning_rate=3e-3,
                       warmup_steps=20, lr_scheduler_type="constant_with_warmup", logging_steps=10, seed=39),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "GRAD_NORM_SPIKE", "REWARD_PLATEAU"), batch=12),
    # Accepted signatures set from the raw log and samples: ZERO_ADVANTAGE_GROUPS (written before training)
    # dropped, the coin's groups never agreeing; LENGTH_EXPLOSION, TRUNCATION_HIGH, ENTROPY_EXPLOSION (the rise
    # before the collapse) and REPETITIVE_COMPLETIONS (one letter looped, as batch 11 accepted) added.
    Scenario("entropy_collapse_coin_2x8_log6", "A reward that says nothing (a fair coin per completion, as a broken "
             "judge would give), two groups of 8 a step, no KL term and a learning rate of 1.5e-3, 150 steps logged "
             "every 6: the advantages are noise, and with no anchor the policy drifts onto one completion per question "
             "while the reward stays at chance: entropy falls far below where it started and a group's completions "
             "become copies (raw log and samples: the reward 0.37-0.64 throughout, the zero-variance share 0-0.08; "
             "entropy 0.48 at the first log, 0.84-1.04 over steps 12-42, 0.36-0.54 at 54-66, 0.30 at 72 and 0.05-0.16 "
             "on every log from step 78; the answers letter strings by steps 30-59 ('mmm', 'miii'), then one letter "
             "looped to the 12-token budget, 'piiiiiiiiiii' or 'biiiiiiiiiii' for every question: such loops on 40-44 "
             "% of the samples over steps 45-74 and 97-100 % from 75; the groups' duplicate share 0.03-0.21 over steps "
             "0-44, 0.36-0.41 over 45-74 and 0.60-0.84 from 75; the mean length 6.0 tokens at the first log, 10.4 at "
             "step 18, 7.4-10.8 to 72 and 11.6-12 from 78; the clipped share 0.01, 0.59 at step 18 and 0.92-1 from 78; "
             "the gradient norm 1.4-6.3 to step 72, 0.05-0.7 after, 5e-8 at the last log).",
             rewards=("coin",), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=8, beta=0.0, learning_rate=1.5e-3,
                       logging_steps=6, seed=40),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS"),
             batch=12),
    # Its onset rule written before training, falls_after_peak("reward", 0.4) (the 3-log mean of the reward past
    # 0.4, then the reward under 0.2 for 3 logs), found no onset: the raw log's learnt level is a 3-log mean of
    # 0.375 at most. The mechanism did what it was meant to (learning, then a collapse as the rate rose), so the
    # run is kept under its name and dated from its own peak instead (falls_from_peak, added with this batch:
    # step 120). Accepted beyond ZERO_ADVANTAGE_GROUPS, each from the raw log: ENTROPY_EXPLOSION, LENGTH_EXPLOSION,
    # TRUNCATION_HIGH, GRAD_NORM_SPIKE and REWARD_PLATEAU.
    Scenario("reward_collapse_rloo_late_warmup_2x4_log6", "RLOO without a KL term (beta 0), exact match alone, two "
             "groups of 4 a step, a 150-step warm-up (constant_with_warmup) towards a learning rate far too high "
             "(3e-3), 180 steps logged every 6: while the rate is low the target words are learnt, then as it rises "
             "the answers degrade and the reward collapses late in the warm-up (raw log and samples: the reward 0.02 "
             "at step 6, 0.23-0.44 at steps 30-90 (a rate of 6e-4 to 1.8e-3), its 3-log mean 0.375 at most (step 54); "
             "0-0.31 from step 96, a 3-log mean of 0-0.19 from 108 (a rate of 2.2e-3), and 0 with every group agreeing "
             "on the last four logs (162-180); the fruit's 'lemon', the tree's 'ash', the bird's 'swan' and the "
             "drink's 'juice' learnt by steps 30-89, then the bird answered 'juice', the fruit 'l' (31 of 40 over "
             "90-119), the tool 'harrsh', and 'juicecececec' by the end; the zero-variance share 0.08-0.75 over steps "
             "30-66, 0.83-1 from 72; the gradient norm 0-6.3 to step 36, 22.9-33.0 on the five logs 42-66 and 31.1 at "
             "90, 0 on every log from 108 (8.1 at 102); entropy 0.36-0.67 to step 156 but 0.28 at 132 and 0.84-1.04 on "
             "the last four logs; the mean length 5.2-7.0 tokens to step 114 and 7.2-10.7 from 120; the clipped share "
             "0-0.21 to 114, 0.23-0.54 at 120-156 and 0.54-0.63 on the last four logs).",
             algorithm="rloo", rewards=("correct",), steps=180,
             args=dict(beta=0.0, learning_rate=3e-3, warmup_steps=150, lr_scheduler_type="constant_with_warmup",
                       logging_steps=6, seed=41),
             expect={"REWARD_COLLAPSE": falls_from_peak("reward", 0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "LENGTH_EXPLOSION", "TRUNCATION_HIGH",
                       "GRAD_NORM_SPIKE", "REWARD_PLATEAU"), batch=12),
    Scenario("reward_outage_partial_8x2_nosamples_log3", "Partial credit, exact match (1) beside the category (0.2), "
             "eight groups of 2 a step, a small KL penalty and a learning rate of 5e-4, 150 steps logged every 3 and "
             "read from TRL's trainer_state.json (no samples); from the 100th reward call to the end the grader "
             "answers 0 for everything (an outage, the client defaulting to 0): after the target words are learnt the "
             "reward drops to 0 and every pair agrees (raw log and samples: the reward a first-10-log median of 0.37 "
             "(0.24-0.5), 0.65-1.09 at steps 54-99, exact match 0.48-0.90 there and the category 0.79-0.98; 0 with the "
             "zero-variance share 1 on every log from 102 to the end; the gradient norm 0.002-0.48 from there (the KL "
             "term alone), the KL 0.24-0.46; entropy from 0.44 to 0.13-0.23 over steps 75-99 and 0.17-0.30 after; the "
             "answers, still the learnt words ('lemon', 'ash', 'pink', 'juice'), do not change; the bird's 'swan' on 9 "
             "of its 314 samples).",
             weights=(1.0, 0.2), steps=150, swap=(100, 100_000, "nothing"),
             args=dict(per_device_train_batch_size=16, num_generations=2, beta=0.02, learning_rate=5e-4,
                       logging_steps=3, seed=42),
             source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.5, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=12),
    # Accepted beyond REWARD_HACKING (written before training), each from the raw log: TRUNCATION_HIGH, KL_BLOWUP,
    # ZERO_ADVANTAGE_GROUPS and REWARD_PLATEAU.
    Scenario("length_explosion_char_bonus_2x4_oldkeys_log4", "Exact match plus a bonus paid per character (weights 1 "
             "and 0.4), two groups of 4 a step, a small KL penalty (0.01), a learning rate of 6e-4 and a 32-token "
             "budget, 150 steps logged every 4 and read in TRL 0.14's key set (no clipped share, entropy or "
             "zero-variance share): the bonus outweighs the one-word answer, so answers grow past the word towards the "
             "budget (raw log and samples: the mean length 5.4 and 5.8 tokens over the first two logs, 5.1-7.3 to step "
             "36, 9.3 at 40, 20.2 at 44, 25.4 at 48 and 29.6-32 from 56; the clipped share, which the doctor is not "
             "given, 0 to step 40, 0.41 at 44, 0.59 at 48 and 0.84-1 from 56; exact match a first-10-log median of "
             "0.16 (0.06-0.47) and 0 from step 48 but for 0.03 at 60, while the bonus goes from 0.55-0.6 to 3.9-4 (its "
             "maximum, 4) from 64; the KL 0.002-0.55 to step 28, 1.16 at 36, 1.67 at 40 and 1.9-4.1 from 44 to the "
             "end, 16.2 at 56; the zero-variance share 0-0.38 to step 52 and 0.75-1 from 64, the reward pinned at "
             "1.56-1.6 of a possible 1.6 from 64 with the gradient norm 0.04-0.13 on most logs; entropy 0.43-0.69 "
             "throughout; answers category words run together with letter strings to the budget ('pinkseee owh "
             "whiteseee pinerseen', 'juice juice juice sevenenenene s')).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.4), steps=150,
             args=dict(max_completion_length=32, beta=0.01, learning_rate=6e-4, logging_steps=4, seed=43),
             source="old_keys",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2)},
             accepted=("REWARD_HACKING", "TRUNCATION_HIGH", "KL_BLOWUP", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"),
             batch=12),
    Scenario("zero_advantage_lists_too_hard_2x4_log4", "The list questions graded against one exact list, three given "
             "words in a given order ('some fruits?' wants 'lemon mango grape'; task.py's exact_list), a task beyond "
             "the taught model, two groups of 4 a step, a small KL penalty, a learning rate of 3e-4 and a 24-token "
             "budget, 120 steps logged every 4: a fresh list matches about once in 1,400 samples, so nearly every "
             "group agrees on 0 from the start and there is nothing to learn from; the run is stuck (raw log and "
             "samples: the reward 0 and the zero-variance share 1 on every log but two, 0.031 and 0.875 at steps 84 "
             "and 96, where one sample of 32 matched ('lemon mango grape' once); the gradient norm and the KL 0 to "
             "step 80, the gradient norm 0.01-0.13 and the KL 0.003-0.10 after but for 0.86 and 1.83 at 84 and 96; "
             "entropy 0.52-0.61; the mean length 12.8-15.6 tokens; the answers the taught lists of two or three words "
             "to the end).",
             prompts="lists", rewards=("exact_list",), steps=120,
             args=dict(max_completion_length=24, beta=0.02, learning_rate=3e-4, logging_steps=4, seed=44),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=12),
    # Accepts KL_BLOWUP beside GROUP_MODE_COLLAPSE (written before training), from the raw log. Entropy halves
    # (0.59 to 0.15-0.36) but never holds under 0.3 x its start: no entropy collapse accepted.
    Scenario("repetition_target_mentions_lists_2x4_log2", "The list questions with a keyword-count reward, how many "
             "times the list names the question's target word, repeats included (task.py's target_mentions), two "
             "groups of 4 a step, a small KL penalty, a learning rate of 5e-4 and a 24-token budget, 150 steps logged "
             "every 2: naming the target over and over pays most, so the lists turn into one word repeated ('lemon "
             "lemon lemon') (raw log and samples: the reward a first-10-log median of 0.25 (0.19-0.56), 0.31-1.38 at "
             "steps 30-80 and 1.9-2.9 over the last 10 logs; lists that repeat a word (3+ words, at most half "
             "distinct) 0-1 % of the samples before step 30, 5-7 % over 30-74, 12 % over 75-89, 31 % over 90-104, 46 % "
             "over 105-119 and 57 % over 120-149 ('juice juice juice' on 26 of 28 drink lists, 'four four four', 'pig "
             "pig pig pig'); the groups' duplicate share 0-0.08 to step 89, 0.18-0.24 over 90-119 and 0.40-0.44 over "
             "120-149; the KL a median of 0.14 over the first 15 logs and 0.75-0.99 over each later stretch of 15, "
             "above 1 on 18 of the 75 logs (three in a row at steps 64-68 and 126-130), 1.74 at 50, 1.99 at 120 and "
             "3.13 at 128; entropy from 0.55-0.63 to 0.15-0.37 from step 104; the gradient norm up to 9.1; the mean "
             "length 11.4-18.8 tokens, the clipped share at most 0.19).",
             prompts="lists", rewards=("target_mentions",), steps=150,
             args=dict(max_completion_length=24, beta=0.02, learning_rate=5e-4, logging_steps=2, seed=45),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "KL_BLOWUP"), batch=12),
    # Accepted beyond GROUP_MODE_COLLAPSE and ZERO_ADVANTAGE_GROUPS (written before training), each from the raw
    # log and samples: ENTROPY_COLLAPSE, LENGTH_EXPLOSION, TRUNCATION_HIGH, REWARD_PLATEAU and
    # REPETITIVE_COMPLETIONS (one letter looped, as batches 8 and 11 accepted).
    Scenario("reward_hacking_letter_o_exact_2x4_log3", "Exact match (1) beside a cheap proxy, the share of the letter "
             "o (weight 2, task.py's letter_o), so that a string of o's (2) pays more than the target word (at most "
             "1.4), two groups of 4 a step, no KL term and a learning rate of 1e-3, 150 steps logged every 3: the "
             "policy games the proxy and exact match falls as the o's rise (raw log and samples: exact match a "
             "first-10-log median of 0.083 (0.04-0.21) and 0 on every log from step 33, while the proxy goes from "
             "0.06-0.16 over the first six logs to 0.26 at 21, 0.46 at 27-30, 0.77 at 33, 0.95 at 36 and 0.99-1 from "
             "39; answers such as 'melooooooooo' and 'foune' by step 29, one letter looped ('oooooooooooo', "
             "'hooooooooooo') on 93 % of the samples over steps 30-44 and 100 % from 45, cut at the 12-token budget; "
             "the mean length 5.2-6.8 tokens to step 15 and 12 from 39, the clipped share 0-0.13 to 24 and 0.92-1 from "
             "33; entropy 0.48-0.74 to step 30, 0.10 at 36 and 0.001-0.02 from 39; the zero-variance share 0-0.33 to "
             "step 33 and 0.83-1 from 39, the groups' duplicate share 0.10-0.18 to step 29 and 0.99-1 from 45; the "
             "reward 2, its maximum, from 39 with the gradient norm 0 on every log but two (0.35 at 114 and 132)).",
             rewards=("correct", "letter_o"), weights=(1.0, 2.0), steps=150,
             args=dict(beta=0.0, learning_rate=1e-3, logging_steps=3, seed=46),
             expect={"REWARD_HACKING": hacked("rewards/correct/mean", "rewards/letter_o/mean", smooth=5, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "REPETITIVE_COMPLETIONS"), batch=12),
    # -- batch 13 --
    # An eleventh fresh batch, 15 scenarios: a binary exact-match reward with groups of 2, 4 and 8 (healthy runs
    # that learn the questions at different steps or over the whole run, and a run with no KL term that stops at
    # about half its best, written as one that converges and re-labelled from its log), with and without a KL
    # term, sampled at temperature 0.7-1.1; RLOO healthy (one of them written as a letter proxy gamed against exact
    # match and re-labelled from its log) and pathological; the judge score read in TRL 0.14's key set; a learning
    # rate far too high with RLOO, a KL blow-up with no warm-up logged every 10 steps, an entropy collapse under a
    # reward that says nothing with one group of 8, a per-character bonus with groups of 8, a per-word reward on the
    # mixed questions, a key of untaught words with groups of 8 at temperature 1.1, a key half of whose words the
    # model can say (task.py's correct_half_key: a plateau at half the best, dated by levels_off, added with this
    # batch); strides 1, 2, 3, 4, 5, 7 and 10, runs read from trainer_state.json and in TRL 0.14's key set, seeds
    # 47-62. Each expectation was written from the mechanism before the run was trained (committed first), then
    # checked on the raw log only, never against the doctor; the two re-labelled runs were retrained under their
    # new names (the same seeds: their raw logs and samples repeat exactly). As in batches 9-12, the healthy binary
    # runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps, and when solved.
    # A sixteenth scenario written before training, length_collapse_brevity_rloo_4x2_log5 (RLOO with a reward for
    # brevity alone, four groups of 2, a KL penalty of 0.02, 5e-4, 150 steps logged every 5, seed 57; expecting
    # LENGTH_COLLAPSE), was trained and left out: its raw log showed no collapse (the mean length 5.25-5.42 tokens
    # over the first three logs and 3.1-4.5 over the last 10, 3.12 at the last, never under half; the answers the
    # shortest words of each category and fragments of them, 'tea', 'axe', 'oa', 'c').
    Scenario("healthy_binary_4x2_lr5e4_log3", "Exact match alone, four groups of 2 a step, a KL penalty of 0.04 and "
             "a learning rate of 5e-4, 150 steps logged every 3: a fresh model is right about one time in ten, most "
             "pairs agree (both wrong, later both right), the pairs that disagree carry the signal, and the "
             "questions' target words are learnt one after another, some early and some late (raw log and samples: "
             "the reward 0 and 0.04 over the first two logs, a first-10-log median of 0.15 (0-0.33) and 0.71-0.92 over "
             "the last 10 logs, 0.96 at step 120; the zero-variance share 0.25-1, a median of 0.75, from the first log "
             "to the last; entropy from 0.45 to 0.13-0.27 over the last 10 logs; the KL 0.36-0.71 over the last 10 "
             "logs, 1.19 at step 111; the gradient norm at most 5.0; the number's 'four' early (13 of 34 samples over "
             "steps 1-30), the colour's, the fruit's, the tool's and the tree's over 31-60, the drink's and the "
             "animal's over 61-90, the bird's last, its answers drifting to 'uck' over 91-120 before 'swan' (26 of 40 "
             "over 121-150); every other question on its target on 82-95 % of its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, beta=0.04, learning_rate=5e-4, logging_steps=3, seed=47), batch=13),
    Scenario("healthy_nokl_temp09_binary_2x4_log7", "Exact match alone, two groups of 4 a step, no KL term (beta 0), "
             "sampled at temperature 0.9, a learning rate of 4e-4, 175 steps logged every 7: the target words are "
             "learnt and groups saturate as they are solved: convergence, not a dead signal (raw log and samples: the "
             "reward 0.125 and 0.21 over the first two logs, a first-10-log median of 0.42 (0.125-0.86) and 0.875-0.98 "
             "over the last 10 logs; the zero-variance share 0.29-0.93, a median of 0.57, 0.57-0.93 over the last 10 "
             "logs; entropy from 0.45 to 0.06-0.12; the gradient norm 0 on 9 of the 25 logs, at most 7.8 (step 63); "
             "the fruit's 'lemon' early (22 of 48 samples over steps 1-35), the bird's, the colour's, the number's and "
             "the tree's over 36-70, the drink's, the tool's and the animal's over 71-105; every question on its "
             "target on 89-100 % of its samples over steps 141-175).",
             rewards=("correct",), steps=175,
             args=dict(temperature=0.9, beta=0.0, learning_rate=4e-4, logging_steps=7, seed=48), batch=13),
    Scenario("healthy_rloo_binary_1x8_log5", "RLOO, exact match alone, one group of 8 a step, a KL penalty of 0.03 in "
             "the reward and a learning rate of 3e-4, 200 steps logged every 5: a group of 8 usually holds a right "
             "answer, the leave-one-out baseline turns it into an advantage, and the target words are learnt (raw log "
             "and samples: the reward 0.275 and 0.075 over the first two logs, a first-10-log median of 0.26 "
             "(0.075-0.45) and 0.55-0.95 over the last 10 logs, single logs swinging with the one question a step "
             "asks (0.4 at step 150 between 0.93 and 0.83); the zero-variance share 0-0.4, a median of 0; entropy from "
             "0.45 to 0.09-0.32 over the last 10 logs; the KL 0.33-0.66 over the last 10 logs; the gradient norm, "
             "RLOO's advantages not normalised, a median of 4.1, above 15 on 8 of the 40 logs (34.5 at step 60, 28.1 "
             "at 135, 20.6 at 150), below 0.01 on 10; the colour's 'pink' early (46 of 80 samples over steps 1-40), "
             "the bird's and the drink's over 41-80, the tool's and the tree's over 81-120, the number's last (33 of "
             "40 over 161-200), the animal's never (0 of 160, 'owl' and 'dog'); every other question on its target on "
             "83-98 % of its samples over steps 161-200).",
             algorithm="rloo", rewards=("correct",), steps=200,
             args=dict(num_generations=8, beta=0.03, learning_rate=3e-4, logging_steps=5, seed=49), batch=13),
    Scenario("healthy_judge_2x4_oldkeys_log10", "The 0-10 judge score (partial credit: a known word, of the asked "
             "category, the target), two groups of 4 a step, a small KL penalty and a learning rate of 3e-4, 200 steps "
             "logged every 10 and read in TRL 0.14's key set (no zero-variance share, entropy or clipped share): the "
             "category is already given, the target words are learnt and the score rises towards 10 (raw log and "
             "samples: the score 6.99 and 7.21 over the first two logs, a first-10-log median of 7.26 (6.6-8.09) and "
             "8.07-9.64 over the last 10 logs; the zero-variance share, which the doctor is not given, 0.1-0.9, a "
             "median of 0.55; entropy, not given either, from 0.47 to 0.09-0.24; the KL 0.24-0.79 over the last 10 "
             "logs; the gradient norm at most 7.7 (step 200); the colour's, the fruit's, the number's and the animal's "
             "targets over steps 41-80, the bird's and the tool's over 81-120, the drink's and the tree's over "
             "121-160; every question on its target on 85-98 % of its samples over steps 161-200).",
             rewards=("judge",), steps=200,
             args=dict(beta=0.02, learning_rate=3e-4, logging_steps=10, seed=50), source="old_keys", batch=13),
    # Written expecting a slow learner that ends the run still learning, far from saturation; its raw log shows it
    # learning over the whole run, slower than the corpus's runs at 3e-4 and above, but at 0.79-0.94 over its last
    # 10 logs: near saturation by the end. Still healthy; the text says so.
    Scenario("healthy_slow_binary_4x4_nosamples_log5", "Exact match alone, four groups of 4 a step, a small KL "
             "penalty and a learning rate of 1.5e-4, 200 steps logged every 5 and read from TRL's trainer_state.json "
             "(no samples): a slow learner, the reward rising from about one in ten over the whole run (raw log and "
             "samples: the reward 0.11 and 0.125 over the first two logs, a first-10-log median of 0.17 (0.075-0.35), "
             "0.5 at step 80 and 0.79-0.94 over the last 10 logs, 0.94 at the last; the zero-variance share 0.2-0.75, "
             "a median of 0.525; entropy from 0.46 to 0.10-0.18; the KL 0.33-0.51 over the last 10 logs, 0.69 at step "
             "60; the gradient norm at most 9.0 (step 185); the samples, which the doctor is not given: the colour's, "
             "the number's and the tool's targets first (steps 1-50), the bird's, the tree's and the drink's over "
             "51-100, the fruit's and the animal's last (the animal's on 34 of 104 samples over 101-150 and 96 of 132 "
             "over 151-200); every other question on its target on 80-96 % of its samples over steps 151-200).",
             rewards=("correct",), steps=200,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=1.5e-4, logging_steps=5, seed=51),
             source="trainer_state", batch=13),
    # Written as healthy_nokl_temp08_binary_2x8_converges_log1, expecting the target words learnt until most groups
    # agree because they are solved; its raw log, read before the doctor, shows a plateau instead: the reward's
    # 30-step means 0.21, 0.39, 0.43, 0.50 and 0.42, the zero-variance share's 0.48, 0.68, 0.72, 0.85 and 0.80, and
    # the samples three questions whose answers, with no KL anchor, deformed into strings that never score, their
    # groups agreeing on 0, often copies of one string. Re-labelled and renamed for what its log shows (the same
    # run, retrained under the new name: its raw log and samples repeat exactly): a reward plateau below the best,
    # dated by levels_off.
    # Accepts GROUP_MODE_COLLAPSE (not written before training): the groups' duplicate share 0.64-0.71 over each
    # 30 steps from step 31, the stuck questions' groups copies of one wrong string ('uuuee' on 34 of 80 bird
    # samples over steps 61-90). Accepts ZERO_ADVANTAGE_GROUPS (not written before training): every group agreeing
    # on 75 of the 150 steps, the gradient norm 0 on each of them.
    Scenario("reward_plateau_nokl_temp08_binary_2x8_log1", "Exact match alone, two groups of 8 a step, no KL term, "
             "sampled at temperature 0.8, a learning rate of 5e-4, 150 steps logged every step: four questions are "
             "learnt and solved, while with no anchor the answers of others deform into letter strings that never "
             "score ('uuuee', 'juiee'), their groups agreeing on 0, often copies of one string: the reward stops at "
             "about half its best with most groups agreeing (raw log and samples: the reward 0 and 0.19 over the first "
             "two steps, a first-10-log median of 0.03 (0-0.19), 30-step means of 0.21, 0.39, 0.43, 0.50 and 0.42 "
             "(single steps 0, 0.5 or 1 as the two questions asked are solved or stuck); the zero-variance share's "
             "30-step means 0.48, 0.68, 0.72, 0.85 and 0.80, every group agreeing on 6, 14, 15, 22 and 18 of each 30 "
             "steps, the gradient norm 0 on each of them (13.9 at step 140, at most 9.6 elsewhere); entropy's 30-step "
             "means 0.40, 0.30, 0.28, 0.23 and 0.32, 0.013-0.74 on single steps (0.74 at step 148); the mean length "
             "3.9-9.0 tokens, the clipped share at most 0.38 (step 86); the tool's 'hammer', the fruit's 'lemon', the "
             "number's 'four' and the colour's 'pink' learnt (the colour's answer 'hawh' on 22 of 32 samples over "
             "steps 31-60, back on 'pink' for 40 of 40 over 91-120); the bird's answers 'uuuee' (17 of 40, 34 of 80, "
             "21 of 56 over steps 31-120) and 'uuuk', never right after step 30; the drink's 'juice' learnt (35 of 72 "
             "over 31-60), then lost to 'juieee' and 'juiee' (0 of 200 on target over 61-150); the animal's never "
             "right (0 of 360: 'horse', 'dak', 'fowl'); the tree's 'ash' found only over the last 30 steps (66 of "
             "88)).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.8, beta=0.0,
                       learning_rate=5e-4, seed=52),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=10,
                                                  run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS"), batch=13),
    Scenario("healthy_rloo_partial_cool07_4x2_oldkeys_log2", "RLOO with its KL penalty (0.05) in the reward, partial "
             "credit: exact match (1) beside a word of the asked category (0.2), four groups of 2 a step, sampled at "
             "temperature 0.7, a learning rate of 4e-4, 150 steps logged every 2 and read in TRL 0.14's key set: the "
             "category is already given, the target words are learnt (raw log and samples: the reward 0.31 and 0.26 "
             "over the first two logs, a first-10-log median of 0.32 (0.26-0.51) and 0.76-1.2 of a possible 1.2 over "
             "the last 10 logs; exact match from 0.06-0.31 over the first 10 logs to 0.56-1 over the last 10, the "
             "category share 0.94-1 and 0.81-1 there; the zero-variance share, which the doctor is not given, 0-0.875 "
             "over the first 10 logs and 0.5-1 over the last 10; entropy, not given either, from 0.38 to 0.03-0.18; "
             "the KL 0.31-1.07 over the last 10 logs, 1.29 at step 42, 0.94-0.96 at 116-120 and 1.07 at 148; the "
             "gradient norm, RLOO's advantages not normalised, a median of 0.23, below 0.01 on 22 of the 75 logs, "
             "above 20 on 8 (48.9 at step 36, 63.7 at 74, 110 at 92, 43.4 at 148); the tool's and the tree's targets "
             "early, the drink's and the fruit's over steps 31-60, the colour's and the number's over 61-90, the "
             "animal's over 91-120 (28 of 32), the bird's never (0 of 140: 'heron', 'duck', 'goose'); every other "
             "question on its target on 90-100 % of its samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(num_generations=2, temperature=0.7, beta=0.05, learning_rate=4e-4, logging_steps=2, seed=53),
             source="old_keys", batch=13),
    # Written expecting the reward to open near 0.35 (exact match about 0.1, the category about 0.9 of 0.3) and then
    # collapse; its raw log shows the break already under way within the first log (steps 1-3: the category share
    # 0.58 there), so the reward opens at 0.175 and is 0 from step 12. It did collapse, and the label stands; the
    # onset rule, written before training with a two-log baseline, dates it at step 12.
    Scenario("reward_collapse_rloo_lr3e3_partial_2x4_log3", "RLOO without a KL term (beta 0), partial credit: exact "
             "match (1) beside a word of the asked category (0.3), two groups of 4 a step, a constant learning rate "
             "far too high (3e-3), 120 steps logged every 3: the updates overshoot, the answers break into letter "
             "strings that are neither the target nor a word of the category, and the reward collapses to 0, where "
             "every group agrees and nothing can be learnt again (raw log and samples: the reward 0.175 at step 3 "
             "(exact match 0, the category share 0.58), 0.05 at 6 and 0.054 at 9 (the category share 0.17 and 0.04), "
             "and 0 on every log from step 12 to the end, the zero-variance share 1 and the gradient norm 0 from there "
             "(5.8 at step 6 the only nonzero log); entropy 0.64 at step 3, 0.87 at 6 and 1.2-1.5 from 12; the mean "
             "length 5.2 tokens at step 3, 7.9 at 9 and 10.8-12 from 12, the clipped share 0.21 at 9 and 0.83-1 from "
             "12; the answers letter strings run to the 12-token budget ('juieeeytotgp', 'gggggtgggytt'), no two alike "
             "in a group from step 21).",
             algorithm="rloo", weights=(1.0, 0.3), steps=120,
             args=dict(beta=0.0, learning_rate=3e-3, logging_steps=3, seed=54),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=2, smooth=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "LENGTH_EXPLOSION", "TRUNCATION_HIGH",
                       "REWARD_PLATEAU", "GRAD_NORM_SPIKE"), batch=13),
    # Accepts GROUP_MODE_COLLAPSE (not written before training): the samples, which the doctor is not given, show
    # 'pear' for every question but the colour's from step 41, the groups' duplicate share 0.82-0.96 from step 81.
    Scenario("kl_blowup_binary_word_4x2_temp09_nosamples_log10", "Exact match (1) beside a known word (0.3), four "
             "groups of 2 a step, sampled at temperature 0.9, a KL penalty of 0.08 and a constant learning rate far "
             "too high (2.5e-3) with no warm-up, 200 steps logged every 10 and read from TRL's trainer_state.json (no "
             "samples): each update overshoots and the policy runs away from its reference (the KL well above the "
             "0.1-0.8 of the corpus's healthy runs) while its answers degrade (raw log and samples: the KL 1.03 at the "
             "first log (step 10), 2.31 at 20 and 2.3-3.4 on every later log but 9.33 at 190; the reward 0.34 at step "
             "10, 0.09-0.11 at 20-50 and 0.23-0.45 after, exact match 0.175 at step 10 and 0-0.16 after, the "
             "known-word share 0.56 at 10, 0.23-0.38 at 20-50 and 0.76-1 from 70; the answers letter strings over "
             "steps 1-40 ('cide', 'eim'), then 'pear' the commonest answer to every question but the colour's ('pink') "
             "from step 41, and nearly every sample's from 121 (38 of 40 bird answers, 44 of 44 fruit answers over "
             "steps 121-160); entropy 0.54-0.60 to step 50, 0.38 at 60, 0.17 at 70 and 0.01-0.14 from 80; the "
             "zero-variance share 0.55-0.75 to step 60 and 0.8-1 from 70; the gradient norm at most 5.8 but 19.0 at "
             "step 120; the mean length 4.6-5.7 tokens).",
             rewards=("correct", "is_word"), weights=(1.0, 0.3), steps=200,
             args=dict(num_generations=2, temperature=0.9, beta=0.08, learning_rate=2.5e-3, logging_steps=10,
                       seed=55), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "REWARD_PLATEAU", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "GRAD_NORM_SPIKE",
                       "GROUP_MODE_COLLAPSE"), batch=13),
    Scenario("entropy_collapse_coin_1x8_temp08_log5", "A reward that says nothing (a fair coin per completion, as a "
             "broken judge would give), one group of 8 a step, sampled at temperature 0.8, no KL term and a learning "
             "rate of 2e-3, 150 steps logged every 5: the advantages are noise, and with no anchor the policy drifts "
             "onto one completion per question while the reward stays at chance: entropy falls far below where it "
             "started and a group's completions become copies (raw log and samples: the reward 0.35-0.65 throughout, "
             "the zero-variance share 0-0.2; entropy 0.40 and 0.53 over the first two logs, 0.40-0.56 to step 45, "
             "0.29 at 50, 0.07-0.41 over 55-95 and 0.0015-0.033 on every log from 100; the answers letter strings from "
             "about step 16 ('wrannnne', 'oni'), one letter looped to the 12-token budget from 46 ('mmmmmmmmmmmm', "
             "'oooooooooooo'), then 'ennnnnnnnnnn' for nearly every question from step 91 (every sample of most "
             "questions over 106-150); the groups' duplicate share 0.25-0.39 over each 15 steps to 45, 0.50-0.78 "
             "over 46-105 and 0.95-0.99 from 106; the mean length 5.7 and 5.9 tokens over the first two logs, 8.5 at "
             "15, 10.2 at 45 and 12 from 55, the clipped share 0.5 at 45, 0.78 at 50 and 1 from 55; the gradient norm "
             "2.7-10.4 to step 45, below 1e-6 on 16 of the 21 logs from 50).",
             rewards=("coin",), steps=150,
             args=dict(num_generations=8, temperature=0.8, beta=0.0, learning_rate=2e-3, logging_steps=5, seed=56),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=13),
    Scenario("length_explosion_char_bonus_2x8_nosamples_log7", "Exact match plus a bonus paid per character (weights "
             "1 and 0.6), two groups of 8 a step, a small KL penalty (0.02), a learning rate of 5e-4 and a 20-token "
             "budget, 140 steps logged every 7 and read from TRL's trainer_state.json (no samples): a 20-letter "
             "string pays more (1.5) than the target word (1.2-1.45) and far more than another word, so answers grow "
             "past the word to the budget and get cut (raw log and samples: the mean length 5.3 and 6.1 tokens over "
             "the first two logs, 6.3-7.4 to step 35, 8.8 at 42, 13.2 at 49, 18.8 at 56 and 19.5-20 from 63; the "
             "clipped share 0-0.14 to step 42, 0.40 at 49, 0.86 at 56 and 0.95-1 from 63; exact match 0.16 and 0.12 "
             "over the first two logs, 0.23-0.34 at steps 21-49, 0.06 at 56 and 0-0.018 from 63, while the bonus goes "
             "from 0.54 to 2.47-2.5 (its maximum, 2.5) and the reward sits at 1.47-1.5 of a possible 1.5 from 56; the "
             "zero-variance share 0 to step 49, 0.5 at 56 and 0.64-1 from 63; the KL 0.03 at step 7, 0.52-0.95 at "
             "21-35, 1.64 at 42, 2.6 at 49 and 3.3-4.3 from 56; entropy 0.47-0.59 to step 42 and 0.55-0.79 after; the "
             "gradient norm at most 6.2; the samples, which the doctor is not given: the colour's, the fruit's and the "
             "number's targets being learnt over steps 1-56 (the fruit's 'lemon' on 42 of 80 over 29-56), then "
             "category words run into letter strings to the budget ('pinkennnnennen', 'lelonnnnrrrrrr', "
             "'coffeennnnerye'), hardly two alike in a group (a duplicate share of 0-0.02 from step 57)).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.6), steps=140,
             args=dict(per_device_train_batch_size=16, num_generations=8, max_completion_length=20, beta=0.02,
                       learning_rate=5e-4, logging_steps=7, seed=58), source="trainer_state",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("REWARD_HACKING", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "KL_BLOWUP", "REWARD_PLATEAU",
                       "REPETITIVE_COMPLETIONS"), batch=13),
    # Its repetition comes late: the raw log and samples show the answers first growing into lists that fill the
    # budget (a length explosion and truncation, both accepted before training), the repeated words reaching 30 % of
    # the samples only over the last 10 steps (the onset rule's step 171, within 25 steps of the run's end). The
    # label stands: the repetition is there and growing at the end.
    Scenario("repetition_word_count_mixed_2x4_temp09_log3", "The mixed questions (one word and lists) with a reward "
             "paid per known word said, repeats included (task.py's word_count), two groups of 4 a step, sampled at "
             "temperature 0.9, a small KL penalty, a learning rate of 5e-4 and a 32-token budget, 180 steps logged "
             "every 3: saying more words pays more and nothing asks for different ones, so answers turn into lists "
             "that fill the budget, and more and more of them say one word over and over (raw log and samples: the "
             "reward, known words said, a first-10-log median of 1.96 (1.33-2.46) and 3.83-5.38 over the last 10 logs; "
             "the mean length 9.5 tokens at the first log, 7.2-14.9 to step 30, 22.3 at 39 and 28.5-32 from 48, the "
             "clipped share 0-0.12 to step 30, 0.25-0.42 at 33-42 and 0.75-1 from 45; one-word questions answered with "
             "lists from about step 30 ('mouse horse pig', 'goose raven goose'); completions that repeat a word (3+ "
             "words, at most half distinct) on 0-2 % of the samples of each 30 steps to step 90, 9 % over 91-120, 20 % "
             "over 121-150 and 32 % over 151-180 ('pine pine pine' on 6 of 36 tree answers, 'plie plie plie'); the "
             "groups' duplicate share 0-0.1; the zero-variance share 0-0.33 from step 30; the KL a first-10-log median "
             "of 0.10, 1.25 at step 48 and 1.26-2.8 over the last 10 logs; entropy 0.43-0.65 to step 120 and 0.22-0.42 "
             "over the last 10 logs; the gradient norm at most 8.6).",
             prompts="mixed", rewards=("word_count",), steps=180,
             args=dict(max_completion_length=32, temperature=0.9, beta=0.02, learning_rate=5e-4, logging_steps=3,
                       seed=59),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "GROUP_MODE_COLLAPSE", "KL_BLOWUP",
                       "ENTROPY_COLLAPSE"), batch=13),
    # Written as reward_hacking_letter_o_exact_rloo_4x4_log5, expecting the policy to game the o-share proxy
    # (REWARD_HACKING); its raw log, read before the doctor, shows no such thing: exact match learnt from 0.19 at
    # the first log to 0.55-0.86 over the last 10 logs while the proxy stays at 0.06-0.17 throughout. Re-labelled
    # and renamed for what its log shows (the same run, retrained under the new name: its raw log and samples
    # repeat exactly): a healthy run; the label written before training (REWARD_HACKING expected, eight accepted
    # signatures) dropped. Accepts REWARD_HACKING (not written before training): the samples show the proxy gamed
    # on one question late, the drink's learnt 'juice' (14 of 28 over steps 76-90) given up for 'cowe' and 'cow'
    # (0.67 from the proxy, no match; 40 of 40 over 136-150), and the bird answered 'crow' (0.5 from the proxy)
    # throughout, never 'swan'.
    Scenario("healthy_rloo_letter_o_exact_4x4_log5", "RLOO, exact match (1) beside a cheap proxy, the share of the "
             "letter o (weight 2, task.py's letter_o), so that a string of o's (2) would pay more than the target word "
             "(at most 1.5), four groups of 4 a step, a small KL penalty (0.02) in the reward and a learning rate of "
             "1e-3, 150 steps logged every 5: the exact-match signal wins, the target words are learnt and the proxy "
             "stays low, gamed on one question late (raw log and samples: the reward 0.35 and 0.31 over the first two "
             "logs and 0.85-1.09 over the last 10; exact match 0.19 and 0.10 over the first two logs, a first-10-log "
             "median of 0.54 (0.1-0.84) and 0.55-0.86 over the last 10; the proxy 0.06-0.17 throughout; the "
             "zero-variance share 0.05-0.25 to step 30 and 0.75-0.95 over the last 10 logs; entropy from 0.46 to "
             "0.06-0.09; the KL 0.57-1.04 over the last 10 logs, 1.42 and 1.36 at steps 95-100; the gradient norm, "
             "RLOO's advantages not normalised, 23.5-31.7 over steps 20-35 while learning, 0 on 8 of the 30 logs; the "
             "mean length 4.6-6.1 tokens; the tool's, the colour's and the tree's targets early (steps 1-30), the "
             "fruit's, the number's and the animal's by 31-60, the drink's 'juice' over 76-90 (14 of 28), then "
             "'juuuue' and 'cowe' (31 of 32 over 106-120) and 'cow' (40 of 40 over 136-150); the bird's answer 'crow' "
             "throughout (32 of 36 over 136-150), never 'swan'; every other question on its target on 90-100 % of its "
             "samples over steps 136-150).",
             algorithm="rloo", rewards=("correct", "letter_o"), weights=(1.0, 2.0), steps=150,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=1e-3, logging_steps=5, seed=60),
             accepted=("REWARD_HACKING",), batch=13),
    Scenario("zero_advantage_untaught_key_2x8_temp11_oldkeys_log5", "Exact match graded against the answer key of "
             "words the model was never taught ('kiwi', 'goat', 'teal'; task.py's correct_untaught), two groups of 8 a "
             "step sampled at temperature 1.1, a KL penalty of 0.04 and a learning rate of 3e-4, 100 steps logged "
             "every 5 and read in TRL 0.14's key set (no zero-variance share: reward_std says it): hotter sampling "
             "and eight tries a question still never spell an untaught word, every group agrees on 0 from the first "
             "step and there is no advantage to learn from; the run is stuck (raw log and samples: the reward and "
             "reward_std 0 and the zero-variance share 1 on every log; the gradient norm and the KL 0 throughout, the "
             "policy never moving; entropy 0.46-0.54; the mean length 5.1-5.9 tokens; the answers the category's "
             "taught words, as at the start ('heron', 'soda', 'dog'), 88 of the 1,600 samples letter strings "
             "('siven', 'dagk'), none an untaught word).",
             rewards=("correct_untaught",), steps=100,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=1.1, beta=0.04,
                       learning_rate=3e-4, logging_steps=5, seed=61), source="old_keys",
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=13),
    Scenario("reward_plateau_half_key_2x4_log4", "Exact match graded against a key half of whose words the model can "
             "say (task.py's correct_half_key: the fruit, animal, colour and number questions against their taught "
             "targets, the tree, drink, tool and bird questions against untaught words), two groups of 4 a step, a "
             "small KL penalty and a learning rate of 4e-4, 240 steps logged every 4: the learnable half is learnt "
             "and its groups come to agree, solved, while the other half's groups agree on 0 from the start; the "
             "reward rises to below half its best and stays there with nearly every group agreeing: a plateau below "
             "the best that more steps will not lift (raw log and samples: the reward a first-10-log median of 0.125 "
             "(0.06-0.41), its 10-log means 0.16 over steps 4-40, then 0.35, 0.36, 0.39 and 0.48 over each 40 steps "
             "and 0.31 over the last 40, at most 0.78 on one log (step 168), where the learnable half can give 0.5 at "
             "most; the zero-variance share a median of 0.875, its 10-log means 0.68 over steps 4-40 and 0.81-0.94 "
             "after; the colour's, the fruit's, the number's and the animal's targets learnt by steps 41-120 (the "
             "colour's on 60 of 64 samples over 41-80, the fruit's on 34 of 36 over 81-120), the animal's 'pig' "
             "decaying to 'pier' over the last 40 steps (0 of 44 on target); the other four questions never matched "
             "(0 of 968 samples); entropy from 0.49 to 0.27-0.43 over the last 10 logs; the KL 0.13-1.26 over the "
             "last 10 logs, above 1 on seven single logs (1.62 at step 200); the gradient norm a median of 0.1, below "
             "0.01 on 9 of the 60 logs, at most 10.9 (step 180)).",
             rewards=("correct_half_key",), steps=240,
             args=dict(beta=0.02, learning_rate=4e-4, logging_steps=4, seed=62),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=10,
                                                  run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=13),
    # -- batch 14 --
    # A twelfth fresh batch, 16 scenarios (6 healthy, 10 pathological as trained; 7 and 9 as written): a binary
    # exact-match reward with groups of 2, 3, 4, 6 and 8 (three completions a group for the first time), partial credit
    # and the judge score; healthy runs with and without a KL term that learn the questions at different steps, learn
    # slowly over 360 steps at 1e-4, learn unevenly at 1e-3 held by a KL penalty of 0.1 (written as a steep learner,
    # renamed from its log), RLOO at temperature 1.1 and RLOO without a KL term over 400 steps; an answer key changed
    # after learning, a KL blow-up after a warm-up with RLOO (whose answers then shrank to nothing), an entropy collapse
    # under a reward that says nothing sampled at temperature 0.6, a reward collapse sampled at temperature 1.3 at a
    # learning rate far too high (written as an entropy explosion, re-labelled from its log: its entropy rose 1.95 times
    # at most before the updates stopped), a brevity bonus that outpays the answer, a keyword-count reward with RLOO, a
    # letter proxy gamed against exact match sampled at 1.2, a list task beyond the model with groups of 6, reward
    # plateaus from a key half of whose words can be said and from a run without a KL term (written as converging,
    # re-labelled from its log); strides 1, 2, 3, 4, 5, 6, 8, 9 and 12, temperatures 0.6-1.3, learning rates 1e-4 to
    # 3e-3, runs read from trainer_state.json and in TRL 0.14's key set, seeds 63-78. Each expectation was written from
    # the mechanism before the run was trained (committed first), then checked on the raw log only, never against the
    # doctor; the three renamed runs were retrained under their new names (the same seeds: their raw logs and samples
    # repeat exactly), and the accepted signatures added after training each carry their raw-log numbers. As in batches
    # 9-13, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps,
    # and when solved.
    Scenario("healthy_binary_4x3_log4", "Exact match alone, four groups of 3 a step, a KL penalty of 0.03 and a "
             "learning rate of 4e-4, 160 steps logged every 4: a fresh model is right about one time in ten, so a "
             "group of 3 agrees (all wrong) about three times in four at first; the groups that hold a right answer "
             "carry the signal and the questions' target words are learnt one after another (raw log and samples: the "
             "reward a first-10-log median of 0.27 (0.10-0.48) and 0.875-0.98 over the last 10 logs; the zero-variance "
             "share 0.31-0.94, a median of 0.69, 0.625-0.94 over the last 10 logs; entropy from 0.47 to 0.07-0.13; the "
             "KL 0.34-0.96 over the last 10 logs; the gradient norm at most 3.5, below 0.01 on 11 of the 40 logs, "
             "every one from step 84; the mean length 4.9-5.8 tokens; the colour's and the fruit's targets early (37 "
             "of 60 and 35 of 78 samples over steps 0-39), the bird's, the drink's, the number's and the tool's over "
             "40-79, the tree's and the animal's last (23 of 72 and 11 of 72 over 40-79, 55 of 60 and 34 of 39 over "
             "80-119); every question on its target on 83-98 % of its samples over steps 120-159).",
             rewards=("correct",), steps=160,
             args=dict(per_device_train_batch_size=12, num_generations=3, beta=0.03, learning_rate=4e-4,
                       logging_steps=4, seed=63), batch=14),
    # Written as healthy_nokl_temp08_binary_2x6_converges_nosamples_log6, expecting the target words learnt until most
    # groups agree because they are solved; its raw log, read before the doctor, shows a plateau instead: the reward's
    # 30-step means 0.29, 0.45, 0.55, 0.78, 0.66 and 0.60, the zero-variance share's 0.52, 0.67, 0.62, 0.82, 0.83 and
    # 0.90, and the samples three questions that never score, their groups agreeing on 0 (the number's and the tree's
    # targets never said after step 44, the tool's learnt 'hammer' deformed with no KL anchor to 'hammmer'). Re-labelled
    # and renamed for what its log shows (the same run, retrained under the new name: its raw log and samples repeat
    # exactly): a reward plateau below the best, dated by levels_off, as batch 13's
    # reward_plateau_nokl_temp08_binary_2x8_log1 was.
    # Accepts ZERO_ADVANTAGE_GROUPS (not written before training): the zero-variance share 0.67-1 over the last 10 logs,
    # 1 on three of them, and the gradient norm 0 on 17 of the 30 logs.
    Scenario("reward_plateau_nokl_temp08_binary_2x6_nosamples_log6", "Exact match alone, two groups of 6 a step, no KL "
             "term (beta 0), sampled at temperature 0.8, a learning rate of 5e-4, 180 steps logged every 6 and read "
             "from TRL's trainer_state.json (no samples): five questions are learnt and solved, while with no anchor "
             "the others never find their target or lose it, their groups agreeing on 0: the reward stops at about two "
             "thirds of its best with most groups agreeing (raw log and samples: the reward 0.15 and 0.18 over the "
             "first two logs, a first-10-log median of 0.39 (0.15-0.58), 30-step means of 0.29, 0.45, 0.55, 0.78, 0.66 "
             "and 0.60, 0.33-0.83 over the last 10 logs; the zero-variance share's 30-step means 0.52, 0.67, 0.62, "
             "0.82, 0.83 and 0.90; entropy from 0.41 to 0.075-0.34 over the last 10 logs; the gradient norm 0 on 17 of "
             "the 30 logs, at most 8.8 (step 48); the mean length 5.2-6.4 tokens; the samples, which the doctor is not "
             "given: the colour's, the drink's, the fruit's and the tool's targets early (38 of 66, 51 of 84, 29 of 60 "
             "and 61 of 90 samples over steps 0-44), the bird's after 'uck' and 'uckk' (29 of 60 over 0-44) over "
             "45-134 (31 of 84, then 87 of 90), the animal's over 90-134 (63 of 72); the number's never (0 of 240), "
             "the tree's once (1 of 300); the tool's 'hammer' drifting to 'hammmer' over the last 45 steps (59 of 60, "
             "none on target)).",
             rewards=("correct",), steps=180,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.8, beta=0.0,
                       learning_rate=5e-4, logging_steps=6, seed=64), source="trainer_state",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=10,
                                                  run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=14),
    Scenario("healthy_slow_lr1e4_binary_2x4_long_oldkeys_log9", "Exact match alone, two groups of 4 a step, a small KL "
             "penalty and a learning rate of 1e-4, 360 steps logged every 9 and read in TRL 0.14's key set (no "
             "zero-variance share, entropy or clipped share): a slow learner, the reward rising from about one in ten "
             "over the whole long run (raw log and samples: the reward 0.07 and 0.08 over the first two logs, a "
             "first-10-log median of 0.17 (0.07-0.35), 0.47 at step 108, 0.67 at 153 and 0.83-0.97 over the last 10 "
             "logs; the zero-variance share, which the doctor is not given, 0.17-0.89, a median of 0.56; entropy, not "
             "given either, from 0.46 to 0.10-0.16 over the last 10 logs; the KL 0.0003 at step 9, 0.10 at 72 and "
             "0.31-0.68 over the last 10 logs, at most 0.77 (step 234); the gradient norm at most 7.7 (step 189), "
             "below 0.01 on 10 of the 40 logs; the colour's and the fruit's targets first (28 of 72 and 36 of 104 "
             "samples over steps 0-89), the bird's, the tree's and the tool's over 90-179, the number's and the "
             "animal's over 180-269 (76 of 104 and 60 of 80), the drink's over the whole run (14 of 112, 32 of 84, 46 "
             "of 76 and 72 of 84 over each 90 steps); every question on its target on 82-97 % of its samples over "
             "steps 270-359).",
             rewards=("correct",), steps=360,
             args=dict(beta=0.02, learning_rate=1e-4, logging_steps=9, seed=65), source="old_keys", batch=14),
    Scenario("healthy_rloo_binary_4x3_temp11_log2", "RLOO, exact match alone, four groups of 3 a step, sampled at "
             "temperature 1.1, a KL penalty of 0.03 in the reward and a learning rate of 3e-4, 120 steps logged every "
             "2: hotter sampling gives more right answers to learn from and more letter strings; the leave-one-out "
             "baseline turns a group's right answer into an advantage and the target words are learnt, still being "
             "learnt at the end (raw log and samples: the reward 0.04 and 0 over the first two logs, a first-10-log "
             "median of 0.125 (0-0.25), 20-step means of 0.125, 0.20, 0.34, 0.45, 0.53 and 0.73, 0.46-0.92 over the "
             "last 10 logs; the zero-variance share 0-0.875, a median of 0.125; entropy 0.45-0.59 to step 60 and "
             "0.13-0.37 over the last 10 logs; the KL 0-0.10 over the first 10 logs and 0.24-0.72 over the last 10; "
             "the gradient norm, RLOO's advantages not normalised, a median of 6.5, up to 39.4 (step 94); the mean "
             "length 4.8-6.3 tokens; the colour's target early (28 of 48 samples over steps 0-29), the fruit's, the "
             "bird's and the tool's over 30-89, the tree's over 60-89 (29 of 39), the animal's and the drink's in part "
             "by the end (23 of 57 and 16 of 48 over 90-119), the number's never (0 of 168); letter strings now and "
             "then ('hhhorrste', 'plumnglsele')).",
             algorithm="rloo", rewards=("correct",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.1, beta=0.03,
                       learning_rate=3e-4, logging_steps=2, seed=66), batch=14),
    Scenario("healthy_judge_2x8_cool07_log12", "The 0-10 judge score (partial credit: a known word, of the asked "
             "category, the target), two groups of 8 a step sampled at temperature 0.7, a small KL penalty and a "
             "learning rate of 3e-4, 240 steps logged every 12: the category is already given, the target words are "
             "learnt and the score rises towards 10 (raw log and samples: the score 7.27 and 7.42 over the first two "
             "logs, a first-10-log median of 8.68 (7.27-9.62) and 8.77-9.95 over the last 10 logs, 9.67-9.95 from step "
             "144; the zero-variance share 0.21-0.42 over the first six logs and 0.71-0.92 over the last 10; entropy "
             "from 0.41 to 0.018-0.030 from step 144, every question answered with its target; the KL 0.07-1.11 over "
             "the first 10 logs and 0.31-0.62 over the last 10 but for 7.68 at step 132; the gradient norm at most 9.6 "
             "(step 108), below 0.01 on 9 of the 20 logs; the colour's, the fruit's and the number's targets early (79 "
             "of 104, 97 of 144 and 92 of 144 samples over steps 0-59), the others over 60-119, the tree's from 3 of "
             "72 to 140 of 176, the bird's last (58 of 128 over 60-119, 'uck' on 48); every question on its target on "
             "93-100 % of its samples over steps 180-239).",
             rewards=("judge",), steps=240,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.7, beta=0.02,
                       learning_rate=3e-4, logging_steps=12, seed=67), batch=14),
    # Written as healthy_steep_binary_4x2_lr1e3_kl01_log1, expecting the target words learnt in a steep rise within a
    # few dozen steps and held; its raw log, read before the doctor, shows no steep rise but an uneven learner: the
    # reward's 10-step means 0.20, 0.21, 0.35, 0.35, 0.46, 0.51, 0.55, 0.29, 0.31 and 0.60, learnt answers deforming and
    # learnt again. Renamed for what it shows (the same run, retrained under the new name: its raw log and samples
    # repeat exactly), still healthy: it learns, unevenly, to the end.
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on every one of the 13 steps 75-87 (7.53 at step
    # 82) and on 4 of the last 10 steps. Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 59 at
    # step 82, the step of that KL, where its median over the run is 0.9.
    Scenario("healthy_uneven_binary_4x2_lr1e3_kl01_log1", "Exact match alone, four groups of 2 a step, a learning rate "
             "of 1e-3 held by a KL penalty of 0.1, 100 steps logged every step: at this fast rate the target words are "
             "learnt unevenly, some deforming and learnt again as the KL term pulls them back (raw log and samples: "
             "the reward a first-10-log median of 0.19 (0-0.375), 10-step means of 0.20, 0.21, 0.35, 0.35, 0.46, 0.51, "
             "0.55, 0.29, 0.31 and 0.60, 0 on steps 77-79 and 1 at step 99; the zero-variance share a median of 0.75 "
             "(pairs agree by chance), 1 on 29 of the 100 steps; entropy 0.41-0.59 over the first 10 steps, 0.16-0.51 "
             "over 41-70, 0.31-0.77 over 71-90 and 0.18-0.52 over the last 10; the KL a median of 0.61, 2.91 at step "
             "8, above 1 on every one of the 13 steps 75-87 (7.53 at 82) and on 4 of the last 10; the gradient norm a "
             "median of 0.9, 9.8 at step 8 and 59 at 82, at most 5.9 elsewhere; the animal's 'pig' learnt by steps "
             "20-39 (20 of 20) and given up for 'pin' over 60-99 (2 of 14 and 0 of 10 on target), the tool's 'hammer' "
             "learnt over 40-79 (21 of 34, 20 of 24) and deformed to 'mmmmer' over 80-99 (0 of 16), the bird's 'swan' "
             "found (8 of 20 over 20-39), lost to 'raven' (1 of 22 over 40-59) and found again (15 of 22 over 80-99), "
             "the number's 'four' found last (17 of 36 over 80-99); the mean length 3.75-6.5 tokens, nothing cut).",
             rewards=("correct",), steps=100,
             args=dict(num_generations=2, beta=0.1, learning_rate=1e-3, seed=68),
             accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=14),
    Scenario("healthy_rloo_nokl_partial_temp09_2x4_long_nosamples_log8", "RLOO without a KL term (beta 0), partial "
             "credit: exact match (1) beside a word of the asked category (0.2), two groups of 4 a step, sampled at "
             "temperature 0.9, a learning rate of 2e-4, 400 steps logged every 8 and read from TRL's "
             "trainer_state.json (no samples): the category is already given, the target words are learnt over a long "
             "run and held (raw log and samples: the reward a first-10-log median of 0.49 (0.24-0.77), 80-step means "
             "of 0.50, 0.93, 1.13, 1.15 and 1.16, 1.11-1.2 of a possible 1.2 over the last 10 logs; exact match from "
             "0.05-0.58 over the first 10 logs to 0.92-1 over the last 10, the category share 0.84-1 throughout; the "
             "zero-variance share 0.25-0.75 over the first 10 logs and 0.75-1 over the last 10; entropy from 0.46 to "
             "0.03-0.09; the gradient norm, RLOO's advantages not normalised, 0 on 29 of the 50 logs, 30.2 and 37.6 at "
             "steps 120 and 152 while learning and single late logs of 15.5 (296), 21.7 (312) and 49.7 (336); the mean "
             "length 4.9-5.8 tokens; the samples, which the doctor is not given: the colour's and the fruit's targets "
             "early (59 of 88 and 67 of 112 samples over steps 0-79), the others over 80-239; every question on its "
             "target on 95-100 % of its samples over steps 320-399).",
             algorithm="rloo", weights=(1.0, 0.2), steps=400,
             args=dict(temperature=0.9, beta=0.0, learning_rate=2e-4, logging_steps=8, seed=69),
             source="trainer_state", batch=14),
    Scenario("reward_collapse_key_caps_after_learning_4x3_nosamples_log6", "Exact match alone, four groups of 3 a "
             "step, a small KL penalty and a learning rate of 5e-4, 200 steps logged every 6 and read from TRL's "
             "trainer_state.json (no samples); from the 130th reward call to the end the grader reads an answer key "
             "rewritten with capitals ('Pear'; task.py's correct_capitalized: a data change after learning): the "
             "learnt target words no longer match, the reward drops to 0 and every group agrees on it (raw log and "
             "samples: the reward a first-10-log median of 0.34 (0.125-0.60), 0.69-0.93 at steps 72-126 (0.93 at 102); "
             "0.44 at step 132 (a log averaging both sides of the change) and 0 with the zero-variance share 1 on "
             "every log from 138 to the end; the gradient norm 0.003-0.12 from 138 (the KL term alone) but for 1.44 at "
             "the last log; the KL 0.34-2.92 at steps 72-132 (1.68 and 2.92 at 90-96) and 0.43-1.65 after; entropy "
             "from 0.45 to 0.12-0.26 at steps 72-138 and 0.19-0.36 after; the samples, which the doctor is not given: "
             "the answers still the learnt words ('swan', 'pink', 'juice', 'lemon', 'four', 'hammer', 'pig') on 51-96 "
             "% of their samples over steps 160-199, the tree's target never said (0 of 300)).",
             rewards=("correct",), steps=200, swap=(130, 100_000, "correct_capitalized"),
             args=dict(per_device_train_batch_size=12, num_generations=3, beta=0.02, learning_rate=5e-4,
                       logging_steps=6, seed=70), source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=14),
    # Accepts LENGTH_COLLAPSE (not written before training): the answers, letter strings by step 45, became the
    # end-of-sequence token alone (every sample from step 135), the mean length from 5.5-6.1 tokens over the first four
    # logs to 1-1.3 from step 117.
    Scenario("kl_blowup_rloo_warmup30_binary_word_4x2_oldkeys_log9", "RLOO, exact match (1) beside a known word (0.3), "
             "four groups of 2 a step, a KL penalty of 0.05 in the reward and a 30-step warm-up (constant_with_warmup) "
             "into a learning rate far too high (2.5e-3), 180 steps logged every 9 and read in TRL 0.14's key set: "
             "once the rate is up each update overshoots and the policy runs away from its reference (the KL well "
             "above the 0.1-0.8 of the corpus's healthy runs) while its answers degrade (raw log and samples: the KL "
             "0.004 at step 9, 0.26 at 18, 0.90 at 27, 2.54 at 36 (the rate 2.5e-3 from step 30), 4.35-6.66 at 45-108 "
             "and 8.2-9.1 on the last 8 logs; the reward 0.44 at step 9 (exact match 0.15, the known-word share 0.97), "
             "0.39 at 18-27, 0.22 at 36, 0.05 at 45 and 0 on every log from 54; the answers letter strings by steps "
             "45-89 ('h', 'paa', 'piae'), then the end-of-sequence token alone, every sample from step 135: the mean "
             "length 5.5-6.1 tokens to step 36, 2.1-4.8 at 45-99 and 1-1.3 from 117; entropy, which the doctor is not "
             "given, 0.38-0.60 to step 81 but for 0.16 at 90, and 0.0003-0.022 from 117; the zero-variance share, not "
             "given either, 0.11-0.44 to step 81 and 0.97-1 from 117; the gradient norm, RLOO's advantages not "
             "normalised, 19.2-27.7 at steps 18-36, 0 on 11 of the 20 logs (81, 90 and every log from 108)).",
             algorithm="rloo", rewards=("correct", "is_word"), weights=(1.0, 0.3), steps=180,
             args=dict(num_generations=2, beta=0.05, learning_rate=2.5e-3, warmup_steps=30,
                       lr_scheduler_type="constant_with_warmup", logging_steps=9, seed=71), source="old_keys",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "REWARD_PLATEAU", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "GRAD_NORM_SPIKE",
                       "GROUP_MODE_COLLAPSE", "LENGTH_COLLAPSE"), batch=14),
    Scenario("entropy_collapse_coin_4x3_cool06_log4", "A reward that says nothing (a fair coin per completion, as a "
             "broken judge would give), four groups of 3 a step sampled at temperature 0.6, no KL term and a learning "
             "rate of 1.5e-3, 150 steps logged every 4: the advantages are noise, and with no anchor and cool sampling "
             "the policy drifts onto one completion per question while the reward stays at chance: entropy falls far "
             "below where it started and a group's completions become copies (raw log and samples: the reward "
             "0.29-0.60 throughout, the zero-variance share 0.06-0.44 (a group of 3 agrees by chance one time in "
             "four); entropy 0.29 and 0.23 over the first two logs, 0.22-0.36 to step 56, 0.16 at 60, 0.013-0.12 at "
             "64-92 and 0.00008-0.0003 on every log from 96; the answers category words at first, a group of 3 often "
             "copies at temperature 0.6 (a duplicate share of 0.41 over steps 0-14, 'owl' on 19 of 45 animal answers "
             "over 0-29), then letter strings run to the 12-token budget from about step 16 ('vryyyyyyyyyy', "
             "'ivlvlvlvlvei'), then 'iiiiiiiiiiii' for every question (every sample but one over steps 90-149); the "
             "groups' duplicate share 0.20-0.23 over each 15 steps from 15 to 59, 0.82 over 60-74, 0.63 over 75-89 and "
             "0.99-1 from 90; the mean length 5.9 and 6.1 tokens over the first two logs, 7.3 at step 12, 9.9 at 16 "
             "and 11.9-12 from 24, the clipped share 0.25 at 12, 0.56 at 16 and 0.96-1 from 24; the gradient norm "
             "0.47-9.0 to step 64, 0.35-2.1 at 76-88 and below 1e-9 on every log from 92).",
             rewards=("coin",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.6, beta=0.0,
                       learning_rate=1.5e-3, logging_steps=4, seed=72),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=14),
    # Written as entropy_explosion_temp13_lr3e3_2x4_log2, expecting entropy to climb to several times where it started
    # (ENTROPY_EXPLOSION, dated by rises('entropy', 2.0, first=1)) beside a reward collapse; its raw log, read before
    # the doctor, shows the reward collapsing by step 12 and the updates stopping there (every group agreeing on 0, the
    # gradient norm 0), which left entropy at 0.89-1.29 from 0.66 at the first log: up to 1.95 times, never twice, so
    # that rule finds no onset. Re-labelled and renamed for what its log shows (the same run, retrained under the new
    # name: its raw log and samples repeat exactly): a reward collapse, dated by its rule written before training (step
    # 8).
    # Accepts ENTROPY_EXPLOSION (expected before training, kept as accepted): entropy 0.66 at the first log, 0.91 at
    # step 4, 1.13-1.23 at steps 6-10 and 0.89-1.29 on every later log, a median of 1.14.
    Scenario("reward_collapse_temp13_lr3e3_partial_2x4_log2", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.3), two groups of 4 a step sampled at temperature 1.3, no KL term and a constant "
             "learning rate far too high (3e-3), 100 steps logged every 2: hot sampling feeds letter strings into "
             "updates that overshoot, the answers stop being words within a dozen steps and the reward collapses to 0, "
             "where every group agrees and nothing can be learnt again; the policy is left where it broke, flat and "
             "hot (raw log and samples: the reward 0.37 and 0.36 over the first two logs (exact match 0.125 and 0.19, "
             "the category share 0.81 and 0.56), 0.06 at steps 6-8, 0.24 at 10 and 0 on every log from 12, the "
             "zero-variance share 1 and the gradient norm 0 from there; entropy 0.66 at step 2, 0.91 at 4, 1.13-1.23 "
             "at 6-10 and 0.89-1.29 from 12 to the end; the mean length 6.1 and 5.25 tokens over the first two logs, "
             "8.6 at step 6 and 10.1-12 from 12, the clipped share 0.06 at step 2, 0.5 at 10 and 0.625-1 from 14; the "
             "answers letter strings run to the budget from about step 20 ('rrrrrrrrrrrr', 'hrkrkrsemrhr', "
             "'juicemihemah'), hardly two alike in a group (a duplicate share of 0-0.05)).",
             weights=(1.0, 0.3), steps=100,
             args=dict(temperature=1.3, beta=0.0, learning_rate=3e-3, logging_steps=2, seed=73),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=2, smooth=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REWARD_PLATEAU",
                       "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION"), batch=14),
    # Accepts KL_BLOWUP (not written before training): as the answers shrank to nothing the policy left its reference,
    # the KL 1.1-2.0 at steps 56-84 (but for 0.92 and 0.51 at 72-76) and 2.9-7.9 on every log from 88.
    Scenario("length_collapse_brevity_outpays_2x6_log4", "Exact match (1) beside a brevity bonus weighted 3 (-3/8 a "
             "character: the target 'lemon' scores 1 - 1.875, any word less than nothing), two groups of 6 a step, a "
             "small KL penalty and a learning rate of 5e-4, 150 steps logged every 4: saying nothing (the "
             "end-of-sequence token alone, 0) outpays every answer, right or wrong, so the answers shrink towards "
             "nothing (raw log and samples: the reward a first-10-log median of -1.37 (-1.56 to -1.09) and -0.14 to 0 "
             "over the last 10 logs, 0 on four of them; exact match 0.02-0.40 to step 80 (0.40 at 32 and 76: 'lemon', "
             "'four' and 'swan' learnt first), 0 from 112; the mean length 5.3 and 5.1 tokens over the first two logs, "
             "4.0-5.4 to step 80, 3.15 at 84, 2.15 at 88, 1.8-3.15 at 92-104 and 1-1.4 from 108; the end-of-sequence "
             "token alone on every sample of six questions over steps 120-149 and on 40 of the tool's 42, the fruit "
             "answered 'l' (27 of 36); entropy 0.24-0.52 to step 104, 0.06-0.22 at 108-128 and 0.001 at 132-144; the "
             "zero-variance share 0-0.5 to step 92 and 0.75-1 from 108; the KL 0.003-0.74 to step 52, 1.1-2.0 at 56-84 "
             "but for 0.92 and 0.51 at 72-76, and 2.9-7.9 from 88; the gradient norm up to 25.2 (step 84), below 0.001 "
             "on 9 logs from step 100).",
             rewards=("correct", "brevity"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, beta=0.02, learning_rate=5e-4,
                       logging_steps=4, seed=74),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "KL_BLOWUP"), batch=14),
    Scenario("repetition_target_mentions_rloo_lists_2x6_log6", "RLOO on the list questions with a keyword-count "
             "reward, how many times the list names the question's target word, repeats included (task.py's "
             "target_mentions), two groups of 6 a step, a KL penalty of 0.03 in the reward, a learning rate of 6e-4 "
             "and a 24-token budget, 150 steps logged every 6: naming the target over and over pays most, so the lists "
             "turn into one word repeated ('lemon lemon lemon') (raw log and samples: the reward, mentions of the "
             "target, a first-10-log median of 0.74 (0.29-1.74) and 2.35-3.5 over the last 10 logs; lists that repeat "
             "a word (3+ words, at most half distinct) on none of the samples over steps 0-29, 6 % over 30-44, 24 % "
             "over 45-59, 44 % over 60-74, 54 % over 75-89, 61-73 % over 90-134 and 87 % over 135-149 ('lemon lemon "
             "lemon' on 41 of 48 fruit lists and 'four four four' on 51 of 54 number lists over 120-149, 'ash ash ash "
             "ash ash ash'), the animal's the last to repeat ('pig pig pig' on 16 of 66 over 120-149); the groups' "
             "duplicate share 0.01 over steps 0-29, 0.29-0.33 over 60-89 and 0.51-0.67 from 90; the mean length "
             "13.1-16.4 tokens over the first 10 logs and 16.4-19.6 over the last 10, the clipped share at most 0.54 "
             "(step 144); the KL from 0.05 at step 6 to 0.58-0.98 over the last 10 logs; entropy from 0.55-0.61 to "
             "0.10-0.25 over the last 10 logs; the zero-variance share 0-0.25; the gradient norm, RLOO's advantages "
             "not normalised, a median of 24, 6.9-75.3).",
             algorithm="rloo", prompts="lists", rewards=("target_mentions",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, max_completion_length=24, beta=0.03,
                       learning_rate=6e-4, logging_steps=6, seed=75),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE"),
             batch=14),
    Scenario("reward_hacking_letter_o_exact_4x3_temp12_log3", "Exact match (1) beside a cheap proxy, the share of the "
             "letter o (weight 2, task.py's letter_o), so that a string of o's (2) pays more than the target word (at "
             "most 1.4), four groups of 3 a step sampled at temperature 1.2, no KL term and a learning rate of 1e-3, "
             "150 steps logged every 3: the policy games the proxy and exact match falls as the o's rise (raw log and "
             "samples: exact match a first-10-log median of 0.069 (0-0.14) and 0 on every log from step 42 but for "
             "0.03 and 0.11 at 51-54, while the proxy goes from 0.05-0.10 over the first four logs to 0.22-0.35 at "
             "24-36, 0.45 at 39, 0.73 at 42, 0.79-0.94 at 48-63 and 0.986-1 from 69; the answers o-rich at first "
             "('ogose', 'odeee', 'once'), o's run together over steps 30-59 ('odoooooooooo', 'ooo'), then "
             "'oooooooooooo' cut at the 12-token budget for nearly every question from 60 (every sample but two over "
             "90-149); the mean length 4.8-6.6 tokens to step 48, 7.1 at 51, 9.1 at 54 and 11.8-12 from 57, the "
             "clipped share 0-0.06 to 48, 0.25 at 51, 0.53 at 54 and 0.92-1 from 57; entropy 0.54-0.83 to step 39, "
             "0.44 at 42, 0.028-0.19 at 45-66 and 0.004-0.015 from 69; the zero-variance share 0-0.42 to step 42 and "
             "0.83-1 from 66; the groups' duplicate share 0.16-0.40 over each 15 steps to 44, 0.76 over 45-59 and "
             "0.92-1 from 60; the reward 2, its maximum, with the gradient norm 0 from step 69 but for 0.13 at 141).",
             rewards=("correct", "letter_o"), weights=(1.0, 2.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.2, beta=0.0,
                       learning_rate=1e-3, logging_steps=3, seed=76),
             expect={"REWARD_HACKING": hacked("rewards/correct/mean", "rewards/letter_o/mean", smooth=5, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "REPETITIVE_COMPLETIONS"), batch=14),
    Scenario("zero_advantage_lists_too_hard_2x6_log1", "The list questions graded against one exact list, three given "
             "words in a given order (task.py's exact_list), a task beyond the taught model, two groups of 6 a step, a "
             "small KL penalty, a learning rate of 3e-4 and a 24-token budget, 80 steps logged every step: a fresh "
             "list matches about once in 1,400 samples, so nearly every group agrees on 0 from the start and there is "
             "nothing to learn from; the run is stuck (raw log and samples: the reward 0, the zero-variance share 1 "
             "and the gradient norm and the KL 0 on every one of the 80 steps, the policy never moving; none of the "
             "960 samples matched; entropy 0.46-0.67; the mean length 10.8-17.3 tokens, the clipped share at most "
             "0.17; the answers the taught lists of two or three words to the end ('owl dog', 'cider juice cocoa'), 1 "
             "% of them repeating a word).",
             prompts="lists", rewards=("exact_list",), steps=80,
             args=dict(per_device_train_batch_size=12, num_generations=6, max_completion_length=24, beta=0.02,
                       learning_rate=3e-4, seed=77),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=14),
    Scenario("reward_plateau_half_key_4x4_temp09_log5", "Exact match graded against a key half of whose words the "
             "model can say (task.py's correct_half_key), four groups of 4 a step sampled at temperature 0.9, a KL "
             "penalty of 0.03 and a learning rate of 4e-4, 250 steps logged every 5: the learnable half is learnt and "
             "its groups come to agree, solved, while the other half's groups agree on 0 from the start; the reward "
             "rises to about half its best and stays there with most groups agreeing: a plateau below the best that "
             "more steps will not lift (raw log and samples: the reward 0.04 and 0.10 over the first two logs, a "
             "first-10-log median of 0.34 (0.04-0.53), 50-step means of 0.31, 0.41, 0.48, 0.45 and 0.42, 0.21-0.60 "
             "over the last 10 logs, where the learnable half gives 0.5 on average; the zero-variance share a "
             "first-10-log median of 0.75, 50-step means of 0.72, 0.86, 0.92, 0.96 and 0.92, 1 on 7 of the 50 logs; "
             "entropy 0.44-0.46 over the first four logs and 0.23-0.42 over the last 10; the KL 0.25-0.86 over the "
             "last 10 logs, above 1 on three single logs (4.58 at step 125); the gradient norm a median of 0.065, at "
             "most 19.8 (step 190); the colour's, the fruit's, the number's and the animal's targets learnt (52 of 68, "
             "65 of 104, 53 of 112 and 70 of 140 samples over steps 0-49, 78-107 of 84-108 over 150-199), the animal's "
             "'pig' decaying to 'p' over the last 50 steps (13 of 76 on target, 'p' on 53); the other four questions "
             "never scoring, their key words never taught).",
             rewards=("correct_half_key",), steps=250,
             args=dict(per_device_train_batch_size=16, temperature=0.9, beta=0.03, learning_rate=4e-4,
                       logging_steps=5, seed=78),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=10,
                                                  run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=14),
    # -- batch 15 --
    # A thirteenth fresh batch, 14 scenarios kept (6 healthy, 8 pathological): a binary exact-match reward with groups
    # of 2, 4, 5 and 8 (five completions a group for the first time), partial credit, the judge score and the category
    # reward; loss types grpo, dr_grpo, dapo and bnpo; healthy runs with and without a KL term that converge, learn
    # slowly over 440 steps at 1e-4 without a KL term, approach the best at temperature 1.2, RLOO with a linear warm-up
    # and groups of 5, a cosine schedule without a KL term, the judge score with one group of 8 at 0.5 (which lost one
    # question); an answer key changed after learning to words never taught, a KL blow-up with BNPO after a warm-up, an
    # entropy collapse under a reward that says nothing at temperature 0.5 with groups of 5, an entropy explosion under
    # a reward that pays for varied letters at temperature 1.3 (task.py's distinct_letters, added with this batch), a
    # brevity reward with one group of 8, the category reward the model already earns, reward plateaus from a key half
    # of whose words can be said with RLOO and from a fast learner held by a KL penalty (written as a healthy run that
    # learns in a jump, re-labelled from its log); strides 1, 2, 3, 4, 5, 8, 11 and 15, temperatures 0.5-1.3, learning
    # rates 1e-4 to 2.5e-3, runs read from trainer_state.json and in TRL 0.14's key set, seeds 79-94. Each expectation
    # was written from the mechanism before the run was trained (committed first), then checked on the raw log only,
    # never against the doctor; the renamed run was retrained under its new name (the same seed: its raw log and
    # samples repeat exactly), and the accepted signatures added after training each carry their raw-log numbers. As
    # in batches 9-14, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on
    # most steps, and when solved. Two scenarios written before training were trained and left out, their raw logs
    # showing nothing of what they were written for: length_explosion_char_bonus_rloo_2x4_budget20_log8 (RLOO, a word
    # of the asked category (1) beside a per-character bonus (1), two groups of 4, a KL penalty of 0.02, 6e-4, a
    # 20-token budget, 150 steps logged every 8, seed 90; expecting LENGTH_EXPLOSION and TRUNCATION_HIGH): the mean
    # length from 5.56 and 5.67 tokens over the first two logs to 6.25-7.44 over the last 10, the clipped share at most
    # 0.03; the policy kept to the category (0.70-0.95) and chose its longest words ('orange', 'cherry', 'spruce',
    # 'zebra', 'seven'), only the tool's answer running on at the very end ('hammmmmmmmmmmmmmmmmm' on 3 of 24 samples
    # over steps 121-150); and reward_hacking_word_count_exact_2x4_budget24_log5 (exact match (1) beside a per-word
    # reward (0.5), two groups of 4, no KL term, 8e-4, a 24-token budget, 150 steps logged every 5, seed 92; expecting
    # REWARD_HACKING): no answer ever said more than one word (the mean length 5.1-7.2 tokens, the word count 0.6-0.95
    # throughout), exact match rose from a first-10-log median of 0.125 to 0.2-0.75 over the last 10 logs (the
    # colour's, the number's, the drink's and the animal's targets learnt) while the other four questions kept one
    # wrong word each ('eagle', 'mango', 'file', 'birch'): a plateau at most, which levels_off would date at step 145
    # of 150.
    Scenario("healthy_binary_8x2_lr3e4_log3", "Exact match alone, eight groups of 2 a step, a KL penalty of 0.04 and a "
             "learning rate of 3e-4, 150 steps logged every 3: a fresh model is right about one time in ten, most "
             "pairs agree (both wrong, later both right), the pairs that disagree carry the signal, and with eight "
             "questions asked a step the target words are learnt until most pairs are solved: a run that converges "
             "(raw log and samples: the reward 0.17 and 0.10 over the first two logs, a first-10-log median of 0.25 "
             "(0.06-0.35), 30-step means of 0.22, 0.41, 0.59, 0.78 and 0.84, 0.77-0.96 over the last 10 logs; the "
             "zero-variance share 0.5-1, a median of 0.75, from the first log to the last; entropy from 0.46 to "
             "0.125-0.21 over the last 10 logs; the KL 0.28-0.60 over the last 10 logs, at most 0.60; the gradient "
             "norm at most 4.4 (step 99); the mean length 5.0-6.2 tokens, the clipped share at most 0.02; the "
             "colour's, the fruit's and the tool's targets early (31 of 66, 24 of 58 and 25 of 72 samples over steps "
             "1-30), the drink's and the bird's over 31-90, the tree's over 61-120 (15 of 62, then 48 of 68), the "
             "number's and the animal's last (22 of 50 and 27 of 50 over 91-120); every question on its target on "
             "63-98 % of its samples over steps 121-150, the number's the least (38 of 60)).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=2, beta=0.04, learning_rate=3e-4,
                       logging_steps=3, seed=79), batch=15),
    Scenario("healthy_nokl_drgrpo_partial_cosine_4x4_temp09_log5", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), four groups of 4 a step sampled at temperature 0.9, the Dr. GRPO loss, no KL "
             "term (beta 0), a 20-step warm-up into a cosine decay from 6e-4, 200 steps logged every 5: the category "
             "is already given, the target words are learnt while the rate is high and held as it decays to 0 (raw log "
             "and samples: the reward 0.32 and 0.26 over the first two logs, a first-10-log median of 0.46 "
             "(0.26-0.73), 1.0 at step 60 and 1.16-1.2 of a possible 1.2 over the last 10 logs; exact match from "
             "0.06-0.55 over the first 10 logs to 0.96-1 over the last 10, the category share 0.875-1 throughout; the "
             "zero-variance share 0.15-0.65 over the first 10 logs and 0.85-1 over the last 10, groups solved, the "
             "groups' duplicate share (samples) 0.97 over steps 121-200, copies of the target word; entropy from 0.44 "
             "to 0.03-0.05 over the last 10 logs; the gradient norm at most 2.75 (step 85), 0-0.9 over the last 10 "
             "logs; the mean length 4.9-5.7 tokens; the colour's, the number's, the fruit's, the tree's, the drink's "
             "and the tool's targets over steps 1-80 (49-88 of 56-104 samples over 41-80), the animal's over 41-120 "
             "(102 of 108 over 81-120), the bird's last (29 of 80 over 81-120, 86 of 92 over 121-160); every question "
             "on its target on 94-100 % of its samples over steps 161-200).",
             weights=(1.0, 0.2), steps=200,
             args=dict(per_device_train_batch_size=16, temperature=0.9, loss_type="dr_grpo", beta=0.0,
                       learning_rate=6e-4, warmup_steps=20, lr_scheduler_type="cosine", logging_steps=5, seed=80),
             batch=15),
    Scenario("healthy_nokl_slow_dapo_binary_2x4_long_oldkeys_log11", "Exact match alone, two groups of 4 a step, the "
             "DAPO loss, no KL term (beta 0) and a learning rate of 1e-4, 440 steps logged every 11 and read in TRL "
             "0.14's key set (no zero-variance share, entropy or clipped share): a slow learner, the reward rising "
             "from about one in ten over the whole long run (raw log and samples: the reward 0.05 and 0.10 over the "
             "first two logs, a first-10-log median of 0.205 (0.05-0.35), 0.5 at step 165, 110-step means of 0.20, "
             "0.55, 0.815 and 0.895, 0.81-0.98 over the last 10 logs; the zero-variance share, which the doctor is not "
             "given, 0.18-0.91, a median of 0.52; entropy, not given either, 0.45-0.52 to step 110 and 0.10-0.23 over "
             "the last 10 logs; no KL logged; the gradient norm at most 9.3 (step 187), 0 on 9 of the 40 logs; the "
             "mean length 5.0-5.8 tokens; the colour's target first (59 of 116 samples over steps 1-110), the bird's, "
             "the fruit's and the tool's over 111-220 (77 of 112, 106 of 140 and 57 of 100), the tree's and the "
             "number's over 221-330 (112 of 124 and 82 of 112), the animal's and the drink's over the whole run (10, "
             "23, 57 and 79 samples on target over each 110 steps, 20, 43, 56 and 101); every question on its target "
             "on 82-95 % of its samples over steps 331-440).",
             rewards=("correct",), steps=440,
             args=dict(loss_type="dapo", beta=0.0, learning_rate=1e-4, logging_steps=11, seed=81), source="old_keys",
             batch=15),
    # Written expecting every question's target learnt, the score rising towards 10; its raw log shows seven questions
    # learnt and the colour's lost: 'pink', said on 26 of 64 samples over steps 1-50, gave way to 'pear' and then to
    # strings that are no word, which the judge scores 0. Still healthy: the score rises (40-step means 7.49 to 8.28)
    # and every other question is learnt; the text says so.
    # Accepts KL_BLOWUP (not written before training): the KL 0-0.30 over the first seven logs and above 1 on 8 of the
    # 25 logs from step 80 (2.92 at step 144, 1.96 and 2.24 at 184-192), its 40-step means 1.31 and 1.28 over the last
    # 80 steps, while the colour's answers left the taught words.
    Scenario("healthy_bnpo_judge_1x8_cool05_nosamples_log8", "The 0-10 judge score (partial credit: a known word, of "
             "the asked category, the target), one group of 8 a step sampled at temperature 0.5, the BNPO loss, a KL "
             "penalty of 0.03 and a learning rate of 3e-4, 200 steps logged every 8 and read from TRL's "
             "trainer_state.json (no samples): one question a step, cool samples; the category is already given and "
             "the target words are learnt, the score rising, but for one question whose answers deform (raw log and "
             "samples: the score 7.09 and 7.33 over the first two logs, a first-10-log median of 7.27 (6.45-8.03), "
             "40-step means of 7.49, 7.11, 7.87, 8.38 and 8.28, single logs swinging with the questions asked (5.22 at "
             "step 112 and 5.94 at 192; 9.69-9.84 at 144, 152 and 176); the zero-variance share 0.125-0.875, a median "
             "of 0.75; entropy from 0.37 to 0.03-0.15 over the last 10 logs; the KL 0-0.30 over the first seven logs, "
             "0.44-2.92 over the last 10, above 1 on 8 of the 25 logs (2.92 at step 144); the gradient norm a median "
             "of 0.096, 31.3 at step 24 and 27.7 at 120, below 0.01 on 8 logs; the mean length 4.6-6.4 tokens; the "
             "samples, which the doctor is not given: the bird's and the fruit's targets first (37 of 72 and 12 of 56 "
             "samples over steps 1-50, 38 of 40 and 53 of 56 over 51-100), the tool's and the animal's over 51-150, "
             "the drink's, the number's and the tree's over 101-150 (56 of 64, 51 of 64 and 16 of 24); the colour's "
             "'pink' (26 of 64 over steps 1-50) lost to 'pear' (28 of 48 over 51-100), then to strings that are no "
             "word ('ppink', 'pigray': 0 of 88 on target over 101-200); every other question on its target on 55-100 % "
             "of its samples over steps 151-200, the bird's the least (31 of 56, 'swag' on 23)).",
             rewards=("judge",), steps=200,
             args=dict(num_generations=8, temperature=0.5, loss_type="bnpo", beta=0.03, learning_rate=3e-4,
                       logging_steps=8, seed=82), source="trainer_state",
             accepted=("KL_BLOWUP",), batch=15),
    Scenario("healthy_rloo_binary_4x5_linear_warmup_cool08_log5", "RLOO, exact match alone, four groups of 5 a step "
             "sampled at temperature 0.8, a KL penalty of 0.03 in the reward, a 20-step warm-up into a linear decay "
             "from 5e-4, 150 steps logged every 5: a group of 5 holds a right answer about two times in five at "
             "first, the leave-one-out baseline turns it into an advantage, and the target words are learnt while the "
             "rate is high and held as it decays (raw log and samples: the reward 0.09 and 0.11 over the first two "
             "logs, a first-10-log median of 0.34 (0.09-0.67), 0.8 at step 55 and 0.93-1 over the last 10 logs; the "
             "zero-variance share 0-0.35 over the first 10 logs and 0.3-0.7 over the last 10; entropy from 0.40 to "
             "0.02-0.05 over the last 10 logs; the KL 0.23 at step 25 and 0.31-0.63 from 30 to the end; the gradient "
             "norm, RLOO's advantages not normalised, a median of 3.3, 18.8 at step 30 and 50.3 at 125, below 1e-7 on "
             "7 logs from step 80 (groups solved, the rate decaying); the mean length 4.9-5.85 tokens, nothing cut; "
             "the fruit's, the colour's, the tool's and the number's targets first (43 of 95, 25 of 80, 27 of 80 and "
             "23 of 105 samples over steps 1-30), the bird's, the drink's and the animal's over 31-90, the tree's last "
             "(7 of 95 over 31-60, 36 of 65 over 61-90, 42 of 45 over 91-120); every question on its target on 91-100 "
             "% of its samples over steps 121-150).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=20, num_generations=5, temperature=0.8, beta=0.03,
                       learning_rate=5e-4, warmup_steps=20, lr_scheduler_type="linear", logging_steps=5, seed=83),
             batch=15),
    # Written as healthy_binary_grpo_loss_2x5_kl01_lr1e3_log1, expecting a healthy fast learner, a few questions'
    # target words learnt first and then several more in one jump; its raw log, read before the doctor, shows the jump
    # (the reward's 10-step means 0.12 and 0.24 over steps 1-20, 0.53 over 21-30) and then no more learning: 0.43-0.72
    # over each later 10 steps, 0.55 over the last 10, the colour's learnt 'pink' deformed to 'pige', the tool's
    # 'hammer' to 'hammmer', the bird's 'swan' never found. Re-labelled and renamed for what its log shows (the same
    # run, retrained under the new name: its raw log and samples repeat exactly): a reward plateau below the best,
    # dated by levels_off as batch 13's and 14's re-labelled plateaus were.
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 35 of the 120 steps, 3.37 at step 16 and 3.12
    # at 68, a median of 0.82 over steps 31-120. Accepts GRAD_NORM_SPIKE (not written before training): the gradient
    # norm 32.5 at step 48 and 34.4 at 87, where its median over the run is 2.1.
    Scenario("reward_plateau_after_jump_grpo_loss_2x5_kl01_lr1e3_log1", "Exact match alone, two groups of 5 a step, "
             "the original GRPO loss (each completion's tokens averaged), a learning rate of 1e-3 held by a KL penalty "
             "of 0.1, 120 steps logged every step: four questions' target words are learnt in one jump over steps "
             "21-40 and two more by step 80, then at this fast rate the others deform or are never found, and the "
             "reward stays at about half its best for the 90 steps after (raw log and samples: the reward a "
             "first-10-log median of 0.1 (0-0.2), 10-step means of 0.12, 0.24, 0.53, 0.55, 0.53, 0.51, 0.53, 0.72, "
             "0.43, 0.59, 0.58 and 0.55 (30-step means 0.30, 0.53, 0.56 and 0.57); the zero-variance share's 10-step "
             "means 0.35-0.7, every group agreeing on 36 of the 120 steps; entropy 0.43-0.64 over the first 10 steps, "
             "30-step means of 0.50, 0.38, 0.36 and 0.33; the KL a median of 0.11 over the first 10 steps and 0.82 "
             "over steps 31-120, above 1 on 35 of the 120 steps (3.37 at step 16, 3.12 at 68); the gradient norm a "
             "median of 2.1, 32.5 at step 48 and 34.4 at 87; the mean length 3.9-10.2 tokens (10.2 at step 14, where "
             "half the answers were cut); the animal's 'pig', the drink's 'juice', the colour's 'pink' and the "
             "number's 'four' learnt over steps 21-40 (39 of 50, 26 of 30, 18 of 20 and 13 of 30 samples), the tree's "
             "'ash' and the fruit's 'lemon' over 41-80; then the colour's answers deformed to 'pige' and 'piiig' (0 of "
             "75 on target over steps 61-120), the tool's 'hammer' to 'hamel' and 'hammmer' (1 of 60 over 41-100, 10 "
             "of 20 over 101-120), and the bird's 'swan' never found (0 of 130: 'finch', 'heron', 'crofe')).",
             rewards=("correct",), steps=120,
             args=dict(per_device_train_batch_size=10, num_generations=5, loss_type="grpo", beta=0.1,
                       learning_rate=1e-3, seed=84),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=10,
                                                  run=5)},
             accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=15),
    Scenario("healthy_judge_hot12_2x5_long_oldkeys_log15", "The 0-10 judge score, two groups of 5 a step sampled at "
             "temperature 1.2, a KL penalty of 0.05 and a learning rate of 3e-4, 300 steps logged every 15 and read "
             "in TRL 0.14's key set: the target words are learnt and the score levels off near its best, honestly: "
             "hot sampling still sends a sample astray now and then, so the score stays a little under 10, rising ever "
             "more slowly (raw log and samples: the score 6.36 and 6.52 over the first two logs, a first-10-log median "
             "of 6.82 (6.36-8.2), 60-step means of 6.57, 7.19, 8.04, 8.76 and 9.00, 8.3-9.4 over the last seven logs; "
             "the zero-variance share, which the doctor is not given, 0.07-0.37 over the first 10 logs and 0.3-0.67 "
             "over the last 10; entropy, not given either, 0.48-0.57 to step 105 and 0.15-0.37 over the last 10 logs; "
             "the KL 0.004 at step 15, 0.34 at 120 and 0.36-0.97 over the last 10 logs; the gradient norm at most 8.55 "
             "(step 90); the mean length 5.1-5.9 tokens; the fruit's and the colour's targets first (77 of 100 and 68 "
             "of 90 samples over steps 61-120), the bird's, the drink's, the tree's and the animal's over 121-180, the "
             "number's and the tool's over 181-240 (53 of 70 and 61 of 90); over steps 241-300 every question on its "
             "target on 78-100 % of its samples (the tool's 39 of 50), the rest mostly other words of the category "
             "('cat', 'crow', 'tea') and a few letter strings ('nagle', 'tey')).",
             rewards=("judge",), steps=300,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=1.2, beta=0.05,
                       learning_rate=3e-4, logging_steps=15, seed=85), source="old_keys", batch=15),
    Scenario("reward_collapse_key_untaught_after_learning_2x5_log3", "Exact match alone, two groups of 5 a step, a "
             "small KL penalty and a learning rate of 6e-4, 180 steps logged every 3; from the 120th reward call to "
             "the end the grader reads an answer key from another edition of the word lists (task.py's "
             "correct_untaught: words the model was never taught; a data change after learning): the learnt target "
             "words no longer match, the reward drops to 0 and every group agrees on it (raw log and samples: the "
             "reward 0.07 and 0.17 over the first two logs, a first-10-log median of 0.32 (0.07-0.5), 0.47-0.97 at "
             "steps 33-117 but for 0.3 at 60 (0.93 at 45, 0.97 at 111), 0.63 at step 120 (a log averaging both sides "
             "of the change) and 0 with the zero-variance share 1 on every log from 123 to the end; the gradient norm "
             "0.001-0.53 from 123 (the KL term alone) but for 6.6 at 150; the KL 0.21-1.97 at steps 39-120 and "
             "0.29-3.52 after (3.52 at 150, 1.4 at 168); entropy from 0.44 to 0.07-0.26 at steps 105-123 and 0.16-0.38 "
             "after; the answers still the learnt words ('pink', 'lemon', 'juice', 'four', 'hammer', 'pig', 'ash') to "
             "the end, never the new key's ('kiwi', 'goat', 'teal'); the number's 'four' half given way to 'five' and "
             "'er' over the last 30 steps (14 of 55 samples on it)).",
             rewards=("correct",), steps=180, swap=(120, 100_000, "correct_untaught"),
             args=dict(per_device_train_batch_size=10, num_generations=5, beta=0.02, learning_rate=6e-4,
                       logging_steps=3, seed=86),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=15),
    # Accepts ENTROPY_EXPLOSION (not written before training): entropy 0.44 at step 5, 0.56-0.76 at steps 25-85 and
    # 0.78-1.29 on every log from 90, 1.23-1.29 on the last three (2.9 times its first log), the answers letter strings.
    # Accepts REWARD_PLATEAU (not written before training): the reward 0-0.1 with the zero-variance share 0.95-1 on
    # every log from step 90.
    Scenario("kl_blowup_bnpo_partial_warmup25_4x2_nosamples_log5", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.3), four groups of 2 a step, the BNPO loss, a KL penalty of 0.05 and a 25-step "
             "warm-up (constant_with_warmup) into a learning rate far too high (2.5e-3), 150 steps logged every 5 and "
             "read from TRL's trainer_state.json (no samples): once the rate is up each update overshoots and the "
             "policy runs away from its reference (the KL well above the 0.1-0.8 of the corpus's healthy runs) while "
             "its answers degrade (raw log and samples: the KL 0.00004 at step 5, 0.14 at 15, 0.63 at 20, 0.83 at 25 "
             "(the rate 2.5e-3 from there), 1.96 at 30, 2.6-3.1 at 35-60, 1.64-3.3 at 65-85 and 2.9-5.0 on every later "
             "log but 39 at 115 and 14.3 at 125; the reward 0.35-0.43 over steps 5-20 (the category share 0.7-1, exact "
             "match 0.05-0.2), 0.30 at 30, 0.15 at 40, 0.03-0.2 at 45-85 and 0-0.1 from 90, the category share 0-0.075 "
             "there; entropy 0.44 and 0.47 over the first two logs, 0.56-0.76 at 25-85 and 0.78-1.29 from 90; the "
             "zero-variance share 0.5-0.9 to step 70 and 0.9-1 from 75; the gradient norm 8.0 at step 30, at most 4.2 "
             "elsewhere; the mean length 4.3-7.9 tokens but 8.4 and 10.9 at steps 140-145 (the clipped share 0.275 and "
             "0.7 there, at most 0.175 elsewhere); the samples, which the doctor is not given: the answers words at "
             "first (the bird's 'swan' on 14 of 30 over steps 1-30), broken words and letter strings from step 31 "
             "('swa', 'hammmmmmm', 'coce', 'sige'), 'cocoa' for the drink on 15 of 32 over 61-90, fragments for every "
             "question over 91-150 ('ple', 'coa', 'ma'), hardly two alike in a group (a duplicate share of "
             "0.03-0.18)).",
             weights=(1.0, 0.3), steps=150,
             args=dict(num_generations=2, loss_type="bnpo", beta=0.05, learning_rate=2.5e-3, warmup_steps=25,
                       lr_scheduler_type="constant_with_warmup", logging_steps=5, seed=87), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU"), batch=15),
    # Its GROUP_MODE_COLLAPSE rule, written before training, dates the copies from step 7: sampled at temperature 0.5,
    # a group of 5 already held copies (a duplicate share of 0.5 at step 1), and the first updates, at 1.5e-3, made
    # them most of the group (5-step means of 0.57-0.8 from step 7 to 67, fragments such as 'pee' and 'se' copied);
    # they thinned as the strings ran to the budget (0.05-0.55 over steps 70-82) and became every completion from 88
    # (0.93-1), where the entropy rule dates the collapse (87). The rule was not mis-written, and is kept.
    Scenario("entropy_collapse_coin_drgrpo_2x5_cool05_log3", "A reward that says nothing (a fair coin per completion, "
             "as a broken judge would give), two groups of 5 a step sampled at temperature 0.5, the Dr. GRPO loss, no "
             "KL term and a learning rate of 1.5e-3, 150 steps logged every 3: the advantages are noise, and with no "
             "anchor and cool sampling the policy drifts onto one completion per question while the reward stays at "
             "chance: entropy falls far below where it started and a group's completions become copies (raw log and "
             "samples: the reward 0.27-0.70 throughout, the zero-variance share 0-0.5 (a group of 5 agrees by chance "
             "one time in sixteen); entropy 0.41 and 0.23 over the first two logs, 0.11-0.30 to step 66 but for 0.40 "
             "at 33, 0.27-0.45 at 69-81 while the answers ran to the budget, 0.10 at 84, 0.04 at 87, 0.019 at 90 and "
             "0.0003-0.004 on every log from 96; the answers at temperature 0.5 the taught words with many copies in a "
             "group at first ('seven' on 22 of 30 number answers over steps 1-15), fragments copied across a group by "
             "steps 16-45 ('pee', 'se', 's', 'wld'), letter strings from about step 36 ('sndddddddddd', 'wllllllple'), "
             "then 'blblblblblbl' or 'lblblblblblb' for every question (every sample over steps 106-150); the groups' "
             "duplicate share, averaged over 5 steps, 0.25-0.5 over the first four steps, 0.57-0.8 from step 7 to 67, "
             "0.05-0.55 over 70-82 and 0.93-1 from 88; the mean length 5.3 tokens over the first two logs, 3.5-8.1 to "
             "step 72 and 12 (the budget) from 75, the clipped share 0-0.53 to 72 and 1 from 75; the gradient norm up "
             "to 5.7 to step 84 and below 1e-7 on every log from 87 but for 1.1 at 105).",
             rewards=("coin",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.5, loss_type="dr_grpo",
                       beta=0.0, learning_rate=1.5e-3, logging_steps=3, seed=88),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=15),
    Scenario("entropy_explosion_distinct_letters_temp13_2x4_log2", "A reward that pays a tenth of a point per distinct "
             "letter the answer uses (task.py's distinct_letters: a novelty score gone wrong, letter soup paying more "
             "than any word), two groups of 4 a step sampled at temperature 1.3, no KL term and a learning rate of "
             "1.5e-3, 120 steps logged every 2: the reward keeps paying the most random samples, and never stops "
             "paying (a group's strings always differ in their letters), so the updates go on pushing the next-token "
             "distribution flat towards the whole alphabet: entropy climbs to several times where it started (raw log "
             "and samples: entropy 0.575 and 0.78 over the first two logs, 1.02 at step 8, 1.29 at 14, 1.33-1.63 over "
             "steps 28-92 (1.63 at 84, 2.8 times its first log), easing to 1.08-1.26 over the last 10 logs; the reward "
             "0.425 over the first two logs (a word's four or five letters), 0.79 at step 18 and 0.81-0.96 from 24; "
             "the mean length 5.75 and 5.69 tokens over the first two logs, 8 at step 10 and 11.2-12 from 14, the "
             "clipped share 0.06 at step 8, 0.625 at 14 and 0.875-1 from 18; the zero-variance share 0 on every log "
             "but three (0.25); the gradient norm 0.7-6.25, a median of 3.8; the answers words at first ('seven', "
             "'orange', 'hammer'), words run into letters over steps 16-30 ('fivenghneeee', 'mineeehterse'), then "
             "strings of random letters to the budget from about step 31 ('cegrqwvfoyzc', 'owvpigvpvgo', "
             "'ckwngasuuke'), no two alike in a group (a duplicate share of 0-0.01 from step 16)).",
             rewards=("distinct_letters",), steps=120,
             args=dict(temperature=1.3, beta=0.0, learning_rate=1.5e-3, logging_steps=2, seed=89),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 2.0, run=3, first=2)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=15),
    Scenario("length_collapse_brevity_grpo_loss_1x8_nosamples_log4", "A reward for brevity alone (-1/8 a character), "
             "one group of 8 a step, the original GRPO loss (each completion's tokens averaged, which favours short "
             "completions with positive advantages), no KL term and a learning rate of 1e-3, 150 steps logged every 4 "
             "and read from TRL's trainer_state.json (no samples): with no anchor the shortest answers keep winning "
             "until the end-of-sequence token comes first: the answers shrink towards nothing (raw log and samples: "
             "the mean length 5.34 and 5.19 tokens over the first two logs, 3.8-5.2 to step 32, 3.0 at 36, 1.94 at 40 "
             "and 1 (the end-of-sequence token alone) on every log from 44; the reward -0.54 and -0.52 over the first "
             "two logs, -0.25 at step 36, -0.12 at 40 and 0, its maximum, from 44, with the zero-variance share 1 and "
             "the gradient norm 0 on every log from there (0 at steps 16, 36 and 40 too, 31.3 at 32); entropy "
             "0.45-0.71 to step 36, 0.26 at 40 and 0.002-0.12 from 44; the samples, which the doctor is not given: "
             "category words and fragments at first ('axe', 'gray', 'pd', 'ad', 'aak'), the empty answer on 183 of the "
             "240 samples over steps 31-60 and on every sample from step 61).",
             rewards=("brevity",), steps=150,
             args=dict(num_generations=8, loss_type="grpo", beta=0.0, learning_rate=1e-3, logging_steps=4, seed=91),
             source="trainer_state",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU"),
             batch=15),
    Scenario("zero_advantage_category_earned_4x2_cool07_log1", "The category reward alone (1 for any word of the asked "
             "category, task.py's in_category), which the taught model already earns on nearly every sample, four "
             "groups of 2 a step sampled at temperature 0.7, a small KL penalty and a learning rate of 3e-4, 80 steps "
             "logged every step: nearly every pair agrees (both right) from the start, so there is next to no "
             "advantage to learn from; the steps are spent for nothing (raw log and samples: the reward 1 on 72 of the "
             "80 steps (0.75-0.875 on the others, one or two samples off the category), the zero-variance share 1 on "
             "the same 72 steps and 0.5-0.75 on the other 8; the gradient norm 0 on the first 13 steps, 0.0005-0.23 on "
             "the later steps where every pair agreed (the KL term alone) and 0.82-4.15 on the 8 that held a "
             "disagreeing pair; the KL 0 on the first 16 steps and at most 0.49 (step 39); entropy 0.32-0.55, a median "
             "of 0.40; the mean length 4.5-6.25 tokens; the answers the taught words of each category, drawn as before "
             "(a duplicate share of 0.11-0.20 over each 20 steps): the policy hardly moved).",
             rewards=("in_category",), steps=80,
             args=dict(num_generations=2, temperature=0.7, beta=0.02, learning_rate=3e-4, seed=93),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.75, run=5, smooth=5)},
             accepted=("REWARD_PLATEAU",), batch=15),
    Scenario("reward_plateau_half_key_rloo_nokl_2x8_temp09_oldkeys_log11", "RLOO without a KL term (beta 0), exact "
             "match graded against a key half of whose words the model can say (task.py's correct_half_key), two "
             "groups of 8 a step sampled at temperature 0.9, a learning rate of 4e-4, 220 steps logged every 11 and "
             "read in TRL 0.14's key set (no zero-variance share, entropy or clipped share): the learnable half is "
             "learnt and its groups come to agree, solved, while the other half's groups agree on 0 from the start; "
             "the reward rises to about half its best and stays there: a plateau below the best that more steps will "
             "not lift (raw log and samples: the reward 0.13 and 0.22 over the first two logs, a first-10-log median "
             "of 0.415 (0.13-0.61), 44-step means of 0.29, 0.46, 0.50, 0.45 and 0.50, 0.32-0.62 over the last 10 logs, "
             "where the learnable half gives 0.5 on average; the zero-variance share, which the doctor is not given, "
             "0.45-0.64 over the first four logs, 44-step means of 0.56, 0.74, 0.83, 0.97 and 0.97, 1 on 3 of the last "
             "5 logs; entropy, not given either, from 0.45 to 0.21-0.30 over the last 10 logs; the gradient norm, "
             "RLOO's advantages not normalised, 12.2 and 15.0 at steps 11 and 33, 0 on 12 of the 20 logs, every one "
             "from 143; the mean length 5.1-6.0 tokens; the animal's, the colour's, the number's and the fruit's "
             "targets learnt ('pig', 'pink', 'four' and 'lemon' on 83 of 144, 73 of 120, 30 of 88 and 20 of 56 "
             "samples over steps 1-44, 97-100 % over 177-220); the other four questions never scoring, their key "
             "words never taught ('finch' for the bird on 44 of 72 samples over 177-220, 'plirs' for the tool on 51 "
             "of 128)).",
             algorithm="rloo", rewards=("correct_half_key",), steps=220,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.9, beta=0.0,
                       learning_rate=4e-4, logging_steps=11, seed=94), source="old_keys",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=15),
    # -- batch 16 --
    # A fourteenth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological): a binary exact-match
    # reward with groups of 2, 3 and 4, partial credit and the judge score with one group of 6; healthy runs with and
    # without a KL term that learn, converge or learn slowly (250 steps at 2e-4), RLOO at temperature 0.8 and 1.1; a
    # grader outage after learning read in TRL 0.14's key set, a KL blow-up with RLOO on the judge score after a
    # warm-up into 2e-3, an entropy collapse under a reward that says nothing with one group of 8 at temperature 0.6, a
    # per-character bonus with groups of 6, a per-word reward on the list questions, a letter proxy gamed against exact
    # match with groups of 3, a list task beyond the model read from trainer_state.json, a reward plateau from a half
    # key; strides 1-6 and 10, temperatures 0.6-1.1, learning rates 2e-4 to 2e-3, seeds 95-108. Each expectation was
    # written from the mechanism before the run was trained (committed first), then checked on the raw log and the
    # recorded completions only, never against the doctor; every run showed what it was written for (the repetition
    # late) and none was re-labelled or left out; the accepted signatures added after training each carry their raw-log
    # numbers. As in batches 9-15, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree
    # by chance on most steps, and when solved.
    # Accepts KL_BLOWUP (not written before training): the KL at most 0.94 to step 104, above 1 on 11 of the 23 logs
    # from 106 (1.03-2.26, 2.26 at step 138), a mean of 1.11 over the last 30 steps. Accepts GRAD_NORM_SPIKE (not
    # written before training): the gradient norm 18.6 at step 138, 15.6 times its median over the run (1.19) and 3.1
    # times the next largest of the last 10 logs (5.98).
    Scenario("healthy_binary_4x2_kl_lr5e4_log2", "Exact match alone, four groups of 2 a step, a KL penalty of 0.04 and "
             "a learning rate of 5e-4, 150 steps logged every 2: a fresh model is right about one time in ten, most "
             "pairs agree (both wrong, later both right), the pairs that disagree carry the signal, and the target "
             "words are learnt question by question: a run that learns (raw log and samples: the reward 0.125 over the "
             "first three logs, a first-10-log median of 0.156 (0.125-0.31), 30-step means of 0.24, 0.50, 0.68, 0.78 "
             "and 0.73, 0.5-0.94 over the last 10 logs; the zero-variance share 0.25-1, a median of 0.75, from the "
             "first log to the last; entropy from 0.47 to 0.18-0.33 over the last 10 logs; the KL 0.0001-0.94 to step "
             "104 and above 1 on 11 of the 23 logs from 106 (2.26 at 138), a mean of 1.11 over the last 30 steps; the "
             "gradient norm at most 6.7 to step 136, 18.6 at 138; the mean length 4.5-7.3 tokens, the clipped share at "
             "most 0.125; the colour's, the fruit's and the tool's targets early ('pink', 'lemon' and 'hammer' on 19 "
             "of 42, 12 of 30 and 15 of 30 samples over steps 1-30), the tree's, the bird's and the drink's over "
             "31-90, the animal's and the number's last ('pig' on 15 of 32 and 'four' on 8 of 24 over 61-90, 39 of 42 "
             "and 12 of 18 over 121-150); every question on its target on 39-97 % of its samples over steps 121-150, "
             "the tool's 'hammer' partly misspelt ('hmmmer')).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, beta=0.04, learning_rate=5e-4, logging_steps=2, seed=95),
             accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=16),
    Scenario("healthy_partial_rloo_2x4_temp08_nosamples_log4", "RLOO with its KL penalty (0.05), partial credit, exact "
             "match (1) beside a word of the asked category (0.3), two groups of 4 a step sampled at temperature 0.8, "
             "a learning rate of 6e-4, 150 steps logged every 4 and read from TRL's trainer_state.json (no samples): "
             "the category is already given, the target words are learnt: a run that learns (raw log and samples, "
             "which the doctor is not given: the reward 0.39 and 0.41 over the first two logs, 30-step means of 0.55, "
             "0.74, 1.03, 0.98 and 1.03 of a possible 1.3, 0.69-1.26 over the last 10 logs; exact match from 0.09-0.16 "
             "over the first four logs to 0.5-0.97 over the last 10, the category share 0.63-1 throughout; the "
             "zero-variance share 0-0.25 over the first 10 logs and 0.63-1 over the last 10; entropy from 0.39 to "
             "0.05-0.12 over the last 10 logs; the KL at most 0.88 to step 128, then 1.2, 1.12 and 1.06 at 132, 136 "
             "and 144; the gradient norm, RLOO's advantages not normalised, 0-107 (107 at step 56), 0 on 6 of the last "
             "10 logs; the mean length 4.9-6.3 tokens; the colour's, the tool's and the tree's targets first ('pink', "
             "'hammer' and 'ash' on 24 of 44, 12 of 40 and 16 of 32 samples over steps 1-30), the drink's and the "
             "fruit's over 31-60, the number's and the bird's over 61-90 ('four' on 32 of 44, 'swan' on 14 of 24); the "
             "animal's never ('pig' once in 124 animal samples, 'dog', 'zebra', 'cat' and 'owl' instead); the tool's "
             "'hammer' turned into 'hamone' on 35 of 36 samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.3), steps=150,
             args=dict(temperature=0.8, learning_rate=6e-4, logging_steps=4, seed=96), source="trainer_state",
             batch=16),
    Scenario("healthy_judge_1x6_kl_log5", "The 0-10 judge score, one group of 6 a step, a KL penalty of 0.05 and a "
             "learning rate of 4e-4, 150 steps logged every 5: the score rises from the category's 7 towards 10 as the "
             "target words are learnt (raw log and samples: the score 6.83 over the first two logs, a first-10-log "
             "median of 6.82 (6.17-7.23), 30-step means of 6.81, 6.79, 6.99, 8.31 and 8.83, 6.33-9.67 over the last 10 "
             "logs (9.67 at the last); the zero-variance share 0-0.8, a median of 0.3; entropy from 0.47 to 0.16-0.34 "
             "over the last 10 logs; the KL at most 0.30 to step 70 and 0.2-0.6 after but for 1.68 at step 90 and 1.2 "
             "at 110 (the score 4.47 and 6.33 there); the gradient norm 0.003-15.3 (15.3 at 110); the mean length "
             "4.3-6.0 tokens, nothing clipped; the answers spread over each category at first ('goose' and 'hawk' on 5 "
             "of 36 bird samples each over steps 1-30), the targets learnt over steps 61-150 ('swan' on 32 of 36, "
             "'hammer' on 43 of 48, 'ash' on 16 of 18, 'four' on 20 of 24, 'lemon' on 12 of 12, 'juice' on 11 of 12 "
             "and 'pink' on 6 of 6 samples over 121-150), the animal's 'pig' on 7 of 24 ('owl' 8)).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=6, num_generations=6, beta=0.05, learning_rate=4e-4,
                       logging_steps=5, seed=97), batch=16),
    Scenario("healthy_nokl_binary_8x3_temp07_oldkeys_log6", "Exact match alone, eight groups of 3 a step sampled at "
             "temperature 0.7, no KL term (beta 0) and a learning rate of 3e-4, 120 steps logged every 6 and read in "
             "TRL 0.14's key set (no zero-variance share, entropy or clipped share): with every question asked three "
             "times a step the target words are learnt and the groups come to agree, solved: a run that converges (raw "
             "log and samples: the reward 0.056 and 0.125 over the first two logs, 0.43 at step 24, 0.76 at 42, 0.92 "
             "at 66 and 0.92-0.99 over the last 10 logs; the zero-variance share, which the doctor is not given, "
             "0.58-0.85 over the first 10 logs and 0.79-0.98 over the last 10, groups solved; entropy, not given "
             "either, from 0.42 to 0.02-0.07 over the last 10 logs; no KL logged; the gradient norm at most 1.78 (step "
             "48), 0 on 8 of the 20 logs (6, 72, 78 and 90-114); the mean length 4.95-5.71 tokens; the fruit's and the "
             "tool's targets first ('lemon' on 38 of 66 and 'hammer' on 40 of 60 samples over steps 1-24), the bird's, "
             "the colour's, the drink's, the tree's and the animal's over 25-48, the number's last ('four' on 73 of "
             "120 over 49-72); every question on its target on 95-100 % of its samples over steps 97-120).",
             rewards=("correct",), steps=120,
             args=dict(per_device_train_batch_size=24, num_generations=3, temperature=0.7, beta=0.0,
                       learning_rate=3e-4, logging_steps=6, seed=98), source="old_keys", batch=16),
    Scenario("healthy_slow_binary_2x4_lr2e4_log10", "Exact match alone, two groups of 4 a step, a KL penalty of 0.02 "
             "and a learning rate of 2e-4, 250 steps logged every 10: a slow learner, the reward rising from about one "
             "in ten over the whole run (raw log and samples: the reward 0.14 and 0.21 over the first two logs, "
             "50-step means of 0.25, 0.49, 0.65, 0.80 and 0.905, 0.68-0.95 over the last 10 logs (0.95 at the last); "
             "the zero-variance share 0.15-0.8, a median of 0.5; entropy from 0.45 to 0.11-0.25 over the last 10 logs; "
             "the KL at most 0.85 (step 140); the gradient norm at most 9.3 (step 110); the mean length 4.9-5.7 "
             "tokens, nothing clipped; the colour's target first ('pink' on 29 of 60 samples over steps 1-50), the "
             "drink's, the bird's, the fruit's and the animal's over 51-150, the tool's and the number's over 101-200, "
             "the tree's last ('ash' on 18 of 60 samples over 151-200, 52 of 60 over 201-250); every question on its "
             "target on 85-95 % of its samples over steps 201-250).",
             rewards=("correct",), steps=250,
             args=dict(beta=0.02, learning_rate=2e-4, logging_steps=10, seed=99), batch=16),
    Scenario("healthy_rloo_binary_3x4_temp11_log3", "RLOO with its KL penalty (0.05), exact match alone, three groups "
             "of 4 a step sampled at temperature 1.1 and a learning rate of 8e-4, 150 steps logged every 3: hot "
             "sampling keeps the groups varied, the target words are learnt: a run that learns (raw log and samples: "
             "the reward 0.083 over the first two logs, a first-10-log median of 0.21 (0.08-0.36), 30-step means of "
             "0.21, 0.50, 0.79, 0.83 and 0.93, 0.86-0.97 over the last 10 logs; the zero-variance share 0-0.22 over "
             "the first 10 logs and 0.56-0.89 over the last 10; entropy 0.43-0.62 over the first 10 logs and 0.06-0.13 "
             "over the last 10; the KL at most 0.89 (step 24), 0.38-0.64 over the last 10 logs; the gradient norm, "
             "RLOO's advantages not normalised, 0-49 (step 24), a median of 6.5; the mean length 4.6-6.5 tokens, the "
             "clipped share at most 0.08; the fruit's target first ('lemon' on 35 of 52 samples over steps 1-30), the "
             "animal's, the drink's, the bird's, the tool's and the number's over 31-90, the colour's over 61-90, the "
             "tree's last ('ash' on 22 of 48 over 91-120, 30 of 36 over 121-150); every question on its target on "
             "83-98 % of its samples over steps 121-150).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=1.1, learning_rate=8e-4, logging_steps=3,
                       seed=100), batch=16),
    Scenario("reward_collapse_outage_partial_4x2_oldkeys_log3", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.3), four groups of 2 a step, a KL penalty of 0.02 and a learning rate of 6e-4, 150 "
             "steps logged every 3 and read in TRL 0.14's key set; from the 90th reward call to the end the grader is "
             "down and every reward comes back 0 (swap to task.py's nothing): the reward learnt falls to nothing and "
             "stays there (raw log and samples: the reward 0.38 and 0.33 over the first two logs (the category 0.96-1, "
             "exact match 0.04-0.08), a first-10-log median of 0.37, 0.80 at step 66 and 0.50-1.01 over steps 66-87 "
             "(exact match 0.29-0.71 there), 0.45 at 90 and 0 on every log from 93 to the end, both components 0, with "
             "the zero-variance share, which the doctor is not given, 1; the gradient norm at most 8.0 (step 66) "
             "before, 0.005-0.76 from 93 (the KL term alone) but for 2.3 at 141; the KL 0.2-0.72 over steps 54-90 and "
             "0.24-0.79 after but for 1.29 at 141; entropy, not given either, 0.46-0.56 to step 63 and 0.12-0.36 from "
             "93; the mean length 4.9-6.1 tokens; the answers still mostly the words learnt before the outage to the "
             "end ('hammer' on 32 of 32 tool samples, 'ash' on 18 of 24, 'pig' on 23 of 34, 'pink' on 18 of 30 over "
             "steps 121-150), the bird's 'eagle', not its target, having taken over from 'swan' over 61-150).",
             weights=(1.0, 0.3), steps=150, swap=(90, 100_000, "nothing"),
             args=dict(num_generations=2, beta=0.02, learning_rate=6e-4, logging_steps=3, seed=101),
             source="old_keys",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.6, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=16),
    # Accepts ENTROPY_COLLAPSE (not written before training): entropy 0.46-0.54 over the first 10 logs and 0.01-0.2 over
    # the last 6 (0.0104 at step 145), under 0.3 x its first-10-log median for 3 logs in a row from 125. Accepts
    # LENGTH_COLLAPSE (not written before training): the mean length 5.1-6.9 tokens to step 55 and 1.6-3.45 over the
    # last 6 logs (1.62 at 150), under half its first-10-log median for 3 logs in a row from 135. Accepts
    # GROUP_MODE_COLLAPSE (not written before training): the groups' duplicate share (samples) 0.21 over steps 1-30,
    # 0.66 over 61-90 and 0.9 over 121-150, one fragment or nothing copied across a group ('n', 'en', '').
    Scenario("kl_blowup_rloo_judge_warmup20_2x4_log5", "RLOO with its KL penalty (0.05) on the 0-10 judge score, two "
             "groups of 4 a step, a 20-step warm-up (constant_with_warmup) into a learning rate too high (2e-3), 150 "
             "steps logged every 5: once the rate is up each update overshoots and the policy runs away from its "
             "reference, the KL well above the 0.1-0.8 of the corpus's healthy runs (raw log and samples: the KL "
             "0.01-0.07 over the first four logs, 0.63 at step 25, 1.35 at 30, 0.93 at 35 and 1.84-9.02 on every log "
             "from 40 (4.06 at 60, 5.03 at 100, 9.02 at 145); the score 6.6 and 7.1 over the first two logs, 5.12 at "
             "25, 3.8 at 40, 1.45-2.98 over 60-95 and 0-1.75 from 100, 0 on 6 of the last 8 logs; the gradient norm, "
             "RLOO's advantages not normalised, 32-253 over the first 11 logs, 381 at 65 and 0-102 from 75; entropy "
             "0.42-0.54 to step 65, 0.17-0.34 over 70-120 and 0.01-0.2 over the last 6 logs; the mean length 5.1-6.9 "
             "tokens to step 55 and 1.6-3.45 over the last 6 logs; the zero-variance share 0-0.3 to step 55 and 0.4-1 "
             "from 75; the answers words at first, broken words from step 31 ('ble', 'pina', 'ucowk') and the empty "
             "answer for the animal (11 of 28 samples over 31-60), then 'en', 'n', 'ng' or nothing for most questions "
             "over 91-150 ('n' on 44 of 44 tool samples and the empty answer on 32 of 32 animal samples over 121-150), "
             "the number's 'seven' kept longest).",
             algorithm="rloo", rewards=("judge",), steps=150,
             args=dict(learning_rate=2e-3, warmup_steps=20, lr_scheduler_type="constant_with_warmup",
                       logging_steps=5, seed=102),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU", "ENTROPY_COLLAPSE", "LENGTH_COLLAPSE", "GROUP_MODE_COLLAPSE"), batch=16),
    Scenario("entropy_collapse_coin_nokl_1x8_temp06_log1", "A reward that says nothing (a fair coin per completion), "
             "one group of 8 a step sampled at temperature 0.6, no KL term and a learning rate of 1.5e-3, 120 steps "
             "logged every step: the advantages are noise, and with no anchor and cool sampling the policy drifts onto "
             "one completion per question while the reward stays at chance: entropy falls far below where it started "
             "(raw log and samples: the reward 0.125-0.875 throughout, its 24-step means 0.47-0.54, the zero-variance "
             "share 0 on every step (a group of 8 agrees by chance one time in 128); entropy 0.41 and 0.36 over the "
             "first two steps, 0.015-0.70 to step 69 (a median of 0.35), 0.08, 0.04 and 0.04 at steps 70-72 and "
             "0.0016-0.43 from 70, a median of 0.03 over steps 73-120, 0.0016-0.15 over the last 10 steps; the "
             "gradient norm 0.2-14.1 to step 70 and below 1e-6 on 26 of the 50 steps from 71; the mean length 4.5-6.6 "
             "tokens over the first 10 steps and 12 (the budget) on every step from 38, the clipped share 1 there; the "
             "answers at temperature 0.6 the taught words at first ('cow' on 21 of 32 animal samples over steps 1-24, "
             "'cocoa' on 18 of 32 drink samples), letter strings that loop from about step 25 ('cccccwwggggg', "
             "'ccccow'), then 'cowowowowowo', 'cwowowowowow' and 'cooooooooooo' for nearly every question from about "
             "step 73).",
             rewards=("coin",), steps=120,
             args=dict(num_generations=8, temperature=0.6, beta=0.0, learning_rate=1.5e-3, seed=103),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, first=5, smooth=3)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "REPETITIVE_COMPLETIONS"), batch=16),
    # Accepts KL_BLOWUP (not written before training): with a KL penalty of 0.01 the policy left its reference as the
    # answers grew, the KL 0.96 at step 30 and 1.22-2.83 on every one of the 24 logs from 35.
    Scenario("length_explosion_char_bonus_2x6_budget24_log5", "A reward paid per character alone (task.py's "
             "length_bonus), two groups of 6 a step, a small KL penalty (0.01), a learning rate of 5e-4 and a 24-token "
             "budget, 150 steps logged every 5: the longest answers keep winning, so the answers grow to the budget "
             "and get cut (raw log and samples: the mean length 5.22 and 5.73 tokens over the first two logs, 6.6 at "
             "step 25, 8.2 at 30, 9.3 at 35, 17.8 at 40, 22.6 at 50 and 23.5-24 (the budget) from 60; the clipped "
             "share 0-0.03 to step 35, 0.4 at 40, 0.63 at 45, 0.8 at 50 and 0.95-1 from 60; the reward 0.53 and 0.59 "
             "over the first two logs, 2.14 at 40 and 2.93-3, its maximum, from 60, with the zero-variance share 0.7-1 "
             "from there; entropy from 0.51 to 0.71-1.06 from step 40; the KL 0.96 at 30 and 1.22-2.83 on every log "
             "from 35; the gradient norm at most 7.8 (step 20), 0.03-1.9 from 60; the answers the longest words of the "
             "category at first ('cherry', 'ownge', 'coffee', 'seven'), words strung together to the budget from about "
             "step 31 ('coffee coffee sode cede '), then strings of fragments for every question ('chery cherry cherry "
             "parn', 'maem cedoll space sssss') and 'seven seven seven seven ' for the number (8 of 78 samples over "
             "steps 91-120)).",
             rewards=("length_bonus",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, max_completion_length=24, beta=0.01,
                       learning_rate=5e-4, logging_steps=5, seed=104),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS",
                       "GRAD_NORM_SPIKE", "REWARD_PLATEAU", "KL_BLOWUP"), batch=16),
    # Written expecting the lists to turn into one word repeated over the run; its raw log and samples show them run to
    # the budget early (the clipped share 0.75 from step 36) but loop on one word only late ('two two two ...' over
    # steps 129-160), so that its onset rule, not mis-written and kept, dates the repetition at step 148 of 160.
    Scenario("repetition_word_count_lists_2x4_budget32_log4", "The list questions with a reward paid per known word "
             "said, repeats included (task.py's word_count), two groups of 4 a step, no KL term, a learning rate of "
             "8e-4 and a 32-token budget, 160 steps logged every 4: saying one short word over and over pays best, so "
             "the lists become one word repeated (raw log and samples: the reward, words said, 2.25 and 2.72 over the "
             "first two logs, 1.56-2.72 over the first 25 logs, 2.4-3.4 over steps 100-140 and 3.7-6.2 over the last 4 "
             "logs; the mean length 15.8 and 17.9 tokens over the first two logs, 28.8 at step 36 and 28.4-32 (the "
             "budget) from there; the clipped share 0.75 at 36, 0.72-1 from there and 0.94-1 over the last 10 logs; "
             "entropy 0.53 and 0.59 over the first two logs, 0.58-0.83 over steps 8-140 and 0.29-0.43 over the last 5 "
             "logs; the zero-variance share 0-0.25; the gradient norm 0.55-3.56; the lists two or three words of the "
             "category at first ('goose heron duck', 'tea cocoa coffee'), longer lists of words and fragments from "
             "about step 33 ('melon applue melon sheep mappe m'), a word said two or three times from about step 65 "
             "('dog dog dog foduc', 'maple maple memonht'), then 'two two two two ...' for most questions over steps "
             "129-160 (11 of 36 drink samples 'two two two two two two two two ', the fruit's and the animal's too): a "
             "repetition that began late, the 10-step mean share of looping lists reaching half only at step 148 of "
             "160).",
             prompts="lists", rewards=("word_count",), steps=160,
             args=dict(max_completion_length=32, beta=0.0, learning_rate=8e-4, logging_steps=4, seed=105),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.5, smooth=10, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=16),
    Scenario("reward_hacking_letter_o_exact_4x3_temp09_log2", "Exact match (1) beside a cheap proxy, the share of the "
             "letter o (weight 3, task.py's letter_o), so that a string of o's (3) pays more than the target word, "
             "four groups of 3 a step sampled at temperature 0.9, no KL term and a learning rate of 8e-4, 150 steps "
             "logged every 2: the policy games the proxy and exact match falls as the o's rise (raw log and samples: "
             "exact match a first-10-log median of 0.17 (0-0.42), 0.04-0.67 to step 48, 0 at 50-52, 0.125 at 54 and 0 "
             "on every log from 56; the proxy 0.04-0.19 over the first 10 logs, 0.2-0.32 at steps 36-42, 0.46-0.53 at "
             "44-50, 0.71 at 52, 0.84 at 54, 0.98 at 56 and 1, its maximum, from 60 but for 0.997 at 68 and 82; the "
             "reward 3, its maximum, from step 60, the zero-variance share 1 from 60 but for 0.875 at 68 and 82, the "
             "gradient norm 0 on every log from 56 but 82 (0.22); answers with o's by step 30 ('mangoa', 'ongoa'), "
             "'oooooooooooo' on 14-20 of the samples of the colour, the fruit, the number and the animal over steps "
             "31-60, on all samples but two over 61-90 and on every sample from 91, cut at the 12-token budget; the "
             "mean length 5.1-6.8 tokens to step 50 and 12 from 56, the clipped share 1 there; entropy 0.14-0.48 to "
             "step 52, below 0.025 from 56 and about 0.001 from 90).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.9, beta=0.0,
                       learning_rate=8e-4, logging_steps=2, seed=106),
             expect={"REWARD_HACKING": hacked("rewards/correct/mean", "rewards/letter_o/mean", smooth=5, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "REPETITIVE_COMPLETIONS"), batch=16),
    Scenario("zero_advantage_lists_too_hard_4x3_nosamples_log3", "The list questions graded against one exact list, "
             "three given words in a given order (task.py's exact_list), a task beyond the taught model, four groups "
             "of 3 a step, a small KL penalty (0.02), a learning rate of 3e-4 and a 24-token budget, 120 steps logged "
             "every 3 and read from TRL's trainer_state.json (no samples): a fresh list almost never matches, so "
             "nearly every group agrees on 0 from the start and there is nothing to learn from (raw log and samples, "
             "which the doctor is not given: the reward 0 and the zero-variance share 1 on every log, no list ever "
             "matching; the gradient norm and the KL 0 on every log, the policy never moving; entropy 0.52-0.59; the "
             "mean length 13-15.7 tokens, the clipped share at most 0.06; the lists the taught two or three words of "
             "the category to the end ('mouse horse', 'pear mango plum', 'cat owl zebra')).",
             prompts="lists", rewards=("exact_list",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=24, beta=0.02,
                       learning_rate=3e-4, logging_steps=3, seed=107), source="trainer_state",
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=16),
    Scenario("reward_plateau_half_key_4x4_kl_log4", "Exact match graded against a key half of whose words the model "
             "can say (task.py's correct_half_key), four groups of 4 a step, a KL penalty of 0.02 and a learning rate "
             "of 6e-4, 200 steps logged every 4: the learnable half is learnt and its groups come to agree, solved, "
             "while the other half's groups agree on 0 from the start; the reward rises to about half its best and "
             "stays there (raw log and samples: the reward 0.03 and 0.05 over the first two logs, a first-10-log "
             "median of 0.14 (0.03-0.375), 40-step means of 0.17, 0.47, 0.48, 0.525 and 0.48, 0.36-0.64 over the last "
             "10 logs, where the learnable half gives 0.5 on average; the zero-variance share 0.56-0.94 over the first "
             "10 logs and 0.81-1 over the last 10; entropy from 0.47-0.53 to 0.24-0.46 over the last 10 logs; the KL "
             "at most 0.88; the gradient norm at most 11.3 (step 132), below 0.1 on 25 of the 50 logs; the mean length "
             "5.0-6.3 tokens; the fruit's, the colour's, the animal's and the number's targets learnt ('lemon', "
             "'pink', 'pig' and 'four' on 57 of 64, 66 of 72, 98 of 108 and 82 of 96 samples over steps 41-80, 94-97 % "
             "over 161-200); the other four questions never scoring, their key words never taught ('finch' for the "
             "bird, 'pliers' for the tool, 'pine' for the tree, no one answer for the drink)).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=16, beta=0.02, learning_rate=6e-4, logging_steps=4, seed=108),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=16),
    # -- batch 17 --
    # A fifteenth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, 7 healthy and
    # 7 pathological after two re-labels: a binary exact-match reward with groups of 2, 3 and 4, partial credit with
    # groups of 6 and 8, the judge score with RLOO and groups of 6, a letter proxy beside the category with groups of 8;
    # healthy runs with and without a KL term that learn, converge with their groups solved (no KL term, in TRL 0.14's
    # key set, and two groups of 8 at temperature 0.6), learn slowly (240 steps at 1.5e-4 read from
    # trainer_state.json), RLOO on the judge score at temperature 1.1, a letter proxy that steered the answers without
    # costing the category (written as reward hacking, re-labelled healthy from its log); a grader outage after
    # learning with RLOO at temperature 0.5 read from trainer_state.json, a KL blow-up from a learning rate too high
    # (3e-3) with the original GRPO loss, a length explosion under a reward that says nothing with groups of 4 (written
    # as an entropy collapse, re-labelled from its log), a per-character bonus beside exact match with groups of 2 in
    # TRL 0.14's key set, a keyword-count reward on the list questions logged every step, a brevity reward that outpays
    # exact match in TRL 0.14's key set, a reward plateau from a half key with groups of 6; strides 1-10 and 12,
    # temperatures 0.5-1.3, learning rates 1.5e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 109-122. Each
    # expectation was written from the mechanism before the run was trained (committed first), then checked on the raw
    # log and the recorded completions only, never against the doctor; the two runs that did not show what they were
    # written for were re-labelled and renamed for what their logs show (each retrained under its new name: its raw log
    # and samples repeat exactly), none was left out; the accepted signatures added after training each carry their
    # raw-log numbers. As in batches 9-16, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups
    # agree by chance on most steps, and when solved.
    Scenario("healthy_binary_6x2_kl_lr5e4_log2", "Exact match alone, six groups of 2 a step, a KL penalty of 0.04 and "
             "a learning rate of 5e-4, 150 steps logged every 2: a fresh model is right about one time in ten, most "
             "pairs agree (both wrong, later both right), the pairs that disagree carry the signal, and the target "
             "words are learnt question by question: a run that learns (raw log and samples: the reward 0.04 and 0.17 "
             "over the first two logs, a first-10-log median of 0.17 (0.04-0.29), 30-step means of 0.19, 0.54, 0.61, "
             "0.67 and 0.75, 0.54-0.96 over the last 10 logs; the zero-variance share 0.5-1, a median of 0.75, from "
             "the first log to the last; entropy from 0.47 to 0.11-0.27 over the last 10 logs; the KL at most 0.89 to "
             "step 92, above 1 on 4 of the 75 logs after (1.08 at 94, 1.02 at 102, 1.21 at 108, 1.28 at 140), "
             "30-step means of 0.06, 0.31, 0.46, 0.77 and 0.67; the gradient norm at most 4.1 (step 116); the mean "
             "length 4.5-6.6 tokens, the clipped share at most 0.08; the fruit's and the tool's targets first "
             "('lemon' and 'hammer' on 29 of 56 and 17 of 58 samples over steps 1-30), the tree's, the drink's and "
             "the colour's over 31-60 (36 of 38, 33 of 42 and 24 of 48), the number's and the animal's over 61-90 "
             "(19 of 42 and 22 of 46), the bird's last ('swan' on 18 of 40 over 91-120, 35 of 40 over 121-150); the "
             "colour's 'pink' lost to 'pin' from step 91 (0 of 92 on target over 91-150, 'pin' on 51), every other "
             "question on its target on 70-95 % of its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=2, beta=0.04, learning_rate=5e-4,
                       logging_steps=2, seed=109), batch=17),
    # Accepts KL_BLOWUP (not written before training): the KL 10.9 at step 58 (2.56 at 61), above 1 on 16 of the 120
    # steps from step 37 (1.29), a median of 0.46 over steps 31-120.
    Scenario("healthy_drgrpo_binary_2x4_temp09_log1", "Exact match alone, two groups of 4 a step sampled at "
             "temperature 0.9, the Dr. GRPO loss, a KL penalty of 0.03 and a learning rate of 6e-4, 120 steps logged "
             "every step: a group of 4 holds a right answer about one time in three at first, and the target words "
             "are learnt: a run that learns (raw log and samples: the reward 0.25 and 0 over the first two steps, a "
             "first-10-step median of 0.125 (0-0.375), 30-step means of 0.34, 0.69, 0.79 and 0.88, 0.5-1 over the "
             "last 10 steps; the zero-variance share 0, 0.5 or 1 (two groups), a median of 0.5, its 30-step means "
             "0.45, 0.35, 0.53 and 0.70; entropy from 0.43 to 30-step means of 0.29, 0.24 and 0.14; the KL 0-0.68 "
             "over the first 30 steps, 10.9 at step 58 (2.56 at 61) and above 1 on 16 of the 120 steps, a median of "
             "0.46 over steps 31-120; the gradient norm at most 7.7 (step 58), below 0.01 on 27 steps (both groups "
             "agreeing); the mean length 3.9-7.9 tokens, the clipped share at most 0.125; the colour's target first "
             "('pink' on 37 of 48 samples over steps 1-30), the fruit's, the bird's, the number's, the animal's and "
             "the tree's over 1-60 (21 of 28, 17 of 24, 17 of 24 and 20 of 36 over 31-60 for the last four), the "
             "drink's and the tool's last ('juice' on 22 of 32 over 61-90, 'hammer' on 14 of 24); every question on "
             "its target on 63-97 % of its samples over steps 91-120, the number's the least (15 of 24)).",
             rewards=("correct",), steps=120,
             args=dict(temperature=0.9, loss_type="dr_grpo", beta=0.03, learning_rate=6e-4, seed=110),
             accepted=("KL_BLOWUP",), batch=17),
    Scenario("healthy_nokl_binary_4x4_temp08_oldkeys_log6", "Exact match alone, four groups of 4 a step sampled at "
             "temperature 0.8, no KL term (beta 0) and a learning rate of 4e-4, 150 steps logged every 6 and read in "
             "TRL 0.14's key set (no zero-variance share, entropy or clipped share): with every question asked twice "
             "a step the target words are learnt and the groups come to agree, solved: a run that converges (raw log "
             "and samples: the reward 0.05 and 0.14 over the first two logs, 0.56 at step 36, 0.86 at 54, 0.85-0.99 "
             "over steps 66-114 and 0.76-0.96 over the last six logs (the drink's answer deforming), 30-step means "
             "of 0.21, 0.72, 0.93, 0.94 and 0.86; the zero-variance share, which the doctor is not given, 0.29-0.79 "
             "over the first 10 logs and 0.79-1 over the last 10, groups solved; entropy, not given either, from 0.42 "
             "to 0.04-0.11 over the last 10 logs; no KL logged; the gradient norm (the logged step's) at most 5.8 "
             "(step 42) and 0 on every log from 84, each logged step's groups all agreeing; the mean length 4.8-6.2 "
             "tokens; the bird's, the tool's, the fruit's and the colour's targets first (21 of 60, 22 of 64, 17 of "
             "52 and 15 of 48 samples over steps 1-30), the tree's, the animal's and the number's over 31-60 (74 of "
             "92, 41 of 60 and 28 of 48), the drink's last ('juice' on 8 of 60 over 31-60, 34 of 44 over 61-90); "
             "every question but the drink on its target on 94-100 % of its samples over steps 121-150, the drink's "
             "'juice' (43 of 60 over 91-120) deformed to 'juicee', 'juiceeen' and 'juicee juice' (0 of 60 on target "
             "over 121-150)).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=16, temperature=0.8, beta=0.0, learning_rate=4e-4,
                       logging_steps=6, seed=111), source="old_keys", batch=17),
    Scenario("healthy_slow_binary_3x4_lr15e5_nosamples_log12", "Exact match alone, three groups of 4 a step, a KL "
             "penalty of 0.02 and a learning rate of 1.5e-4, 240 steps logged every 12 and read from TRL's "
             "trainer_state.json (no samples): a slow learner, the reward rising from about one in ten over the whole "
             "run (raw log and samples, which the doctor is not given: the reward 0.08 and 0.14 over the first two "
             "logs, 48-step means of 0.18, 0.41, 0.70, 0.875 and 0.92, 0.69-0.96 over the last 10 logs (0.96 at the "
             "last); the zero-variance share 0.22-0.83, a median of 0.5, 0.22-0.36 over steps 72-132 while the groups "
             "were most split; entropy 0.45-0.48 to step 72 and 0.10-0.26 over the last 10 logs; the KL at most 0.82 "
             "(step 192); the gradient norm at most 8.3 (step 108); the mean length 4.9-5.7 tokens, the clipped share "
             "at most 0.014; the colour's and the tool's targets first ('pink' and 'hammer' on 30 of 64 and 29 of 76 "
             "samples over steps 1-48), the fruit's over 49-96 (61 of 80), the bird's, the number's, the animal's, the "
             "tree's and the drink's over 97-192 ('swan' on 62 of 80 over 97-144, 'pig' on 111 of 120 and 'juice' on "
             "48 of 72 over 145-192); every question on its target on 83-98 % of its samples over steps 193-240, the "
             "tool's the least (73 of 88)).",
             rewards=("correct",), steps=240,
             args=dict(per_device_train_batch_size=12, beta=0.02, learning_rate=1.5e-4, logging_steps=12, seed=112),
             source="trainer_state", batch=17),
    # Accepts REWARD_PLATEAU (not written before training): the score's 30-step means 7.73, 7.97 and 7.94 over the last
    # 90 steps, three questions' targets never found ('four' on 1 of 30, 'hammer' on 5 of 42 and 'ash' on 1 of 84
    # samples over steps 121-150), while the drink's was still being learnt.
    Scenario("healthy_rloo_judge_2x6_temp11_log3", "RLOO with its KL penalty (0.05) on the 0-10 judge score, two "
             "groups of 6 a step sampled at temperature 1.1 and a learning rate of 3e-4, 150 steps logged every 3: "
             "the category is already given, the score rises from about 7 towards 10 as the target words are learnt "
             "(raw log and samples: the score 6.5 and 6.39 over the first two logs, a first-10-log median of 6.61 "
             "(6.17-7.67), 30-step means of 6.75, 7.11, 7.73, 7.97 and 7.94, 6.64-9.14 over the last 10 logs with the "
             "questions asked; the zero-variance share 0-0.5, a median of 0, hot groups of 6 seldom agreeing; entropy "
             "0.48-0.55 over the first 10 logs and 0.16-0.45 over the last 10; the KL at most 0.455 (step 147); the "
             "gradient norm, RLOO's advantages not normalised on a 0-10 score, a median of 71, 305 at step 3 and "
             "0-198 after; the mean length 4.7-5.9 tokens, nothing cut but on one log (0.03); the colour's target "
             "first ('pink' on 43 of 66 samples over steps 31-60), the bird's and the animal's over 61-90 (31 of 42 "
             "and 41 of 72), the fruit's over 61-120 (28 of 30 over 91-120), the drink's slowly ('juice' on 5 of 24, "
             "13 of 54 and 30 of 48 over 61-90, 91-120 and 121-150); the number's, the tool's and the tree's targets "
             "never found ('four' on 1 of 30, 'hammer' on 5 of 42 and 'ash' on 1 of 84 over steps 121-150), their "
             "answers still varied words of the category ('palm', 'pine', 'spade', 'pliers', 'seven')).",
             algorithm="rloo", rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, learning_rate=3e-4,
                       logging_steps=3, seed=113),
             accepted=("REWARD_PLATEAU",), batch=17),
    Scenario("healthy_nokl_grpo_loss_partial_2x8_cool06_log7", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.2), two groups of 8 a step sampled at temperature 0.6, the original GRPO loss, no KL "
             "term (beta 0) and a learning rate of 3e-4, 140 steps logged every 7: the category is already given, "
             "the target words are learnt and the groups come to agree, solved: a run that converges (raw log and "
             "samples: the reward 0.37 and 0.43 over the first two logs, 1.05 at step 70 and 1.06-1.19 of a possible "
             "1.2 over the last 10 logs; exact match from 0.17 and 0.23 to 0.86-0.99 over the last 10 logs, the "
             "category share 0.85-1 throughout; the zero-variance share 0 on every log: TRL's test (isclose to 0) "
             "misses a group of eight at 1.2, whose float32 standard deviation is 1.3e-7, and gives its completions "
             "advantages of about 0.001, while the samples show 174 of the 280 groups all one reward, 63 of the 70 "
             "over steps 106-140 (reward_std 0.04-0.18 over the last 10 logs); entropy from 0.36 to 0.02-0.10 over "
             "the last 10 logs; no KL logged; the gradient norm at most 7.3 (step 21), below 0.001 on 10 of the 13 "
             "logs from step 56; the mean length 5.0-5.8 tokens; the tool's, the fruit's and the drink's targets "
             "first ('hammer', 'lemon' and 'juice' on 76 of 104, 47 of 88 and 41 of 72 samples over steps 1-35), the "
             "bird's, the colour's and the number's over 36-70 (68 of 80, 65 of 80 and 88 of 96), the tree's and the "
             "animal's last ('ash' on 1 of 48 and 'pig' on 9 of 88 over 36-70, 33 of 48 and 50 of 64 over 71-105); "
             "every question on its target on 95-100 % of its samples over steps 106-140).",
             weights=(1.0, 0.2), steps=140,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.6, loss_type="grpo", beta=0.0,
                       learning_rate=3e-4, logging_steps=7, seed=114), batch=17),
    # Written as reward_hacking_letter_o_category_bnpo_2x8_hot13_nosamples_log5, expecting the policy to game the
    # o-share proxy against the category (REWARD_HACKING); its raw log, read before the doctor, shows no such thing: the
    # category share held at 0.74-0.99 (30-step means 0.82, 0.80, 0.85, 0.87 and 0.89) while the proxy rose from
    # 0.08-0.12 over the first five logs to 0.20-0.29 over the last 10, the policy choosing the category's words that
    # hold an o ('cocoa', 'goose', 'one', 'owl', 'oak', 'orange') and never a string of o's, which would have paid 3.
    # Re-labelled and renamed for what its log shows (the same run, retrained under the new name: its raw log and
    # samples repeat exactly): a healthy run that learns the reward it is paid; the label written before training
    # (REWARD_HACKING expected, seven accepted signatures) dropped.
    Scenario("healthy_letter_o_category_bnpo_2x8_hot13_nosamples_log5", "A word of the asked category (1) beside a "
             "cheap proxy, the share of the letter o (weight 3, task.py's letter_o), so that a string of o's (3) "
             "would pay more than any word, two groups of 8 a step sampled at temperature 1.3, the BNPO loss, no KL "
             "term and a learning rate of 5e-4, 150 steps logged every 5 and read from TRL's trainer_state.json (no "
             "samples): the policy keeps to the category and, among its words, comes to prefer those with an o; the "
             "string of o's is never found in 150 steps (raw log and samples, which the doctor is not given: the "
             "reward 1.15 and 1.06 over the first two logs, a first-10-log median of 1.18 (1.02-1.38), 30-step means "
             "of 1.12, 1.37, 1.47, 1.63 and 1.62, 1.50-1.77 over the last 10 logs; the category share 0.74-0.99, "
             "30-step means 0.82, 0.80, 0.85, 0.87 and 0.89; the proxy 0.08-0.12 over the first five logs, 30-step "
             "means 0.10, 0.19, 0.21, 0.25 and 0.24; the zero-variance share 0-0.2 over the first 10 logs and 0.2-0.7 "
             "over the last 10; entropy 0.55-0.68 over the first 10 logs and 0.10-0.26 over the last 10; no KL "
             "logged; the gradient norm at most 8.2 (step 150), 0 on three logs; the mean length 4.4-6.2 tokens, the "
             "clipped share at most 0.0125; varied words of each category at first ('orange' on 16 of 56 colour "
             "samples, 'horse' and 'dog' on 10 of 64 animal samples each over steps 1-30), then a word with o's for "
             "each question: 'cocoa' on 80 of 96 drink samples, 'one' on 77 of 80, 'owl' on 51 of 56, 'orange' on 46 "
             "of 56, 'oak' on 44 of 48, 'goose' on 24 of 24 and 'lemon' on 56 of 72 over steps 121-150, the tool's "
             "answers still varied (no tool word holds an o; 'hammer' on 17 of 48)).",
             rewards=("in_category", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=1.3, loss_type="bnpo", beta=0.0,
                       learning_rate=5e-4, logging_steps=5, seed=120), source="trainer_state", batch=17),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 6 of the 40 logs, all over steps 40-68 (2.23
    # at 44, 1.96 at 52, 1.64 at 64), 0.44-0.78 from 72. Accepts GRAD_NORM_SPIKE (not written before training): the
    # gradient norm, RLOO's advantages not normalised, below 1e-6 on 17 of the 40 logs and 23.7-41.6 on six (41.6 at
    # step 56; 35.3 and 34.2 at 136-140, after the outage, the KL term alone), a median of 0.12.
    Scenario("reward_collapse_outage_rloo_binary_4x3_cool05_nosamples_log4", "RLOO with a KL penalty of 0.02, exact "
             "match alone, four groups of 3 a step sampled at temperature 0.5, a learning rate of 6e-4, 160 steps "
             "logged every 4 and read from TRL's trainer_state.json (no samples); from the 100th reward call to the "
             "end the grader is down and every reward comes back 0 (swap to task.py's nothing): the reward learnt "
             "falls to nothing and stays there (raw log and samples, which the doctor is not given: the reward 0 and "
             "0.23 over the first two logs, a first-10-log median of 0.30 (0-0.60), 0.85 at step 56 and 0.52-0.96 over "
             "56-96, 0.58 at 100 (the outage's first call the last of that log's four) and 0 on every log from 104 to "
             "the end; the zero-variance share 1 at the first log (no right answer yet), 0-0.56 over steps 8-44, "
             "0.375-0.94 over 48-100 and 0.69-1 from 104 (RLOO shapes the reward with its KL penalty first); the KL "
             "0-0.75 to step 36, 1.12-2.23 over 40-52, 0.44-1.64 over 56-100 and 0.45-0.77 after; the gradient norm "
             "0-41.6, below 1e-6 on 17 of the 40 logs; entropy from 0.40 to 0.009-0.094 from step 64; the mean length "
             "4.75-5.9 tokens, nothing cut; the colour's, the fruit's and the tool's targets first ('pink', 'lemon' "
             "and 'hammer' on 40 of 60, 15 of 24 and 19 of 36 samples over steps 1-30), the drink's, the number's and "
             "the tree's over 31-60 (44 of 48, 47 of 48 and 37 of 57), the bird's after 'uck' (53 of 54 over 31-60) "
             "and 'crow' ('swan' on 35 of 48 over 91-120), the animal's never ('horse' on 46 of 48 over 61-90); after "
             "the outage the answers still the words learnt ('pink' 45 of 45, 'juice' 54 of 54, 'lemon' 66 of 66, "
             "'ash' 52 of 54 over steps 121-150), the bird's 'swan' giving way to 'finch' (21 of 30) and the tool's "
             "'hammer' in part (13 of 24)).",
             algorithm="rloo", rewards=("correct",), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.5, beta=0.02,
                       learning_rate=6e-4, logging_steps=4, seed=115), source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=17),
    Scenario("kl_blowup_grpo_loss_partial_lr3e3_2x6_log7", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.3), two groups of 6 a step, the original GRPO loss, a KL penalty of 0.04 and a "
             "learning rate far too high (3e-3) from the first step, 140 steps logged every 7: each update overshoots "
             "and the policy runs away from its reference, the KL well above the 0.1-0.8 of the corpus's healthy "
             "runs (raw log and samples: the KL 1.73 at the first log (step 7), 4.11 at 14, 2.4-3.6 over 21-56 and "
             "4.0-4.9 on every later log but 8.44 at 91; the reward 0.28 at step 7 (the category 0.52, exact match "
             "0.12), 0.12 at 14, 0.04-0.19 over 21-42 and 0-0.054 from 49 (0 on 6 of the 14 logs), the category share "
             "0-0.18 there; the zero-variance share 0.14 at step 7, 0.5-0.79 over 14-42 and 0.79-1 from 49; entropy "
             "0.62 and 0.61 over the first two logs, 0.44-0.79 to step 70 and 0.90-1.29 from 77; the gradient norm "
             "71.4 at step 7, 9.8 at 14 and 0.07-5.0 after; the mean length 3.9-7.8 tokens, the clipped share at most "
             "0.2; the answers words over the first four steps ('juice', 'cedar', 'pink', 'saw'), broken words from "
             "step 5 ('dufnch', 'elchiammerse', 'dognese'), 'iiiersseiers' for the bird over steps 11-14, fragments "
             "over 36-70 ('speee', 'wheete', 'swrui') and over 71-140 ('c', 'pe', 'wh', and 'saw' on 29 of 60 tool "
             "and 27 of 84 colour samples over 106-140), the drink's 'juice' kept longest (20 of 54 over steps 1-35, "
             "12 of 60 over 36-70, 0 after); hardly two alike in a group (a duplicate share of 0.15-0.29)).",
             weights=(1.0, 0.3), steps=140,
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="grpo", beta=0.04,
                       learning_rate=3e-3, logging_steps=7, seed=116),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU"), batch=17),
    # Written as entropy_collapse_coin_nokl_4x4_temp07_log3, expecting entropy to fall below 0.3 x its start
    # (ENTROPY_COLLAPSE); its raw log, read before the doctor, shows it halve and no more: 0.405-0.431 over the first
    # three logs, 0.149 at step 18 and 0.074-0.47 after (15-step means 0.16-0.28), never below 0.125 (0.3 x its
    # first-3-log median) on three logs in a row, its rule dating nothing. What it shows instead: the answers, one
    # letter looped, run to the 12-token budget from step 18 and are all cut to the end. Re-labelled and renamed for
    # what its log shows (the same run, retrained under the new name: its raw log and samples repeat exactly), as batch
    # 11's length_explosion_coin_2x4_log5 was: a length explosion and its truncation under a reward that says nothing.
    # Accepts ENTROPY_COLLAPSE (written before training as the expectation, now accepted): entropy halved, from a
    # first-3-log median of 0.417 to 15-step means of 0.16-0.28 from step 16. Accepts GROUP_MODE_COLLAPSE and
    # REPETITIVE_COMPLETIONS (both accepted before training): 70-85 % of the completions of each 15 steps from step 16
    # one letter for two thirds of the string or more (3 % over steps 1-15), a group's completions often copies (a
    # duplicate share of 0.47-0.57 over each 15 steps from step 16; 'kkkkkkkkkkkk' on 32 of 32 animal samples over
    # 46-60).
    Scenario("length_explosion_coin_nokl_4x4_temp07_log3", "A reward that says nothing (a fair coin per completion), "
             "four groups of 4 a step sampled at temperature 0.7, no KL term and a learning rate of 1.5e-3, 120 steps "
             "logged every 3: the advantages are noise, and with no anchor each update moves the policy at random; "
             "the answers break into one letter looped to the budget (raw log and samples: the mean length 5.44 and "
             "5.38 tokens over the first two logs, 4.75 at step 12, 6.2 at 15, 10.6 at 18 and 11.56-12 (the budget) "
             "on every log from 21; the clipped share 0 to step 12, 0.15 at 15, 0.77 at 18, 0.94-1 from 21 and 1 on "
             "every log from 78; the reward 0.35-0.65 throughout, its 15-step means 0.49-0.54, the zero-variance "
             "share 0-0.42, a median of 0.08; entropy 0.405, 0.418 and 0.431 over the first three logs, 0.26 at step "
             "15, 0.15 at 18 and 0.074-0.47 after, its 15-step means 0.16-0.28; the gradient norm 0.26-7.6 (7.6 at "
             "step 9); at temperature 0.7 the taught words and fragments at first ('eight', 'cow', 'pee', 'ora'), "
             "one letter looped to the budget from about step 16 ('eeeeeeeeeeee' on 28 of 28 number samples over "
             "16-30, 'peeeeeeeeeee', 'zeeeeeeeeeee'), then 'kkkkkkkkkkkk', 'gggggggggggg' and 'tgttttgttttt' "
             "('kkkkkkkkkkkk' on 32 of 32 animal samples over 46-60, 'gggggggggggg' on 24 of 24 over 91-105); 70-85 % "
             "of the completions of each 15 steps from step 16 one letter for two thirds of the string or more).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=16, temperature=0.7, beta=0.0, learning_rate=1.5e-3,
                       logging_steps=3, seed=117),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS"), batch=17),
    Scenario("length_explosion_char_bonus_exact_6x2_hot12_oldkeys_log8", "Exact match (1) beside a bonus paid per "
             "character (1, task.py's length_bonus: 20 characters pay 2.5, more than the target word), six groups of "
             "2 a step sampled at temperature 1.2, no KL term, a learning rate of 8e-4 and a 20-token budget, 150 "
             "steps logged every 8 and read in TRL 0.14's key set (no clipped share): the longer answer of a pair "
             "keeps winning, so the answers grow to the budget (raw log and samples: the mean length 5.55 and 6.29 "
             "tokens over the first two logs, 9.3 at step 24, 15.8 at 32, 19.5 at 40 and 19.9-20 (the budget) from "
             "48; the clipped share, which the doctor is not given, 0-0.01 to step 16, 0.125 at 24, 0.55 at 32, 0.93 "
             "at 40 and 0.99-1 from 48; the reward 0.60 and 0.78 over the first two logs, 1.97 at 32 and 2.42-2.5, "
             "its maximum with exact match lost, from 40; exact match 0.03-0.11 over the first four logs and 0 from "
             "40; the zero-variance share, not given either, 0.21-0.375 to step 32, 0.83 at 40 and 0.96-1 from 48; "
             "entropy, not given either, 0.54 at step 8, 0.91-1.01 over 32-80 and 0.54-0.74 from 96; no KL logged; "
             "the gradient norm at most 4.7 (step 16) and 0 on 12 of the 14 logs from 40; words at first ('pink' on "
             "14 of 54 colour samples, 'seven' and 'eight' on 12 of 56 number samples each over steps 1-30), strings "
             "of fragments to the budget from about step 31 ('baynapachngrayngrayn', 'cowngnynynynr padnyn'), ending "
             "in 'nyny' loops ('pinynynynynynynynyny' on 7 of 44 colour samples over 91-120), no two alike in a pair "
             "(a duplicate share of 0-0.02 from step 31)).",
             rewards=("correct", "length_bonus"), weights=(1.0, 1.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=2, max_completion_length=20, temperature=1.2,
                       beta=0.0, learning_rate=8e-4, logging_steps=8, seed=118), source="old_keys",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2)},
             accepted=("REWARD_HACKING", "TRUNCATION_HIGH", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU",
                       "GRAD_NORM_SPIKE"), batch=17),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 40.2 at step 59, 27 times its median over
    # the run (1.47) and ten times the next largest (4.07 at step 45), where the KL reached 35.7.
    Scenario("repetition_target_mentions_lists_4x3_temp11_log1", "The list questions with a keyword-count reward, how "
             "many times the list names the question's target word (task.py's target_mentions), four groups of 3 a "
             "step sampled at temperature 1.1, a small KL penalty (0.01), a learning rate of 8e-4 and a 24-token "
             "budget, 120 steps logged every step: naming the target over and over pays most, so the lists become the "
             "target word repeated (raw log and samples: the reward, mentions of the target, 0.08 and 0.17 over the "
             "first two steps, a first-10-step median of 0.17, 30-step means of 0.39, 0.83, 1.38 and 1.78; the mean "
             "length 12.6 and 13.8 tokens over the first two steps, 30-step means of 16.3-17.8, the clipped share's "
             "0.06-0.17; entropy's 30-step means 0.69, 0.69, 0.52 and 0.36; the KL's 0.62, 2.43, 1.34 and 1.14, above "
             "1 on 70 of the 120 steps from step 17, 35.7 at step 59; the gradient norm a median of 1.47, 40.2 at "
             "step 59; the zero-variance share's 30-step means 0.44-0.49; the lists two or three words of the "
             "category at first ('red orange', 'mango banana cherry'), the drink's and the fruit's targets said "
             "twice or thrice early ('juice juice juice' on 6 of 57 drink samples over steps 1-30), then over steps "
             "91-120 'lemon lemon lemon' on 40 of 51 fruit samples, 'pink pink pink' on 30 of 39 colour samples, "
             "'juice juice juice juice ' on 21 of 42 drink samples, 'four four four' and 'hammer hammer hamm', while "
             "the animal's and the bird's lists turned to fragments that never name the target ('shak mouse sh "
             "mon'); the share of lists that repeat a word (3+ words, at most half distinct) 0-0.05 over each 10 "
             "steps to step 30, 0.08-0.13 over 31-60, 0.20-0.29 over 61-90 and 0.19-0.41 over 91-120, its 10-step "
             "mean reaching 30 % at step 99 of 120).",
             prompts="lists", rewards=("target_mentions",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=24, temperature=1.1,
                       beta=0.01, learning_rate=8e-4, seed=119),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "GRAD_NORM_SPIKE"), batch=17),
    # Accepts REWARD_HACKING (not written before training): exact match 0.185, 0.22 and 0.185 over the first three logs
    # and 0 on every log from step 45 while the brevity reward rose from -0.54 to 0, its maximum: the empty answer
    # outpays the target words; hacked's rule reads exact match's first-10-log median, 0, and dates nothing.
    Scenario("length_collapse_brevity_exact_drgrpo_3x4_oldkeys_log9", "Exact match (0.25) beside a reward for brevity "
             "(1, -1/8 a character), so that the empty answer (0) pays more than any target word, three groups of 4 a "
             "step sampled at temperature 0.9, the Dr. GRPO loss, no KL term and a learning rate of 1e-3, 150 steps "
             "logged every 9 and read in TRL 0.14's key set: the shortest answers keep winning until the "
             "end-of-sequence token comes first: the answers shrink towards nothing (raw log and samples: the mean "
             "length 5.35 and 5.12 tokens over the first two logs, 3.80 at step 27, 2.70 at 36, 1.46 at 45, 1.16 at "
             "54, 1.01-1.11 at 63-72 and 1 (the end-of-sequence token alone) on every log from 81; the reward -0.50 "
             "and -0.46 over the first two logs, -0.06 at step 45 and 0, its maximum, from 81; exact match 0.185, "
             "0.22 and 0.185 over the first three logs, 0.08 at 36 and 0 from 45; the zero-variance share, which the "
             "doctor is not given, 0.11 and 0.15 over the first two logs, 0.89 at 45 and 0.96-1 from 54; entropy, not "
             "given either, 0.45-0.47 to step 27, 0.39 at 36, 0.10 at 45, below 0.035 from 54 and 0.0005-0.0007 from "
             "81; the gradient norm 0.8-2.1 to step 36, 1.4 at 54 and 0 on the other 11 logs from 45; the target "
             "words and short words at first ('lemon' on 27 of 52 fruit samples and 'axe' on 29 of 68 tool samples "
             "over steps 1-30, 'e' for the number on 19 of 44, the empty answer on 16 of the 360), the empty answer "
             "on 247 of the 360 samples over steps 31-60 ('l', 'aw', 'a', 'pin' the rest) and on 1,079 of the 1,080 "
             "from step 61).",
             rewards=("correct", "brevity"), weights=(0.25, 1.0), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.9, loss_type="dr_grpo", beta=0.0,
                       learning_rate=1e-3, logging_steps=9, seed=121), source="old_keys",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "REWARD_HACKING"), batch=17),
    Scenario("reward_plateau_half_key_2x6_log10", "Exact match graded against a key half of whose words the model can "
             "say (task.py's correct_half_key), two groups of 6 a step, a KL penalty of 0.03 and a learning rate of "
             "6e-4, 200 steps logged every 10: the learnable half is learnt and its groups come to agree, solved, "
             "while the other half's groups agree on 0 from the start; the reward rises to about half its best and "
             "stays there (raw log and samples: the reward 0.05 and 0.09 over the first two logs, a first-10-log "
             "median of 0.21 (0.05-0.52), 40-step means of 0.16, 0.29, 0.385, 0.44 and 0.43, 0.40-0.53 over the last "
             "10 logs, where the learnable half gives 0.5 on average; the zero-variance share 0.5-0.95 over the first "
             "10 logs and 0.8-1 over the last 10; entropy from 0.45-0.51 to 0.24-0.35 over the last 10 logs; the KL "
             "at most 0.63 but for 3.91 at step 60 (one log); the gradient norm at most 7.1 (step 110), a median of "
             "0.12; the mean length 5.0-5.7 tokens, nothing cut; the colour's and the number's targets first ('pink' "
             "and 'four' on 23 of 54 and 38 of 72 samples over steps 1-40), the fruit's and the animal's over 41-80 "
             "(35 of 48 and 49 of 54), the colour's 'pink' confused with 'piers' over 41-80 (40 of 78) and back over "
             "81-120 (33 of 36); those four on their targets on 90-98 % of their samples over steps 161-200; the other "
             "four questions never scoring, their key words never taught ('finch' and 'raven' for the bird, 'pliers' "
             "for the tool, 'pine' for the tree, 'wine' and 'tea' for the drink)).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=12, num_generations=6, beta=0.03, learning_rate=6e-4,
                       logging_steps=10, seed=122),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=17),
    # -- batch 18 --
    # A sixteenth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, one
    # re-labelled: a binary exact-match reward with groups of 2, 4, 5 and 6, partial credit with RLOO and groups of 8,
    # the judge score with groups of 3; healthy runs with and without a KL term that learn (five groups of 2 with the
    # original GRPO loss, two groups of 4 at temperature 1.1 in TRL 0.14's key set), learn until most groups agree
    # without a KL term (three groups of 5 at temperature 0.8 read from trainer_state.json, the bird's answer lost to
    # letter strings), learn slowly (250 steps at 1.5e-4 with BNPO and groups of 6 in TRL 0.14's key set), the judge
    # score with Dr. GRPO at temperature 1.2, RLOO with partial credit at temperature 0.6 that solves seven questions of
    # eight; an answer key joined off by one after learning with groups of 5 in TRL 0.14's key set, a KL blow-up after a
    # warm-up into 3e-3 with groups of 4 read from trainer_state.json, an entropy collapse under a reward that says
    # nothing with RLOO and groups of 6 at temperature 0.5, a per-character bonus beside the category with BNPO at
    # temperature 1.3, a keyword-count reward on the list questions with Dr. GRPO and groups of 5, a letter proxy gamed
    # against exact match with eight groups of 2, a reward plateau from a half key with groups of 3 read from
    # trainer_state.json, an entropy collapse onto the shortest word of each category under a brevity reward beside the
    # category (written as a length collapse, re-labelled from its log); strides 1-10, temperatures 0.5-1.3, learning
    # rates 1.5e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 123-136. Each expectation was written from
    # the mechanism before the run was trained (committed first), then checked on the raw log and the recorded
    # completions only, never against the doctor; the one run that did not show what it was written for was re-labelled
    # and renamed for what its log shows (retrained under its new name: its raw log and samples repeat exactly), none
    # was left out; the accepted signatures added after training each carry their raw-log numbers. As in batches 9-17,
    # the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps, and
    # when solved.
    # Accepts REWARD_PLATEAU (not written before training): the reward's 30-step means 0.55, 0.63 and 0.60 over the last
    # 90 steps, the number's and the tree's targets never said (0 of 182 and 0 of 194 samples).
    Scenario("healthy_grpo_loss_binary_5x2_kl_lr6e4_log4", "Exact match alone, five groups of 2 a step, the original "
             "GRPO loss, a KL penalty of 0.04 and a learning rate of 6e-4, 150 steps logged every 4: a fresh model is "
             "right about one time in ten, most pairs agree (both wrong, later both right), the pairs that disagree "
             "carry the signal, and the target words are learnt question by question: a run that learns (raw log and "
             "samples: the reward 0.15 and 0.10 over the first two logs, a first-10-log median of 0.275 (0.075-0.425), "
             "30-step means of 0.23, 0.45, 0.55, 0.63 and 0.60, 0.5-0.75 over the last 10 logs; the zero-variance "
             "share 0.6-1, a median of 0.8, from the first log to the last; entropy from 0.44-0.55 over the first 10 "
             "logs to 0.24-0.38 over the last 10; the KL at most 0.76 but for 2.87 at step 80 (one log), 30-step means "
             "of 0.18, 0.51, 0.74, 0.51 and 0.52; the gradient norm at most 6.2 (step 76), a median of 0.61; the mean "
             "length 4.9-6.05 tokens, the clipped share at most 0.05; the colour's and the animal's targets first "
             "('pink' on 24 of 34 and 'pig' on 19 of 54 samples over steps 1-30), the fruit's, the drink's and the "
             "tool's over 31-90 ('lemon' on 37 of 46 over 31-60, 'juice' on 49 of 54 and 'hammer' on 37 of 44 over "
             "61-90), the bird's last ('swan' on 5 or 6 samples of each 30 steps to step 90, 18 of 42 over 91-120, 25 "
             "of 28 over 121-150); those six on their targets on 74-100 % of their samples over steps 121-150; the "
             "number's 'four' and the tree's 'ash' never said (0 of 182 and 0 of 194 samples), their answers still "
             "varied words of the category).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=2, loss_type="grpo", beta=0.04,
                       learning_rate=6e-4, logging_steps=4, seed=123),
             accepted=("REWARD_PLATEAU",), batch=18),
    Scenario("healthy_binary_2x4_kl_temp11_oldkeys_log5", "Exact match alone, two groups of 4 a step sampled at "
             "temperature 1.1, a KL penalty of 0.04 and a learning rate of 5e-4, 150 steps logged every 5 and read in "
             "TRL 0.14's key set (no zero-variance share, entropy or clipped share): hot sampling keeps the groups "
             "varied, and the target words are learnt: a run that learns (raw log and samples: the reward 0.15 and "
             "0.25 over the first two logs, a first-10-log median of 0.26 (0.025-0.45), 30-step means of 0.17, 0.38, "
             "0.575, 0.79 and 0.89, 0.7-0.95 over the last 10 logs; the zero-variance share, which the doctor is not "
             "given, 0.2-0.9, a median of 0.4; entropy, not given either, 0.51-0.56 over the first 10 logs and "
             "0.15-0.37 over the last 10; the KL at most 0.69 but for 1.83 at step 105 (one log); the gradient norm a "
             "median of 1.95, 9.4, 9.5 and 12 at steps 90, 115 and 120; the mean length 4.85-6.5 tokens, the clipped "
             "share, not given, at most 0.05; the tool's target first ('hammer' on 17 of 36 samples over steps 1-30), "
             "the colour's, the fruit's and the number's over 31-60 ('pink' on 18 of 24, 'lemon' on 15 of 32, 'four' "
             "on 18 of 36), the bird's, the drink's and the tree's over 61-90 ('swan' on 18 of 28, 'juice' on 18 of "
             "32, 'ash' on 17 of 44), the animal's last ('pig' on 6 of 40 over 61-90, 31 of 44 over 91-120); every "
             "question on its target on 63-100 % of its samples over steps 121-150, the bird's the least (15 of 24)).",
             rewards=("correct",), steps=150,
             args=dict(temperature=1.1, beta=0.04, learning_rate=5e-4, logging_steps=5, seed=124), source="old_keys",
             batch=18),
    # Accepts REWARD_PLATEAU (not written before training): the reward 0.53-0.63 on the nine logs over steps 64-128
    # while the zero-variance share was 0.75-0.92, six questions solved, the bird's lost and the tree's and the animal's
    # not yet learnt; it rose again to 0.71-0.79 over the last four logs.
    Scenario("healthy_nokl_binary_3x5_cool08_nosamples_log8", "Exact match alone, three groups of 5 a step sampled at "
             "temperature 0.8, no KL term (beta 0) and a learning rate of 4e-4, 160 steps logged every 8 and read from "
             "TRL's trainer_state.json (no samples): the target words are learnt and the groups come to agree, solved: "
             "a run that converges, its last questions learnt late (raw log and samples, which the doctor is not "
             "given: the reward 0.075 and 0.22 over the first two logs, 0.45 at step 32, 0.725 at 56, 0.53-0.63 on the "
             "nine logs over 64-128 and 0.71-0.79 over the last four (0.79 at the last); the zero-variance share "
             "0.375-0.71 to step 48 and 0.67-0.92 from 56; entropy from 0.41 to 0.14-0.25 over the last 10 logs; no KL "
             "logged; the gradient norm 16.5 at step 56, 0 on five logs, a median of 1.85; the mean length 5.27-6.0 "
             "tokens, the clipped share at most 0.025; the drink's, the fruit's and the tool's targets first ('juice' "
             "on 44 of 80, 'lemon' and 'hammer' on 21 of 45 samples over steps 1-32), the colour's and the number's "
             "over 33-64 ('pink' on 68 of 85, 'four' on 53 of 65), the tree's over 97-160 ('ash' on 26 of 80 over "
             "97-128, 58 of 60 over 129-160), the animal's last ('pig' never to step 96, 15 of 50 over 129-160); the "
             "bird's 'swan' (11 of 95 samples over steps 1-32) lost with no KL term to hold it, to 'uck' and 'juice' "
             "over 33-64 and to letter strings after (61 of 70 bird samples over 129-160 begin 'uuu': 'uuuue', 'uuuk'; "
             "'swan' on 0 of 265 from step 33); the other six questions on their targets on 91-98 % of their samples "
             "over steps 129-160).",
             rewards=("correct",), steps=160,
             args=dict(per_device_train_batch_size=15, num_generations=5, temperature=0.8, beta=0.0,
                       learning_rate=4e-4, logging_steps=8, seed=125), source="trainer_state",
             accepted=("REWARD_PLATEAU",), batch=18),
    Scenario("healthy_slow_bnpo_binary_2x6_lr15e5_oldkeys_log10", "Exact match alone, two groups of 6 a step, the BNPO "
             "loss, a KL penalty of 0.02 and a learning rate of 1.5e-4, 250 steps logged every 10 and read in TRL "
             "0.14's key set: a slow learner, the reward rising from about one in ten over the whole run (raw log and "
             "samples: the reward 0.11 and 0.18 over the first two logs, 50-step means of 0.21, 0.41, 0.635, 0.75 and "
             "0.87, 0.71-0.91 over the last 10 logs (0.91 at the last); the zero-variance share, which the doctor is "
             "not given, 0.05-0.65, a median of 0.4; entropy, not given either, 0.39-0.51 over the first 10 logs and "
             "0.12-0.27 over the last 10; the KL at most 0.54 (step 210); the gradient norm at most 12.5 (step 140), a "
             "median of 2.1; the mean length 5.1-5.9 tokens, the clipped share, not given, at most 0.017; the "
             "colour's, the number's and the tool's targets first ('pink' on 26 of 66, 'four' on 31 of 102, 'hammer' "
             "on 35 of 96 samples over steps 1-50), the bird's and the fruit's over 51-150 ('swan' on 66 of 102, "
             "'lemon' on 43 of 54 over 101-150), the drink's and the animal's over 101-200 ('juice' on 36 of 90 and "
             "'pig' on 43 of 78 over 101-150), the tree's last ('ash' on 4 of 36 over 101-150, 16 of 84 over 151-200, "
             "51 of 78 over 201-250); every question on its target on 65-95 % of its samples over steps 201-250).",
             rewards=("correct",), steps=250,
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="bnpo", beta=0.02,
                       learning_rate=1.5e-4, logging_steps=10, seed=126), source="old_keys", batch=18),
    # Accepts REWARD_PLATEAU (not written before training): the score's 30-step means 7.71 and 7.73 over the last 60
    # steps, the bird's, the drink's and the tree's targets seldom found (5 of 48, 8 of 33 and 9 of 54 samples over
    # steps 121-150), while the number's and the animal's were still being learnt.
    Scenario("healthy_judge_drgrpo_4x3_hot12_log2", "The 0-10 judge score, four groups of 3 a step sampled at "
             "temperature 1.2, the Dr. GRPO loss, a KL penalty of 0.03 and a learning rate of 3e-4, 150 steps logged "
             "every 2: the category is already given, the score rises from about 7 towards 10 as the target words are "
             "learnt, slowly at this temperature (raw log and samples: the score 6.67 and 7.125 over the first two "
             "logs, a first-10-log median of 6.81 (5.21-7.5), 30-step means of 6.56, 6.72, 6.81, 7.71 and 7.73, "
             "7.25-8.67 over the last 10 logs; the zero-variance share 0-0.875, a median of 0.375; entropy 0.50-0.68 "
             "over the first 10 logs and 0.26-0.49 over the last 10; the KL at most 0.31 (step 76); the gradient norm "
             "at most 1.95 (step 52); the mean length 4.75-6.17 tokens, the clipped share 0.04 on two logs and 0 on "
             "the rest; the answers spread over each category at first ('orange' on 16 of 54 colour samples, 'dog' on "
             "13 of 51 animal samples over steps 1-30), the colour's target first ('pink' on 31 of 51 over 31-60), the "
             "fruit's over 31-120 ('lemon' on 38 of 45 over 91-120), the tool's over 61-120 ('hammer' on 30 of 57 over "
             "91-120), the number's and the animal's late ('four' on 15 of 42 and 'pig' on 12 of 36 over 91-120, 31 of "
             "51 and 20 of 51 over 121-150); the bird's, the drink's and the tree's targets seldom found ('swan' on 5 "
             "of 48, 'juice' on 8 of 33, 'ash' on 9 of 54 over 121-150), their answers still varied words of the "
             "category ('heron', 'crow', 'tea', 'pine')).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.2, loss_type="dr_grpo",
                       beta=0.03, learning_rate=3e-4, logging_steps=2, seed=127),
             accepted=("REWARD_PLATEAU",), batch=18),
    # Accepts REWARD_PLATEAU (not written before training): the reward's 30-step means 0.97, 1.05, 1.00 and 1.09 of a
    # possible 1.2 from step 31, exact match 0.65-0.92 over the last 10 logs, the number's target never said (0 of 336
    # samples). Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm, RLOO's advantages not
    # normalised, a median of 0.055, below 0.1 on 14 of the 25 logs and 25-67 on five (67.4 at step 48, 44.2 at 102).
    Scenario("healthy_rloo_partial_2x8_cool06_log6", "RLOO with a KL penalty of 0.03, partial credit, exact match (1) "
             "beside a word of the asked category (0.2), two groups of 8 a step sampled at temperature 0.6 and a "
             "learning rate of 4e-4, 150 steps logged every 6: the category is already given, the target words are "
             "learnt: a run that learns, and converges on seven questions of eight (raw log and samples: the reward "
             "0.27 and 0.48 over the first two logs, 1.08 at step 42, 30-step means of 0.58, 0.97, 1.05, 1.00 and 1.09 "
             "of a possible 1.2, 0.84-1.12 over the last 10 logs; exact match from 0.07 and 0.28 to 0.65-0.92 over the "
             "last 10 logs, the category share 0.95-1 throughout; the zero-variance share 0 over the first two logs "
             "and 0.33-0.92 from step 30; entropy from 0.39 to 0.04-0.15 over the last 10 logs; the KL at most 0.60 "
             "(step 150); the gradient norm, RLOO's advantages not normalised, a median of 0.055, below 0.1 on 14 of "
             "the 25 logs and 25-67 on five (67.4 at step 48); the mean length 4.8-5.9 tokens, nothing cut; the "
             "colour's, the drink's, the fruit's and the animal's targets first ('pink' on 53 of 72, 'juice' on 40 of "
             "72, 'lemon' on 37 of 56 and 'pig' on 27 of 48 samples over steps 1-30), the tree's over 31-60 ('ash' on "
             "74 of 80), the tool's and the bird's over 31-90 ('hammer' on 72 of 72 and 'swan' on 46 of 48 over "
             "61-90); those seven on their targets on 98-100 % of their samples over steps 121-150; the number's "
             "'four' never said (0 of 336 samples), its answers 'eight', 'ten', 'five' and 'one' to the end).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.6, beta=0.03,
                       learning_rate=4e-4, logging_steps=6, seed=128),
             accepted=("REWARD_PLATEAU", "GRAD_NORM_SPIKE"), batch=18),
    Scenario("reward_collapse_key_shifted_after_learning_2x5_temp09_oldkeys_log7", "Exact match alone, two groups of 5 "
             "a step sampled at temperature 0.9, a KL penalty of 0.02 and a learning rate of 6e-4, 170 steps logged "
             "every 7 and read in TRL 0.14's key set; from the 110th reward call to the end the answer key is joined "
             "to the questions off by one (swap to task.py's correct_shifted: each question graded against the next "
             "one's target, a word of another category): the reward learnt falls to nothing and stays there (raw log "
             "and samples: the reward 0.2 and 0.086 over the first two logs, a first-10-log median of 0.46 "
             "(0.086-0.79), 0.69 at step 56, 0.70-0.89 over 63-105 (0.89 at 105), 0.39 at 112 (the log of steps "
             "106-112, the swap at 110) and 0 on every log from 119 to the end; the zero-variance share, which the "
             "doctor is not given, 0.14-0.71 to step 70, 0.71-0.86 over 77-105, 0.93 at 112 and 1 from 119; the "
             "gradient norm at most 16.1 (step 105) before the swap, below 0.005 on three logs over 77-98, and "
             "0.0003-0.48 from 112 (the KL term alone); the KL 0.06-0.89, 0.24-0.74 from 119; entropy, not given "
             "either, 0.47 over the first two logs, 0.11-0.20 over 84-112 and 0.09-0.26 from 119; the mean length "
             "4.9-6.1 tokens; the fruit's and the tree's targets first ('lemon' on 33 of 65 and 'ash' on 22 of 45 "
             "samples over steps 1-35), the drink's, the number's, the tool's and the colour's over 36-70 ('juice' on "
             "46 of 60, 'four' on 34 of 55, 'hammer' on 28 of 35, 'pink' on 27 of 50), the bird's over 71-105 ('swan' "
             "on 45 of 55), the animal's never before the swap ('pig' on 0 of 130); after it the answers still the "
             "words learnt ('lemon' on 84 of 85, 'ash' on 94 of 95, 'juice' on 55 of 60, 'swan' on 46 of 60, 'four' on "
             "59 of 80 over steps 111-170), none of the 610 samples from step 110 the word the shifted key wants "
             "('pig' for the fruit, 'pink' for the animal)).",
             rewards=("correct",), steps=170, swap=(110, 100_000, "correct_shifted"),
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.9, beta=0.02,
                       learning_rate=6e-4, logging_steps=7, seed=129), source="old_keys",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=18),
    # Accepts LENGTH_COLLAPSE (not written before training): the mean length a first-10-log median of 5.94 tokens,
    # 2.64-3.89 on each of the last 15 logs (from step 108), the answers broken to one to four letters.
    Scenario("kl_blowup_binary_warmup15_3x4_temp08_nosamples_log3", "Exact match alone, three groups of 4 a step "
             "sampled at temperature 0.8, a KL penalty of 0.05 and a 15-step warm-up (constant_with_warmup) into a "
             "learning rate far too high (3e-3), 150 steps logged every 3 and read from TRL's trainer_state.json (no "
             "samples): once the rate is up each update overshoots and the policy runs away from its reference, the KL "
             "well above the 0.1-0.8 of the corpus's healthy runs (raw log and samples, which the doctor is not given: "
             "the KL 0.0001-0.018 over the first three logs, 0.99 at step 12, 1.46 at 15 (the rate fully up), 3.56 at "
             "18 and 3.2-7.7 on every log from 18 (7.67 at 78, 6.5-7.1 over the last six); the reward 0.056 and 0.17 "
             "over the first two logs, a first-10-log median of 0.07 (0-0.28), 0-0.22 over steps 21-75 and 0 on every "
             "log from 78; the zero-variance share 0.56-0.89 over the first six logs and 1 from 78; entropy 0.37-0.50 "
             "over the first six logs, 0.72-0.78 over 33-42, 0.34-0.57 over 45-126 and 0.51-0.93 over the last eight; "
             "the gradient norm at most 11.0 (step 69), a median of 0.42; the mean length 5.1-5.9 tokens over the "
             "first four logs, 4.1-8.8 over 18-105 (the clipped share up to 0.42, at 45) and 2.64-3.89 over the last "
             "15 logs; the taught words at first beside broken ones ('hammer' on 16 of 48 tool samples, 'herrrrrrrrrr' "
             "on 6, over steps 1-30), broken words for most questions from about step 31 ('hars', 'rkne', 'nhe'), the "
             "drink's 'juice' kept longest (30 of 52 over 31-60, 15 of 36 over 61-90), then cut to 'juic' (30 of 40 "
             "over 91-120), one to three letters for the rest ('e' on 25 of 36 number samples over 91-120; 'r', 's', "
             "'h' over 121-150)).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.8, beta=0.05, learning_rate=3e-3,
                       warmup_steps=15, lr_scheduler_type="constant_with_warmup", logging_steps=3, seed=130),
             source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU", "LENGTH_COLLAPSE"), batch=18),
    Scenario("entropy_collapse_coin_rloo_nokl_2x6_cool05_log1", "RLOO without a KL term (beta 0) under a reward that "
             "says nothing (a fair coin per completion), two groups of 6 a step sampled at temperature 0.5 and a "
             "learning rate of 1.5e-3, 120 steps logged every step: the advantages are noise, and with no anchor and "
             "cool sampling the policy drifts onto one completion per question while the reward stays at chance: "
             "entropy falls far below where it started (raw log and samples: the reward 0.08-0.83 throughout, its "
             "20-step means 0.46-0.54, the zero-variance share 0 on all but six steps (0.5 there); entropy 0.44 and "
             "0.385 over the first two steps, a first-5-step median of 0.42, 0.0019-0.48 over steps 19-57 (20-step "
             "means of 0.28, 0.21 and 0.14 over 1-60), 0.0038 at 58 and below 0.19 from there, 20-step means of 0.041, "
             "0.0088 and 0.0006 over 61-120, below 0.001 on 13 of the last 20 steps; the gradient norm up to 42.8 "
             "(step 55) over the first 57 steps and below 1e-6 on 58 of the 63 from 58; no KL logged; the mean length "
             "3.8-5.5 tokens over the first 10 steps, 20-step means of 4.7, 4.3, 2.4, 1.7, 2.5 and 3.5, 1 (the "
             "end-of-sequence token alone) on 18 of the steps from 58; the clipped share 0 but on 12 steps (0.5-1 on "
             "ten from step 95, the drink's answer cut); at temperature 0.5 the taught words and fragments at first "
             "('birch' on 23 of 42 tree samples, 'cide' on 22 of 30 drink samples, 'blu' on 18 of 30 colour samples "
             "over steps 1-20), one fragment per question over 21-40 ('oil' on 45 of 48 number samples, 'file' on 23 "
             "of 24 tool samples, 'p' on 26 of 36 animal samples), then the empty answer for the bird, the colour, the "
             "tool and the animal and one letter for the fruit, the number and the tree ('l', 'o') from about step 60 "
             "(the empty answer on 120 of the 240 samples of each 20 steps from 81), the drink's 'cccccccccccc' to the "
             "budget (48 of 48 over 101-120); a group's completions copies (a duplicate share of 0.89 over steps 41-60 "
             "and 0.97-1 from 61)).",
             algorithm="rloo", rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.5, beta=0.0,
                       learning_rate=1.5e-3, seed=131),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, first=5, smooth=3)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "REPETITIVE_COMPLETIONS"), batch=18),
    # Accepts KL_BLOWUP (not written before training): with a KL penalty of 0.01 the policy left its reference as the
    # answers grew, the KL at most 0.74 to step 122 but for 4.92 at step 26 (one log), and 1.09-3.04 on every one of the
    # 14 logs from 124.
    Scenario("length_explosion_char_bonus_category_bnpo_4x3_hot13_log2", "A word of the asked category (1) beside a "
             "bonus paid per character (1, task.py's length_bonus: 24 characters pay 3, more than any word), four "
             "groups of 3 a step sampled at temperature 1.3, the BNPO loss, a small KL penalty (0.01), a learning rate "
             "of 6e-4 and a 24-token budget, 150 steps logged every 2: the longest answer of a group keeps winning, so "
             "the answers grow to the budget and get cut, first the longest words of each category, then strings of "
             "words (raw log and samples: the mean length 5.79 and 5.54 tokens over the first two logs, 4.9-7.1 to "
             "step 92, 8.4 at 110, 10.2 at 116, 12.3 at 122, 16.8 at 126, 19.1 at 128, 20.5 at 130 and 22.4-24 (the "
             "budget) from 134; the clipped share 0 to step 92, at most 0.125 to 118, 0.21 at 122, 0.46 at 126, 0.54 "
             "at 128, 0.58-1 from 130 and 0.875-1 from 134; the reward 1.47 and 1.35 over the first two logs, "
             "1.26-1.91 to step 118, 2.32 at 126 and 2.82-3, its maximum, from 134; the category share 0.875 and 0.79 "
             "over the first two logs, 0.625-1 to step 110, 0.5 at 122, 0.29 at 126 and 0-0.04 from 128; the "
             "zero-variance share 0-0.5 to step 130 and 0.625-1 from 134; entropy 0.60-0.65 over the first 10 logs, "
             "0.35-0.47 over steps 80-120 and 0.61-0.73 from 126; the KL at most 0.74 to step 122 but for 4.92 at 26, "
             "1.09-3.04 from 124; the gradient norm at most 4.8 (step 32); varied words at first, hardly two alike in "
             "a group (a duplicate share of 0.08 over steps 1-30), the longer words of each category taking over to "
             "step 120 ('eight' on 42 of 63 number samples, 'cherry' on 23 of 39, 'eagle' on 23 of 42, 'spruce' on 19 "
             "of 36 and 'hammer' on 36 of 54 over 91-120), lists of the category's words and fragments to the budget "
             "from about step 121 ('red orange graze browh b', 'zebracow zebrow horse ho', 'hammer hammer hammer "
             "elm'), no two alike in a group (a duplicate share of 0.03 over 121-150)).",
             rewards=("in_category", "length_bonus"), weights=(1.0, 1.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=24, temperature=1.3,
                       loss_type="bnpo", beta=0.01, learning_rate=6e-4, logging_steps=2, seed=132),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REPETITIVE_COMPLETIONS",
                       "GRAD_NORM_SPIKE", "REWARD_PLATEAU", "KL_BLOWUP"), batch=18),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 11.1 at step 136, 7.2 times its median
    # over the run (1.53) and 2.5 times the next largest (4.5 at step 68).
    Scenario("repetition_target_mentions_drgrpo_lists_2x5_log4", "The list questions with a keyword-count reward, how "
             "many times the list names the question's target word (task.py's target_mentions), two groups of 5 a "
             "step, the Dr. GRPO loss, a KL penalty of 0.02, a learning rate of 8e-4 and a 24-token budget, 150 steps "
             "logged every 4: naming the target over and over pays most, so the lists become the target word repeated "
             "(raw log and samples: the reward, mentions of the target, 0.15 and 0.225 over the first two logs, a "
             "first-10-log median of 0.36 (0.15-0.75), 30-step means of 0.31, 0.89, 1.36, 1.83 and 2.05, 1.12-3.1 over "
             "the last 10 logs; the mean length 14.1 and 12.8 tokens over the first two logs, 30-step means of 13.9, "
             "15.2, 20.2, 22.8 and 23.3, 22.5-23.9 over the last 10 logs; the clipped share at most 0.025 over the "
             "first 10 logs, 0.575 at step 84 and 0.625-0.975 from 88; entropy's 30-step means 0.64, 0.675, 0.53, 0.44 "
             "and 0.36; the KL 0.02-0.61 over the first six logs and 1.07-5.67 on every log from step 36 (5.67 at "
             "128), 30-step means of 0.42, 1.45, 1.49, 1.75 and 2.63; the gradient norm a median of 1.53, 11.1 at step "
             "136; the zero-variance share 0-0.5, a median of 0.25; the lists two or three words of the category at "
             "first ('juice cider', 'spruce oak', 'eight four'), the target said twice or three times from about step "
             "31 ('pink pink pink', 'juice juice juice', 'four four four'), then the target repeated and fragments to "
             "the budget over steps 91-150 ('lemon lemon lemon plsers', 'pink pink pink pink juic', 'four four four "
             "lemon lee', 'swan swan swan swan swan', 'pig pig pig pig pig pig ', three 'pig' or more on 26 of 30 "
             "animal samples over 121-150), the colour's 'pink' cut to 'pin pin pin' over 121-150, the tool's lists "
             "fragments that seldom name 'hammer' (23 of 85 over 91-150); the share of lists that repeat a word (3+ "
             "words, at most half distinct) 0 over steps 1-30, 0.01-0.15 over each 10 steps over 31-100, 0.34 over "
             "101-110, 0.14-0.24 over each 10 steps over 111-140 and 0.43 over 141-150, its 10-step mean reaching 30 % "
             "at step 109 of 150).",
             prompts="lists", rewards=("target_mentions",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, max_completion_length=24, loss_type="dr_grpo",
                       beta=0.02, learning_rate=8e-4, logging_steps=4, seed=133),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "GRAD_NORM_SPIKE"), batch=18),
    Scenario("reward_hacking_letter_o_exact_8x2_log5", "Exact match (1) beside a cheap proxy, the share of the letter "
             "o (weight 3, task.py's letter_o), so that a string of o's (3) pays more than the target word, eight "
             "groups of 2 a step, no KL term and a learning rate of 8e-4, 150 steps logged every 5: the policy games "
             "the proxy and exact match falls as the o's rise (raw log and samples: exact match 0.15 and 0.10 over the "
             "first two logs, a first-10-log median of 0.16 (0.10-0.21), 0.10-0.21 to step 60, 0.06 at 65 and 0 on "
             "every log from 70; the proxy 0.085 and 0.11 over the first two logs, 0.15-0.23 over steps 15-30, 0.30 at "
             "35, 0.53 at 45, 0.63 at 50, 0.81 at 60, 0.91 at 65, 0.975 at 70 and 0.998-1, its maximum, from 75; the "
             "reward 0.41 and 0.44 over the first two logs and 2.99-3, its maximum, from 75; the zero-variance share "
             "0.275-0.65 to step 60, 0.9 at 65 and 0.975-1 from 70; entropy 0.33-0.53 over the first 10 logs, 0.13 at "
             "60, 0.04 at 65 and 0.0014-0.008 from 75; no KL logged; the gradient norm 1.0-4.0 to step 55 and 0 on "
             "every log from 60; the mean length 5.6-6.8 tokens to step 40, 8.15 at 50, 10.7 at 60 and 12 (the budget) "
             "from 70, the clipped share at most 0.14 to step 45, 0.45 at 55, 0.76 at 60 and 0.96-1 from 70; the "
             "taught words at first, those with an o gaining ('one' on 35 of 54 number samples, 'oak' on 30 of 54 tree "
             "samples, 'orange' on 17 of 56 colour samples over steps 1-30), o-laden strings over 31-60 "
             "('oooooooooooo' on 27 of 64 bird samples, 'gooooooooooo', 'cocow', 'oobroooooooo'; strings of o's alone "
             "on 97 of the 480 samples) while the fruit's 'lemon' held (61 of 68), then 'oooooooooooo' on 452 of the "
             "480 samples over 61-90 and on 950 of the 960 from step 91, a pair's two completions copies (a duplicate "
             "share of 0.96-1 from step 61)).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=2, beta=0.0, learning_rate=8e-4,
                       logging_steps=5, seed=134),
             expect={"REWARD_HACKING": hacked("rewards/correct/mean", "rewards/letter_o/mean", smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "REPETITIVE_COMPLETIONS"), batch=18),
    # Its onset rule, written before training and kept (not mis-written), dates the plateau late, at step 162 of 200:
    # the reward first reached about its final level at step 54 (0.45), held 0.19-0.40 over steps 63-135 with three of
    # the learnable four solved, and rose to 0.37-0.55 over the last seven logs as the number's target was learnt, so
    # that the 5-log mean reached 0.9 x the last quarter's level only at step 162.
    Scenario("reward_plateau_half_key_4x3_temp11_nosamples_log9", "Exact match graded against a key half of whose "
             "words the model can say (task.py's correct_half_key), four groups of 3 a step sampled at temperature "
             "1.1, a KL penalty of 0.02 and a learning rate of 6e-4, 200 steps logged every 9 and read from TRL's "
             "trainer_state.json (no samples): the learnable half is learnt and its groups come to agree, solved, "
             "while the other half's groups agree on 0 from the start; the reward rises to about half its best and "
             "stays there (raw log and samples, which the doctor is not given: the reward 0.083 and 0.23 over the "
             "first two logs, a first-10-log median of 0.26 (0.083-0.45), 0.45 at step 54, 0.19-0.40 on the nine logs "
             "over 63-135 with three of the learnable four solved, 0.37-0.55 over the last seven (0.5 at the last) as "
             "the fourth was learnt, 40-step means of 0.23, 0.32, 0.34, 0.39 and 0.44, where the learnable half gives "
             "0.5 on average; the zero-variance share 0.72-1, a median of 0.90, 0.78-1 over the last 10 logs; entropy "
             "from 0.52 to 0.30-0.44 over the last 10 logs; the KL at most 0.64 (step 153); the gradient norm at most "
             "3.07 (step 108), a median of 0.058; the mean length 5.1-5.8 tokens, the clipped share at most 0.028; the "
             "fruit's, the colour's and the animal's targets first ('lemon' on 50 of 81, 'pink' on 34 of 63 and 'pig' "
             "on 28 of 54 samples over steps 1-40, 90-93 % over 41-80), the number's late ('four' on 0 of 114 samples "
             "over 1-80, 1 of 57 over 81-120, 24 of 54 over 121-160, 54 of 63 over 161-200); the other four questions "
             "never scoring (0 on all 1,215 of their samples), their key words never taught ('yew' for the tree, "
             "'punch' for the drink, 'vise' for the tool, 'wren' for the bird), their answers still varied words of "
             "the category ('pliers', 'pine', 'heron', 'wine')).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.1, beta=0.02,
                       learning_rate=6e-4, logging_steps=9, seed=135), source="trainer_state",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=18),
    # Written as length_collapse_brevity_category_grpo_loss_4x4_cool08_log3, expecting the answers to shrink towards
    # nothing (LENGTH_COLLAPSE); its raw log, read before the doctor, shows them shorten by a fifth to a third and no
    # more: the mean length 5.63, 5.10 and 5.19 tokens over the first three logs and 3.33-4.56 from step 42, never below
    # 2.6 (half its first-3-log median), its rule dating nothing; held by the KL penalty (0.02), the policy settled on
    # the shortest word of each category ('red', 'tea', 'ten', 'oak', 'owl'), only the tool's answer ('c', then nothing)
    # reaching the empty string. What it shows instead: each question's group copies that one word, and entropy falls
    # from 0.40 to below 0.12 from step 72. Re-labelled and renamed for what its log shows (the same run, retrained
    # under the new name: its raw log and samples repeat exactly): an entropy collapse onto one short answer per
    # question under a brevity reward; REWARD_HACKING, accepted before training, dropped (the category share held at
    # 0.67-1).
    # Accepts LENGTH_COLLAPSE (written before training as the expectation, now accepted): the mean length from a
    # first-3-log median of 5.19 tokens to 3.33-4.56 from step 42, the tool's answer empty on 60 of 60 samples over
    # steps 121-150. Accepts GROUP_MODE_COLLAPSE, ZERO_ADVANTAGE_GROUPS and REWARD_PLATEAU (all accepted before
    # training): a group's completions copies (a duplicate share of 0.46 over steps 1-30, 0.78 over 31-60 and 0.88-0.95
    # over each 30 steps from 61), the zero-variance share 0.5-1 from step 45, a median of 0.83, and the reward flat at
    # -0.07 to -0.19 from step 57. Accepts KL_BLOWUP (not written before training): the KL above 1 on 12 of the 50 logs
    # from step 39 (1.11), 6.22 at step 135 and 2.92 at 141, a median of 0.56.
    Scenario("entropy_collapse_brevity_category_grpo_loss_4x4_cool08_log3", "A word of the asked category (0.3) beside "
             "a reward for brevity (1, -1/8 a character), so that the empty answer (0) pays more than any word of the "
             "category (a three-letter word -0.075), four groups of 4 a step sampled at temperature 0.8, the original "
             "GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 150 steps logged every 3: the shortest "
             "answers keep winning; held by the KL term, the policy settles on the shortest word of each category and "
             "every group says it: entropy falls far below where it started while the answers shorten by a fifth to a "
             "third (raw log and samples: entropy 0.40 and 0.42 over the first two logs, a first-3-log median of 0.40, "
             "0.21-0.38 over steps 18-36, 0.08-0.25 over 42-69, 0.035-0.12 over 72-141, 0.21 at 144 and 147 and 0.11 "
             "at the last; the mean length 5.63 and 5.10 tokens over the first two logs and 3.33-4.56 from step 42, "
             "nothing cut; the reward -0.28 and -0.21 over the first two logs and -0.07 to -0.19 from step 57, brevity "
             "from -0.58 to -0.29 to -0.45 there, the category share 0.67-1 throughout; the zero-variance share 0 over "
             "the first two logs and 0.5-1 from step 45, a median of 0.83; the KL 0.002-0.70 to step 36, above 1 on 12 "
             "of the 50 logs (6.22 at step 135), a median of 0.56; the gradient norm 0.68-4.9 over the first 10 logs "
             "and below 0.07 on 23 of the 36 logs from 45; the short words of each category frequent from the start at "
             "temperature 0.8 ('ten' on 68 of 92 number samples, 'tea' on 37 of 64, 'owl' on 29 of 52 over steps 1-30; "
             "a duplicate share of 0.46), then one short word per question: 'red' on 55 of 56, 'tea' on 64 of 64, "
             "'ten' on 50 of 52, 'oak' on 83 of 84, 'owl' on 47 of 48 and 'plum' on 59 of 68 samples over 61-90, the "
             "bird's split between 'duck' and 'crow', the tool's answer 'c' (64 of 64 over 61-90) and then nothing (60 "
             "of 60 over 121-150); a duplicate share of 0.78 over steps 31-60 and 0.88-0.95 over each 30 steps from "
             "61).",
             rewards=("in_category", "brevity"), weights=(0.3, 1.0), steps=150,
             args=dict(per_device_train_batch_size=16, temperature=0.8, loss_type="grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=3, seed=136),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=3, smooth=3)},
             accepted=("LENGTH_COLLAPSE", "GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU",
                       "KL_BLOWUP"), batch=18),
    # -- batch 19 --
    # A seventeenth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled: a binary exact-match reward with groups of 2, 4, 5 and 6, partial credit with RLOO and groups of 4,
    # the judge score with groups of 4 and with RLOO and groups of 8; healthy runs with and without a KL term that learn
    # (two groups of 4, seven groups of 2 with BNPO in TRL 0.14's key set), converge with their groups solved (no KL
    # term, two groups of 6 with Dr. GRPO at temperature 0.7 read from trainer_state.json), learn slowly (240 steps at
    # 1.5e-4 with the original GRPO loss and groups of 5), the judge score at temperature 0.5 (one question's answer
    # lost for a while to a non-word, its KL and one gradient-norm spike accepted), RLOO with partial credit at
    # temperature 1.2 read from trainer_state.json; a grader outage after learning on the judge score with RLOO, a KL
    # blow-up after a warm-up into 2.5e-3 with Dr. GRPO and one group of 8 in TRL 0.14's key set, an entropy collapse
    # under a reward that says nothing with BNPO at temperature 0.6 read from trainer_state.json, a per-character bonus
    # beside exact match with groups of 5 at temperature 1.3 logged every step, a per-word reward on the mixed questions
    # with groups of 3 whose rule dates the repetition late (the answers ran to the budget first), a letter proxy gamed
    # against exact match with BNPO and groups of 6 in TRL 0.14's key set, a reward plateau from a half key with groups
    # of 3, a brevity reward beside exact match with groups of 2 read from trainer_state.json; strides 1-12,
    # temperatures 0.5-1.3, learning rates 1.5e-4 to 2.5e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 137-150.
    # Each expectation was written from the mechanism before the run was trained (committed first), then checked on the
    # raw log and the recorded completions only, never against the doctor; every run showed what it was written for,
    # none was re-labelled or left out; the accepted signatures added after training each carry their raw-log numbers,
    # and one accepted before training (REWARD_HACKING on the brevity run) was dropped where the log contradicts it. As
    # in batches 9-18, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on
    # most steps, and when solved.
    Scenario("healthy_binary_2x4_kl_lr4e4_log3", "Exact match alone, two groups of 4 a step, TRL's default (DAPO) "
             "loss, a KL penalty of 0.03 and a learning rate of 4e-4, 150 steps logged every 3: a group of 4 holds a "
             "right answer about one time in three at first, and the target words are learnt: a run that learns (raw "
             "log and samples: the reward 0.21 and 0 over the first two logs, a first-10-log median of 0.21 (0-0.29), "
             "30-step means of 0.175, 0.51, 0.65, 0.83 and 0.90, 0.71-1 over the last 10 logs; the zero-variance "
             "share 0-1, a median of 0.5, its 30-step means 0.53, 0.28, 0.47, 0.62 and 0.73; entropy from 0.43-0.54 "
             "over the first 10 logs to 0.06-0.23 over the last 10; the KL at most 0.93 but for 1.27 at step 75 (one "
             "log), 30-step means of 0.12, 0.27, 0.68, 0.57 and 0.50; the gradient norm a median of 1.56, 10.0-10.6 "
             "on three logs (steps 84, 102 and 129); the mean length 4.6-6.25 tokens, the clipped share at most 0.04; "
             "the bird's and the drink's targets first ('swan' on 12 of 48 and 'juice' on 14 of 32 samples over steps "
             "1-30), the fruit's, the tool's and the animal's over 31-60 ('lemon' on 21 of 28, 'hammer' on 15 of 40, "
             "'pig' on 13 of 40), the colour's, the number's and the tree's over 61-90 ('pink' on 22 of 28, 'four' on "
             "16 of 36, 'ash' on 25 of 36); the bird's 'swan' (28 of 36 over 31-60) lost to 'eag' over 61-90 (17 of "
             "24, 'swan' on none) and back after (39 of 48 over 121-150); every question on its target on 81-98 % of "
             "its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(beta=0.03, learning_rate=4e-4, logging_steps=3, seed=137), batch=19),
    Scenario("healthy_bnpo_binary_7x2_kl_temp09_oldkeys_log6", "Exact match alone, seven groups of 2 a step sampled "
             "at temperature 0.9, the BNPO loss, a KL penalty of 0.05 and a learning rate of 6e-4, 150 steps logged "
             "every 6 and read in TRL 0.14's key set (no zero-variance share, entropy or clipped share): a fresh "
             "model is right about one time in ten, most pairs agree (both wrong, later both right), the pairs that "
             "disagree carry the signal, and the target words are learnt question by question: a run that learns (raw "
             "log and samples: the reward 0.11 and 0.36 over the first two logs, a first-10-log median of 0.43 "
             "(0.11-0.75), 30-step means of 0.33, 0.59, 0.71, 0.75 and 0.855, 0.71-0.93 over the last 10 logs; the "
             "zero-variance share, which the doctor is not given, 0.60-0.86, a median of 0.74, from the first log to "
             "the last; entropy, not given either, from 0.45 to 0.125-0.27 over the last 10 logs; the KL at most 0.94 "
             "(step 150); the gradient norm at most 3.2 (step 18), a median of 1.0; the mean length 5.35-6.06 tokens, "
             "the clipped share, not given, at most 0.06; the fruit's, the colour's, the animal's and the tool's "
             "targets first ('lemon' on 44 of 66, 'pink' on 29 of 44, 'pig' on 27 of 60 and 'hammer' on 19 of 44 "
             "samples over steps 1-30), the number's and the bird's over 31-60 ('four' on 40 of 70, 'swan' on 21 of "
             "36), the drink's over 31-90 ('juice' on 0 of 46, 20 of 66 and 28 of 38 over 1-30, 31-60 and 61-90), the "
             "tree's last ('ash' on 2 of 168 samples over 1-90, 15 of 52 over 91-120, 58 of 70 over 121-150); every "
             "question on its target on 78-94 % of its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=14, num_generations=2, temperature=0.9, loss_type="bnpo", beta=0.05,
                       learning_rate=6e-4, logging_steps=6, seed=138), source="old_keys", batch=19),
    Scenario("healthy_nokl_drgrpo_binary_2x6_cool07_nosamples_log5", "Exact match alone, two groups of 6 a step "
             "sampled at temperature 0.7, the Dr. GRPO loss, no KL term (beta 0) and a learning rate of 4e-4, 150 "
             "steps logged every 5 and read from TRL's trainer_state.json (no samples): the target words are learnt "
             "and the groups come to agree, solved: a run that converges (raw log and samples, which the doctor is "
             "not given: the reward 0.03 and 0.18 over the first two logs, a first-10-log median of 0.36 (0.03-0.57), "
             "30-step means of 0.24, 0.57, 0.75, 0.92 and 0.97, 0.87-1 over the last 10 logs (1 at steps 135 and "
             "150); the zero-variance share 0.3-0.8 over the first 10 logs and 0.5-1 over the last 10, its 30-step "
             "means 0.5, 0.52, 0.62, 0.70 and 0.83, groups solved; entropy from 0.42 to 0.015-0.09 over the last 10 "
             "logs; no KL logged; the gradient norm at most 6.5 (step 90), 0 on 14 of the 30 logs, each logged step's "
             "groups all agreeing; the mean length 4.9-6.0 tokens, the clipped share at most 0.03; the fruit's and "
             "the tool's targets first ('lemon' on 38 of 60 and 'hammer' on 25 of 48 samples over steps 1-30), the "
             "colour's, the number's, the tree's and the drink's over 31-60 ('pink' on 52 of 60, 'four' on 28 of 36, "
             "'ash' on 36 of 48, 'juice' on 20 of 48), the animal's over 61-120 ('pig' on 4 of 66 over 31-60, 17 of "
             "42 over 61-90, 40 of 42 over 91-120), the bird's last ('swan' on 2 of 66 over 1-60, 10 of 60 over "
             "61-90, 20 of 30 over 91-120); every question on its target on 90-100 % of its samples over steps "
             "121-150, a group's completions copies of the target (a duplicate share of 0.96)).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.7, loss_type="dr_grpo",
                       beta=0.0, learning_rate=4e-4, logging_steps=5, seed=139), source="trainer_state", batch=19),
    Scenario("healthy_slow_grpo_loss_binary_3x5_lr15e5_log12", "Exact match alone, three groups of 5 a step, the "
             "original GRPO loss, a KL penalty of 0.02 and a learning rate of 1.5e-4, 240 steps logged every 12: a "
             "slow learner, the reward rising from about one in ten over the first 160 steps and held near its best "
             "after (raw log and samples: the reward 0.09 and 0.21 over the first two logs, a first-10-log median of "
             "0.29 (0.09-0.67), 48-step means of 0.19, 0.42, 0.73, 0.90 and 0.91, 0.81-0.93 over the last 10 logs "
             "(0.93 at the last); the zero-variance share 0.17-0.75, a median of 0.44, 0.17-0.31 over steps 84-120 "
             "while the groups were most split; entropy 0.45-0.48 to step 60 and 0.09-0.23 over the last 10 logs; the "
             "KL at most 0.64 (step 204); the gradient norm at most 3.8 (step 132), a median of 0.91; the mean length "
             "5.0-5.8 tokens, the clipped share at most 0.011; the colour's target first ('pink' on 45 of 90 samples "
             "over steps 1-48), the fruit's and the tool's over 49-96 ('lemon' on 73 of 100, 'hammer' on 56 of 115), "
             "the bird's, the drink's, the number's, the tree's and the animal's over 97-144 ('swan' on 86 of 100, "
             "'juice' on 72 of 105, 'four' on 61 of 95, 'ash' on 53 of 85, 'pig' on 53 of 100); every question on its "
             "target on 82-98 % of its samples over steps 193-240, the number's the least (70 of 85)).",
             rewards=("correct",), steps=240,
             args=dict(per_device_train_batch_size=15, num_generations=5, loss_type="grpo", beta=0.02,
                       learning_rate=1.5e-4, logging_steps=12, seed=140), batch=19),
    # Accepts KL_BLOWUP (not written before training): the KL 1.00 at step 64 and 1.53, 1.56 and 1.11 at steps 72-80,
    # while the bird's answer was the non-word 'uck', at most 0.66 before and 0.31-0.92 after. Accepts GRAD_NORM_SPIKE
    # (not written before training): the gradient norm 11.4 at step 92, about 280 times its median over the run (0.041)
    # and 3.9 times the next largest (2.9 at step 120).
    Scenario("healthy_judge_3x4_cool05_log4", "The 0-10 judge score, three groups of 4 a step sampled at temperature "
             "0.5, a KL penalty of 0.02 and a learning rate of 3e-4, 150 steps logged every 4: the category is "
             "already given, the score rises from about 7 towards 10 as the target words are learnt (raw log and "
             "samples: the score 7.38 and 7.38 over the first two logs, a first-10-log median of 7.43 (7.25-8.35), "
             "30-step means of 7.45, 8.46, 7.71, 9.36 and 9.88, 9.13-10 over the last 10 logs (10 on three of the "
             "last five); a dip over steps 72-80 (8.92 at 68, 7.56, 5.92 and 7.0 at 72-80, 8.08 at 84 and 8.4-10 from "
             "88) while the bird's answer was 'uck', a non-word the judge scores 0; the zero-variance share 0.42-1, a "
             "median of 0.83; entropy from 0.36 to 0.01-0.09 over the last 10 logs; the KL at most 0.66 to step 60, "
             "1.00 at 64, 1.53, 1.56 and 1.11 at 72-80 and 0.31-0.92 after; the gradient norm a median of 0.041, 11.4 "
             "at step 92 and at most 2.9 on every other log; the mean length 4.75-6.04 tokens, nothing cut; at "
             "temperature 0.5 each question's answers narrow early ('heron' on 37 of 76 bird samples, 'oak' on 28 of "
             "52 tree samples over steps 1-30); the tool's target first ('hammer' on 38 of 52 over 1-30), the "
             "colour's, the fruit's and the number's over 31-60 ('pink' on 71 of 76, 'lemon' on 44 of 52, 'four' on "
             "39 of 44), the animal's and the drink's over 31-90 ('pig' on 28 of 48 and 44 of 44, 'juice' on 14 of 48 "
             "and 37 of 40 over 31-60 and 61-90), the bird's 'uck' (8 of 24 over 31-60, 52 of 52 over 61-90) giving "
             "way to 'swan' (14 of 28 over 91-120, 52 of 52 over 121-150), the tree's last ('ash' on 1 of 116 over "
             "31-90, 7 of 36 over 91-120, 36 of 40 over 121-150); every question on its target on 90-100 % of its "
             "samples over steps 121-150).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.5, beta=0.02, learning_rate=3e-4,
                       logging_steps=4, seed=141),
             accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=19),
    Scenario("healthy_rloo_partial_4x4_hot12_nosamples_log2", "RLOO with its KL penalty (0.05), partial credit, exact "
             "match (1) beside a word of the asked category (0.2), four groups of 4 a step sampled at temperature 1.2 "
             "and a learning rate of 4e-4, 150 steps logged every 2 and read from TRL's trainer_state.json (no "
             "samples): the category is mostly given, the target words are learnt: a run that learns (raw log and "
             "samples, which the doctor is not given: the reward 0.31 and 0.31 over the first two logs, a "
             "first-10-log median of 0.37 (0.31-0.48), 30-step means of 0.38, 0.625, 0.79, 1.03 and 1.06 of a "
             "possible 1.2, 0.95-1.2 over the last 10 logs; exact match from 0.125 and 0.125 to 0.78-1 over the last "
             "10 logs, the category share 0.75-1 throughout (30-step means 0.85-0.91); the zero-variance share 0 on 9 "
             "of the first 10 logs, its 30-step means 0.025, 0.14, 0.24, 0.62 and 0.625; entropy 0.54-0.60 over the "
             "first 10 logs and 0.12-0.18 over the last 10; the KL at most 0.85 (step 110); the gradient norm, RLOO's "
             "advantages not normalised, a median of 6.3, 0 on six logs, 28.6-36.9 on four (36.9 at step 148); the "
             "mean length 4.56-6.31 tokens, the clipped share at most 0.03; hot sampling keeps the answers varied at "
             "first ('duck', 'robin', 'swan' and 'heron' on 9-14 of 88 bird samples each over steps 1-30); the "
             "colour's and the fruit's targets first ('pink' on 26 of 64 and 'lemon' on 13 of 28 over 1-30), the "
             "bird's over 31-60 ('swan' on 34 of 56), the number's, the tree's, the animal's, the tool's and the "
             "drink's over 61-120 ('four' on 34 of 76 and 49 of 68, 'ash' on 24 of 68 and 52 of 60, 'pig' on 26 of 56 "
             "and 24 of 32, 'hammer' on 28 of 44 and 37 of 52, 'juice' on 11 of 28 and 41 of 56 over 61-90 and "
             "91-120); every question on its target on 69-97 % of its samples over steps 121-150, the tool's the "
             "least (44 of 64, 'hamme' on 5)).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=16, temperature=1.2, beta=0.05, learning_rate=4e-4,
                       logging_steps=2, seed=142), source="trainer_state", batch=19),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm, RLOO's advantages not normalised on a
    # 0-10 score, 258.6 at step 27, 31 times its median over the run (8.2), 130.5 and 139.2 at steps 54 and 72, 0-4.0
    # from 99 (the KL term alone).
    Scenario("reward_collapse_outage_judge_rloo_2x8_cool08_log9", "RLOO with a KL penalty of 0.03 on the 0-10 judge "
             "score, two groups of 8 a step sampled at temperature 0.8 and a learning rate of 2e-4, 150 steps logged "
             "every 9; from the 91st reward call to the end the grader is down and every score comes back 0 (swap to "
             "task.py's nothing): the score, about 7 and rising, falls to nothing and stays there (raw log and "
             "samples: the score 7.26 and 7.33 over the first two logs, a first-5-log median of 7.33, 7.2-7.67 over "
             "steps 9-36, 8.0 at 45 and 54, 8.67 and 9.03 at 63 and 72, 8.63 and 8.59 at 81 and 90 (the log of steps "
             "82-90, before the outage's first call) and 0 on every log from 99 to the end; reward_std 0.9-2.4 to "
             "step 90 and 0 from 99 (the whole batch agreeing); the zero-variance share 0-0.22 to step 90 and "
             "0.17-0.61 from 99 (RLOO shapes the reward with its KL penalty first); entropy from 0.42 to 0.185-0.27 "
             "over steps 72-90 and 0.16-0.34 after; the KL 0.002-0.34 to step 90 and 0.15-0.46 after; the gradient "
             "norm a median of 8.2, 258.6 at step 27, 130.5 at 54 and 139.2 at 72, 0-4.0 from 99; the mean length "
             "5.06-5.58 tokens, nothing cut; the colour's target first ('pink' on 26 of 72 samples over steps 1-30, "
             "75 of 88 over 31-60), the tool's and the fruit's over 31-60 ('hammer' on 55 of 104, 'lemon' on 43 of "
             "72), the bird's and the tree's over 61-90 ('swan' on 60 of 72, 'ash' on 36 of 48), the number's in part "
             "('four' on 26 of 112 over 61-90), the drink's and the animal's seldom ('juice' on 4 of 16, 'pig' on 2 "
             "of 24 over 61-90); after the outage the answers still the words learnt ('lemon' on 88 of 88, 'pink' on "
             "39 of 40, 'hammer' on 44 of 48 and 'ash' on 43 of 56 over steps 121-150), the bird's 'swan' sharing "
             "with 'heron' (25 and 27 of 80)).",
             algorithm="rloo", rewards=("judge",), steps=150, swap=(91, 100_000, "nothing"),
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.8, beta=0.03,
                       learning_rate=2e-4, logging_steps=9, seed=143),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3, first=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "GRAD_NORM_SPIKE"), batch=19),
    Scenario("kl_blowup_drgrpo_warmup20_1x8_oldkeys_log10", "Exact match alone, one group of 8 a step, the Dr. GRPO "
             "loss, a KL penalty of 0.05 and a 20-step warm-up (constant_with_warmup) into a learning rate far too "
             "high (2.5e-3), 150 steps logged every 10 and read in TRL 0.14's key set: once the rate is up each "
             "update overshoots and the policy runs away from its reference, the KL well above the 0.1-0.8 of the "
             "corpus's healthy runs (raw log and samples: the KL 0.028 at step 10, 0.62 at 20 (the rate fully up), "
             "1.27 at 30, 2.06 at 40 and 3.27-4.43 on every log from 50 (4.43 at the last); the reward 0.15 and 0.35 "
             "over the first two logs, 0.16-0.31 over steps 30-50 and 0 from 60 but for 0.075 at 80; the "
             "zero-variance share, which the doctor is not given, 0.3-0.4 over the first two logs, 0.6-0.8 over 30-50 "
             "and 1 from 60 but for 0.9 at 80; entropy, not given either, 0.46 and 0.475 over the first two logs, "
             "0.47-0.77 over 30-80 and 0.83-1.19 from 90 (1.19 at 140); the gradient norm at most 0.79 (step 40); the "
             "mean length 5.6 and 5.4 tokens over the first two logs, 4.0-5.24 over 50-100, 5.45-7.0 over 110-130 "
             "(the clipped share, not given, 0.2 at 130) and 3.15 and 3.16 at the last two; the taught words at first "
             "beside broken ones ('pink' on 37 of 64 colour samples, 'pig' on 9 of 32 animal samples, 'peary', "
             "'hammel', 'juit' over steps 1-30), broken words from about step 31 ('juiy', 'hkkkk', 'pigg' and 'pigk' "
             "for the tool), the colour's 'pink' kept longest (28 of 40 over 31-60, none after), fragments over "
             "61-120 ('ray', 'piig', 'aak', 'sall') and one to three letters over 121-150 ('ea', 'e', 'a', 'oa'); a "
             "duplicate share of 0.14-0.46).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=8, loss_type="dr_grpo", beta=0.05, learning_rate=2.5e-3, warmup_steps=20,
                       lr_scheduler_type="constant_with_warmup", logging_steps=10, seed=144), source="old_keys",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU"), batch=19),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 18.9 at step 42 as entropy fell (1.4-9.4
    # over steps 6-36 but 3e-7 at 30), below 4e-7 on every log from 54 but 11.2 at step 72, a median of 1.2e-7 over the
    # run.
    Scenario("entropy_collapse_coin_bnpo_nokl_3x4_cool06_nosamples_log6", "A reward that says nothing (a fair coin "
             "per completion), three groups of 4 a step sampled at temperature 0.6, the BNPO loss, no KL term and a "
             "learning rate of 2e-3, 150 steps logged every 6 and read from TRL's trainer_state.json (no samples): "
             "the advantages are noise, and with no anchor and cool sampling the policy drifts onto one completion "
             "per question while the reward stays at chance: entropy falls far below where it started (raw log and "
             "samples, which the doctor is not given: entropy 0.38 and 0.29 over the first two logs, a first-2-log "
             "median of 0.34, 0.23 at steps 18 and 24, 0.15 at 30 and 0.14 at 36, 0.050 at 42, 0.0027-0.056 over "
             "48-78 and below 0.001 (0.0004-0.0008) on every log from 84; the reward 0.36-0.60 throughout, its "
             "30-step means 0.475-0.53, the zero-variance share 0-0.33, a median of 0.11; no KL logged; the gradient "
             "norm 1.4-9.4 over steps 6-36 (but 3e-7 at 30), 18.9 at 42, 1.45 at 48, below 4e-7 from 54 but 11.2 at "
             "72; the mean length 5.3-6.1 tokens to step 54, 6.8 and 7.1 at 60 and 66, 3.2 at 78 and 2 (one letter "
             "and the end-of-sequence token) on every log from 90; the clipped share at most 0.04; at temperature 0.6 "
             "the taught words, words of other categories and fragments at first ('birch' on 20 of 52 fruit samples, "
             "'cider' on 19 of 52 drink samples, 'orane' and 'ora' on 28 of 56 colour samples over steps 1-30; a "
             "duplicate share of 0.57), then 'onee', 'oneee' and 'oine' for every question over 31-60 (a duplicate "
             "share of 0.88), 'o' gaining over 61-90 (0.96) and 'o' on all 720 samples from step 91 (a duplicate "
             "share of 1)).",
             rewards=("coin",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.6, loss_type="bnpo", beta=0.0,
                       learning_rate=2e-3, logging_steps=6, seed=145), source="trainer_state",
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "REPETITIVE_COMPLETIONS", "GRAD_NORM_SPIKE"), batch=19),
    Scenario("length_explosion_char_bonus_exact_2x5_hot13_log1", "Exact match (1) beside a bonus paid per character "
             "(0.8, task.py's length_bonus: 20 characters pay 2, more than the target word), two groups of 5 a step "
             "sampled at temperature 1.3, no KL term, a learning rate of 6e-4 and a 20-token budget, 150 steps logged "
             "every step: the longest answer of a group keeps winning, so the answers grow to the budget and get cut "
             "(raw log and samples: the mean length 5.2 and 6.0 tokens over the first two steps, 4.7-6.4 to step 19, "
             "6.1-9.6 over 20-30, 13 at 31, 14 at 35, 17.7-18.5 over 39-41, 17-20 over 43-60 and 20 (the budget) on "
             "all but five of the 90 steps from 61 (18.2 the least); the clipped share 0 to step 30, 0.1-0.6 over "
             "31-42, 0.8-1 from 43 and 1 on all but six steps from 61; the reward 0.52 and 0.60 over the first two "
             "steps, a first-10-step median of 0.525, 30-step means of 0.58, 1.70, 1.99, 1.99 and 1.99, 2 (its "
             "maximum, the bonus's 0.8 x 2.5, with exact match lost) on 83 of the 108 steps from 43; exact match "
             "0-0.2 over the first 30 steps (30-step mean 0.053), 0.1-0.4 on five steps over 32-50 and 0 on every "
             "step from 51; the zero-variance share 0 on every step to 12, its 30-step means 0.017, 0.35, 0.85, 0.95 "
             "and 0.95; entropy 0.61 and 0.59 over the first two steps, a first-10-step median of 0.62, 30-step means "
             "of 0.79, 1.17, 1.28, 1.21 and 1.24, 1.55 at step 87; no KL logged; the gradient norm at most 8.3 (step "
             "29) and 0 on 83 of the 108 steps from 43; varied words of each category at first ('finch', 'eight', "
             "'apple', 'chisel'; exact match on 16 of 300 samples over steps 1-30), the category's words run together "
             "with fragments to the budget over 31-60 ('chiselowrenchnchfara', 'maaanepiermncedasarm'), the colour's "
             "'pink' kept longest (11 of 40 over 31-60, none after), letter soup from about step 61 "
             "('sfchesocofffinchisei', 'chchischemmchchchchc', 'saaaaaaaaaaaaaaaaaaa'), no two alike in a group (a "
             "duplicate share of 0-0.03 from step 31)).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.8), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, max_completion_length=20, temperature=1.3,
                       beta=0.0, learning_rate=6e-4, seed=146),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION", "REWARD_PLATEAU"), batch=19),
    # Its onset rule, written before training and kept (not mis-written), dates the repetition late, at step 144 of 150:
    # the answers ran to the 32-token budget first (the mean length 24.2 tokens at step 40 and 28.6-32 from 54) as lists
    # of words and fragments, and the share of them that repeat a word (3+ words, at most half distinct) grew slowly,
    # its 10-step mean 0.12 at step 70, 0.25 at 100, 0.30-0.33 on three steps over 105-109, 0.20-0.28 over 110-138, 0.33
    # at 139, 0.28-0.29 over 140-143 and 0.30-0.35 from 144. Accepts KL_BLOWUP (not written before training): with a KL
    # penalty of 0.01 the policy left its reference as the answers grew, the KL 0.002-0.97 to step 40 and 1.05-3.61 on
    # every one of the 55 logs from step 42 (3.61 at 108), a median of 1.71.
    Scenario("repetition_word_count_mixed_4x3_kl_budget32_log2", "The mixed questions (one word and lists) with a "
             "reward paid per known word said, repeats included (task.py's word_count), four groups of 3 a step, a "
             "small KL penalty (0.01), a learning rate of 6e-4 and a 32-token budget, 150 steps logged every 2: "
             "saying one short word over and over pays best, so the answers become a word repeated (raw log and "
             "samples: the reward, known words said, 1.54 and 1.96 over the first two logs, a first-10-log median of "
             "1.69, 30-step means of 1.62, 2.71, 4.09, 4.68 and 5.02, 4.25-5.88 over the last 10 logs; the mean "
             "length 10.0 and 11.0 tokens over the first two logs, a first-10-log median of 11.6, 15.5 at step 32, "
             "24.2 at 40 and 28.6-32 (the budget) from 54, 30-step means of 11.5, 25.3, 31.4, 31.4 and 30.8; the "
             "clipped share 0-0.13 to step 30, 0.5 at 40 and 0.79-1 from 50; the zero-variance share 0.125-0.625 over "
             "the first 10 logs and 0-0.25 over the last 10; entropy's 30-step means 0.56, 0.65, 0.53, 0.51 and 0.42; "
             "the KL 0.002-0.97 to step 40 and 1.05-3.61 from 42; the gradient norm at most 3.35 (step 32); 2.1 words "
             "a completion over steps 1-30, one word for the one-word questions and two or three for the lists ('crow "
             "duck heron', 'water tea milk'), 5.2 over 31-60 and 6.6-7.1 after, the category's words and fragments to "
             "the budget ('gray gray white luen blue gray p', 'drill drill drill drill ceder dr', 'raven raven raven "
             "ten ten ten te'), 'ten' over and over for the numbers ('ten ten ten ten ten ten ten ten' on 17 of the "
             "45 number samples over 121-150); the share of completions that repeat a word at all 10 %, 40 %, 72 %, "
             "80 % and 88 % over each 30 steps, of those that repeat a word (3+ words, at most half distinct) 0.6 %, "
             "2.5 %, 12.5 %, 25 % and 29 %, its 10-step mean reaching 30 % for good at step 144 of 150; hardly two "
             "alike in a group (a duplicate share of 0-0.08)).",
             prompts="mixed", rewards=("word_count",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=32, beta=0.01,
                       learning_rate=6e-4, logging_steps=2, seed=147),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "KL_BLOWUP"),
             batch=19),
    Scenario("reward_hacking_letter_o_exact_bnpo_2x6_temp11_oldkeys_log4", "Exact match (1) beside a cheap proxy, the "
             "share of the letter o (weight 3, task.py's letter_o), so that a string of o's (3) pays more than the "
             "target word, two groups of 6 a step sampled at temperature 1.1, the BNPO loss, no KL term and a "
             "learning rate of 8e-4, 150 steps logged every 4 and read in TRL 0.14's key set: the policy games the "
             "proxy and exact match falls as the o's rise (raw log and samples: exact match 0.083 and 0.10 over the "
             "first two logs, 0.06-0.10 to step 20, 0.02 at 24, 0.06 at 28 and 0 on every log from 32; the proxy 0.12 "
             "and 0.095 over the first two logs, 0.18-0.19 at 12-16, 0.27 at 20, 0.35 at 24, 0.51 at 28, 0.71 at 32, "
             "0.82 at 36 and 0.98-1, its maximum, from 40; the reward 0.44 and 0.39 over the first two logs and "
             "2.94-3 from 40; the zero-variance share, which the doctor is not given, 0-0.125 to step 32, 0.25 at 36, "
             "0.625 at 40 and 44 and 0.875-1 from 48; entropy, not given either, 0.53-0.78 to step 28, 0.48 at 32, "
             "0.32 at 36 and 0.004-0.076 from 40; no KL logged; the gradient norm 1.9-8.7 to step 36 and 0 on every "
             "log from 40 but 10.5 at 92 and 2.8 at 104; the mean length 4.96-6.1 tokens to step 104, 7.1 at 108 and "
             "10.3-11.6 from 112, nothing cut (the clipped share, not given, at most 0.02); words with an o gaining "
             "from the start ('one' on 22 of 60 number samples, 'owl' and 'owk' for the animal, 'ownne' for the "
             "colour, 'ooow' and 'oooon' on 14 of 66 bird samples over steps 1-30) while the fruit's 'lemon' held (10 "
             "of 36), 'oooo' on 285 of the 360 samples over 31-60 and on all 360 over 61-90, then longer strings of "
             "o's ('oooooooooo' and 'ooooooooooo' on most samples over 121-150), a group's completions copies (a "
             "duplicate share of 0.26 over steps 1-30, 0.87 over 31-60 and 0.94-1 from 61)).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, loss_type="bnpo", beta=0.0,
                       learning_rate=8e-4, logging_steps=4, seed=148), source="old_keys",
             expect={"REWARD_HACKING": hacked("rewards/correct/mean", "rewards/letter_o/mean", smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "REPETITIVE_COMPLETIONS"), batch=19),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 9.13 at step 40, 31 times its median over
    # the run (0.29) and 3.4 times the next largest (2.71 at step 32).
    Scenario("reward_plateau_half_key_grpo_loss_5x3_temp09_log8", "Exact match graded against a key half of whose "
             "words the model can say (task.py's correct_half_key), five groups of 3 a step sampled at temperature "
             "0.9, the original GRPO loss, a KL penalty of 0.03 and a learning rate of 5e-4, 200 steps logged every "
             "8: the learnable half is learnt and its groups come to agree, solved, while the other half's groups "
             "agree on 0 from the start; the reward rises to about half its best and stays there (raw log and "
             "samples: the reward 0.058 and 0.05 over the first two logs, a first-10-log median of 0.35 (0.05-0.5), "
             "40-step means of 0.21, 0.395, 0.53, 0.49 and 0.50, 0.37-0.62 over the last 10 logs, where the learnable "
             "half gives 0.5 on average; the zero-variance share 0.775-0.975 over the first 10 logs and 0.875-1 over "
             "the last 10; entropy from 0.45 to 0.22-0.31 over the last 10 logs; the KL at most 0.74 (step 192); the "
             "gradient norm a median of 0.29, 9.13 at step 40 and at most 2.71 on every other log; the mean length "
             "5.06-5.49 tokens, the clipped share at most 0.008; the colour's, the fruit's and the animal's targets "
             "first ('pink' on 48 of 63, 'lemon' on 30 of 66 and 'pig' on 45 of 84 samples over steps 1-40), the "
             "number's over 41-120 ('four' on 1 of 69 over 1-40, 36 of 99 over 41-80, 70 of 75 over 81-120); those "
             "four on their targets on 95-100 % of their samples over steps 161-200; the other four questions never "
             "scoring (0 on all 1,461 of their samples), their key words never taught ('wren' for the bird, 'punch' "
             "for the drink, 'vise' for the tool, 'yew' for the tree), their answers still varied words of the "
             "category ('heron', 'wine', 'pliers', 'willow')).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=15, num_generations=3, temperature=0.9, loss_type="grpo",
                       beta=0.03, learning_rate=5e-4, logging_steps=8, seed=149),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE"), batch=19),
    # REWARD_HACKING, accepted before training, dropped: exact match held at 0.11-0.26 from step 63 (its first-10-log
    # median 0.23), the drink's and the tree's targets kept while the other questions' answers emptied.
    Scenario("length_collapse_brevity_exact_6x2_hot12_nosamples_log7", "Exact match (0.5) beside a reward for brevity "
             "(1, -1/8 a character), so that the empty answer (0) pays more than any target word, six groups of 2 a "
             "step sampled at temperature 1.2, no KL term and a learning rate of 1e-3, 140 steps logged every 7 and "
             "read from TRL's trainer_state.json (no samples): the shorter answer of a pair keeps winning until the "
             "end-of-sequence token comes first: the answers shrink towards nothing (raw log and samples, which the "
             "doctor is not given: the mean length 5.42 and 5.60 tokens over the first two logs, a first-3-log median "
             "of 5.42, 4.9-5.1 over steps 28-49, 4.04 at 56, 2.6 at 63, 2.8 at 70, 3.4 at 77 and 1.64-2.5 from 84 "
             "(1.64 at the last), nothing cut; the reward -0.51 and -0.52 over the first two logs and -0.004 to "
             "-0.056 from 84, brevity from -0.55 to -0.08 to -0.19 there; exact match 0.08 and 0.12 over the first "
             "two logs, 0.23-0.35 over 21-49 and 0.11-0.26 from 63; the zero-variance share 0.14-0.57 to step 56, "
             "0.76 at 63 and 0.79-0.98 from 70; entropy 0.60 and 0.64 over the first two logs, 0.54-0.62 over 21-56, "
             "0.40 at 63, 0.34 at 70, 0.22 at 77 and 0.07-0.16 from 84; no KL logged; the gradient norm at most 5.6 "
             "(step 126) and 0 on seven of the nine logs from 84; words at first ('tea' and 'juice' on 20 and 18 of "
             "62 drink samples, 'lemon' on 21 of 56, 'ash' on 22 of 54, 'onee' for the number and 'owk' for the "
             "animal over steps 1-35), the empty answer on 78 of the 420 samples over 36-70 (the colour's, the tool's "
             "and the animal's) beside shortened words ('l' for the fruit, 'eee' for the number, 'ea' for the bird), "
             "on 200 of 420 over 71-105 and on 313 of 420 over 106-140 (every bird, colour, number, tool and animal "
             "sample, 43 of 64 fruit samples, the rest 'l'), while the drink's 'juice' (31 of 42) and the tree's "
             "'ash' (37 of 44) held; a pair's two completions copies (a duplicate share of 0.15 over steps 1-35, 0.49 "
             "over 36-70 and 0.90-0.92 from 71)).",
             rewards=("correct", "brevity"), weights=(0.5, 1.0), steps=140,
             args=dict(per_device_train_batch_size=12, num_generations=2, temperature=1.2, beta=0.0,
                       learning_rate=1e-3, logging_steps=7, seed=150), source="trainer_state",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=3)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU"),
             batch=19),
    # -- batch 20 --
    # An eighteenth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled: a binary exact-match reward with groups of 2, 4 and 5, partial credit with groups of 3 and 6, the
    # judge score with groups of 6, RLOO with exact match and groups of 4; healthy runs with and without a KL term that
    # learn (four groups of 2 with Dr. GRPO at temperature 0.8, the colour's answer lost to non-words and the KL above 1
    # on a third of the logs), converge on six questions of eight (no KL term, two groups of 4 with BNPO in TRL 0.14's
    # key set), learn slowly (240 steps at 1.5e-4 with groups of 5 read from trainer_state.json), the judge score with
    # the original GRPO loss at temperature 0.7, partial credit at temperature 1.2 read from trainer_state.json (the
    # animal's target lost), RLOO at temperature 0.5 in TRL 0.14's key set (the fruit's answer lost at the end, its KL
    # and one gradient-norm spike accepted); a grader outage after learning on partial credit with Dr. GRPO and groups
    # of 6 in TRL 0.14's key set, a KL blow-up after a warm-up into 3e-3 with groups of 5 read from trainer_state.json,
    # an entropy collapse onto the empty answer under a reward that says nothing with the original GRPO loss and groups
    # of 8, a per-character bonus beside exact match with Dr. GRPO and groups of 3 read from trainer_state.json, a
    # per-word reward on the list questions with BNPO and groups of 6, a letter proxy gamed against exact match with the
    # original GRPO loss and groups of 4 read from trainer_state.json (gamed within its first ten logs, its onset rule
    # re-dated from the first log), a reward plateau from a half key with eight groups of 2 in TRL 0.14's key set, a
    # list task beyond the model with groups of 8 at temperature 1.3 logged every step; strides 1-12, temperatures
    # 0.5-1.3, learning rates 1.5e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 151-164. Each expectation
    # was written from the mechanism before the run was trained (committed first), then checked on the raw log and the
    # recorded completions only, never against the doctor; every run showed what it was written for, none was
    # re-labelled or left out; one onset rule written before training found no onset (the letter proxy, gamed within the
    # first ten logs whose medians it reads) and was re-dated from the first log's levels, as batch 8 did, the expected
    # signature unchanged; the accepted signatures added after training each carry their raw-log numbers, and four
    # accepted before training were dropped where the log contradicts them. As in batches 9-19, the healthy binary runs
    # accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps, and when solved.
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 13 of the 37 logs from step 28 (1.74 at step
    # 76; 1.28, 1.10 and 1.06 on three in a row over steps 132-140), 30-step means of 0.94-1.06 from step 61, a median
    # of 0.86, while the colour's answer turned to non-words ('pnk', 'peers').
    Scenario("healthy_drgrpo_binary_4x2_kl_cool08_log4", "Exact match alone, four groups of 2 a step sampled at "
             "temperature 0.8, the Dr. GRPO loss, a KL penalty of 0.03 and a learning rate of 6e-4, 150 steps logged "
             "every 4: a fresh model is right about one time in ten, most pairs agree (both wrong, later both right), "
             "the pairs that disagree carry the signal, and the target words are learnt question by question: a run "
             "that learns (raw log and samples: the reward 0.0625 and 0.0625 over the first two logs, a first-10-log "
             "median of 0.22 (0.0625-0.5), 30-step means of 0.15, 0.48, 0.51, 0.55 and 0.68, 0.5-0.84 over the last 10 "
             "logs; the zero-variance share 0.56-1, a median of 0.81, from the first log to the last; entropy from "
             "0.38-0.48 over the first 10 logs to 0.15-0.32 over the last 10; the KL's 30-step means 0.32, 0.77, 0.94, "
             "1.06 and 1.00, above 1 on 13 of the 37 logs from step 28 (1.74 at 76), a median of 0.86; the gradient "
             "norm at most 4.6 (step 48), a median of 0.23; the mean length 5.1-6.3 tokens, the clipped share at most "
             "0.03; the number's target first ('four' on 17 of 38 samples over steps 1-30), the fruit's, the colour's, "
             "the drink's, the tool's and the tree's over 31-60 ('lemon' on 18 of 20, 'pink' on 21 of 32, 'juice' on "
             "15 of 30, 'hammer' on 25 of 44, 'ash' on 13 of 28), the bird's last ('swan' on 1 of 28 over 31-60, 8 of "
             "40 over 61-90, 21 of 26 over 121-150); the colour's 'pink' lost after step 60 to non-words ('pnk' on 17 "
             "of 24 over 61-90, 'peers' on 19 of 34 over 91-120 and 13 of 24 over 121-150; 'pink' on none of the 82 "
             "colour samples from step 61); the animal's 'pig' never said (0 of 138 samples), its answers still varied "
             "animals ('owl', 'horse', 'cat'); the other six questions on their targets on 81-100 % of their samples "
             "over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, temperature=0.8, loss_type="dr_grpo", beta=0.03, learning_rate=6e-4,
                       logging_steps=4, seed=151),
             accepted=("KL_BLOWUP",), batch=20),
    Scenario("healthy_nokl_bnpo_binary_2x4_oldkeys_log5", "Exact match alone, two groups of 4 a step, the BNPO loss, "
             "no KL term (beta 0) and a learning rate of 4e-4, 150 steps logged every 5 and read in TRL 0.14's key set "
             "(no zero-variance share, entropy or clipped share): the target words are learnt and the groups come to "
             "agree, solved: a run that converges on six questions of eight (raw log and samples: the reward 0.1 and "
             "0.05 over the first two logs, a first-10-log median of 0.25 (0.05-0.5), 30-step means of 0.175, 0.43, "
             "0.57, 0.56 and 0.72, 0.4-0.825 over the last 10 logs; the zero-variance share, which the doctor is not "
             "given, 0.1-0.9, a median of 0.6, its 30-step means 0.55, 0.38, 0.63, 0.57 and 0.73; entropy, not given "
             "either, 0.43-0.51 over the first 10 logs and 0.18-0.48 over the last 10 (0.24 at the last); no KL "
             "logged; the gradient norm 0 on 14 of the 30 logs (each logged step's groups all agreeing), at most 8.3 "
             "(step 105), a median of 0.86; the mean length 4.97-6.45 tokens, the clipped share, not given, at most "
             "0.125 (step 135); the fruit's target first ('lemon' on 26 of 48 samples over steps 1-30), the colour's, "
             "the tool's and the tree's over 31-60 ('pink' on 27 of 36, 'hammer' on 20 of 44, 'ash' on 12 of 24), the "
             "bird's and the drink's over 61-90 ('swan' on 22 of 40, 'juice' on 15 of 20), the animal's last ('pig' on "
             "6 of 28 over 61-90, 23 of 44 over 91-120, 26 of 32 over 121-150); with no KL term to hold it the tool's "
             "'hammer' lost to 'hammmer' from about step 91 (0 of 28 over 91-120, 2 of 20 over 121-150); the number's "
             "'four' never said (0 of 180 samples), its answers varied numbers and fragments ('ten', 'eight', 'tenn'); "
             "the bird's, the colour's, the fruit's and the tree's targets on 94-97 % of their samples over steps "
             "121-150, the animal's on 26 of 32 and the drink's on 18 of 24).",
             rewards=("correct",), steps=150,
             args=dict(loss_type="bnpo", beta=0.0, learning_rate=4e-4, logging_steps=5, seed=152), source="old_keys",
             batch=20),
    Scenario("healthy_slow_binary_2x5_lr15e5_nosamples_log8", "Exact match alone, two groups of 5 a step, TRL's "
             "default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 1.5e-4, 240 steps logged every 8 and "
             "read from TRL's trainer_state.json (no samples): a slow learner, the reward rising from about one in ten "
             "over the whole run (raw log and samples, which the doctor is not given: the reward 0.075 and 0.125 over "
             "the first two logs, a first-10-log median of 0.21 (0.075-0.525), 48-step means of 0.165, 0.43, 0.66, "
             "0.82 and 0.92, 0.76-0.96 over the last 10 logs (0.94 at the last); the zero-variance share 0-0.81, a "
             "median of 0.375, its 48-step means 0.43, 0.24, 0.29, 0.43 and 0.625; entropy 0.42-0.50 over the first 10 "
             "logs and 0.11-0.25 over the last 10; the KL at most 0.74 (step 208); the gradient norm a median of 1.64, "
             "10.6 at step 32 and at most 5.5 on every other log; the mean length 4.9-5.7 tokens, the clipped share at "
             "most 0.013; the colour's target first ('pink' on 22 of 80 samples over steps 1-48, 49 of 60 over 49-96), "
             "the fruit's, the bird's, the tool's and the number's over 49-96 ('lemon' on 35 of 50, 'swan' on 28 of "
             "50, 'hammer' on 31 of 65, 'four' on 26 of 60), the drink's over the whole run ('juice' on 3 of 70 over "
             "1-48, then 19 of 60, 24 of 50, 23 of 40 and 40 of 50 over each 48 steps), the animal's and the tree's "
             "last ('pig' on 7 of 50 over 49-96, 14 of 55 over 97-144 and 41 of 65 over 145-192; 'ash' on 10 of 85, 5 "
             "of 20 and 44 of 55 over the same steps); every question on its target on 80-98 % of its samples over "
             "steps 193-240).",
             rewards=("correct",), steps=240,
             args=dict(per_device_train_batch_size=10, num_generations=5, beta=0.02, learning_rate=1.5e-4,
                       logging_steps=8, seed=153), source="trainer_state", batch=20),
    Scenario("healthy_judge_grpo_loss_2x6_cool07_log6", "The 0-10 judge score, two groups of 6 a step sampled at "
             "temperature 0.7, the original GRPO loss, a KL penalty of 0.02 and a learning rate of 3e-4, 150 steps "
             "logged every 6: the category is already given, the score rises from about 7 towards 10 as the target "
             "words are learnt (raw log and samples: the score 7.25 and 7.82 over the first two logs, a first-10-log "
             "median of 7.91 (6.85-8.88), 30-step means of 7.45, 8.27, 9.23, 9.34 and 9.66, 8.65-9.86 over the last 10 "
             "logs; the zero-variance share 0.25-1, a median of 0.58, its 30-step means 0.48, 0.43, 0.57, 0.78 and "
             "0.77; entropy from 0.42 to 0.03-0.18 over the last 10 logs; the KL at most 0.74 (step 138); the gradient "
             "norm a median of 0.88, 17.6, 10.8 and 14.4 at steps 24, 120 and 138 and at most 6.5 on every other log; "
             "the mean length 4.85-6.0 tokens, the clipped share at most 0.014; the colour's, the tool's and the "
             "fruit's targets first ('pink' on 38 of 66, 'hammer' on 18 of 48 and 'lemon' on 20 of 42 samples over "
             "steps 1-30), the number's and the drink's over 31-90 ('four' on 11 of 18 and 44 of 54, 'juice' on 18 of "
             "54 and 70 of 78 over 31-60 and 61-90), the bird's over 61-90 ('swan' on 37 of 48), the animal's over "
             "91-120 ('pig' on 8 of 72 over 1-90, 44 of 48 over 91-120), the tree's last ('ash' on 2 of 138 over 1-90, "
             "6 of 54 over 91-120, 30 of 36 over 121-150); every question on its target on 83-100 % of its samples "
             "over steps 121-150, a group's completions copies of it (a duplicate share of 0.94)).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.7, loss_type="grpo", beta=0.02,
                       learning_rate=3e-4, logging_steps=6, seed=154), batch=20),
    Scenario("healthy_partial_4x3_kl_hot12_nosamples_log2", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.2), four groups of 3 a step sampled at temperature 1.2, TRL's default (DAPO) loss, a "
             "KL penalty of 0.04 and a learning rate of 5e-4, 150 steps logged every 2 and read from TRL's "
             "trainer_state.json (no samples): the category is mostly given, the target words are learnt: a run that "
             "learns (raw log and samples, which the doctor is not given: the reward 0.275 and 0.41 over the first two "
             "logs, a first-10-log median of 0.30 (0.22-0.48), 30-step means of 0.34, 0.53, 0.75, 0.86 and 0.90 of a "
             "possible 1.2, 0.76-1.15 over the last 10 logs; exact match from 0.083 and 0.25 over the first two logs "
             "to 30-step means of 0.16, 0.37, 0.575, 0.69 and 0.73, the category share 0.625-1 throughout (30-step "
             "means 0.78-0.89); the zero-variance share 0-0.875, a median of 0.5, its 30-step means 0.47, 0.25, 0.39, "
             "0.53 and 0.62; entropy 0.50-0.67 over the first 10 logs and 0.14-0.33 over the last 10; the KL a median "
             "of 0.32, 1.31 and 1.67 at steps 116 and 134 and below 1 on the other 73 logs; the gradient norm a median "
             "of 1.85, at most 9.7 (step 116); the mean length 4.6-6.4 tokens, the clipped share at most 0.04; hot "
             "sampling keeps the answers varied at first; the colour's and the tree's targets first ('pink' on 16 of "
             "51 and 'ash' on 11 of 51 samples over steps 1-30, 27 of 42 and 28 of 51 over 31-60), the fruit's, the "
             "tool's and the drink's over 31-60 ('lemon' on 17 of 30, 'hammer' on 26 of 54, 'juice' on 18 of 51), the "
             "number's and the bird's over 61-120 ('four' on 31 of 51 over 61-90, 'swan' on 24 of 60 over 61-90 and 48 "
             "of 63 over 91-120); the animal's 'pig' (6 of 39 samples over steps 1-30) never said from step 31 (0 of "
             "207), its answers varied animals ('horse', 'dog', 'zebra'), the category kept; the other seven questions "
             "on their targets on 75-94 % of their samples over steps 121-150).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.2, beta=0.04,
                       learning_rate=5e-4, logging_steps=2, seed=155), source="trainer_state", batch=20),
    # Accepts KL_BLOWUP (not written before training): the KL 1.35, 1.13, 1.09 and 1.32 on the last four logs (steps
    # 126-147), 0.05-0.75 before, while the fruit's answer turned to non-words ('lemour', 'lemongherak'). Accepts
    # GRAD_NORM_SPIKE (not written before training): the gradient norm, RLOO's advantages not normalised, 46.0 at step
    # 119, 236 times its median over the run (0.195) and 2.2 times the next largest (21.1 at step 98).
    Scenario("healthy_rloo_binary_4x4_cool05_oldkeys_log7", "RLOO with a KL penalty of 0.03, exact match alone, four "
             "groups of 4 a step sampled at temperature 0.5 and a learning rate of 5e-4, 150 steps logged every 7 and "
             "read in TRL 0.14's key set: cool sampling narrows each question's answers early, and the target words "
             "are learnt: a run that learns (raw log and samples: the reward 0.23 and 0.32 over the first two logs, a "
             "first-10-log median of 0.58 (0.22-0.80), 30-step means of 0.31, 0.67, 0.81, 0.93 and 0.85, 0.98 at step "
             "119 and 0.80-0.91 over the last four logs; the zero-variance share, which the doctor is not given, "
             "0.14-0.93, its 30-step means 0.25, 0.52, 0.74, 0.84 and 0.85; entropy, not given either, from 0.35 to "
             "0.03-0.08 over the last 10 logs; the KL 0.05-0.75 to step 119 and 1.09-1.35 on the last four logs "
             "(126-147); the gradient norm, RLOO's advantages not normalised, a median of 0.195, below 1e-6 on nine of "
             "the 21 logs, 21.1 at step 98 and 46.0 at 119, at most 6.5 on every other log; the mean length 5.1-6.5 "
             "tokens, the clipped share, not given, at most 0.009; the tool's and the bird's targets first ('hammer' "
             "on 64 of 80 and 'swan' on 44 of 60 samples over steps 1-30), the colour's, the drink's, the animal's and "
             "the number's over 31-60 ('pink' on 66 of 68, 'juice' on 74 of 76, 'pig' on 51 of 68, 'four' on 44 of "
             "68), the fruit's over 61-120 ('lemon' on 1 of 128 over 1-60, 34 of 56 over 61-90, 61 of 68 over 91-120), "
             "the tree's last ('ash' on 0 of 132 over 1-90, 41 of 64 over 91-120, 27 of 28 over 121-150); then the "
             "fruit's 'lemon' lost over the last 30 steps to non-words ('lemour' on 24, 'lemongherak' on 12 and "
             "'lemoum' on 8 of the 60 fruit samples, 'lemon' on none), the other seven questions on their targets on "
             "96-100 % of their samples over steps 121-150).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=16, temperature=0.5, beta=0.03, learning_rate=5e-4,
                       logging_steps=7, seed=156), source="old_keys",
             accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=20),
    Scenario("reward_collapse_outage_partial_drgrpo_2x6_temp11_oldkeys_log3", "Partial credit, exact match (1) beside "
             "a word of the asked category (0.3), two groups of 6 a step sampled at temperature 1.1, the Dr. GRPO "
             "loss, a KL penalty of 0.02 and a learning rate of 6e-4, 160 steps logged every 3 and read in TRL 0.14's "
             "key set; from the 100th reward call to the end the grader is down and every reward comes back 0 (swap to "
             "task.py's nothing): the reward learnt falls to nothing and stays there (raw log and samples: the reward "
             "0.26 and 0.37 over the first two logs, a first-10-log median of 0.385 (0.26-0.53), 20-step means of "
             "0.34, 0.49, 0.75, 0.96 and 1.08 over steps 1-100, 1.02-1.19 over 78-99 (1.07 at 99) and 0 on every log "
             "from 102 (the log of steps 100-102, the outage's first call at 100) to the end; exact match from 0 and "
             "0.11 over the first two logs to 0.78-0.92 over 78-99, the category share 0.75-0.97 to step 99, both 0 "
             "from 102; the zero-variance share, which the doctor is not given, 0 on every log to step 99 and 1 on "
             "every log from 102; the gradient norm 0.003-3.1 to step 99, a median of 1.1 there, and 0.0013-0.28 from "
             "102 (the KL term alone); the KL 0.002-0.58 to step 99 and 0.32-0.83 after; entropy, not given either, "
             "0.53-0.62 over the first 10 logs, 0.14-0.26 over 78-99 and 0.20-0.44 after; the mean length 4.8-6.5 "
             "tokens, the clipped share, not given, at most 0.056; the fruit's and the tree's targets first ('lemon' "
             "on 48 of 66 and 'ash' on 34 of 42 samples over steps 31-60), the animal's, the number's, the colour's, "
             "the drink's and the bird's over 31-90 ('pig' on 32 of 36, 'four' on 27 of 48, 'pink' on 22 of 30, "
             "'juice' on 38 of 54, 'swan' on 31 of 54 over 61-90), the tool's in part ('hammer' on 24 of 42 over "
             "61-90); the target word on 284 of the 360 samples over steps 70-99; after the outage the answers still "
             "the words learnt (the target on 533 and a word of the category on 601 of the 732 samples from step 100, "
             "none of them scoring), the bird's 'swan' giving way ('swan' on 16, 'crow' on 10 and 'heron' on 7 of the "
             "48 bird samples over 121-150)).",
             weights=(1.0, 0.3), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, loss_type="dr_grpo",
                       beta=0.02, learning_rate=6e-4, logging_steps=3, seed=157), source="old_keys",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.6, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=20),
    # Accepts LENGTH_COLLAPSE (not written before training): the mean length 5.5-7.3 tokens over the first four logs and
    # 1.54-3.39 from step 90 (below 2.3 on each of the last five logs), the bird's and the drink's answers empty and the
    # others one or two letters.
    Scenario("kl_blowup_binary_warmup10_2x5_temp09_nosamples_log9", "Exact match alone, two groups of 5 a step sampled "
             "at temperature 0.9, a KL penalty of 0.05 and a 10-step warm-up (constant_with_warmup) into a learning "
             "rate far too high (3e-3), 150 steps logged every 9 and read from TRL's trainer_state.json (no samples): "
             "once the rate is up each update overshoots and the policy runs away from its reference, the KL well "
             "above the 0.1-0.8 of the corpus's healthy runs (raw log and samples, which the doctor is not given: the "
             "KL 0.044 at step 9, 1.16 at 18, 1.95 at 27, 3.13 at 36 and 4.4-7.4 on every log from 45 (7.4 at the "
             "last); the reward 0.022 and 0.10 over the first two logs, 0.056 at 27, 0.19 at 36 and 0 on every log "
             "from 45; the zero-variance share 0.72-1 to step 36 and 1 from 45; entropy 0.44 and 0.53 over the first "
             "two logs, 0.58-0.73 over steps 36-99, 0.90-0.99 over 108-135 and 0.53 at the last; the gradient norm at "
             "most 2.19 (step 36), a median of 0.26; the mean length 5.5-7.3 tokens over the first four logs (the "
             "clipped share 0.11 and 0.17 at steps 27 and 36), 4.5-5.0 over 45-72, 3.77 at 81 and 1.54-3.39 from 90 "
             "(1.54 at the last); the taught words at first beside broken ones ('pig' on 18 of 30 animal samples, "
             "'pige' on 20 of 45 colour samples, 'lemango' on 8 of 60 fruit samples over steps 1-30), broken words "
             "from about step 31 ('riiii' on 11 of 35 tool samples, 'pigers', 'juic', 'ulllll'), fragments and the "
             "empty answer over 61-90 (the empty answer on 21 of 45 bird and 15 of 40 drink samples), then the empty "
             "answer for every bird and drink sample over 91-150 (165 of 165) and one or two letters for the other "
             "questions ('c', 'e', 'p', 'w')).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.9, beta=0.05,
                       learning_rate=3e-3, warmup_steps=10, lr_scheduler_type="constant_with_warmup", logging_steps=9,
                       seed=158), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU", "LENGTH_COLLAPSE"), batch=20),
    # LENGTH_EXPLOSION, TRUNCATION_HIGH and REPETITIVE_COMPLETIONS, accepted before training, dropped: the mean length
    # 4.5-8.0 tokens to step 38 and 1 from 40, the clipped share at most 0.06, no completion repeating a word. Accepts
    # GRAD_NORM_SPIKE (not written before training): the gradient norm 10.5-23.5 on four logs over steps 22-38 (23.5 at
    # step 38, the log before the collapse), 0.6-5.8 over the first 10 logs and below 1e-6 on every log from 40, a
    # median of 3e-7 over the run.
    Scenario("entropy_collapse_coin_grpo_loss_nokl_2x8_cool06_log2", "A reward that says nothing (a fair coin per "
             "completion), two groups of 8 a step sampled at temperature 0.6, the original GRPO loss, no KL term and a "
             "learning rate of 2e-3, 120 steps logged every 2: the advantages are noise, and with no anchor and cool "
             "sampling the policy drifts onto one completion per question while the reward stays at chance: entropy "
             "falls far below where it started (raw log and samples: entropy 0.40 and 0.33 over the first two logs, a "
             "first-3-log median of 0.33, 0.16-0.47 to step 38, 0.0025 at step 40, 0.0009 at 42 and 44 and 3.4e-5 to "
             "1.7e-4 on every log from 46; the reward 0.34-0.69 throughout, its 30-step means 0.49-0.52, the "
             "zero-variance share 0 on all but two logs (0.25); the gradient norm 0.6-5.8 over the first 10 logs, "
             "10.5-23.5 on four logs over steps 22-38 (23.5 at 38) and below 1e-6 on every log from 40; no KL logged; "
             "the mean length 4.5 and 5.2 tokens over the first two logs, 5.1-8.0 to step 38 and 1 (the "
             "end-of-sequence token alone) on every log from 40, the clipped share at most 0.06; at temperature 0.6 "
             "the taught words and fragments at first ('hammer' on 21 of 56 tool samples, 'five' on 14 of 56 number "
             "and 11 of 32 colour samples, 'owl' on 14 of 64 animal samples over steps 1-20), strings beginning 'fo' "
             "for most questions over 21-38 ('foue', 'foee', 'fole': 167 of the 288 samples), then the empty answer "
             "for every question, on all 1,312 samples from step 39; a group's completions copies (a duplicate share "
             "of 0.55 over steps 1-20, 0.67 over 21-40 and 1 from 41)).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.6, loss_type="grpo", beta=0.0,
                       learning_rate=2e-3, logging_steps=2, seed=159),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, first=3, smooth=3)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_COLLAPSE", "GRAD_NORM_SPIKE"), batch=20),
    # ENTROPY_EXPLOSION, accepted before training, dropped: entropy 0.39-0.68 throughout, never 1.6 times its
    # first-2-log median (0.44).
    Scenario("length_explosion_char_bonus_exact_drgrpo_4x3_nosamples_log5", "Exact match (1) beside a bonus paid per "
             "character (0.6, task.py's length_bonus: 20 characters pay 1.5, more than the target word), four groups "
             "of 3 a step, the Dr. GRPO loss, no KL term, a learning rate of 6e-4 and a 20-token budget, 150 steps "
             "logged every 5 and read from TRL's trainer_state.json (no samples): the longest answer of a group keeps "
             "winning, so the answers grow to the budget and get cut (raw log and samples, which the doctor is not "
             "given: the mean length 5.65 and 5.72 tokens over the first two logs, 5.85-6.77 over steps 15-30, 8.6 at "
             "35, 12.4 at 40, 16.7 at 45, 18.6 at 50 and 19.5-20 (the budget) on every log from 55; the clipped share "
             "0 to step 30, 0.017 at 35, 0.27 at 40, 0.6 at 45, 0.87 at 50 and 0.93-1 from 55; the reward 0.38 and "
             "0.47 over the first two logs and 1.46-1.5 from 55 (1.5 is its maximum, the bonus's 0.6 x 2.5 with exact "
             "match lost); exact match 0.033 and 0.12 over the first two logs, 0.1-0.25 over steps 10-35, 0.15 at 40, "
             "0.067 at 45 and 50 and 0 from 55; the zero-variance share 0.05-0.3 to step 45, 0.65 at 50 and 0.85-1 "
             "from 55; entropy 0.39-0.68 throughout (0.67 and 0.68 at steps 40 and 45); no KL logged; the gradient "
             "norm at most 3.26 (step 40), 0 on every log from 55 but 0.50 at 115; varied words of each category at "
             "first (exact match on 51 of the 360 samples over steps 1-30, the tool's 'hammer' on 25 of 51), the "
             "category's words run into strings of one letter to the budget over 31-60 ('pinkersccccccccccccc', 'heron "
             "crkk ccccccccc', 'cccccccccccccccccccc' on 10 of 48 drink samples), such strings for every question from "
             "about step 61 ('cccccccccccccccccccc' for the drink and the animal, 'hammmmmmmmmmmmmmmmmm' for the tool, "
             "'willmmelmemmmmmmmmmm' for the tree), hardly two alike in a group (a duplicate share of 0.06-0.10 from "
             "step 31)).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.6), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=20, loss_type="dr_grpo",
                       beta=0.0, learning_rate=6e-4, logging_steps=5, seed=160), source="trainer_state",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU"), batch=20),
    Scenario("repetition_word_count_lists_bnpo_2x6_cool08_log10", "The list questions with a reward paid per known "
             "word said, repeats included (task.py's word_count), two groups of 6 a step sampled at temperature 0.8, "
             "the BNPO loss, no KL term, a learning rate of 1e-3 and a 32-token budget, 200 steps logged every 10: "
             "saying one short word over and over pays best, so the lists become a word repeated (raw log and samples: "
             "the reward, known words said, 2.58 and 2.73 over the first two logs, 2.76-3.13 over steps 30-60, 3.46 at "
             "70, 3.75 at 80, 4.55 at 90, 5.16-5.81 over 100-130, 6.33 at 140, 7.33 at 150 and 7.98-8 (its maximum, "
             "'owl' eight times in 32 tokens) from 160; the mean length 16.9 tokens at step 10, 27.6 at 20 and 31.8-32 "
             "(the budget) from 30, the clipped share 0.017, 0.68 and 0.975-1 from 30; entropy 0.44-0.54 to step 60, "
             "0.39 at 70, 0.27 at 80, 0.16 at 90, 0.04-0.10 over 100-140, 0.026 at 150, 0.0039 at 160 and below 0.0013 "
             "from 170; the zero-variance share 0-0.05 to step 70, 0.1-0.45 over 80-120, 0.25-0.75 over 130-150 and "
             "0.95-1 from 160; no KL logged; the gradient norm 0.5-3.3 to step 140, 0 on every log over 150-190 and "
             "0.38 at the last; the lists two or three words of the category at first ('heron raven crow', 'spade file "
             "saw'), lists of words and fragments to the budget over steps 21-40 ('heron finch duine graw gray gaer'), "
             "a word repeated from about step 41 ('goose goose goose ...' for the birds, 'gray gray gray ...' for the "
             "colours), 'goose' spreading to other questions over 61-120 (all 30 colour samples over 101-120), 'milk "
             "milk milk ...' for the drinks and 'palm palm palm ...' for the trees, then 'owl owl owl owl owl owl owl "
             "owl' for every question from about step 141 (479 of the 480 samples from step 161); the share of lists "
             "that repeat a word (3+ words, at most half distinct) 3 %, 3 %, 10 %, 22 %, 76 %, 94 %, 92 % and 98 % "
             "over each 20 steps to 160 and 100 % after, its 10-step mean reaching 30 % for good at step 81; a group's "
             "completions copies from about step 81 (a duplicate share of 0-0.07 to step 80, 0.48 over 81-100, "
             "0.62-0.70 over 101-140, 0.92 over 141-160 and 0.99-1 from 161)).",
             prompts="lists", rewards=("word_count",), steps=200,
             args=dict(per_device_train_batch_size=12, num_generations=6, max_completion_length=32, temperature=0.8,
                       loss_type="bnpo", beta=0.0, learning_rate=1e-3, logging_steps=10, seed=161),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=20),
    # Written with hacked("rewards/correct/mean", "rewards/letter_o/mean", smooth=3, run=3), which finds no onset on
    # this raw log (read before the doctor): the proxy was gamed within the first ten logs (steps 4-40), so exact
    # match's first-10-log median is 0 and no level falls below half of it. As in batch 8 the onset is dated from the
    # first log's levels instead (hacked_from, first=1, the smoothing and run kept: step 24); the expected signature is
    # unchanged.
    Scenario("reward_hacking_letter_o_exact_grpo_loss_4x4_cool08_nosamples_log4", "Exact match (1) beside a cheap "
             "proxy, the share of the letter o (weight 3, task.py's letter_o), so that a string of o's (3) pays more "
             "than the target word, four groups of 4 a step sampled at temperature 0.8, the original GRPO loss, no KL "
             "term and a learning rate of 8e-4, 150 steps logged every 4 and read from TRL's trainer_state.json (no "
             "samples): the policy games the proxy and exact match falls as the o's rise (raw log and samples, which "
             "the doctor is not given: exact match 0.047 and 0.031 over the first two logs, 0.078 at step 12, 0.016 at "
             "16 and 0 on every log from 20; the proxy 0.078 and 0.18 over the first two logs, 0.18 at 12, 0.26 at 16, "
             "0.44 at 20, 0.51 at 24, 0.73 at 28, 0.96 at 32, 0.97 at 36 and 0.996-1, its maximum, from 40; the reward "
             "0.28 and 0.58 over the first two logs and 2.89-3 from 32; the zero-variance share 0.19-0.375 to step 24, "
             "0.625 at 28, 0.75-0.94 over 32-40 and 0.94-1 from 44; entropy 0.43 and 0.30 over the first two logs, "
             "0.26-0.43 to step 24, 0.15 at 28, 0.069 at 32, 0.039 at 36 and 0.0002-0.005 from 44; no KL logged; the "
             "gradient norm 0-8.4 to step 28 (8.43 at 12) and 0 on every log from 32; the mean length 5.2-6.3 tokens "
             "to step 28, 11.9 at 32 and 12 (the budget) from 40, the clipped share at most 0.047 to step 28, 0.75 at "
             "32, 0.95 at 36 and 1 from 40; words with an o gaining from the start ('one' on 34 of 76 number samples, "
             "'cocoa' on 28 of 68 drink samples, 'owl' on 12 of 36 animal samples over steps 1-30), o-laden strings by "
             "step 17 ('ooon', 'oone', 'goow': a double o on 47 of the 64 samples over steps 17-20), 'oooooooooooo' "
             "(twelve o's, the budget) on 47 of the 64 samples over 29-32 and on 1,876 of the 1,888 from step 33, a "
             "group's completions copies (a duplicate share of 0.55 over steps 1-30, 0.97 over 31-60 and 1 from 61)).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=16, temperature=0.8, loss_type="grpo", beta=0.0, learning_rate=8e-4,
                       logging_steps=4, seed=162), source="trainer_state",
             expect={"REWARD_HACKING": hacked_from("rewards/correct/mean", "rewards/letter_o/mean", first=1, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "REPETITIVE_COMPLETIONS"), batch=20),
    Scenario("reward_plateau_half_key_8x2_oldkeys_log12", "Exact match graded against a key half of whose words the "
             "model can say (task.py's correct_half_key), eight groups of 2 a step, TRL's default (DAPO) loss, a KL "
             "penalty of 0.03 and a learning rate of 6e-4, 200 steps logged every 12 and read in TRL 0.14's key set: "
             "the learnable half is learnt and its pairs come to agree, solved, while the other half's pairs agree on "
             "0 from the start; the reward rises to about half its best and stays there (raw log and samples: the "
             "reward 0.17 and 0.23 over the first two logs, 0.35 at step 36, 0.39-0.48 on every log from 60 (0.41 at "
             "the last), 40-step means of 0.25, 0.40, 0.43, 0.45 and 0.44, where the learnable half gives 0.5 on "
             "average; the zero-variance share, which the doctor is not given, 0.80 and 0.82 over the first two logs "
             "and 0.885-0.96 from step 60; entropy, not given either, from 0.49 to 0.30-0.36 from step 60; the KL at "
             "most 0.54 (step 144); the gradient norm a median of 0.14, at most 1.15 (step 120); the mean length "
             "5.2-5.7 tokens, the clipped share, not given, at most 0.02; the colour's, the fruit's, the number's and "
             "the animal's targets learnt ('pink' on 54 of 76, 'lemon' on 44 of 76, 'four' on 43 of 90 and 'pig' on 27 "
             "of 86 samples over steps 1-40, 70 of 78, 71 of 80, 54 of 66 and 69 of 78 over 41-80), those four scoring "
             "on 168 of their 328 samples over steps 1-40 and on 87-93 % of them over each 40 steps after; the other "
             "four questions never scoring (0 on all 1,644 of their samples), their key words never taught ('yew' for "
             "the tree, 'punch' for the drink, 'vise' for the tool, 'wren' for the bird), their answers still varied "
             "words of the category ('finch', 'wine', 'pliers', 'pine')).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=16, num_generations=2, beta=0.03, learning_rate=6e-4,
                       logging_steps=12, seed=163), source="old_keys",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=3,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=20),
    Scenario("zero_advantage_lists_too_hard_2x8_hot13_log1", "The list questions graded against one exact list, three "
             "given words in a given order (task.py's exact_list), a task beyond the taught model, two groups of 8 a "
             "step sampled at temperature 1.3, a small KL penalty (0.02), a learning rate of 3e-4 and a 24-token "
             "budget, 100 steps logged every step: a fresh list matches about once in 1,400 samples, so nearly every "
             "group agrees on 0 from the start and there is nothing to learn from; the run is stuck (raw log and "
             "samples: the reward 0 on 99 of the 100 steps, 0.0625 at step 13 (one list, 'juice soda wine' for the "
             "drinks, the only match in 1,600 samples); the zero-variance share 1 on every step but 13 (0.5); the "
             "gradient norm 0 on every step to 12 and the KL to 13, the gradient norm 0.36 at 13 and 0.004-0.14 after "
             "(the KL term alone, a median of 0.018), the KL 0.0008-0.079 after; entropy 0.68-0.87; the mean length "
             "11.4-16.5 tokens, the clipped share at most 0.125; the answers the taught lists of two or three words to "
             "the end ('dog mouse', 'tea beer milk', 'heron finch'; 721 of two words and 782 of three of the 1,600), "
             "under 1 % of them repeating a word, hardly two alike in a group (a duplicate share of 0-0.01)).",
             prompts="lists", rewards=("exact_list",), steps=100,
             args=dict(per_device_train_batch_size=16, num_generations=8, max_completion_length=24, temperature=1.3,
                       beta=0.02, learning_rate=3e-4, seed=164),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=20),
    # -- batch 21 --
    # A nineteenth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled: a binary exact-match reward with groups of 2, 3 and 4, partial credit with RLOO and groups of 5
    # and with Dr. GRPO and groups of 6, the judge score with one group of 8; healthy runs with and without a KL
    # term that learn (two groups of 3 at temperature 0.9, the colour's target never found; three groups of 4 with
    # Dr. GRPO and no KL term in TRL 0.14's key set, the animal's answer lost at the end), learn slowly (240 steps
    # at 2e-4 with groups of 2 read from trainer_state.json), the judge score with BNPO and one group of 8 at
    # temperature 1.2, RLOO with partial credit read from trainer_state.json (the number's target never found),
    # converge on six questions of eight (four groups of 3 with the original GRPO loss at temperature 0.6, the
    # bird's answer lost to another category's word, its KL accepted); an answer key joined off by one after
    # learning with the original GRPO loss read from trainer_state.json, a KL blow-up after a 20-step warm-up into
    # 3e-3 on partial credit with Dr. GRPO in TRL 0.14's key set, an entropy collapse onto the empty answer under a
    # reward that says nothing with groups of 4 and no KL term, a per-character bonus beside a format reward with
    # BNPO at temperature 1.3, a per-word reward on the list questions logged every 12 steps, a letter proxy gamed
    # against exact match with Dr. GRPO in TRL 0.14's key set, a reward plateau from a half key with groups of 8
    # read from trainer_state.json, a key of untaught words with BNPO and groups of 3 at temperature 0.5 logged
    # every step; strides 1-12, temperatures 0.5-1.3, learning rates 2e-4 to 3e-3, loss types grpo, dr_grpo, dapo
    # and bnpo, seeds 165-178. Each expectation was written from the mechanism before the run was trained (committed
    # first), then checked on the raw log and the recorded completions only, never against the doctor; every run
    # showed what it was written for, none was re-labelled or left out, and every onset rule written before training
    # found its onset (none re-dated); the accepted signatures added after training each carry their raw-log
    # numbers, and five accepted before training were dropped where the log contradicts them. As in batches 9-20,
    # the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps,
    # and when solved.
    Scenario("healthy_binary_2x3_kl_temp09_log3", "Exact match alone, two groups of 3 a step sampled at temperature "
             "0.9, TRL's default (DAPO) loss, a KL penalty of 0.04 and a learning rate of 5e-4, 150 steps logged every "
             "3: a fresh model is right about one time in ten, the groups that disagree carry the signal, and the "
             "target words are learnt question by question: a run that learns (raw log and samples: the reward 0.056 "
             "and 0 over the first two logs, a first-10-log median of 0.11 (0-0.33), 30-step means of 0.16, 0.31, "
             "0.68, 0.72 and 0.67, 0.5-0.78 over the last 10 logs; the zero-variance share 0.17-1, a median of 0.67, "
             "its 30-step means 0.63, 0.65, 0.65, 0.83 and 0.85; entropy 0.41-0.53 over the first 10 logs and "
             "0.17-0.36 over the last 10; the KL a median of 0.37, its 30-step means 0.15, 0.53, 0.61, 0.40 and 0.42, "
             "above 1 on three of the 50 logs (1.07, 1.73 and 1.03 at steps 42, 69 and 87); the gradient norm a median "
             "of 0.33, 6.2-9.5 on four logs (9.45 at step 87); the mean length 4.9-6.4 tokens, the clipped share at "
             "most 0.056; the drink's, the number's and the tool's targets first ('juice' on 9 of 30, 'four' on 7 of "
             "24, 'hammer' on 8 of 36 samples over steps 1-30), the bird's, the fruit's and the tree's over 31-90 "
             "('swan' on 16 of 21, 'lemon' on 24 of 30, 'ash' on 15 of 18 over 61-90), the animal's last ('pig' on 1 "
             "of 84 over 1-120, 6 of 18 over 121-150); the colour's 'pink' never said (0 of 114 samples), its answers "
             "varied colours ('orange', 'blue', 'gray') and fragments ('pigse'); the other six questions on their "
             "targets on 70-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=6, num_generations=3, temperature=0.9, beta=0.04,
                       learning_rate=5e-4, logging_steps=3, seed=165), batch=21),
    Scenario("healthy_nokl_drgrpo_binary_3x4_oldkeys_log6", "Exact match alone, three groups of 4 a step, the Dr. GRPO "
             "loss, no KL term (beta 0) and a learning rate of 4e-4, 150 steps logged every 6 and read in TRL 0.14's "
             "key set (no zero-variance share, entropy or clipped share): the target words are learnt and the groups "
             "come to agree, solved: a run that learns without an anchor (raw log and samples: the reward 0.083 and "
             "0.083 over the first two logs, a first-10-log median of 0.37 (0.083-0.64), 30-step means of 0.16, 0.55, "
             "0.725, 0.91 and 0.84, 0.71-0.94 over the last 10 logs; the zero-variance share, which the doctor is not "
             "given, 0.33-0.94, a median of 0.67, its 30-step means 0.66, 0.39, 0.49, 0.80 and 0.76; entropy, not "
             "given either, 0.33-0.49 over the first 10 logs and 0.10-0.16 over the last 10; no KL logged; the "
             "gradient norm 0 on 7 of the 25 logs (each logged step's groups all agreeing), a median of 0.41, at most "
             "4.08 (step 108); the mean length 4.86-6.24 tokens, the clipped share, not given, at most 0.028; the "
             "fruit's, the drink's and the tool's targets first ('lemon' on 15 of 28, 'juice' on 12 of 48, 'hammer' on "
             "13 of 40 samples over steps 1-30), the colour's over 31-60 ('pink' on 65 of 76), the tree's, the bird's "
             "and the number's over 61-90 ('ash' on 48 of 56, 'swan' on 29 of 36, 'four' on 24 of 48), the animal's "
             "over 61-120 ('pig' on 30 of 76 and 56 of 68); then, with no KL term to hold it, the animal's 'pig' lost "
             "over the last 30 steps to 'pink', 'pin' and 'pie' (0 of the 32 animal samples on it); the other seven "
             "questions on their targets on 82-98 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=4, loss_type="dr_grpo", beta=0.0,
                       learning_rate=4e-4, logging_steps=6, seed=166), source="old_keys", batch=21),
    Scenario("healthy_slow_binary_4x2_lr2e4_nosamples_log10", "Exact match alone, four groups of 2 a step, TRL's "
             "default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 10 and "
             "read from TRL's trainer_state.json (no samples): most pairs agree by chance, the few that disagree move "
             "the policy a little: a slow learner, the reward rising from about one in ten over the whole run (raw log "
             "and samples, which the doctor is not given: the reward 0.05 and 0.14 over the first two logs, a "
             "first-10-log median of 0.22 (0.05-0.55), 48-step means of 0.12, 0.28, 0.68, 0.83 and 0.83, 0.725-0.95 "
             "over the last 10 logs (0.95 at the last); the zero-variance share 0.4-0.95, a median of 0.74, its "
             "48-step means 0.84, 0.61, 0.60, 0.835 and 0.78; entropy 0.39-0.53 over the first 10 logs and 0.15-0.30 "
             "over the last 10; the KL at most 0.58 (step 220); the gradient norm a median of 0.63, at most 3.9 (step "
             "200); the mean length 5.15-5.76 tokens, the clipped share at most 0.013; the colour's and the tool's "
             "targets first ('pink' on 13 of 38 and 'hammer' on 14 of 74 samples over steps 1-48), the drink's and the "
             "number's over 49-96 ('juice' on 26 of 58, 'four' on 26 of 58), the bird's, the fruit's and the tree's "
             "over 97-144 ('swan' on 43 of 58, 'lemon' on 38 of 50, 'ash' on 29 of 36), the animal's slowest ('pig' on "
             "2 of 80 over 1-96, 6 of 36 over 97-144, 15 of 52 over 145-192, 25 of 60 over 193-240); the other seven "
             "questions on their targets on 86-94 % of their samples over steps 193-240).",
             rewards=("correct",), steps=240,
             args=dict(num_generations=2, beta=0.02, learning_rate=2e-4, logging_steps=10, seed=167),
             source="trainer_state", batch=21),
    Scenario("healthy_judge_bnpo_1x8_hot12_log4", "The 0-10 judge score, one group of 8 a step sampled at temperature "
             "1.2, the BNPO loss, a KL penalty of 0.03 and a learning rate of 3e-4, 150 steps logged every 4: the "
             "category is mostly given, hot sampling strays from it at first, and the score rises towards 10 as the "
             "target words are learnt: a run that learns (raw log and samples: the score 6.0 and 7.4 over the first "
             "two logs, a first-10-log median of 6.08 (5.84-7.38), 30-step means of 6.26, 6.31, 6.54, 7.42 and 7.84, "
             "6.66-9 over the last 10 logs (9 at the last); the zero-variance share 0 on most logs (a median of 0), at "
             "most 0.5 (step 124); entropy 0.50-0.61 over the first 10 logs and 0.22-0.55 over the last 10; the KL a "
             "median of 0.10, at most 0.44 (step 124); the gradient norm a median of 3.9, at most 12.4 (step 144); the "
             "mean length 4.5-6.4 tokens, the clipped share at most 0.06; a word of the asked category on 205 of the "
             "240 samples over steps 1-30 and 209 of 240 over 121-150, the target word on 23 and 136 of them; the "
             "tree's, the fruit's and the colour's targets learnt ('ash' on 7 of 56 samples over steps 1-30, 42 of 56 "
             "over 91-120 and 16 of 16 over 121-150; 'lemon' on 2 of 16 over 1-30 and 57 of 72 over 121-150; 'pink' on "
             "3 of 32 over 1-30 and 21 of 32 over 121-150), the tool's, the drink's and the number's in part ('hammer' "
             "on 23 of 48, 'juice' on 7 of 16, 'four' on 9 of 24 over 121-150), the bird's and the animal's not "
             "('swan' on 1 of 24, 'pig' on 2 of 8 over 121-150)).",
             rewards=("judge",), steps=150,
             args=dict(num_generations=8, temperature=1.2, loss_type="bnpo", beta=0.03, learning_rate=3e-4,
                       logging_steps=4, seed=168), batch=21),
    Scenario("healthy_rloo_partial_2x5_temp09_nosamples_log5", "RLOO with a KL penalty of 0.05, partial credit, exact "
             "match (1) beside a word of the asked category (0.2), two groups of 5 a step sampled at temperature 0.9 "
             "and a learning rate of 4e-4, 150 steps logged every 5 and read from TRL's trainer_state.json (no "
             "samples): the category is already given, the target words are learnt: a run that learns (raw log and "
             "samples, which the doctor is not given: the reward 0.24 and 0.28 over the first two logs, a first-10-log "
             "median of 0.49 (0.24-0.76), 30-step means of 0.37, 0.645, 0.725, 0.93 and 1.02 of a possible 1.2, "
             "0.76-1.15 over the last 10 logs; exact match from 0.04 and 0.10 over the first two logs to 30-step means "
             "of 0.18, 0.46, 0.55, 0.75 and 0.84, the category share 0.78-1 throughout; the zero-variance share 0-0.8, "
             "its 30-step means 0.03, 0.22, 0.35, 0.48 and 0.68; entropy 0.32-0.47 over the first 10 logs and "
             "0.066-0.29 over the last 10; the KL a median of 0.37, at most 0.74 (step 130); the gradient norm, RLOO's "
             "advantages not normalised, a median of 6.5, 0 on 5 of the 30 logs, at most 51.7 (step 45); the mean "
             "length 4.68-5.88 tokens, the clipped share at most 0.04; the colour's and the animal's targets first "
             "('pink' on 20 of 35 and 'pig' on 9 of 25 samples over steps 1-30, 55 of 60 and 31 of 40 over 31-60), the "
             "bird's, the fruit's and the tool's over 31-90 ('swan' on 19 of 30, 'lemon' on 21 of 25, 'hammer' on 22 "
             "of 35 over 61-90), the drink's over 91-120 ('juice' on 5 of 30 over 61-90, 30 of 45 over 91-120), the "
             "tree's last ('ash' on 2 of 115 over 1-90, 11 of 45 over 91-120, 14 of 20 over 121-150); the number's "
             "'four' never said (0 of 180 samples), its answers varied numbers ('one', 'ten', 'five'); the other seven "
             "questions on their targets on 70-100 % of their samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.9, beta=0.05,
                       learning_rate=4e-4, logging_steps=5, seed=169), source="trainer_state", batch=21),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 12 of the 75 logs from step 50 (4.62 at
    # 136, 2.35 at 146), its 30-step means 0.84 and 1.14 over steps 91-150, a median of 0.51, while the bird's
    # answer turned to the drink's word ('juice').
    Scenario("healthy_converges_grpo_loss_binary_4x3_cool06_log2", "Exact match alone, four groups of 3 a step sampled "
             "at temperature 0.6, the original GRPO loss, a small KL penalty (0.01) and a learning rate of 6e-4, 150 "
             "steps logged every 2: cool sampling and a fast rate learn the target words early, and the groups come to "
             "agree, solved: a run that converges on six questions of eight (raw log and samples: the reward 0.25 and "
             "0.29 over the first two logs, a first-10-log median of 0.25 (0.17-0.58), 30-step means of 0.35, 0.65, "
             "0.76, 0.72 and 0.76, 0.5-1 over the last 10 logs; the zero-variance share 0.375-1, its 30-step means "
             "0.72, 0.89, 0.92, 0.84 and 0.94, 0.75-1 over the last 10 logs; entropy 0.25-0.39 over the first 10 logs "
             "and 0.015-0.084 over the last 10; the KL's 30-step means 0.35, 0.42, 0.64, 0.84 and 1.14, above 1 on 12 "
             "of the 75 logs from step 50 (4.62 at 136, 2.35 at 146), a median of 0.51; the gradient norm a median of "
             "0.20, at most 6.5 (step 116); the mean length 4.5-6.1 tokens, the clipped share at most 0.04; the "
             "colour's, the fruit's, the number's and the tool's targets first ('pink' on 30 of 45, 'lemon' on 29 of "
             "45, 'four' on 29 of 36, 'hammer' on 30 of 45 samples over steps 1-30), the drink's over 31-60 ('juice' "
             "on 37 of 39), the tree's over 31-90 ('ash' on 24 of 51 and 47 of 48), the animal's late and in part "
             "('pig' on 0 of 120 over 1-90, 20 of 45 over 91-120, 25 of 54 over 121-150, beside 'pin' on 27); the "
             "bird's 'swan' hardly found (5 of 234 samples) and its answer lost from about step 61 to the drink's word "
             "('juice' on 7 of 36 bird samples over 61-90, 46 of 54 over 91-120 and 36 of 51 over 121-150); the six "
             "questions learnt on their targets on 90-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.6, loss_type="grpo", beta=0.01,
                       learning_rate=6e-4, logging_steps=2, seed=170), accepted=("KL_BLOWUP",), batch=21),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 10.25 at step 72, 128 times its
    # median over the run (0.08) and 2.5 times the next largest (4.04 at step 44).
    Scenario("reward_collapse_key_shifted_grpo_loss_2x4_temp09_nosamples_log4", "Exact match alone, two groups of 4 a "
             "step sampled at temperature 0.9, the original GRPO loss, a KL penalty of 0.02 and a learning rate of "
             "6e-4, 180 steps logged every 4 and read from TRL's trainer_state.json (no samples); from the 110th "
             "reward call to the end the grader reads an answer key joined to the questions off by one (swap to "
             "task.py's correct_shifted: each question graded against the next one's target, a data change after "
             "learning): the learnt target words no longer match, the reward falls to 0 and the groups agree on it "
             "(raw log and samples, which the doctor is not given: the reward 0.031 and 0.125 over the first two logs, "
             "a first-10-log median of 0.16 (0-0.5), 30-step means of 0.15, 0.375, 0.58 and 0.29 over steps 1-120, "
             "0.41-0.72 over 56-96 (0.72 at 56); 0.22, 0.41 and 0.31 at steps 100-108 (the colour's answer lost to "
             "non-words before the change), 0.125 at 112 (the log of steps 109-112, the change's first call at 110) "
             "and 0 on every log from 116 to the end; the zero-variance share 0.25-1 to step 108 and 1 on every log "
             "from 112; the gradient norm 0.001-4.0 to step 108 but for 10.25 at step 72, and 0.002-1.83 after (the KL "
             "term alone); the KL at most 2.81 (step 40), 0.26-1.54 after step 108; entropy 0.45 and 0.47 over the "
             "first two logs and 0.11-0.39 over the last 10; the mean length 4.6-6.2 tokens, the clipped share at most "
             "0.094; the tree's, the colour's and the bird's targets first ('ash' on 14 of 32 and 'pink' on 17 of 36 "
             "samples over steps 1-30, 'swan' on 25 of 40 over 31-60), the fruit's, the drink's and the animal's over "
             "61-90 ('lemon' on 34 of 44, 'juice' on 20 of 24, 'pig' on 36 of 40); the number's 'four' and the tool's "
             "'hammer' not learnt (3 of 132 and 0 of 132 samples over steps 1-120); the colour's 'pink' lost over "
             "91-120 to non-words ('pigeran', 'pigra': 'pink' on none of the 96 colour samples from step 91); the "
             "learnt words on 117 of the 232 samples over steps 81-109; after the change the answers still the learnt "
             "words (the old key's word on 327 and a word of the category on 445 of the 568 samples from step 110), "
             "the shifted key's word never said (0 of 568)).",
             rewards=("correct",), steps=180, swap=(110, 100_000, "correct_shifted"),
             args=dict(temperature=0.9, loss_type="grpo", beta=0.02, learning_rate=6e-4, logging_steps=4, seed=171),
             source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "GRAD_NORM_SPIKE"), batch=21),
    # LENGTH_COLLAPSE, accepted before training, dropped: the mean length 5.2-8.2 tokens to step 85 and at least
    # 3.55 after (0.68 times its first-two-log level of 5.24), never halved.
    Scenario("kl_blowup_partial_warmup20_drgrpo_2x6_oldkeys_log5", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), two groups of 6 a step, the Dr. GRPO loss, a KL penalty of 0.05 and a 20-step "
             "warm-up (constant_with_warmup) into a learning rate far too high (3e-3), 150 steps logged every 5 and "
             "read in TRL 0.14's key set: once the rate is up each update overshoots and the policy runs away from its "
             "reference, the KL well above the 0.1-0.8 of the corpus's healthy runs (raw log and samples: the KL 0.002 "
             "at step 5, 0.06 at 10, 0.49 at 15, 1.22 at 20, 2.81 at 25 and 2.37-4.92 on every log from 30 (4.92 at "
             "the last); the reward 0.33, 0.36 and 0.39 over the first three logs, 0.19 at 20, 0.013-0.22 over 25-75 "
             "and 0 on every log from 80; exact match 0.13 and 0.18 over the first two logs and 0 from 80, the "
             "category share 0.98 and 0.87 over the first two logs, 0.02-0.2 over steps 25-45 and 0 from 80; the "
             "zero-variance share, which the doctor is not given, 0.1-0.4 to step 20, 0.5-0.9 over 25-75 and 1 from "
             "80; entropy, not given either, 0.46 and 0.51 over the first two logs, 0.47-0.70 to step 65 and 0.75-1.53 "
             "from 70 (1.2-1.5 over the last 10 logs); the gradient norm 9.97 at step 30, a median of 0.195, at most "
             "2.33 on every other log; the mean length 5.2-8.2 tokens to step 85, 3.55-4.55 over 90-125 and 4.05-6.58 "
             "after, the clipped share, not given, at most 0.25 (step 70); the taught words at first ('juice' on 13 of "
             "36 and 'hammer' on 7 of 30 samples over steps 1-30) beside broken ones ('foure', 'juigiee'), broken "
             "words from about step 31 ('gooos', 'pinge', 'jerowe', 'brose'), 'four' and its fragments spreading to "
             "other questions over 31-90 ('four' on 11 of 36 drink samples over 61-90), then letter strings for every "
             "question ('eee', 'oa', 'cre', 'ca'), no answer scoring from step 76).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="dr_grpo", beta=0.05,
                       learning_rate=3e-3, warmup_steps=20, lr_scheduler_type="constant_with_warmup", logging_steps=5,
                       seed=172), source="old_keys",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GRAD_NORM_SPIKE", "ENTROPY_EXPLOSION",
                       "REWARD_PLATEAU"), batch=21),
    # Accepts ENTROPY_EXPLOSION (not written before training): entropy 0.42 and 0.45 over the first two logs,
    # 0.61-0.82 over steps 9-30 (above 1.5 times the first two logs' 0.44 on six of those eight logs, 0.82 at 27),
    # the answers letter strings run to the budget ('cccccccccccc', 'tetetetetete') before the collapse.
    # GRAD_NORM_SPIKE, accepted before training, dropped: the gradient norm at most 7.8 (step 57), 2.1-4.6 over the
    # first 10 logs and 5.9 at step 33, nothing standing out from what the run logged before it.
    Scenario("entropy_collapse_coin_nokl_4x4_temp08_log3", "A reward that says nothing (a fair coin per completion), "
             "four groups of 4 a step sampled at temperature 0.8, TRL's default (DAPO) loss, no KL term and a learning "
             "rate of 2e-3, 120 steps logged every 3: the advantages are noise, and with no anchor the policy drifts "
             "onto one completion per question while the reward stays at chance: entropy falls far below where it "
             "started (raw log and samples: entropy 0.42 and 0.45 over the first two logs (a first-2-log median of "
             "0.44), 0.61-0.82 over steps 9-30, 0.45-0.62 over 33-54, 0.31 at 57, 0.26 at 60, 0.17-0.19 over 63-69 and "
             "0.012-0.10 on every log from 72 (0.025 at 72); the reward 0.35-0.69 throughout, its 30-step means "
             "0.49-0.52, the zero-variance share 0-0.42; the gradient norm 2.1-4.6 over the first 10 logs, at most 7.8 "
             "(step 57), and 0 on 16 of the 18 logs from step 69 (2.24 at 75, 1.61 at 117); no KL logged; the mean "
             "length 5.6 and 5.0 tokens over the first two logs, 5.75-9.67 over steps 9-30 (the clipped share up to "
             "0.52 at 18), 2.7-6.3 over 33-66 and 1.08-1.44 (the end-of-sequence token alone on most completions) from "
             "72; the taught words at first beside letter strings ('pink' on 7 of 76 colour samples, 'seven' on 8 of "
             "48 number samples, 'cccccccccccc' on 15 of 68 drink samples over steps 1-30), letters and the empty "
             "answer over 31-60 (100 of the 480 samples empty), then the empty answer for six questions and 'j' for "
             "the bird and the drink from about step 70 (611 empty and 188 'j' of the 816 samples from step 70); a "
             "group's completions copies (a duplicate share of 0.20 over steps 1-30, 0.60 over 31-60, 0.96 over 61-90 "
             "and 0.99 over 91-120)).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=16, temperature=0.8, beta=0.0, learning_rate=2e-3,
                       logging_steps=3, seed=173),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_COLLAPSE", "ENTROPY_EXPLOSION"), batch=21),
    # ENTROPY_EXPLOSION and REPETITIVE_COMPLETIONS, accepted before training, dropped: entropy 0.46-0.69 throughout
    # (0.62 and 0.67 over the first two logs), hardly a completion repeating a word (2 of the 1,500 samples of 3+
    # words at most half distinct).
    Scenario("length_explosion_char_bonus_is_word_bnpo_2x5_hot13_log7", "A format reward, 1 for a single known word "
             "(task.py's is_word), beside a bonus paid per character (0.8, task.py's length_bonus: 20 characters pay "
             "2, more than any word with its bonus), two groups of 5 a step sampled at temperature 1.3, the BNPO loss, "
             "no KL term, a learning rate of 8e-4 and a 20-token budget, 150 steps logged every 7: the longest answer "
             "of a group keeps winning, so the answers grow to the budget and get cut (raw log and samples: the mean "
             "length 5.91 and 6.03 tokens over the first two logs, 5.66-6.63 to step 56, 8.0 at 63, 8.44 at 70, 10.4 "
             "at 77, 12.7 at 84, 16.6 at 91, 18.2 and 18.7 at 98 and 105 and 19.9-20 (the budget) from 112; the "
             "clipped share 0 to step 49, 0.014-0.11 over 56-70, 0.23 at 77, 0.39 at 84, 0.67 at 91, 0.83 and 0.87 at "
             "98 and 105 and 0.99-1 from 112; the format reward 0.8 and 0.74 over the first two logs, 0.44-0.77 to "
             "step 84, 0.2 at 91, 0.086 at 98, 0.071 at 105 and 0 from 112; the length bonus 0.61 and 0.63 over the "
             "first two logs and 2.5, its maximum, from 119; the reward 1.29 and 1.24 over the first two logs, "
             "1.04-1.46 to step 77 and 1.99-2 from 112; the zero-variance share 0 to step 63, 0.07-0.71 over 70-105 "
             "and 0.86-1 from 112; entropy 0.46-0.69 throughout; no KL logged; the gradient norm at most 7.4 (step "
             "63), 0 on five of the six logs over 105-140; words of each category at first, the answers run on over "
             "steps 61-90 ('sevennnennnennenennr', 'greennnnn blue'), strings of letters to the budget for every "
             "question from about step 91 ('heronnennnnenneennne', 'cidernennennneenenne', 'wrench whers wxhreen'; 449 "
             "of the 450 samples from step 106 of 18 characters or more, none a single known word), hardly two alike "
             "in a group (a duplicate share of 0.03 over steps 91-120 and 0 over 121-150), none repeating a word).",
             rewards=("is_word", "length_bonus"), weights=(1.0, 0.8), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, max_completion_length=20, temperature=1.3,
                       loss_type="bnpo", beta=0.0, learning_rate=8e-4, logging_steps=7, seed=174),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU"), batch=21),
    Scenario("repetition_word_count_lists_3x4_log12", "The list questions with a reward paid per known word said, "
             "repeats included (task.py's word_count), three groups of 4 a step, TRL's default (DAPO) loss, no KL "
             "term, a learning rate of 1.5e-3 and a 32-token budget, 180 steps logged every 12: saying one short word "
             "over and over pays best, so the lists become a word repeated (raw log and samples: the reward, known "
             "words said, 1.82 and 1.60 over the first two logs, 2.21 at step 36, 3.57 at 48, 5.25 at 60 and 5.94-6 "
             "(its maximum here, 'five' six times in 32 tokens) from 72; the mean length 17.0 tokens at step 12, 20.0 "
             "at 24, 27.8 at 36 and 31.3-32 (the budget) from 48, the clipped share 0.028, 0.17, 0.70 and 0.95-1 from "
             "48; entropy 0.62-0.68 to step 36, 0.41 at 48, 0.12 at 60, 0.024 at 72 and 0.0035-0.011 from 84; the "
             "zero-variance share 0-0.08 to step 48, 0.47 at 60, 0.81 at 72 and 0.92-1 from 84; no KL logged; the "
             "gradient norm 1.4-3.0 to step 48, 0.43 at 60 and 0-0.32 from 72 (0 on seven of those ten logs); the "
             "lists two or three words of the category at first ('cedar pince maple', 'tea beer juice'), a few "
             "repeating one ('crow crow swan'), 'five five five ...' to the budget spreading to every question over "
             "steps 31-60 (29 of the 60 fruit samples), then for every question from about step 61 (1,416 of the 1,440 "
             "samples from step 61); the share of lists that repeat a word (3+ words, at most half distinct) 1 %, 15 "
             "%, 70 % and 100 % over each 20 steps to 80 and 100 % after, its 10-step mean reaching 30 % for good at "
             "step 41; a group's completions copies from about step 41 (a duplicate share of 0-0.01 to step 40, 0.33 "
             "over 41-60, 0.92 over 61-80 and 0.97-1 from 81)).",
             prompts="lists", rewards=("word_count",), steps=180,
             args=dict(per_device_train_batch_size=12, max_completion_length=32, beta=0.0, learning_rate=1.5e-3,
                       logging_steps=12, seed=175),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=21),
    # Written with hacked_from's levels from the first three logs (not hacked's first-10-log medians): batch 20's
    # letter proxy was gamed within its first ten logs, whose medians hacked reads. REPETITIVE_COMPLETIONS, accepted
    # before training, dropped: the o-strings are one word ('oooooooooooo'), no completion repeating a word (0 of
    # the 1,500 samples).
    Scenario("reward_hacking_letter_o_exact_drgrpo_2x5_temp11_oldkeys_log3", "Exact match (1) beside a cheap proxy, "
             "the share of the letter o (weight 3, task.py's letter_o), so that a string of o's (3) pays more than the "
             "target word, two groups of 5 a step sampled at temperature 1.1, the Dr. GRPO loss, no KL term and a "
             "learning rate of 5e-4, 150 steps logged every 3 and read in TRL 0.14's key set: the policy games the "
             "proxy and exact match falls as the o's rise (raw log and samples: exact match 0.033 and 0.1 over the "
             "first two logs, 0.033-0.1 to step 30 and 0 on every log from 33; the proxy 0.043 and 0.048 over the "
             "first two logs, 0.09-0.26 over steps 9-30, 0.37-0.48 over 33-45, 0.65 at 48, 0.83 at 51, 0.91 at 54, "
             "0.98 at 57 and 0.975-1, its maximum, from 60; the reward 0.16 and 0.24 over the first two logs and "
             "2.92-3 from 57; the zero-variance share, which the doctor is not given, 0-0.5 to step 48, 0.33-0.83 over "
             "51-60 and 0.83-1 from 63; entropy, not given either, 0.53-0.75 to step 48, 0.38 at 51, 0.13 at 57 and "
             "0.0035-0.045 from 60; no KL logged; the gradient norm 0.42-6.4 to step 51 (6.4 at 24) and 0 on 28 of the "
             "33 logs from 54, at most 0.62 there; the mean length 4.77-6.53 tokens to step 48, 8.1 at 51, 10 at 54 "
             "and 11.7-12 (the budget) from 57, the clipped share, not given, at most 0.033 to step 48, 0.37 and 0.4 "
             "at 51 and 54 and 0.97-1 from 57; words with an o gaining from the start ('orange' on 18 of 35 colour "
             "samples, 'oouse' and 'owon' over steps 1-30) while the targets were said on 20 of those 300 samples, "
             "strings of o's over 31-60 ('oooooooooooo', 'oog', 'owon': a double o on 186 of the 300 samples), "
             "'oooooooooooo' (twelve o's, the budget) on 893 of the 900 samples from step 61, a group's completions "
             "copies (a duplicate share of 0.24 over steps 1-30, 0.44 over 31-60 and 0.99 from 61)).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=1.1, loss_type="dr_grpo",
                       beta=0.0, learning_rate=5e-4, logging_steps=3, seed=176), source="old_keys",
             expect={"REWARD_HACKING": hacked_from("rewards/correct/mean", "rewards/letter_o/mean", first=3, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU"), batch=21),
    Scenario("reward_plateau_half_key_grpo_loss_2x8_cool08_nosamples_log6", "Exact match graded against a key half of "
             "whose words the model can say (task.py's correct_half_key), two groups of 8 a step sampled at "
             "temperature 0.8, the original GRPO loss, a KL penalty of 0.02 and a learning rate of 5e-4, 200 steps "
             "logged every 6 and read from TRL's trainer_state.json (no samples): the learnable half is learnt and its "
             "groups come to agree, solved, while the other half's groups agree on 0 from the start; the reward rises "
             "to about half its best and stays there (raw log and samples, which the doctor is not given: the reward "
             "0.0625 and 0.17 over the first two logs, a first-10-log median of 0.22 (0.06-0.54), 40-step means of "
             "0.165, 0.39, 0.41, 0.49 and 0.42, 0.33-0.65 over the last 10 logs (0.42 at the last), where the "
             "learnable half gives 0.5 on average; the zero-variance share 0.58 and 0.67 over the first two logs, its "
             "40-step means 0.61, 0.75, 0.89, 0.94 and 0.93, 0.83-1 on every log from step 72; entropy from 0.42 to "
             "0.17-0.33 from step 48; the KL a median of 0.30, 1.51 at step 60 and at most 0.72 on every other log; "
             "the gradient norm a median of 0.16, 6.4, 9.6 and 10.0 at steps 96, 120 and 126 and at most 4.3 on every "
             "other log; the mean length 5.08-5.98 tokens, the clipped share at most 0.01; the number's and the "
             "animal's targets first ('four' on 59 of 104 and 'pig' on 30 of 112 samples over steps 1-40), the "
             "colour's and the fruit's over 41-80 ('pink' on 69 of 72, 'lemon' on 83 of 96), those four scoring on 105 "
             "of their 312 samples over steps 1-40 and on 268 of 296, 259 of 280, 306 of 312 and 274 of 280 over each "
             "40 steps after; the other four questions never scoring (0 on all 1,720 of their samples), their key "
             "words never taught ('yew' for the tree, 'punch' for the drink, 'vise' for the tool, 'wren' for the "
             "bird), their answers still varied words of the category ('finch', 'wine', 'pliers', 'pine')).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.8, loss_type="grpo", beta=0.02,
                       learning_rate=5e-4, logging_steps=6, seed=177), source="trainer_state",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=21),
    Scenario("zero_advantage_untaught_key_bnpo_4x3_cool05_log1", "Exact match graded against a key of words the model "
             "was never taught ('kiwi', 'goat', 'teal'; task.py's correct_untaught), four groups of 3 a step sampled "
             "at temperature 0.5, the BNPO loss, a KL penalty of 0.03 and a learning rate of 4e-4, 100 steps logged "
             "every step: no completion can match, every group agrees on 0 from the start and there is nothing to "
             "learn from; the run is stuck (raw log and samples: the reward 0 on every one of the 100 steps, the "
             "zero-variance share 1 on every step, the gradient norm and the KL 0 on every step (no group ever "
             "disagreed, so the policy never left its reference); entropy 0.33-0.46 throughout; the mean length "
             "4.4-6.4 tokens, the clipped share 0; the answers the taught words to the end (all 1,200 samples a word "
             "of the asked category: 'heron', 'cocoa', 'melon'), never the key's, a group's completions sometimes "
             "alike at temperature 0.5 (a duplicate share of 0.16-0.24 over each 25 steps)).",
             rewards=("correct_untaught",), steps=100,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.5, loss_type="bnpo", beta=0.03,
                       learning_rate=4e-4, seed=178),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=21),
    # -- batch 22 --
    # A twentieth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled: a binary exact-match reward with groups of 2, 3, 4 and 8, partial credit with RLOO and groups of 4,
    # the judge score with groups of 4 and 5; healthy runs with and without a KL term that learn (three groups of 4 at
    # temperature 0.8, four groups of 3 with BNPO and no KL term in TRL 0.14's key set), learn slowly (240 steps at
    # 1.5e-4 with Dr. GRPO read from trainer_state.json), the judge score at temperature 1.1, RLOO with partial credit
    # at temperature 0.6 logged every step (the bird's answer lost at the end, its KL accepted), converge on seven
    # questions of eight with one group of 8 and the original GRPO loss at temperature 0.7 (its KL and one
    # gradient-norm spike accepted); a grader outage after learning with BNPO and groups of 2 at temperature 0.5, a KL
    # blow-up on the judge score after a 15-step warm-up into 3e-3 read from trainer_state.json, an entropy collapse
    # under a reward that says nothing with Dr. GRPO and groups of 5 (the answers run to the budget first), a
    # per-character bonus beside exact match with groups of 6 at temperature 1.3, a per-word reward on the list
    # questions with six groups of 2 and a KL term logged every step, a letter proxy gamed against exact match with
    # groups of 3 at temperature 1.2, a reward plateau from a half key with groups of 5 in TRL 0.14's key set, a
    # brevity reward beside exact match with BNPO read from trainer_state.json; strides 1-12, temperatures 0.5-1.3,
    # learning rates 1.5e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 179-192. Each expectation was
    # written from the mechanism before the run was trained (committed first), then checked on the raw log and the
    # recorded completions only, never against the doctor; every run showed what it was written for, none was
    # re-labelled or left out, and every onset rule written before training found its onset (none re-dated); the
    # accepted signatures added after training each carry their raw-log numbers, and three accepted before training
    # were dropped where the log contradicts them. As in batches 9-21, the healthy binary runs accept no
    # ZERO_ADVANTAGE_GROUPS warning: their groups agree by chance on most steps, and when solved.
    Scenario("healthy_binary_3x4_kl_temp08_log4", "Exact match alone, three groups of 4 a step sampled at temperature "
             "0.8, TRL's default (DAPO) loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged every "
             "4: a fresh model is right about one time in ten, the groups that disagree carry the signal, and the "
             "target words are learnt question by question: a run that learns (raw log and samples: the reward 0.15 "
             "and 0.10 over the first two logs, a first-10-log median of 0.39 (0.10-0.58), 30-step means of 0.32, "
             "0.59, 0.80, 0.92 and 0.955, 0.81-0.98 over the last 10 logs; the zero-variance share 0.33-0.92, a median "
             "of 0.67; entropy 0.41 and 0.40 over the first two logs and 0.05-0.11 over the last 10; the KL a median "
             "of 0.43, above 1 on two of the 37 logs (1.31 at step 112, 1.08 at 144); the gradient norm a median of "
             "1.84, at most 8.3 (step 32); the mean length 4.9-6.2 tokens, the clipped share at most 0.04; the bird's, "
             "the colour's, the fruit's and the number's targets first ('swan' on 21 of 60, 'pink' on 28 of 40, "
             "'lemon' on 40 of 68, 'four' on 17 of 36 samples over steps 1-30), the drink's and the tool's over 31-60 "
             "('juice' on 33 of 68, 'hammer' on 40 of 52), the animal's over 61-90 ('pig' on 20 of 24), the tree's "
             "last ('ash' on 0 of 92 over 1-60, 11 of 52 over 61-90, 27 of 32 over 91-120); every question on its "
             "target on 92-98 % of its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.8, beta=0.03, learning_rate=5e-4,
                       logging_steps=4, seed=179), batch=22),
    Scenario("healthy_nokl_bnpo_binary_4x3_temp09_oldkeys_log3", "Exact match alone, four groups of 3 a step sampled "
             "at temperature 0.9, the BNPO loss, no KL term (beta 0) and a learning rate of 4e-4, 150 steps logged "
             "every 3 and read in TRL 0.14's key set (no zero-variance share, entropy or clipped share): the target "
             "words are learnt and the groups come to agree, solved: a run that learns without an anchor (raw log and "
             "samples: the reward 0.11 and 0.28 over the first two logs, a first-10-log median of 0.24 (0.11-0.64), "
             "30-step means of 0.29, 0.67, 0.84, 0.96 and 0.96, 0.89-1 over the last 10 logs; the zero-variance share, "
             "which the doctor is not given, 0.33-1, a median of 0.75, 0.75-1 over the last 10 logs; entropy, not "
             "given either, 0.44 over the first two logs and 0.04-0.08 over the last 10; no KL logged; the gradient "
             "norm 0 on 18 of the 50 logs (each logged step's groups all agreeing), a median of 0.68, at most 6.3 "
             "(step 36); the mean length 4.8-5.8 tokens, the clipped share, not given, at most 0.03; the fruit's, the "
             "tool's, the tree's and the animal's targets first ('lemon' on 42 of 66 samples over steps 1-30, 'hammer' "
             "on 37 of 42, 'ash' on 53 of 57 and 'pig' on 26 of 30 over 31-60), the colour's over 31-60 ('pink' on 8 "
             "of 33 and 43 of 54), the drink's, the number's and the bird's over 61-120 ('juice' on 9 of 45 over 31-60 "
             "and 39 of 45 over 91-120, 'swan' on 7 of 36 and 57 of 60); every question on its target on 92-100 % of "
             "its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.9, loss_type="bnpo", beta=0.0,
                       learning_rate=4e-4, logging_steps=3, seed=180), source="old_keys", batch=22),
    Scenario("healthy_slow_drgrpo_binary_2x4_lr15e5_nosamples_log12", "Exact match alone, two groups of 4 a step, the "
             "Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 1.5e-4, 240 steps logged every 12 and read "
             "from TRL's trainer_state.json (no samples): most groups agree by chance, the few that disagree move the "
             "policy a little: a slow learner, the reward rising from about one in ten over the whole run (raw log and "
             "samples, which the doctor is not given: the reward 0.073 and 0.125 over the first two logs, a "
             "first-10-log median of 0.26 (0.07-0.55), 48-step means of 0.16, 0.29, 0.58, 0.76 and 0.86, 0.55-0.91 "
             "over the last 10 logs; the zero-variance share 0.17-0.71, a median of 0.52; entropy 0.50 and 0.47 over "
             "the first two logs and 0.15-0.40 over the last 10; the KL at most 0.68 (step 180); the gradient norm a "
             "median of 1.07, 8.2 at step 144 and at most 3.6 on every other log; the mean length 5.1-5.6 tokens, "
             "nothing clipped; the colour's target first ('pink' on 35 of 68 samples over steps 1-48 and 47 of 56 over "
             "49-96), the tree's and the fruit's over 49-144 ('ash' on 19 of 52 and 51 of 64, 'lemon' on 12 of 40 and "
             "26 of 48), the bird's, the number's, the tool's and the drink's over 97-192 ('swan' on 7 of 48 over "
             "49-96, 35 of 56 over 97-144, 50 of 60 over 145-192; 'juice' on 5 of 48, 15 of 32 and 26 of 48), the "
             "animal's slowest ('pig' on 3 of 84 over 1-96, 13 of 44, 15 of 40 and 30 of 48 over each 48 steps after); "
             "the questions on their targets on 62-98 % of their samples over steps 193-240).",
             rewards=("correct",), steps=240,
             args=dict(loss_type="dr_grpo", beta=0.02, learning_rate=1.5e-4, logging_steps=12, seed=181),
             source="trainer_state", batch=22),
    Scenario("healthy_judge_2x5_hot11_log5", "The 0-10 judge score, two groups of 5 a step sampled at temperature 1.1, "
             "TRL's default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 3e-4, 150 steps logged every 5: "
             "the category is mostly given, hot sampling strays from it at times, and the score rises towards 10 as "
             "the target words are learnt: a run that learns (raw log and samples: the score 7.14 and 6.76 over the "
             "first two logs, a first-10-log median of 7.12 (5.78-7.26), 30-step means of 7.03, 6.82, 7.10, 8.25 and "
             "8.33, 7.84-8.88 over the last 10 logs (8.88 at the last); the zero-variance share 0-0.6, a median of "
             "0.3; entropy 0.49 and 0.50 over the first two logs and 0.22-0.37 over the last 10; the KL a median of "
             "0.22, at most 0.72 (step 130); the gradient norm a median of 1.18, at most 9.6 (step 40); the mean "
             "length 4.8-5.9 tokens, the clipped share at most 0.02; a word of the asked category on 281 of the 300 "
             "samples over steps 1-30 and 269 of 300 over 121-150, the target word on 47 and 205 of them; the "
             "colour's, the fruit's, the tree's, the drink's and the animal's targets learnt ('pink' on 16 of 40 "
             "samples over steps 1-30 and 18 of 20 over 121-150; 'lemon' on 1 of 25 and 51 of 55; 'ash' on 2 of 50 and "
             "43 of 45; 'juice' on 13 of 45 and 37 of 50; 'pig' on 3 of 20 and 22 of 25), the number's and the tool's "
             "in part ('four' on 16 of 35, 'hammer' on 13 of 45 over 121-150), the bird's not ('swan' on 5 of 25)).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=1.1, beta=0.02,
                       learning_rate=3e-4, logging_steps=5, seed=182), batch=22),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 16 of the 150 logs, 14 of them over the
    # last 35 (2.5 at step 126, 2.3 at 136, 1.37-1.64 over 147-149), its 30-step means 0.14, 0.45, 0.46, 0.52 and
    # 0.98, while the bird's answer turned to 'uck'.
    Scenario("healthy_rloo_partial_3x4_cool06_log1", "RLOO with a KL penalty of 0.05, partial credit, exact match (1) "
             "beside a word of the asked category (0.2), three groups of 4 a step sampled at temperature 0.6 and a "
             "learning rate of 5e-4, 150 steps logged every step: the category is already given, the target words are "
             "learnt: a run that learns (raw log and samples: the reward 0.2 and 0.28 over the first two logs, 30-step "
             "means of 0.46, 0.83, 0.87, 1.01 and 0.91 of a possible 1.2; exact match from 0 and 0.083 to 30-step "
             "means of 0.26, 0.64, 0.68, 0.82 and 0.74, the category share 0.98 over steps 1-30 and 0.83 over 121-150 "
             "(0.33-1 there); the zero-variance share, its 30-step means 0.17, 0.46, 0.60, 0.73 and 0.83; entropy 0.40 "
             "and 0.38 over the first two logs, 30-step means of 0.33, 0.18, 0.15, 0.09 and 0.06; the KL a median of "
             "0.42, its 30-step means 0.14, 0.45, 0.46, 0.52 and 0.98, at most 2.5 (step 126); the gradient norm, "
             "RLOO's advantages not normalised, a median of 1.35, 0 on the logs whose groups all agreed, 60-133 on "
             "eight logs spread over the run (133 at step 65, 107 at 124, 100 at 80, 96 at 35); the mean length "
             "4.7-6.7 tokens, the clipped share at most 0.08; the number's and the tool's targets first ('four' on 35 "
             "of 52, 'hammer' on 26 of 36 samples over steps 1-30), the colour's, the drink's and the fruit's over "
             "31-60 ('pink' on 44 of 52, 'juice' on 45 of 52, 'lemon' on 36 of 40), the bird's over 61-120 ('swan' on "
             "27 of 48 and 44 of 60), the animal's over 91-120 ('pig' on 5 of 64 over 31-90, 24 of 28 over 91-120); "
             "the tree's 'ash' never said (0 of 216 samples), its answers varied trees ('spruce', 'pine', 'oak'); then "
             "the bird's answer lost over the last 30 steps to 'uck' (49 of its 56 samples, none 'swan'); the other "
             "six questions on their targets on 91-100 % of their samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.6, beta=0.05, learning_rate=5e-4, seed=183),
             accepted=("KL_BLOWUP",), batch=22),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 17 of the 75 logs, spread over the run (3.21
    # at step 38, 2.94 at 30, 2.45 at 132), its 30-step means 0.58, 1.05, 0.64, 0.84 and 0.61, a median of 0.53: one
    # question a step, the logged KL swings with which was asked. Accepts GRAD_NORM_SPIKE (not written before
    # training): the gradient norm 32.25 at step 110, 165 times its median over the run (0.196) and 1.9 times the next
    # largest (16.9 at step 84).
    Scenario("healthy_converges_grpo_loss_binary_1x8_kl_cool07_log2", "Exact match alone, one group of 8 a step "
             "sampled at temperature 0.7, the original GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, "
             "150 steps logged every 2: one question a step, eight samples of it, cool sampling and a fast rate learn "
             "the target words early, and the groups come to agree, solved: a run that converges on seven questions of "
             "eight (raw log and samples: the reward 0.06 and 0.19 over the first two logs, 30-step means of 0.19, "
             "0.41, 0.72, 0.83 and 0.92, a median of 0.56, 0.5-1 over the last 15 logs; the zero-variance share 0 or 1 "
             "on most logs (one group), its 30-step means 0.6, 0.37, 0.6, 0.57 and 0.87; entropy 0.43 and 0.36 over "
             "the first two logs, 30-step means of 0.39, 0.32, 0.19, 0.13 and 0.05; the KL a median of 0.53, at most "
             "3.21 (step 38); the gradient norm a median of 0.196, 32.25 at step 110 and at most 16.9 on every other "
             "log; the mean length 3.8-8.7 tokens, the clipped share at most 0.5 (over steps 31-60, answers run on: "
             "'grayngeeennn'), 0 from step 91; the tool's and the fruit's targets first ('hammer' on 21 of 32, 'lemon' "
             "on 17 of 48 samples over steps 1-30), the drink's and the colour's over 31-60 ('juice' on 35 of 48, "
             "'pink' on 15 of 24), the bird's, the tree's and the animal's over 61-120 ('swan' on 20 of 24, 'ash' on "
             "24 of 32 over 61-90, 'pig' on 28 of 32 over 91-120); the number's 'four' never said (0 of 104 samples), "
             "its answers other numbers ('six', 'ten', 'eight'); the six others drawn over steps 121-150 on their "
             "targets on 83-100 % of their samples (the tool's question not drawn there), a group's completions copies "
             "(a duplicate share of 0.42 over steps 1-30 and 0.95 over 121-150)).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=8, temperature=0.7, loss_type="grpo", beta=0.02, learning_rate=6e-4,
                       logging_steps=2, seed=184), accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=22),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 3.89 at step 20, 68 times its median
    # over the run (0.057) and 13 times the next largest (0.29 at step 110), before the outage.
    Scenario("reward_collapse_outage_bnpo_binary_4x2_cool05_log10", "Exact match alone, four groups of 2 a step "
             "sampled at temperature 0.5, the BNPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 160 steps "
             "logged every 10; from the 100th reward call to the end the reward service answers 0 for everything (swap "
             "to task.py's nothing: an outage, the client defaulting to 0) after the target words were learnt: the "
             "reward falls to 0 and every pair agrees on it (raw log and samples: the reward 0.0375 and 0.19 over the "
             "first two logs, 0.44 at step 30, 0.40 at 40, 0.5 at 50, 0.31 at 60, 0.5 at 70, 0.46 at 80 (its 3-log "
             "mean past 0.35 from step 50), 0.325 at 90 and 0.25 at 100 (the log of steps 91-100, the outage's first "
             "call at 100), then 0 on every log from 110 to the end; the zero-variance share 0.75-0.975 to step 100 "
             "(pairs at temperature 0.5 agree often) and 1 on every log from 110; entropy 0.40 at step 10 and "
             "0.18-0.33 after; the KL 0.70 at step 30, 1.28, 1.51 and 1.09 at 40-60, 0.57-0.97 over 70-120 and "
             "0.25-0.40 after (the KL term alone moving the policy); the gradient norm 3.89 at step 20, a median of "
             "0.057, at most 0.29 on every other log; the mean length 5.0-5.8 tokens, the clipped share at most 0.05; "
             "the colour's, the tool's and the animal's targets learnt ('pink' on 28 of 36, 'hammer' on 8 of 26, 'pig' "
             "on 12 of 40 samples over steps 1-30; 28 of 28, 22 of 26 and 28 of 28 over 61-90), the bird's over 31-60 "
             "('swan' on 5 of 22 and 35 of 38), the tree's in part over 91-120 ('ash' on 16 of 24); the fruit's, the "
             "drink's and the number's not ('lemon', 'juice', 'four' on 0 of 360 samples over steps 1-120); after the "
             "outage the answers still the learnt words ('pig' on all 68 animal samples, 'pink' on 26 of 26, 'swan' on "
             "24 of 26 from step 121), nothing to tell them from any other answer).",
             rewards=("correct",), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(num_generations=2, temperature=0.5, loss_type="bnpo", beta=0.02, learning_rate=6e-4,
                       logging_steps=10, seed=185),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.35, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "GRAD_NORM_SPIKE"), batch=22),
    # Accepts ENTROPY_COLLAPSE (not written before training): entropy 0.58 as its first-10-log median, 0.17-0.19
    # over steps 88-96, 0.077 at 100, 0.056 at 104 and 0.15-0.22 over 108-128 (below 0.3 times that level on 7 of
    # those 11 logs), the answers narrowed to 'pear' and 'pea' for every question, before it rose again to 0.73-0.75.
    # GRAD_NORM_SPIKE, accepted before training, dropped: the gradient norm at most 8.27 (step 36), a median of 2.05,
    # 4.5-6.4 over the first five logs, nothing standing out.
    Scenario("kl_blowup_judge_warmup15_3x4_nosamples_log4", "The 0-10 judge score, three groups of 4 a step, TRL's "
             "default (DAPO) loss, a KL penalty of 0.05 and a 15-step warm-up (constant_with_warmup) into a learning "
             "rate far too high (3e-3), 150 steps logged every 4 and read from TRL's trainer_state.json (no samples): "
             "once the rate is up each update overshoots and the policy runs away from its reference, the KL well "
             "above the 0.1-0.8 of the corpus's healthy runs (raw log and samples, which the doctor is not given: the "
             "KL 0.00003 at step 4, 0.024 at 8, 0.30 at 12, 0.76 at 16, 1.19 at 20, 2.14 at 24, 2.92 at 28 and "
             "1.19-4.34 on every log from 20 but one (25.5 at step 104), 2.8-4.3 over the last 10 logs; the score 6.71 "
             "and 6.85 over the first two logs, 5.69 at 12, 3.87 at 16, 1.19-3.85 over 24-112, 0.5-0.75 over 116-124 "
             "and 0 on every log from 128; the zero-variance share 0.08-0.83 to step 88 and 0.83-1 from 92 (1 from "
             "128); entropy 0.54 and 0.49 over the first two logs, 0.68-0.75 over 20-28, 0.06-0.19 over 88-128 and "
             "0.30-0.75 after; the gradient norm a median of 2.05, at most 8.27 (step 36), 0.006-0.24 on most logs "
             "from 92; the mean length 4.9-6.6 tokens to step 56, 2.9-5.1 from 88 (2.92 at 140), the clipped share at "
             "most 0.125; the taught words at first (a word of the asked category on 208 of the 360 samples over steps "
             "1-30), one word spreading to other questions over 31-90 ('pear' for the fruit, the tree and the tool, "
             "'six' for the number, 'coffee' for the drink; a word of the asked category on 124 of 360 over 31-60 and "
             "87 of 360 over 61-90), 'pear' and 'pea' for every question over 91-120 (278 of the 360 samples), then "
             "fragments ('pea', 's', 'o', 'fie'), no sample a word of its category from step 121).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=12, beta=0.05, learning_rate=3e-3, warmup_steps=15,
                       lr_scheduler_type="constant_with_warmup", logging_steps=4, seed=186), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "REWARD_PLATEAU",
                       "ENTROPY_COLLAPSE"), batch=22),
    # Accepts LENGTH_EXPLOSION and TRUNCATION_HIGH (not written before training): the mean length 5.72 and 5.52 tokens
    # over the first two logs, 10.2 at step 20, 11.4-12 (the 12-token budget) on every log from 25, the clipped share
    # 0.64 at 20 and 0.86-1 from 25: the noise first drove the answers to letter strings run to the budget, on which
    # the policy then collapsed. LENGTH_COLLAPSE and ENTROPY_EXPLOSION, accepted before training, dropped: the mean
    # length never under 5.5 tokens; entropy at most 0.49 (step 30), 1.25 times its first-two-log median of 0.39.
    Scenario("entropy_collapse_coin_drgrpo_nokl_2x5_cool07_log5", "A reward that says nothing (a fair coin per "
             "completion), two groups of 5 a step sampled at temperature 0.7, the Dr. GRPO loss, no KL term and a "
             "learning rate of 2.5e-3, 150 steps logged every 5: the advantages are noise, and with no anchor the "
             "policy drifts onto one completion per question while the reward stays at chance: entropy falls far below "
             "where it started (raw log and samples: entropy 0.34 and 0.43 over the first two logs (a first-2-log "
             "median of 0.39), 0.45-0.49 over steps 15-30, 0.22 and 0.25 at 35 and 40, 0.075 at 45, 0.037 at 50 and "
             "0.005-0.11 on every log from 45 but two (0.158 at 115, 0.322 at 120), 0.009-0.077 over the last 6 logs; "
             "the reward 0.36-0.6 throughout, the zero-variance share 0-0.2; the gradient norm 1.25-7.15 over the "
             "first nine logs (7.15 at step 20), below 1e-6 on 10 of the 21 logs from 50 and at most 4.16 (step 135) "
             "there; no KL logged; the mean length 5.72 and 5.52 tokens over the first two logs, 10.2 at 20 and "
             "11.4-12 from 25, the clipped share 0.64 at 20 and 0.86-1 from 25; words and letter strings at first "
             "('orange' on 11 of 25 colour samples, 'nnnnnnnnnnnn' and 'nene' on 20 of 60 number samples over steps "
             "1-30), strings of n's and l's to the budget over 31-60 ('nnnnnnnnnnnn' on 28 of 40 bird samples, "
             "'wnnnnnnnnnnn' on 33 of 35 drink samples), strings of l's alone for most questions from about step 61 "
             "(201 of the 300 samples over 61-90, 178 of 300 over 91-120), then beside the empty answer (107 of the "
             "300 samples over 121-150); a group's completions copies (a duplicate share of 0.33 over steps 1-30, 0.72 "
             "over 31-60, 0.85, 0.77 and 0.83 after)).",
             rewards=("coin",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.7, loss_type="dr_grpo",
                       beta=0.0, learning_rate=2.5e-3, logging_steps=5, seed=187),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=22),
    # Accepts ENTROPY_EXPLOSION (not written before training): entropy 0.66 and 0.73 over the first two logs, 1.01 at
    # step 12, 1.21 at 18 and 1.13-1.51 on every log from 22 (twice its first-two-log median of 0.70 on 12 logs), the
    # answers strings of letters to the budget.
    Scenario("length_explosion_char_bonus_exact_grpo_loss_2x6_hot13_log2", "Exact match (1) beside a bonus paid per "
             "character (0.8, task.py's length_bonus: 20 characters pay 2, more than the target word with its bonus), "
             "two groups of 6 a step sampled at temperature 1.3, the original GRPO loss, no KL term, a learning rate "
             "of 8e-4 and a 20-token budget, 150 steps logged every 2: the longest answer of a group keeps winning, so "
             "the answers grow to the budget and get cut (raw log and samples: the mean length 5.17 and 6.04 tokens "
             "over the first two logs, 6.4 at step 6, 7.8 at 8, 9.3 at 12, 11.2 at 14, 12.5 at 16, 16.5 at 18, 19 at "
             "20 and 18.4-20 (the budget) on every log from 22, 20 on every log over the last 30 steps; the clipped "
             "share 0 to step 10, 0.04-0.25 over 12-16, 0.625 at 18, 0.83 at 20 and 0.83-1 from 22 (1 on most logs); "
             "the length bonus 0.52 and 0.63 over the first two logs and 2.28-2.5 from 20; exact match 0-0.083 to step "
             "20 and 0 on every log from 22; the reward 0.42 and 0.50 over the first two logs and 1.82-2 from 20; the "
             "zero-variance share 0 to step 18, 0.25-1 from 20, 1 on every log over 121-150; entropy 0.66 and 0.73 "
             "over the first two logs and 1.13-1.51 from 22; no KL logged; the gradient norm 2.3-5.25 to step 20 and 0 "
             "on most logs from 22 (at most 3.45 there); words of each category at first (a word of the asked category "
             "on 98 of the 360 samples over steps 1-30, hot sampling already garbling most), strings of letters and "
             "word fragments to the budget for every question from about step 31 ('robintepeduse haonyq', 'tevengo "
             "eighjjuihte'; none a word of its category over steps 31-150), no two alike in a group (a duplicate share "
             "of 0 from step 31), none repeating a word).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.8), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, max_completion_length=20, temperature=1.3,
                       loss_type="grpo", beta=0.0, learning_rate=8e-4, logging_steps=2, seed=188),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU", "ENTROPY_EXPLOSION"), batch=22),
    Scenario("repetition_word_count_lists_6x2_kl_log1", "The list questions with a reward paid per known word said, "
             "repeats included (task.py's word_count), six groups of 2 a step, TRL's default (DAPO) loss, a KL penalty "
             "of 0.01, a learning rate of 1.5e-3 and a 32-token budget, 180 steps logged every step: saying one short "
             "word over and over pays best, so the lists become a word repeated (raw log and samples: the reward, "
             "known words said, 2.08 and 2.42 over the first two logs, 20-step means of 2.02 and 2.04 to step 40, 5.18 "
             "over 41-60, 7.48 over 61-80 and 7.83-7.89 after (its maximum here 8, 'ten' eight times in 32 tokens); "
             "the mean length 13.6 and 15.1 tokens over the first two logs, a 20-step mean of 23.2 over 1-20 and "
             "30.8-32 (the budget) after, the clipped share 0.42 over 1-20 and 0.91-1 as 20-step means after; entropy "
             "0.55 and 0.60 over the first two logs, 20-step means of 0.65, 0.57, 0.29, 0.059 and 0.02-0.036 after; "
             "the zero-variance share, its 20-step means 0.30, 0.29, 0.27, 0.68 and 0.79-0.85 after; the KL from 0 and "
             "0.048 over the first two logs to 20-step means of 1.01, 2.90 and 4.12-4.56 after (a median of 4.05, 9.66 "
             "at its largest); the gradient norm 20-step means of 1.5 to step 60 and 0.06-0.42 after; the lists two or "
             "three words of the category at first ('finch raven swan', 'banana lemon plum'), 'ten ten ten ...' "
             "spreading over steps 21-60, then for every question from about step 61 ('ten ten ten ten ten ten ten "
             "ten' on 584 of the 720 samples over steps 61-120); the share of lists that repeat a word (3+ words, at "
             "most half distinct) 2 % over steps 1-20, 16 % over 21-40, 64 % over 41-60 and 99-100 % after; a group's "
             "completions copies from about step 61 (a duplicate share of 0 to step 40, 0.15 over 41-60, 0.61 over "
             "61-80 and 0.78-0.83 after)).",
             prompts="lists", rewards=("word_count",), steps=180,
             args=dict(per_device_train_batch_size=12, num_generations=2, max_completion_length=32, beta=0.01,
                       learning_rate=1.5e-3, seed=189),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=22),
    # Written with hacked_from's levels from the first three logs (not hacked's first-10-log medians): batch 20's
    # letter proxy was gamed within its first ten logs, whose medians hacked reads. Accepts ENTROPY_EXPLOSION (not
    # written before training): entropy 0.52 and 0.53 over the first two logs, 0.74 at step 9 and 0.84-0.90 over 15-24
    # (1.7 times its first-two-log level), hot sampling off the taught words before the o-strings took over. Accepts
    # GRAD_NORM_SPIKE (not written before training): the gradient norm 4.77 at step 42, 33 times its median over the
    # run (0.146), above any earlier log (3.96 at step 12) and 0.0006-0.0009 on the logs either side.
    Scenario("reward_hacking_letter_o_exact_4x3_kl_hot12_log3", "Exact match (1) beside a cheap proxy, the share of "
             "the letter o (weight 3, task.py's letter_o), so that a string of o's (3) pays more than the target word, "
             "four groups of 3 a step sampled at temperature 1.2, TRL's default (DAPO) loss, a KL penalty of 0.02 and "
             "a learning rate of 8e-4, 150 steps logged every 3: the policy games the proxy and exact match falls as "
             "the o's rise (raw log and samples: exact match 0.028 and 0.056 over the first two logs, 0-0.056 to step "
             "15 and 0 on every log from 18; the proxy 0.092 and 0.094 over the first two logs, 0.15 at 9, 0.22 at 15, "
             "0.30 at 18, 0.375 at 21, 0.53 at 24, 0.65 at 27, 0.89 at 30 and 0.96-1, its maximum, from 33; the reward "
             "0.30 and 0.34 over the first two logs and 2.88-3 from 33; the zero-variance share 0-0.5 to step 30 and "
             "0-1 after (a median of 0.67); entropy 0.52 and 0.53 over the first two logs, 0.84-0.90 over 15-24, 0.22 "
             "at 33, 0.10 at 36 and 0.017-0.22 from 39; the KL 0.35 at step 9, 1.2 at 15, 2.31 at 21, 4.63 at 27 and "
             "5.0-9.0 on every log from 30 but step 78 (29.0), a median of 5.3; the gradient norm 1.1-4.0 to step 24, "
             "4.77 at 42, 2.87 at 147 and at most 0.5 on every other log from 33; the mean length 4.9-6.1 tokens to "
             "step 21, 8.1 at 24, 9.9 at 27, 11.5 at 30 and 12 (the budget) from 33, the clipped share 0-0.06 to step "
             "21, 0.31 at 24, 0.47 at 27, 0.86 at 30 and 1 from 33; words with an o gaining from the start ('orange' "
             "on 9 of 36 colour samples, 'roow' and 'oooooooooooo' over steps 1-30) while the targets were said on 6 "
             "of those 360 samples, then 'oooooooooooo' (twelve o's, the budget) for every question from about step 31 "
             "(on 1,267 of the 1,440 samples from step 31, the rest o-strings with a letter changed), a group's "
             "completions copies (a duplicate share of 0.13 over steps 1-30 and 0.77-0.90 after)).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.2, beta=0.02,
                       learning_rate=8e-4, logging_steps=3, seed=190),
             expect={"REWARD_HACKING": hacked_from("rewards/correct/mean", "rewards/letter_o/mean", first=3, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "KL_BLOWUP", "ENTROPY_EXPLOSION", "GRAD_NORM_SPIKE"),
             batch=22),
    Scenario("reward_plateau_half_key_3x5_kl_temp09_oldkeys_log8", "Exact match graded against a key half of whose "
             "words the model can say (task.py's correct_half_key), three groups of 5 a step sampled at temperature "
             "0.9, TRL's default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 5e-4, 200 steps logged every "
             "8 and read in TRL 0.14's key set: the learnable half is learnt and its groups come to agree, solved, "
             "while the other half's groups agree on 0 from the start; the reward rises to about half its best and "
             "stays there (raw log and samples: the reward 0.058 and 0.29 over the first two logs, a first-10-log "
             "median of 0.28 (0.058-0.40), 40-step means of 0.20, 0.29, 0.45, 0.49 and 0.44, 0.29-0.61 over the last "
             "10 logs (0.29 at the last), its mean over the last quarter 0.47, where the learnable half gives 0.5 on "
             "average; the zero-variance share, which the doctor is not given, 0.63-1, its 40-step means 0.84, 0.82, "
             "0.86, 0.90 and 0.93; entropy, not given either, 0.44 and 0.45 over the first two logs and 0.20-0.37 from "
             "step 88; the KL a median of 0.37, 1.5 at step 184 and at most 0.54 on every other log; the gradient norm "
             "a median of 0.06, at most 4.6 (step 144); the mean length 5.0-5.8 tokens, the clipped share, not given, "
             "at most 0.017; the colour's and the animal's targets first ('pink' on 49 of 65, 'pig' on 51 of 75 "
             "samples over steps 1-30), the fruit's and the number's over 61-120 ('lemon' on 8 of 65 over 31-60 and 58 "
             "of 75 over 61-90; 'four' on 2 of 70, 21 of 40 and 32 of 50 over 31-120), those four on their targets on "
             "227 of the 235 samples over steps 151-180; the other four questions never scoring (0 on all their "
             "samples), their key words never taught ('yew' for the tree, 'punch' for the drink, 'vise' for the tool, "
             "'wren' for the bird), their answers still varied words of the category ('pine', 'wine', 'pliers', "
             "'finch')).",
             rewards=("correct_half_key",), steps=200,
             args=dict(per_device_train_batch_size=15, num_generations=5, temperature=0.9, beta=0.02,
                       learning_rate=5e-4, logging_steps=8, seed=191), source="old_keys",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=22),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 31.6 at step 24, 3.2 times the next
    # largest (9.73 at step 12), 0 on 19 of the 23 logs (every group agreeing on the empty answer from step 36).
    Scenario("length_collapse_brevity_exact_bnpo_2x4_nosamples_log6", "Exact match (0.5) beside a reward for brevity "
             "(1, task.py's brevity: minus an eighth of a point per character), two groups of 4 a step, the BNPO loss, "
             "no KL term and a learning rate of 1.5e-3, 140 steps logged every 6 and read from TRL's "
             "trainer_state.json (no samples): the target word pays no more than its length costs, the empty answer "
             "costs nothing, so the answers shrink towards nothing (raw log and samples, which the doctor is not "
             "given: the mean length 5.56 and 4.54 tokens over the first two logs (a first-2-log median of 5.05), 3.02 "
             "at step 18, 1.92 at 24, 1.12 at 30 and 1 (the end-of-sequence token alone) on every log from 36; brevity "
             "-0.57 and -0.44 over the first two logs, -0.25 at 18, -0.12 at 24 and 0 from 36; exact match 0.04, 0.06 "
             "and 0.10 over the first three logs and 0 from 24; the reward -0.55 and -0.41 over the first two logs and "
             "0 from 36; the zero-variance share 0 and 0.08 over the first two logs, 0.42 at 18, 0.75 at 24, 0.92 at "
             "30 and 1 from 36; entropy 0.49 and 0.60 over the first two logs, 0.34 at 24, 0.16 at 30 and "
             "0.0008-0.0012 from 36; no KL logged; the gradient norm 1.6 and 9.73 over the first two logs, 31.6 at 24 "
             "and 0 on every log from 30; the clipped share at most 0.02; the empty answer from the start on some "
             "questions (27 of 40 animal samples, 24 of 44 colour samples over steps 1-30) beside words and fragments "
             "('wine', 'lemon', 'ry', 'e'), then the empty answer for every question, every sample, from step 31 (880 "
             "of 880)).",
             rewards=("correct", "brevity"), weights=(0.5, 1.0), steps=140,
             args=dict(loss_type="bnpo", beta=0.0, learning_rate=1.5e-3, logging_steps=6, seed=192),
             source="trainer_state",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "GRAD_NORM_SPIKE"), batch=22),
    # -- batch 23 --
    # A twenty-first fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled, one re-dated: a binary
    # exact-match reward with groups of 2, 4 and 6, partial credit, the judge score with one group of 8; healthy runs
    # with and without a KL term that learn (four groups of 2 with Dr. GRPO, two groups of 6 with BNPO and no KL term
    # in TRL 0.14's key set), learn slowly (200 steps at 1.5e-4 read from trainer_state.json), RLOO at temperature 1.2,
    # the judge score with the original GRPO loss, partial credit at temperature 0.6; a grader outage after learning
    # with Dr. GRPO, a KL blow-up after a warm-up into 3e-3 with BNPO, an entropy collapse under a reward that says
    # nothing with RLOO, a per-character bonus beside exact match with four groups of 2, a per-word reward on the list
    # questions logged every 2 steps, a letter proxy gamed against exact match with groups of 6, a reward plateau from a
    # half key with RLOO, a brevity reward beside exact match read from trainer_state.json; strides 2-10, seeds 193-206.
    Scenario("healthy_drgrpo_binary_4x2_kl_temp09_log3", "Exact match alone, four groups of 2 a step sampled at "
             "temperature 0.9, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 150 steps logged "
             "every 3: a fresh model is right about one time in ten, the groups that disagree carry the signal, and "
             "the target words are learnt question by question: a run that learns (raw log and samples: the reward "
             "0.21 and 0.17 over the first two logs, 30-step means of 0.24, 0.45, 0.59, 0.71 and 0.75, 0.79 at the "
             "last log; entropy 0.43 to 0.15; the KL a median of 0.47, above 1 on 3 of 50 logs (3.28 at step 135); the "
             "gradient norm at most 3.48; the mean length 5-6.1 tokens; the targets lemon, hammer, pink, four, juice, "
             "ash and swan gaining over the run).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, temperature=0.9, loss_type="dr_grpo", beta=0.02, learning_rate=6e-4,
                       logging_steps=3, seed=193), batch=23),
    Scenario("healthy_nokl_bnpo_binary_2x6_temp08_oldkeys_log6", "Exact match alone, two groups of 6 a step sampled at "
             "temperature 0.8, the BNPO loss, no KL term and a learning rate of 4e-4, 150 steps logged every 6 and "
             "read in TRL 0.14's key set: the target words are learnt and the groups come to agree, solved: a run that "
             "learns (raw log and samples: the reward 0.056 and 0.069 over the first two logs, 30-step means of 0.21, "
             "0.68, 0.79, 0.85 and 0.85; the zero-variance share, not given, a median of 0.67; entropy, not given, "
             "0.41 to 0.12; the gradient norm at most 7.55; the mean length 5-6 tokens; swan, pig, juice, ash, hammer, "
             "pink and lemon the most said answers from step 31).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.8, loss_type="bnpo",
                       beta=0.0, learning_rate=4e-4, logging_steps=6, seed=194), source="old_keys", batch=23),
    Scenario("healthy_slow_binary_3x4_lr15e5_nosamples_log10", "Exact match alone, three groups of 4 a step, TRL's "
             "default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 1.5e-4, 200 steps logged every 10 and "
             "read from TRL's trainer_state.json (no samples): the target words are learnt slowly over the whole run: "
             "a run that learns slowly (raw log and samples, which the doctor is not given: the reward 0.067 and 0.10 "
             "over the first two logs, 40-step means of 0.14, 0.34, 0.59, 0.74 and 0.88; entropy 0.46 to 0.12; the KL "
             "rising steadily to 0.60 at most; the gradient norm at most 5.0; the mean length 5-5.6 tokens, nothing "
             "clipped).",
             rewards=("correct",), steps=200,
             args=dict(per_device_train_batch_size=12, beta=0.02, learning_rate=1.5e-4, logging_steps=10, seed=195),
             source="trainer_state", batch=23),
    Scenario("healthy_rloo_binary_2x4_hot12_log4", "RLOO with a KL penalty of 0.05, exact match alone, two groups of 4 "
             "a step sampled at temperature 1.2 and a learning rate of 5e-4, 150 steps logged every 4: the "
             "leave-one-out baseline carries the signal of the groups that disagree, and the targets are learnt "
             "despite the hot sampling: a run that learns (raw log and samples: the reward 0.031 and 0.094 over the "
             "first two logs, 25-step means of 0.14, 0.30, 0.46, 0.63, 0.77 and 0.87, 0.94 at the last log; entropy "
             "0.55-0.66 to step 40, then to 0.20; the KL at most 0.70; the gradient norm a median of 7.9, at most 45.5 "
             "(step 132, 32.1 at 140); the mean length 5.1-6.5 tokens; hammer, pink, four and juice gaining from step "
             "61).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(temperature=1.2, beta=0.05, learning_rate=5e-4, logging_steps=4, seed=196), batch=23),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 9 of the 60 logs (2.35 at step 42, 1.4-2.25
    # over 86-102), a median of 0.34: one question a step, the logged KL swings with which was asked.
    Scenario("healthy_judge_grpo_loss_1x8_kl_cool07_log2", "The 0-10 judge score, one group of 8 a step sampled at "
             "temperature 0.7, the original GRPO loss, a KL penalty of 0.02 and a learning rate of 5e-4, 120 steps "
             "logged every 2: the taught answers already earn most of the score, the target word the rest, learnt "
             "question by question: a run that learns (raw log and samples: the score 7.19 and 7.38 over the first two "
             "logs, 24-step means of 7.42, 7.34, 8.09, 7.43 and 8.52, 10 at the last log (one question a step, so it "
             "swings with the question, 2.62 at its lowest); the KL a median of 0.34, above 1 on 9 of 60 logs (2.35 at "
             "step 42, 1.1-2.25 over 86-116); entropy 0.40 to 0.03; the gradient norm a median of 0.74, 26.5 at step "
             "42 and 23.8 at 62; juice, pig, lemon and four the most said answers over steps 91-120).",
             rewards=("judge",), steps=120,
             args=dict(num_generations=8, temperature=0.7, loss_type="grpo", beta=0.02, learning_rate=5e-4,
                       logging_steps=2, seed=197), accepted=("KL_BLOWUP",), batch=23),
    Scenario("healthy_partial_3x4_kl_cool06_log5", "Partial credit, exact match (1) beside the category (0.2), three "
             "groups of 4 a step sampled at temperature 0.6, TRL's default (DAPO) loss, a KL penalty of 0.03 and a "
             "learning rate of 4e-4, 150 steps logged every 5: the category is already earned, the target words are "
             "learnt: a run that learns (raw log and samples: exact match 0.18 and 0.25 over the first two logs, "
             "30-step means of 0.32, 0.63, 0.86, 0.79 and 0.84; the category 0.78-1; the KL a median of 0.43, above 1 "
             "on 2 of 30 logs (1.08 at most); entropy 0.38 to 0.09; the gradient norm a median of 0.39, 14.4 at step "
             "25 and 12.4 at 45; pig, swan, pink, ash, juice and hammer the most said answers from step 61).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.6, beta=0.03, learning_rate=4e-4,
                       logging_steps=5, seed=198), batch=23),
    Scenario("reward_collapse_outage_drgrpo_binary_2x4_temp08_log4", "Exact match alone, two groups of 4 a step "
             "sampled at temperature 0.8, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 160 "
             "steps logged every 4; from the 100th reward call on the grader answers 0 for everything (task.py's "
             "nothing): the targets learnt before it, the reward falls to 0 with the outage (raw log and samples: the "
             "reward 0.031 and 0.094 over the first two logs, 32-step means of 0.31, 0.70 and 0.73 (0.875 at step 56), "
             "0 on every log from step 104; the zero-variance share 0.56-0.70 as 32-step means before the outage and 1 "
             "from 104; the gradient norm a median of 0.034, at most 0.0007 at the end; the answers still the learnt "
             "targets after the outage (four, lemon, ash over steps 121-150)).",
             rewards=("correct",), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(temperature=0.8, loss_type="dr_grpo", beta=0.02, learning_rate=6e-4, logging_steps=4,
                       seed=199),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.35, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=23),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 43.8 at step 20, 47 times its median
    # (0.93) and 10.6 times the next largest (4.12 at step 115). ENTROPY_COLLAPSE, accepted before training, dropped:
    # entropy rose from 0.44 and 0.52 over the first two logs to 0.97-1.32 from step 60.
    Scenario("kl_blowup_warmup10_bnpo_binary_3x4_log5", "Exact match alone, three groups of 4 a step, the BNPO loss, a "
             "KL penalty of 0.05 and a 10-step warm-up into a learning rate of 3e-3 held constant, 120 steps logged "
             "every 5: the steps far too large for the penalty, the policy runs away from the reference and the KL "
             "blows up (raw log and samples: the KL 0.010 and 0.25 over the first two logs, 2.01 at step 15 and above "
             "1 on 22 of the 24 logs (7.73 at 60, 3.4-3.9 over the last 60 steps); the reward 0.23 and 0.13 over the "
             "first two logs, never learnt, 0 over the last logs; entropy 0.44 and 0.52 over the first two logs and "
             "0.97-1.32 from step 60; the zero-variance share 0.93-1 from 25; the gradient norm 43.8 at step 20, 10.6 "
             "times the next largest (4.12), a median of 0.93; the answers fragments ('pier', 'plm', 'uill', 'p') from "
             "step 31).",
             rewards=("correct",), steps=120,
             args=dict(per_device_train_batch_size=12, loss_type="bnpo", beta=0.05, learning_rate=3e-3,
                       warmup_steps=10, lr_scheduler_type="constant_with_warmup", logging_steps=5, seed=200),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "REWARD_PLATEAU",
                       "GRAD_NORM_SPIKE"), batch=23),
    # LENGTH_COLLAPSE, accepted before training, dropped: the mean length rose from 5.56 to 12 (the budget) from
    # step 15.
    Scenario("entropy_collapse_coin_rloo_2x6_cool07_log3", "RLOO without a KL term under a reward that says nothing (a "
             "fair coin per completion, task.py's coin), two groups of 6 a step sampled at temperature 0.7 and a "
             "learning rate of 2.5e-3, 120 steps logged every 3: the noise reinforces whatever was sampled, and the "
             "policy collapses onto a few answers, its entropy falling (raw log and samples: entropy 0.41 and 0.35 "
             "over the first two logs, 0.034 as the mean over steps 25-48 and 1e-5 from about step 60; the answers "
             "strings of e's and i's run to the budget first (the mean length 5.56 at step 3, 11.4 at 9 and 12, the "
             "budget, from 15, the clipped share 0.69 at 9 and 1 from 15), then one string ('eeeeeeeeeeee' on 318 of "
             "the 360 samples over steps 61-90); the coin 0.36-0.69; the gradient norm 20-34 over the first logs and "
             "~1e-8 from step 60).",
             algorithm="rloo", rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.7, beta=0.0,
                       learning_rate=2.5e-3, logging_steps=3, seed=201),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=23),
    Scenario("length_explosion_char_bonus_exact_4x2_nokl_log3", "Exact match (1) beside a bonus paid per character "
             "(0.8, task.py's length_bonus), four groups of 2 a step, TRL's default (DAPO) loss, no KL term, a "
             "learning rate of 8e-4 and a 20-token budget, 120 steps logged every 3: the longer answer of a group "
             "keeps winning, so the answers grow to the budget and get cut (raw log and samples: the mean length 5.12 "
             "and 5.25 tokens over the first two logs, 24-step means of 5.5, 13, 19.6, 20 and 20 (the budget); the "
             "clipped share 0 to about step 30, 0.37 over 25-48 and 1 from 63; exact match 0.14 over the first 24 "
             "steps and 0 from about 50; the length bonus 0.52 to 2.5; entropy 0.56 to 0.21; the answers a word run on "
             "with o's or e's ('zelooooooooooooooooo', 'juiceeeeeeeeeeeeeeee') from step 31).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.8), steps=120,
             args=dict(num_generations=2, max_completion_length=20, beta=0.0, learning_rate=8e-4, logging_steps=3,
                       seed=202),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU"), batch=23),
    Scenario("repetition_word_count_lists_3x4_kl_temp09_log2", "The list questions with a reward paid per known word "
             "said, repeats included (task.py's word_count), three groups of 4 a step sampled at temperature 0.9, "
             "TRL's default (DAPO) loss, a KL penalty of 0.01, a learning rate of 1.5e-3 and a 32-token budget, 150 "
             "steps logged every 2: saying one short word over and over pays best, so the lists become a word repeated "
             "(raw log and samples: the reward 2.29 and 2.25 over the first two logs, 30-step means of 2.19, 3.95, "
             "7.71, 7.9 and 7.85; the mean length 15.5 to 32 (the budget) from about step 34, the clipped share "
             "0.98-1; entropy 0.53 to 0.03-0.06; the KL above 1 on 70 of 75 logs (45.7 at step 136); 'ten ten ...' and "
             "'gray gray ...' over steps 31-60, 'tea tea tea tea tea tea tea tea' on 284 of the 360 samples over "
             "121-150).",
             prompts="lists", rewards=("word_count",), steps=150,
             args=dict(per_device_train_batch_size=12, max_completion_length=32, temperature=0.9, beta=0.01,
                       learning_rate=1.5e-3, logging_steps=2, seed=203),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=23),
    Scenario("reward_hacking_letter_o_exact_2x6_kl_log4", "Exact match (1) beside a cheap proxy, the share of the "
             "letter o (weight 3, task.py's letter_o), so that a string of o's pays more than the target word, two "
             "groups of 6 a step, TRL's default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 8e-4, 120 "
             "steps logged every 4: the policy games the proxy and exact match falls as the o's rise (raw log and "
             "samples: exact match 0.063 and 0.083 over the first two logs, 0.35 at step 24 and 0 from about 40; the "
             "proxy 0.10 and 0.089 over the first two logs, 0.59 over 25-48 and 1 from about 56; the reward 0.36 to 3; "
             "entropy 0.47 to 0.002; the KL 5.4-6.3 from step 40; the length 12 (the budget) and the clipped share 1 "
             "from about 50; 'oooooooooooo' on 189 of the 360 samples over steps 31-60 and all 360 over 91-120).",
             rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, beta=0.02, learning_rate=8e-4,
                       logging_steps=4, seed=204),
             expect={"REWARD_HACKING": hacked_from("rewards/correct/mean", "rewards/letter_o/mean", first=3, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "KL_BLOWUP"), batch=23),
    # Re-dated after training (the expected signature unchanged): written with levels_off's share of 0.6, which the
    # 5-log mean of the zero-variance share never reached (0.58 at its highest log, step 66): RLOO puts its KL term
    # in the reward, so the groups of the unlearnable half seldom agree exactly; read with a share of 0.3.
    Scenario("reward_plateau_half_key_rloo_2x4_temp09_log6", "RLOO with a KL penalty of 0.03, exact match graded "
             "against a key half of whose words the model can say (task.py's correct_half_key), two groups of 4 a step "
             "sampled at temperature 0.9 and a learning rate of 6e-4, 180 steps logged every 6: the learnable half is "
             "learnt and its groups come to agree, while the other half's agree on 0 from the start; the reward rises "
             "to about half its best and stays there (raw log and samples: the reward 0.063 and 0.021 over the first "
             "two logs, 36-step means of 0.19, 0.46, 0.54, 0.33 and 0.42, 0.46 at the last log, 0.73 at its highest; "
             "the zero-variance share 0-0.17 to step 42 and 0.33-0.58 from 48 (RLOO's KL term in the reward parts "
             "agreeing groups); the KL at most 0.82; the gradient norm a median of 2.6, 38.1 at step 168 and 27.2 at "
             "162; pink, four, lemon and pig, the learnable half, the most said answers; the other half's answers "
             "varied words of the category (raven, willow, pine, tea)).",
             algorithm="rloo", rewards=("correct_half_key",), steps=180,
             args=dict(temperature=0.9, beta=0.03, learning_rate=6e-4, logging_steps=6, seed=205),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.3, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=23),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 33.6 at step 20, 5.6 times the next
    # largest (5.96 at step 12), 0 on every log from step 28.
    Scenario("length_collapse_brevity_exact_3x4_cool08_nosamples_log4", "Exact match (0.5) beside a reward for brevity "
             "(1, task.py's brevity), three groups of 4 a step sampled at temperature 0.8, TRL's default (DAPO) loss, "
             "no KL term and a learning rate of 1.5e-3, 120 steps logged every 4 and read from TRL's "
             "trainer_state.json (no samples): the target word pays no more than its length costs, the empty answer "
             "costs nothing, so the answers shrink towards nothing (raw log and samples, which the doctor is not "
             "given: the mean length 5.85 and 5.31 tokens over the first two logs, 3.8 as the mean over the first 24 "
             "steps and 1 (the end-of-sequence token alone) from about step 28; brevity -0.61 to 0; exact match "
             "0.25-0.31 to step 16 and 0 after; the zero-variance share 1 from 28; entropy 0.38 to 0.0005; the "
             "gradient norm 33.6 at step 20, 5.6 times the next largest (5.96), 0 from 28; the empty answer on 124 of "
             "the 360 samples over steps 1-30 and all after).",
             rewards=("correct", "brevity"), weights=(0.5, 1.0), steps=120,
             args=dict(per_device_train_batch_size=12, temperature=0.8, beta=0.0, learning_rate=1.5e-3,
                       logging_steps=4, seed=206), source="trainer_state",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "GRAD_NORM_SPIKE"), batch=23),
    # -- batch 24 --
    # A twenty-second fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), one retrained with
    # another group size, none re-labelled: a binary exact-match reward with groups of 2, 4, 5 and 6, partial credit
    # with BNPO and groups of 2, the judge score with RLOO and groups of 2; healthy runs with and without a KL term that
    # learn (two groups of 5 at temperature 0.8, three groups of 4 with Dr. GRPO and no KL term read from
    # trainer_state.json), learn steadily (240 steps at 2e-4 with the original GRPO loss and groups of 6 in TRL 0.14's
    # key set), the judge score with RLOO and groups of 2, partial credit with BNPO at temperature 1.1 logged every
    # step, RLOO that converges at temperature 0.7 in TRL 0.14's key set; an answer key changed after learning to words
    # never taught with RLOO on partial credit, a KL blow-up after a 5-step warm-up into 3.5e-3 with Dr. GRPO and groups
    # of 6 read from trainer_state.json, an entropy collapse under a reward that says nothing with BNPO and groups of 7,
    # an entropy explosion under a reward paying for distinct letters with RLOO and normalised advantages, a per-word
    # proxy gamed against partial list credit with one group of 8 (the lists ran to the budget as letter strings first),
    # a reward plateau from a half key with two groups of 4 read from trainer_state.json (written with four groups of 2,
    # whose reward was still rising at the end; retrained), a per-character bonus beside the judge score with groups of
    # 3 in TRL 0.14's key set, a brevity reward beside exact match with RLOO and groups of 2; strides 1-10, temperatures
    # 0.6-1.2, learning rates 2e-4 to 3.5e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 207-220. Each expectation
    # was written from the mechanism before the run was trained (committed first), then checked on the raw log and the
    # recorded completions only, never against the doctor; every pathology written happened, every healthy run learnt,
    # and every onset rule written before training found its onset (none re-dated); the accepted signatures added after
    # training each carry their raw-log numbers, and three accepted before training were dropped where the log
    # contradicts them. As in batches 9-23, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_binary_2x5_kl_temp08_log5", "Exact match alone, two groups of 5 a step sampled at temperature "
             "0.8, TRL's default (DAPO) loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged every "
             "5: a fresh model is right about one time in ten, the groups that disagree carry the signal, and the "
             "target words are learnt question by question: a run that learns (raw log and samples: the reward 0.14 "
             "and 0.26 over the first two logs, 30-step means of 0.24, 0.36, 0.82, 0.90 and 0.92, 0.86-0.96 over the "
             "last 10 logs; the zero-variance share 0.2-0.9, a median of 0.6; entropy 0.41 and 0.40 over the first two "
             "logs and 0.05-0.16 over the last 10; the KL a median of 0.46, above 1 on one log of 30 (1.04 at step "
             "30); the gradient norm a median of 1.16, 10.1-11.7 on three logs (steps 65, 125 and 150); the mean "
             "length 4.7-6.0 tokens, the clipped share at most 0.02; the fruit's and the tool's targets first ('lemon' "
             "on 26 of 45, 'hammer' on 24 of 45 samples over steps 1-30), the bird's and the drink's over 31-60 "
             "('swan' on 17 of 55, 'juice' on 16 of 25), the colour's, the animal's and the tree's over 61-90 ('pink' "
             "on 60 of 65, 'pig' on 28 of 40, 'ash' on 20 of 30), the number's last ('four' on 0 of 45 over 1-30, 12 "
             "of 25 over 61-90, 37 of 40 over 121-150); every question on its target on 82-100 % of its samples over "
             "steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.8, beta=0.03,
                       learning_rate=5e-4, logging_steps=5, seed=207), batch=24),
    Scenario("healthy_nokl_drgrpo_binary_3x4_temp09_nosamples_log8", "Exact match alone, three groups of 4 a step "
             "sampled at temperature 0.9, the Dr. GRPO loss, no KL term (beta 0) and a learning rate of 4e-4, 160 "
             "steps logged every 8 and read from TRL's trainer_state.json (no samples): the target words are learnt "
             "and the groups come to agree, solved: a run that learns without an anchor (raw log and samples, which "
             "the doctor is not given: the reward 0.19 and 0.31 over the first two logs, 32-step means of 0.32, 0.53, "
             "0.85, 0.93 and 0.96, 0.875-0.99 over the last 10 logs; the zero-variance share 0.42-0.96, its 32-step "
             "means 0.47, 0.57, 0.66, 0.75 and 0.87; entropy 0.40 and 0.39 over the first two logs and 0.04-0.13 over "
             "the last 10; no KL logged; the gradient norm a median of 0.46, at most 1.73 (step 32), 0 on six logs "
             "from step 64 (the logged step's groups all agreeing); the mean length 5.05-6.05 tokens, the clipped "
             "share at most 0.02; the tool's and the fruit's targets first ('hammer' on 45 of 64, 'lemon' on 30 of 64 "
             "samples over steps 1-32), the colour's and the number's over 33-64 ('pink' on 44 of 48, 'four' on 31 of "
             "52), the tree's, the animal's and the bird's over 65-96 ('ash' on 54 of 64, 'pig' on 30 of 44, 'swan' on "
             "33 of 52); every question on its target on 92-100 % of its samples over steps 129-160).",
             rewards=("correct",), steps=160,
             args=dict(per_device_train_batch_size=12, temperature=0.9, loss_type="dr_grpo", beta=0.0,
                       learning_rate=4e-4, logging_steps=8, seed=208), source="trainer_state", batch=24),
    Scenario("healthy_slow_grpo_loss_binary_2x6_lr2e4_oldkeys_log10", "Exact match alone, two groups of 6 a step, the "
             "original GRPO loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 10 and read "
             "in TRL 0.14's key set (no zero-variance share, entropy or clipped share): the groups that disagree move "
             "the policy a little each step: a steady learner, the reward rising from about one in ten over the first "
             "150 steps and converging after (raw log and samples: the reward 0.11 and 0.09 over the first two logs, "
             "48-step means of 0.16, 0.49, 0.82, 0.89 and 0.955, 0.86-0.98 over the last 10 logs; the zero-variance "
             "share, which the doctor is not given, 0.2-0.9, a median of 0.5; entropy, not given either, 0.45 and 0.47 "
             "over the first two logs and 0.06-0.16 over the last 10; the KL a median of 0.36, at most 0.73 (step "
             "170); the gradient norm a median of 1.57, at most 6.6 (step 210); the mean length 4.9-5.7 tokens, "
             "nothing clipped; the bird's target first ('swan' on 36 of 114 samples over steps 1-48, 54 of 60 over "
             "49-96), the colour's, the tree's and the fruit's over 49-96 ('pink' on 71 of 84, 'ash' on 50 of 90, "
             "'lemon' on 45 of 54), the animal's and the tool's over 97-144 ('pig' on 25 of 96 over 49-96 and 101 of "
             "108 over 97-144, 'hammer' on 73 of 84), the drink's and the number's slowest ('juice' on 9 of 36, 33 of "
             "66 and 45 of 60 over 49-192; 'four' on 22 of 84, 12 of 24 and 54 of 78); every question on its target on "
             "88-99 % of its samples over steps 193-240).",
             rewards=("correct",), steps=240,
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="grpo", beta=0.02,
                       learning_rate=2e-4, logging_steps=10, seed=209), source="old_keys", batch=24),
    Scenario("healthy_rloo_judge_4x2_temp09_log2", "RLOO with its KL penalty (0.05) on the 0-10 judge score, four "
             "groups of 2 a step sampled at temperature 0.9 and a learning rate of 3e-4, 150 steps logged every 2: "
             "each completion's baseline is its sibling's score, the category is mostly given already, and the score "
             "rises towards 10 as the target words are learnt: a run that learns (raw log and samples: the score 7.56 "
             "over the first two logs, 30-step means of 7.28, 7.36, 8.35, 8.36 and 9.06, 8.19-10 over the last 10 "
             "logs; the zero-variance share, its 30-step means 0.23, 0.19, 0.49, 0.53 and 0.76; entropy 0.41 and 0.38 "
             "over the first two logs and 0.07-0.18 over the last 10; the KL a median of 0.19, at most 0.62 (step "
             "150); the gradient norm, RLOO's advantages not normalised on a 0-10 score, a median of 12.2, below 1 on "
             "26 of the 75 logs and 100-501 on 18 spread over the run (501 at step 46, 353 at 104, 342 at 116); the "
             "mean length 4.4-6.1 tokens, the clipped share at most 0.06; a word of the asked category on 231 of the "
             "240 samples over steps 1-30 and 225 of 240 over 121-150; the colour's and the tool's targets first "
             "('pink' on 19 of 30, 'hammer' on 18 of 40 samples over steps 1-30), the fruit's and the tree's over "
             "31-90 ('lemon' on 1 of 32 over 1-30 and 29 of 32 over 61-90, 'ash' on 16 of 18), the animal's and the "
             "drink's later ('pig' on 26 of 28, 'juice' on 20 of 32 over 121-150), the number's and the bird's in part "
             "('four' on 17 of 30, 'swan' on 9 of 16 over 121-150)).",
             algorithm="rloo", rewards=("judge",), steps=150,
             args=dict(num_generations=2, temperature=0.9, learning_rate=3e-4, logging_steps=2, seed=210), batch=24),
    Scenario("healthy_partial_bnpo_4x2_kl_hot11_log1", "Partial credit, exact match (1) beside a word of the asked "
             "category (0.2), four groups of 2 a step sampled at temperature 1.1, the BNPO loss, a KL penalty of 0.04 "
             "and a learning rate of 5e-4, 120 steps logged every step: hot sampling strays from the category at "
             "times, the category is kept and the target words are learnt: a run that learns, noisy step to step (raw "
             "log and samples: the reward 0.325 and 0.45 over the first two logs, 24-step means of 0.28, 0.35, 0.50, "
             "0.63 and 0.74 of a possible 1.2, 0.525-1.07 over the last 10 logs; exact match 0.125 and 0.25 over the "
             "first two logs, 24-step means of 0.10, 0.19, 0.33, 0.46 and 0.57 (0-0.875 from step to step); the "
             "category share 0.80-0.89 as 24-step means, 0.5 at its lowest (step 28); the zero-variance share 0-1, a "
             "median of 0.5; entropy 0.49 and 0.46 over the first two logs, 24-step means of 0.53, 0.55, 0.47, 0.42 "
             "and 0.37; the KL a median of 0.16, at most 0.81 (step 44); the gradient norm a median of 1.48, at most "
             "7.76 (step 44); the mean length 4.25-6.5 tokens, nothing clipped; the fruit's and the colour's targets "
             "first ('lemon' on 3 of 20 samples over steps 1-24 and 23 of 32 over 49-72, 'pink' on 10 of 16 over "
             "25-48), the drink's over 73-120 ('juice' on 13 of 20 and 23 of 30), the others in part over 97-120 "
             "('pig' on 13 of 22, 'ash' on 9 of 20, 'hammer' on 9 of 26, 'four' on 8 of 28, 'swan' on 5 of 24)).",
             weights=(1.0, 0.2), steps=120,
             args=dict(num_generations=2, temperature=1.1, loss_type="bnpo", beta=0.04, learning_rate=5e-4,
                       seed=211), batch=24),
    Scenario("healthy_converges_rloo_binary_3x4_cool07_oldkeys_log4", "RLOO with its KL penalty (0.05), exact match "
             "alone, three groups of 4 a step sampled at temperature 0.7 and a learning rate of 6e-4, 150 steps logged "
             "every 4 and read in TRL 0.14's key set: cool sampling and the leave-one-out baseline learn the target "
             "words, and the run converges with most groups solved (raw log and samples: the reward 0.10 and 0.25 over "
             "the first two logs, 30-step means of 0.33, 0.83, 0.94, 0.97 and 0.97, 0.92-1 over the last 10 logs; the "
             "zero-variance share, which the doctor is not given, its 30-step means 0.17, 0.59, 0.85, 0.89 and 0.91; "
             "entropy, not given either, 0.40 and 0.35 over the first two logs and 0.017-0.048 over the last 10; the "
             "KL a median of 0.53, above 1 on one log of 37 (1.05 at step 88); the gradient norm, RLOO's advantages "
             "not normalised, a median of 1.6, below 1e-6 on 18 of the 37 logs from step 32 (every group agreeing) and "
             "17-131 on eight (131 at step 56, 99 at 48, 50 at 128, 43 at 148); the mean length 4.7-5.7 tokens, the "
             "clipped share at most 0.02; the colour's and the fruit's targets first ('pink' on 43 of 68, 'lemon' on "
             "23 of 40 samples over steps 1-30), the animal's, the tool's and the tree's over 31-60 ('pig' on 62 of "
             "64, 'hammer' on 52 of 64, 'ash' on 35 of 40), the drink's and the number's over 61-120 ('juice' on 0 of "
             "52 over 1-30 and 42 of 44 over 61-90, 'four' on 31 of 40 and 65 of 68 over 61-120); every question on "
             "its target on 90-100 % of its samples over steps 121-150, a group's completions copies (a duplicate "
             "share of 0.39 over steps 1-30 and 0.94-0.97 from 61)).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.7, learning_rate=6e-4, logging_steps=4,
                       seed=212), source="old_keys", batch=24),
    Scenario("reward_collapse_key_untaught_after_learning_rloo_partial_2x4_log4", "RLOO with a KL penalty of 0.03, "
             "partial credit, exact match (1) beside a word of the asked category (0.2), two groups of 4 a step and a "
             "learning rate of 6e-4, 170 steps logged every 4; from the 110th reward call to the end both components "
             "are graded against another edition's key (swap to task.py's correct_untaught: words never taught), after "
             "the target words were learnt: nothing the model says scores any more, and the reward falls to 0 (raw log "
             "and samples: the reward 0.23 and 0.32 over the first two logs, 34-step means of 0.40, 0.54 and 0.68 to "
             "step 102, 1.02 at step 104 (its highest), 0.87 at 108, 0.24 at 112 (the log of steps 109-112, the new "
             "key's first call at 110) and 0 on every log from 116; exact match 0.03 and 0.125 over the first two "
             "logs, 0.84 at 104 and 0 from 116; the category 0.97-1 over the first two logs, 0.74 as the mean over "
             "steps 35-102 and 0 from 116; the zero-variance share 0-0.625 throughout (RLOO's KL term in the reward "
             "parts agreeing groups); entropy 0.46 and 0.45 over the first two logs and 0.13-0.27 from step 100; the "
             "KL a median of 0.64, above 1 on 4 of the 42 logs (1.28 at step 76); the gradient norm a median of 5.9, "
             "at most 51.5 (step 92); the mean length 4.7-5.9 tokens, nothing clipped; the colour's, the tree's, the "
             "fruit's, the bird's and the animal's targets learnt before the change ('pink' on 35 of 36, 'ash' on 35 "
             "of 36, 'lemon' on 19 of 20, 'swan' on 34 of 40, 'pig' on 25 of 40 samples over steps 69-102), the "
             "number's 'four' never said, the tool's 'hammer' lost after step 34 (31 of 60 samples over steps 1-34, 1 "
             "of 52 over 69-102); after the change the learnt words at first, then others ('eagle', 'juice', 'halm' "
             "over 137-170), none of the new key's).",
             algorithm="rloo", weights=(1.0, 0.2), steps=170, swap=(110, 100_000, "correct_untaught"),
             args=dict(beta=0.03, learning_rate=6e-4, logging_steps=4, seed=213),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.6, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=24),
    # Accepts LENGTH_COLLAPSE (not written before training): the mean length 4.75 and 6.08 tokens over the first two
    # logs (a first-2-log median of 5.4), 2.5-3.9 over steps 56-84 (1.75 at 74, at or below half that level on 6 of
    # those 15 logs) as the answers broke into fragments and the empty answer, 3-4.6 over the last 10 logs.
    Scenario("kl_blowup_partial_warmup5_drgrpo_2x6_hot11_nosamples_log2", "Partial credit, exact match (1) beside a "
             "word of the asked category (0.2), two groups of 6 a step sampled at temperature 1.1, the Dr. GRPO loss, "
             "a KL penalty of 0.04 and a 5-step warm-up (constant_with_warmup) into a learning rate far too high "
             "(3.5e-3), 120 steps logged every 2 and read from TRL's trainer_state.json (no samples): once the rate is "
             "up each update overshoots and the policy runs away from its reference, the KL well above the 0.1-0.8 of "
             "the corpus's healthy runs (raw log and samples, which the doctor is not given: the KL 0 and 0.004 over "
             "the first two logs, 0.18 at step 6, 1.18 at 8, 2.17 at 10, 0.67 at 12 and 1.3-5.9 on every log from 14 "
             "(above 1 on 56 of the 60 logs, 3.4-4.9 over the last 10); the reward 0.28 and 0.16 over the first two "
             "logs, 24-step means of 0.10, 0.05, 0.017, 0.005 and 0.006: exact match 0.083 at step 2 and 0 on every "
             "log from 4, the category 1 and 0.79 over the first two logs and 24-step means of 0.41, 0.26, 0.09, 0.02 "
             "and 0.03; the zero-variance share, its 24-step means 0.44, 0.77, 0.94, 0.98 and 0.98; entropy 0.57 and "
             "0.48 over the first two logs, 0.30-0.86 over steps 14-72, 0.15 and 0.06 at 74-76, 0.76-1.05 from 84 but "
             "for 0.49 at 116; the mean length 4.75 and 6.08 tokens over the first two logs, 10.4 at step 24, 2.5-3.9 "
             "over 56-84 (1.75 at 74) and 3-4.6 over the last 10 logs, the clipped share at most 0.5 (step 24); the "
             "gradient norm a median of 0.27, at most 5.6 (step 52); 'one' for most questions (65 of the 288 samples "
             "over steps 25-48), then fragments and the empty answer ('', 'ol', 'oa', 'o'; the empty answer on 43 of "
             "288 over 49-72), 'c', 'on' and 'pi' at the end; a word of the asked category on 117 of the 288 samples "
             "over steps 1-24 and on 7-9 of 288 from 73).",
             weights=(1.0, 0.2), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, loss_type="dr_grpo",
                       beta=0.04, learning_rate=3.5e-3, warmup_steps=5, lr_scheduler_type="constant_with_warmup",
                       logging_steps=2, seed=214), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "REWARD_PLATEAU",
                       "LENGTH_COLLAPSE"), batch=24),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 21.0 at step 117, the last log, 2.3 times
    # the next largest (8.96 at step 63), after about 1e-7 on the six logs before it. LENGTH_EXPLOSION, TRUNCATION_HIGH
    # and REPETITIVE_COMPLETIONS, accepted before training, dropped: the mean length at most 6.44 tokens (step 36, 1.1
    # times its first-two-log median) and 3 from step 81, the clipped share at most 0.21, no completion repeating a word
    # (the answers one string of letters).
    Scenario("entropy_collapse_coin_bnpo_nokl_2x7_cool06_log9", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), two groups of 7 a step sampled at temperature 0.6, the BNPO loss, no KL "
             "term and a learning rate of 2e-3, 120 steps logged every 9: the advantages are noise, and with no anchor "
             "the policy drifts onto one completion per question while the coin stays at chance: entropy falls far "
             "below where it started, and a group's seven samples become copies of one another (raw log and samples: "
             "entropy 0.37 and 0.19 over the first two logs (a first-2-log median of 0.28), 0.105 at step 27, 0.062 at "
             "36, 0.026 at 45 and 0.0001-0.008 from 54; the coin 0.44-0.60; the zero-variance share 0-0.056; no KL "
             "logged; the gradient norm 4.2-9.0 on the logs whose groups still differed, about 1e-7 on 7 of the 13 "
             "logs (36, 54 and 72-108: a group of copies has no gradient) and 21.0 at step 117; the mean length 5.97 "
             "and 5.77 tokens over the first two logs, 6.44 at 36, 4.0 over 45-63 and 3 (two letters and the "
             "end-of-sequence token) from 81, the clipped share at most 0.21 (step 36); letter strings at first "
             "('aner', 'anane', 'ranck'; a word of the asked category on 73 of the 336 samples over steps 1-24 and "
             "none after), then 'ane' (214 of the 336 samples over 25-48) and 'ae' for every question from about step "
             "73 (336 of 336 over 73-96); a group's completions copies (a duplicate share of 0.65 over steps 1-24, "
             "0.93 over 25-48 and 1.0 after); no completion repeating a word).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=14, num_generations=7, temperature=0.6, loss_type="bnpo", beta=0.0,
                       learning_rate=2e-3, logging_steps=9, seed=215),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_COLLAPSE", "GRAD_NORM_SPIKE"), batch=24),
    Scenario("entropy_explosion_distinct_letters_rloo_normadv_2x4_hot12_log1", "RLOO without a KL term (beta 0) and "
             "with its advantages normalised over the batch (normalize_advantages), under a reward that pays a tenth "
             "of a point per distinct letter the answer uses (task.py's distinct_letters: letter soup pays more than "
             "any word), two groups of 4 a step sampled at temperature 1.2 and a learning rate of 1.5e-3, 120 steps "
             "logged every step: the reward keeps paying the most random samples, so the updates push the next-token "
             "distribution flat towards the whole alphabet: entropy climbs to several times where it started (raw log "
             "and samples: entropy 0.52 and 0.53 over the first two logs, 0.98 at step 9, 1.22 at 10, twice its "
             "first-two-log level on 93 of the 100 logs from step 21 (0.98-1.82, 1.82 at 62), 24-step means of 0.89, "
             "1.32, 1.28, 1.16 and 1.32, 1.17-1.44 over the last 10 logs; the reward 0.43 and 0.41 over the first two "
             "logs, 24-step means of 0.66, 0.75, 0.84, 0.86 and 0.84; the mean length 5.9 and 5.25 tokens over the "
             "first two logs, 8.4 at step 5, 10.8 at 8 and 12 (the budget) on nearly every log from 14, the clipped "
             "share 0.25 at step 5, 0.75 at 8 and 0.875-1 from 14; the zero-variance share 0 on all but three logs "
             "(0.5 at step 3); no KL logged; the gradient norm 5.1 and 5.2 over the first two logs and 17-99 from step "
             "5, a median of 50; words at first ('cider', 'peach', 'wine'; a word of the asked category on 41 of the "
             "192 samples over steps 1-24 and none after), strings of letters to the budget from about step 14 "
             "('haillmmabrrc', 'zhgrryavrowa', 'cwwcanwsnzws'), no two alike in a group (a duplicate share of 0 from "
             "step 25)).",
             algorithm="rloo", rewards=("distinct_letters",), steps=120,
             args=dict(temperature=1.2, beta=0.0, normalize_advantages=True, learning_rate=1.5e-3, seed=216),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 2.0, run=3, first=2)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=24),
    Scenario("reward_hacking_word_count_list_credit_lists_1x8_kl_log5", "The list questions; the honest reward is "
             "partial credit (distinct words of the asked category / 5, task.py's list_credit), beside a cheap proxy "
             "weighted the same, a count of known words said, repeats included (task.py's word_count), one group of 8 "
             "a step, the original GRPO loss, a KL penalty of 0.02, a learning rate of 1.5e-3 and a 40-token budget, "
             "180 steps logged every 5: saying one short word over and over pays the proxy most, so the policy repeats "
             "a word and the list credit falls as the word count rises (raw log and samples: the list credit 0.43 and "
             "0.46 over the first two logs, 0.18-0.2 over steps 15-20, 0.04-0.155 over 25-65 and 0-0.07 on every log "
             "from 70 (0 on 11 of those 23); the word count 2.38 and 2.52 over the first two logs, 0.68-1.43 over "
             "steps 15-60 while the lists ran to the budget as letter strings, 2.02-2.83 over 55-70, 5.35 at 75, 7.03 "
             "at 80 and 6.7-8 after; the reward 2.8 and 2.98 over the first two logs and 7.7-8.0 over the last 10; the "
             "mean length 15.8 and 16 tokens over the first two logs, 19.9 at step 15, 24.9 at 20, 37.3 at 25 and "
             "35-40 (the 40-token budget) after, the clipped share 0.825 at 25 and 0.75-1 after; entropy 0.59 and 0.64 "
             "over the first two logs, 0.72-0.89 over 15-60, 0.29 at 75, 0.16 at 80 and 0.009-0.02 over the last 10 "
             "logs; the KL 0.13 and 1.25 over the first two logs and 2.3-6.8 from step 25, a median of 3.51; the "
             "gradient norm 15.7 at step 10, a median of 1.23, at most 8.2 on every other log; the zero-variance share "
             "(one group) 0-0.2 to step 105 and 0.4-1 from 110; lists of two or three words of the category at first "
             "('pink white brown', 'cedar cedar cedar'), letter strings and word fragments to the budget over steps "
             "37-72 ('saak pea saw wine ctay cihet eat ceayata'), then 'five five five five five five five five' for "
             "every question from about step 73 (148 of the 288 samples over 73-108, 274 of 288 over 145-180); the "
             "lists that repeat a word (3+ words, at most half distinct) 3 of the 288 samples over steps 1-36, 34 over "
             "37-72, 273 over 73-108 and 286-288 after; a group's completions copies from about step 73 (a duplicate "
             "share of 0 to step 72, 0.54 over 73-108, 0.83 and 0.94 after)).",
             prompts="lists", rewards=("list_credit", "word_count"), weights=(1.0, 1.0), steps=180,
             args=dict(num_generations=8, max_completion_length=40, loss_type="grpo", beta=0.02, learning_rate=1.5e-3,
                       logging_steps=5, seed=217),
             expect={"REWARD_HACKING": hacked("rewards/list_credit/mean", "rewards/word_count/mean", smooth=3, run=3),
                     "REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=24),
    # Retrained after training (its configuration changed; the expected signature, onset rule and seed unchanged):
    # written as reward_plateau_half_key_4x2_kl_temp08_nosamples_log6, four groups of 2 a step, whose raw log showed no
    # plateau: the reward still rising at the end of its 180 steps (36-step means 0.16, 0.28, 0.32, 0.37 and 0.49),
    # levels_off dating the levelling-off at step 168 of 180. Tried in a scratch folder (raw log only): 300 steps (the
    # 48-step means of the reward rising to 0.57 over steps 193-240, then 0.31 and 0.34), a learning rate of 1e-3 (what
    # was learnt lost, 36-step means of 0.02-0.13 from step 109) and eight groups of 2 (a plateau, batch 20's shape);
    # retrained with two groups of 4 (num_generations 4), everything else as written: the reward levels off at about
    # half from step 108.
    Scenario("reward_plateau_half_key_2x4_kl_temp08_nosamples_log6", "Exact match graded against a key half of whose "
             "words the model can say (task.py's correct_half_key), two groups of 4 a step sampled at temperature 0.8, "
             "TRL's default (DAPO) loss, a KL penalty of 0.02 and a learning rate of 6e-4, 180 steps logged every 6 "
             "and read from TRL's trainer_state.json (no samples): the learnable half is learnt and its groups come to "
             "agree, solved, while the other half's groups agree on 0 from the start; the reward rises to about half "
             "its best and stays there (raw log and samples, which the doctor is not given: the reward 0 and 0.02 over "
             "the first two logs, 36-step means of 0.06, 0.375, 0.48, 0.47 and 0.46, 0.29-0.58 over the last 10 logs, "
             "0.81 at its highest (step 108), its mean over the last quarter 0.48, where the learnable half gives 0.5 "
             "on average; the zero-variance share 0.67-1, its 36-step means 0.92, 0.85, 0.875, 0.90 and 1.0; entropy "
             "0.40 and 0.42 over the first two logs and 0.21-0.34 over the last 10; the KL a median of 0.39, 1.03 at "
             "step 120 and at most 0.95 on every other log; the gradient norm a median of 0.027, at most 9.15 (step "
             "48); the mean length 4.8-5.8 tokens, the clipped share at most 0.04; the fruit's, the colour's and the "
             "animal's targets first ('lemon' on 42 of 44, 'pink' on 42 of 48, 'pig' on 23 of 32 samples over steps "
             "37-72), the number's over 73-144 ('four' on 1 of 44 over 37-72, 27 of 40 and 46 of 48 after), those four "
             "on their targets on all 132 of their samples over steps 145-180; the other four questions never scoring "
             "(0 on all 700 of their samples), their key words never taught ('yew' for the tree, 'punch' for the "
             "drink, 'vise' for the tool, 'wren' for the bird), their answers still varied words of the category "
             "('pine', 'finch', 'coffee', 'rake')).",
             rewards=("correct_half_key",), steps=180,
             args=dict(temperature=0.8, beta=0.02, learning_rate=6e-4, logging_steps=6, seed=218),
             source="trainer_state",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=24),
    Scenario("length_explosion_char_bonus_judge_grpo_loss_4x3_nokl_oldkeys_log3", "The 0-10 judge score beside a bonus "
             "paid per character (weight 8, task.py's length_bonus: 20 characters pay 20, more than the target word "
             "with its bonus), four groups of 3 a step, the original GRPO loss, no KL term, a learning rate of 8e-4 "
             "and a 20-token budget, 120 steps logged every 3 and read in TRL 0.14's key set (no clipped share): the "
             "longest answer of a group keeps winning, so the answers grow to the budget and get cut (raw log and "
             "samples: the mean length 5.67 and 5.78 tokens over the first two logs, 5.4-6.4 to step 51, 8.17 at 54, "
             "8.89 at 57, 16.4 at 60, 13.1-19.6 over 63-72 and 19.6-20 (the budget) on every log from 75; the clipped "
             "share, which the doctor is not given, 0 to step 51, 0.06-0.08 at 54-57, 0.39-0.75 over 60-69 and 0.94-1 "
             "from 72; the judge's score 6.78 and 6.58 over the first two logs, 5.2-7.4 to step 57, 1.22 at 60, "
             "0.28-2.81 over 63-69 and 0 on every log from 72; the length bonus 0.58 and 0.60 over the first two logs "
             "and 2.47-2.5 from 75; the reward 11.4 over the first two logs and 19.8-20 over the last 10; the "
             "zero-variance share, not given, its 24-step means 0.17, 0.29, 0.43, 0.96 and 0.96; entropy, not given, "
             "0.44 and 0.47 over the first two logs and 0.25-0.40 over the last 10; no KL logged; the gradient norm at "
             "most 6.14 (step 72), 0 on every log from 75 but one (1.3 at 99); words of the category at first (a word "
             "of the asked category on 244 of the 288 samples over steps 1-24, 'hammer', 'pink' and 'swan' gaining), "
             "then strings of s's to the budget from about step 55 ('ssssssssssssssssssss', 'sevessssssssssssssss' "
             "from 'seven', 'sevesese seveseseses'), no sample a word of its category from step 73).",
             rewards=("judge", "length_bonus"), weights=(1.0, 8.0), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=20, loss_type="grpo",
                       beta=0.0, learning_rate=8e-4, logging_steps=3, seed=219), source="old_keys",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2)},
             accepted=("REWARD_HACKING", "TRUNCATION_HIGH", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=24),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 14.3 at step 7, the first log, 5 times
    # the next largest (2.87 at step 35), 0 on every log from 42 (every pair agreeing on the empty answer).
    Scenario("length_collapse_brevity_exact_rloo_4x2_nokl_log7", "RLOO without a KL term (beta 0), exact match (0.5) "
             "beside a reward for brevity (1, task.py's brevity: minus an eighth of a point per character), four "
             "groups of 2 a step sampled at temperature 0.9 and a learning rate of 1.5e-3, 120 steps logged every 7: "
             "the target word pays no more than its length costs, the empty answer costs nothing, so the answers "
             "shrink towards nothing (raw log and samples: the mean length 4.93 and 3.18 tokens over the first two "
             "logs (a first-2-log median of 4.05), 2.93 at step 21, 1.14 at 28, 1.05 at 35 and 1 (the end-of-sequence "
             "token alone) on every log from 42; brevity -0.49 and -0.27 over the first two logs and 0 from 42; exact "
             "match 0.07 at step 7 and 0 from 14; the zero-variance share 0.61 and 0.54 over the first two logs and 1 "
             "from 42; entropy 0.51, 0.66 and 0.52 over the first three logs, 0.125 at 28, 0.04 at 35 and 0.0004 from "
             "42; no KL logged; the gradient norm 14.3 at step 7, 1.7-2.9 over 14-35 (0 at 28) and 0 on every log from "
             "42; nothing clipped; the empty answer from the start on some samples (48 of the 192 over steps 1-24) "
             "beside fragments ('l', 'ter', 'rake', 'ax'), then on 187 of 192 over 25-48 and every sample from step "
             "49).",
             algorithm="rloo", rewards=("correct", "brevity"), weights=(0.5, 1.0), steps=120,
             args=dict(num_generations=2, temperature=0.9, beta=0.0, learning_rate=1.5e-3, logging_steps=7, seed=220),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "GRAD_NORM_SPIKE"), batch=24),
    # -- batch 25 --
    # A twenty-third fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled, one retrained (its unit bug moved from reward call 125, where both groups agreed, to 130): a binary
    # exact-match reward with groups of 2, 4 and 8, partial credit with groups of 4 and 6, the judge score with groups
    # of 4; healthy runs with and without a KL term that learn (four groups of 2 with the original GRPO loss logged
    # every step, two groups of 6 with BNPO and no KL term read from trainer_state.json, two optimisation passes a
    # generation at temperature 1.2), learn slowly (the judge score with Dr. GRPO over 240 steps at 1.5e-4 in TRL 0.14's
    # key set), RLOO with a cosine schedule at temperature 1.1, converge without a KL term with two groups of 8; a KL
    # blow-up with RLOO on partial credit in TRL 0.14's key set, an answer key changed after learning to words never
    # taught read from trainer_state.json, an entropy explosion under a reward paying for distinct letters with RLOO, a
    # group mode collapse under an early-letter preference with BNPO, an exponential length bonus that overflows TRL's
    # float32 statistics with Dr. GRPO, a unit bug in one batch of unscaled judge scores (a single gradient-norm spike),
    # a token budget too small for the list questions, a letter proxy gamed against the category with Dr. GRPO; strides
    # 1-10, seeds 221-234.
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 21 of the 150 logs (3.02 at step 142, 2.49 at
    # 103, 2.12 at 85, 2.1 at 57), its 30-step means 0.08, 0.49, 0.54, 0.70 and 0.66, a median of 0.31: one step's 8
    # samples a log, the logged KL swings with the two questions asked.
    Scenario("healthy_grpo_loss_binary_4x2_kl_temp09_log1", "Exact match alone, four groups of 2 a step sampled at "
             "temperature 0.9, the original GRPO loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps "
             "logged every step: a fresh model is right about one time in ten, the pairs that disagree carry the "
             "signal, and the target words are learnt question by question; per-step means of 8 samples are noisy: a "
             "run that learns (raw log and samples: the reward 0 and 0.125 over the first two logs, 30-step means of "
             "0.14, 0.43, 0.72, 0.79 and 0.81 (0-1 on single logs); the zero-variance share a median of 0.75, pairs "
             "agreeing often; entropy 0.47 and 0.44 over the first two logs, 30-step means of 0.44, 0.40, 0.28, 0.21 "
             "and 0.18; the KL a median of 0.31, above 1 on 21 of the 150 logs (3.02 at step 142); the gradient norm a "
             "median of 0.54, at most 7.83 (step 126); the mean length 4.5-9 tokens, 5.4-5.9 as 30-step means, the "
             "clipped share 0 on most logs, at most 0.375 (step 142); the fruit's, animal's, colour's, drink's, tool's "
             "and bird's targets learnt ('lemon' on 3 of 20 samples over steps 1-30 and 51 of 54 over 121-150, 'pig' "
             "on 8 of 34 and 18 of 18, 'pink' on 9 of 26 and 29 of 32, 'juice' on 1 of 22 and 19 of 20, 'hammer' on 6 "
             "of 32 and 22 of 30, 'swan' on 6 of 30 and 30 of 36), the number's from about step 91 ('four' on 13 of 92 "
             "samples over steps 1-90 and 56 of 68 after), the tree's 'ash' never said (0 of 142 samples), its answers "
             "varied trees ('pine', 'oak', 'spruce', 'maple')).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, temperature=0.9, loss_type="grpo", beta=0.03, learning_rate=5e-4,
                       seed=221), accepted=("KL_BLOWUP",), batch=25),
    Scenario("healthy_nokl_partial_bnpo_2x6_cool08_nosamples_log8", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), two groups of 6 a step sampled at temperature 0.8, the BNPO loss, no KL term "
             "and a learning rate of 4e-4, 160 steps logged every 8 and read from TRL's trainer_state.json (no "
             "samples): the category is already earned, the target words are learnt and the groups come to agree: a "
             "run that learns (raw log and samples, which the doctor is not given: the reward 0.36 and 0.38 over the "
             "first two logs, 30-step means of 0.41, 0.68, 1.02, 1.12, 1.18 and 1.16 of a possible 1.2; exact match "
             "0.18 and 0.19 over the first two logs and 0.96-1 over the last four; the category 0.93-1 throughout; the "
             "zero-variance share 0.06-0.38 to step 56 and 0 on every log from 64, though the groups agree (a "
             "duplicate share of 0.98 over steps 121-150, the reward_std 0 at step 136): TRL's isclose test misses the "
             "float32 rounding of 1 + 0.2 in its group std; entropy 0.40 and 0.40 over the first two logs, 30-step "
             "means of 0.40, 0.30, 0.15, 0.07, 0.03 and 0.04; no KL logged; the gradient norm a median of 0.82, at "
             "most 11.6 (step 104), 0.00004-0.002 on 9 of the 12 logs from 72; the mean length 4.6-5.8 tokens, the "
             "clipped share at most 0.01; the fruit's and the tool's targets first ('lemon' on 32 of 60, 'hammer' on "
             "27 of 54 samples over steps 1-30), the colour's, bird's and animal's over 31-60 ('pink' on 32 of 36, "
             "'swan' on 22 of 30, 'pig' on 28 of 66), the tree's, drink's and number's over 61-120 ('ash' on 50 of 54, "
             "'juice' on 49 of 60 over 61-90, 'four' on 50 of 54 over 91-120); every question on its target on 95-100 "
             "% of its samples over steps 121-150).",
             weights=(1.0, 0.2), steps=160,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.8, loss_type="bnpo", beta=0.0,
                       learning_rate=4e-4, logging_steps=8, seed=222), source="trainer_state", batch=25),
    Scenario("healthy_slow_judge_drgrpo_3x4_lr15e5_oldkeys_log10", "The 0-10 judge score, three groups of 4 a step, "
             "the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 1.5e-4, 240 steps logged every 10 and "
             "read in TRL 0.14's key set: the taught answers already earn most of the score, the target words the "
             "rest, learnt slowly over the whole run: a run that learns slowly (raw log and samples: the score 6.96 "
             "and 6.87 over the first two logs, 30-step means of 7.0, 7.38, 7.35, 7.93, 8.07, 8.59, 8.85 and 9.16, "
             "9.45 at its highest (step 220); the zero-variance share, not given, 30-step means of 0.56, 0.52, 0.36, "
             "0.34, 0.26, 0.29, 0.48 and 0.58; entropy, not given, 0.48 to 0.16 (30-step means 0.47, 0.44, 0.41, 0.39, "
             "0.37, 0.30, 0.23, 0.16); the KL rising steadily, 0.001 at step 10 and 0.54 at most (step 230); the "
             "gradient norm a median of 0.56, at most 3.09 (step 110); the mean length 5.1-5.6 tokens, the clipped "
             "share, not given, at most 0.008; a word of the asked category on 332-349 of 360 samples in every 30 "
             "steps; the colour's and the fruit's targets first ('pink' on 38 of 64, 'lemon' on 20 of 40 samples over "
             "steps 31-60), the others over the second half ('ash' on 1 of 72 over steps 1-30 and 56 of 60 over "
             "211-240, 'swan' on 1 of 28 and 38 of 40, 'hammer' on 5 of 40 and 51 of 68, 'juice' on 1 of 24 and 30 of "
             "40, 'pig' on 6 of 64 and 35 of 40), the number's in part ('four' on 16 of 32 over steps 211-240)).",
             rewards=("judge",), steps=240,
             args=dict(per_device_train_batch_size=12, loss_type="dr_grpo", beta=0.02, learning_rate=1.5e-4,
                       logging_steps=10, seed=223), source="old_keys", batch=25),
    Scenario("healthy_rloo_cosine_binary_3x4_temp11_log6", "RLOO with a KL penalty of 0.05, exact match alone, three "
             "groups of 4 a step sampled at temperature 1.1, a warm-up over a tenth of the run then cosine decay from "
             "a learning rate of 6e-4, 180 steps logged every 6: the leave-one-out baseline carries the signal of the "
             "groups that disagree, the targets are learnt while the rate is high, and learning slows as it decays: a "
             "run that learns (raw log and samples: the reward 0.069 and 0.11 over the first two logs, 30-step means "
             "of 0.16, 0.54, 0.74, 0.92, 0.93 and 0.90, 0.96 at its highest (step 114); the zero-variance share, its "
             "30-step means 0.08, 0.24, 0.47, 0.71, 0.78 and 0.69; entropy 0.51 and 0.49 over the first two logs, "
             "30-step means of 0.52, 0.42, 0.26, 0.14, 0.13 and 0.11; the KL a median of 0.47, at most 0.63; the "
             "gradient norm, RLOO's advantages not normalised, a median of 4.3, at most 26.2 (step 48), 1.35 as the "
             "mean over the last 30 steps; the mean length 4.9-5.9 tokens, the clipped share at most 0.04; the "
             "fruit's, tree's and tool's targets over steps 31-60 ('lemon' on 52 of 64, 'ash' on 46 of 68, 'hammer' on "
             "29 of 52), the colour's, drink's and number's over 61-90 ('pink' on 37 of 40, 'juice' on 62 of 84, "
             "'four' on 36 of 56), the animal's and the bird's after ('pig' on 39 of 44 over 91-120, 'swan' on 42 of "
             "44), the bird's answer lost for a while to 'uck' over steps 31-60 (18 of 40 samples); every question on "
             "its target on 73-100 % of its samples over steps 151-180).",
             algorithm="rloo", rewards=("correct",), steps=180,
             args=dict(per_device_train_batch_size=12, temperature=1.1, beta=0.05, learning_rate=6e-4,
                       warmup_steps=0.1, lr_scheduler_type="cosine", logging_steps=6, seed=224), batch=25),
    Scenario("healthy_converges_nokl_binary_2x8_cool07_log4", "Exact match alone, two groups of 8 a step sampled at "
             "temperature 0.7, TRL's default (DAPO) loss, no KL term and a learning rate of 4e-4, 150 steps logged "
             "every 4: eight samples a question find the target often, cool sampling and no anchor let the learnt "
             "answers take over, and the groups come to agree, solved: a run that converges (raw log and samples: the "
             "reward 0.047 and 0.078 over the first two logs, 30-step means of 0.31, 0.74, 0.90, 0.97 and 0.99, 1 at "
             "step 116; the zero-variance share, its 30-step means 0.29, 0.39, 0.61, 0.80 and 0.93; entropy 0.41 and "
             "0.41 over the first two logs, 30-step means of 0.36, 0.18, 0.10, 0.036 and 0.016; no KL logged; the "
             "gradient norm a median of 0.69, 17.3 at step 52 and at most 7.6 on every other log; the mean length "
             "4.6-5.8 tokens, the clipped share at most 0.016; the tool's, fruit's and number's targets first "
             "('hammer' on 59 of 88, 'lemon' on 33 of 80, 'four' on 29 of 96 samples over steps 1-30), the tree's, "
             "drink's, colour's and bird's over 31-60 ('ash' on 44 of 48, 'juice' on 27 of 32, 'pink' on 40 of 56, "
             "'swan' on 38 of 56), the animal's over 61-90 ('pig' on 2 of 64 over 31-60, its answers 'horse' and "
             "non-words, and 59 of 72 over 61-90); every question on its target on 97-100 % of its samples over steps "
             "121-150, a group's completions copies (a duplicate share of 0.49 over steps 1-30 and 0.99 over "
             "121-150)).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=16, num_generations=8, temperature=0.7, beta=0.0,
                       learning_rate=4e-4, logging_steps=4, seed=225), batch=25),
    Scenario("healthy_iter2_partial_2x4_kl_hot12_log3", "Partial credit, exact match (1) beside a word of the asked "
             "category (0.2), two groups of 4 a step sampled at temperature 1.2, two optimisation passes a generation "
             "(num_iterations=2), TRL's default (DAPO) loss, a KL penalty of 0.04 and a learning rate of 3e-4, 150 "
             "steps logged every 3: hot sampling garbles some answers, the category keeps them words, and the targets "
             "are learnt: a run that learns (raw log and samples: the reward 0.30 and 0.175 over the first two logs, "
             "30-step means of 0.24, 0.35, 0.46, 0.69 and 0.87 of a possible 1.2; exact match 30-step means of 0.05, "
             "0.19, 0.28, 0.51 and 0.69; the category 0.8-0.93 as 30-step means; the zero-variance share a median of "
             "0.375; entropy 0.48 over the first two logs, 0.47-0.56 as 30-step means to step 120 and 0.36 over "
             "121-150; the KL 1.41 at the first log (step 3), then 0.001-0.67 on every log but one (1.11 at step 141), "
             "a median of 0.155; the gradient norm a median of 1.24, at most 6.26; the mean length 4.6-6.5 tokens, "
             "nothing clipped; a new generation every other step (120 samples in 30 steps); the colour's target first "
             "('pink' on 10 of 20 samples over steps 31-60), the bird's, drink's, fruit's, animal's and number's over "
             "91-150 ('swan' on 0 of 40 over steps 1-60 and 24 of 32 over 91-150, 'juice' on 20 of 32, 'lemon' on 28 "
             "of 44, 'pig' on 27 of 40, 'four' on 17 of 24), the tree's and the tool's not ('ash' on 6 of 64 samples, "
             "'hammer' on 5 of 64)).",
             weights=(1.0, 0.2), steps=150,
             args=dict(num_iterations=2, temperature=1.2, beta=0.04, learning_rate=3e-4, logging_steps=3, seed=226),
             batch=25),
    # Accepts LENGTH_COLLAPSE (not written before training): the mean length, which TRL 0.14's key set keeps as
    # completion_length, 5.4-6.9 tokens to step 40, 4.2-4.8 over 44-56, 3 at 60 and 1 (the end-of-sequence token
    # alone) on every log from 84: the runaway policy ended on the empty answer. Accepts GRAD_NORM_SPIKE (not written
    # before training): the gradient norm 51.5 at step 16, 10 times the logs before it (2.6-5.0), 60.6 at 36 and 49.5
    # at 44, a median of 0.59 over the run (0 or below 1e-9 on most logs from 84).
    Scenario("kl_blowup_partial_rloo_warmup20_2x6_oldkeys_log4", "RLOO with a KL penalty of 0.05, partial credit, "
             "exact match (1) beside a word of the asked category (0.2), two groups of 6 a step and a 20-step warm-up "
             "(constant_with_warmup) into a learning rate far too high (3e-3), 120 steps logged every 4 and read in "
             "TRL 0.14's key set: once the rate is up each update overshoots, and the policy runs away from its "
             "reference faster than the penalty in the reward pulls it back: the KL blows up (raw log and samples: the "
             "KL 0.0005 at step 4, 0.006 at 8, 0.14 at 12, 0.35 at 16, 1.37 at 20, 1.15 at 24, 2.62 at 28 and above 1 "
             "on every log from 20 (26 of 30), 5.1-7.5 over 52-76 and 8.2-9.35 from 80; the reward 0.22 and 0.30 over "
             "the first two logs, 0.36 and 0.38 at 12 and 16, 0.125 at 20, 0.42 at 24, 0-0.18 over 28-52 and 0 on "
             "every log from 56; the category 0.98 over the first two logs, 0.31 at 20 and 0 from 56; the "
             "zero-variance share, not given, 0-0.375 to step 64 and 0.5-1 from 68, the reward_std 0 from 56; entropy, "
             "not given, 0.48 and 0.44 over the first two logs, 0.53-0.72 over 28-52, 0.27 at 60 and below 0.003 from "
             "84; the gradient norm 2.6-5 to step 12, 51.5 at 16, 6-61 over 28-52 (60.6 at 36) and 0 or below 1e-9 on "
             "most logs from 84; the mean length 5.4-6.9 tokens to step 40 and 1 from 84; words at first, with "
             "'hammer' and 'pig' spreading to other questions (a word of the asked category on 217 of the 360 samples "
             "over steps 1-30), fragments ('p', 'k', 'j', 'pip') over 31-60 (23 of 360 in the category), then the "
             "empty answer for every question (on every sample over steps 91-120)).",
             algorithm="rloo", weights=(1.0, 0.2), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, beta=0.05, learning_rate=3e-3,
                       warmup_steps=20, lr_scheduler_type="constant_with_warmup", logging_steps=4, seed=227),
             source="old_keys", expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "LENGTH_COLLAPSE",
                       "GRAD_NORM_SPIKE"), batch=25),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 8 of the 80 logs (3.45 at step 82, 1.17-1.49
    # on the others), its 5-log mean above 1 around step 82, a median of 0.5.
    Scenario("reward_collapse_untaught_key_after_learning_4x2_temp09_nosamples_log2", "Exact match alone, four groups "
             "of 2 a step sampled at temperature 0.9, TRL's default (DAPO) loss, a KL penalty of 0.02 and a learning "
             "rate of 6e-4, 160 steps logged every 2 and read from TRL's trainer_state.json (no samples); from the "
             "100th reward call on the grader reads another edition of the answer key, words never taught (swap to "
             "task.py's correct_untaught): the targets learnt before it no longer score, nothing scores, and the "
             "reward falls to 0 with every pair agreeing on it (raw log and samples, which the doctor is not given: "
             "the reward 0 and 0.0625 over the first two logs, 30-step means of 0.15, 0.44 and 0.67 before the swap, 1 "
             "at step 84 and 0.63-0.88 over 86-98, 0.44 at step 100 (the log of steps 99-100, the swap's first call at "
             "100), then 0 on every log from 102 to the end; the zero-variance share 30-step means of 0.83, 0.53 and "
             "0.77 before, 1 on every log from 102; entropy 0.44 and 0.47 over the first two logs, 30-step means of "
             "0.46, 0.46, 0.29, 0.18, 0.30 and 0.32; the KL a median of 0.5, above 1 on 8 of 80 logs (3.45 at step "
             "82); the gradient norm a median of 0.13, at most 4.71 (step 74), 0.003-1.23 from 102; the mean length "
             "5.1-5.8 tokens as 30-step means, the clipped share at most 0.06; the fruit's, colour's, animal's, "
             "tool's, drink's, bird's and tree's targets learnt before the swap ('pink' on 51 of 52, 'swan' on 24 of "
             "26, 'pig' on 28 of 32, 'ash' on 33 of 42 samples over steps 91-120), the number's 'four' never said (0 "
             "of 154); after it the learnt words still said, slowly fading without a signal ('lemon' on 29 of 32, "
             "'pig' on 27 of 28, 'swan' on 11 of 22 over steps 121-150), none of them in the new key).",
             rewards=("correct",), steps=160, swap=(100, 100_000, "correct_untaught"),
             args=dict(num_generations=2, temperature=0.9, beta=0.02, learning_rate=6e-4, logging_steps=2, seed=228),
             source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=25),
    Scenario("entropy_explosion_distinct_letters_rloo_nokl_2x4_hot12_log3", "RLOO without a KL term under a reward "
             "paying a tenth of a point per distinct letter (task.py's distinct_letters: letter soup pays more than "
             "any word), two groups of 4 a step sampled at temperature 1.2 and a learning rate of 2e-3, 120 steps "
             "logged every 3: the most random sample of a group keeps winning, and the updates push the next-token "
             "distribution flat towards the whole alphabet: entropy climbs to several times where it started (raw log "
             "and samples: entropy 0.56 and 0.78 over the first two logs (a first-2-log median of 0.67), 0.89-1.24 "
             "over steps 9-24, 1.44 at 27, 1.68 at 30 and 1.37-1.95 on every log from 27 (1.95 at 48, 2.9 times that "
             "median), 1.37-1.83 over the last 10 logs; the reward 0.40 and 0.45 over the first two logs and 0.73-0.90 "
             "from step 18; the zero-variance share 0 on most logs (at most 0.167); the gradient norm a median of 7.2, "
             "at most 25.4 (step 87); no KL logged; the mean length 5.3 and 6 tokens over the first two logs, 8.9 at "
             "step 12, 11.75 at 18 and 11.6-12 (the budget) from 21, the clipped share 0.29 at 12, 0.875 at 18 and "
             "0.92-1 from 21; words at first, hot sampling garbling many (a word of the asked category on 39 of the "
             "240 samples over steps 1-30), then strings of random letters to the budget for every question from about "
             "step 31 ('gozgglssdro', 'cogsedqtjono', 'hrsivwnnnlwo'; none a word of its category over steps 31-120), "
             "no two alike in a group (a duplicate share of 0 from step 31)).",
             algorithm="rloo", rewards=("distinct_letters",), steps=120,
             args=dict(temperature=1.2, beta=0.0, learning_rate=2e-3, logging_steps=3, seed=229),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 2.0, run=3, first=2)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=25),
    Scenario("group_mode_collapse_early_letter_bnpo_2x6_temp07_log2", "Exact match (1) beside two cheap preferences, a "
             "known word and an early first letter (0.3 each, task.py's is_word and early_letter), two groups of 6 a "
             "step sampled at temperature 0.7, the BNPO loss, no KL term and a learning rate of 1.5e-3, 160 steps "
             "logged every 2: the preferences pay every sample a little, the earliest-letter word of a question most, "
             "and with no anchor the policy settles on one answer per question: a group's completions become copies of "
             "each other (raw log and samples: a group's duplicate share, (n - distinct)/(n - 1), 0.1-0.5 a step over "
             "steps 1-14, 0.5-0.9 on most steps from 15, its 30-step means 0.54, 0.77, 0.83, 0.93, 0.92 and 0.94; the "
             "answers one string a question, not always a word and not always the question's own: 'cow' for the animal "
             "(54 of 84 samples over steps 1-30), 'cider' for the drink, then for the tool, the colour and the animal "
             "('cider' on 80 of 84 colour samples over steps 91-120), 'pink' for the number (64 of 66 over 121-150), "
             "'aeeeeeeeeeee' for the fruit (57 of 60 over 61-90), 'swan' for the bird and 'ash' for the tree, both "
             "targets; exact match 30-step means of 0.17, 0.36, 0.31, 0.21, 0.28 and 0.48; the known-word share 0.96 "
             "and 1 over the first two logs, 30-step means of 0.73, 0.54, 0.61, 0.84, 0.86 and 0.88; early letter "
             "0.56-0.62 over the first two logs and 0.65-0.81 as 30-step means; the reward 0.66 and 0.53 over the "
             "first two logs, 30-step means of 0.60, 0.72, 0.72, 0.70, 0.76 and 0.95; the zero-variance share, its "
             "30-step means 0.13, 0.42, 0.43, 0.63, 0.55 and 0.60; entropy 0.35 and 0.39 over the first two logs, "
             "30-step means of 0.32, 0.20, 0.11, 0.06, 0.05 and 0.02; no KL logged; the gradient norm a median of 2.7, "
             "at most 13.7; the mean length 4.2-6 tokens to step 60, up to 10.2 on the logs where the fruit was asked "
             "(its answer runs to the 12-token budget), the clipped share 0-0.75, 0-0.3 as 30-step means).",
             rewards=("correct", "is_word", "early_letter"), weights=(1.0, 0.3, 0.3), steps=160,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.7, loss_type="bnpo", beta=0.0,
                       learning_rate=1.5e-3, logging_steps=2, seed=230),
             expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=25),
    # ENTROPY_EXPLOSION, accepted before training, dropped: entropy 0.48 and 0.51 over the first two logs, at most 0.60
    # (step 24), 0.30-0.49 from step 36.
    Scenario("nonfinite_exp_length_overflow_drgrpo_3x4_log4", "An exponential length bonus (10**length, task.py's "
             "exp_length) computed in float64, three groups of 4 a step, the Dr. GRPO loss, no KL term, a learning "
             "rate of 5e-4 and a 48-token budget, 150 steps logged every 4: the longest answer of a group keeps "
             "winning, and once answers pass about 20 characters the squares in TRL's float32 reward statistics "
             "overflow, then the rewards themselves: reward_std and the reward turn infinite or NaN in the log (raw "
             "log and samples: the reward 1.1e5, 2.1e11 and 2.1e8 over the first three logs, 2.1e22 at step 16 with "
             "reward_std infinite there, 2.1e15 at 20 (reward_std 7.3e15), 4.4e21 at 24 (reward_std infinite), then "
             "both infinite on every log from 28 (31 of the 37 logs for the reward, 33 for reward_std), never None; "
             "the mean length 5.4-5.8 tokens over the first three logs, 7.4 at step 16, 11.1 at 24, 16.8 at 32, 33 at "
             "40, 36.6 at 44 and 37.8-45.7 from 48; the clipped share 0 to step 24, 0.06-0.17 over 28-36, 0.46 at 40 "
             "and 0.5-0.9 from 44; the gradient norm 0.1-1.1 to step 36 and 0 on every log from 40 but one (0.69 at "
             "132): the NaN advantages are zeroed; entropy 0.48 and 0.51 over the first two logs, at most 0.60 (step "
             "24), 0.30-0.49 from 36; the zero-variance share 0 from step 16; no KL logged; words at first (a word of "
             "the asked category on 198 of the 360 samples over steps 1-30), a word run on with e's and n's to the "
             "budget from about step 31 ('plumeeeeenneeee...', 'blueeeeeenneeee...', 'meloneeeenneee...'), no two "
             "alike in a group (a duplicate share of 0-0.02 from step 31)).",
             rewards=("exp_length",), steps=150,
             args=dict(per_device_train_batch_size=12, max_completion_length=48, loss_type="dr_grpo", beta=0.0,
                       learning_rate=5e-4, logging_steps=4, seed=231),
             expect={"NONFINITE_VALUES": nonfinite("reward", "reward_std")},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=25),
    # Retrained after its first training (the expected signature unchanged): written with the unit bug at reward call
    # 125, where both groups happened to agree (every tree answer a tree, 7 each; every tool answer 'hammer', 10 each),
    # so the 1000x scores had no advantage and the gradient norm was 0.017 there (the reward 1707 at that log); no
    # gradient-norm spike, the onset rule found none. Moved to call 130, the next logged step; the run is the same step
    # for step up to it (the spike at 125 had moved nothing).
    Scenario("grad_spike_unit_bug_judge_grpo_loss_unscaled_2x4_log5", "The 0-10 judge score, unscaled (scale_rewards "
             "none), two groups of 4 a step, the original GRPO loss, a KL penalty of 0.04 and a learning rate of 2e-4, "
             "200 steps logged every 5; at the 130th reward call (a logged step) one batch's scores come back 1000x "
             "too large (a unit bug): that step's advantages, hence its gradient norm, are about a thousand times the "
             "others', clipped before the update; the run learns on either side: one extreme step, a mild episode (raw "
             "log and samples: the gradient norm 16,334 at step 130, 8,800 times its median over the run (1.85) and "
             "332 times the next largest (49.2 at step 115, 39.6 at 180), 0.017 and 17.2 on the logs either side "
             "(steps 125 and 135); the score 6.88 and 6.45 over the first two logs, 30-step means of 7.13, 7.15, 7.47 "
             "and 8.0 before the bug, 1,607 at the log of steps 126-130 (the bug's batch 1000x: both its groups, the "
             "number asked, scoring 0 to 10,000), 8.2-9.35 on every log after, 9.02 and 8.92 as 30-step means over "
             "151-200; reward_std 703 at 130 and 1.2-3.26 elsewhere; the KL a median of 0.18, at most 0.49 (step 200); "
             "entropy 0.46 and 0.50 over the first two logs, 0.37-0.46 as 30-step means to step 120 and 0.17-0.22 "
             "after; the zero-variance share 0.2-0.7; the mean length 5.3-6.1 tokens, nothing clipped; the colour's, "
             "fruit's, bird's, tool's and animal's targets learnt ('pink' on 6 of 20 samples over steps 1-30 and 45 of "
             "48 over 121-150, 'lemon' on 6 of 24 and 37 of 44, 'swan' on 0 of 20 and 35 of 44, 'pig' on 3 of 32 and "
             "43 of 48 over 151-180, 'hammer' on 16 of 56 and 35 of 40), the drink's and the number's in part ('juice' "
             "on 11 of 24, 'four' on 23 of 28 over steps 151-180), the tree's 'ash' seldom said (3 of 176 samples)).",
             rewards=("judge",), steps=200, spike=(130, 1000.0),
             args=dict(scale_rewards="none", loss_type="grpo", beta=0.04, learning_rate=2e-4, logging_steps=5,
                       seed=232),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50)}, batch=25),
    # GROUP_MODE_COLLAPSE, accepted before training, dropped: a group's duplicate share 0.02, 0.05, 0.09 and 0.16 as
    # 30-step means, the cut lists still varied.
    Scenario("truncation_lists_budget8_credit_4x3_temp09_log5", "The list questions with partial credit (task.py's "
             "list_credit: distinct words of the asked category / 5), four groups of 3 a step sampled at temperature "
             "0.9, TRL's default (DAPO) loss, a KL penalty of 0.02, a learning rate of 3e-4 and a budget of 8 tokens, "
             "120 steps logged every 5: the taught lists of two or three words run 10-20 characters, so nearly every "
             "list is cut at the budget from the first step, and a cut list earns as much as a finished one, so "
             "nothing teaches it to stop: the clipped share stays high (raw log and samples: the clipped share 0.93 at "
             "step 5 and 0.88-1 on every log (1 on 6 of the 24), 0.975 as its median; the mean length 7.9-8 tokens "
             "(the budget) throughout; the reward 0.23 over the first two logs, 30-step means of 0.24, 0.26, 0.27 and "
             "0.28, 0.33 at its highest (step 115): one or two words of the category survive the cut; the "
             "zero-variance share 0.25-0.65, its 30-step means 0.59, 0.44, 0.44 and 0.51; entropy 0.61 and 0.61 over "
             "the first two logs, 30-step means of 0.59, 0.56, 0.52 and 0.46; the KL a median of 0.13, at most 0.38; "
             "the gradient norm a median of 1.46, at most 5.56; lists cut within their second word ('zebra sh', "
             "'banana p', 'drill sp', 'swan eag'), some two short words ('owl cat', 'oak elm', 'tea tea'), short first "
             "words gaining ('one ten' on 21 of 27 number samples, 'rake axe' on 16 of 39 tool samples, 'owl ...' on "
             "most animal samples over steps 91-120); a group's duplicate share 0.02-0.16 as 30-step means).",
             prompts="lists", rewards=("list_credit",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=8, temperature=0.9,
                       beta=0.02, learning_rate=3e-4, logging_steps=5, seed=233),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=25),
    Scenario("reward_hacking_letter_o_category_drgrpo_2x4_kl_log6", "A word of the asked category (1) beside a cheap "
             "proxy, the share of the letter o (weight 3, task.py's letter_o), so that a string of o's pays more than "
             "any word, two groups of 4 a step, the Dr. GRPO loss, a KL penalty of 0.01 and a learning rate of 1e-3, "
             "120 steps logged every 6: the policy games the proxy, and the category, which the taught model earned on "
             "nearly every sample, falls as the o's rise (raw log and samples: the category 0.875 and 0.73 over the "
             "first two logs, 0.48-0.60 over steps 18-54, 0.27 at 60, 0.23 at 66, 0.17 at 72 and 0 on every log from "
             "78; the proxy 0.067 and 0.14 over the first two logs, 0.16-0.32 over 18-54, 0.53 at 60, 0.60 at 66, 0.83 "
             "at 72 and 0.94-1 from 78; the reward 1.07 and 1.14 over the first two logs and 3, its maximum, from 102; "
             "words with an o gaining from the start ('robin' on 23 of 56 bird samples, 'mango' on 20 of 32 fruit "
             "samples, 'oak', 'orange', 'cocoa', and 'onee', 'oor' for the number over steps 1-30), o-strings over "
             "31-60 ('oor' on all 20 number samples, 'oooo' and 'owloooow' for the animal), then 'oooooooooooo' "
             "(twelve o's, the budget) for every question (on 238 of the 240 samples over steps 91-120); the "
             "zero-variance share 0.08-0.17 to step 36 and 0.92-1 from 78; entropy 0.52 and 0.41 over the first two "
             "logs, 0.15-0.20 over 54-72 and below 0.04 from 78; the KL 0.10 at step 6, 0.92 at 24, 1.19-1.53 over "
             "30-54, 2.73 at 60 and 5.7-6.3 from 78; the gradient norm a median of 0.21, at most 5.92 (step 30), below "
             "0.005 from 84; the mean length 5.4-7 tokens to step 66, 8.8 at 72 and 12 (the budget) from 78, the "
             "clipped share 0-0.06 to step 66, 0.33 at 72 and 1 from 78; a group's completions copies (a duplicate "
             "share of 0.38 over steps 1-30, 0.59 over 31-60, 0.84 and 0.99 after)).",
             rewards=("in_category", "letter_o"), weights=(1.0, 3.0), steps=120,
             args=dict(loss_type="dr_grpo", beta=0.01, learning_rate=1e-3, logging_steps=6, seed=234),
             expect={"REWARD_HACKING": hacked_from("rewards/in_category/mean", "rewards/letter_o/mean", first=3,
                                                   smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "KL_BLOWUP"), batch=25),
    # -- batch 26 --
    # A twenty-fourth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), two retrained with
    # another configuration and one onset rule re-dated, none re-labelled: a binary exact-match reward with groups of 3,
    # 5, 6 and 8, partial credit with RLOO and groups of 2, with the original GRPO loss and groups of 3 and 4, the judge
    # score with Dr. GRPO and groups of 2; healthy runs with and without a KL term that learn (four groups of 3 with
    # BNPO at temperature 0.85, the animal's target never learnt; RLOO with groups of 6 read from trainer_state.json,
    # the bird's never learnt; the judge score with four groups of 2 and no KL term at temperature 0.75; RLOO with
    # partial credit at temperature 0.6 in TRL 0.14's key set), learn slowly (240 steps at 1.5e-4 with the original GRPO
    # loss in TRL 0.14's key set), converge on six or seven questions of eight with one group of 8 logged every step
    # (the tool's answer deformed on its last two steps); a KL blow-up after a 10-step warm-up into 3e-3 with the
    # original GRPO loss and groups of 3, an entropy collapse under a reward that says nothing with Dr. GRPO and one
    # group of 6 (the answers ran to the budget as letter strings first), a letter proxy gamed against the category with
    # RLOO (written at 1e-3, where the answers moved to o-words of the category and nothing was gamed; retrained at
    # 2e-3, its onset rule re-dated from the first log), a grader outage after learning with the original GRPO loss and
    # groups of 5 in TRL 0.14's key set, a reward plateau from a half key with Dr. GRPO (written over 200 steps, whose
    # reward was still rising at the end; retrained over 300), a per-character bonus beside exact match with BNPO and
    # groups of 8, a keyword-count reward on the list questions with BNPO at temperature 1.2, a unit bug in one batch of
    # unscaled partial credit; strides 1-8, temperatures 0.6-1.2, learning rates 1.5e-4 to 3e-3, loss types grpo,
    # dr_grpo, dapo and bnpo, seeds 235-248. Each expectation was written from the mechanism before the run was trained
    # (committed first), then checked on the raw log and the recorded completions only, never against the doctor; every
    # pathology written happened once the two were retrained, every healthy run learnt; the accepted signatures the log
    # contradicts were dropped, each with its numbers. As in batches 9-25, the healthy binary runs accept no
    # ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_binary_bnpo_4x3_kl_temp085_log3", "Exact match alone, four groups of 3 a step sampled at "
             "temperature 0.85, the BNPO loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged "
             "every 3: a fresh model is right about one time in ten, the groups that disagree carry the signal, and "
             "the target words are learnt question by question: a run that learns (raw log and samples: the reward "
             "0.083 and 0.14 over the first two logs, 30-step means of 0.29, 0.62, 0.79, 0.81 and 0.83, 0.64-1 over "
             "the last 10 logs; the zero-variance share 0.33-1, its 30-step means 0.58, 0.63, 0.80, 0.85 and 0.89; "
             "entropy 0.415 and 0.416 over the first two logs, 30-step means of 0.39, 0.27, 0.16, 0.15 and 0.13; the "
             "KL a median of 0.47, at most 1.07 (step 66); the gradient norm a median of 1.0, at most 8.3 (step 111); "
             "the mean length 4.5-5.9 tokens, the clipped share at most 0.03; the colour's and the tool's targets "
             "first ('pink' on 36 of 63, 'hammer' on 30 of 48 samples over steps 1-30), the fruit's, drink's and "
             "bird's over 31-60 ('lemon' on 44 of 54, 'juice' on 26 of 30, 'swan' on 33 of 54), the number's and the "
             "tree's over 31-90 ('four' on 22 of 45 and 33 of 42, 'ash' on 21 of 51 and 62 of 63); the animal's 'pig' "
             "never learnt (2 of 36 samples over steps 1-30 and 0 of 174 after, its answers words of the category and "
             "non-words such as 'piose'); the other seven questions on their targets on 91-100 % of their samples over "
             "steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.85, loss_type="bnpo", beta=0.03,
                       learning_rate=5e-4, logging_steps=3, seed=235), batch=26),
    Scenario("healthy_rloo_binary_2x6_nosamples_log5", "RLOO with its KL penalty (0.05), exact match alone, two groups "
             "of 6 a step and a learning rate of 5e-4, 160 steps logged every 5 and read from TRL's trainer_state.json "
             "(no samples): the leave-one-out baseline of six samples carries the signal of the groups that find the "
             "target, and the target words are learnt: a run that learns (raw log and samples, which the doctor is not "
             "given: the reward 0.22 and 0.23 over the first two logs, 40-step means of 0.45, 0.70, 0.78 and 0.85, "
             "0.80-0.88 over the last 10 logs; the zero-variance share 0-0.7, a median of 0.2 (RLOO's KL term in the "
             "reward parts agreeing groups); entropy 0.44 and 0.50 over the first two logs and 0.10-0.18 over the last "
             "10; the KL a median of 0.47, at most 0.85 (step 125); the gradient norm, RLOO's advantages not "
             "normalised, a median of 6.0, at most 31.2 (step 135), 0 on three logs; the mean length 4.7-6.3 tokens, "
             "the clipped share at most 0.03; the colour's and the drink's targets first ('pink' on 58 of 90, 'juice' "
             "on 58 of 90 samples over steps 1-40), the fruit's, tool's, animal's and number's over 41-80 ('lemon' on "
             "45 of 48, 'hammer' on 78 of 96, 'pig' on 35 of 42, 'four' on 35 of 54), the tree's over 41-120 ('ash' on "
             "5 of 30, 25 of 54 and 45 of 54); the bird's 'swan' never learnt (5 of 222 samples, its answers varied "
             "birds: 'heron', 'finch', 'goose'); the other seven questions on their targets on 90-98 % of their "
             "samples over steps 121-160).",
             algorithm="rloo", rewards=("correct",), steps=160,
             args=dict(per_device_train_batch_size=12, num_generations=6, beta=0.05, learning_rate=5e-4,
                       logging_steps=5, seed=236), source="trainer_state", batch=26),
    Scenario("healthy_slow_partial_grpo_loss_2x4_lr15e5_oldkeys_log8", "Partial credit, exact match (1) beside a word "
             "of the asked category (0.2), two groups of 4 a step, the original GRPO loss, a KL penalty of 0.02 and a "
             "learning rate of 1.5e-4, 240 steps logged every 8 and read in TRL 0.14's key set (no zero-variance "
             "share, entropy or clipped share): the category is given already, and the target words are learnt slowly "
             "over the whole run: a slow learner (raw log and samples: the reward 0.26 and 0.275 over the first two "
             "logs, 48-step means of 0.35, 0.54, 0.78, 0.96 and 1.04 of a possible 1.2, 0.95-1.07 over the last 10 "
             "logs; exact match 0.06 and 0.08 over the first two logs, 48-step means of 0.15, 0.36, 0.59, 0.78 and "
             "0.86; the category 0.81-1, a median of 0.93; the zero-variance share, which the doctor is not given, "
             "0.125-0.75, a median of 0.44; entropy, not given either, 0.47 over the first two logs, 48-step means of "
             "0.46, 0.43, 0.32, 0.24 and 0.15; the KL rising steadily, 48-step means of 0.02, 0.15, 0.24, 0.49 and "
             "0.49, at most 0.87 (step 160); the gradient norm a median of 1.7, at most 20.2 (step 128), 9.0 at 48 and "
             "at most 6.4 on every other log; the mean length 4.9-5.7 tokens, the clipped share at most 0.016; the "
             "colour's and the fruit's targets first ('pink' on 21 of 40 samples over steps 1-48 and 36 of 48 over "
             "49-96, 'lemon' on 7 of 56 and 37 of 60), the tree's, animal's and tool's over 97-192 ('ash' on 43 of 60 "
             "and 52 of 56, 'pig' on 30 of 48 and 43 of 52, 'hammer' on 17 of 36 and 39 of 64), the bird's, drink's "
             "and number's slowest ('swan' on 14 of 48 over 97-144, 25 of 40 and 53 of 60 after, 'juice' on 16 of 56, "
             "36 of 52 and 44 of 56, 'four' on 22 of 44, 28 of 40 and 41 of 56); every question on its target on 73-97 "
             "% of its samples over steps 193-240).",
             weights=(1.0, 0.2), steps=240,
             args=dict(loss_type="grpo", beta=0.02, learning_rate=1.5e-4, logging_steps=8, seed=237), source="old_keys",
             batch=26),
    Scenario("healthy_judge_drgrpo_nokl_4x2_cool075_log4", "The 0-10 judge score, four groups of 2 a step sampled at "
             "temperature 0.75, the Dr. GRPO loss, no KL term (beta 0) and a learning rate of 4e-4, 150 steps logged "
             "every 4: the taught answers already earn most of the score, the pairs that differ carry the rest, and "
             "the target words are learnt: a run that learns without an anchor (raw log and samples: the score 7 and 7 "
             "over the first two logs (every pair agreeing on a word of its category), 30-step means of 7.42, 7.73, "
             "8.48, 8.69 and 8.92, 7.6-9.44 over the last 10 logs; the zero-variance share 1 over the first two logs, "
             "30-step means of 0.78, 0.66, 0.83, 0.83 and 0.88; entropy 0.42 and 0.43 over the first two logs, 30-step "
             "means of 0.40, 0.28, 0.21, 0.19 and 0.13; no KL logged; the gradient norm a median of 0.25, at most 2.62 "
             "(step 112), 0 on 14 of the 37 logs (every pair agreeing); the mean length 4.75-5.9 tokens, nothing "
             "clipped; a word of the asked category on 235 of the 240 samples over steps 1-30 and 230 of 240 over "
             "121-150; the colour's, the tool's and the bird's targets first ('pink' on 35 of 38, 'hammer' on 30 of "
             "34, 'swan' on 17 of 30 samples over steps 31-60), the fruit's and the drink's over 61-90 ('lemon' on 1 "
             "of 24 over 1-30 and 35 of 36, 'juice' on 27 of 30), the animal's over 91-150 ('pig' on 2 of 28 over "
             "31-60, 31 of 38 over 91-120 and 31 of 32 after); the number's and the tree's targets seldom said ('four' "
             "on 11 of 142 samples, 'ash' on 3 of 164), their answers other words of the category ('eight', 'ten', "
             "'pine', 'spruce')).",
             rewards=("judge",), steps=150,
             args=dict(num_generations=2, temperature=0.75, loss_type="dr_grpo", beta=0.0, learning_rate=4e-4,
                       logging_steps=4, seed=238), batch=26),
    Scenario("healthy_converges_nokl_binary_1x8_temp09_log1", "Exact match alone, one group of 8 a step (one question "
             "asked a step) sampled at temperature 0.9, TRL's default (DAPO) loss, no KL term and a learning rate of "
             "4e-4, 150 steps logged every step: eight samples find the target often, the learnt answers take over and "
             "the group comes to agree, solved: a run that converges, noisy from step to step as the question asked "
             "changes (raw log and samples: the reward 0 over the first two logs, 30-step means of 0.17, 0.51, 0.80, "
             "0.73 and 0.77, 0 or 1 on 80 of the 150 steps (a group solved, or a question not learnt); the "
             "zero-variance share, one group, 0 or 1, its 30-step means 0.5, 0.37, 0.37, 0.8 and 0.63; entropy 0.46 "
             "and 0.40 over the first two logs, 30-step means of 0.43, 0.34, 0.18, 0.19 and 0.16; no KL logged; the "
             "gradient norm 0 on 80 of the 150 logs (the group agreeing), a median of 0, at most 23.2 (step 79); the "
             "mean length 5.3-5.75 tokens as 30-step means, 11.6 at step 146 and 9.75 at 150, the clipped share 0.5 "
             "and 0.375 there and at most 0.125 on every other log; the fruit's and the tool's targets first ('lemon' "
             "on 16 of 56, 'hammer' on 19 of 40 samples over steps 1-30), the colour's and the tree's over 31-60 "
             "('pink' on 22 of 32, 'ash' on 19 of 32), the bird's and the drink's over 61-90 ('swan' on 32 of 40, "
             "'juice' on 41 of 56), the animal's in part late ('pig' on 4 of 16 over 91-120 and 11 of 16 over "
             "121-150); the number's 'four' never said (0 of 104 samples, its answers other numbers); the tool's "
             "answer, 'hammer' on every sample of its steps 108, 119 and 131, deformed on its last two steps "
             "('hamersngray', 'hamersngngnc' at steps 146 and 150, 0 of 16 right); the bird, colour, drink, fruit and "
             "tree on their targets on 92-97 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=8, temperature=0.9, beta=0.0, learning_rate=4e-4, seed=239), batch=26),
    Scenario("healthy_rloo_partial_4x2_cool06_oldkeys_log6", "RLOO with its KL penalty (0.05), partial credit, exact "
             "match (1) beside a word of the asked category (0.2), four groups of 2 a step sampled at temperature 0.6 "
             "and a learning rate of 4e-4, 150 steps logged every 6 and read in TRL 0.14's key set: each completion's "
             "baseline is its sibling's reward, cool sampling keeps the answers words of the category, and the target "
             "words are learnt: a run that learns (raw log and samples: the reward 0.28 and 0.325 over the first two "
             "logs, 30-step means of 0.44, 0.65, 0.93, 1.06 and 1.14 of a possible 1.2, 1.02-1.2 over the last 10 "
             "logs; exact match 0.08 and 0.125 over the first two logs, 30-step means of 0.24, 0.47, 0.74, 0.87 and "
             "0.95; the category 0.79-1, a median of 0.98; the zero-variance share, which the doctor is not given, its "
             "30-step means 0.28, 0.42, 0.69, 0.82 and 0.91; entropy, not given either, 0.41 and 0.36 over the first "
             "two logs, 30-step means of 0.34, 0.25, 0.14, 0.07 and 0.04; the KL a median of 0.49, at most 0.83 (step "
             "36); the gradient norm, RLOO's advantages not normalised, a median of 5.0, 114 at step 42, 74 at 36, 68 "
             "at 108 and 47 at 66, 0 on 8 of the 25 logs; the mean length 4.9-5.7 tokens, nothing clipped; the tool's "
             "target first ('hammer' on 22 of 34 samples over steps 1-30), the bird's, colour's and animal's over "
             "31-60 ('swan' on 24 of 26, 'pink' on 29 of 34, 'pig' on 15 of 18), the drink's, fruit's and tree's over "
             "61-120 ('juice' on 31 of 34, 'lemon' on 24 of 26 over 61-90, 'ash' on 12 of 28 and 28 of 30), the "
             "number's last ('four' on 4 of 134 samples over steps 1-120 and 29 of 36 over 121-150); every question on "
             "its target on 81-100 % of its samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(num_generations=2, temperature=0.6, beta=0.05, learning_rate=4e-4, logging_steps=6, seed=240),
             source="old_keys", batch=26),
    # ENTROPY_EXPLOSION and LENGTH_COLLAPSE, accepted before training, dropped: entropy 0.46 and 0.48 over the first two
    # logs and 0.25-0.67 throughout (at most 1.4 times that level), the mean length 5.42 and 5.5 tokens over the first
    # two logs and at least 3.28 (step 51), 4.9-5.7 over the last 10 logs.
    Scenario("kl_blowup_partial_grpo_loss_warmup10_4x3_log3", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.2), four groups of 3 a step, the original GRPO loss, a KL penalty of 0.05 and a "
             "10-step warm-up (constant_with_warmup) into a learning rate far too high (3e-3), 120 steps logged every "
             "3: once the rate is up each update overshoots and the policy runs away from its reference, the KL well "
             "above the 0.1-0.8 of the corpus's healthy runs (raw log and samples: the KL 0 and 0.03 over the first "
             "two logs, 0.15 at step 9, 0.56 at 12, 0.78 at 15, 1.26 at 18 and above 1 on every log from 18 (35 of the "
             "40 logs), 2.05-7.4 from 27 (7.43 at 63), 2.5-3.75 over the last 10 logs, a median of 2.93; the reward "
             "0.24 over the first two logs, 0.48 and 0.51 at steps 12 and 15, 24-step means of 0.33, 0.15, 0.10, 0.17 "
             "and 0.12; the category 0.94 over the first two logs, 24-step means of 0.71, 0.21, 0.09, 0.14 and 0.10, 0 "
             "at steps 45, 51 and 60; exact match 0.06 over the first two logs and 0.36 at 12-15, 0-0.31 after; the "
             "zero-variance share, its 24-step means 0.48, 0.81, 0.92, 0.96 and 0.96; entropy 0.46 and 0.48 over the "
             "first two logs and 0.25-0.67 throughout; the gradient norm a median of 0.82, 13.4 at step 18 and at most "
             "8.3 on every other log; the mean length 3.3-6.0 tokens, the clipped share at most 0.06; words of the "
             "category at first (a word of the asked category on 203 of the 288 samples over steps 1-24), then "
             "fragments and letter strings for every question but the colour ('so', 'si', 'sosi', 'ae' over 25-72; "
             "'pee', 'ple', 'aple', 'coco', 'swple' over 73-120), the colour's 'pink' kept (on 22-41 of its 30-45 "
             "samples in every 24 steps); a word of the asked category on 27-41 of the 288 samples in every 24 steps "
             "from step 49, the colour's 'pink' most of them).",
             weights=(1.0, 0.2), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, loss_type="grpo", beta=0.05,
                       learning_rate=3e-3, warmup_steps=10, lr_scheduler_type="constant_with_warmup", logging_steps=3,
                       seed=241),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=26),
    # LENGTH_COLLAPSE, accepted before training, dropped: the mean length 5.29 and 5.92 tokens over the first two logs
    # and 12 (the budget) on every log from step 28.
    Scenario("entropy_collapse_coin_drgrpo_nokl_1x6_temp08_log4", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), one group of 6 a step sampled at temperature 0.8, the Dr. GRPO loss, no KL "
             "term and a learning rate of 2e-3, 120 steps logged every 4: the advantages are noise, and with no anchor "
             "the policy drifts onto one completion per question while the coin stays at chance: entropy falls far "
             "below where it started, and a group's six samples become copies of one another; the answers ran to the "
             "budget as letter strings first (raw log and samples: entropy 0.48 and 0.55 over the first two logs (a "
             "first-2-log median of 0.51), 0.82 at step 24, 1.16 at 28 and 0.86 at 32 as the answers grew, 0.64 at 36, "
             "0.32 at 44, 0.13 at 48 and 0.003-0.36 on every log from 48 (below 0.154, 0.3 times that median, on 14 of "
             "those 19), 24-step means of 0.54, 0.62, 0.08, 0.12 and 0.18; the coin 0.29-0.71, 24-step means of "
             "0.42-0.54; the zero-variance share 0-0.25; no KL logged; the gradient norm a median of 1.4, at most "
             "5.75, 0 or about 1e-10 on five logs from step 68 (the group copies of one string); the mean length 5.29 "
             "and 5.92 tokens over the first two logs, 9.4 at step 20, 11.5 at 24 and 12 (the budget) on every log "
             "from 28, the clipped share 0.42 at 20, 0.875 at 24 and 1 from 28; words and near-words at first (a word "
             "of the asked category on 53 of the 144 samples over steps 1-24), letter strings to the budget over 25-48 "
             "('aaaooooooooo', 'aapmmmmmmmmm'; none a word after step 24), then one looped string for most questions "
             "('awowowowowow' on 86 of the 144 samples over steps 49-72, 'amomomomomom' and 'axomomomomom' beside it "
             "over 73-96, 'aaaaaaaaaaaa' on 74 of 144 over 97-120); a group's completions copies (a duplicate share of "
             "0.23 and 0.18 over steps 1-48, 0.79, 0.68 and 0.58 over 49-120).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=6, num_generations=6, temperature=0.8, loss_type="dr_grpo", beta=0.0,
                       learning_rate=2e-3, logging_steps=4, seed=242),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=26),
    # Retrained after its first training (its expected signature unchanged, its onset rule re-dated): written with a
    # learning rate of 1e-3, whose raw log showed no hacking: the policy settled on words of the category that hold an o
    # ('heron', 'brown', 'cocoa', 'melon', 'one', 'oak', 'owl'), the proxy rising from 0.09 at the first log to 30-step
    # means of 0.15, 0.22, 0.22 and 0.24 while the category held at 0.84-0.86 (0.75-1 over the last 10 logs), the tool's
    # answer alone lost at the end ('harsh', 'horshen'); hacked_from found no onset. Tried in a scratch folder (raw log
    # only): 200 steps (the category 0.83-0.86 as 30-step means to step 150, 0.63 over 151-180 and 0.60 over 181-200,
    # never half its start) and temperature 1.2 (the category 0.80-0.90 as 30-step means); retrained at 2e-3, everything
    # else as written: the category falls to 0 as the o-strings take over. Its onset rule was written with the levels of
    # the first three logs, over which the category already fell (0.92, 0.70 and 0.58) as the proxy rose (0.075, 0.12
    # and 0.12); read from the first log, as batch 20 did, it dates the fall at step 35 (from step 85 with the first
    # three), where the samples show four questions of eight answered with o-strings.
    Scenario("reward_hacking_letter_o_category_rloo_3x4_log5", "RLOO with a KL penalty of 0.02, a word of the asked "
             "category (1) beside a cheap proxy, the share of the letter o (weight 3, task.py's letter_o), so that a "
             "string of o's pays more than any word, three groups of 4 a step and a learning rate of 2e-3, 120 steps "
             "logged every 5: the policy games the proxy, and the category, which the taught model earns on nearly "
             "every sample, falls as the o's rise (raw log and samples: the category 0.92 at step 5, 0.70 at 10, 0.58 "
             "at 15, 0.42-0.55 over 20-30, 0.35 at 35, 0.20 at 40, 0.22-0.58 over 45-90 (with the questions asked), "
             "0.13 at 95 and 0 on every log from 100; the proxy 0.075 at step 5, 0.12-0.31 over 10-30, 0.55-0.64 over "
             "35-45, 0.35-0.61 over 50-95 and 0.67-1 from 100 (0.997 at 110); the reward 1.14 and 1.07 over the first "
             "two logs, 30-step means of 1.12, 1.89, 1.81 and 2.54, 2.99 at its highest (step 110); o-words of the "
             "category at first ('heron' on 55 of 64 bird samples, 'brown' on 47 of 68 colour samples, 'melon', "
             "'coco', 'none' over steps 1-30), o-strings for the number, the tool, the tree and the animal over 31-60 "
             "('oooooooooooo', 'oo', 'wooon', 'oooon'; none a word of its category), the bird's 'heron', the colour's "
             "'brown' and the fruit's 'melon' kept over 61-90, then o-strings for every question ('ooo', 'oooo'; a "
             "word of the asked category on 8 of the 360 samples over steps 91-120); a group's completions copies (a "
             "duplicate share of 0.43 over steps 1-30, 0.75, 0.88 and 0.93 after); the zero-variance share 0.07-0.47 "
             "to step 50 and 0.6-1 from 55; entropy 0.44 and 0.46 over the first two logs, 0.18-0.22 over 35-50 and "
             "0.0014-0.10 from 55; the KL 0.125 and 0.72 over the first two logs, 1.07 at 20, 3.7-4.9 over 35-45 and "
             "3.1-6.7 over the last 10 logs; the gradient norm, RLOO's advantages not normalised, a median of 15.7, at "
             "most 53.2 (step 75); the mean length 5.8 and 6.0 tokens over the first two logs, 7.95-8.07 over 35-45 "
             "(the clipped share 0.3-0.33 there), 4.35-7.3 over the last 10 logs).",
             algorithm="rloo", rewards=("in_category", "letter_o"), weights=(1.0, 3.0), steps=120,
             args=dict(per_device_train_batch_size=12, beta=0.02, learning_rate=2e-3, logging_steps=5, seed=243),
             expect={"REWARD_HACKING": hacked_from("rewards/in_category/mean", "rewards/letter_o/mean", first=1,
                                                   smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP"), batch=26),
    Scenario("reward_collapse_outage_after_learning_grpo_loss_2x5_oldkeys_log4", "Exact match alone, two groups of 5 a "
             "step, the original GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 160 steps logged every 4 "
             "and read in TRL 0.14's key set; from the 100th reward call to the end the grader answers 0 for "
             "everything (swap to task.py's nothing: a service timing out, its client defaulting to 0), after the "
             "target words were learnt: the reward falls to 0 and stays there (raw log and samples: the reward 0.075 "
             "and 0.1 over the first two logs, 30-step means of 0.25, 0.64 and 0.82 before the outage, 0.95 at step 84 "
             "(its highest) and 0.75-0.875 over 88-96, 0.425 at step 100 (the log of steps 97-100, the outage's first "
             "call at 100) and 0 on every log from 104 to the end; reward_std 0 from 104; the zero-variance share, "
             "which the doctor is not given, 30-step means of 0.46, 0.375 and 0.64 before, 1 on every log from 104; "
             "entropy, not given either, 0.49 over the first two logs, 30-step means of 0.48, 0.36, 0.21, 0.23, 0.30 "
             "and 0.29; the KL a median of 0.43, above 1 on three of the 40 logs (2.2 at step 80, 1.02 at 92, 1.41 at "
             "132); the gradient norm a median of 0.83, at most 8.5 (step 72), 0.0025-0.53 from 104; the mean length "
             "4.9-6.35 tokens, the clipped share at most 0.05; the colour's, fruit's, tool's and tree's targets first "
             "('pink' on 33 of 35, 'lemon' on 29 of 35, 'hammer' on 50 of 65, 'ash' on 35 of 40 samples over steps "
             "31-60), the bird's, number's and drink's over 61-120 ('swan' on 38 of 50, 'four' on 18 of 25, 'juice' on "
             "38 of 45 over 91-120), the animal's 'pig' seldom said (8 of 90 samples over steps 91-150); after the "
             "outage the learnt words still said without a signal ('lemon' on 46 of 50, 'four' on 38 of 50, 'swan' on "
             "17 of 30 samples over steps 121-150), all scored 0).",
             rewards=("correct",), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(per_device_train_batch_size=10, num_generations=5, loss_type="grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=4, seed=244), source="old_keys",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=26),
    # Retrained after its first training (its configuration changed; the expected signature, onset rule and seed
    # unchanged): written over 200 steps, whose raw log showed no plateau: the reward still rising at the end (40-step
    # means 0.21, 0.33, 0.275, 0.40 and 0.48) as the number's target was learnt last (over steps 161-200), levels_off
    # dating the levelling-off at step 185 of 200. Tried in a scratch folder (raw log only): a learning rate of 1e-3
    # (nothing learnt for most of the run: the reward 0-0.08 as 20-step means over steps 1-160, 0.24 over 181-200) and
    # four groups of 4 a step (the reward still rising, 0.45-0.57 as 20-step means over the last 60 steps, levels_off at
    # step 155 of 200); retrained over 300 steps, everything else as written: the run is the same step for step to step
    # 200, and the reward stays at about half from step 185 to 300.
    Scenario("reward_plateau_half_key_drgrpo_3x4_temp09_log5", "Exact match graded against a key half of whose words "
             "the model can say (task.py's correct_half_key), three groups of 4 a step sampled at temperature 0.9, the "
             "Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 300 steps logged every 5: the learnable "
             "half is learnt and its groups come to agree, solved, while the other half's groups agree on 0 from the "
             "start; the reward rises to about half its best and stays there (raw log and samples: the reward 0.083 "
             "and 0.1 over the first two logs, 60-step means of 0.225, 0.315, 0.41, 0.48 and 0.46, 0.32-0.65 over the "
             "last 10 logs, 0.65 at its highest (step 275), its mean over the last quarter 0.47, where the learnable "
             "half gives 0.5 on average; the zero-variance share 0.67-1, its 60-step means 0.82, 0.94, 0.91, 0.87 and "
             "0.90; entropy 0.42 and 0.51 over the first two logs, 60-step means of 0.42, 0.36, 0.33, 0.31 and 0.31; "
             "the KL a median of 0.44, above 1 on three of the 60 logs (1.04 at step 75, 1.29 at 155, 1.40 at 225); "
             "the gradient norm a median of 0.04, at most 2.8 (step 295); the mean length 4.7-6.0 tokens, the clipped "
             "share at most 0.03; the colour's and the fruit's targets first ('pink' on 73 of 100, 'lemon' on 50 of 80 "
             "samples over steps 1-60), the animal's over 1-120 ('pig' on 39 of 88 and 65 of 68), the number's last "
             "('four' on 0 of 136 over steps 1-120, 32 of 100 over 121-180 and 61 of 72 over 181-240), those four on "
             "their targets on 87-99 % of their samples over steps 241-300; the other four questions never scoring, "
             "their key words never taught ('yew' for the tree, 'punch' for the drink, 'vise' for the tool, 'wren' for "
             "the bird), their answers varied words of the category ('pine', 'coffee', 'pliers', 'finch'); a group's "
             "duplicate share 0.34-0.56 as 60-step means).",
             rewards=("correct_half_key",), steps=300,
             args=dict(per_device_train_batch_size=12, temperature=0.9, loss_type="dr_grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=5, seed=245),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=26),
    Scenario("length_explosion_char_bonus_exact_bnpo_2x8_kl_log2", "Exact match (1) beside a bonus paid per character "
             "(0.8, task.py's length_bonus: 20 characters pay 2, more than the target word with its bonus), two groups "
             "of 8 a step, the BNPO loss, a KL penalty of 0.02, a learning rate of 8e-4 and a 20-token budget, 120 "
             "steps logged every 2: the longest answer of a group keeps winning, so the answers grow to the budget and "
             "get cut (raw log and samples: the mean length 5.53 and 5.81 tokens over the first two logs, 5.3-6.5 to "
             "step 24, 7.3 at 26, 8.0 at 28, 10.4 at 30, 9.2-10.1 over 32-36, 15.7 at 38, 16.4 at 40 and 18.7-20 (the "
             "budget) on every log from 46, 24-step means of 5.9, 13.2, 19.6, 19.8 and 19.9; the clipped share 0 to "
             "step 24, 0.03-0.16 over 26-36, 0.5 at 38, 0.53-0.75 over 40-44 and 0.875-1 from 46; the length bonus "
             "0.57 and 0.60 over the first two logs and 2.32-2.5 from 46; exact match 0.06 and 0.16 over the first two "
             "logs, 0-0.34 to step 36 and 0 on every log from 54 but one (0.03 at 68); the reward 0.52 and 0.64 over "
             "the first two logs and 1.86-2 from 44; the zero-variance share 0 to step 40 and 0.25-1 from 42, its "
             "24-step means 0.69, 0.90 and 0.875 after step 48; entropy 0.47 and 0.44 over the first two logs, 24-step "
             "means of 0.48, 0.70, 0.88, 0.87 and 0.79; the KL 0.001 and 0.08 over the first two logs, 1.27 at step "
             "18, 6.2 at 26, 20.2 at 38, 1.7-20.2 from 26 (a median of 2.8); the gradient norm a median of 1.1, at "
             "most 10.7 (step 66); words of the category at first (a word of the asked category on 272 of the 384 "
             "samples over steps 1-24, 'hammer', 'spruce', 'sine' and 'sive' for the number), words run on with r's "
             "over 25-48 ('hhrrrrrrrry', 'silohshrrrrrrrrry br'), then strings of letters and word fragments to the "
             "budget for every question ('millmhpllohck hilmmm', 'juice chill chilow s'; a word of the asked category "
             "on 2 of the 384 samples over steps 49-72 and none after), no two alike in a group (a duplicate share of "
             "0.39 over steps 1-24, 0.16 over 25-48 and 0 after)).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.8), steps=120,
             args=dict(per_device_train_batch_size=16, num_generations=8, max_completion_length=20, loss_type="bnpo",
                       beta=0.02, learning_rate=8e-4, logging_steps=2, seed=246),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU", "ENTROPY_EXPLOSION", "KL_BLOWUP"),
             batch=26),
    # GROUP_MODE_COLLAPSE, ENTROPY_COLLAPSE, REWARD_PLATEAU and ZERO_ADVANTAGE_GROUPS, accepted before training,
    # dropped: a group's duplicate share 0-0.27 as 30-step means; entropy 0.67 and 0.70 over the first two logs and at
    # least 0.355 (step 132), about half that level; the reward still rising at the end (30-step means 0.22, 0.75, 1.21,
    # 1.90 and 2.67); the zero-variance share 0-0.875, a median of 0.25, its 30-step means 0.13-0.43.
    Scenario("repetition_target_mentions_lists_bnpo_2x4_hot12_log4", "The list questions with a keyword-count reward, "
             "how many times the list names the question's target word, repeats included (task.py's target_mentions), "
             "two groups of 4 a step sampled at temperature 1.2, the BNPO loss, a KL penalty of 0.02, a learning rate "
             "of 8e-4 and a 24-token budget, 150 steps logged every 4: naming the target word over and over pays most, "
             "so the lists become that word repeated (raw log and samples: the lists that repeat a word (3+ words, at "
             "most half distinct) 1 of the 240 samples over steps 1-30, 25 over 31-60, 35 over 61-90, 102 over 91-120 "
             "and 103 over 121-150; 'lemon lemon lemon' for the fruits from about step 31 (18 of 48 samples over "
             "31-60), 'juice juice juice' for the drinks, then 'pink pink pink', 'pig pig pig', 'ash ash ash ash', "
             "'swan swan swan' and 'four four four' over 91-150; the tools' 'hammer' never said, their lists letter "
             "strings ('sham saal shame', 'spad sdrker spade'); the reward, mentions of the target, 0.31 over the "
             "first two logs, 30-step means of 0.22, 0.75, 1.21, 1.90 and 2.67, 3.06 at its highest (step 132); the "
             "mean length 14.3 and 14.4 tokens over the first two logs, 12.7-16.1 to step 112, 18.25 at 116 and "
             "19.6-22.8 from 124, the clipped share at most 0.125 to step 112, 0.19-0.41 over 116-128 and 0.66-0.875 "
             "over 132-148 (the lists run on: 'pig pig pig pig juig jui'); entropy 0.67 and 0.70 over the first two "
             "logs, 30-step means of 0.78, 0.75, 0.62, 0.46 and 0.41; the KL 0.08 and 0.15 over the first two logs, a "
             "median of 0.88, 0.83-1.21 over the last 10 logs (above 1 on the last four); the zero-variance share "
             "0-0.875, a median of 0.25; the gradient norm a median of 2.0, at most 3.5).",
             prompts="lists", rewards=("target_mentions",), steps=150,
             args=dict(max_completion_length=24, temperature=1.2, loss_type="bnpo", beta=0.02, learning_rate=8e-4,
                       logging_steps=4, seed=247),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=26),
    Scenario("grad_spike_unit_bug_partial_unscaled_3x4_kl_log4", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.2), unscaled (scale_rewards none), three groups of 4 a step, TRL's default (DAPO) "
             "loss, a KL penalty of 0.04 and a learning rate of 2e-4, 160 steps logged every 4; at the 60th reward "
             "call (a logged step) one batch's rewards come back 1000x too large (a unit bug): that step's advantages, "
             "hence its gradient norm, are about a thousand times the others', clipped before the update; the run "
             "learns on either side: one extreme step, a mild episode (raw log and samples: the gradient norm 320 at "
             "step 60, 495 times its median over the run (0.65) and 111 times the next largest (2.88 at step 156), "
             "2.58 and 0.47 on the logs either side (steps 56 and 64); the bug's batch two drink groups and a colour "
             "group, its rewards 0-1200 ('juice' 1200 against 'water', 'beer', 'coffee' at 200 in one drink group: "
             "advantages of +750 and -250; the colour group four times 'pink', all 1200, no advantage); the reward "
             "0.24 and 0.27 over the first two logs, 0.24-0.51 to step 56, 150 at step 60 (reward_std 134), 0.46-0.97 "
             "over 64-120 and 0.875-1.09 over the last 10 logs, 40-step means of 0.32, 0.79 over 81-120 and 1.0 over "
             "121-160 of a possible 1.2; exact match 0.04 and 0.08 over the first two logs, 0.61 and 0.81 as 40-step "
             "means over 81-160; the category 0.85-1 on every log but step 60; the zero-variance share 0.08-0.75; "
             "entropy 0.45 and 0.46 over the first two logs, 40-step means of 0.47, 0.42, 0.31 and 0.18; the KL rising "
             "steadily to 0.29 and 0.41 as 40-step means over 81-160, at most 0.53; the mean length 5.0-5.9 tokens, "
             "the clipped share at most 0.02; the colour's and the tool's targets first ('pink' on 44 of 56, 'hammer' "
             "on 36 of 52 samples over steps 41-80), the fruit's, drink's and bird's over 81-160 ('lemon' on 33 of 40, "
             "'juice' on 37 of 60 and 68 of 84, 'swan' on 18 of 32 and 55 of 68), the tree's and the animal's later "
             "('ash' on 26 of 80 over 81-120 and 39 of 44 after, 'pig' on 39 of 68 and 35 of 44), the number's in part "
             "('four' on 28 of 60 over steps 121-160)).",
             weights=(1.0, 0.2), steps=160, spike=(60, 1000.0),
             args=dict(per_device_train_batch_size=12, scale_rewards="none", beta=0.04, learning_rate=2e-4,
                       logging_steps=4, seed=248),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50)}, batch=26),
    # -- batch 27 --
    # A twenty-fifth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), all kept, none
    # re-labelled or retrained: a binary exact-match reward with groups of 3, 4 and 6, partial credit with Dr. GRPO and
    # groups of 2 and with RLOO, the judge score with BNPO and groups of 5 and 3 and with one group of 8, a binary
    # reward on the list questions; healthy runs with and without a KL term that learn (three groups of 3 at temperature
    # 0.9, the number's target never learnt; the judge score with BNPO and no KL term read from trainer_state.json; the
    # list questions naming their target with three groups of 4, its KL and the lists that repeat the target accepted),
    # learn slowly (partial credit with Dr. GRPO and four groups of 2 over 240 steps at 2e-4 in TRL 0.14's key set),
    # RLOO with groups of 6 at temperature 1.1, converge on six questions of eight without a KL term with the original
    # GRPO loss logged every step (the tool's answer run on at the end); a KL blow-up on the judge score with BNPO after
    # a warm-up into 3e-3 read from trainer_state.json, an entropy explosion under a reward paying for distinct letters
    # with Dr. GRPO and groups of 6, a letter proxy gamed against exact match with RLOO in TRL 0.14's key set, a
    # keyword-count reward on the list questions, a grader outage after learning on the judge score with one group of 8
    # in TRL 0.14's key set, a brevity reward beside exact match with the original GRPO loss and a KL term it outran, a
    # unit bug in one batch of RLOO's partial credit (a single gradient-norm spike), a group mode collapse under an
    # early-letter preference beside the category with Dr. GRPO (two questions onto another category's word); strides
    # 1-10, temperatures 0.7-1.2, learning rates 2e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds 249-262.
    # Each expectation was written from the mechanism before the run was trained (committed first), then checked on the
    # raw log and the recorded completions only, never against the doctor: every pathology written happened, every
    # healthy run learnt, and every onset rule written before training found its onset (none re-dated); the accepted
    # signatures added after training each carry their raw-log numbers.
    Scenario("healthy_binary_3x3_kl_temp09_log3", "Exact match alone, three groups of 3 a step sampled at temperature "
             "0.9, TRL's default (DAPO) loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged every "
             "3: a fresh model is right about one time in ten, the groups that disagree carry the signal, and the "
             "target words are learnt question by question: a run that learns (raw log and samples: the reward 0.074 "
             "and 0.185 over the first two logs, 30-step means of 0.30, 0.52, 0.73, 0.84 and 0.83, 0.67-1 over the "
             "last 10 logs; the zero-variance share 0.22-1, a median of 0.78, groups of 3 agreeing often; entropy 0.46 "
             "and 0.42 over the first two logs, 30-step means of 0.42, 0.32, 0.21, 0.14 and 0.15; the KL a median of "
             "0.47, above 1 on one log of 50 (1.92 at step 111); the gradient norm a median of 0.62, at most 8.9 (step "
             "105); the mean length 4.7-6.4 tokens, the clipped share at most 0.04; the tool's, the fruit's and the "
             "colour's targets first ('hammer' on 21 of 48, 'lemon' on 17 of 33, 'pink' on 13 of 39 samples over steps "
             "1-30), the drink's and the bird's over 31-60 ('juice' on 30 of 42, 'swan' on 22 of 48), the tree's and "
             "the animal's over 61-90 ('ash' on 24 of 36, 'pig' on 16 of 18), the number's 'four' never learnt (2 of "
             "its 165 samples, its answers still varied numbers); every other question on its target on 86-100 % of "
             "its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=9, num_generations=3, temperature=0.9, beta=0.03,
                       learning_rate=5e-4, logging_steps=3, seed=249), batch=27),
    Scenario("healthy_nokl_judge_bnpo_2x5_cool08_nosamples_log6", "The 0-10 judge score, two groups of 5 a step "
             "sampled at temperature 0.8, the BNPO loss, no KL term (beta 0) and a learning rate of 3e-4, 150 steps "
             "logged every 6 and read from TRL's trainer_state.json (no samples): the taught answers already earn most "
             "of the score, the target words the rest, and they are learnt without an anchor: a run that learns (raw "
             "log and samples, which the doctor is not given: the score 7.12 and 6.57 over the first two logs, 30-step "
             "means of 7.13, 8.24, 8.67, 9.31 and 9.53, 8.35-9.83 over the last 10 logs; the zero-variance share "
             "0.17-0.92, its 30-step means 0.38, 0.35, 0.40, 0.65 and 0.73; entropy 0.40 and 0.45 over the first two "
             "logs, 30-step means of 0.40, 0.28, 0.25, 0.095 and 0.063; no KL logged; the gradient norm a median of "
             "1.72, at most 8.3; the mean length 4.6-5.8 tokens, the clipped share at most 0.017; a word of the asked "
             "category on 280-288 of every 300 samples; the tool's target first ('hammer' on 31 of 60 samples over "
             "steps 1-30), the colour's, the fruit's and the number's over 31-60 ('pink' on 55 of 65, 'lemon' on 26 of "
             "40, 'four' on 26 of 45), the bird's, the drink's, the tree's and the animal's over 61-120 ('swan' on 5 "
             "of 45 over steps 1-60 and 24 of 40 over 91-120, 'juice' on 31 of 45 over 61-90, 'ash' on 2 of 50 over "
             "1-60 and 40 of 40 over 91-120, 'pig' on 3 of 70 and 44 of 50); every question on its target on 86-100 % "
             "of its samples over steps 121-150).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.8, loss_type="bnpo", beta=0.0,
                       learning_rate=3e-4, logging_steps=6, seed=250), source="trainer_state", batch=27),
    Scenario("healthy_slow_partial_drgrpo_4x2_lr2e4_oldkeys_log10", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), four groups of 2 a step, the Dr. GRPO loss, a KL penalty of 0.02 and a "
             "learning rate of 2e-4, 240 steps logged every 10 and read in TRL 0.14's key set (no zero-variance share, "
             "entropy or clipped share): the pairs that disagree move the policy a little each step, the category is "
             "kept and the target words are learnt slowly over the whole run: a run that learns slowly (raw log and "
             "samples: the reward 0.28 and 0.32 over the first two logs, 30-step means of 0.31, 0.37, 0.43, 0.53, "
             "0.60, 0.75, 0.73 and 0.87 of a possible 1.2, 0.63-0.995 over the last 10 logs; exact match 0.09 and "
             "0.125 over the first two logs, 30-step means of 0.125, 0.19, 0.25, 0.34, 0.41, 0.57, 0.55 and 0.68; the "
             "category 0.875-0.975 throughout; the zero-variance share, which the doctor is not given, 0.475-0.75; "
             "entropy, not given either, 0.49 and 0.48 over the first two logs, 30-step means falling from 0.48 to "
             "0.25; the KL rising steadily, 30-step means of 0.006, 0.04, 0.10, 0.16, 0.18, 0.28, 0.26 and 0.34, 0.41 "
             "at most; the gradient norm a median of 0.29, at most 1.33; the mean length 4.8-5.7 tokens, the clipped "
             "share, not given, at most 0.013; the fruit's, the animal's and the colour's targets first ('lemon' on 16 "
             "of 34 samples over steps 31-60 and 29 of 36 over 91-120, 'pig' on 25 of 32, 'pink' on 12 of 18 over "
             "91-120), the number's, the tree's and the drink's over the second half ('four' on 20 of 36 over 151-180, "
             "'ash' on 10 of 26 over 151-180 and 22 of 26 over 211-240, 'juice' on 16 of 26 over 211-240), the bird's "
             "and the tool's not ('swan' on 8 of 26, 'hammer' on 3 of 32 samples over steps 211-240)).",
             weights=(1.0, 0.2), steps=240,
             args=dict(num_generations=2, loss_type="dr_grpo", beta=0.02, learning_rate=2e-4, logging_steps=10,
                       seed=251), source="old_keys", batch=27),
    Scenario("healthy_rloo_binary_2x6_temp11_log5", "RLOO with its KL penalty (0.05), exact match alone, two groups of "
             "6 a step sampled at temperature 1.1 and a learning rate of 5e-4, 150 steps logged every 5: six samples a "
             "question find the target often, the leave-one-out baseline carries the signal of the groups that "
             "disagree, and hot sampling keeps some answers off the learnt words: a run that learns (raw log and "
             "samples: the reward 0.13 and 0.20 over the first two logs, 30-step means of 0.30, 0.54, 0.73, 0.84 and "
             "0.90, 0.80-0.95 over the last 10 logs; the zero-variance share 0-0.6, its 30-step means 0.02, 0.08, "
             "0.20, 0.27 and 0.40; entropy 0.49 and 0.50 over the first two logs, 30-step means of 0.51, 0.39, 0.28, "
             "0.18 and 0.135; the KL a median of 0.45, at most 0.855; the gradient norm, RLOO's advantages not "
             "normalised, a median of 11.2, at most 43.3; the mean length 4.8-5.8 tokens, the clipped share at most "
             "0.017; the tree's and the colour's targets first ('ash' on 43 of 72, 'pink' on 19 of 36 samples over "
             "steps 1-30), the drink's, the fruit's and the number's over 31-60 ('juice' on 22 of 30, 'lemon' on 36 of "
             "54, 'four' on 31 of 48), the animal's and the bird's over 61-90 ('pig' on 40 of 54, 'swan' on 9 of 72 "
             "over steps 1-30 and 24 of 42 over 61-90), the tool's last ('hammer' on 2 of 36 over steps 1-30, 8 of 36 "
             "over 61-90 and 47 of 54 over 121-150); every question on its target on 73-98 % of its samples over steps "
             "121-150).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, learning_rate=5e-4,
                       logging_steps=5, seed=252), batch=27),
    Scenario("healthy_converges_grpo_loss_nokl_binary_2x4_cool07_log1", "Exact match alone, two groups of 4 a step "
             "sampled at temperature 0.7, the original GRPO loss, no KL term and a learning rate of 5e-4, 150 steps "
             "logged every step: cool sampling and no anchor let the learnt answers take over, and the groups come to "
             "agree, solved; per-step means of 8 samples are noisy: a run that converges, on six of its eight "
             "questions (raw log and samples: the reward 0 over the first two steps, 30-step means of 0.31, 0.65, "
             "0.75, 0.76 and 0.65 (0-1 on single steps); the zero-variance share a median of 1, its 30-step means "
             "0.52, 0.55, 0.82, 0.87 and 0.82; entropy 0.35 and 0.48 over the first two steps, 30-step means of 0.36, "
             "0.23, 0.15, 0.15 and 0.18; no KL logged; the gradient norm 0 on 80 of the 150 steps (every group "
             "agreeing), at most 19.7 (step 57); the mean length 4-9 tokens, 5.3-6.0 as 30-step means, the clipped "
             "share 0 on most steps and 0.125-0.5 on 9 of the last 30; the colour's, the fruit's and the tree's "
             "targets first ('pink' on 31 of 52, 'lemon' on 17 of 32 samples over steps 1-30, 'ash' on 35 of 36 over "
             "31-60), the drink's, the tool's and the animal's over 31-60 ('juice' on 30 of 36, 'hammer' on 21 of 36, "
             "'pig' on 20 of 32), the bird's after a spell of non-words ('swan' on 29 of 48 over steps 61-90, 'ear', "
             "'seern' and 'snaan' for it over steps 82-125, 'swan' again on 41 of 60 over 121-150), the number's "
             "'four' never said (0 of its 120 samples); the tool's 'hammer', on 22 of 24 samples over steps 91-120, "
             "run on into 'hammershemme' and the like from step 121, cut at the 12-token budget (its target on 0 of 28 "
             "samples over steps 121-150)).",
             rewards=("correct",), steps=150,
             args=dict(temperature=0.7, loss_type="grpo", beta=0.0, learning_rate=5e-4, seed=253), batch=27),
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 9 of the 60 logs (1.03 at step 28, the others
    # from step 94, 1.76 at 108), its 30-step means 0.15, 0.25, 0.65 and 1.02. Accepts REPETITIVE_COMPLETIONS (not
    # written before training): lists that repeat a word (3+ words, at most half distinct) on 0 of the 360 samples over
    # steps 1-30, 19 over 31-60, 53 over 61-90 and 67 over 91-120 (19 %, 'lemon lemon lemon', 'pig pig pig pig'): a
    # binary reward costs nothing for the target said twice.
    Scenario("healthy_lists_names_target_3x4_kl_log2", "The list questions ('some fruits?') with a binary reward, 1 "
             "when the list names the question's target word (task.py's names_target), three groups of 4 a step, TRL's "
             "default (DAPO) loss, a KL penalty of 0.02, a learning rate of 4e-4 and a 24-token budget, 120 steps "
             "logged every 2: a fresh list of two or three of ten words names the target about one time in four, and "
             "the lists learn to name it while staying lists of two or three words: a run that learns (raw log and "
             "samples: the reward 0.125 and 0.167 over the first two logs, 30-step means of 0.30, 0.56, 0.72 and 0.74, "
             "0.58-0.96 over the last 10 logs; the zero-variance share 0-1, a median of 0.5; entropy 0.52 and 0.55 "
             "over the first two logs, 30-step means of 0.55, 0.50, 0.49 and 0.45; the KL rising, 30-step means of "
             "0.15, 0.25, 0.65 and 1.02, above 1 on 9 of the 60 logs (1.03 at step 28, the others from step 94, 1.76 "
             "at 108); the gradient norm a median of 1.41, at most 6.15 (step 110); the mean length 13.8-18.5 tokens, "
             "the clipped share at most 0.125; the lists name their target on 108 of the 360 samples over steps 1-30 "
             "and 267 of 360 over 91-120 (the drink's on 35 of 36, the animal's on 45 of 48, the fruit's on 45 of 48, "
             "the number's on 37 of 40, the tool's on 16 of 24, the bird's on 23 of 64); nothing costs a word said "
             "twice, and some lists repeat the target ('lemon lemon lemon' on 16 of 48 fruit lists, 'pig pig pig pig' "
             "on 8 of 48 animal lists over steps 91-120): the lists that repeat a word (3+ words, at most half "
             "distinct) 0 of 360 over steps 1-30, 19 over 31-60, 53 over 61-90 and 67 over 91-120).",
             prompts="lists", rewards=("names_target",), steps=120,
             args=dict(per_device_train_batch_size=12, max_completion_length=24, beta=0.02, learning_rate=4e-4,
                       logging_steps=2, seed=254), accepted=("KL_BLOWUP", "REPETITIVE_COMPLETIONS"), batch=27),
    # Accepts LENGTH_EXPLOSION and TRUNCATION_HIGH (not written before training): an episode over steps 24-42 as the
    # runaway policy ran answers on with n's ('snnnnnnnnnnn'): the mean length 5.0-5.7 tokens to step 21, 8.07 at 27
    # and 9.96 at 33 (1.8 times its first-two-log median of 5.55), 4-5.9 from 45; the clipped share 0 to step 21, 0.48
    # at 27, 0.67 at 33 and 0.15-0.22 over 30-42.
    Scenario("kl_blowup_judge_bnpo_warmup10_3x3_nosamples_log3", "The 0-10 judge score, three groups of 3 a step, the "
             "BNPO loss, a KL penalty of 0.04 and a 10-step warm-up (constant_with_warmup) into a learning rate far "
             "too high (3e-3), 120 steps logged every 3 and read from TRL's trainer_state.json (no samples): once the "
             "rate is up each update overshoots and the policy runs away from its reference faster than the penalty "
             "pulls it back: the KL blows up (raw log and samples, which the doctor is not given: the KL 0.0004 and "
             "0.017 over the first two logs, 0.46 at step 9, 0.57 at 12, 1.0 at 15, 1.69 at 18 and 2.7-7.75 on every "
             "log from 24 (a median of 4.16 over the run); the score 7.22 and 6.93 over the first two logs, 4.7 at "
             "step 12, 3.7 at 18, 1.04 at 24, 0.11 at 42 and 0 on every log from 45 but two (0.33 at 48, 0.26 at 96); "
             "the zero-variance share 0.33-0.78 to step 36 and 1 on every log from 51 but one; entropy 0.43 and 0.46 "
             "over the first two logs, 0.14-0.64 over steps 12-57 and 0.61-0.91 over the last 10 logs; the mean length "
             "5.0-5.7 tokens to step 21, 8.1 at 27, 9.96 at 33 and 3.7-5.9 from 45, the clipped share 0.48 at 27, 0.67 "
             "at 33, 0.15-0.22 over 30-42 and at most 0.22 after; the gradient norm 1.15-5.9 over steps 6-36 and "
             "0.016-3.45 after, a median of 0.34; a word of the asked category on 128 of the 216 samples over steps "
             "1-24 ('pink' for the tree too), then 'pin', 'pink' and strings run on with n's ('snnnnnnnnnnn', "
             "'onnnnnnnnnnn') over 25-48 (18 of 216 in the category), then fragments and non-words for every question "
             "('riii', 'bin', 'pin', 'ei'; 1 of the 648 samples over steps 49-120 in the category)).",
             rewards=("judge",), steps=120,
             args=dict(per_device_train_batch_size=9, num_generations=3, loss_type="bnpo", beta=0.04,
                       learning_rate=3e-3, warmup_steps=10, lr_scheduler_type="constant_with_warmup", logging_steps=3,
                       seed=255), source="trainer_state",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "REWARD_PLATEAU",
                       "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=27),
    Scenario("entropy_explosion_distinct_letters_drgrpo_nokl_2x6_hot12_log5", "A reward paying a tenth of a point per "
             "distinct letter (task.py's distinct_letters: letter soup pays more than any word), two groups of 6 a "
             "step sampled at temperature 1.2, the Dr. GRPO loss, no KL term and a learning rate of 1e-3, 120 steps "
             "logged every 5: the most random sample of a group keeps winning, and the updates push the next-token "
             "distribution flat towards the whole alphabet: entropy climbs to several times where it started (raw log "
             "and samples: entropy 0.61 and 0.62 over the first two logs (a first-2-log median of 0.61), 0.78 at step "
             "15, 1.29 at 20 and 1.10-1.48 on every log from 20, 24-step means of 0.82, 1.35, 1.35, 1.20 and 1.39; the "
             "reward 0.43 and 0.46 over the first two logs, 0.75 at step 20 and 0.80-1 from 25; the mean length 5.65 "
             "and 5.95 tokens over the first two logs, 7.4 at step 15, 10.9 at 20 and 11.6-12 (the budget) from 25, "
             "the clipped share 0.12 at 15, 0.65 at 20, 0.85 at 25 and 0.97-1 from 30; the zero-variance share 0 on "
             "every log; no KL logged; the gradient norm 0.9 and 1.7 over the first two logs and 2.1-5.05 from step "
             "15; words at first, hot sampling garbling many ('soder', 'melow', 'spruch'; a word of the asked category "
             "on 98 of the 288 samples over steps 1-24), then strings of letters to the budget for every question from "
             "about step 25 ('finhtnvrowkz', 'ckwhycowkdog', 'plischwywhtt'; none a word of its category over steps "
             "25-120), no two alike in a group (a duplicate share of 0 from step 25)).",
             rewards=("distinct_letters",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.2, loss_type="dr_grpo",
                       beta=0.0, learning_rate=1e-3, logging_steps=5, seed=256),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 2.0, run=3, first=2)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=27),
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 52.7 at step 78, 39 times its median
    # over the run (1.35), between logs of 0 (steps 74-76 and 80-92, every group agreeing on its o-string), and 21.3 at
    # 94 likewise; RLOO's advantages are not normalised.
    Scenario("reward_hacking_letter_o_exact_rloo_2x4_oldkeys_log2", "RLOO with a KL penalty of 0.01, exact match (1) "
             "beside a cheap proxy, the share of the letter o (weight 3, task.py's letter_o), so that a string of o's "
             "(3) pays more than the target word, two groups of 4 a step and a learning rate of 1.5e-3, 120 steps "
             "logged every 2 and read in TRL 0.14's key set: the policy games the proxy, and exact match falls as the "
             "o's rise (raw log and samples: exact match 0.125, 0.19 and 0.06 over the first three logs, 0.19 at step "
             "8 and 0 on every log from 10; the proxy 0.085, 0.10 and 0.065 over the first three logs, 0.09-0.24 over "
             "steps 8-24, 0.44 at 26, 0.50 at 30, 0.67 at 36, 0.85 at 40 and 0.74-1 from 42 (1, its maximum, on most "
             "logs from 64); the reward 0.38 and 0.50 over the first two logs and 2.2-3 from 40; the answers off the "
             "taught words from the start, o's creeping in ('cocoa' on 10 of 24 drink samples, 'gooosell', 'oaemelow', "
             "'onee'; a word of the asked category on 54 of the 192 samples over steps 1-24, the target on 9), "
             "o-strings over 25-48 ('gooo' on 29 of 32 bird samples, 'oloooooooo', 'oelow'; 7 of 192 in the category), "
             "then 'oooo' for every question but the bird, 'gooo' for it, from about step 49 (191 of the 192 samples "
             "over steps 97-120); the zero-variance share, which the doctor is not given, 0-0.25 to step 36 and 0.5-1 "
             "from 38 (1 on 25 of the 33 logs from 56), reward_std 0 on 18 of those 33; entropy, not given either, "
             "0.44 and 0.55 over the first two logs, 0.57-0.76 over steps 8-24, 0.15 at 40, below 0.12 from 50 and "
             "0.002-0.006 over the last 10 logs; the KL 0.22 at step 4, 0.85 at 8 and 2.4-7.4 on every log from 10, a "
             "median of 6; the gradient norm, RLOO's advantages not normalised, 3.1-64.6 over steps 2-36 (64.6 at 24), "
             "then below 1e-5 on 28 of the 33 logs from 56 and 52.7 at 78, 21.3 at 94; the mean length 5.8 and 5.7 "
             "tokens over the first two logs, 8.25-9.94 over steps 14-20 and 36-46 (strings run on, 'lemeloomelon') "
             "and 5 (four letters and the end-of-sequence token) from 96, the clipped share at most 0.44 (steps 18 and "
             "40) and 0 from 48; a group's completions copies (a duplicate share of 0.16 over steps 1-24, 0.58 over "
             "25-48 and 0.94-0.99 after)).",
             algorithm="rloo", rewards=("correct", "letter_o"), weights=(1.0, 3.0), steps=120,
             args=dict(beta=0.01, learning_rate=1.5e-3, logging_steps=2, seed=257), source="old_keys",
             expect={"REWARD_HACKING": hacked_from("rewards/correct/mean", "rewards/letter_o/mean", first=3, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "KL_BLOWUP", "GRAD_NORM_SPIKE"), batch=27),
    Scenario("repetition_target_mentions_lists_2x4_kl_temp09_log6", "The list questions with a keyword-count reward, "
             "how many times the list names the question's target word, repeats included (task.py's target_mentions), "
             "two groups of 4 a step sampled at temperature 0.9, TRL's default (DAPO) loss, a KL penalty of 0.01, a "
             "learning rate of 8e-4 and a 24-token budget, 150 steps logged every 6: naming the target over and over "
             "pays most, so the lists turn into one word repeated ('lemon lemon lemon') (raw log and samples: the "
             "reward, mentions of the target, 0.15 and 0.19 over the first two logs, 24-step means of 0.28, 0.83, "
             "0.875, 1.46, 1.88, 2.01 and 1.9, 2.31 at its highest (step 132); the lists that repeat a word (3+ words, "
             "at most half distinct) 2 of the 192 samples over steps 1-24, 16 over 25-48, 17 over 49-72, 53 over "
             "73-96, 88 over 97-120 and 85 over 121-144 ('lemon lemon lemon' on 26 of 32 fruit lists and 'pink pink "
             "pink' on 21 of 32 colour lists over steps 97-120, 'juice juice juice', 'four four four', 'hammer hammer "
             "hammer'), the animal's lists shrunk to 'pig' alone (16 of 24 over steps 73-96), the tree's and the "
             "bird's lists letter strings ('oak elmae wilow pine', 'roon en ron eaglee'), a stray word run on after "
             "the repeats late ('lemon lemon lemon pink' on 17 of 44 fruit lists over steps 121-144); the mean length "
             "14.5 and 15.2 tokens over the first two logs, 14.2-17.2 to step 120 and 18.2-22.2 over 126-150, the "
             "clipped share at most 0.125 to step 120 and 0.21-0.56 over 126-150; entropy 0.53 and 0.55 over the first "
             "two logs, 24-step means of 0.525, 0.47, 0.47, 0.36, 0.27, 0.31 and 0.35; the KL 0.016 and 0.235 over the "
             "first two logs, 0.73-1.29 over steps 42-120 and 1.6-2.6 over 126-150; the gradient norm a median of 2.0, "
             "at most 7.7 (step 84); the zero-variance share 0.08-0.67; a group's duplicate share 0 over steps 1-24, "
             "0.10 over 25-72, 0.31 over 73-96, 0.44 over 97-120 and 0.29 over 121-144).",
             prompts="lists", rewards=("target_mentions",), steps=150,
             args=dict(max_completion_length=24, temperature=0.9, beta=0.01, learning_rate=8e-4, logging_steps=6,
                       seed=258),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=27),
    Scenario("reward_collapse_outage_judge_1x8_kl_oldkeys_log4", "The 0-10 judge score, one group of 8 a step, TRL's "
             "default (DAPO) loss, a KL penalty of 0.03 and a learning rate of 4e-4, 160 steps logged every 4 and read "
             "in TRL 0.14's key set; from the 100th reward call to the end the judge service answers 0 for everything "
             "(swap to task.py's nothing, a timed-out client defaulting to 0), after the run has learnt: the score "
             "falls from its learnt level to 0 and every group agrees on it (raw log and samples: the score 7.28 and "
             "7.75 over the first two logs, 20-step means of 7.23, 6.93, 8.16, 8.39 and 7.94 before the outage, 9.19 "
             "at steps 80 and 96, 6.06 at step 100 (the log of steps 97-100, the outage's first call at 100), then 0 "
             "on every log from 104 to the end; reward_std 0.6-3.2 before and 0 from 104; the zero-variance share, "
             "which the doctor is not given, 0-0.75 before and 1 from 104; entropy, not given either, 0.46 and 0.43 "
             "over the first two logs, 0.21-0.41 over steps 76-100 and 0.18-0.51 after; the KL a median of 0.24, 1.16 "
             "at step 92 and at most 0.67 on every other log, 0.16-0.61 after the outage (the penalty alone moving the "
             "policy); the gradient norm 0.007-14.2 before, a median of 2.1, and 0.009-0.32 after; the mean length "
             "4.8-6.5 tokens, the clipped share at most 0.03; the tool's, the colour's, the fruit's and the tree's "
             "targets learnt before the outage ('hammer' on 19 of 48 samples over steps 1-20 and 13 of 16 over 81-100, "
             "'pink' on 29 of 32, 'lemon' on 15 of 16, 'ash' on 13 of 16 over 81-100), the drink's, the number's and "
             "the bird's in part ('juice' on 19 of 24, 'four' on 15 of 24, 'swan' on 13 of 24 over 81-100), the "
             "animal's 'pig' seldom (1 of 8); after it the learnt words still said, loosening without a signal "
             "('hammer' on 24 of 40, 'four' on 22 of 40, 'swan' on 6 of 24, 'pink' on 1 of 8 over steps 141-160)).",
             rewards=("judge",), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(num_generations=8, beta=0.03, learning_rate=4e-4, logging_steps=4, seed=259), source="old_keys",
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=27),
    # Accepts KL_BLOWUP (not written before training): the KL 0.33 at step 7, 1.78 at 14, 2.62 at 21 and 3.57-8.18 on
    # every log from 28: the penalty of 0.02 did not hold the policy, which ended on the empty answer.
    Scenario("length_collapse_brevity_exact_grpo_loss_2x5_kl_log7", "Exact match (0.5) beside a reward for brevity (1, "
             "task.py's brevity: minus an eighth of a point per character), two groups of 5 a step, the original GRPO "
             "loss, a KL penalty of 0.02 and a learning rate of 1.5e-3, 140 steps logged every 7: the target word pays "
             "no more than its length costs, the empty answer costs nothing, and the small penalty does not hold the "
             "policy: the answers shrink towards nothing (raw log and samples: the mean length 5.81 and 4.80 tokens "
             "over the first two logs (a first-2-log median of 5.3), 3.81 at step 21, 3.0 at 28 and 35, 1.3 at 42, "
             "1.73 at 49, 1.04 at 56 and 1 (the end-of-sequence token alone) on every log from 63; brevity -0.61 and "
             "-0.48 over the first two logs, -0.25 at step 28 and 0 from 63; exact match 0.07-0.14 to step 28 and 0 "
             "from 35; the reward -0.57 and -0.44 over the first two logs and 0 from 63; the zero-variance share 0 and "
             "0.07 over the first two logs, 0.71 at 28, 0.93 at 42 and 1 from 63; entropy 0.47 and 0.63 over the first "
             "two logs, 0.15-0.35 over steps 42-49, 0.034 at 56 and 0.0022-0.0026 from 63; the KL 0.33 at step 7, 1.78 "
             "at 14, 2.62 at 21, 3.57 at 28, 4.71 at 35 and 6.35-8.18 from 42: a penalty of 0.02 is no match for the "
             "brevity reward; the gradient norm 2.6 and 5.9 over the first two logs and below 0.001 from step 42; the "
             "clipped share at most 0.03; words and fragments at first ('c', 'rdrk', 'lar', 'juice'; a word of the "
             "asked category on 93 of the 200 samples over steps 1-20), shorter fragments and the empty answer over "
             "21-40 ('lan', 'jue', 'c', ''; 5 of 200 in the category), then the empty answer (171 of the 200 samples "
             "over steps 41-60, the tree's 'as' and 'oa' the rest, and all 800 over 61-140)).",
             rewards=("correct", "brevity"), weights=(0.5, 1.0), steps=140,
             args=dict(per_device_train_batch_size=10, num_generations=5, loss_type="grpo", beta=0.02,
                       learning_rate=1.5e-3, logging_steps=7, seed=260),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP"), batch=27),
    Scenario("grad_spike_unit_bug_rloo_partial_2x4_log3", "RLOO with its KL penalty (0.05), partial credit, exact "
             "match (1) beside a word of the asked category (0.2), two groups of 4 a step and a learning rate of 4e-4, "
             "150 steps logged every 3; at the 60th reward call (a logged step) one batch's rewards come back 1000x "
             "too large (a unit bug): RLOO's advantages are not normalised, so that step's advantages, hence its "
             "gradient norm, are about a thousand times the others', clipped before the update; the run learns on "
             "either side: one extreme step, a mild episode (raw log and samples: the gradient norm 2,693 at step 60, "
             "420 times its median over the run (6.4) and 30 times the next largest (89.4 at step 144, 64.3 at 120), "
             "8.58 and 0.087 on the logs either side (steps 57 and 63), RLOO's norms growing over the run (a 30-step "
             "mean of 3.6 over steps 1-30, 5.3, 14.7 and 25.2 over 61-150); the reward 0.32 and 0.275 over the first "
             "two logs, 0.32 as the mean over steps 1-30 and 0.61 over 31-57, 226 at the log of steps 58-60 (the bug's "
             "batch 1000x: a drink group of four 'juice', agreeing at 1,200 each, and a tool group scoring 0 and 200), "
             "0.73-1.12 on every log after, 30-step means of 0.92, 1.0 and 1.02 over steps 61-150; reward_std 189 at "
             "step 60 and 0.15-0.55 elsewhere; exact match 0.125 and 0.083 over the first two logs, 30-step means of "
             "0.13 over steps 1-30, 0.74, 0.82 and 0.85 over 61-150; the category 0.75-1; the zero-variance share "
             "0-0.83; entropy 0.48 and 0.50 over the first two logs, 30-step means of 0.48, 0.40, 0.25, 0.19 and 0.18; "
             "the KL a median of 0.41, at most 0.655; the mean length 4.3-5.9 tokens, nothing clipped; the drink's and "
             "the colour's targets first ('juice' on 31 of 36, 'pink' on 19 of 24 samples over steps 31-60), the "
             "fruit's, the tree's, the animal's and the bird's over 61-90 ('lemon' on 29 of 32, 'ash' on 14 of 16, "
             "'pig' on 48 of 56, 'swan' on 18 of 32), the number's and the tool's later ('four' on 18 of 24, 'hammer' "
             "on 26 of 36 over steps 121-150)).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150, spike=(60, 1000.0),
             args=dict(learning_rate=4e-4, logging_steps=3, seed=261),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50)}, batch=27),
    # Accepts REWARD_HACKING (not written before training): the category 0.92 over the first two logs and 30-step means
    # of 0.89, 0.66, 0.58, 0.77 and 0.68 (0.47 at step 88) while the early-letter preference rose from 0.58 and 0.79 to
    # 0.90-0.92 from step 32: two questions collapsed onto a c-word of another category ('cow' for the drink, 'cedar'
    # for the fruit).
    Scenario("group_mode_collapse_early_letter_category_drgrpo_nokl_3x4_cool08_log8", "A word of the asked category "
             "(1) beside a cheap preference for an early first letter (0.5, task.py's early_letter), three groups of 4 "
             "a step sampled at temperature 0.8, the Dr. GRPO loss, no KL term and a learning rate of 1.5e-3, 150 "
             "steps logged every 8: the category is already earned, the earliest-letter word of each category "
             "('apple', 'ash', 'axe') pays most, and with no anchor the policy settles on one answer per question: a "
             "group's completions become copies of each other (raw log and samples: a group's duplicate share, (n - "
             "distinct)/(n - 1), 0-0.33 a step over steps 1-6, 0.44-0.89 on most steps from 11, its 30-step means "
             "0.51, 0.73, 0.80, 0.92 and 0.94; the answers one string a question, a c-word, a b-word or an e-word "
             "rather than the earliest: 'crow' for the bird (55 of 56 samples over steps 121-150), 'blue' for the "
             "colour (36 of 40), 'eight' for the number (39 of 40), 'chisel' for the tool (22 of 28), 'cedar' for the "
             "tree (43 of 44), 'cow' for the animal (48 of 48), and for two questions a word of another category: "
             "'crow', then 'cow', for the drink ('cocoa' on 33 of 52 samples over steps 1-30, 'crow' on 21 of 48 over "
             "61-90, 'cow' on 50 of 56 over 121-150), 'cedar' for the fruit (47 of 48, after 'cherry' on 28 of 72 over "
             "1-30 and 'chirrrrrrrrr', 'chite' over 31-90); the early letter 0.58 and 0.79 over the first two logs and "
             "0.90-0.92 from step 32; the category 0.92 over the first two logs, 0.47-0.91 from step 32, 30-step means "
             "of 0.89, 0.66, 0.58, 0.77 and 0.68; the reward 1.21 and 1.31 over the first two logs and 0.93-1.36 "
             "after; the zero-variance share 0 and 0.375 over the first two logs and 0.58-0.96 from step 40; entropy "
             "0.38 and 0.23 over the first two logs, 30-step means of 0.29, 0.18, 0.14, 0.068 and 0.053; no KL logged; "
             "the gradient norm a median of 1.78, at most 5.62, 0 on 7 of the 18 logs; the mean length 5.2-6.7 tokens, "
             "the clipped share at most 0.19 (step 56, 'chirrrrrrrrr' for the fruit); the target words on 35 of the "
             "360 samples over steps 1-30 and never after).",
             rewards=("in_category", "early_letter"), weights=(1.0, 0.5), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.8, loss_type="dr_grpo", beta=0.0,
                       learning_rate=1.5e-3, logging_steps=8, seed=262),
             expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "REWARD_HACKING"), batch=27),
    # -- batch 28 --
    # A twenty-sixth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), one retrained with
    # another configuration, none re-labelled: a binary exact-match reward with groups of 2, 3, 4 and 8, partial credit
    # with the original GRPO loss and groups of 6, the judge score with RLOO and groups of 4; healthy runs with and
    # without a KL term that learn (three groups of 4 at temperature 0.95, its KL above 1 on single logs; partial credit
    # without a KL term read from trainer_state.json, the drink's answer run on at the end; RLOO on the judge score, its
    # gradient norm heavy-tailed; one group of 8 with a cosine schedule at temperature 1.1), learn slowly (240 steps at
    # 2e-4 with BNPO and groups of 3 in TRL 0.14's key set), converge on seven questions of eight without a KL term with
    # Dr. GRPO and four groups of 2 logged every step (written at 5e-4, whose run stopped at about half its best;
    # retrained at 3e-4); a KL blow-up with RLOO and groups of 3 after a warm-up into 3e-3 that ended on the empty
    # answer, an entropy collapse under a reward that says nothing with the original GRPO loss and groups of 5 (the
    # answers ran to the budget first), a letter proxy gamed against partial credit with BNPO, a per-character bonus
    # beside partial credit with Dr. GRPO and groups of 2 at temperature 1.2 read from trainer_state.json, an answer key
    # changed after learning to a capitalised one with Dr. GRPO in TRL 0.14's key set (its KL above 1 before the change
    # accepted), a reward plateau from a half key with the original GRPO loss logged every 10 steps (a late fall
    # accepted), a per-word reward on the list questions with RLOO (the lists ran to the budget first), a format reward
    # the model already earns with groups of 3; strides 1-10, temperatures 0.7-1.2, learning rates 2e-4 to 3e-3, loss
    # types grpo, dr_grpo, dapo and bnpo, seeds 263-276. Each expectation was written from the mechanism before the run
    # was trained (committed first), then checked on the raw log and the recorded completions only, never against the
    # doctor: every pathology written happened, every onset rule written before training found its onset (none
    # re-dated), every healthy run learnt once the one was retrained; the accepted signatures the log contradicts were
    # dropped and those added after training carry their raw-log numbers. As in batches 9-27, the healthy binary runs
    # accept no ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_binary_3x4_kl_temp095_log2", "Exact match alone, three groups of 4 a step sampled at temperature "
             "0.95, TRL's default (DAPO) loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged "
             "every 2: a fresh model is right about one time in ten, the groups that disagree carry the signal, and "
             "the target words are learnt question by question: a run that learns (raw log and samples: the reward 0 "
             "and 0.167 over the first two logs, 30-step means of 0.21, 0.51, 0.64, 0.86 and 0.94, 0.79-1 over the "
             "last 10 logs; the zero-variance share 0-1, a median of 0.67, its 30-step means 0.62, 0.52, 0.57, 0.60 "
             "and 0.80; entropy 0.448 and 0.454 over the first two logs, 30-step means of 0.45, 0.35, 0.28, 0.15 and "
             "0.09; the KL a median of 0.38, its 30-step means 0.28-0.65, above 1 on 7 of the 75 logs, each a single "
             "log between lower ones (1.44 at step 22, 2.46 at 94, 2.99 at 134); the gradient norm a median of 1.68, "
             "at most 15.1 (step 22); the mean length 4.6-6.2 tokens, the clipped share at most 0.04; the colour's and "
             "the tool's targets first ('pink' on 34 of 68, 'hammer' on 18 of 44 samples over steps 1-30), the drink's "
             "and the fruit's over 31-60 ('juice' on 38 of 48, 'lemon' on 39 of 56), the bird's, the number's and the "
             "animal's over 61-90 ('swan' on 18 of 24, 'four' on 26 of 40, 'pig' on 28 of 40), the tree's last ('ash' "
             "on 4 of 84 samples over steps 61-90 and 39 of 60 over 91-120); every question on its target on 81-100 % "
             "of its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.95, beta=0.03, learning_rate=5e-4,
                       logging_steps=2, seed=263), batch=28),
    Scenario("healthy_nokl_partial_grpo_loss_2x6_cool075_nosamples_log5", "Partial credit, exact match (1) beside a "
             "word of the asked category (0.2), two groups of 6 a step sampled at temperature 0.75, the original GRPO "
             "loss, no KL term (beta 0) and a learning rate of 4e-4, 150 steps logged every 5 and read from TRL's "
             "trainer_state.json (no samples): the category is given already, six samples a question find the target "
             "often, and the target words are learnt without an anchor: a run that learns (raw log and samples, which "
             "the doctor is not given: the reward 0.33 and 0.28 over the first two logs, 30-step means of 0.51, 0.88, "
             "1.08, 1.05 and 1.03 of a possible 1.2, 0.85-1.08 over the last 10 logs; exact match 0.13 and 0.08 over "
             "the first two logs, 30-step means of 0.32, 0.69, 0.88, 0.87 and 0.84; the category 0.77-1, a median of "
             "0.95; the zero-variance share 0-0.6, a median of 0.05 (groups of 6 seldom agree on partial credit); "
             "entropy 0.39 and 0.42 over the first two logs, 30-step means of 0.36, 0.19, 0.09, 0.07 and 0.07; no KL "
             "logged; the gradient norm a median of 1.29, at most 22.4 (step 100); the mean length 4.7-5.9 tokens, "
             "nothing clipped; the colour's, the tool's and the number's targets first ('pink' on 35 of 54, 'hammer' "
             "on 32 of 60, 'four' on 21 of 60 samples over steps 1-30), the bird's, drink's, fruit's and animal's over "
             "31-60 ('swan' on 24 of 42, 'juice' on 33 of 42, 'lemon' on 33 of 48, 'pig' on 48 of 60), the tree's last "
             "('ash' on 1 of 72 samples over steps 1-60, 8 of 30 over 61-90 and 67 of 72 over 91-120); the drink's "
             "'juice' run on into 'juicee' at the end (24 of 42 samples over steps 91-120; 'juice' on 0 of 48 over "
             "121-150, 28 of them still words of the category); the other seven questions on their targets on 87-100 % "
             "of their samples over steps 121-150).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.75, loss_type="grpo", beta=0.0,
                       learning_rate=4e-4, logging_steps=5, seed=264), source="trainer_state", batch=28),
    Scenario("healthy_slow_binary_bnpo_3x3_lr2e4_oldkeys_log6", "Exact match alone, three groups of 3 a step, the BNPO "
             "loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 6 and read in TRL 0.14's "
             "key set (no zero-variance share, entropy or clipped share): the groups that disagree move the policy a "
             "little each step, and the target words are learnt slowly over the whole run: a slow learner (raw log and "
             "samples: the reward 0.037 and 0.167 over the first two logs, 30-step means of 0.11, 0.23, 0.47, 0.56, "
             "0.73, 0.72, 0.78 and 0.89, 0.67-0.94 over the last 10 logs; the zero-variance share, which the doctor is "
             "not given, 0.28-0.89, its 30-step means 0.77, 0.62, 0.39, 0.50, 0.59, 0.71, 0.70 and 0.74; entropy, not "
             "given either, 0.50 and 0.46 over the first two logs, 30-step means falling from 0.47 to 0.13; the KL "
             "rising, 30-step means of 0.05, 0.12, 0.41, 0.51, 0.50, 0.54, 0.46 and 0.45, above 1 once (1.2 at step "
             "156); the gradient norm a median of 1.25, at most 8.1 (step 90); the mean length 5.0-6.0 tokens, the "
             "clipped share, not given, at most 0.04; the colour's target first ('pink' on 19 of 42 samples over steps "
             "1-30), the drink's, the tool's and the animal's over 31-90 ('juice' on 11 of 30 and 29 of 51, 'hammer' "
             "on 14 of 36 over 31-60 and 37 of 51 over 121-150, 'pig' on 13 of 45 and 24 of 36), the fruit's and the "
             "tree's over 61-150 ('lemon' on 15 of 33 over 61-90 and 41 of 54 over 91-120, 'ash' on 17 of 45 and 28 of "
             "42 over 91-150), the bird's over 121-180 ('swan' on 15 of 24 and 32 of 42), the number's last and in "
             "part ('four' on 2 of 114 samples over steps 1-150, 4 of 51 over 151-180 and 18 of 33 over 211-240); the "
             "other seven questions on their targets on 82-100 % of their samples over steps 211-240).",
             rewards=("correct",), steps=240,
             args=dict(per_device_train_batch_size=9, num_generations=3, loss_type="bnpo", beta=0.02,
                       learning_rate=2e-4, logging_steps=6, seed=265), source="old_keys", batch=28),
    Scenario("healthy_rloo_judge_3x4_temp09_log3", "RLOO with its KL penalty (0.05), the 0-10 judge score, three "
             "groups of 4 a step sampled at temperature 0.9 and a learning rate of 3e-4, 150 steps logged every 3: the "
             "taught answers already earn most of the score, the leave-one-out baseline carries the rest, and the "
             "target words are learnt: a run that learns (raw log and samples: the score 7.06 and 7.33 over the first "
             "two logs, 30-step means of 7.17, 7.57, 8.38, 8.94 and 9.24, 8.72-10 over the last 10 logs; the "
             "zero-variance share 0-1, its 30-step means 0.07, 0.10, 0.34, 0.58 and 0.64; entropy 0.41 and 0.42 over "
             "the first two logs, 30-step means of 0.41, 0.40, 0.27, 0.17 and 0.11; the KL rising, 30-step means of "
             "0.09, 0.13, 0.34, 0.45 and 0.53, at most 0.85 (step 129); the gradient norm, RLOO's advantages not "
             "normalised on a 0-10 score, a median of 30 and heavy-tailed throughout (439 at step 30, 260 at 129, 245 "
             "at 108, 0 on four logs); the mean length 4.6-6.1 tokens, nothing clipped; a word of the asked category "
             "on 336 of the 360 samples over steps 1-30; the colour's target first ('pink' on 55 of 72 samples over "
             "steps 1-30), the tool's over 31-60 ('hammer' on 25 of 44), the tree's, the fruit's, the number's and the "
             "bird's over 61-90 ('ash' on 48 of 60, 'lemon' on 25 of 32, 'four' on 12 of 48 over 31-60 and 21 of 32, "
             "'swan' on 19 of 44), the animal's over 61-150 ('pig' on 12 of 36, 26 of 36 and 46 of 52), the drink's "
             "last ('juice' on 9 of 40 over steps 91-120 and 33 of 48 over 121-150); every question on its target on "
             "69-98 % of its samples over steps 121-150).",
             algorithm="rloo", rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.9, learning_rate=3e-4, logging_steps=3, seed=266),
             batch=28),
    # Retrained after its first training (its configuration changed; its name, label and seed unchanged): written with a
    # learning rate of 5e-4, whose raw log showed no convergence but a run stopped at about half its best: the reward's
    # 30-step means 0.29, 0.47, 0.53, 0.61 and 0.55, the zero-variance share's 0.79, 0.84, 0.88, 0.94 and 0.975, the
    # fruit's 'lemon' run on into 'lemngrapinry' (0 of 40 samples right over steps 61-120), the animal's 'pig' lost to
    # 'pin' at the end (0 of 24 over 121-150), the number's and the tree's targets never said: the shape of batch 13's
    # re-labelled plateau, not the convergence written. Tried in a scratch folder (raw log and samples only): 4e-4 at
    # temperature 0.8 (the bird's answer lost to 'eag', 0 of 94 samples right over steps 61-150), temperature 0.6 (the
    # tree's target never said, the reward's 30-step means 0.64-0.70 from step 31) and 3e-4; retrained at 3e-4,
    # everything else as written: seven questions of eight learnt and solved.
    Scenario("healthy_converges_drgrpo_nokl_binary_4x2_cool07_log1", "Exact match alone, four groups of 2 a step "
             "sampled at temperature 0.7, the Dr. GRPO loss, no KL term and a learning rate of 3e-4, 150 steps logged "
             "every step: the pairs that differ carry the signal, cool sampling and no anchor let the learnt answers "
             "take over, and the pairs come to agree, solved; per-step means of 8 samples are noisy: a run that "
             "converges, on seven of its eight questions (raw log and samples: the reward 0.125 over the first two "
             "steps, 30-step means of 0.21, 0.45, 0.63, 0.75 and 0.86 (0-1 on single steps), 0.5-1 over the last 10; "
             "the zero-variance share a median of 1, its 30-step means 0.83, 0.76, 0.87, 0.83 and 0.96, every pair "
             "agreeing on 78 of the 150 steps, the gradient norm 0 on each of them, at most 4.6 elsewhere (step 63); "
             "entropy 0.43 and 0.44 over the first two steps, 30-step means of 0.39, 0.29, 0.19, 0.17 and 0.10; no KL "
             "logged; the mean length 4-6.6 tokens, 5.3-5.4 as 30-step means, the clipped share at most 0.125; the "
             "animal's and the fruit's targets first ('pig' on 19 of 38, 'lemon' on 13 of 28 samples over steps 1-30), "
             "the colour's and the tool's over 31-60 ('pink' on 22 of 28, 'hammer' on 18 of 22), the bird's over 61-90 "
             "('swan' on 5 of 26 over 31-60 and 31 of 36), the drink's over 91-120 ('juice' on 3 of 50 over 31-60 and "
             "38 of 46), the tree's last ('ash' on 12 of 30 over 91-120 and 36 of 38 over 121-150); the number's "
             "'four' never said (0 of its 140 samples, its answers other numbers); the other seven questions on their "
             "targets on 95-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, temperature=0.7, loss_type="dr_grpo", beta=0.0, learning_rate=3e-4,
                       seed=267), batch=28),
    Scenario("healthy_cosine_binary_1x8_kl_hot11_log7", "Exact match alone, one group of 8 a step (one question asked "
             "a step) sampled at temperature 1.1, TRL's default (DAPO) loss, a KL penalty of 0.04, a 15-step warm-up "
             "and a cosine decay from a learning rate of 6e-4, 140 steps logged every 7: eight hot samples find the "
             "target often, and the target words are learnt while the rate decays: a run that learns (raw log and "
             "samples: the reward 0.018 and 0.089 over the first two logs, 30-step means of 0.10, 0.30, 0.49 and 0.76 "
             "and 0.83 over steps 121-140, 0.41-0.86 over the last 10 logs; the zero-variance share, one group, "
             "0-0.86, its 30-step means 0.46, 0.29, 0.25, 0.20 and 0.29; entropy 0.49 and 0.54 over the first two "
             "logs, 30-step means of 0.53, 0.53, 0.42, 0.27 and 0.23; the KL a median of 0.42, at most 0.87 (step 84); "
             "the gradient norm a median of 2.4, at most 8.1 (step 91); the mean length 4.9-6.7 tokens, the clipped "
             "share at most 0.04; the animal's and the drink's targets first ('pig' on 11 of 56 samples over steps "
             "1-30 and 7 of 8 over 31-60, 'juice' on 23 of 48 over 31-60), the colour's, tool's, bird's and tree's "
             "over 31-90 ('pink' on 15 of 24 and 31 of 40, 'hammer' on 13 of 24 and 21 of 48, 'swan' on 7 of 32 and 24 "
             "of 40, 'ash' on 12 of 16 over 61-90), the fruit's after a spell of letter strings ('lemon' on 8 of 32 "
             "over steps 1-30, 'lemnnlow' and the like over 31-60, 0 of 16 right, 'lemon' on 25 of 40 over 61-90 and "
             "41 of 48 over 91-120), the number's in part ('four' on 2 of 88 samples over steps 1-90, 4 of 16 over "
             "91-120 and 2 of 8 over 121-140); the other questions asked over steps 121-140 on their targets on 79-100 "
             "% of their samples).",
             rewards=("correct",), steps=140,
             args=dict(num_generations=8, temperature=1.1, beta=0.04, learning_rate=6e-4, warmup_steps=15,
                       lr_scheduler_type="cosine", logging_steps=7, seed=268), batch=28),
    # LENGTH_EXPLOSION and TRUNCATION_HIGH, accepted before training, dropped: the mean length 5.9 tokens over the first
    # two logs and at most 7.8 (step 20, 1.3 times that), the clipped share at most 0.17 (step 20), then the empty
    # answer.
    Scenario("kl_blowup_rloo_binary_warmup15_3x3_log2", "RLOO with its KL penalty (0.05), exact match alone, three "
             "groups of 3 a step and a 15-step warm-up (constant_with_warmup) into a learning rate far too high "
             "(3e-3), 120 steps logged every 2: once the rate is up each update overshoots and the policy runs away "
             "from its reference faster than the penalty pulls it back: the KL blows up, well above the 0.1-0.8 of the "
             "corpus's healthy runs, and the policy ends on the empty answer (raw log and samples: the KL 0 and 0.01 "
             "over the first two logs, 0.2-0.3 over steps 10-14, 1.47 at 16, 0.97 at 18, 3.2-5.0 over 20-36 and "
             "8.0-9.5 on every log from 38, a median of 8.6 over the run; the reward 0.33 and 0.22 over the first two "
             "logs, 0.11-0.33 to step 18, 0-0.11 over 20-26 and 0 on every log from 28; the mean length 5.9 tokens "
             "over the first two logs, 7.8 at step 20, 3.4-4.9 over 22-32, 2.6 at 34-36 and 1-1.06 (the "
             "end-of-sequence token alone) from 40, the clipped share at most 0.17 (step 20); entropy 0.40 and 0.42 "
             "over the first two logs, 0.51-0.88 over 12-36 but 0.35 at 30, 0.39 at 38, 0.045 at 40 and below 0.024 "
             "from 42; the zero-variance share, RLOO's KL term in the reward parting groups that agree on the answer, "
             "0-0.33 to step 36 and 0.33-1 after; the gradient norm, RLOO's advantages not normalised, 2.2-85.7 to "
             "step 28 (85.7 at 16) and below 1e-8 on every log from 38; words of the category at first (a word of the "
             "asked category on 128 of the 216 samples over steps 1-24), fragments and the empty answer over 25-48 "
             "('', 'hamm', 'jue'; 3 of 216 in the category), then the empty answer on all 648 samples over steps "
             "49-120).",
             algorithm="rloo", rewards=("correct",), steps=120,
             args=dict(per_device_train_batch_size=9, num_generations=3, beta=0.05, learning_rate=3e-3,
                       warmup_steps=15, lr_scheduler_type="constant_with_warmup", logging_steps=2, seed=269),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "ENTROPY_EXPLOSION",
                       "ENTROPY_COLLAPSE", "LENGTH_COLLAPSE", "GROUP_MODE_COLLAPSE", "GRAD_NORM_SPIKE"), batch=28),
    # LENGTH_COLLAPSE, accepted before training, dropped: the mean length 5.5 and 6.2 tokens over the first two logs and
    # 12 (the budget) on every log from step 33 but the last two (11.7 and 9.3).
    Scenario("entropy_collapse_coin_grpo_loss_nokl_2x5_temp09_log3", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), two groups of 5 a step sampled at temperature 0.9, the original GRPO loss, "
             "no KL term and a learning rate of 2e-3, 120 steps logged every 3: the advantages are noise, and with no "
             "anchor the policy drifts onto one completion per question while the coin stays at chance: entropy falls "
             "far below where it started, and a group's five samples become copies of one another; the answers ran to "
             "the budget as letter strings first (raw log and samples: entropy 0.443 and 0.434 over the first two logs "
             "(a first-2-log median of 0.44), 0.54-0.60 over steps 9-18 as the answers grew, 0.30 at 24, 0.16 at "
             "27-30, 0.042 at 33 and 0.002-0.155 on every log from 33, 24-step means of 0.47, 0.10, 0.025, 0.021 and "
             "0.076; the coin 0.30-0.73, 24-step means of 0.46-0.53; the zero-variance share 0-0.33; no KL logged; the "
             "gradient norm 1.4-5.8 to step 30 and 0-2.5 after, 0 on 19 of the 40 logs; the mean length 5.5 and 6.2 "
             "tokens over the first two logs, 8.0 at step 15, 10.2 at 24 and 12 (the budget) on every log from 33 but "
             "the last two (11.7 at 111, 9.3 at 120), the clipped share 0.3 at 15, 0.63 at 24, 0.97 at 30 and 0.7-1 "
             "from 33; words and near-words at first (a word of the asked category on 61 of the 240 samples over steps "
             "1-24, 'nnnnnnnnnnnn' for the colour already), strings run on with n's and l's to the budget over 25-48 "
             "('gnnnnnnnnnnn', 'cnnnnnnnnnnn', 'llllllllllll'; none a word), then one such string per question "
             "('nnnnnnnnnnnn' on 47 of 50 colour samples, 'llllllllllll' on 44 of 45 tree samples over steps 49-72); a "
             "group's completions copies (a duplicate share of 0.26 over steps 1-24, 0.72 over 25-48, 0.94 over 49-96 "
             "and 0.80 over 97-120)).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.9, loss_type="grpo", beta=0.0,
                       learning_rate=2e-3, logging_steps=3, seed=270),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=28),
    Scenario("reward_hacking_letter_o_partial_bnpo_3x4_kl_log4", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.5), and a cheap proxy, the share of the letter o (weight 3, task.py's letter_o), so "
             "that a string of o's (3) pays more than the target word with its category (1.5), three groups of 4 a "
             "step, the BNPO loss, a KL penalty of 0.01 and a learning rate of 1.5e-3, 120 steps logged every 4: the "
             "policy games the proxy, and the category, which the taught model earns on nearly every sample, falls as "
             "the o's rise (raw log and samples: the category 0.958 at step 4, 0.75 at 8, 0.60 at 12 and 16, 0.42 at "
             "20 and 0 on every log from 24; the proxy 0.145 at step 4, 0.17-0.29 over 8-16, 0.505 at 20, 0.92 at 24 "
             "and 0.99-1 from 28; exact match 0.10 at step 4, 0.02-0.06 over 8-12 and 0 from 16; the reward 1.02 and "
             "0.91 over the first two logs, 2.77 at 24 and 2.96-3 (its maximum) from 28; o-words of the category at "
             "first ('goose' on 19 of 36 bird samples, 'orange' on 24 of 48 colour samples, 'one' on 25 of 36 number "
             "samples, 'owl', 'oak', 'cocoa' over steps 1-24) beside strings of o's ('oooooooooooo' on 43 of the 288 "
             "samples), then 'oooooooooooo' for every question (276 of the 288 samples over steps 25-48 and 863 of 864 "
             "over 49-120); a group's completions copies (a duplicate share of 0.59 over steps 1-24, 0.97 over 25-48 "
             "and 1 after); the zero-variance share 0.08-0.5 to step 20 and 0.83-1 from 24; entropy 0.45 and 0.49 over "
             "the first two logs, 0.09 at 24 and 0.0007-0.025 from 28; the KL 0.03 and 0.46 over the first two logs, "
             "1.02 at 16, 3.09 at 20 and 5.5-6.4 from 24; the gradient norm 1.9-12.2 to step 20 and at most 2.2 after; "
             "the mean length 5.5 and 5.8 tokens over the first two logs, 11.3 at 24 and 12 (the budget) on every log "
             "from 28, the clipped share 0.85 at 24 and 1 from 28).",
             rewards=("correct", "in_category", "letter_o"), weights=(1.0, 0.5, 3.0), steps=120,
             args=dict(per_device_train_batch_size=12, loss_type="bnpo", beta=0.01, learning_rate=1.5e-3,
                       logging_steps=4, seed=271),
             expect={"REWARD_HACKING": hacked_from("rewards/in_category/mean", "rewards/letter_o/mean", first=1,
                                                   smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=28),
    # REWARD_COLLAPSE, accepted before training, dropped: the reward 0.88 and 0.83 over the first two logs and 1.84-2 on
    # every log from step 33; what fell, the category (0.875 and 0.958 to 0-0.04 from step 30), fell to the
    # per-character bonus (REWARD_HACKING, accepted).
    Scenario("length_explosion_char_bonus_partial_drgrpo_4x2_hot12_nosamples_log3", "Partial credit, exact match (1) "
             "beside a word of the asked category (0.2), and a bonus paid per character (0.8, task.py's length_bonus: "
             "20 characters pay 2, more than the target word with its category), four groups of 2 a step sampled at "
             "temperature 1.2, the Dr. GRPO loss, a KL penalty of 0.01, a learning rate of 8e-4 and a 20-token budget, "
             "120 steps logged every 3 and read from TRL's trainer_state.json (no samples): the longer answer of a "
             "pair keeps winning, so the answers grow to the budget and get cut (raw log and samples, which the doctor "
             "is not given: the mean length 5.96 and 5.75 tokens over the first two logs (a first-2-log median of "
             "5.85), 5.4-7.1 to step 18, 8.75 at 21, 12.3 at 24, 14 at 27, 16.5 at 30 and 18.5-20 (the budget) on "
             "every log from 33, 24-step means of 7.2, 18.6, 19.6, 19.5 and 19.7; the clipped share 0 to step 18, 0.08 "
             "at 21, 0.21 at 24, 0.42 at 27, 0.625 at 30 and 0.83-1 from 33; the length bonus 0.62 and 0.59 over the "
             "first two logs and 2.3-2.5 as 24-step means from step 25; the category 0.875 and 0.958 over the first "
             "two logs, 0.21-0.58 over steps 9-27 and 0-0.04 from 30; exact match 0.21 and 0.17 over the first two "
             "logs and 0 from 30; the reward 0.88 and 0.83 over the first two logs, 0.68-0.91 to step 21 and 1.84-2 "
             "from 33; the zero-variance share, its 24-step means 0.24, 0.76, 0.87, 0.85 and 0.91; entropy 0.49 and "
             "0.54 over the first two logs, 0.67-0.86 over 9-24 and 0.92-1.17 from 27; the KL 0.014 and 0.043 over the "
             "first two logs, 1.07 at 24 and 1.49-3.7 from 30; the gradient norm a median of 0.72, at most 2.0; words "
             "of the category at first, hot sampling garbling some (a word of the asked category on 105 of the 192 "
             "samples over steps 1-24), strings of words and fragments to the budget from about step 25 ('pgsee pigsee "
             "pigf ch', 'seven eight four nin'; 10 of 192 in the category over steps 25-48, 2 of 576 over 49-120), no "
             "two alike in a pair (a duplicate share of 0.11 over steps 1-24 and 0 after)).",
             rewards=("correct", "in_category", "length_bonus"), weights=(1.0, 0.2, 0.8), steps=120,
             args=dict(num_generations=2, max_completion_length=20, temperature=1.2, loss_type="dr_grpo", beta=0.01,
                       learning_rate=8e-4, logging_steps=3, seed=272), source="trainer_state",
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU", "ENTROPY_EXPLOSION", "KL_BLOWUP"),
             batch=28),
    # Accepts KL_BLOWUP (not written before training): the KL 0.07-0.54 to step 60, 2.30 at 66 and above 1 on every log
    # over steps 78-114 (1.19, 1.48, 2.13, 1.70, 4.62, 1.05 and 1.87), as the tool's 'hammer' ran on into
    # 'hamhhhhhhhhh', before the key changed.
    Scenario("reward_collapse_key_caps_after_learning_drgrpo_2x4_cool08_oldkeys_log6", "Exact match alone, two groups "
             "of 4 a step sampled at temperature 0.8, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of "
             "6e-4, 170 steps logged every 6 and read in TRL 0.14's key set; from the 110th reward call to the end the "
             "answer key is one written with capital letters (swap to task.py's correct_capitalized: 'Pear', a "
             "case-sensitive match the lowercase vocabulary never produces), after the target words were learnt: the "
             "reward falls from its learnt level to 0 and every group agrees on it (raw log and samples: the reward "
             "0.042 and 0.21 over the first two logs, 0.33-0.42 over steps 18-42, 0.81 at 48 (its highest), 0.48-0.75 "
             "over 54-108, 0.083 at 114 (the log of steps 109-114, the new key from call 110) and 0 on every log from "
             "120 to the end; reward_std 0.24-0.38 over 102-108, 0.09 at 114 and 0 from 120; the zero-variance share, "
             "which the doctor is not given, 0.33-0.92 before and 1 on every log from 114; entropy, not given either, "
             "0.44 and 0.37 over the first two logs, 30-step means of 0.37, 0.29, 0.27, 0.21, 0.22 and 0.25; the KL "
             "0.07-0.54 to step 60, 2.30 at 66 and above 1 on every log over 78-114 (4.62 at 102) as the tool's answer "
             "ran on, 0.32-1.32 after; the gradient norm a median of 0.096, at most 6.9 (step 66), 0.002-0.52 from "
             "114; the mean length 4.9-7.7 tokens, the clipped share at most 0.33 (step 90); the colour's target first "
             "('pink' on 47 of 60 samples over steps 1-30), the bird's, drink's, fruit's, animal's and tool's over "
             "31-60 ('swan' on 22 of 32, 'juice' on 30 of 32, 'lemon' on 28 of 44, 'pig' on 23 of 28, 'hammer' on 16 "
             "of 24), the number's in part ('four' on 4 of 24 over 61-90 and 13 of 28 over 91-120), the tree's 'ash' "
             "seldom (5 of its 180 samples); the tool's 'hammer' run on into 'hamhhhhhhhhh' from about step 61 (16 of "
             "52 samples over 61-90, 0 of 24 right over 91-120); after the change the learnt words still said, every "
             "one scored 0 ('swan' on 50 of 56, 'pink' on 31 of 32, 'lemon' on 20 of 20 samples over steps 121-150)).",
             rewards=("correct",), steps=170, swap=(110, 100_000, "correct_capitalized"),
             args=dict(temperature=0.8, loss_type="dr_grpo", beta=0.02, learning_rate=6e-4, logging_steps=6,
                       seed=273), source="old_keys",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=28),
    # Accepts REWARD_COLLAPSE (not written before training): the reward, its 5-log means 0.44-0.53 from step 100 to 250,
    # fell to 0.29, 0.20 and 0.14 over the last three logs (its 5-log mean 0.29 at step 300, 0.55 times its peak of
    # 0.53) as the number's 'four' gave way to 'fox' (54 of 66 samples over steps 271-300, 'four' on none).
    Scenario("reward_plateau_half_key_grpo_loss_2x6_kl_log10", "Exact match graded against a key half of whose words "
             "the model can say (task.py's correct_half_key), two groups of 6 a step, the original GRPO loss, a KL "
             "penalty of 0.02 and a learning rate of 6e-4, 300 steps logged every 10: the learnable half is learnt and "
             "its groups come to agree, solved, while the other half's groups agree on 0 from the start; the reward "
             "rises to about half its best and stays there; the number's learnt answer was lost over the last 60 steps "
             "(raw log and samples: the reward 0.083 and 0.092 over the first two logs, 0.25-0.38 over steps 30-60, "
             "0.37-0.67 over 70-250, its 5-log means 0.44-0.53 from step 100 to 250, then 0.29, 0.20 and 0.14 over the "
             "last three logs, its mean over the last quarter of the logs 0.33; the zero-variance share 0.6-1, its "
             "30-step means 0.72, 0.70, 0.70, 0.82, 0.83, 0.92, 0.95, 0.92, 0.95 and 0.97; the learnable half's "
             "targets learnt ('pink' on 42 of 78 samples over steps 1-30, 'lemon', 'four' and 'pig' on 29 of 48, 28 of "
             "36 and 25 of 36 over 31-60), on 83-100 % of their samples over steps 91-240; the other four questions "
             "never scoring (0 of 1,794 samples), their key words never taught ('yew' for the tree, 'punch' for the "
             "drink, 'vise' for the tool, 'wren' for the bird), their answers varied words of the category ('pine', "
             "'milk', 'pliers', 'finch'); late, the number's 'four' lost to 'fox' (42 of 54 samples over steps 241-270 "
             "and 54 of 66 over 271-300, 'four' on 6 and 0 of them); entropy 0.47 and 0.49 over the first two logs, "
             "30-step means of 0.45 and 0.41, then 0.25-0.39; the KL a median of 0.40, 1.01 at step 90 and at most "
             "0.70 on every other log; the gradient norm a median of 0.087, at most 10.2 (step 110); the mean length "
             "4.8-5.8 tokens, the clipped share at most 0.025; a group's duplicate share 0.34-0.69 as 30-step means).",
             rewards=("correct_half_key",), steps=300,
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=10, seed=274),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_COLLAPSE"), batch=28),
    # GROUP_MODE_COLLAPSE, ZERO_ADVANTAGE_GROUPS and REWARD_PLATEAU, accepted before training, dropped: a group's
    # duplicate share 0-0.11 as 30-step means; the zero-variance share 0-0.1; the reward still rising at the end
    # (30-step means 2.18, 2.54, 2.95, 4.4 and 6.79).
    Scenario("repetition_word_count_lists_rloo_2x4_log5", "RLOO with a KL penalty of 0.02, the list questions with a "
             "reward paid per known word said, repeats included (task.py's word_count), two groups of 4 a step, a "
             "learning rate of 8e-4 and a 32-token budget, 150 steps logged every 5: saying one short word over and "
             "over pays best, so the lists turn into one word repeated; the lists ran to the budget first (raw log and "
             "samples: the lists that repeat a word (3+ words, at most half distinct) 4 of the 240 samples over steps "
             "1-30, 16 over 31-60, 7 over 61-90, 53 over 91-120 and 172 over 121-150, 'tea' the word repeated whatever "
             "the question ('tea tea tea tea tea tea tea tea' on 10 of 36 bird lists, 'ten tea tea ten tea tea tea "
             "tea' for the numbers, 'pine pine pine tea tea tea tea' for the fruits over steps 121-150; 'tea' 837 of "
             "the 1,858 words said there); the mean length 14.2 and 16.4 tokens over the first two logs, 18.4-22.3 "
             "over steps 20-40, 24.6-30 over 45-110 and 30.8-32 (the budget) from 115, the clipped share 0-0.28 to "
             "step 40, 0.45-0.85 over 45-110 and 0.93-1 from 115, the long lists words run together and letter strings "
             "('c fox zebp sheese l pige mix zeb' over steps 61-90); the reward, known words said, 2.42 and 2.27 over "
             "the first two logs, 30-step means of 2.18, 2.54, 2.95, 4.4 and 6.79, 7.53 at its highest (step 140); "
             "entropy 0.58 and 0.61 over the first two logs, 0.53-0.68 to step 100, 0.32-0.51 over 105-120 and "
             "0.18-0.25 from 125; the KL 0.03 and 0.20 over the first two logs, 1.15-1.72 over 45-110 and 2.3-3.1 from "
             "115; the zero-variance share 0-0.1; the gradient norm, RLOO's advantages not normalised, 19-256, a "
             "median of 77; a group's duplicate share 0-0.01 as 30-step means to step 120 and 0.11 over 121-150).",
             algorithm="rloo", prompts="lists", rewards=("word_count",), steps=150,
             args=dict(max_completion_length=32, beta=0.02, learning_rate=8e-4, logging_steps=5, seed=275),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "KL_BLOWUP"), batch=28),
    Scenario("zero_advantage_format_earned_4x3_cool07_log4", "A format-only reward, 1 for a completion that is a "
             "single known word (task.py's is_word), which the taught model already earns on nearly every sample, four "
             "groups of 3 a step sampled at temperature 0.7, TRL's default (DAPO) loss, a KL penalty of 0.02 and a "
             "learning rate of 3e-4, 100 steps logged every 4: nearly every group's rewards are equal, so there is "
             "almost no advantage to learn from (raw log and samples: the zero-variance share 1 on every log to step "
             "32 and 0.875-1 after, 1 on 17 of the 25 logs; the reward 1 on the first eight logs and 0.958-1 "
             "throughout, reward_std 0 to step 32 and at most 0.144; the gradient norm 0 on the first eight logs, at "
             "most 0.08 over steps 36-92 but for 2.6 at 72, then 2.0 and 4.0 at 96 and 100; entropy 0.36-0.44 "
             "throughout; the KL at most 0.067; the mean length 5.2-5.85 tokens, nothing clipped; a known word of the "
             "asked category on 360 of the 360 samples over steps 1-30, 358 over 31-60 and 354 over 61-90; the answers "
             "as varied as the taught model's (a group's duplicate share 0.14-0.21 as 30-step means), the target words "
             "no more often than at first (23 of 360 samples over steps 1-30 and 29 of 360 over 61-90)).",
             rewards=("is_word",), steps=100,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=0.7, beta=0.02,
                       learning_rate=3e-4, logging_steps=4, seed=276),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.75, run=5, smooth=5)},
             accepted=("REWARD_PLATEAU",), batch=28),
    # -- batch 29 --
    # A twenty-seventh fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), one retrained over
    # a longer run, none re-labelled or re-dated: a binary exact-match reward with groups of 2, 4 and 6, partial credit
    # with one group of 8 and with groups of 6, the judge score with RLOO and groups of 4 and with groups of 5, three
    # components with groups of 6, the list questions with a per-word reward under RLOO; healthy runs with and without a
    # KL term that learn (three groups of 4 with BNPO at temperature 0.7, the number's target never said and the tree's
    # answer deformed, its KL accepted; RLOO on the judge score read from trainer_state.json, the animal's target never
    # learnt, its gradient-norm spikes accepted; three components at temperature 1.1; the judge score with the original
    # GRPO loss and a warm-up into a cosine decay), learn slowly (partial credit with BNPO and one group of 8 over 240
    # steps at 1.5e-4 in TRL 0.14's key set), converge on five questions of eight without a KL term with Dr. GRPO and
    # four groups of 2 logged every step; a KL blow-up on exact match with Dr. GRPO after a warm-up into 3e-3 at
    # temperature 1.1, an entropy collapse onto one looped string under a reward that says nothing with the original
    # GRPO loss at temperature 0.7 (the answers ran to the budget first), a letter proxy gamed against the judge score
    # with BNPO in TRL 0.14's key set, a per-character bonus beside the category with Dr. GRPO and groups of 3, a grader
    # outage after learning on partial credit read from trainer_state.json, a reward plateau from a half key with the
    # original GRPO loss and groups of 3, a per-word reward on the list questions with RLOO (written over 150 steps,
    # whose repetition was only beginning; retrained over 250), a key written with capitals that nothing matches, with
    # Dr. GRPO at temperature 1.2; strides 1-10, temperatures 0.7-1.2, learning rates 1.5e-4 to 3e-3, loss types grpo,
    # dr_grpo, dapo and bnpo, seeds 277-290. Each expectation was written from the mechanism before the run was trained
    # (committed first), then checked on the raw log and the recorded completions only, never against the doctor: every
    # pathology written happened (the repetition once retrained), every healthy run learnt, and every onset rule written
    # before training found its onset; the accepted signatures added or dropped after training each carry their raw-log
    # numbers. As in batches 9-27, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning.
    # Accepts KL_BLOWUP (not written before training): the KL above 1 on 15 of the 37 logs, 1.01-2.48 on every log over
    # steps 32-64 (2.48 at 60), 2.06 at 108 and 1.64 at 112, a median of 0.91, as the learnt answers took over and the
    # tree's answer deformed into non-words.
    Scenario("healthy_binary_bnpo_3x4_kl_cool07_log4", "Exact match alone, three groups of 4 a step sampled at "
             "temperature 0.7, the BNPO loss, a KL penalty of 0.02 and a learning rate of 5e-4, 150 steps logged every "
             "4: a fresh model is right about one time in ten, the groups that disagree carry the signal, and the "
             "target words are learnt question by question: a run that learns (raw log and samples: the reward 0.083 "
             "and 0.146 over the first two logs, 30-step means of 0.26, 0.47, 0.80, 0.69 and 0.70, 0.58-0.98 over the "
             "last five logs; the zero-variance share 0.33-1, its 30-step means 0.58, 0.75, 0.76, 0.87 and 0.94; "
             "entropy 0.41 and 0.38 over the first two logs, 30-step means of 0.35, 0.23, 0.11, 0.12 and 0.11; the KL "
             "0.0007 and 0.06 over the first two logs, 1.01-2.48 over steps 32-64, 0.42-2.06 after, a median of 0.91; "
             "the gradient norm a median of 0.26, at most 7.6 (step 56); the mean length 4.3-6.2 tokens, the clipped "
             "share at most 0.08 (step 44); the tool's and the fruit's targets first ('hammer' on 31 of 48, 'lemon' on "
             "27 of 64 samples over steps 1-30), the colour's and the drink's over 31-60 ('pink' on 33 of 40, 'juice' "
             "on 62 of 68), the bird's and the animal's over 61-90 ('swan' on 57 of 76, 'pig' on 58 of 68, after 'p' "
             "on 15 of 20 over 31-60); the number's 'four' never said (0 of its 200 samples, its answers other "
             "numbers); the tree's answer deformed from step 31 into non-words ('ak', 'ane', 'ake'; a word of the "
             "category on 3 of its 180 samples over steps 31-150); the other six questions on their targets on 94-100 "
             "% of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.7, loss_type="bnpo", beta=0.02,
                       learning_rate=5e-4, logging_steps=4, seed=277), accepted=("KL_BLOWUP",), batch=29),
    # Accepts GRAD_NORM_SPIKE (not written before training): RLOO's advantages are not normalised and the judge scores
    # 0-10, so a group with a non-word beside words of the category moves the gradient far: the norm 277 at step 27, 24
    # times its median over the run (11.8), 176 at 99 and 134 at 108, 0-23 on every other log.
    Scenario("healthy_rloo_judge_2x4_temp09_nosamples_log9", "RLOO with its KL penalty (0.05), the 0-10 judge score, "
             "two groups of 4 a step sampled at temperature 0.9 and a learning rate of 4e-4, 150 steps logged every 9 "
             "and read from TRL's trainer_state.json (no samples): the taught answers already earn most of the score, "
             "the leave-one-out baseline carries the signal of the groups that find the target, and the target words "
             "are learnt: a run that learns (raw log and samples, which the doctor is not given: the score 7.11 and "
             "6.86 over the first two logs, 30-step means of 6.81, 7.57, 7.83, 8.33 and 8.60, 8.0-8.9 over the last "
             "five logs; the zero-variance share 0-0.56, its 30-step means 0.02, 0.09, 0.25, 0.41 and 0.44; entropy "
             "0.43 and 0.46 over the first two logs, 30-step means of 0.45, 0.38, 0.32, 0.26 and 0.22; the KL a median "
             "of 0.26, at most 0.44; the gradient norm a median of 11.8, 277 at step 27, 176 at 99 and 134 at 108; the "
             "mean length 5.2-5.8 tokens, the clipped share at most 0.014; a word of the asked category on 224 of the "
             "240 samples over steps 1-30 and 231 of 240 over 121-150; the bird's, the fruit's and the number's "
             "targets first ('swan' on 24 of 32, 'lemon' on 20 of 28, 'four' on 31 of 44 samples over steps 31-60), "
             "the drink's and the tool's over 61-120 ('juice' on 25 of 36 over 61-90, 'hammer' on 16 of 20 over "
             "91-120), the tree's late ('ash' on 9 of 32 over 91-120 and 21 of 24 over 121-150), the colour's in part "
             "('pink' on 14 of 56 over 121-150), the animal's 'pig' never learnt (4 of its 144 samples, its answers "
             "other animals)).",
             algorithm="rloo", rewards=("judge",), steps=150,
             args=dict(temperature=0.9, learning_rate=4e-4, logging_steps=9, seed=278), source="trainer_state",
             accepted=("GRAD_NORM_SPIKE",), batch=29),
    Scenario("healthy_slow_partial_bnpo_1x8_lr15e5_oldkeys_log10", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), one group of 8 a step (one question asked a step), the BNPO loss, a KL penalty "
             "of 0.03 and a learning rate of 1.5e-4, 240 steps logged every 10 and read in TRL 0.14's key set (no "
             "zero-variance share, entropy or clipped share): the category is given already, and the target words are "
             "learnt slowly over the whole run: a slow learner (raw log and samples: the reward 0.21 and 0.275 over "
             "the first two logs, 30-step means of 0.28, 0.28, 0.49, 0.58, 0.70, 0.81, 0.94 and 0.97 of a possible "
             "1.2, 0.86-1.01 over the last five logs; exact match 0.025 and 0.0875 over the first two logs, 30-step "
             "means of 0.09, 0.10, 0.30, 0.40, 0.52, 0.63, 0.75 and 0.78; the category 0.84-0.975; the zero-variance "
             "share, which the doctor is not given, 0 on every log (one group of 8 with partial credit never "
             "agreeing); entropy, not given either, 0.47 and 0.48 over the first two logs, 30-step means of 0.46, "
             "0.48, 0.45, 0.42, 0.39, 0.32, 0.23 and 0.21; the KL rising steadily, 30-step means of 0.007, 0.02, 0.07, "
             "0.16, 0.25, 0.35, 0.42 and 0.33, at most 0.45; the gradient norm a median of 1.6, at most 11.5 (step "
             "140); the mean length 4.9-5.6 tokens, nothing clipped; the colour's target first ('pink' on 39 of 56 "
             "samples over steps 61-90), the fruit's, the number's and the tree's over 91-180 ('lemon' on 35 of 56 "
             "over 91-120, 'four' on 27 of 48 and 'ash' on 20 of 32 over 121-150), the bird's, the drink's and the "
             "tool's later ('swan' on 14 of 24 over 151-180, 'juice' on 31 of 40 over 181-210, 'hammer' on 28 of 40 "
             "over 211-240), the animal's in part ('pig' on 22 of 56 over steps 181-240); the other seven questions on "
             "their targets on 67-97 % of their samples over steps 181-240).",
             weights=(1.0, 0.2), steps=240,
             args=dict(num_generations=8, loss_type="bnpo", beta=0.03, learning_rate=1.5e-4, logging_steps=10,
                       seed=279), source="old_keys", batch=29),
    Scenario("healthy_converges_drgrpo_nokl_binary_4x2_cool08_log1", "Exact match alone, four groups of 2 a step "
             "sampled at temperature 0.8, the Dr. GRPO loss, no KL term and a learning rate of 5e-4, 150 steps logged "
             "every step: the pairs that disagree carry the signal, and with no anchor the learnt answers take over "
             "and the pairs come to agree, solved; per-step means of 8 samples are noisy: a run that converges (raw "
             "log and samples: the reward 0 over the first two steps, 30-step means of 0.34, 0.60, 0.71, 0.63 and 0.69 "
             "(0-1 on single steps); the zero-variance share 30-step means of 0.68, 0.73, 0.84, 0.85 and 0.91; entropy "
             "0.39 and 0.41 over the first two steps, 30-step means of 0.34, 0.28, 0.19, 0.20 and 0.16; no KL logged; "
             "the gradient norm 0 on 66 of the 150 steps (every pair agreeing), a median of 0.25, at most 3.87 (step "
             "100); the mean length 4.25-6.9 tokens, the clipped share at most 0.125 (step 105); the fruit's and the "
             "tree's targets first ('lemon' on 25 of 40, 'ash' on 32 of 46 samples over steps 1-30), the colour's, the "
             "drink's, the number's and the tool's over 31-60 ('pink' on 20 of 28, 'juice' on 18 of 20, 'four' on 30 "
             "of 36, 'hammer' on 25 of 46); the animal's 'pig' never learnt (2 of its 152 samples; 'piose', 'zebra', "
             "'horse'), nor the bird's 'swan' (10 of 130; 'heron', 'hen'); the tool's 'hammer' deformed into 'hamer' "
             "at the end (18 of its 28 samples over steps 121-150, 'hammer' on 7); the colour, drink, fruit, number "
             "and tree on their targets on 91-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, temperature=0.8, loss_type="dr_grpo", beta=0.0, learning_rate=5e-4,
                       seed=280), batch=29),
    Scenario("healthy_three_components_2x6_kl_hot11_log3", "Three components, exact match (1), a word of the asked "
             "category (0.3) and one known word (0.2), two groups of 6 a step sampled at temperature 1.1, TRL's "
             "default (DAPO) loss, a KL penalty of 0.03 and a learning rate of 4e-4, 150 steps logged every 3: the "
             "format and the category are mostly earned already, hot sampling garbles some answers, which the two "
             "small components mark down, and the target words are learnt: a run that learns (raw log and samples: the "
             "reward 0.58 and 0.60 over the first two logs, 30-step means of 0.62, 0.79, 0.99, 1.21 and 1.28 of a "
             "possible 1.5, 1.22-1.43 over the last five logs; exact match 0.11 over the first two logs, 30-step means "
             "of 0.17, 0.35, 0.54, 0.76 and 0.83; the category and the known word 0.69-0.97, medians of 0.89; the "
             "zero-variance share 0-0.83, its 30-step means 0.27, 0.22, 0.28, 0.45 and 0.52; entropy 0.49 and 0.51 "
             "over the first two logs, 30-step means of 0.51, 0.46, 0.35, 0.25 and 0.20; the KL a median of 0.28, 1.13 "
             "at step 117 and at most 0.63 on every other log; the gradient norm a median of 1.7, at most 12.7 (step "
             "111); the mean length 4.6-6.1 tokens, the clipped share at most 0.03; the colour's, the tool's and the "
             "tree's targets first ('pink' on 26 of 36, 'hammer' on 17 of 24, 'ash' on 41 of 48 samples over steps "
             "31-60), the fruit's and the animal's over 61-120 ('lemon' on 41 of 54 over 61-90, 'pig' on 24 of 60 over "
             "61-90 and 31 of 36 over 91-120), the bird's and the drink's over 91-120 ('swan' on 43 of 60, 'juice' on "
             "31 of 36), the number's last ('four' on 12 of 48 over 91-120 and 35 of 60 over 121-150); the bird's "
             "answer garbled in part at the end ('swan' on 11 of 24, 'uck' on 5 over steps 121-150); the colour, "
             "drink, fruit, tool, tree and animal on their targets on 80-98 % of their samples over steps 121-150).",
             rewards=("correct", "in_category", "is_word"), weights=(1.0, 0.3, 0.2), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, beta=0.03,
                       learning_rate=4e-4, logging_steps=3, seed=281), batch=29),
    Scenario("healthy_judge_grpo_loss_cosine_2x5_kl_temp09_log2", "The 0-10 judge score, two groups of 5 a step "
             "sampled at temperature 0.9, the original GRPO loss, a KL penalty of 0.04 and a 15-step warm-up into a "
             "learning rate of 5e-4 decayed on a cosine to 0, 150 steps logged every 2: the target words are learnt "
             "while the rate is high and the run settles as it decays: a run that learns (raw log and samples: the "
             "learning rate 3.3e-5 at step 2, 5e-4 at 15 and decaying after; the score 7.15 over the first three logs, "
             "30-step means of 7.19, 7.52, 8.38, 8.83 and 8.46, 8.5-9.55 over the last five logs; the zero-variance "
             "share 0-1, its 30-step means 0.42, 0.18, 0.35, 0.47 and 0.40; entropy 0.41 and 0.51 over the first two "
             "logs, 30-step means of 0.44, 0.30, 0.26, 0.20 and 0.25; the KL a median of 0.30, 3.33 at step 50 (a "
             "single log), 1.42 at 136 and 1.2 at 144, at most 0.92 on every other log; the gradient norm a median of "
             "1.86, at most 13.5 (step 64); the mean length 4.65-6.95 tokens, the clipped share at most 0.1 (step 32); "
             "the tool's and the colour's targets first ('hammer' on 71 of 95, 'pink' on 45 of 55 samples over steps "
             "31-60), the fruit's, the bird's and the drink's over 31-90 ('lemon' on 31 of 35, 'swan' on 41 of 50, "
             "'juice' on 40 of 45 over 61-90), the number's over 61-150 ('four' on 29 of 65, 38 of 65 and 26 of 30), "
             "the animal's in part ('pig' on 16 of 60 over steps 121-150), the tree's 'ash' seldom (14 of its 160 "
             "samples; 'palm', 'elm', 'pine'); a word of the asked category on 285 of the 300 samples over steps 1-30, "
             "247 over 31-60 (non-words as the answers moved) and 275-287 over each 30 steps after).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.9, loss_type="grpo",
                       beta=0.04, learning_rate=5e-4, warmup_steps=15, lr_scheduler_type="cosine", logging_steps=2,
                       seed=282), batch=29),
    Scenario("kl_blowup_binary_drgrpo_warmup15_2x6_hot11_log5", "Exact match alone, two groups of 6 a step sampled at "
             "temperature 1.1, the Dr. GRPO loss, a KL penalty of 0.05 and a 15-step warm-up (constant_with_warmup) "
             "into a learning rate far too high (3e-3), 120 steps logged every 5: once the rate is up each update "
             "overshoots and the policy runs away from its reference faster than the penalty pulls it back: the KL "
             "blows up, well above the 0.1-0.8 of the corpus's healthy runs (raw log and samples: the KL 0.004, 0.17 "
             "and 0.98 over the first three logs (steps 5-15), 1.03 at 20, 1.41-2.01 over 25-35 and 2.4-5.6 on every "
             "log from 40 (5.6 at 105), a median of 3.04; exact match 0.08 and 0.13 over the first two logs, 0-0.33 to "
             "step 60 ('four' said for the number for a while) and 0 on every log from 65 but one (0.03 at 100); the "
             "zero-variance share, its 24-step means 0.63, 0.84, 0.88, 1 and 0.96; entropy 0.50 and 0.61 over the "
             "first two logs, 0.68-1.0 over steps 15-105 and 1.46-1.50 over the last three logs; the mean length 5.5 "
             "and 5.6 tokens over the first two logs and 3.2-4.3 over steps 60-100, the clipped share at most 0.07; "
             "the gradient norm a median of 0.32, at most 5.7 (step 105); words of the category at first (a word of "
             "the asked category on 168 of the 288 samples over steps 1-24), then fragments ('swa', 'leon', 'oan'; 39 "
             "of 288 over 25-48), 'four' for the number and 'swan' for the bird kept a while (20 of 54 and 11 of 24 "
             "over 49-72), then non-words for every question ('', 'mmmm', 'wwwn', 'sw'; 2 of the 576 samples over "
             "steps 73-120 in the category)).",
             rewards=("correct",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=1.1, loss_type="dr_grpo",
                       beta=0.05, learning_rate=3e-3, warmup_steps=15, lr_scheduler_type="constant_with_warmup",
                       logging_steps=5, seed=283),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "REWARD_PLATEAU"), batch=29),
    # LENGTH_COLLAPSE, accepted before training, dropped: the mean length 5.54 and 6.17 tokens over the first two logs,
    # 3.04 at step 45 (a single log) and 12 (the budget) on every log from 69 to 102, 9.75-12 after.
    Scenario("entropy_collapse_coin_grpo_loss_nokl_2x4_cool07_log3", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), two groups of 4 a step sampled at temperature 0.7, the original GRPO loss, "
             "no KL term and a learning rate of 2e-3, 120 steps logged every 3: the advantages are noise, and with no "
             "anchor the policy drifts onto one completion per question while the coin stays at chance: entropy falls "
             "far below where it started, and a group's four samples become copies of one another (raw log and "
             "samples: entropy 0.40 and 0.55 over the first two logs (a first-2-log median of 0.48), 0.58-0.68 over "
             "steps 9-24, 0.25-0.58 over 27-63, 0.084 at 66, 0.002-0.07 over 69-99, 0.33 at 102 and 0.0001-0.13 after, "
             "24-step means of 0.59, 0.42, 0.21, 0.005 and 0.077; the coin 0.25-0.67, 24-step means of 0.45-0.54; the "
             "zero-variance share 0-0.5, a median of 0.17; no KL logged; the gradient norm a median of 1.8, at most 15 "
             "(step 36), below 1e-6 on the last three logs; the mean length 5.54 and 6.17 tokens over the first two "
             "logs, 3.0-11.6 over steps 9-66, 12 (the budget) on every log from 69 to 102 and 9.75-12 after, the "
             "clipped share 1 over 69-102; words and near-words at first (a word of the asked category on 57 of the "
             "192 samples over steps 1-24), fragments and loops over 25-48 ('pa', 'rannne', 'plmplmpmmmmm'; 2 of 192 "
             "in the category), then one string for every question ('mmmmmmmmmmmm' on 190 of the 192 samples over "
             "steps 73-96), 'uuuuuuuuuuuu' and its variants beside it over 97-120; a group's completions copies (a "
             "duplicate share of 0.23 over steps 1-24, 0.42, 0.60, 0.99 and 0.79 after)).",
             rewards=("coin",), steps=120,
             args=dict(temperature=0.7, loss_type="grpo", beta=0.0, learning_rate=2e-3, logging_steps=3, seed=284),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS"), batch=29),
    Scenario("reward_hacking_letter_o_judge_bnpo_3x4_oldkeys_log4", "The 0-10 judge score scaled by 0.1 (a word of the "
             "category 0.7, the target 1) beside a cheap proxy, the share of the letter o (weight 3, task.py's "
             "letter_o), so that a string of o's (3) pays more than any word, three groups of 4 a step, the BNPO loss, "
             "a KL penalty of 0.01 and a learning rate of 1.5e-3, 120 steps logged every 4 and read in TRL 0.14's key "
             "set: the policy games the proxy, and the judge score, which the taught answers earn at about 7 of 10, "
             "falls as the o's rise (raw log and samples: the judge score 7.02 at step 4, 3.85 at 8, 2.9 at 12, 1.87 "
             "at 16, 0.44 at 20 and 0 on every log from 24; the proxy 0.096 at step 4, 0.24-0.25 over 8-16, 0.38 at "
             "20, 0.76 at 24, 0.98 at 28 and 0.997-1 from 32; the reward 0.99 and 1.09 over the first two logs and 3 "
             "(its maximum) from 32; o-words and o-strings from the start ('goo', 'ooon', 'on', 'oan', 'oak', 'cocoa'; "
             "a word of the asked category on 106 of the 288 samples over steps 1-24), then 'oooooooooooo' to the "
             "budget for every question from about step 25 (none a word after step 24); the zero-variance share 0 and "
             "0.08 over the first two logs and 0.83-1 from 32; entropy 0.51 over the first two logs, 0.26 at 24 and "
             "0.0025-0.006 from 32; the KL 0.03 and 0.65 over the first two logs, 1.27 at 12, 2.78 at 20 and 5.9-10.4 "
             "from 28; the gradient norm 2.2-7.6 over steps 4-28 and at most 0.21 from 32; the mean length 5.25 and "
             "5.77 tokens over the first two logs and 12 (the budget) from 32, the clipped share 1 there; a group's "
             "completions copies (a duplicate share of 0.39 over steps 1-24 and 0.96-1 after)).",
             rewards=("judge", "letter_o"), weights=(0.1, 3.0), steps=120,
             args=dict(per_device_train_batch_size=12, loss_type="bnpo", beta=0.01, learning_rate=1.5e-3,
                       logging_steps=4, seed=285), source="old_keys",
             expect={"REWARD_HACKING": hacked_from("rewards/judge/mean", "rewards/letter_o/mean", first=1, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "KL_BLOWUP"), batch=29),
    Scenario("length_explosion_char_bonus_category_drgrpo_nokl_4x3_log3", "A word of the asked category (1) beside a "
             "bonus paid per character (0.8, task.py's length_bonus: 20 characters pay 2, more than any word with its "
             "bonus), four groups of 3 a step, the Dr. GRPO loss, no KL term, a learning rate of 1e-3 and a 20-token "
             "budget, 120 steps logged every 3: the longest answer of a group keeps winning, so the answers grow to "
             "the budget and get cut (raw log and samples: the mean length 4.97 and 5.78 tokens over the first two "
             "logs (a first-2-log median of 5.38), 5.3-6.3 to step 30, 6.7-7.8 over 33-42, 11.6 at 45, 16.3 at 48, "
             "18.8-19.8 over 51-57 and 20 (the budget) on every log from 60; the clipped share 0 to step 36, 0.03 at "
             "39-42, 0.28 at 45, 0.56 at 48, 0.81-0.92 over 51-57 and 1 from 60; the category 0.97 and 0.94 over the "
             "first two logs, 0.47-0.89 over steps 9-42, 0.42 at 45, 0.17 at 48 and 0 from 54; the length bonus 0.50 "
             "and 0.60 over the first two logs and 2.5 from 60; the reward 1.37 and 1.42 over the first two logs and 2 "
             "from 60; the zero-variance share 0-0.33 to step 48 and 1 on every log from 69 (every group at the "
             "budget); entropy 0.51 and 0.44 over the first two logs, 0.36-0.48 to step 42, 0.52-0.64 over 45-54 and "
             "0.72-0.93 from 57; no KL logged; the gradient norm at most 1.77 (step 39) and 0 from 60; words of the "
             "category at first (a word of the asked category on 243 of the 288 samples over steps 1-24), longer words "
             "and run-on words over 25-48 ('cherry', 'spruce', 'shoredowl'; 173 of 288), words strung to the budget "
             "over 49-72 ('seven seven eight ze', 'wrench rednsh spader'; 2 of 288), then strings of s's, e's, h's and "
             "p's to the budget for every question from 73 ('seseseshshsssspshsse'), no two alike in a group (a "
             "duplicate share of 0 from step 49)).",
             rewards=("in_category", "length_bonus"), weights=(1.0, 0.8), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=20,
                       loss_type="dr_grpo", beta=0.0, learning_rate=1e-3, logging_steps=3, seed=286),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU", "ENTROPY_EXPLOSION"), batch=29),
    Scenario("reward_collapse_outage_partial_2x6_kl_nosamples_log8", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), two groups of 6 a step, TRL's default (DAPO) loss, a KL penalty of 0.02 and a "
             "learning rate of 6e-4, 160 steps logged every 8 and read from TRL's trainer_state.json (no samples); "
             "from the 100th reward call to the end the grader answers 0 for everything (swap to task.py's nothing: a "
             "service timing out, its client defaulting to 0), after the target words were learnt: the reward falls "
             "from its learnt level to 0 and stays there (raw log and samples, which the doctor is not given: the "
             "reward 0.30 and 0.315 over the first two logs, 0.42-0.73 over steps 24-48, 0.69-1.02 over 56-96 (1.02 at "
             "96, its highest), 0.32 at 104 (the log of steps 97-104, the outage's first call at 100) and 0 on every "
             "log from 112 to the end; exact match 0.115 at the first log, 0.54-0.84 over 56-96 and 0 from 112; the "
             "category 0.75-0.93 before the outage; reward_std 0 from 112; the zero-variance share 0-0.31 before, "
             "0.625 at 104 and 1 from 112; entropy 40-step means of 0.46, 0.32, 0.18 and 0.22; the KL a median of "
             "0.49, at most 0.86 (step 152); the gradient norm 0.003-6.5 before, a median of 0.48 over the run, and at "
             "most 0.28 from 104; the mean length 5.1-5.9 tokens, nothing clipped; the fruit's, the drink's, the "
             "tree's, the tool's and the number's targets learnt by step 80 ('lemon' on 55 of 60, 'juice' on 48 of 66, "
             "'ash' on 60 of 72, 'hammer' on 43 of 54, 'four' on 40 of 54 samples over steps 41-80), the colour's, the "
             "bird's and the animal's over 81-120 ('pink' on 57 of 60, 'swan' on 18 of 24, 'pig' on 36 of 78); after "
             "the outage the learnt words still said ('lemon' on 47 of 48, 'ash' on 58 of 60, 'pig' on 56 of 66 "
             "samples over steps 121-160), all scored 0).",
             weights=(1.0, 0.2), steps=160, swap=(100, 100_000, "nothing"),
             args=dict(per_device_train_batch_size=12, num_generations=6, beta=0.02, learning_rate=6e-4,
                       logging_steps=8, seed=287), source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.6, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=29),
    Scenario("reward_plateau_half_key_grpo_loss_4x3_kl_log6", "Exact match graded against a key half of whose words "
             "the model can say (task.py's correct_half_key), four groups of 3 a step, the original GRPO loss, a KL "
             "penalty of 0.02 and a learning rate of 6e-4, 240 steps logged every 6: the learnable half is learnt and "
             "its groups come to agree, solved, while the other half's groups agree on 0 from the start; the reward "
             "rises to about half its best and stays there (raw log and samples: the reward 0.125 and 0.083 over the "
             "first two logs, 40-step means of 0.23, 0.39, 0.43, 0.50, 0.51 and 0.47, 0.36-0.63 over the last 10 logs, "
             "0.625 at its highest (steps 180 and 234), its mean over the last quarter 0.46, where the learnable half "
             "gives 0.5 on average; the zero-variance share 0.58-1, its 40-step means 0.74, 0.89, 0.87, 0.90, 0.93 and "
             "0.98; entropy 40-step means of 0.45, 0.40, 0.37, 0.30, 0.30 and 0.34; the KL a median of 0.43, 1.05 at "
             "step 78 and at most 0.82 on every other log; the gradient norm a median of 0.19, at most 5.1 (step 102); "
             "the mean length 5.2-5.9 tokens, the clipped share at most 0.04; the colour's and the animal's targets "
             "first ('pink' on 53 of 87, 'pig' on 31 of 51 samples over steps 1-40), the fruit's and the number's over "
             "41-80 ('lemon' on 51 of 57, 'four' on 52 of 69), those four on their targets on 97-100 % of their "
             "samples over steps 201-240; the other four questions never scoring, their key words never taught ('yew' "
             "for the tree, 'punch' for the drink, 'vise' for the tool, 'wren' for the bird), their answers varied "
             "words of the category ('pine', 'coffee', 'pliers', 'finch'); a group's duplicate share 0.28-0.58 as "
             "40-step means).",
             rewards=("correct_half_key",), steps=240,
             args=dict(per_device_train_batch_size=12, num_generations=3, loss_type="grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=6, seed=288),
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS",), batch=29),
    # Retrained after its first training (its configuration changed; the expected signature, onset rule and seed
    # unchanged): written over 150 steps, whose samples showed the repetition only beginning: the lists that repeat a
    # word (3+ words, at most half distinct) 2, 13, 21, 47 and 50 of every 240 samples over 30 steps (21 % at the end),
    # repeated_words_mean finding no onset. Tried in a scratch folder: a learning rate of 1.5e-3 (every question onto
    # one string, 'gray gray gray ...', by step 100, the lists at the budget and the groups copies); retrained over 250
    # steps, everything else as written: the run is the same to step 150 and the repetition keeps growing to 38-40 % of
    # the lists. GROUP_MODE_COLLAPSE, ZERO_ADVANTAGE_GROUPS and REWARD_PLATEAU, accepted before training, dropped: a
    # group's duplicate share 0-0.10 as 50-step means, the zero-variance share 0 on 46 of the 50 logs and at most 0.3,
    # the reward still rising to step 215 (25-step means of 2.57 over steps 1-25, 3.29 over 101-125 and 4.07 over
    # 201-225).
    Scenario("repetition_word_count_lists_rloo_2x4_long_log5", "RLOO with its KL penalty (0.05), the list questions "
             "with a "
             "reward paid per known word said, repeats included (task.py's word_count), two groups of 4 a step, a "
             "learning rate of 8e-4 and a 32-token budget, 250 steps logged every 5: a short word said over and over "
             "fits the most words into the budget, so the lists turn into one short word repeated (raw log and "
             "samples: the lists that repeat a word (3+ words, at most half distinct) 1 of the 200 samples over steps "
             "1-25, 8 over 26-50, 15 over 51-75, 22 over 76-100, 43 over 101-125, 44 over 126-150, 59 over 151-175, 81 "
             "over 176-200, 76 over 201-225 and 75 over 226-250; 'nine nine nine nine nine nine ni' for the numbers "
             "(20 of the 200 samples over steps 176-200), 'raven raven nine nine nine nine' for the birds, 'blue blue "
             "blue blue', 'tea tea tea tea', 'saw saw saw saw', 'cedar cedar cedar'; the numbers' lists repeating on "
             "67 of their 76 samples and the birds' on 53 of 76 over steps 176-250; the reward, known words said, 2.3 "
             "and 2.5 over the first two logs, 25-step means of 2.57, 2.38, 2.35, 3.03, 3.29, 2.85, 3.48, 3.79, 4.07 "
             "and 3.75, 4.9 at its highest (step 235); the mean length 15.2 and 20.1 tokens over the first two logs "
             "and 16-28.4 after, the clipped share 0.025-0.65 (0.5-0.65 on most logs over steps 175-220); entropy 0.56 "
             "and 0.62 over the first two logs, 25-step means of 0.63, 0.61, 0.57, 0.51, 0.52, 0.48, 0.46, 0.32, 0.36 "
             "and 0.29; the KL 0.075 and 0.31 over the first two logs, 0.45-0.92 over steps 15-90 and 1.04-2.31 on "
             "every log from 95 to 240 (2.31 at 115); the gradient norm, RLOO's advantages not normalised, a median of "
             "71, 18.8-255; the zero-variance share 0 on 46 of the 50 logs; a group's duplicate share 0-0.10 as "
             "50-step means).",
             algorithm="rloo", prompts="lists", rewards=("word_count",), steps=250,
             args=dict(max_completion_length=32, learning_rate=8e-4, logging_steps=5, seed=289),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "KL_BLOWUP"), batch=29),
    Scenario("zero_advantage_capitalized_key_drgrpo_2x5_hot12_log2", "Exact match graded against an answer key written "
             "with capitals ('Pear'; task.py's correct_capitalized), which the lowercase vocabulary can never produce, "
             "two groups of 5 a step sampled at temperature 1.2, the Dr. GRPO loss, a KL penalty of 0.02 and a "
             "learning rate of 5e-4, 100 steps logged every 2: no completion can match, every group agrees on 0 from "
             "the start and there is nothing to learn from; the run is stuck (raw log and samples: the reward 0 on "
             "every one of the 50 logs, the zero-variance share 1 on every log, the gradient norm and the KL 0 on "
             "every log (no group ever disagreed, so the policy never left its reference); entropy 0.49-0.62; the mean "
             "length 4.95-6.15 tokens, the clipped share at most 0.05; the answers the taught words to the end (a word "
             "of the asked category on 907 of the 1,000 samples: 'heron', 'soda', 'maple'), none with a capital, a "
             "group's completions sometimes alike (a duplicate share of 0.17-0.22 over each 30 steps)).",
             rewards=("correct_capitalized",), steps=100,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=1.2, loss_type="dr_grpo",
                       beta=0.02, learning_rate=5e-4, logging_steps=2, seed=290),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=29),
    # -- batch 30 --
    # A twenty-eighth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), one retrained
    # at another temperature (and renamed), none re-labelled or re-dated: a binary exact-match reward with five
    # groups of 2 and with groups of 4, partial credit with RLOO and groups of 3 and with Dr. GRPO on unscaled
    # rewards, the judge score with BNPO, with Dr. GRPO and two optimisation passes a generation, and with RLOO, a
    # binary reward on the list questions with RLOO; healthy runs with and without a KL term that learn (five groups
    # of 2 with a warm-up into a linear decay, the animal's target never said; RLOO with partial credit in TRL
    # 0.14's key set, the bird's answer lost at the end, its KL and gradient-norm spikes accepted; the list
    # questions naming their target with RLOO, the target said over and over, its repetition accepted; the judge
    # score with one group of 6 and two passes a generation (written at temperature 1.1, whose run did not learn;
    # retrained at 0.9)), learn slowly (the judge score with BNPO over 240 steps at 2e-4 read from
    # trainer_state.json), converge on seven questions of eight without a KL term with groups of 4 logged every
    # step; a KL blow-up on the judge score with RLOO after a warm-up into 3e-3 in TRL 0.14's key set that ended on
    # the empty answer, an entropy collapse onto the empty answer under a reward that says nothing with groups of 3,
    # an entropy explosion under a reward paying for distinct letters with BNPO and a small KL term, a letter proxy
    # gamed against a format reward beside exact match with groups of 5, an answer key joined off by one after
    # learning with BNPO read from trainer_state.json, a brevity reward beside the category with Dr. GRPO and groups
    # of 6, a keyword-count reward on the list questions with RLOO (the other questions' lists shrank to fragments,
    # a length collapse accepted), a unit bug in one batch of Dr. GRPO's unscaled partial credit; strides 1-10,
    # temperatures 0.75-1.2, learning rates 2e-4 to 3e-3, loss types dapo, dr_grpo and bnpo beside RLOO, seeds
    # 291-304. Each expectation was written from the mechanism before the run was trained (committed first), then
    # checked on the raw log and the recorded completions only, never against the doctor: every pathology written
    # happened, every onset rule written before training found its onset (none re-dated), every healthy run learnt
    # once the one was retrained; the accepted signatures the log contradicts were dropped and those added after
    # training carry their raw-log numbers. As in batches 9-29, the healthy binary runs accept no
    # ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_binary_linear_warmup_5x2_kl_temp09_log3_b30", "Exact match alone, five groups of 2 a step "
             "sampled at temperature 0.9, TRL's default (DAPO) loss, a KL penalty of 0.03 and a 10-step warm-up into a "
             "learning rate of 6e-4 decayed linearly to 0, 150 steps logged every 3: a fresh model is right about one "
             "time in ten, the pairs that disagree carry the signal, and the target words are learnt while the rate is "
             "high; the run settles as it decays: a run that learns (raw log and samples: the learning rate 1.2e-4 at "
             "step 3, 6e-4 at 12 and 4.3e-6 at 150; the reward 0.133 over the first two logs, 30-step means of 0.18, "
             "0.53, 0.67, 0.77 and 0.79, 0.57-0.9 over the last 10 logs; the zero-variance share 0.53-0.93, its "
             "30-step means 0.76, 0.67, 0.79, 0.83 and 0.83 (a pair agrees by chance on most steps); entropy 0.447 and "
             "0.443 over the first two logs, 30-step means of 0.50, 0.36, 0.26, 0.19 and 0.17; the KL a median of "
             "0.50, at most 0.89 (step 90); the gradient norm a median of 0.60, at most 5.98 (step 114); the mean "
             "length 4.9-5.9 tokens, nothing clipped; the colour's target first ('pink' on 19 of 42 samples over steps "
             "1-30 and 36 of 40 over 31-60), the fruit's, the number's, the tree's and the bird's over 31-60 ('lemon' "
             "on 23 of 32, 'four' on 26 of 38, 'ash' on 24 of 36, 'swan' on 21 of 36), the drink's and the tool's over "
             "31-90 ('juice' on 16 of 58 and 17 of 24, 'hammer' on 12 of 32 and 20 of 34); the animal's 'pig' never "
             "said (0 of its 190 samples; 'horse', 'dog', 'zebra'); the other seven questions on their targets on "
             "81-97 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=2, temperature=0.9, beta=0.03,
                       learning_rate=6e-4, warmup_steps=10, lr_scheduler_type="linear", logging_steps=3, seed=291),
             batch=30),
    # Accepts KL_BLOWUP and GRAD_NORM_SPIKE (not written before training): the KL above 1 on 5 of the 37 logs (2.61
    # at step 116, 1.02-1.26 on four of the last nine logs), its 30-step means 0.92 and 0.99 over the last 60 steps,
    # as the bird's answer ran into 'uck'; the gradient norm, RLOO's advantages not normalised, 199 at step 68 (43
    # times its median over the run, 4.6), 94 at 140 and 81 at 76.
    Scenario("healthy_rloo_partial_3x3_cool08_oldkeys_log4_b30", "RLOO with its KL penalty (0.05), partial credit, "
             "exact match (1) beside a word of the asked category (0.2), three groups of 3 a step sampled at "
             "temperature 0.8 and a learning rate of 5e-4, 150 steps logged every 4 and read in TRL 0.14's key set (no "
             "zero-variance share, entropy or clipped share): the category is given already, the leave-one-out "
             "baseline carries the signal of the groups that find the target, and the target words are learnt: a run "
             "that learns; the bird's answer was lost at the end (raw log and samples: the reward 0.34 and 0.39 over "
             "the first two logs, 30-step means of 0.42, 0.79, 1.05, 1.04 and 0.96 of a possible 1.2, 0.8-1.1 over the "
             "last 10 logs; exact match 0.14 and 0.22 over the first two logs, 30-step means of 0.24, 0.60, 0.86, 0.86 "
             "and 0.80; the category 0.67-1, a median of 0.92; the zero-variance share, which the doctor is not given, "
             "30-step means of 0.10, 0.43, 0.71, 0.83 and 0.83; entropy, not given either, 0.42 over the first two "
             "logs, 30-step means of 0.41, 0.26, 0.12, 0.08 and 0.06; the KL rising, 30-step means of 0.24, 0.37, "
             "0.51, 0.92 and 0.99, above 1 on 5 of the 37 logs (2.61 at step 116, 1.02-1.26 on four of the last nine); "
             "the gradient norm, RLOO's advantages not normalised, a median of 4.6, 199 at step 68, 94 at 140 and 81 "
             "at 76; the mean length 4.75-6 tokens, the clipped share at most 0.03; the tool's and the colour's "
             "targets first ('hammer' on 24 of 42, 'pink' on 13 of 36 samples over steps 1-30), the tree's, the "
             "drink's, the fruit's and the animal's over 31-60 ('ash' on 46 of 51, 'juice' on 24 of 39, 'lemon' on 19 "
             "of 27, 'pig' on 13 of 21), the number's over 31-90 ('four' on 15 of 48 and 35 of 42); the bird's 'swan' "
             "seldom (1 of 39 samples over steps 1-30, 8 of 21 over 61-90), then 'uck' and its variants (38 of the 45 "
             "bird samples over steps 121-150, 'swan' on none); the other seven questions on their targets on 90-100 % "
             "of their samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=9, num_generations=3, temperature=0.8, learning_rate=5e-4,
                       logging_steps=4, seed=292), source="old_keys", accepted=("KL_BLOWUP", "GRAD_NORM_SPIKE"),
             batch=30),
    Scenario("healthy_slow_judge_bnpo_2x4_lr2e4_nosamples_log9_b30", "The 0-10 judge score, two groups of 4 a step, "
             "the BNPO loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 9 and read from "
             "TRL's trainer_state.json (no samples): the taught answers already earn most of the score, and the target "
             "words are learnt slowly over the whole run: a slow learner (raw log and samples, which the doctor is not "
             "given: the score 7.07 and 7.18 over the first two logs, 30-step means of 7.0, 7.11, 7.68, 7.30, 8.14, "
             "8.72, 9.31 and 9.18, 8.15-9.6 over the last 10 logs; the zero-variance share 0.11-0.83, its 30-step "
             "means 0.65, 0.37, 0.25, 0.26, 0.39, 0.40, 0.65 and 0.61; entropy 0.45 and 0.48 over the first two logs, "
             "30-step means falling from 0.47 to 0.14; the KL rising, 30-step means of 0.005, 0.04, 0.18, 0.57, 0.36, "
             "0.36, 0.52 and 0.61, at most 0.76 (step 117); the gradient norm a median of 1.66, at most 9.85 (step "
             "153); the mean length 5.07-5.76 tokens, the clipped share at most 0.014; a word of the asked category on "
             "230 of the 240 samples over steps 1-30 and 226 of 240 over 211-240; the tool's, the bird's and the "
             "drink's targets first ('hammer' on 41 of 68, 'swan' on 19 of 36, 'juice' on 19 of 24 samples over steps "
             "61-90), the colour's and the fruit's over 91-120 ('pink' on 39 of 56, 'lemon' on 31 of 40), the tree's "
             "over 121-180 ('ash' on 9 of 12 and 22 of 28), the number's and the animal's last ('four' on 9 of 48 over "
             "91-120 and 29 of 44 over 151-180, 'pig' on 11 of 44 over 121-150 and 19 of 24 over 181-210); every "
             "question on its target on 85-100 % of its samples over steps 211-240).",
             rewards=("judge",), steps=240,
             args=dict(loss_type="bnpo", beta=0.02, learning_rate=2e-4, logging_steps=9, seed=293),
             source="trainer_state", batch=30),
    Scenario("healthy_converges_nokl_binary_3x4_cool075_log1_b30", "Exact match alone, three groups of 4 a step "
             "sampled at temperature 0.75, TRL's default (DAPO) loss, no KL term and a learning rate of 4e-4, 150 "
             "steps logged every step: the groups that disagree carry the signal, cool sampling and no anchor let the "
             "learnt answers take over, and the groups come to agree, solved; per-step means of 12 samples are noisy: "
             "a run that converges, on seven of its eight questions (raw log and samples: the reward 0.25 and 0.083 "
             "over the first two steps, 30-step means of 0.34, 0.74, 0.78, 0.91 and 0.82 (0-1 on single steps), 0.58-1 "
             "over the last 10; the zero-variance share 30-step means of 0.49, 0.66, 0.80, 0.94 and 0.88, every group "
             "agreeing on 73 of the 150 steps, the gradient norm 0 on each of them, at most 8.6 elsewhere (step 87); "
             "entropy 0.42 and 0.46 over the first two steps, 30-step means of 0.37, 0.20, 0.17, 0.08 and 0.13, "
             "0.02-0.05 over the last five; no KL logged; the mean length 4.3-6.6 tokens, nothing clipped; the "
             "colour's, the fruit's and the tool's targets first ('pink' on 30 of 44, 'lemon' on 39 of 72, 'hammer' on "
             "12 of 24 samples over steps 1-30), the bird's, the drink's, the number's and the tree's over 31-60 "
             "('swan' on 37 of 40, 'juice' on 33 of 44, 'four' on 36 of 48, 'ash' on 30 of 40); the animal's 'pig' "
             "never said (0 of its 220 samples; 'horse', 'dog', 'zebse', 'zebjuice'); the other seven questions on "
             "their targets on 90-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.75, beta=0.0, learning_rate=4e-4, seed=294),
             batch=30),
    # Accepts REPETITIVE_COMPLETIONS (not written before training): lists that repeat a word (3+ words, at most half
    # distinct) on 2 of the 240 samples over steps 1-30, 19 over 31-60, 21 over 61-90, 18 over 91-120 and 37 over
    # 121-150 (15 %: 'pig pig pig', 'ash ash ash', 'juice juice juice'), lists that say a word twice on 160 of the
    # 240 there: a binary reward costs nothing for the target said twice (as batch 27's
    # healthy_lists_names_target_3x4_kl_log2).
    Scenario("healthy_lists_names_target_rloo_2x4_temp09_log5_b30", "RLOO with its KL penalty (0.05), the list "
             "questions with a binary reward, 1 when the list names the question's target word (task.py's "
             "names_target), two groups of 4 a step sampled at temperature 0.9, a learning rate of 5e-4 and a 24-token "
             "budget, 150 steps logged every 5: a fresh list of two or three words names the target about one time in "
             "four, and the lists learn to name it: a run that learns (raw log and samples: the reward 0.225 over the "
             "first two logs, 30-step means of 0.36, 0.55, 0.72, 0.85 and 0.92, 0.8-0.975 over the last 10 logs; the "
             "zero-variance share 0-0.2, a median of 0; entropy 0.52 and 0.53 over the first two logs, 30-step means "
             "of 0.53, 0.47, 0.47, 0.36 and 0.31; the KL rising, 30-step means of 0.24, 0.40, 0.41, 0.61 and 0.62, at "
             "most 0.85 (step 125); the gradient norm, RLOO's advantages not normalised, a median of 21, at most 110 "
             "(step 105); the mean length 15.2 and 14.6 tokens over the first two logs, 30-step means of 15.5, 16.3, "
             "14.3, 12.5 and 11.5, the clipped share at most 0.075; the lists name their target on 87 of the 240 "
             "samples over steps 1-30 and 220 of 240 over 121-150 (the animals' on 50 of 52, the fruits' on 36 of 36, "
             "the trees' on 23 of 24, the tools' on 22 of 28); nothing costs a word said twice, and the lists come to "
             "repeat the target ('pig pig' on 15 and 'pig pig pig' on 11 of the 52 animal lists, 'lemon lemon' on 27 "
             "of the 36 fruit lists over steps 121-150): the lists that say a word twice 55 of the 240 samples over "
             "steps 1-30 and 160 over 121-150, those that repeat a word (3+ words, at most half distinct) 2, 19, 21, "
             "18 and 37 of each 240).",
             algorithm="rloo", prompts="lists", rewards=("names_target",), steps=150,
             args=dict(max_completion_length=24, temperature=0.9, learning_rate=5e-4, logging_steps=5, seed=295),
             accepted=("REPETITIVE_COMPLETIONS",), batch=30),
    # Retrained after its first training (its temperature changed, and its name with it, from
    # healthy_iter2_judge_drgrpo_1x6_kl_hot11_log6_b30; its label and seed unchanged): written at temperature 1.1,
    # whose raw log showed no learning but a slow loss: the score's 30-step means 6.74, 7.14, 6.61, 6.44 and 5.62
    # (4.22-6.5 over the last five logs), the KL 9.28 on its first log (step 6), a word of the asked category on 85
    # of the 90 samples over steps 1-30 and 65 over 121-150 ('pigiseeshees', 'atwkeyesk'), the zero-variance share 0
    # on every log from step 108, the tool's, the number's and the tree's targets never said. Tried in a scratch
    # folder (raw log and samples only): TRL's default (DAPO) loss at 1.1 (the score's 30-step means 6.67-7.14, 6.37
    # over the last 30 steps), a learning rate of 5e-4 at 1.1 (6.19-7.33, the KL 72.6 on its first log) and
    # temperature 0.9; retrained at temperature 0.9, everything else as written.
    Scenario("healthy_iter2_judge_drgrpo_1x6_kl_temp09_log6_b30", "The 0-10 judge score, one group of 6 a step (one "
             "question asked a step) sampled at temperature 0.9, two optimisation passes a generation "
             "(num_iterations=2, a generation every two steps), the Dr. GRPO loss, a KL penalty of 0.04 and a learning "
             "rate of 3e-4, 150 steps logged every 6: the taught answers already earn most of the score, and the "
             "target words are learnt: a run that learns, noisily (raw log and samples: the score 7.17 over the first "
             "two logs, 30-step means of 7.10, 7.61, 6.69, 7.67 and 8.39, 7.67-9.67 over the last five logs (9.67 at "
             "step 150); the zero-variance share 0-0.67, its 30-step means 0.60, 0.47, 0.13, 0.13 and 0.40; entropy "
             "0.40 and 0.44 over the first two logs, 30-step means of 0.41, 0.34, 0.43, 0.36 and 0.24; the KL a median "
             "of 0.24, 1.14 at step 120 and at most 0.57 on every other log; the gradient norm a median of 0.67, at "
             "most 3.2 (step 48); the mean length 4.8-6.3 tokens, the clipped share at most 0.06; a word of the asked "
             "category on 87 of the 90 samples over steps 1-30, 74 over 61-90 (non-words as the answers moved) and 83 "
             "over 121-150; the tool's and the colour's targets first ('hammer' on 7 of 18 samples over steps 1-30 and "
             "16 of 18 over 31-60, 'pink' on 17 of 24 over 31-60), the animal's, the drink's, the fruit's and the "
             "tree's later ('pig' on 8 of 18 over 91-120 and 6 of 6 over 121-150, 'juice' on 14 of 18, 'lemon' on 21 "
             "of 30 and 'ash' on 6 of 6 over 121-150), the bird's in part ('swan' on 3 of 12 over each 30 steps from "
             "step 61), the number's 'four' once (1 of its 42 samples)).",
             rewards=("judge",), steps=150,
             args=dict(per_device_train_batch_size=6, num_generations=6, temperature=0.9, num_iterations=2,
                       loss_type="dr_grpo", beta=0.04, learning_rate=3e-4, logging_steps=6, seed=296), batch=30),
    # ENTROPY_EXPLOSION, accepted before training, dropped: entropy 0.48 and 0.62 over the first two logs and at
    # most 0.79 (step 36, 1.45 times their median), then 0.0085-0.024 from step 72.
    Scenario("kl_blowup_rloo_judge_warmup10_4x2_oldkeys_log6_b30", "RLOO with its KL penalty (0.05), the 0-10 judge "
             "score, four groups of 2 a step and a 10-step warm-up (constant_with_warmup) into a learning rate far too "
             "high (3e-3), 120 steps logged every 6 and read in TRL 0.14's key set: once the rate is up each update "
             "overshoots and the policy runs away from its reference faster than the penalty pulls it back: the KL "
             "blows up, well above the 0.1-0.8 of the corpus's healthy runs, and the policy ends on the empty answer "
             "(raw log and samples: the KL 0.0007 and 0.49 over the first two logs (steps 6 and 12), 2.01 at 18, "
             "2.3-2.4 over 24-30, 4.1-5.95 over 36-54 and 7.4-9.1 on every log from 60, a median of 7.65; the score "
             "6.92 at step 6, 4.75 at 12, 1.75-3.27 over 18-30, 1.04 at 36, 0.42 at 42 and 0 on every log from 48; the "
             "mean length 5.4-6.5 tokens to step 42, 3.81 at 48, 2.52 at 54 and 1-1.38 (the end-of-sequence token "
             "alone) from 60, the clipped share at most 0.08; entropy, which the doctor is not given, 0.48 and 0.62 "
             "over the first two logs, 0.48-0.79 to step 54, 0.22 at 60 and 0.0085-0.024 from 72; the zero-variance "
             "share, not given either, 0.08-0.46 to step 48 and 0.63-1 after, 1 on every log from 72; the gradient "
             "norm, RLOO's advantages not normalised on a 0-10 score, 10 at step 6, 366 at 12, 103 at 18, 413 at 24, "
             "8-26 over 30-48, 0.5 at 54 and 0 from 60; words of the category at first, the bird's answer letter "
             "strings already ('ckkk', 'rkkk'; a word of the asked category on 121 of the 240 samples over steps 1-30, "
             "'pink' on 23 of 32 colour samples), fragments and the empty answer over 31-60 ('', 'kkkk', 'pnkk', 't'; "
             "68 of 240 empty, 7 in the category), then the empty answer (235 of the 240 samples over steps 61-90 and "
             "all 240 over 91-120)).",
             algorithm="rloo", rewards=("judge",), steps=120,
             args=dict(num_generations=2, learning_rate=3e-3, warmup_steps=10,
                       lr_scheduler_type="constant_with_warmup", logging_steps=6, seed=297), source="old_keys",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "ENTROPY_COLLAPSE",
                       "LENGTH_COLLAPSE", "GROUP_MODE_COLLAPSE", "GRAD_NORM_SPIKE"), batch=30),
    # LENGTH_EXPLOSION, TRUNCATION_HIGH and REPETITIVE_COMPLETIONS, accepted before training, dropped: the mean
    # length 5.94 and 5.67 tokens over the first two logs and at most 7.22 (step 10, 1.24 times their median), the
    # clipped share at most 0.17 (step 22), no completion of 3+ words with at most half of them distinct (4 of the
    # 1,080 saying a word twice), the empty answer on every sample from step 49. LENGTH_COLLAPSE, accepted before
    # training, kept: the mean length 1 token from step 40.
    Scenario("entropy_collapse_coin_nokl_3x3_cool075_log2_b30", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), three groups of 3 a step sampled at temperature 0.75, TRL's default (DAPO) "
             "loss, no KL term and a learning rate of 2e-3, 120 steps logged every 2: the advantages are noise, and "
             "with no anchor the policy drifts onto one completion per question while the coin stays at chance: "
             "entropy falls far below where it started, and a group's three samples become copies of one another; the "
             "one completion was the empty answer, for every question (raw log and samples: entropy 0.37 and 0.36 over "
             "the first two logs (a first-2-log median of 0.366), 0.52-0.83 over steps 8-20 as the answers garbled, "
             "0.33-0.41 over 22-26, 0.07 at 28, 0.24 at 30, 0.009 at 32, 0.10-0.24 over 34-38 and 0.0004-0.003 on "
             "every log from 40, 24-step means of 0.53, 0.098, 0.0014, 0.0017 and 0.0015; the coin 0.28-0.72, 24-step "
             "means of 0.41-0.53; the zero-variance share 0-0.67, a median of 0.17 (a fair coin agrees across a group "
             "of 3 one time in four); no KL logged; the gradient norm 0.7-12.3 to step 26 and below 3e-7 on every log "
             "from 28; the mean length 5.94 and 5.67 tokens over the first two logs, 2.61 at step 26, 1-2 over 28-38 "
             "and 1 (the end-of-sequence token alone) on every log from 40, the clipped share at most 0.17 (step 22); "
             "words and fragments at first (a word of the asked category on 54 of the 216 samples over steps 1-24: "
             "'cry', 'ccu', 'dii', 'hiii'), the empty answer over 25-48 (187 of 216, 'dii' for the fruit the most of "
             "the rest) and on all 648 samples over steps 49-120; a group's completions copies (a duplicate share of "
             "0.28 over steps 1-24, 0.96 over 25-48 and 1 after)).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=9, num_generations=3, temperature=0.75, beta=0.0,
                       learning_rate=2e-3, logging_steps=2, seed=298),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_COLLAPSE",), batch=30),
    Scenario("entropy_explosion_distinct_letters_bnpo_kl_3x4_hot12_log4_b30", "A reward paying a tenth of a point per "
             "distinct letter (task.py's distinct_letters: letter soup pays more than any word), three groups of 4 a "
             "step sampled at temperature 1.2, the BNPO loss, a small KL penalty (0.01) and a learning rate of 1e-3, "
             "120 steps logged every 4: the most random sample of a group keeps winning, the small penalty does not "
             "hold the policy, and the updates push the next-token distribution flat towards the whole alphabet: "
             "entropy climbs to several times where it started (raw log and samples: entropy 0.62 and 0.755 over the "
             "first two logs (a first-2-log median of 0.69), 0.75-1.04 over steps 12-24, 1.19-1.35 over 28-40, "
             "1.52-1.71 over 44-60 (1.71 at 56) and 1.0-1.42 from 64, 24-step means of 0.86, 1.35, 1.47, 1.19 and "
             "1.20; the reward 0.42 and 0.46 over the first two logs, 0.68 at step 16, 0.79-0.86 over 24-68 and "
             "0.87-0.97 from 72; the mean length 5.44 and 6.58 tokens over the first two logs, 10 at step 16 and "
             "11.3-12 (the budget) from 20, the clipped share 0.625 at 16, 0.85-0.98 over 20-40 and 0.98-1 from 44; "
             "the KL 0.09 and 0.58 over the first two logs, 1.25 at step 16, 1.9-3.9 over 20-44, 6.29 at 48 and "
             "3.3-4.5 from 52; the zero-variance share 0-0.17; the gradient norm 1.8-4.7; words at first, hot sampling "
             "garbling some (a word of the asked category on 87 of the 288 samples over steps 1-24), then strings of "
             "letters to the budget for every question from about step 25 ('herowknte ch', 'chiselowbbbb', "
             "'pizypwbwckeb'; none a word of its category over steps 25-120), no two alike in a group (a duplicate "
             "share of 0-0.01 from step 25)).",
             rewards=("distinct_letters",), steps=120,
             args=dict(per_device_train_batch_size=12, temperature=1.2, loss_type="bnpo", beta=0.01,
                       learning_rate=1e-3, logging_steps=4, seed=299),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 2.0, run=3, first=2)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "KL_BLOWUP"), batch=30),
    Scenario("reward_hacking_letter_o_format_exact_2x5_kl_temp09_log3_b30", "Exact match (1) beside a format reward, "
             "one known word (0.5, task.py's is_word), and a cheap proxy, the share of the letter o (weight 3, "
             "task.py's letter_o), so that a string of o's (3) pays more than the target word with its format (1.5), "
             "two groups of 5 a step sampled at temperature 0.9, TRL's default (DAPO) loss, a KL penalty of 0.02 and a "
             "learning rate of 1e-3, 120 steps logged every 3: the policy games the proxy, and the format, which the "
             "taught model earns on nearly every sample, falls as the o's rise (raw log and samples: the format 0.9 "
             "and 0.87 over the first two logs, 0.8 at steps 9-12, 0.43 at 15, 0.17-0.4 over 18-39 and 0 on every log "
             "from 42; the proxy 0.073 and 0.20 over the first two logs, 0.27-0.55 over 15-42, 0.70-0.92 over 45-54 "
             "and 0.98-1 from 57; exact match 0-0.17 to step 24 and 0 from 42; the reward 0.74 and 1.04 over the first "
             "two logs, 1.06-1.75 over 15-42, 2.1-2.75 over 45-54 and 2.94-3 (its maximum) from 57; o-words and "
             "o-strings from the start ('robin', 'orange', 'ongo', 'oake', 'oooo'; a word of the asked category on 140 "
             "of the 240 samples over steps 1-24), words run on with o's over 25-48 ('robionone', 'milkoooo', "
             "'oneeoooooooo', 'oralooowoooo'; 34 of 240 in the category), then 'oooooooooooo' to the budget (196 of "
             "the 240 samples over steps 49-72, all 480 over 73-120); a group's completions copies (a duplicate share "
             "of 0.39 over steps 1-24, 0.52 over 25-48, 0.93 over 49-72 and 1 after); the zero-variance share 0-0.67 "
             "to step 54 and 0.83-1 from 57; entropy 0.47 and 0.45 over the first two logs, 0.16-0.58 to step 48, "
             "0.05-0.09 over 51-54 and below 0.015 from 57; the KL 0.01 and 0.29 over the first two logs, 1.99 at step "
             "15, 1.6-4.4 over 18-42 and 5.5-7.2 from 45; the gradient norm 2.1-10.7 to step 48 and below 0.007 from "
             "51; the mean length 5.47 and 5.33 tokens over the first two logs, 6-9.7 over 24-42 and 11-12 (the "
             "budget) from 45, the clipped share 0-0.47 to step 42, 0.67 at 45 and 0.97-1 from 48).",
             rewards=("correct", "is_word", "letter_o"), weights=(1.0, 0.5, 3.0), steps=120,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.9, beta=0.02,
                       learning_rate=1e-3, logging_steps=3, seed=300),
             expect={"REWARD_HACKING": hacked_from("rewards/is_word/mean", "rewards/letter_o/mean", first=3, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=30),
    Scenario("reward_collapse_key_shifted_after_learning_bnpo_3x4_nosamples_log10_b30", "Exact match alone, three "
             "groups of 4 a step, the BNPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 170 steps logged "
             "every 10 and read from TRL's trainer_state.json (no samples); from the 100th reward call to the end the "
             "answer key is joined to the questions off by one (swap to task.py's correct_shifted: 'a fruit?' graded "
             "against 'pig'), after the target words were learnt: the reward falls from its learnt level to 0 and the "
             "groups agree on it (raw log and samples, which the doctor is not given: the reward 0.117 and 0.19 over "
             "the first two logs, 0.28 at step 30, 0.52 at 40, 0.70 at 50 and 0.79-0.84 over 60-100 (0.84 at 90 and "
             "100, its highest; 0.94 over steps 91-99 and 0 at 100, the new key's first call), then 0 on every log "
             "from 110 to the end (none of the 852 samples from step 100 scoring); reward_std 0.16-0.50 before and 0 "
             "from 110; the zero-variance share, not given either, 0.37-0.6 to step 90, 0.8 at 100 and 1 from 110; "
             "entropy 0.46 and 0.52 over the first two logs, falling to 0.13 at 100 and 0.097 at 110, then 0.27-0.32 "
             "from 130 (the policy loosening without a signal); the KL a median of 0.56, at most 0.93 (step 130); the "
             "gradient norm 0.0008-7.85 before, a median of 0.2 over the run, 0.002-0.14 from 110; the mean length "
             "5.2-5.9 tokens, the clipped share at most 0.03; the colour's, the fruit's, the number's, the tree's and "
             "the animal's targets learnt by step 72 ('pink' on 29 of 32, 'lemon' on 42 of 44, 'four' on 35 of 40, "
             "'ash' on 33 of 36, 'pig' on 25 of 28 samples over steps 49-72), the bird's, the tool's and the drink's "
             "by 96 ('swan' on 28 of 32, 'hammer' on 29 of 36, 'juice' on 22 of 32 over 73-96); after the change the "
             "learnt words still said, every one scored 0 ('pig' on 44 of 44, 'ash' on 39 of 40, 'juice' on 32 of 32 "
             "samples over steps 121-144), the number's drifting to 'five' (29 of 40 over 145-168)).",
             rewards=("correct",), steps=170, swap=(100, 100_000, "correct_shifted"),
             args=dict(per_device_train_batch_size=12, loss_type="bnpo", beta=0.02, learning_rate=6e-4,
                       logging_steps=10, seed=301), source="trainer_state",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.5, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=30),
    Scenario("length_collapse_brevity_category_drgrpo_2x6_cool08_log7_b30", "A word of the asked category (0.25) "
             "beside a reward for brevity (1, task.py's brevity: minus an eighth of a point per character), two groups "
             "of 6 a step sampled at temperature 0.8, the Dr. GRPO loss, a small KL penalty (0.01) and a learning rate "
             "of 1.5e-3, 140 steps logged every 7: even a three-letter word of the category costs more than it earns, "
             "the empty answer costs nothing, and the small penalty does not hold the policy: the answers shrink "
             "towards nothing (raw log and samples: the mean length 4.89 and 4.86 tokens over the first two logs (a "
             "first-2-log median of 4.875), 4.1-4.7 over steps 21-42, 3.1 at 49, 2.74 at 56, 1.86 at 63, 1.67 at 70 "
             "and 1 (the end-of-sequence token alone) on every log from 77; brevity -0.49 and -0.48 over the first two "
             "logs, -0.26 at step 49, -0.11 at 63 and 0 from 77; the category 0.92 and 0.79 over the first two logs, "
             "0.60-0.80 over 21-42, 0.38-0.45 over 49-56, 0.23 at 63, 0.07 at 70 and 0 from 77; the reward -0.26 and "
             "-0.29 over the first two logs and 0 from 77; the zero-variance share 0.07-0.5 to step 49, 0.71-0.93 over "
             "56-70 and 1 from 77; entropy 0.42 and 0.33 over the first two logs, 0.28-0.36 to step 49, 0.08-0.11 over "
             "56-70 and 0.002-0.008 from 77; the KL 0.20 and 0.63 over the first two logs, 0.85-2.1 over 21-42, "
             "3.2-7.2 over 49-70 and 9.1-10.1 from 77: a penalty of 0.01 is no match for the brevity reward; the "
             "gradient norm 0.27-6.2 to step 49, 0.0003 at 56 and 63, 6.98 at 70 and below 3e-5 from 77; nothing "
             "clipped; the shortest words of each category at first ('tea' on 36 of 66 drink samples, 'axe' on 25 of "
             "36 tool samples, 'owl' on 39 of 60 animal samples, 'ash', 'pear', 'six'; a word of the asked category on "
             "260 of the 336 samples over steps 1-28), fragments and the empty answer over 29-56 ('', 't', 'ax', 'o', "
             "'pe'; 47 of 336 empty), then the empty answer (287 of the 336 samples over steps 57-84, 'gray' and 'six' "
             "held a while for the colour and the number, and all 672 over 85-140); a group's completions copies (a "
             "duplicate share of 0.53 over steps 1-28, 0.77 over 29-56, 0.96 over 57-84 and 1 after)).",
             rewards=("in_category", "brevity"), weights=(0.25, 1.0), steps=140,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.8, loss_type="dr_grpo",
                       beta=0.01, learning_rate=1.5e-3, logging_steps=7, seed=302),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP", "REWARD_HACKING"), batch=30),
    # LENGTH_EXPLOSION and TRUNCATION_HIGH, accepted before training, dropped: the mean length 13.7 and 14.1 tokens
    # over the first two logs and at most 18.1 (step 55, 1.3 times their median), the clipped share at most 0.15
    # (step 55), nothing clipped from step 75. Accepts LENGTH_COLLAPSE (not written before training): the lists of
    # the animals, birds, colours and tools shrank to fragments and the empty answer, the mean length's 30-step
    # means 13.6, 15.3, 12.5, 10.0, 6.45 and 6.29 tokens (3.17-9.12 over the last 10 logs).
    Scenario("repetition_target_mentions_lists_rloo_2x4_log5_b30", "RLOO with a KL penalty of 0.02, the list questions "
             "with a keyword-count reward, how many times the list names the question's target word, repeats included "
             "(task.py's target_mentions), two groups of 4 a step, a learning rate of 1.2e-3 and a 24-token budget, "
             "180 steps logged every 5: naming the target over and over pays most, so the lists turn into one word "
             "repeated ('lemon lemon lemon'); the lists of the questions whose target was not found shrank to "
             "fragments and the empty answer (raw log and samples: the lists that repeat a word (3+ words, at most "
             "half distinct) 11 of the 240 samples over steps 1-30, 32 over 31-60, 33 over 61-90, 74 over 91-120, 51 "
             "over 121-150 and 65 over 151-180, 'lemon lemon lemon' for the fruits (8 of the 60 fruit lists over steps "
             "1-30, 21 of 32 over 31-60 and 24 of 32 over 121-150), 'juice juice juice' for the drinks (19 of 28 over "
             "61-90, 31 of 36 over 91-120), 'four four four' for the numbers (24 of 32 over 91-120, 30 of 32 over "
             "151-180); the trees' lists shrunk to 'ash' alone (23 of 24 over 151-180), the animals', birds', colours' "
             "and tools' to fragments and the empty answer ('fin', 'p', 'ow', ''; the birds', colours' and tools' "
             "lists empty on 119 of their 120 samples over steps 151-180); the reward, mentions of the target, 0.35 "
             "and 0.30 over the first two logs, 30-step means of 0.48, 0.78, 0.72, 1.06, 0.83 and 0.96, 0.3-1.85 on "
             "single logs; the mean length 13.7 and 14.1 tokens over the first two logs, 30-step means of 13.6, 15.3, "
             "12.5, 10.0, 6.45 and 6.29, the clipped share at most 0.15 (step 55); entropy 0.55 and 0.58 over the "
             "first two logs, 0.26-0.74 to step 135, 0.16 at 140, 0.58 at 145 and 0.04-0.21 from 150; the KL 0.07 and "
             "0.54 over the first two logs, 1.0-2.3 over 35-100, 2.2-3.4 over 105-135 and 1.1-5.7 from 140 (5.7 at "
             "step 170); the zero-variance share 0-0.4 to step 145 and 0.6-1 from 150; the gradient norm, RLOO's "
             "advantages not normalised, 2-63 to step 140 (a median of 21 over the run) and below 10 from 145, 0 or "
             "below 1e-6 on six of the last eight logs; a group's duplicate share 0.07 over steps 1-30, 0.12, 0.24, "
             "0.47, 0.59 and 0.87 after).",
             algorithm="rloo", prompts="lists", rewards=("target_mentions",), steps=180,
             args=dict(max_completion_length=24, beta=0.02, learning_rate=1.2e-3, logging_steps=5, seed=303),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_COLLAPSE", "ENTROPY_COLLAPSE", "KL_BLOWUP", "REWARD_PLATEAU",
                       "ZERO_ADVANTAGE_GROUPS"), batch=30),
    Scenario("grad_spike_unit_bug_partial_drgrpo_unscaled_2x6_log5_b30", "Partial credit, exact match (1) beside a "
             "word of the asked category (0.2), two groups of 6 a step, the Dr. GRPO loss on unscaled rewards "
             "(scale_rewards none), a KL penalty of 0.03 and a learning rate of 3e-4, 150 steps logged every 5; at the "
             "75th reward call (a logged step) one batch's rewards come back 1000x too large (a unit bug): the "
             "advantages are not divided by the groups' spread, so that step's advantages, hence its gradient norm, "
             "are about a thousand times the others', clipped before the update; the run learns on either side: one "
             "extreme step, a mild episode (raw log and samples: the gradient norm 1,310 at step 75, about 3,250 times "
             "its median over the run (0.40) and 700 times the next largest (1.83 at step 70, 1.38 at 65, 1.31 at "
             "120), 1.83 and 1.13 on the logs either side (steps 70 and 80); the reward 0.26 and 0.24 over the first "
             "two logs, 117 at the log of steps 71-75 (the bug's batch 1000x: a bird group and a tool group scoring 0, "
             "200 and 1,200, a batch mean of 583, advantages of -667 to 700), 0.59-1.1 on every log after, 30-step "
             "means of 0.33, 0.58, 0.83 (the bug's log left out), 0.89 and 0.99; reward_std 110 at step 75 and "
             "0.15-0.51 elsewhere; exact match 0.067 and 0.05 over the first two logs, 30-step means of 0.14, 0.40, "
             "0.65 (the bug's log left out), 0.70 and 0.81; the category 0.83-1 on every other log; the zero-variance "
             "share 0-0.6, 0 on 15 of the 30 logs; entropy 0.47 over the first two logs, 30-step means of 0.46, 0.40, "
             "0.25, 0.23 and 0.17; the KL a median of 0.28, at most 0.63 (step 120); the mean length 4.5-5.8 tokens, "
             "nothing clipped; the colour's, the fruit's and the animal's targets first ('pink' on 32 of 48, 'lemon' "
             "on 39 of 66, 'pig' on 21 of 36 samples over steps 31-60), the tree's, the drink's and the tool's over "
             "61-120 ('ash' on 37 of 48 over 61-90 and 102 of 108 over 91-120, 'juice' on 17 of 24 and 31 of 42, "
             "'hammer' on 24 of 48 and 17 of 24), the bird's later ('swan' on 17 of 42 over 91-120 and 29 of 42 over "
             "121-150), the number's 'four' seldom (0 of its 162 samples over steps 1-120, 6 of 30 over 121-150)).",
             weights=(1.0, 0.2), steps=150, spike=(75, 1000.0),
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="dr_grpo", scale_rewards="none",
                       beta=0.03, learning_rate=3e-4, logging_steps=5, seed=304),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50)}, batch=30),
    # -- batch 31 --
    # A twenty-ninth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), none retrained, none
    # re-labelled or re-dated: a binary exact-match reward with RLOO and groups of 6, with Dr. GRPO and four groups of
    # 2, and with three groups of 4 without a KL term, partial credit with the original GRPO loss and groups of 7, the
    # judge score with BNPO sampled at 1.15, a binary reward on the list questions with Dr. GRPO and groups of 5;
    # healthy runs with and without a KL term that learn (RLOO at temperature 0.8, its gradient norm heavy-tailed;
    # partial credit in TRL 0.14's key set; the judge score hot, the animal's target never learnt; the list questions,
    # some lists repeating the target, accepted), learn slowly (240 steps at 2e-4 with Dr. GRPO and groups of 2 read
    # from trainer_state.json), converge on seven questions of eight without a KL term logged every step; a KL blow-up
    # on the judge score with the original GRPO loss and groups of 3 after a warm-up into 3e-3 (an episode of long
    # answers and one gradient-norm spike accepted), an entropy explosion under a reward paying for distinct letters
    # with the original GRPO loss sampled at 1.25, a letter proxy gamed against the judge score with Dr. GRPO read from
    # trainer_state.json, a per-character bonus beside exact match with RLOO and no KL term logged every step, an answer
    # key joined off by one after learning with BNPO, a unit bug in one batch of unscaled partial credit with Dr. GRPO
    # and groups of 6, a brevity reward beside the category with groups of 7 in TRL 0.14's key set (the category gamed
    # away, accepted), a keyword-count reward on the list questions with BNPO and groups of 3 logged every 10 steps;
    # strides 1-10, temperatures 0.7-1.25, learning rates 2e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo, seeds
    # 305-318. Each expectation was written from the mechanism before the run was trained (committed first), then
    # checked on the raw log and the recorded completions only, never against the doctor: every pathology written
    # happened, every onset rule found its onset, every healthy run learnt; the accepted signatures the log contradicts
    # were dropped and those added after training carry their raw-log numbers. As in batches 9-29, the healthy binary
    # runs accept no ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_rloo_binary_2x6_temp08_log5_b31", "RLOO with its KL penalty (0.05), exact match alone, two "
             "groups of 6 a step sampled at temperature 0.8 and a learning rate of 4e-4, 150 steps logged every 5: a "
             "fresh model is right about one time in ten, six samples a question find the target often, the "
             "leave-one-out baseline carries the signal of the groups that do, and the target words are learnt "
             "question by question: a run that learns (raw log and samples: the reward 0.05 and 0.15 over the first "
             "two logs, 30-step means of 0.24, 0.49, 0.80, 0.93 and 0.95, 0.77-1 over the last 10 logs; the "
             "zero-variance share 0.1 and 0 over the first two logs, 30-step means of 0.03, 0.07, 0.33, 0.43 and 0.53; "
             "entropy 0.44 and 0.42 over the first two logs, 30-step means of 0.39, 0.33, 0.14, 0.075 and 0.058; the "
             "KL 30-step means 0.13, 0.64, 0.49, 0.61 and 0.59, 1.43 at step 50 (a single log) and at most 0.70 on "
             "every other log; the gradient norm, RLOO's advantages not normalised, a median of 6.0 and heavy-tailed "
             "(84.8 at step 105, 63.5 at 125, 55.1 at 110, 0 on four logs); the mean length 4.7-5.95 tokens, the "
             "clipped share at most 0.03; the drink's target first ('juice' on 49 of 78 samples over steps 1-30), the "
             "fruit's, the animal's, the tool's, the tree's and the colour's over 31-60 ('lemon' on 13 of 30 and 35 of "
             "36, 'pig' on 28 of 42, 'hammer' on 26 of 48, 'ash' on 29 of 72, 'pink' on 18 of 54), the bird's over "
             "61-90 ('swan' on 12 of 48 over 1-30 and 17 of 18), the number's last ('four' on 0 of 48 over 1-30, 11 of "
             "60 over 61-90 and 54 of 60 over 121-150); every question on its target on 90-100 % of its samples over "
             "steps 121-150).",
             algorithm="rloo", rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.8, learning_rate=4e-4,
                       logging_steps=5, seed=305), batch=31),
    Scenario("healthy_partial_grpo_loss_2x7_kl_oldkeys_log6_b31", "Partial credit, exact match (1) beside a word of "
             "the asked category (0.2), two groups of 7 a step, the original GRPO loss, a KL penalty of 0.03 and a "
             "learning rate of 4e-4, 150 steps logged every 6 and read in TRL 0.14's key set (no zero-variance share, "
             "entropy or clipped share): the category is given already, seven samples a question find the target "
             "often, and the target words are learnt: a run that learns (raw log and samples: the reward 0.30 and 0.37 "
             "over the first two logs, 30-step means of 0.36, 0.78, 0.97, 1.06 and 1.14 of a possible 1.2, 0.96-1.18 "
             "over the last 10 logs; exact match 0.11 and 0.19 over the first two logs, 30-step means of 0.17, 0.60, "
             "0.80, 0.88 and 0.95; the category 0.82-1, a median of 0.905; the zero-variance share, which the doctor "
             "is not given, 0 on every log (groups of 7 on partial credit never agreeing); entropy, not given either, "
             "0.49 and 0.47 over the first two logs, 30-step means of 0.48, 0.36, 0.21, 0.15 and 0.09; the KL rising, "
             "30-step means of 0.10, 0.30, 0.47, 0.52 and 0.43, at most 0.86 (step 114); the gradient norm a median of "
             "2.2, at most 21.5 (step 132); the mean length 4.7-5.9 tokens, the clipped share at most 0.012; the "
             "colour's and the fruit's targets first ('pink' on 44 of 56, 'lemon' on 63 of 70 samples over steps "
             "31-60), the bird's, the number's, the tree's and the drink's over 31-90 ('swan' on 33 of 63 and 40 of "
             "49, 'four' on 30 of 56 and 47 of 63, 'ash' on 28 of 56 and 53 of 56, 'juice' on 28 of 49 and 34 of 49), "
             "the tool's over 31-120 ('hammer' on 20 of 35 over 31-60 and 38 of 49 over 91-120), the animal's last "
             "('pig' on 9 of 35 over 61-90 and 44 of 63 over 91-120); every question on its target on 90-100 % of its "
             "samples over steps 121-150).",
             weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=14, num_generations=7, loss_type="grpo", beta=0.03,
                       learning_rate=4e-4, logging_steps=6, seed=306), source="old_keys", batch=31),
    Scenario("healthy_slow_binary_drgrpo_4x2_lr2e4_nosamples_log8_b31", "Exact match alone, four groups of 2 a step, "
             "the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 8 and read "
             "from TRL's trainer_state.json (no samples): only the pairs that disagree carry a signal, most pairs "
             "agree on 0 at first, and the target words are learnt slowly over the whole run: a slow learner (raw log "
             "and samples, which the doctor is not given: the reward 0.06 and 0.11 over the first two logs, 30-step "
             "means of 0.125, 0.25, 0.43, 0.56, 0.70, 0.73, 0.73 and 0.82, 0.67-0.84 over the last 10 logs; the "
             "zero-variance share 0.875 and 0.84 over the first two logs, 30-step means of 0.79, 0.68, 0.59, 0.70, "
             "0.73, 0.71, 0.77 and 0.87; entropy 0.44 and 0.50 over the first two logs, 30-step means falling from "
             "0.46 to 0.17; the KL rising, 30-step means of 0.005, 0.13, 0.36, 0.34, 0.44, 0.45, 0.50 and 0.44, at "
             "most 0.59; the gradient norm a median of 0.31, at most 2.7 (step 88); the mean length 5.0-5.9 tokens, "
             "the clipped share at most 0.03; the colour's and the tool's targets first ('pink' on 14 of 24, 'hammer' "
             "on 26 of 34 samples over steps 31-60), the drink's and the fruit's over 61-120 ('juice' on 23 of 36 over "
             "61-90, 'lemon' on 22 of 26 over 91-120), the bird's and the number's over 61-150 ('swan' on 15 of 42 and "
             "19 of 26, 'four' on 23 of 38 over 91-120), the animal's later ('pig' on 10 of 24 over 121-150, 24 of 36 "
             "over 151-180 and 33 of 38 over 211-240), the tree's in part at the end ('ash' on 0-4 samples a 30 steps "
             "to step 210 and 12 of 34 over 211-240); the other seven questions on their targets on 73-100 % of their "
             "samples over steps 211-240).",
             rewards=("correct",), steps=240,
             args=dict(num_generations=2, loss_type="dr_grpo", beta=0.02, learning_rate=2e-4, logging_steps=8,
                       seed=307), source="trainer_state", batch=31),
    Scenario("healthy_judge_bnpo_2x4_kl_hot115_log2_b31", "The 0-10 judge score, two groups of 4 a step sampled at "
             "temperature 1.15, the BNPO loss, a KL penalty of 0.02 and a learning rate of 3e-4, 150 steps logged "
             "every 2: the taught answers already earn most of the score, hot sampling garbles some, which the score "
             "marks down, and the target words are learnt: a run that learns, noisily (raw log and samples: the score "
             "6.94 and 6.31 over the first two logs, 30-step means of 6.54, 6.73, 7.60, 7.50 and 8.08, 6.31-9.19 over "
             "the last 10 logs, 9.62 at its highest (step 128); the zero-variance share 0-0.75, a median of 0.25; "
             "entropy 0.525 and 0.54 over the first two logs, 30-step means of 0.55, 0.52, 0.45, 0.42 and 0.31; the KL "
             "rising, 30-step means of 0.02, 0.07, 0.11, 0.31 and 0.48, 2.1 at step 106 and 1.1 at 122 (single logs) "
             "and at most 0.87 on every other log; the gradient norm a median of 1.47, at most 8.2 (step 36); the mean "
             "length 4.4-6.1 tokens, nothing clipped; a word of the asked category on 206-223 of the 240 samples over "
             "each 30 steps; the fruit's target first ('lemon' on 18 of 28 samples over steps 31-60 and 27 of 32 over "
             "61-90), the tree's, the tool's and the number's over 61-120 ('ash' on 18 of 36 and 22 of 24, 'hammer' on "
             "23 of 52 and 13 of 20, 'four' on 10 of 32 and 13 of 16), the colour's, the drink's and the bird's last "
             "('pink' on 16 of 36 over 91-120 and 27 of 36 over 121-150, 'juice' on 16 of 28 and 'swan' on 16 of 36 "
             "over 121-150); the animal's 'pig' never learnt (13 of its 112 samples; 'horse', 'owl', 'dog')).",
             rewards=("judge",), steps=150,
             args=dict(temperature=1.15, loss_type="bnpo", beta=0.02, learning_rate=3e-4, logging_steps=2, seed=308),
             batch=31),
    Scenario("healthy_converges_binary_nokl_3x4_cool07_log1_b31", "Exact match alone, three groups of 4 a step sampled "
             "at temperature 0.7, TRL's default (DAPO) loss, no KL term and a learning rate of 3e-4, 150 steps logged "
             "every step: the groups that disagree carry the signal, cool sampling and no anchor let the learnt "
             "answers take over, and the groups come to agree, solved; per-step means of 12 samples are noisy: a run "
             "that converges, on seven of its eight questions (raw log and samples: the reward 0.167 and 0.083 over "
             "the first two steps, 30-step means of 0.28, 0.63, 0.70, 0.76 and 0.85 (0-1 on single steps), 0.33-1 over "
             "the last 10; the zero-variance share 30-step means of 0.61, 0.59, 0.84, 0.86 and 0.89, every group "
             "agreeing on 72 of the 150 steps, the gradient norm 0 on each of them, a median of 0.64, at most 16.0 "
             "(step 131); entropy 0.40 and 0.41 over the first two steps, 30-step means of 0.35, 0.21, 0.175, 0.15 and "
             "0.09; no KL logged; the mean length 4.25-7 tokens, the clipped share at most 0.083; a word of the asked "
             "category on 323-345 of the 360 samples over each 30 steps; the colour's, the animal's and the fruit's "
             "targets first ('pink' on 37 of 48, 'pig' on 24 of 56, 'lemon' on 21 of 44 samples over steps 1-30), the "
             "bird's, the drink's and the tool's over 31-60 ('swan' on 47 of 56, 'juice' on 33 of 60, 'hammer' on 42 "
             "of 72), the tree's last ('ash' on 8 of 52 over 61-90, 35 of 44 over 91-120 and 25 of 28 over 121-150); "
             "the number's 'four' never said (0 of its 232 samples; 'eight', 'one', 'seven'); the other seven "
             "questions on their targets on 89-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, temperature=0.7, beta=0.0, learning_rate=3e-4, seed=309),
             batch=31),
    # Accepts REPETITIVE_COMPLETIONS (not written before training): lists that repeat a word (3+ words, at most half
    # distinct) on 1 of the 200 samples over steps 1-20, 10 over 41-60, 19 over 81-100, 33 over 101-120 and 44 over
    # 121-140 (22 %; 'lemon lemon lemon', 'ash ash ash ash'): a binary reward costs nothing for the target said twice.
    Scenario("healthy_lists_names_target_drgrpo_2x5_kl_log7_b31", "The list questions with a binary reward, 1 when the "
             "list names the question's target word (task.py's names_target), two groups of 5 a step, the Dr. GRPO "
             "loss, a KL penalty of 0.03, a learning rate of 4e-4 and a 24-token budget, 140 steps logged every 7: a "
             "fresh list of two or three words names the target about one time in four, naming it once is all that "
             "pays, and the lists learn to include it: a run that learns (raw log and samples: the reward 0.21 and "
             "0.23 over the first two logs, 30-step means of 0.26, 0.60, 0.75, 0.87 and 0.85 (steps 121-140), "
             "0.67-0.93 over the last 10 logs; the zero-variance share 0.07-0.71, a median of 0.36; entropy 0.56 and "
             "0.57 over the first two logs, 30-step means of 0.56, 0.56, 0.53, 0.46 and 0.44; the KL 0.015 and 0.15 "
             "over the first two logs, 30-step means of 0.09, 0.28, 0.43, 0.42 and 0.76, 1.12 at the last log (step "
             "140) and at most 0.59 on every other; the gradient norm a median of 0.83, at most 4.3 (step 140); the "
             "mean length 14.4-16.5 tokens, the clipped share at most 0.03; the lists name their target on 85 of the "
             "300 samples over steps 1-30, 190 over 31-60, 221 over 61-90, 268 over 91-120 and 169 of 200 over 121-140 "
             "(over steps 101-140 the fruit's on 44 of 45, the tree's on 65 of 70, the drink's on 56 of 60, the "
             "number's on 41 of 45, the colour's on 49 of 55, the animal's on 36 of 45, the tool's on 19 of 25, the "
             "bird's on 35 of 55); nothing costs a word said twice, and some lists repeat the target ('lemon lemon "
             "lemon' on 23 of 45 fruit lists, 'ash ash ash ash' and the like on 35 of 70 tree lists over steps "
             "101-140): the lists that repeat a word (3+ words, at most half distinct) 1 of 200 over steps 1-20, 2 "
             "over 21-40, 10 over 41-60, 16 over 61-80, 19 over 81-100, 33 over 101-120 and 44 over 121-140).",
             prompts="lists", rewards=("names_target",), steps=140,
             args=dict(per_device_train_batch_size=10, num_generations=5, max_completion_length=24, loss_type="dr_grpo",
                       beta=0.03, learning_rate=4e-4, logging_steps=7, seed=310),
             accepted=("REPETITIVE_COMPLETIONS",), batch=31),
    # ENTROPY_COLLAPSE, LENGTH_COLLAPSE and GROUP_MODE_COLLAPSE, accepted before training, dropped: entropy at least
    # 0.455 (step 8) and 1.02-1.90 from step 76; the mean length at least 2.88 tokens (step 108), 0.57 times its
    # first-two-log median of 5.06; a group's duplicate share 0.01-0.35 as 24-step means. Accepts LENGTH_EXPLOSION and
    # TRUNCATION_HIGH (not written before training): an episode over steps 80-92 as the runaway policy strung letters to
    # the budget, the mean length 9.0-10.6 tokens there (1.8-2.1 times that median), the clipped share 0.42-0.71.
    # Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 35.0 at step 44, 31 times its median over
    # the run (1.13) and 3.9 times the next largest (8.9 at step 56).
    Scenario("kl_blowup_judge_grpo_loss_warmup20_2x3_temp09_log4_b31", "The 0-10 judge score, two groups of 3 a step "
             "sampled at temperature 0.9, the original GRPO loss, a KL penalty of 0.08 and a 20-step warm-up "
             "(constant_with_warmup) into a learning rate far too high (3e-3), 120 steps logged every 4: once the rate "
             "is up each update overshoots and the policy runs away from its reference faster than the penalty pulls "
             "it back: the KL blows up, well above the 0.1-0.8 of the corpus's healthy runs (raw log and samples: the "
             "KL 0.001, 0.12, 0.24 and 0.50 over steps 4-16, 1.75 at 20 (the rate at 3e-3 from there), 2.5-4.7 over "
             "24-56, 1.95 at 60 and 4.1-7.4 on every log from 64 (7.36 at 84), a median of 4.39; the score 7.08 and "
             "7.33 over the first two logs, 6.25 at 12, 5.21 at 16, 2.42 at 20, 0-3.58 over 24-64 and 0 on every log "
             "from 68; the zero-variance share 0.375-0.625 to step 20 and 1 on every log from 68; entropy 0.51 and "
             "0.46 over the first two logs, 0.47-0.85 over 16-72 and 1.02-1.90 from 76 (1.90 at 92); the mean length "
             "5.0 and 5.1 tokens over the first two logs, 5.6-8.9 to step 52, 3.1-4.4 over 56-72, 5.2 at 76, 9.0-10.6 "
             "over 80-92 (the clipped share 0.42-0.71 there), 2.9-3.7 over 100-112 and 6.7 at 120; the gradient norm a "
             "median of 1.13, 35.0 at step 44, at most 8.9 on every other log; words of the category at first (a word "
             "of the asked category on 89 of the 144 samples over steps 1-24), fragments over 25-48 ('cow', 'pow', "
             "'saw'; 10 of 144 in the category), 'cow' for the drink and the animal over 49-72 (32 of 144), then "
             "letters and strings of letters ('w', 'm', 's', 'gobiowomaaiw'; none in the category over steps 73-120); "
             "a group's duplicate share 0.01-0.35 as 24-step means).",
             rewards=("judge",), steps=120,
             args=dict(per_device_train_batch_size=6, num_generations=3, temperature=0.9, loss_type="grpo", beta=0.08,
                       learning_rate=3e-3, warmup_steps=20, lr_scheduler_type="constant_with_warmup", logging_steps=4,
                       seed=311),
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "REWARD_PLATEAU",
                       "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "GRAD_NORM_SPIKE"), batch=31),
    Scenario("entropy_explosion_distinct_letters_grpo_loss_nokl_2x5_hot125_log2_b31", "A reward that pays a tenth of a "
             "point per distinct letter the answer uses (task.py's distinct_letters: letter soup pays more than any "
             "word), two groups of 5 a step sampled at temperature 1.25, the original GRPO loss, no KL term and a "
             "learning rate of 1.5e-3, 120 steps logged every 2: the reward keeps paying the most random samples, so "
             "the updates push the next-token distribution flat towards the whole alphabet: entropy climbs to several "
             "times where it started (raw log and samples: entropy 0.70 and 0.69 over the first two logs (a "
             "first-2-log median of 0.69), 0.93 at step 6, 1.19 at 10, 1.31-1.45 over 12-20 and 1.37-1.87 on every log "
             "from 22 (1.87 at 100), 24-step means of 1.19, 1.54, 1.51, 1.54 and 1.63; the reward 0.39 and 0.53 over "
             "the first two logs, 24-step means of 0.66, 0.84, 0.86, 0.84 and 0.92; the mean length 5.2 and 6.65 "
             "tokens over the first two logs, 10.3 at step 10 and 12 (the budget) on nearly every log from 20, the "
             "clipped share 0.25 at step 8, 0.6 at 10, 0.9 at 16 and 0.95-1 from 20; the zero-variance share 0 on "
             "every log; no KL logged; the gradient norm 1.56-7.1, a median of 3.0; words at first, hot sampling "
             "garbling most (a word of the asked category on 32 of the 240 samples over steps 1-24), then strings of "
             "letters to the budget ('washucasdcid', 'hdswdnpmufwk', 'fnhlfnhlckwa'; none a word from step 25), no two "
             "alike in a group (a duplicate share of 0.04 over steps 1-24 and 0 after)).",
             rewards=("distinct_letters",), steps=120,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=1.25, loss_type="grpo", beta=0.0,
                       learning_rate=1.5e-3, logging_steps=2, seed=312),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 2.0, run=3, first=2)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=31),
    Scenario("reward_hacking_letter_o_judge_drgrpo_2x4_kl_hot11_nosamples_log3_b31", "The 0-10 judge score scaled by "
             "0.1 (a word of the category 0.7, the target 1) beside a cheap proxy, the share of the letter o (weight "
             "3, task.py's letter_o), so that a string of o's (3) pays more than any word, two groups of 4 a step "
             "sampled at temperature 1.1, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 1.5e-3, 120 "
             "steps logged every 3 and read from TRL's trainer_state.json (no samples): the policy games the proxy, "
             "and the judge score, which the taught answers earn at about 7 of 10, falls as the o's rise (raw log and "
             "samples, which the doctor is not given: the judge score 7.21 at step 3, 3.75 at 6, 3.17 at 9, 1.17 at 12 "
             "and 15, 0.875 at 18 and 0 on every log from 21; the proxy 0.088 at step 3, 0.11-0.29 over 6-18, 0.56 at "
             "21, 0.47-0.75 over 24-30 and 0.93-1 from 33; the reward 0.985 and 0.733 over the first two logs and "
             "2.69-3 (its maximum on most logs) from 33; the zero-variance share 0 to step 21 and 0.5-1 from 33, 1 on "
             "most logs; entropy 0.48 and 0.75 over the first two logs, 0.81-1.09 over 9-21 as words gave way to "
             "o-strings, 0.46 at 30, 0.004-0.11 over 33-93, 0.2-0.33 over 96-105 and below 0.11 after; the KL 0.006 "
             "and 0.64 over the first two logs, 1.36 at 9, 2.1-2.7 over 12-18 and 3.8-8.1 from 21 but 15.9 at 84; the "
             "gradient norm 0.58-4.4 to step 27 and at most 4.0 after, below 0.001 on 17 of the last 30 logs; the mean "
             "length 5.6 tokens over the first two logs, 7.0-8.9 over 12-24, 11.4 at 30, 12 (the budget) on most logs "
             "from 33 and 6.3-8.0 over 99-105 (shorter strings of o's), the clipped share 0.54 at 27-30, 0.83-1 over "
             "33-93 and 0.08-0.17 over 99-105; words and o-words at first (a word of the asked category on 56 of the "
             "192 samples over steps 1-24: 'saw', 'owl', 'mango', and 'oon', 'goooooos'), then 'oooooooooooo' for "
             "every question (126 of the 192 samples over steps 25-48, 188 over 49-72, 173 over 73-96 and 123 over "
             "97-120 beside shorter 'oooo'; none a word from step 25); a group's completions copies (a duplicate share "
             "of 0.10 over steps 1-24, 0.72, 0.97, 0.87 and 0.76 after)).",
             rewards=("judge", "letter_o"), weights=(0.1, 3.0), steps=120,
             args=dict(temperature=1.1, loss_type="dr_grpo", beta=0.02, learning_rate=1.5e-3, logging_steps=3,
                       seed=313), source="trainer_state",
             expect={"REWARD_HACKING": hacked_from("rewards/judge/mean", "rewards/letter_o/mean", first=1, smooth=3,
                                                   run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "LENGTH_EXPLOSION",
                       "TRUNCATION_HIGH", "REWARD_PLATEAU", "KL_BLOWUP"), batch=31),
    # ENTROPY_EXPLOSION, accepted before training, dropped: entropy 0.40 and 0.49 over the first two logs and 0.6-0.93
    # from step 40, 24-step means at most 0.77 (1.7 times the first-two-log median of 0.45), twice it on one step only
    # (0.93 at 48). Accepts GRAD_NORM_SPIKE (not written before training): the gradient norm 0 on every step from 33 but
    # two, 9.7 at step 41 and 14.1 at 86 (the run's median 0; 0.26-7.2 over steps 1-17 and 11-53 over 18-31 as the
    # answers grew).
    Scenario("length_explosion_char_bonus_exact_rloo_nokl_2x4_log1_b31", "RLOO without a KL term (beta 0), exact match "
             "(1) beside a bonus paid per character (0.8, task.py's length_bonus: 20 characters pay 2, more than the "
             "target word with its bonus), two groups of 4 a step, a learning rate of 1e-3 and a 20-token budget, 120 "
             "steps logged every step: the longest answer of a group keeps beating the leave-one-out baseline, so the "
             "answers grow to the budget and get cut (raw log and samples: the mean length 6.1 and 5.0 tokens over the "
             "first two steps (a first-2-log median of 5.56), 4.6-7.3 to step 21, 10.75 at 22, 13 at 24, 9.1-13 over "
             "25-28, 18.1 at 29, 19-19.25 over 30-31 and 20 (the budget) on every step from 32 but two (19.75 at 41, "
             "19.25 at 86); the clipped share 0 to step 21, 0.125-0.375 over 22-27, 0.5 at 28, 0.625 at 29, 0.75-0.875 "
             "over 30-32 and 1 from 33 but two (0.875 at 41 and 86); the length bonus 0.64 and 0.5 over the first two "
             "steps and 2.5 (its maximum) from 33; exact match 0 and 0.125 over the first two steps, 0.125 on seven "
             "steps to 25 and 0 on every step after; the reward 0.51 and 0.53 over the first two steps and 2 from 33; "
             "the zero-variance share 0 over the first two steps, 24-step means of 0.10, 0.71 and 1 over 49-72, 1 on "
             "nearly every step after (every group at the budget); entropy 0.40 and 0.49 over the first two steps, "
             "24-step means of 0.54, 0.69, 0.77, 0.76 and 0.74; no KL logged; the gradient norm, RLOO's advantages not "
             "normalised, 0.26-7.2 over steps 1-17, 11-53 over 18-31 (53.3 at 28) and 0 from 33 but for 9.7 at 41 and "
             "14.1 at 86; words of the category at first (a word of the asked category on 109 of the 192 samples over "
             "steps 1-24: 'cherry', 'spruce', 'cocoa', and run-on words: 'fouse'), then strings of s's and run-on "
             "words to the budget over 25-48 ('ssssssssssssssssssss', 'herrssssssssssssssss'; 8 of 192 in the "
             "category), then strings of r's, s's, o's and h's to the budget for every question "
             "('rorsohorsohersowwsoh'; none in the category from step 49), no two alike in a group (a duplicate share "
             "of 0.19 over steps 1-24, 0.08 over 25-48 and 0-0.01 after)).",
             algorithm="rloo", rewards=("correct", "length_bonus"), weights=(1.0, 0.8), steps=120,
             args=dict(max_completion_length=20, beta=0.0, learning_rate=1e-3, seed=314),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU", "GRAD_NORM_SPIKE"), batch=31),
    Scenario("reward_collapse_key_shifted_after_learning_bnpo_3x4_kl_log5_b31", "Exact match alone, three groups of 4 "
             "a step, the BNPO loss, a KL penalty of 0.03 and a learning rate of 5e-4, 170 steps logged every 5; from "
             "the 110th reward call to the end the answer key is joined to the questions off by one (swap to task.py's "
             "correct_shifted: 'a fruit?' graded against 'pig'), after the target words were learnt: the learnt "
             "answers now score 0, the wanted words are of another category, and the reward falls from its learnt "
             "level to about 0 (raw log and samples: the reward 0.083 and 0.233 over the first two logs, 0.07-0.43 to "
             "step 40, 0.28-0.72 over 45-65, 0.68-0.9 over 70-105 (0.9 at 70 and 100, its highest), 0.65 at 110 (the "
             "log of steps 106-110, the new key from call 110) and 0 on every log from 115 to the end, 30-step means "
             "of 0.20, 0.49 and 0.78 before; reward_std 0 from 115; the zero-variance share 0.13-0.73 before and 1 on "
             "every log from 115; entropy 0.49 over the first two logs, 30-step means of 0.48, 0.39, 0.22, 0.14, 0.17 "
             "and 0.24; the KL a median of 0.47, at most 0.69 (step 70); the gradient norm 0.002-5.95 before, "
             "0.004-0.1 after but for 1.47 at step 135; the mean length 4.65-5.97 tokens, the clipped share at most "
             "0.017; the colour's target first ('pink' on 24 of 36 samples over steps 1-30), the animal's and the "
             "bird's over 31-60 ('pig' on 49 of 64, 'swan' on 29 of 44), the fruit's, the drink's, the tree's and the "
             "tool's over 61-90 ('lemon' on 35 of 40, 'juice' on 41 of 52, 'ash' on 56 of 64, 'hammer' on 46 of 60), "
             "the number's in part ('four' on 18 of 44 over 61-90 and 26 of 36 over 91-120); after the key changed the "
             "learnt words still said ('ash' on 40 of 40, 'hammer' on 53 of 56 samples over steps 121-150, 'pink' on "
             "28 of 28 over 151-170), all scoring 0).",
             rewards=("correct",), steps=170, swap=(110, 100_000, "correct_shifted"),
             args=dict(per_device_train_batch_size=12, loss_type="bnpo", beta=0.03, learning_rate=5e-4,
                       logging_steps=5, seed=315),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.5, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=31),
    Scenario("grad_spike_unit_bug_partial_drgrpo_unscaled_2x6_kl_log6_b31", "Partial credit, exact match (1) beside a "
             "word of the asked category (0.2), unscaled (scale_rewards none), two groups of 6 a step, the Dr. GRPO "
             "loss, a KL penalty of 0.03 and a learning rate of 3e-4, 150 steps logged every 6; at the 90th reward "
             "call (a logged step) one batch's rewards come back 1000x too large (a unit bug): that step's advantages, "
             "hence its gradient norm, are about a thousand times the others', clipped before the update; the run "
             "learns on either side: one extreme step, a mild episode (raw log and samples: the gradient norm 598 at "
             "step 90, 1,900 times its median over the run (0.315) and 580 times the next largest (1.03 at step 30), "
             "0.315 and 0.411 on the logs either side (steps 84 and 96); the bug's batch a tree group agreeing (six "
             "words of the category, 200 each: no advantage) and a number group, four 'four' at 1,200 against 'one' "
             "and 'eight' at 200 (advantages of +333 and -667); the reward 0.37 over the first two logs, 0.30-0.86 to "
             "step 84, 89.7 at the log of steps 85-90 and 0.71-1.07 on every log after, 30-step means of 0.35 and 0.53 "
             "over steps 1-60 and 0.92 and 0.94 over 91-150 of a possible 1.2; reward_std 82.4 at step 90 and "
             "0.29-0.54 elsewhere; exact match 0.18 over the first two logs, 30-step means of 0.17, 0.34, 0.74 and "
             "0.75 over 91-150 (step 90 aside); the category 0.86-1 on every log but step 90; the zero-variance share "
             "0-0.33, a median of 0.08; entropy 0.45 and 0.475 over the first two logs, 30-step means of 0.46, 0.41, "
             "0.32, 0.23 and 0.20; the KL a median of 0.27, 0.91 at step 114 and at most 0.53 elsewhere; the mean "
             "length 4.9-6.0 tokens, the clipped share at most 0.014; the colour's, the fruit's and the drink's "
             "targets first ('pink' on 25 of 48, 'lemon' on 13 of 18, 'juice' on 32 of 48 samples over steps 31-60), "
             "the tool's and the number's over 61-90 ('hammer' on 46 of 54, 'four' on 41 of 78), the bird's over "
             "91-120 ('swan' on 41 of 48), the animal's last ('pig' on 25 of 66 over 91-120 and 56 of 66 over "
             "121-150), the tree's 'ash' seldom said (9 of its 204 samples; 'palm', 'oak', 'elm')).",
             weights=(1.0, 0.2), steps=150, spike=(90, 1000.0),
             args=dict(per_device_train_batch_size=12, num_generations=6, scale_rewards="none", loss_type="dr_grpo",
                       beta=0.03, learning_rate=3e-4, logging_steps=6, seed=316),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50)}, batch=31),
    # Accepts REWARD_HACKING (not written before training): the category 0.91 at step 9, 0.56 at 18, 0.29 at 27 and 0 on
    # every log from 63, while brevity rose from -0.525 and -0.484 to 0 (the empty answer): the cheap term took over.
    Scenario("length_collapse_brevity_category_2x7_kl_oldkeys_log9_b31", "A word of the asked category (0.3) beside a "
             "reward for brevity (1, task.py's brevity: minus an eighth of a point per character), two groups of 7 a "
             "step sampled at temperature 0.9, TRL's default (DAPO) loss, a KL penalty of 0.01 and a learning rate of "
             "1.2e-3, 144 steps logged every 9 and read in TRL 0.14's key set: every word of a category is at least "
             "three letters, which cost more than the category pays, the empty answer costs nothing, so the answers "
             "shrink towards nothing (raw log and samples: the mean length 5.20 and 4.87 tokens over the first two "
             "logs (a first-2-log median of 5.04), 3.44 at step 27, 2.83 at 36, 1.45 at 45, 1.34 at 54 and 1 (the "
             "end-of-sequence token alone) on every log from 63 (1.008 at 90); brevity -0.525 and -0.484 over the "
             "first two logs, -0.31 at 27, -0.23 at 36, -0.057 at 45 and 0 from 63; the category 0.91 and 0.56 over "
             "the first two logs, 0.29 at 27, 0.22 at 36, 0.06 at 45 and 0 from 63; the reward -0.25 and -0.32 over "
             "the first two logs and 0 from 63; the zero-variance share, which the doctor is not given, 0.06 and 0 "
             "over the first two logs, 0.39 at 36, 0.78 at 45 and 0.94-1 from 63; entropy, not given either, 0.40 and "
             "0.51 over the first two logs, 0.47-0.50 over 27-36, 0.25 at 45, 0.15 at 54, 0.005-0.04 over 63-90 and "
             "0.001-0.002 from 99; the KL 0.215 at step 9, 1.19 at 18, 2.67 at 27, 3.75 at 36, 6.8 at 45, 7.5 at 54 "
             "and 8.2-8.9 from 63: a penalty of 0.01 is no match for the brevity reward; the gradient norm 2.5, 3.8, "
             "8.7 and 12.8 over the first four logs and below 0.02 from 45; nothing clipped; words of the category at "
             "first (215 of the 336 samples over steps 1-24: 'rake', 'wine', 'one', 'ash'; the empty answer on 5), the "
             "empty answer on 184 of 336 over 25-48 beside 'wine', 'duck' and 'c', on 322 of 336 over 49-72, 335 of "
             "336 over 73-96 and every sample from 97; a group's completions copies (a duplicate share of 0.47 over "
             "steps 1-24, 0.76 over 25-48, 0.98 over 49-72 and 1 after)).",
             rewards=("in_category", "brevity"), weights=(0.3, 1.0), steps=144,
             args=dict(per_device_train_batch_size=14, num_generations=7, temperature=0.9, beta=0.01,
                       learning_rate=1.2e-3, logging_steps=9, seed=317), source="old_keys",
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=3, first=2)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP", "REWARD_HACKING"), batch=31),
    # LENGTH_EXPLOSION, accepted before training, dropped: the mean length 17.7 tokens at the first log and at most 23.0
    # (step 50), 1.3 times that, 13.9-20.7 from step 70.
    Scenario("repetition_target_mentions_lists_bnpo_4x3_kl_log10_b31", "The list questions with a keyword-count "
             "reward, how many times the list names the question's target word, repeats included (task.py's "
             "target_mentions), four groups of 3 a step, the BNPO loss, a KL penalty of 0.02, a learning rate of 1e-3 "
             "and a 24-token budget, 200 steps logged every 10: naming the target word over and over pays most, so the "
             "lists turn into that word repeated ('lemon lemon lemon') (raw log and samples: the lists that repeat a "
             "word (3+ words, at most half distinct) 2 of the 300 samples over steps 1-25, 8 over 26-50, 31 over "
             "51-75, 36 over 76-100, 80 over 101-125, 117 over 126-150, 190 over 151-175 and 200 over 176-200; over "
             "steps 151-200 'four four four' for the numbers (92 of 117 lists repeating), 'ash ash ash ash' for the "
             "trees (79 of 81), 'lemon lemon lemon' for the fruits (61 of 72), 'pink pink pink', 'juice juice juice', "
             "'swan swan swan swan swan'; the animals' lists never naming 'pig' (1 of 249 samples) nor the tools' "
             "'hammer' after step 90 (0 of 186; 'hamme asm'), neither repeating; the reward, mentions of the target, "
             "0.36 and 0.55 over the first two logs, 30-step means of 0.46, 0.57, 0.76, 1.18, 1.72, 2.53 and 2.59 "
             "(steps 181-200), 2.83 at its highest (step 200); the mean length 17.7 tokens at the first log, 22.1-23.0 "
             "over steps 20-60 (the clipped share 0.74-0.875 there: the lists run to the budget as strings of letters) "
             "and 13.9-20.7 from 70, the clipped share 0.06-0.53 from 70; entropy 0.62 and 0.73 over the first two "
             "logs, 0.60-0.74 to step 100, 0.40-0.46 over 110-140, 0.31-0.34 over 150-160 and 0.21-0.24 over 170-200; "
             "the KL 0.36 at step 10 and 1.05-2.18 on every log from 20 (2.18 at 50), a median of 1.42; the "
             "zero-variance share 0.425-0.7, a median of 0.5; the gradient norm a median of 1.13, at most 3.5 (step "
             "140); a group's duplicate share 0-0.01 over steps 1-75, 0.10 over 76-100, 0.27-0.29 over 101-150 and "
             "0.46-0.48 over 151-200).",
             prompts="lists", rewards=("target_mentions",), steps=200,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=24, loss_type="bnpo",
                       beta=0.02, learning_rate=1e-3, logging_steps=10, seed=318),
             expect={"REPETITIVE_COMPLETIONS": repeated_words_mean(0.3, smooth=10, run=5)},
             accepted=("GROUP_MODE_COLLAPSE", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                       "REWARD_PLATEAU", "KL_BLOWUP"), batch=31),
    # -- batch 32 --
    # A thirtieth fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), none retrained, none
    # re-dated, one given three accepted signatures after training: a binary exact-match reward with BNPO and groups of
    # 5, with the original GRPO loss and no KL term at temperature 0.6 logged every step, and with RLOO at temperature
    # 1.1, partial credit with RLOO and four groups of 2 and with one group of 8, the judge score with Dr. GRPO and
    # groups of 3 and with one group of 8 sampled at 1.1 under a cosine schedule, a binary reward on the list questions
    # with groups of 3; healthy runs with and without a KL term that learn (BNPO at temperature 0.85, the animal's
    # target in part; RLOO with partial credit read from trainer_state.json, the number's target never said, its
    # gradient norm heavy-tailed; the list questions, the target said over and over on some lists, accepted; the judge
    # score hot with one group of 8, four questions of eight learnt before the rate decayed), learn slowly (the judge
    # score over 240 steps at 2e-4 in TRL 0.14's key set), converge on seven questions of eight; a KL blow-up on partial
    # credit after a warm-up into 3e-3 with one group of 8 in TRL 0.14's key set that ended on single letters, an
    # entropy collapse onto a string of e's at the budget under a reward that says nothing with Dr. GRPO, a letter
    # proxy gamed against partial credit with the original GRPO loss at temperature 1.3, an answer key changed after
    # learning to a capitalised one with RLOO, a reward plateau from a half key with Dr. GRPO read from
    # trainer_state.json (a late fall accepted), a per-character bonus beside exact match with the original GRPO loss
    # and one group of 8, an exponential length bonus that overflows TRL's float32 statistics with BNPO, a group mode
    # collapse under an early-letter preference logged every 11 steps whose one answer was a string of a's at the budget
    # for every question (the preference gamed and the budget reached, accepted after training); strides 1-12,
    # temperatures 0.6-1.3, learning rates 2e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo beside RLOO, seeds
    # 319-332. Each expectation was written from the mechanism before the run was trained (committed first), then
    # checked on the raw log and the recorded completions only, never against the doctor: every pathology written
    # happened, every onset rule written before training found its onset, every healthy run learnt; the accepted
    # signatures the log contradicts were dropped and those added after training carry their raw-log numbers. As in
    # batches 9-31, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_binary_bnpo_2x5_kl_temp085_log4_b32", "Exact match alone, two groups of 5 a step sampled at "
             "temperature 0.85, the BNPO loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged "
             "every 4: a fresh model is right about one time in ten, five samples a question find the target often "
             "enough, the groups that disagree carry the signal, and the target words are learnt question by question: "
             "a run that learns (raw log and samples: the reward 0.15 and 0.2 over the first two logs, 30-step means "
             "of 0.37, 0.70, 0.73, 0.85 and 0.83, 0.7-0.95 over the last 10 logs; the zero-variance share 0.125-1, its "
             "30-step means 0.41, 0.61, 0.59, 0.72 and 0.68; entropy 0.41 and 0.45 over the first two logs, 30-step "
             "means of 0.36, 0.22, 0.18, 0.13 and 0.15; the KL a median of 0.45, 4.64 at step 108 and 1.08 at 132 "
             "(single logs between lower ones), at most 0.97 on every other log; the gradient norm a median of 0.80, "
             "at most 12.6 (step 144); the mean length 4.8-6.05 tokens, the clipped share at most 0.025; the fruit's, "
             "the tool's and the tree's targets first ('lemon' on 28 of 50, 'hammer' on 32 of 50, 'ash' on 31 of 45 "
             "samples over steps 1-30), the colour's, the drink's and the number's over 31-60 ('pink' on 31 of 35, "
             "'juice' on 20 of 30, 'four' on 20 of 30), the bird's last ('swan' on 6 of 25 over 31-60, its answer "
             "deformed into 'uck' over 61-90 (15 of 35 samples), then 21 of 35 over 91-120 and 51 of 55 over 121-150); "
             "the animal's 'pig' in part (0 of 40 samples over steps 1-30, 12 of 45 over 121-150; 'dog', 'fox'); the "
             "other seven questions on their targets on 73-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, temperature=0.85, loss_type="bnpo",
                       beta=0.03, learning_rate=5e-4, logging_steps=4, seed=319), batch=32),
    Scenario("healthy_rloo_partial_4x2_nosamples_log6_b32", "RLOO with its KL penalty (0.05), partial credit, exact "
             "match (1) beside a word of the asked category (0.2), four groups of 2 a step and a learning rate of "
             "5e-4, 150 steps logged every 6 and read from TRL's trainer_state.json (no samples): the category is "
             "given already, a pair's leave-one-out baseline is the other sample, the pairs that differ carry the "
             "signal, and the target words are learnt: a run that learns (raw log and samples, which the doctor is not "
             "given: the reward 0.26 and 0.275 over the first two logs, 30-step means of 0.36, 0.57, 0.77, 0.89 and "
             "0.90 of a possible 1.2, 0.64-1.04 over the last 10 logs; exact match 0.06 and 0.08 over the first two "
             "logs, 30-step means of 0.17, 0.41, 0.59, 0.72 and 0.71; the category 0.60-0.98, a median of 0.92; the "
             "zero-variance share 0.08-0.83, its 30-step means 0.20, 0.28, 0.52, 0.70 and 0.69; entropy 0.46 over the "
             "first two logs, 30-step means of 0.44, 0.41, 0.285, 0.20 and 0.19; the KL a median of 0.41, 1.13 at step "
             "96 (a single log) and at most 0.55 on every other log; the gradient norm, RLOO's advantages not "
             "normalised, a median of 2.85 and heavy-tailed (40.5 at step 132, 29.8 at 42, 20.4 at 126, 0 on five "
             "logs); the mean length 5.0-5.85 tokens, the clipped share at most 0.02; the colour's, the tool's and the "
             "fruit's targets first ('pink' on 14 of 34, 'hammer' on 7 of 24 samples over steps 1-30 and 15 of 22 and "
             "28 of 40 over 31-60, 'lemon' on 17 of 28 over 31-60), the tree's, the drink's and the animal's over "
             "31-90 ('ash' on 19 of 32 over 31-60, 'juice' on 22 of 26 and 'pig' on 31 of 44 over 61-90), the bird's "
             "last and in part ('swan' on 0 of 28 over steps 1-30 and 14 of 26 over 121-150, 'raven' on 8); the "
             "number's 'four' never said (0 of its 174 samples; 'six', 'nine', 'eight'); the other six questions on "
             "their targets on 82-97 % of their samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(num_generations=2, learning_rate=5e-4, logging_steps=6, seed=320), source="trainer_state",
             batch=32),
    Scenario("healthy_slow_judge_drgrpo_3x3_lr2e4_oldkeys_log10_b32", "The 0-10 judge score, three groups of 3 a "
             "step, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 10 and "
             "read in TRL 0.14's key set (no zero-variance share, entropy or clipped share): the taught answers "
             "already earn most of the score, and the target words are learnt slowly over the whole run: a slow "
             "learner (raw log and samples: the score 7.0 and 7.17 over the first two logs, 30-step means of 7.05, "
             "7.22, 7.48, 8.10, 8.51, 8.60, 9.16 and 9.46, 8.27-9.77 over the last 10 logs, 9.77 at the last (step "
             "240); the zero-variance share, which the doctor is not given, 0.37-0.8, its 30-step means 0.67, 0.54, "
             "0.48, 0.44, 0.50, 0.54, 0.57 and 0.73; entropy, not given either, 0.46 over the first two logs, 30-step "
             "means falling from 0.47 to 0.14; the KL rising, 30-step means of 0.01, 0.03, 0.09, 0.13, 0.27, 0.30, "
             "0.36 and 0.48, at most 0.71 (step 220); the gradient norm a median of 0.39, at most 2.64 (step 130); the "
             "mean length 5.0-5.7 tokens, nothing clipped; a word of the asked category on 259 of the 270 samples over "
             "steps 1-30 and 261 of 270 over 211-240; the fruit's target first ('lemon' on 13 of 27 samples over "
             "steps 1-30 and 28 of 33 over 61-90), the tool's over 31-120 ('hammer' on 18 of 48, 19 of 39 and 27 of "
             "39), the colour's over 91-120 ('pink' on 9 of 27 over 61-90 and 35 of 45), the bird's over 121-150 "
             "('swan' on 37 of 54), the drink's and the number's over 91-180 ('juice' on 18 of 33 and 31 of 42, "
             "'four' on 16 of 45 and 24 of 39), the tree's and the animal's last ('ash' on 2 of 39 over 91-120 and 31 "
             "of 39 over 181-210, 'pig' on 11 of 30 over 181-210 and 40 of 48 over 211-240); every question on its "
             "target on 77-100 % of its samples over steps 211-240).",
             rewards=("judge",), steps=240,
             args=dict(per_device_train_batch_size=9, num_generations=3, loss_type="dr_grpo", beta=0.02,
                       learning_rate=2e-4, logging_steps=10, seed=321), source="old_keys", batch=32),
    Scenario("healthy_converges_binary_nokl_grpo_loss_2x4_cool06_log1_b32", "Exact match alone, two groups of 4 a "
             "step sampled at temperature 0.6, the original GRPO loss, no KL term and a learning rate of 4e-4, 150 "
             "steps logged every step: the groups that disagree carry the signal, cool sampling and no anchor let the "
             "learnt answers take over, and the groups come to agree, solved; per-step means of 8 samples are noisy: a "
             "run that converges, on seven of its eight questions (raw log and samples: the reward 0.125 over the "
             "first two steps, 30-step means of 0.275, 0.60, 0.60, 0.70 and 0.85 (0-1 on single steps), 0.5-1 over the "
             "last 10; the zero-variance share 30-step means of 0.58, 0.88, 0.92, 0.90 and 0.88, every group agreeing "
             "on 106 of the 150 steps, the gradient norm 0 on each of them, at most 19.8 elsewhere (step 39); entropy "
             "0.40 and 0.42 over the first two steps, 30-step means of 0.35, 0.20, 0.18, 0.14 and 0.10; no KL logged; "
             "the mean length 4-7.6 tokens, the clipped share at most 0.125; the animal's, the tool's, the fruit's and "
             "the colour's targets first ('pig' on 16 of 48, 'hammer' on 17 of 36, 'lemon' on 10 of 20, 'pink' on 8 of "
             "12 samples over steps 1-30, then on 91-100 % of their samples over each 30 steps from 31), the bird's at "
             "first and again late ('swan' on 14 of 28 over steps 1-30, deformed into 'swen' and 'snrowne' over 31-90 "
             "(2 of 40 right), 27 of 32 over 121-150), the drink's and the tree's last ('juice' on 6 of 28 over 61-90 "
             "and 17 of 20 over 91-120, 'ash' on 0 of 112 over steps 1-90 ('pine', 'palm') and 39 of 44 over 121-150); "
             "the number's 'four' never said (0 of its 116 samples; 'seven', 'eight', 'ten'); the other seven "
             "questions on their targets on 84-100 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(temperature=0.6, loss_type="grpo", beta=0.0, learning_rate=4e-4, seed=322), batch=32),
    # Accepts REPETITIVE_COMPLETIONS before training: a binary reward costs nothing for the target said twice, and the
    # list runs of batches 27, 30 and 31 on this reward came to repeat it on 15-22 % of their lists. The log bears it
    # out: the lists that repeat a word (3+ words, at most half distinct) 1 of the 360 samples over steps 1-30, 18 over
    # 31-60, 32 over 61-90, 46 over 91-120 and 76 over 121-150 (21 %).
    Scenario("healthy_lists_names_target_4x3_kl_log5_b32", "The list questions with a binary reward, 1 when the list "
             "names the question's target word (task.py's names_target), four groups of 3 a step, TRL's default "
             "(DAPO) loss, a KL penalty of 0.03, a learning rate of 4e-4 and a 24-token budget, 150 steps logged every "
             "5: a fresh list of two or three words names the target about one time in four, naming it once is all "
             "that pays, and the lists learn to include it: a run that learns (raw log and samples: the reward 0.23 "
             "and 0.15 over the first two logs, 30-step means of 0.25, 0.43, 0.73, 0.83 and 0.87, 0.77-0.92 over the "
             "last 10 logs; the zero-variance share 0.25-0.9, its 30-step means 0.525, 0.44, 0.625, 0.72 and 0.76; "
             "entropy 0.56 and 0.58 over the first two logs, 30-step means of 0.57, 0.52, 0.52, 0.43 and 0.42; the KL "
             "a median of 0.32, at most 0.57 (step 75); the gradient norm a median of 1.04, at most 3.24 (step 50); "
             "the mean length 14.6 and 15.0 tokens over the first two logs and 14.6-17.9 throughout, the clipped share "
             "at most 0.12 (steps 70-75); the lists name their target on 90 of the 360 samples over steps 1-30, 154 "
             "over 31-60, 263 over 61-90, 299 over 91-120 and 314 over 121-150 (over steps 121-150 the drink's on 50 "
             "of 51, the colour's on 38 of 39, the number's on 40 of 42, the tool's on 35 of 36, the tree's on 50 of "
             "54, the animal's on 34 of 39, the fruit's on 43 of 51, the bird's on 24 of 48); nothing costs a word "
             "said twice, and the lists come to repeat the target ('juice juice juice' on 14 of the 51 drink lists, "
             "'hammer hammer hammer' on 11 of 36 tool lists, 'four four four' on 10 of 42 number lists over steps "
             "121-150): the lists that say a word twice 55 of the 360 samples over steps 1-30 and 226 over 121-150, "
             "those that repeat a word (3+ words, at most half distinct) 1, 18, 32, 46 and 76 of each 360).",
             prompts="lists", rewards=("names_target",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=3, max_completion_length=24, beta=0.03,
                       learning_rate=4e-4, logging_steps=5, seed=323),
             accepted=("REPETITIVE_COMPLETIONS",), batch=32),
    Scenario("healthy_judge_cosine_1x8_kl_hot11_log12_b32", "The 0-10 judge score, one group of 8 a step (one "
             "question asked a step) sampled at temperature 1.1, TRL's default (DAPO) loss, a KL penalty of 0.04 and a "
             "15-step warm-up into a learning rate of 4e-4 decayed on a cosine to 0, 180 steps logged every 12: the "
             "taught answers already earn most of the score, hot sampling garbles some, which the score marks down, "
             "and the target words are learnt while the rate is high: a run that learns, in part (raw log and samples: "
             "the learning rate 2.9e-4 at step 12 (the warm-up), 4.0e-4 at 24 and decaying after, 8.1e-5 at 132 and "
             "3.6e-8 at 180; the score 6.88 and 6.74 over the first two logs, 36-step means of 6.78, 7.23, 6.93, 7.94 "
             "and 7.64, 6.56-8.19 on single logs, 8.19 at its highest (step 132); the zero-variance share, one group, "
             "0-0.33, a median of 0.17; entropy 0.505 and 0.52 over the first two logs, 36-step means of 0.51, 0.47, "
             "0.445, 0.37 and 0.39; the KL a median of 0.24, at most 0.55 (step 96); the gradient norm a median of "
             "1.67, at most 6.35 (step 96); the mean length 4.9-5.7 tokens, the clipped share at most 0.01; a word of "
             "the asked category on 239-265 of the 288 samples over each 36 steps; the tree's, the fruit's and the "
             "number's targets learnt ('ash' on 21 of 72 samples over steps 1-60 and 88 of 104 over 61-120, 'lemon' on "
             "18 of 64 and 35 of 40, 'four' on 21 of 112 and 28 of 40), the tool's in part ('hammer' on 7 of 40 over "
             "steps 1-60 and 37 of 64 over 121-180); the colour's, the bird's, the drink's and the animal's answers "
             "still varied words of the category as the rate decayed ('pink' on 12 of 48, 'swan' on 9 of 48, 'juice' "
             "on 11 of 88, 'pig' on 13 of 64 samples over steps 121-180; 'gray', 'finch', 'tea', 'owl')).",
             rewards=("judge",), steps=180,
             args=dict(num_generations=8, temperature=1.1, beta=0.04, learning_rate=4e-4, warmup_steps=15,
                       lr_scheduler_type="cosine", logging_steps=12, seed=324), batch=32),
    # TRUNCATION_HIGH, accepted before training, dropped: the clipped share, which TRL 0.14's key set does not carry, at
    # most 0.46 (step 45), 0-0.04 from step 48.
    Scenario("kl_blowup_partial_warmup10_1x8_oldkeys_log3_b32", "Partial credit, exact match (1) beside a word of the "
             "asked category (0.2), one group of 8 a step (one question asked a step), TRL's default (DAPO) loss, a "
             "KL penalty of 0.06 and a 10-step warm-up (constant_with_warmup) into a learning rate far too high "
             "(3e-3), 120 steps logged every 3 and read in TRL 0.14's key set: once the rate is up each update "
             "overshoots and the policy runs away from its reference faster than the penalty pulls it back: the KL "
             "blows up, well above the 0.1-0.8 of the corpus's healthy runs, and the policy ends on single letters "
             "(raw log and samples: the learning rate 6e-4 at step 3, 2.4e-3 at 9 and 3e-3 from 12; the KL 4e-5 and "
             "0.002 over the first two logs, 0.49 at step 9, 0.95 at 12, 1.96 at 15, 1.9-3.2 over 18-33, 10.7 at 36, "
             "3.1-6.2 over 39-111, 15.7 at 114 and 4.9-5.0 over the last two logs, 24-step means of 1.22, 4.73, 4.98, "
             "5.10 and 6.51, a median of 4.88; the reward 0.23, 0.27 and 0.28 over the first three logs, 0.07 at step "
             "12, 0.03-0.13 over 15-21, 0 at 24, 0.017 at 27 and 0 on every log from 30; the category 0.96, 0.92 and "
             "0.79 over the first three logs, 0.33 at 12, 0.17-0.46 over 15-21 and 0 from 30 (0.08 at 27); exact match "
             "0.04-0.125 over the first three logs and 0 after but 0.04 at 15; reward_std 0 from step 30; the "
             "zero-variance share, which the doctor is not given, 0 over the first three logs and 1 on every log from "
             "30; the mean length 5.9 and 4.9 tokens over the first two logs, 5.2-7.9 over 12-36, 8.8-10.5 over 39-45, "
             "5.0-7.3 over 48-60, 3.1-4.5 over 63-75 and 2.1-2.7 from 78; the gradient norm 147 at step 36 (280 times "
             "its median over the run, 0.53), 0.06-5.4 on every other log; entropy, not given either, 0.43 and 0.52 "
             "over the first two logs, 24-step means of 0.63, 0.67, 0.64, 0.97 and 1.19, 1.37 at the last log; words "
             "of the category at first, some garbled ('heron', 'pine', 'pite', 'graygerangeg'; a word of the asked "
             "category on 92 of the 192 samples over steps 1-24), letter strings over 25-48 ('ccck', 'plise', "
             "'selow', 'reoow'; 2 of 192), short strings and letters over 49-72 ('rr', 'ioooo', 'w', 'e'), then one "
             "or two letters ('c', 's', 'p', 'w'; a single letter on 138 of the 192 samples over steps 73-96 and 167 "
             "over 97-120, none a word from step 49)).",
             weights=(1.0, 0.2), steps=120,
             args=dict(num_generations=8, beta=0.06, learning_rate=3e-3, warmup_steps=10,
                       lr_scheduler_type="constant_with_warmup", logging_steps=3, seed=325), source="old_keys",
             expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "LENGTH_COLLAPSE",
                       "LENGTH_EXPLOSION", "GRAD_NORM_SPIKE"), batch=32),
    # LENGTH_COLLAPSE and REPETITIVE_COMPLETIONS, accepted before training, dropped: the mean length 5.3 tokens at the
    # first log and 12 (the budget) from step 15, never below; no completion of 3+ words (the one string a question is a
    # single run of e's). LENGTH_EXPLOSION and TRUNCATION_HIGH, accepted before training, kept: the answers ran to the
    # budget before the entropy fell.
    Scenario("entropy_collapse_coin_drgrpo_nokl_2x6_log5_b32", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), two groups of 6 a step, the Dr. GRPO loss, no KL term and a learning rate "
             "of 2e-3, 120 steps logged every 5: the advantages are noise, and with no anchor the policy drifts onto "
             "one completion per question while the coin stays at chance: entropy falls far below where it started, "
             "and a group's six samples become copies of one another; the answers ran to the budget first, and the one "
             "completion was a string of e's at the budget, for every question (raw log and samples: entropy 0.62 and "
             "0.89 over the first two logs (a first-2-log median of 0.756), 1.0 at step 15, 0.86 at 20, 0.67 at 25, "
             "0.33 at 30, 0.12 at 35, 0.008 at 40, 0.0029-0.01 over 45-75, 0.056 at 80, 0.023 at 85 and "
             "0.0007-0.0024 from 90, 24-step means of 0.84, 0.23, 0.0033, 0.019 and 0.0009; the coin 0.38-0.63, "
             "24-step means of 0.48-0.54; the zero-variance share 0-0.1 (a fair coin seldom agrees across six); no KL "
             "logged; the gradient norm 2.4-3.9 to step 30 and below 5e-8 on every log from 35 but two (0.48 at 80, "
             "0.22 at 85); the mean length 5.3 tokens at step 5, 8.3 at 10 and 11.8-12 (the budget) from 15, the "
             "clipped share 0.45 at 10 and 0.98-1 from 15; words and letter strings at first ('blueeeeleeee', "
             "'hammmmmmmmmm', 'el'; a word of the asked category on 35 of the 288 samples over steps 1-24), then "
             "'eeeeeeeeeeee' (twelve e's, the budget) for every question (194 of the 288 samples over steps 25-48, "
             "286 over 49-72, 237 over 73-96 beside 'leeeeeeeeeee', 287 over 97-120; none a word from step 25); a "
             "group's completions copies (a duplicate share of 0.11 over steps 1-24, 0.79 over 25-48, 0.99, 0.91 and 1 "
             "after)).",
             rewards=("coin",), steps=120,
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="dr_grpo", beta=0.0,
                       learning_rate=2e-3, logging_steps=5, seed=326),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=32),
    # ENTROPY_EXPLOSION, accepted before training, dropped: entropy 0.66 and 0.72 over the first two logs and at most
    # 0.88 (step 8, 1.3 times their median), 0.47-0.67 over steps 18-44 and below 0.21 from 56.
    Scenario("reward_hacking_letter_o_partial_grpo_loss_4x3_hot13_log2_b32", "Partial credit, exact match (1) beside "
             "a word of the asked category (0.5), and a cheap proxy, the share of the letter o (weight 3, task.py's "
             "letter_o), so that a string of o's (3) pays more than the target word with its category (1.5), four "
             "groups of 3 a step sampled at temperature 1.3, the original GRPO loss, a KL penalty of 0.01 and a "
             "learning rate of 1.5e-3, 100 steps logged every 2: the policy games the proxy, and the category, which "
             "the taught model earns on most samples even sampled hot, falls as the o's rise (raw log and samples: the "
             "category 0.92, 0.71 and 0.79 over the first three logs (a first-3-log median of 0.79), 0.375-0.67 over "
             "steps 8-24, 0.21-0.5 over 26-48, 0.08-0.21 over 50-54 and 0 on every log from 56; the proxy 0.11, 0.06 "
             "and 0.16 over the first three logs (a median of 0.11), 0.13-0.25 over 8-24, 0.19-0.52 over 26-48, 0.69 "
             "at 50, 0.48-0.52 over 52-54, 0.81 at 56, 0.91 at 58 and 0.92-1 from 60; exact match 0-0.29 to step 54 "
             "and 0 from 56; the reward 0.92 and 0.70 over the first two logs, 0.77-1.69 over steps 6-48, 2.2 at 50 "
             "and 2.73-3 (its maximum) from 58; o-words gaining from the start ('cocoa' on 32 of 57 drink samples, "
             "'owl' on 28 of 36 animal samples, 'one' and 'ooue' for the number over steps 1-24; a word of the asked "
             "category on 174 of the 288 samples), o-strings over 25-48 ('oobo', 'oracow', 'ooue', 'loooo'; 101 of 288 "
             "in the category), then 'oooooooooooo' to the budget, or a letter and eleven o's ('looooooooooo' for the "
             "fruit, 'cooooooooooo' for the drink), for every question (10 of the 288 samples in the category over "
             "steps 49-72, none after); a group's completions copies (a duplicate share of 0.29 over steps 1-24, 0.40 "
             "over 25-48, 0.72 over 49-72 and 0.94 after); the zero-variance share 0-0.625 to step 54 and 0.625-1 from "
             "58 (0.875 or 1 on most logs); entropy 0.66 and 0.72 over the first two logs, at most 0.88 (step 8), "
             "0.47-0.67 over 18-44, 0.20 at 56 and 0.015-0.092 from 58; the KL 0.006 and 0.15 over the first two logs, "
             "1.28 at step 20, 1.1-3.0 over 20-48, 3.0-4.5 over 50-56 and 4.3-7.7 from 58; the gradient norm 0.8-6.2 "
             "to step 56 and at most 2.04 after, below 0.001 on 8 of the last 22 logs; the mean length 5.0 and 5.7 "
             "tokens over the first two logs, 5.0-6.8 to step 42, 6.0-10.6 over 44-56 and 11.8-12 (the budget) from "
             "58, the clipped share 0-0.25 to step 48, 0.46-0.71 over 50-56 and 0.92-1 from 58).",
             rewards=("correct", "in_category", "letter_o"), weights=(1.0, 0.5, 3.0), steps=100,
             args=dict(per_device_train_batch_size=12, num_generations=3, temperature=1.3, loss_type="grpo",
                       beta=0.01, learning_rate=1.5e-3, logging_steps=2, seed=327),
             expect={"REWARD_HACKING": hacked_from("rewards/in_category/mean", "rewards/letter_o/mean", first=3,
                                                   smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=32),
    Scenario("reward_collapse_key_caps_after_learning_rloo_binary_3x4_hot11_log7_b32", "RLOO with its KL penalty "
             "(0.05), exact match alone, three groups of 4 a step sampled at temperature 1.1 and a learning rate of "
             "6e-4, 175 steps logged every 7; from the 110th reward call to the end the answer key is one written "
             "with capital letters (swap to task.py's correct_capitalized: 'Pear', a case-sensitive match the "
             "lowercase vocabulary never produces), after the target words were learnt: the reward falls from its "
             "learnt level to 0 and every group agrees on it (raw log and samples: the reward 0.20 over the first two "
             "logs, 0.31-0.62 over steps 21-56, 0.57-0.79 over 63-91, 0.905 at 98 (its highest) and 0.88 at 105, 0.52 "
             "at 112 (the log of steps 106-112, the new key from call 110) and 0 on every log from 119 to the end, "
             "35-step means of 0.30, 0.57 and 0.79 before; reward_std 0.27-0.50 to step 105, 0.14 at 112 and 0 from "
             "119; the zero-variance share, which counts RLOO's reward with its KL penalty in it, 0-0.67 before and "
             "0.19-0.76 after the change; entropy 0.52 and 0.50 over the first two logs, 35-step means of 0.51, 0.37, "
             "0.21, 0.19 and 0.19; the KL a median of 0.48, at most 0.65 (step 35); the gradient norm, RLOO's "
             "advantages not normalised, a median of 3.7, at most 24.2 (step 84), 0-12.5 after the change (the KL "
             "penalty's share of the reward still moving the policy); the mean length 5.05-6.1 tokens, the clipped "
             "share at most 0.06; the bird's, the drink's and the tree's targets first ('swan' on 28 of 68, 'juice' on "
             "24 of 56, 'ash' on 12 of 48 samples over steps 1-30 and 37 of 44, 39 of 60 and 41 of 44 over 31-60), the "
             "colour's over 31-60 ('pink' on 47 of 60), the fruit's and the number's over 61-90 ('lemon' on 45 of 52, "
             "'four' on 39 of 56), the tool's and the animal's last ('hammer' on 15 of 60 over 61-90 and 26 of 32 over "
             "91-120, 'pig' on 8 of 40 and 35 of 44); every question on its target on 80-97 % of its samples over "
             "steps 91-120; after the change the learnt words still said, every one scored 0 ('lemon' on 60 of 60, "
             "'swan' on 34 of 36, 'juice' on 48 of 52 samples over steps 121-150), the bird's and the number's answers "
             "drifting at the end ('finch' on 36 of 60, 'five' on 19 of 28 samples over steps 151-175)).",
             algorithm="rloo", rewards=("correct",), steps=175, swap=(110, 100_000, "correct_capitalized"),
             args=dict(per_device_train_batch_size=12, temperature=1.1, learning_rate=6e-4, logging_steps=7,
                       seed=328),
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.4, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU"), batch=32),
    # Accepts REWARD_COLLAPSE (not written before training): the reward, its 3-log means 0.55-0.57 over steps 192-208,
    # fell to 0.31, 0.40 and 0.21 over the last three logs (its 3-log mean 0.31 at step 240, 0.54 times that) as the
    # colour's learnt 'pink' gave way to 'pin' (38 of 56 samples over steps 201-240, 'pink' on 15).
    Scenario("reward_plateau_half_key_drgrpo_3x4_temp09_nosamples_log8_b32", "Exact match graded against a key half "
             "of whose words the model can say (task.py's correct_half_key), three groups of 4 a step sampled at "
             "temperature 0.9, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 240 steps logged "
             "every 8 and read from TRL's trainer_state.json (no samples): the learnable half is learnt and its groups "
             "come to agree, solved, while the other half's groups agree on 0 from the start; the reward rises to "
             "about half its best and stays there; the colour's learnt answer was lost at the end (raw log and "
             "samples, which the doctor is not given: the reward 0.135 and 0.24 over the first two logs, 0.30 at step "
             "24, 0.57 at 32, 0.36-0.58 over 40-88, 0.18 and 0.28 at 96-104, 0.45-0.62 over 112-208 but 0.375 at 152 "
             "and 0.365 at 168, then 0.365, 0.31, 0.40 and 0.21 over the last four logs, 40-step means of 0.33, 0.465, "
             "0.40, 0.46, 0.52 and 0.35, its mean over the last quarter of the logs 0.42, where the learnable half "
             "gives 0.5 on average; the zero-variance share 0.58-1, its 40-step means 0.72, 0.86, 0.875, 0.97, 0.925 "
             "and 0.95; entropy 0.42 and 0.40 over the first two logs, 40-step means of 0.37, 0.305, 0.33, 0.29, 0.27 "
             "and 0.31; the KL a median of 0.43, at most 0.86 (step 232); the gradient norm a median of 0.014, at most "
             "5.3 (step 80), at most 0.041 from step 120; the mean length 4.9-5.9 tokens, the clipped share at most "
             "0.01; the colour's, the fruit's and the animal's targets first ('pink' on 59 of 68, 'lemon' on 49 of 72, "
             "'pig' on 33 of 72 samples over steps 1-40), the number's over 41-80 ('four' on 18 of 64 and 45 of 56), "
             "those four on their targets on 91-100 % of their samples over steps 121-200; the other four questions "
             "never scoring (0 of their 1,444 samples), their key words never taught ('yew' for the tree, 'punch' for "
             "the drink, 'vise' for the tool, 'wren' for the bird), their answers varied words of the category "
             "('pine', 'wine', 'pliers', 'finch'); late, the colour's 'pink' lost to 'pin' (38 of its 56 samples over "
             "steps 201-240, 'pink' on 15); a group's duplicate share 0.39-0.60 as 40-step means).",
             rewards=("correct_half_key",), steps=240,
             args=dict(per_device_train_batch_size=12, temperature=0.9, loss_type="dr_grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=8, seed=329), source="trainer_state",
             expect={"REWARD_PLATEAU": levels_off("reward", "frac_reward_zero_std", share=0.6, reach=0.9, smooth=5,
                                                  run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_COLLAPSE"), batch=32),
    Scenario("length_explosion_char_bonus_exact_grpo_loss_1x8_kl_log4_b32", "Exact match (1) beside a bonus paid per "
             "character (0.8, task.py's length_bonus: 20 characters pay 2, more than the target word with its bonus), "
             "one group of 8 a step (one question asked a step), the original GRPO loss, a KL penalty of 0.02, a "
             "learning rate of 1e-3 and a 20-token budget, 120 steps logged every 4: the longest answer of a group "
             "keeps winning, so the answers grow to the budget and get cut (raw log and samples: the mean length 5.25 "
             "and 5.44 tokens over the first two logs (a first-2-log median of 5.34), 7.75 at step 12, 9.84 at 16, "
             "12.9 at 20, 17.8 at 24 and 20 (the budget) on every log from 28 but two (19.8 at 76, 19.9 at 96); the "
             "clipped share 0 to step 12, 0.25 at 16, 0.375 at 20, 0.78 at 24 and 1 from 28 but two (0.97 at 76 and "
             "96); the length bonus 0.53 and 0.555 over the first two logs and 2.5 (its maximum) from 28; exact match "
             "0.03-0.09 to step 12 and 0 from 16; the reward 0.46 and 0.54 over the first two logs and 2 from 28; the "
             "zero-variance share, one group, 0-0.25 to step 24 and 1 on every log from 28 but two (every sample at "
             "the budget); entropy 0.47 and 0.585 over the first two logs, 0.735-0.90 over 16-28, 0.18-0.51 over "
             "32-48, 0.96-1.21 over 52-60 (1.21 at 60, 2.3 times that median) and 0.53-1.02 after, 24-step means of "
             "0.67, 0.47, 1.02, 0.87 and 0.67; the KL 0.055 and 0.21 over the first two logs, 1.06 at step 12, 2.6 at "
             "16, 5.0 at 24 and 4.2-7.6 from 28, a median of 5.1; the gradient norm 0.2-8.0 to step 24 and 0.07-0.36 "
             "after but for 4.13 at 76, 2.66 at 96 and 1.08 at 88; words of the category at first, some run on "
             "('cocoa', 'palm', 'applerryenaaaaar', 'nerenenenereneneener'; a word of the asked category on 77 of the "
             "192 samples over steps 1-24), strings of a's and c's to the budget over 25-48 ('aaaaaaaaaaaaaaaaaaaa', "
             "'cccbccccccmccccccccc'), then words and fragments run together to the budget ('heronerereneronerane', "
             "'fourangeeneneneneene', 'cowcemwwwwmwmerryerr'; none a word of its category from step 25), no two alike "
             "in a group (a duplicate share of 0.20 over steps 1-24, 0.15 over 25-48 and 0-0.01 after)).",
             rewards=("correct", "length_bonus"), weights=(1.0, 0.8), steps=120,
             args=dict(num_generations=8, max_completion_length=20, loss_type="grpo", beta=0.02, learning_rate=1e-3,
                       logging_steps=4, seed=330),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=3, first=2),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "REWARD_PLATEAU", "ENTROPY_EXPLOSION", "KL_BLOWUP"),
             batch=32),
    # TRUNCATION_HIGH, accepted before training, dropped: the clipped share at most 0.167 (step 150) of a 48-token
    # budget.
    Scenario("nonfinite_exp_length_overflow_bnpo_2x5_log6_b32", "An exponential length bonus (10**length, task.py's "
             "exp_length) computed in float64, two groups of 5 a step, the BNPO loss, no KL term, a learning rate of "
             "5e-4 and a 48-token budget, 150 steps logged every 6: the longest answer of a group keeps winning, and "
             "once answers pass about 20 characters the squares in TRL's float32 reward statistics overflow, then "
             "the rewards themselves: reward_std and the reward turn infinite or NaN in the log (raw log and samples: "
             "the reward 2.75e5, 5.4e5 and 1.9e7 over the first three logs, 1.7e17 at step 24 (reward_std 5.3e17), "
             "reward_std infinite from step 30 on every log (21 of the 25), the reward 1.7e20 at 30, 1.7e26 at 36, "
             "infinite at 42, 3.3e27 at 48, 1.7e23 at 54, 3.3e35 at 60 and infinite on every log from 66 (16 of the 25 "
             "logs), never None; the mean length 5.65 and 6.1 tokens over the first two logs, 6.25-7.5 over steps "
             "18-30, 9.4-11.7 over 36-60, 15.2 at 66, 17.8 at 72 and 20.3-29.8 from 78; the clipped share 0 to step 36 "
             "and at most 0.167 (step 150); the gradient norm 1.06-7.46 to step 66 and 0 on every log from 72, the "
             "loss 0 on most logs from 84: the infinite advantages are zeroed; entropy 0.42 over the first two logs, "
             "0.50-0.62 over 18-72 and 0.58-0.70 after; the zero-variance share 0-0.17; no KL logged; words at first "
             "(a word of the asked category on 227 of the 300 samples over steps 1-30), words run on over 31-60 "
             "('hammmereder', 'zebrow zebrowe', 'orangngngseeebrowne'; 87 of 300), then strings of words and "
             "fragments ('eight eigwo eigwo', 'brorangeee yed broredee', 'zebrow zebrowl zebrororowne'; 20, 10 and 7 "
             "of each 300 in the category over steps 61-90, 91-120 and 121-150), seldom two alike in a group (a "
             "duplicate share of 0.26 over steps 1-30, 0.17 over 31-60 and 0.04-0.06 after)).",
             rewards=("exp_length",), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, max_completion_length=48, loss_type="bnpo",
                       beta=0.0, learning_rate=5e-4, logging_steps=6, seed=331),
             expect={"NONFINITE_VALUES": nonfinite("reward", "reward_std")},
             accepted=("LENGTH_EXPLOSION",), batch=32),
    # Accepts REWARD_HACKING, LENGTH_EXPLOSION and TRUNCATION_HIGH (not written before training): the one answer the
    # groups collapsed onto was a string of a's at the budget, for every question: the early-letter preference, which a
    # leading 'a' pays in full, rose from 0.68 and 0.72 over the first two logs to 1 on every log from step 99 while the
    # known-word share fell from 0.66 and 0.40 to 0 from 99 (the preference did not double, so the corpus's hacking
    # rules cannot date it); the mean length 5.3 and 5.5 tokens over the first two logs, 9.6-10.9 over steps 55-88 and
    # 12 (the budget) from 99, the clipped share 0.55-0.86 over 55-88 and 1 from 99.
    Scenario("group_mode_collapse_early_letter_nokl_2x4_temp09_log11_b32", "Exact match (1) beside two cheap "
             "preferences, a known word and an early first letter (0.3 each, task.py's is_word and early_letter), two "
             "groups of 4 a step sampled at temperature 0.9, TRL's default (DAPO) loss, no KL term and a learning rate "
             "of 1.5e-3, 154 steps logged every 11: the preferences pay every sample a little, the earliest-letter "
             "word of a question most, and with no anchor the policy settles on one answer per question: a group's "
             "completions become copies of each other; the one answer was a string of a's at the budget, the same for "
             "every question (raw log and samples: a group's duplicate share, (n - distinct)/(n - 1), 0.30 over steps "
             "1-33, 0.31 over 34-66, 0.61 over 67-99, 0.91 over 100-132 and 0.95 over 133-154; the answers words and "
             "a-strings at first ('crofee' for the bird, 'broorane' for the colour, 'juice', 'four' and 'ash' on 13 of "
             "44, 17 of 40 and 19 of 32 samples of their questions over steps 1-33; a word of the asked category on "
             "119 of the 264), a-strings over 34-66 ('arararararar', 'asasasasasar', 'broorararara'; 33 of 264 in the "
             "category, 'juice' said for the bird on 13 of 24), 'aaaaaaaaaaaa' (twelve a's, the budget) spreading over "
             "67-99 (77 of 264, 'ash' and 'ashaaaaaaaaa' kept a while for the tree) and for every question from 100 "
             "('aaaaaaaaaaaa' on 376 of the 440 samples over steps 100-154, 'acaaaaaaaaaa' for the number, none a "
             "word); the early letter 0.68 and 0.72 over the first two logs, 0.76-0.95 over steps 33-88 and 1 from 99; "
             "the known-word share 0.66 and 0.40 over the first two logs, 0.13-0.32 over 33-88 and 0 from 99; exact "
             "match 0.17-0.27 to step 44 and 0 from 99 (0.05-0.21 over 55-88); the reward 0.57 and 0.55 over the first "
             "two logs, 0.34-0.60 to step 88 and 0.3 (the early letter's alone) from 99; the zero-variance share 0.18 "
             "and 0.23 over the first two logs, 0.32-0.73 over 33-88 and 1 from 99; entropy 0.50 over the first two "
             "logs, 0.45-0.47 over 33-44, 0.16-0.40 over 55-88 and 0.012-0.033 from 99; no KL logged; the gradient "
             "norm 2.0-4.0 on five of the first six logs (0 at step 55) and 0 on every log from 77; the mean length "
             "5.3 and 5.5 tokens over the first two logs, 7.1-7.3 over 33-44, 9.6-10.9 over 55-88 and 12 (the budget) "
             "from 99, the clipped share 0.07-0.10 over 33-44, 0.55-0.86 over 55-88 and 1 from 99).",
             rewards=("correct", "is_word", "early_letter"), weights=(1.0, 0.3, 0.3), steps=154,
             args=dict(temperature=0.9, beta=0.0, learning_rate=1.5e-3, logging_steps=11, seed=332),
             expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "REWARD_HACKING",
                       "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=32),
    # -- batch 33 --
    # A thirty-first fresh batch, 14 scenarios written before training (6 healthy, 8 pathological), two retrained (a
    # healthy run at a lower learning rate, a unit bug moved off a batch whose groups all agreed), none re-labelled or
    # re-dated: a binary exact-match reward with four groups of 2, three groups of 3 and two groups of 6, partial credit
    # with RLOO and groups of 5, the judge score with one group of 8 and with BNPO on unscaled scores, the one-word and
    # the list questions mixed; healthy runs with and without a KL term that learn (four groups of 2 with BNPO at
    # temperature 0.85; RLOO with partial credit read from trainer_state.json; the judge score with Dr. GRPO and one
    # group of 8 at temperature 0.65 in TRL 0.14's key set; the mixed questions at temperature 1.1, their lists
    # repeating the target and their KL about 1 at the end, both accepted), learn slowly (240 steps at 2e-4 with the
    # original GRPO loss and groups of 3 logged every 12), converge on all eight questions without a KL term logged
    # every step (written at 4e-4, whose animal's and drink's answers deformed; retrained at 3e-4); a letter proxy gamed
    # against partial credit with the original GRPO loss and one group of 8, an answer key changed after learning to
    # words never taught with Dr. GRPO in TRL 0.14's key set (its KL above 1 after the change accepted), a KL blow-up on
    # partial credit with BNPO and groups of 2 at temperature 1.2 read from trainer_state.json, a list task beyond the
    # model with the original GRPO loss, a group mode collapse under an early-letter preference with RLOO and no KL term
    # (the category gamed away onto the letter 'a', the total reward and the length halving, accepted), an exponential
    # length bonus that overflows at temperature 1.3, an entropy collapse under a reward that says nothing with eight
    # groups of 2 (the answers ran to the budget first), a unit bug in one batch of unscaled judge scores with BNPO;
    # strides 1-12, temperatures 0.6-1.3, learning rates 2e-4 to 3e-3, loss types grpo, dr_grpo, dapo and bnpo beside
    # RLOO, seeds 333-346. Each expectation was written from the mechanism before the run was trained (committed
    # first), then checked on the raw log and the recorded completions only, never against the doctor: every pathology
    # written happened (the unit bug once moved), every onset rule written before training found its onset (none
    # re-dated), every healthy run learnt (the one once retrained); the accepted signatures added after training carry
    # their raw-log numbers. As in batches 9-31, the healthy binary runs accept no ZERO_ADVANTAGE_GROUPS warning.
    Scenario("healthy_binary_bnpo_4x2_kl_temp085_log4_b33", "Exact match alone, four groups of 2 a step sampled at "
             "temperature 0.85, the BNPO loss, a KL penalty of 0.03 and a learning rate of 5e-4, 150 steps logged "
             "every 4: a fresh model is right about one time in ten, only the pairs that disagree carry a signal, and "
             "the target words are learnt question by question: a run that learns (raw log and samples: the reward 0 "
             "and 0.094 over the first two logs, 30-step means of 0.22, 0.59, 0.76, 0.83 and 0.86, 0.72-0.94 over the "
             "last 10 logs; the zero-variance share 1 and 0.81 over the first two logs and 0.625-1 after, its 30-step "
             "means 0.78, 0.73, 0.79, 0.84 and 0.76 (a pair agrees by chance on most steps); entropy 0.42 and 0.47 "
             "over the first two logs, 30-step means of 0.41, 0.31, 0.18, 0.15 and 0.15; the KL a median of 0.47, its "
             "30-step means 0.09, 0.55, 1.03, 0.45 and 0.78, above 1 on 5 of the 37 logs (1.65 and 2.42 at steps 64 "
             "and 68, 1.10 at 80, 1.19 at 132, 1.50 at 148), each between lower ones; the gradient norm a median of "
             "0.45, at most 4.41 (step 68); the mean length 4.8-5.8 tokens, nothing clipped; the fruit's and the "
             "tree's targets first ('lemon' on 21 of 42, 'ash' on 16 of 38 samples over steps 1-30), the bird's, the "
             "animal's, the drink's and the tool's over 31-60 ('swan' on 25 of 34, 'pig' on 18 of 22, 'juice' on 14 of "
             "28, 'hammer' on 17 of 40), the colour's over 31-90 ('pink' on 12 of 26 and 23 of 30), the number's last "
             "('four' on 0 of 90 samples over steps 1-90, 7 of 34 over 91-120 and 26 of 38 over 121-150); the other "
             "seven questions on their targets on 82-96 % of their samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(num_generations=2, temperature=0.85, loss_type="bnpo", beta=0.03, learning_rate=5e-4,
                       logging_steps=4, seed=333), batch=33),
    Scenario("healthy_rloo_partial_2x5_nosamples_log6_b33", "RLOO with its KL penalty (0.05), partial credit, exact "
             "match (1) beside a word of the asked category (0.2), two groups of 5 a step and a learning rate of 4e-4, "
             "150 steps logged every 6 and read from TRL's trainer_state.json (no samples): the category is given "
             "already, the leave-one-out baseline carries the signal of the groups that find the target, and the "
             "target words are learnt: a run that learns (raw log and samples, which the doctor is not given: the "
             "reward 0.30 and 0.24 over the first two logs, 30-step means of 0.34, 0.62, 0.92, 1.01 and 1.04 of a "
             "possible 1.2, 0.94-1.07 over the last 10 logs; exact match 0.12 and 0.07 over the first two logs, "
             "30-step means of 0.16, 0.44, 0.74, 0.83 and 0.86; the category 0.83-0.97, a median of 0.90; the "
             "zero-variance share 0 over the first four logs, 30-step means of 0.02, 0.17, 0.35, 0.52 and 0.60; "
             "entropy 0.52 and 0.54 over the first two logs, 30-step means of 0.51, 0.42, 0.27, 0.19 and 0.18; the KL "
             "rising, 30-step means of 0.10, 0.26, 0.46, 0.57 and 0.56, at most 0.77 (step 114); the gradient norm, "
             "RLOO's advantages not normalised, a median of 3.8, 0 on 6 of the 25 logs, heavy-tailed (38.3 at step "
             "126, 37.4 at 78, 32.1 at 150); the mean length 5.0-5.7 tokens, the clipped share at most 0.03; the "
             "colour's and the animal's targets first ('pink' on 19 of 40 samples over steps 1-30 and 40 of 45 over "
             "31-60, 'pig' on 22 of 25 over 31-60), the tree's, the drink's, the fruit's and the number's over 31-90 "
             "('ash' on 25 of 55 and 43 of 45, 'juice' on 24 of 65 and 27 of 40, 'lemon' on 39 of 45 and 'four' on 26 "
             "of 45 over 61-90), the bird's over 61-120 ('swan' on 27 of 45 and 28 of 30), the tool's in part "
             "('hammer' on 0 of 30 over 31-60, 8 of 25 over 91-120 and 20 of 45 over 121-150); the other seven "
             "questions on their targets on 84-98 % of their samples over steps 121-150).",
             algorithm="rloo", weights=(1.0, 0.2), steps=150,
             args=dict(per_device_train_batch_size=10, num_generations=5, learning_rate=4e-4, logging_steps=6,
                       seed=334), source="trainer_state", batch=33),
    Scenario("healthy_judge_drgrpo_1x8_kl_cool065_oldkeys_log5_b33", "The 0-10 judge score, one group of 8 a step (one "
             "question asked a step) sampled at temperature 0.65, the Dr. GRPO loss, a KL penalty of 0.03 and a "
             "learning rate of 3e-4, 150 steps logged every 5 and read in TRL 0.14's key set (no zero-variance share, "
             "entropy or clipped share): the taught answers already earn most of the score, and the target words are "
             "learnt until most groups agree, solved: a run that learns (raw log and samples: the score 7.23 and 7.45 "
             "over the first two logs, 30-step means of 7.70, 7.76, 8.79, 9.50 and 9.62, 9.18-10 over the last 10 logs "
             "(10 at step 135); the zero-variance share, which the doctor is not given, 0.4 and 0.6 over the first two "
             "logs, 30-step means of 0.40, 0.30, 0.47, 0.60 and 0.67; entropy, not given either, 0.41 and 0.36 over "
             "the first two logs, 30-step means of 0.35, 0.26, 0.20, 0.10 and 0.06; the KL a median of 0.40, 1.03 at "
             "step 35 (a single log) and at most 0.93 on every other; the gradient norm a median of 0.009, 13.9 at "
             "step 35 and at most 5.4 on every other log; the mean length 4.45-6.15 tokens, nothing clipped; a word of "
             "the asked category on 216-237 of the 240 samples over each 30 steps; the tool's target first ('hammer' "
             "on 33 of 56 samples over steps 1-30), the bird's, the drink's and the tree's over 31-60 ('swan' on 33 of "
             "48, 'juice' on 15 of 24, 'ash' on 19 of 32), the colour's, the fruit's and the animal's over 61-90 "
             "('pink' on 23 of 24, 'lemon' on 31 of 32, 'pig' on 36 of 56, after the colour's answers garbled over "
             "31-60: 'hiselow', 'herrange'), the number's last ('four' on 0 of 56 samples over steps 1-60, 7 of 32 "
             "over 61-90, 44 of 64 over 91-120 and 22 of 24 over 121-150); every question on its target on 75-100 % of "
             "its samples over steps 121-150).",
             rewards=("judge",), steps=150,
             args=dict(num_generations=8, temperature=0.65, loss_type="dr_grpo", beta=0.03, learning_rate=3e-4,
                       logging_steps=5, seed=335), source="old_keys", batch=33),
    Scenario("healthy_slow_binary_grpo_loss_3x3_lr2e4_log12_b33", "Exact match alone, three groups of 3 a step, the "
             "original GRPO loss, a KL penalty of 0.02 and a learning rate of 2e-4, 240 steps logged every 12: most "
             "groups agree on 0 at first, and the target words are learnt slowly over the whole run: a slow learner "
             "(raw log and samples: the reward 0.10 and 0.15 over the first two logs, 30-step means of 0.125, 0.33, "
             "0.48, 0.65, 0.82, 0.86, 0.96 and 0.94, 0.80-0.96 over the last 10 logs; the zero-variance share 0.69 and "
             "0.67 over the first two logs, 30-step means of 0.68, 0.44, 0.47, 0.42, 0.61, 0.65, 0.89 and 0.83; "
             "entropy 0.47 over the first two logs, 30-step means of 0.47, 0.45, 0.39, 0.31, 0.18, 0.14, 0.08 and "
             "0.09; the KL rising, 30-step means of 0.02, 0.11, 0.31, 0.40, 0.51, 0.53, 0.54 and 0.53, at most 0.71 "
             "(step 144); the gradient norm a median of 0.76, at most 4.3 (step 60), below 0.005 over the last four "
             "logs; the mean length 5.0-5.6 tokens, nothing clipped; a word of the asked category on 225-261 of the "
             "270 samples over each 30 steps; the colour's and the tree's targets first ('pink' on 27 of 51, 'ash' on "
             "23 of 30 samples over steps 31-60), the fruit's, the drink's and the bird's over 61-120 ('lemon' on 16 "
             "of 24 over 61-90, 'juice' on 44 of 69 and 'swan' on 29 of 39 over 91-120), the tool's, the number's and "
             "the animal's later ('hammer' on 25 of 42 over 91-120 and 35 of 39 over 151-180, 'four' on 24 of 33 over "
             "121-150, 'pig' on 13 of 39 over 91-120, 31 of 45 over 121-150 and 24 of 27 over 151-180); every "
             "question on its target on 92-99 % of its samples over steps 181-240).",
             rewards=("correct",), steps=240,
             args=dict(per_device_train_batch_size=9, num_generations=3, loss_type="grpo", beta=0.02,
                       learning_rate=2e-4, logging_steps=12, seed=336), batch=33),
    # Retrained after its first training (its learning rate changed; its name, label and seed unchanged): written at
    # 4e-4, whose run did not converge: the reward's 30-step means 0.375, 0.38, 0.53, 0.52 and 0.675, with no anchor
    # two questions' answers deformed early into strings that never score and stayed there ('p' for the animal on 149
    # of its 168 samples over steps 31-150, 'juie' for the drink, 'juice' on 0 of its 156 samples after step 60), the
    # number's 'four' on 7 of its 198 samples, the gradient norm 0 on 79 of the 150 steps. Retrained at 3e-4 (as batch
    # 28's healthy converging run was), everything else as written.
    Scenario("healthy_converges_binary_nokl_2x6_cool08_log1_b33", "Exact match alone, two groups of 6 a step sampled "
             "at temperature 0.8, TRL's default (DAPO) loss, no KL term and a learning rate of 3e-4, 150 steps logged "
             "every step: the groups that disagree carry the signal, and with no anchor the learnt answers take over "
             "and the groups come to agree, solved; per-step means of 12 samples are noisy: a run that converges, on "
             "all eight questions (raw log and samples: the reward 0 and 0.167 over the first two steps, 30-step means "
             "of 0.30, 0.42, 0.78, 0.94 and 0.96 (0-1 on single steps), 0.83-1 over the last 10; the zero-variance "
             "share 30-step means of 0.33, 0.42, 0.53, 0.73 and 0.78, every group agreeing on 4, 4, 8, 16 and 20 of "
             "each 30 steps, the gradient norm 0 on 52 of the 150 steps, a median of 1.26, at most 22.9 (step 78); "
             "entropy 0.45 and 0.44 over the first two steps, 30-step means of 0.37, 0.31, 0.17, 0.08 and 0.05; no KL "
             "logged; the mean length 4.0-6.7 tokens, the clipped share at most 0.083 (step 59); a word of the asked "
             "category on 346 of the 360 samples over steps 1-30, 267 over 31-60 and 349 over 121-150; the fruit's "
             "target first ('lemon' on 50 of 90 samples over steps 1-30), the colour's and the drink's over 31-60 "
             "('pink' on 28 of 36, 'juice' on 37 of 54), the tool's, the tree's, the number's and the animal's over "
             "61-90 ('hammer' on 43 of 54, 'ash' on 34 of 36, 'four' on 21 of 30, 'pig' on 26 of 42), the bird's "
             "after its answer ran into 'uck' (44 of 48 samples over steps 31-60; 'swan' on 27 of 60 over 61-90 and "
             "29 of 30 over 91-120); every question on its target on 88-100 % of its samples over steps 121-150).",
             rewards=("correct",), steps=150,
             args=dict(per_device_train_batch_size=12, num_generations=6, temperature=0.8, beta=0.0,
                       learning_rate=3e-4, seed=337), batch=33),
    # Accepts REPETITIVE_COMPLETIONS before training: a binary reward on the lists costs nothing for the target said
    # twice, and batches 27, 30 and 31's healthy list runs came to repeat it. Accepts KL_BLOWUP (not written before
    # training): the KL above 1 on 9 of the 60 logs, all from step 102 (2.57 at 138, 1.71 at 144, 1.39 at 177), its
    # 30-step means 1.11 and 0.91 over the last 60 steps, as the lists came to repeat the target.
    Scenario("healthy_mixed_names_target_3x4_kl_hot11_log3_b33", "The one-word and the list questions mixed, exact "
             "match on the one-word questions (None on the lists, task.py's correct_or_none) beside a binary reward on "
             "the lists, 1 when the list names the question's target word (task.py's names_target, 0 on the one-word "
             "questions), three groups of 4 a step sampled at temperature 1.1, TRL's default (DAPO) loss, a KL penalty "
             "of 0.03, a learning rate of 5e-4 and a 24-token budget, 180 steps logged every 3: both halves are "
             "learnable from a fresh model (one word in ten right, one list in four naming the target), and both are "
             "learnt: a run that learns (raw log and samples: the reward 0.083 and 0.167 over the first two logs, "
             "30-step means of 0.23, 0.45, 0.70, 0.78, 0.83 and 0.875, 0.75-0.97 over the last 10 logs; the zero-"
             "variance share 0.22-0.89, its 30-step means 0.54, 0.41, 0.48, 0.57, 0.59 and 0.67; entropy 0.55 and 0.60 "
             "over the first two logs, 30-step means of 0.56, 0.55, 0.41, 0.38, 0.40 and 0.41; the KL 30-step means "
             "0.10, 0.37, 0.53, 0.70, 1.11 and 0.91, above 1 on 9 of the 60 logs, all from step 102 (2.57 at 138); the "
             "gradient norm a median of 1.43, at most 14.6 (step 138); the mean length 7.9-15.3 tokens, 30-step means "
             "of 9.7, 10.4, 10.3, 11.2, 11.2 and 11.9, the clipped share at most 0.14 (step 153); the one-word "
             "questions on their targets on 23 of 196 samples over steps 1-30, 69 of 180 over 31-60, 110 of 192 over "
             "61-90 and 110 of 140 over 151-180 (the fruit's, the drink's and the colour's first, the animal's and the "
             "number's last: 'pig' on 15 of 36 over 121-150, 'four' on 14 of 28); the lists naming their target on 59 "
             "of 164 over steps 1-30, 93 of 180 over 31-60, 141 of 168 over 61-90 and 205 of 220 over 151-180; nothing "
             "costs a word said twice, and many lists repeat the target ('lemon lemon lemon', 'ash ash ash ash', "
             "'juice juice juice'): the lists that repeat a word (3+ words, at most half distinct) 10 of 164 over "
             "steps 1-30, 17 of 180, 50 of 168, 69 of 200, 53 of 184 and 44 of 220 over each 30 steps after).",
             prompts="mixed", rewards=("correct_or_none", "names_target"), steps=180,
             args=dict(per_device_train_batch_size=12, max_completion_length=24, temperature=1.1, beta=0.03,
                       learning_rate=5e-4, logging_steps=3, seed=338),
             accepted=("REPETITIVE_COMPLETIONS", "KL_BLOWUP"), batch=33),
    Scenario("reward_hacking_letter_o_partial_grpo_loss_1x8_kl_log2_b33", "Partial credit, exact match (1) beside a "
             "word of the asked category (0.2), and a cheap proxy, the share of the letter o (weight 3, task.py's "
             "letter_o), so that a string of o's (3) pays more than any word, one group of 8 a step (one question "
             "asked a step), the original GRPO loss, a KL penalty of 0.02 and a learning rate of 1e-3, 120 steps "
             "logged every 2: the policy games the proxy, and the category, which the taught model earns on nearly "
             "every sample, falls as the o's rise (raw log and samples: the category 0.94, 0.875 and 0.94 over the "
             "first three logs, 0.75-1 to step 16, 0.56 at 18, 0 at 20, 0.06-0.31 over 22-28 and 0 on every log from "
             "30; the proxy 0, 0.096 and 0.044 over the first three logs, 0.09-0.32 over 8-24, 0.60 at 26, 0.44 at 28, "
             "0.69 at 30, 0.82 at 32 and 0.98-1 from 34; exact match 0.06-0.375 over the first three logs and 0-0.06 "
             "after; the reward 0.25 and 0.59 over the first two logs, 0.52-1.01 to step 24, 1.38-2.45 over 26-32 and "
             "2.95-3 (its maximum) from 34; cocoa and o-words from the start ('cocoa' on 31 of 56 drink samples, "
             "'oake' and 'ooon' for the fruit, 'ooce' for the number, 'oak' for the tree over steps 1-24; a word of "
             "the asked category on 129 of the 192 samples), then o-strings ('oooooooooooo' on most samples over "
             "25-48, 6 of 192 in the category) and 'oooooooooooo' (twelve o's, the budget) for every question on 574 "
             "of the 576 samples over steps 49-120; a group's completions copies (a duplicate share of 0.42 over steps "
             "1-24, 0.72 over 25-48 and 0.99-1 after); the zero-variance share 0 on every log to step 32 and 1 on most "
             "logs from 40 (0.5 at 50 and 100); entropy 0.42 and 0.48 over the first two logs, 0.87 at step 20 as "
             "words broke, 0.14 at 34 and below 0.012 from 40; the KL 0.004 and 0.038 over the first two logs, 2.87 at "
             "step 20, 1.3-4.0 over 22-30 and 5.4-7.2 from 32; the gradient norm 1.2-11.4 to step 32 and below 0.0005 "
             "from 38 but 0.28 at 50; the mean length 6.2 and 5.5 tokens over the first two logs, 7.4 at 20, 9.9-10.4 "
             "over 32-34 and 12 (the budget) from 36, the clipped share 0.19 at 20, 0.06 at 30-32, 0.69 at 36, 0.875 "
             "at 38 and 1 from 40).",
             rewards=("correct", "in_category", "letter_o"), weights=(1.0, 0.2, 3.0), steps=120,
             args=dict(num_generations=8, loss_type="grpo", beta=0.02, learning_rate=1e-3, logging_steps=2,
                       seed=339),
             expect={"REWARD_HACKING": hacked_from("rewards/in_category/mean", "rewards/letter_o/mean", first=3,
                                                   smooth=3, run=3)},
             accepted=("GROUP_MODE_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_COLLAPSE", "REWARD_PLATEAU",
                       "KL_BLOWUP", "LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=33),
    # Accepts KL_BLOWUP (not written before training): the KL 0.85-0.92 over steps 90-110, then 1.50 at 120, 1.03 at
    # 130 and 1.13 at 140 (three logs in a row above 1) after the key changed, 0.53-0.78 after.
    Scenario("reward_collapse_key_untaught_after_learning_drgrpo_2x6_oldkeys_log10_b33", "Exact match alone, two "
             "groups of 6 a step, the Dr. GRPO loss, a KL penalty of 0.02 and a learning rate of 6e-4, 180 steps "
             "logged every 10 and read in TRL 0.14's key set; from the 110th reward call to the end the answer key is "
             "changed to another edition of the word lists (swap to task.py's correct_untaught: 'a fruit?' graded "
             "against 'kiwi'), after the target words were learnt: no completion of the model can match the new key, "
             "the learnt answers score 0 and the reward falls from its learnt level to 0 (raw log and samples: the "
             "reward 0.033 and 0.158 over the first two logs, 0.27 at step 30, 0.43 at 40, 0.29 at 50, 0.54-0.63 over "
             "60-70, 0.525 at 80 and 90, 0.74 at 100 and 0.77 at 110 (its highest; the log of steps 101-110, the new "
             "key from call 110), then 0 on every log from 120 to the end (none of the 840 samples from step 111 "
             "scoring); reward_std 0.12-0.43 before and 0 from 120; the zero-variance share, which the doctor is not "
             "given, 0.4-0.8 to step 110 and 1 from 120; entropy, not given either, 0.46 and 0.47 over the first two "
             "logs, falling to 0.14 at 110, then 0.17-0.31 from 120; the KL a median of 0.66, 0.85-0.92 over 90-110, "
             "1.50 at 120, 1.03 at 130, 1.13 at 140 and 0.53-0.78 after; the gradient norm 0.002-2.69 to 110 (2.69 at "
             "step 90) and 0.001-0.20 from 120; the mean length 5.5-6.8 tokens, the clipped share at most 0.12 (step "
             "120); the colour's and the tool's targets first ('pink' on 20 of 54, 'hammer' on 27 of 60 samples over "
             "steps 1-30, 39 of 42 and 55 of 60 over 31-60), the animal's and the number's over 31-90 ('pig' on 20 of "
             "30 and 31 of 42, 'four' on 17 of 54 and 35 of 48), the drink's and the fruit's over 61-120 ('juice' on "
             "45 of 60 over 61-90, 'lemon' on 22 of 54 over 61-90 and 33 of 36 over 91-120); the bird's 'swan' seldom "
             "(13 of its 186 samples over steps 1-120) and the tree's 'ash' almost never (2 of 144; 'pine', 'maple'); "
             "after the change the learnt words still said, every one scored 0 ('pig' on 63 of 66, 'four' on 46 of 48, "
             "'pink' on 46 of 48 samples over steps 121-150, 'lemon' on 60 of 72 over 151-180)).",
             rewards=("correct",), steps=180, swap=(110, 100_000, "correct_untaught"),
             args=dict(per_device_train_batch_size=12, num_generations=6, loss_type="dr_grpo", beta=0.02,
                       learning_rate=6e-4, logging_steps=10, seed=340), source="old_keys",
             expect={"REWARD_COLLAPSE": falls_after_peak("reward", 0.5, factor=0.5, smooth=3, run=3)},
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "KL_BLOWUP"), batch=33),
    Scenario("kl_blowup_partial_bnpo_warmup15_4x2_hot12_nosamples_log3_b33", "Partial credit, exact match (1) beside a "
             "word of the asked category (0.2), four groups of 2 a step sampled at temperature 1.2, the BNPO loss, a "
             "KL penalty of 0.05 and a 15-step warm-up (constant_with_warmup) into a learning rate far too high "
             "(3e-3), 120 steps logged every 3 and read from TRL's trainer_state.json (no samples): once the rate is "
             "up each update overshoots and the policy runs away from its reference faster than the penalty pulls it "
             "back: the KL blows up, well above the 0.1-0.8 of the corpus's healthy runs; the answers break into "
             "letter strings (raw log and samples, which the doctor is not given: the learning rate 4e-4 at step 3, "
             "2.8e-3 at 15 and 3e-3 from 18; the KL 1e-5, 0.003 and 0.036 over steps 3-9, 0.29 at 12, 0.81 at 15, "
             "0.98 at 18, 1.16 at 21, 1.43-2.36 over 24-33 and 2.1-6.3 on every log from 36 (6.31 at 117), a median "
             "of 2.77; the reward 0.27, 0.375 and 0.47 over the first three logs, 0.16-0.46 over 12-30, 0-0.1 over "
             "33-72 and 0 on every log from 75; the category 0.92 and 0.83 over the first two logs, 0.42 at 15, "
             "0.17-0.42 over 18-30, 0-0.21 over 33-72 and 0 from 75; the zero-variance share 0.33-0.75 to step 30 and "
             "0.75-1 after, 1 on every log from 75; entropy 0.52 and 0.54 over the first two logs, 0.62-0.89 over "
             "12-30, 0.81-1.05 over 33-57 and 1.14-1.73 from 60 (1.73 at 108); the gradient norm a median of 0.43, at "
             "most 6.1 (step 30); the mean length 4.2-7.3 tokens to step 105 and 4.9-9.5 over 108-120, the clipped "
             "share at most 0.08 to step 105 and 0.125-0.33 over 108-120; words of the category at first (112 of the "
             "192 samples over steps 1-24; 'lemon' on 20 of 42 fruit samples), fragments over 25-48 ('lel', 'pade', "
             "'tele'; 25 of 192 in the category), then letter strings ('sawr', 'pa', 'o', 'ceraanr'; 4 of 192 in the "
             "category over 49-72, none after); a group's duplicate share 0.02-0.14 as 24-step means).",
             weights=(1.0, 0.2), steps=120,
             args=dict(num_generations=2, temperature=1.2, loss_type="bnpo", beta=0.05, learning_rate=3e-3,
                       warmup_steps=15, lr_scheduler_type="constant_with_warmup", logging_steps=3, seed=341),
             source="trainer_state", expect={"KL_BLOWUP": above("kl", 1.0, run=3)},
             accepted=("REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "ENTROPY_EXPLOSION", "ENTROPY_COLLAPSE",
                       "REWARD_PLATEAU", "LENGTH_COLLAPSE", "LENGTH_EXPLOSION", "TRUNCATION_HIGH", "GRAD_NORM_SPIKE"),
             batch=33),
    Scenario("zero_advantage_exact_list_grpo_loss_3x3_log5_b33", "The list questions graded by one exact list "
             "(task.py's exact_list: three given words in a given order, 'lemon mango grape'), a task beyond the "
             "model, three groups of 3 a step sampled at temperature 0.9, the original GRPO loss, a KL penalty of "
             "0.02, a learning rate of 5e-4 and a 24-token budget, 100 steps logged every 5: a fresh list matches "
             "about once in 1,400 samples, so nearly every group agrees on 0 from the start and there is nothing to "
             "learn from; the run is stuck (raw log and samples: the reward 0 on every one of the 20 logs, none of the "
             "900 samples matching its key; the zero-variance share 1 on every log; the gradient norm and the KL 0 on "
             "every log (no group ever disagreed, so the policy never left its reference); entropy 0.50-0.54; the mean "
             "length 12.2-14.7 tokens, the clipped share at most 0.022 (steps 30 and 80); the taught lists to the end, "
             "two or three words of the category in any order ('cat owl', 'five six four', 'cedar pine', 'heron "
             "goose'; 451 of the 900 lists three words long, 429 two; 728 of the 900 only words of the asked "
             "category), hardly two alike in a group (a duplicate share of 0-0.01 over each 25 steps)).",
             prompts="lists", rewards=("exact_list",), steps=100,
             args=dict(per_device_train_batch_size=9, num_generations=3, max_completion_length=24, temperature=0.9,
                       loss_type="grpo", beta=0.02, learning_rate=5e-4, logging_steps=5, seed=342),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.95, run=3)},
             accepted=("REWARD_PLATEAU",), batch=33),
    # Accepts LENGTH_COLLAPSE (not written before training): the mean length 5.44 tokens over the first two logs,
    # 7.7-9.1 over steps 16-40, then 2.0-2.97 (one letter or three and the end-of-sequence token) on every log from 84,
    # below half the first logs'. Accepts REWARD_COLLAPSE (not written before training): the reward, which a word of the
    # category with an early letter pays about 1.3, 1.26 and 1.17 over the first two logs, 0.40-0.55 from step 36 and
    # 0.5 (the letter 'a' alone) on every log from 88: with no anchor the runaway policy gave up the category for the
    # smaller term.
    Scenario("group_mode_collapse_early_letter_rloo_nokl_2x4_temp09_log4_b33", "RLOO without a KL term (beta 0), a "
             "word of the asked category (1) beside an early first letter (0.5, task.py's early_letter), two groups "
             "of 4 a step sampled at temperature 0.9 and a learning rate of 1.5e-3, 150 steps logged every 4: the "
             "category is already earned, the earliest-letter word of each category pays most, and with no anchor "
             "the policy settles on one answer per question: a group's completions become copies of each other; the "
             "one answer was the letter 'a' (early_letter's 1) for every question, the category given up (raw log and "
             "samples: a group's duplicate share, (n - distinct)/(n - 1), 30-step means of 0.28, 0.35, 0.69, 0.92 and "
             "0.91; early-letter words and fragments at first ('blue' on 21 of 48 colour samples, 'eight' on 21 of 40 "
             "number samples, 'dmmer' for the tool; a word of the asked category on 118 of the 240 samples over steps "
             "1-30), then short strings of early letters over 31-60 ('e' on 32 of 40 number samples, 'ae', 'a', 'ce', "
             "'bichhore'; 9 of 240 in the category), then 'a' ('a' alone on 9 of the 240 samples over steps 31-60, 107 "
             "over 61-90, 222 over 91-120 and 207 over 121-150, every sample from step 91 beginning with 'a': 'aa', "
             "'aaa', 'ana'); the category 0.97 and 0.875 over the first two logs, 0.78 at step 12, 0.375 at 16, "
             "0.06-0.28 over 20-40 and 0 on every log from 44; the early letter 0.58 over the first two logs, "
             "0.73-0.88 over 12-52, 0.90-0.98 over 56-84 and 1 from 88; the reward 1.26 and 1.17 over the first two "
             "logs and 0.40-0.55 from 36, 0.5 from 88; the zero-variance share 0 over the first two logs, 0.125-0.375 "
             "over 12-40, 0.375-0.875 over 44-84 and 1 from 88; entropy 0.43 and 0.47 over the first two logs, "
             "0.55-0.78 over 16-40, 0.16-0.60 over 44-84 and 0.011-0.22 from 88; no KL logged; the gradient norm, "
             "RLOO's advantages not normalised, 1.3 at step 4, 25.9 at 8, 47.4 at 12, 7.1-26.5 over 16-40, 0-5.9 over "
             "44-80 and 0 on every log from 84; the mean length 5.44 tokens over the first two logs, 7.7-9.1 over "
             "16-40 (the clipped share 0.125-0.41 there, strings run to the budget: 'ashoeonnnnnn'), 3.8-8.6 over "
             "44-80 and 2.0-2.97 from 84, nothing clipped from 84 but 0.03 at 88; the target words on 6 of the 1,200 "
             "samples, one after step 30).",
             algorithm="rloo", rewards=("in_category", "early_letter"), weights=(1.0, 0.5), steps=150,
             args=dict(temperature=0.9, beta=0.0, learning_rate=1.5e-3, logging_steps=4, seed=343),
             expect={"GROUP_MODE_COLLAPSE": copied_groups(0.6)},
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "REWARD_PLATEAU", "REWARD_HACKING",
                       "LENGTH_COLLAPSE", "REWARD_COLLAPSE"), batch=33),
    Scenario("nonfinite_exp_length_overflow_3x4_hot13_log6_b33", "An exponential length bonus (10**length, task.py's "
             "exp_length) computed in float64, three groups of 4 a step sampled at temperature 1.3, TRL's default "
             "(DAPO) loss, no KL term, a learning rate of 5e-4 and a 48-token budget, 120 steps logged every 6: the "
             "longest answer of a group keeps winning, and once answers pass about 20 characters the squares in TRL's "
             "float32 reward statistics overflow, then the rewards themselves: reward_std and the reward turn "
             "infinite or NaN in the log (raw log and samples: the reward 1.5e9 at step 6 (reward_std 5.3e9), 1.4e22 "
             "at 12 with reward_std infinite there, 1.4e33 at 18 (reward_std infinite), then both infinite on every "
             "log from 24 (17 of the 20 logs for the reward, 19 for reward_std), never None; the mean length 5.7 "
             "tokens at step 6, 6.7 at 12, 10.7 at 18, 16.2 at 24, 25.8 at 30 and 28-36 from 36; the clipped share 0 "
             "to step 18, 0.03 at 24, 0.17 at 30 and 0.19-0.46 from 36; the gradient norm 1.4, 2.5 and 3.3 over the "
             "first three logs and 0 on every log from 24: the NaN advantages are zeroed and the policy no longer "
             "moves; entropy 0.59 at step 6, 0.77 at 12, 0.86 at 18 and 0.98-1.13 from 24; the zero-variance share "
             "0.056 at step 6 and 0 after; no KL logged; words at first, hot sampling garbling many (a word of the "
             "asked category on 153 of the 360 samples over steps 1-30), then words run together with strings of "
             "letters, often to the budget ('ravengy rowngash sheerengngh', 'cherrrgeeennch peeryrengeaaryngeeer...', "
             "'seven eentwa eight elonghtwone'; 8-18 of each 360 in the category over 30 steps from step 31), no two "
             "alike in a group (a duplicate share of 0.05 over steps 1-30 and 0 after)).",
             rewards=("exp_length",), steps=120,
             args=dict(per_device_train_batch_size=12, max_completion_length=48, temperature=1.3, beta=0.0,
                       learning_rate=5e-4, logging_steps=6, seed=344),
             expect={"NONFINITE_VALUES": nonfinite("reward", "reward_std")},
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH"), batch=33),
    Scenario("entropy_collapse_coin_bnpo_nokl_8x2_cool06_log8_b33", "A reward that says nothing (a fair coin per "
             "completion, task.py's coin), eight groups of 2 a step sampled at temperature 0.6, the BNPO loss, no KL "
             "term and a learning rate of 2e-3, 160 steps logged every 8: the advantages are noise, and with no anchor "
             "and cool sampling the policy drifts onto one completion per question while the coin stays at chance: "
             "entropy falls far below where it started; the one completion was a string of h's run to the budget (raw "
             "log and samples: entropy 0.376 and 0.366 over the first two logs (a first-2-log median of 0.371), 0.28 "
             "at step 24, 0.40 at 32, 0.23 at 40, 0.062 at 48, 0.03-0.12 over 56-80, 0.016-0.018 over 88-96, 0.0049 at "
             "104 and below 0.0006 on every log from 112; the reward 0.42-0.58 throughout, its 32-step means 0.51, "
             "0.49, 0.48, 0.51 and 0.48; the zero-variance share 0.36-0.66, a median of 0.5 (a pair agrees on the coin "
             "half the time); no KL logged; the gradient norm 4.0, 1.5, 3.1, 1.4 and 0.35 over the first five logs, "
             "0.99 at 64, 2.6 at 80 and 0.96 at 88, below 1e-7 on every other log from 48; the mean length 5.4 tokens "
             "at step 8, 6.6 at 16, 8.9-10.5 over 24-40 and 12 (the budget) on every log from 48, the clipped share "
             "0.008 at 8, 0.19 at 16, 0.58-0.59 over 24-32, 0.84 at 40 and 1 from 48; at temperature 0.6 words, "
             "fragments and letter strings at first ('k' on 17 of 68 bird samples, 'jucekkkkkkkk', 'lown', 'e', "
             "'hkem'; a word of the asked category on 77 of the 512 samples over steps 1-32), then 12-letter strings "
             "of h's, k's and e's over 33-96 ('heehhhhhhhhh', 'kkkkkkkkkkkk', 'hawhhhhhhhhh'; none in the category), "
             "then 'hhhhhhhhhhhh' for every question ('ehhhhhhhhhhh' for the fruit and the number) from step 97; a "
             "group's completions copies (a duplicate share of 0.36 over steps 1-32, 0.67 over 33-64, 0.77 over 65-96 "
             "and 1 after)).",
             rewards=("coin",), steps=160,
             args=dict(per_device_train_batch_size=16, num_generations=2, temperature=0.6, loss_type="bnpo",
                       beta=0.0, learning_rate=2e-3, logging_steps=8, seed=345),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=3, first=2)},
             accepted=("GROUP_MODE_COLLAPSE", "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "TRUNCATION_HIGH",
                       "REPETITIVE_COMPLETIONS", "GRAD_NORM_SPIKE"), batch=33),
    # Retrained after its first training (the unit bug moved; the expected signature, onset rule and seed unchanged):
    # written with the bug at reward call 70, where both groups happened to agree (five 'lemon' for the fruit, 10,000
    # each; five birds of the category, 'heron', 'finch', 'hawk', 'eagle', 7,000 each), so the 1000x scores had no
    # advantage and the gradient norm was 0.0067 there (the reward 1,221 at that log); no gradient-norm spike, the
    # onset rule found none. The next logged step, 77, agreed too (two bird groups of the category, 7 each); moved to
    # call 84, the next logged step whose groups disagreed (the gradient norm 13.0 there in the first run), as batch
    # 25's grad_spike_unit_bug_judge_grpo_loss_unscaled_2x4_log5 was moved. The run is the same step for step up to it
    # (the bug at 70 had moved nothing).
    Scenario("grad_spike_unit_bug_judge_bnpo_unscaled_2x5_kl_log7_b33", "The 0-10 judge score, unscaled "
             "(scale_rewards none), two groups of 5 a step, the BNPO loss, a KL penalty of 0.03 and a learning rate of "
             "3e-4, 140 steps logged every 7; at the 84th reward call (a logged step) one batch's scores come back "
             "1000x too large (a unit bug): the advantages are not divided by the groups' spread, so that step's "
             "advantages, hence its gradient norm, are about a thousand times the others', clipped before the update; "
             "the run learns on either side: one extreme step, a mild episode (raw log and samples: the gradient norm "
             "13,004 at step 84, 1,200 times its median over the run (10.9, unscaled 0-10 scores) and 510 times the "
             "next largest (25.5 at step 42, 21.0 at 7), 0.023 and 0.011 on the logs either side (steps 77 and 91); "
             "the bug's batch a number group, four 'four' at 10,000 against 'nine' at 7,000 (advantages of +600 and "
             "-2,400), and a tree group, four words of the category at 7,000 against 'mallow' at 0 (+1,400 and "
             "-5,600); the score 6.89 and 7.01 over the first two logs, 35-step means of 6.84 and 7.69 to step 70, "
             "1,078 at the log of steps 78-84, 7.34 at 77 and 8.30-9.36 on every log after 84 but 6.54 at 133; "
             "reward_std 435 at step 84 and 1.36-3.3 elsewhere; the zero-variance share 0.14-0.71, a median of 0.32; "
             "entropy 0.47 and 0.45 over the first two logs, 35-step means of 0.47, 0.42, 0.33 and 0.23; the KL a "
             "median of 0.20, at most 0.90 (step 133); the mean length 5.1-5.7 tokens, nothing clipped; a word of the "
             "asked category on 311-329 of the 350 samples over each 35 steps; the fruit's, the number's and the "
             "colour's targets first ('lemon' on 44 of 60, 'four' on 24 of 45, 'pink' on 18 of 35 samples over steps "
             "36-70), the tool's, the animal's and the drink's over 71-140 ('hammer' on 39 of 50 and 'pig' on 26 of 50 "
             "over 71-105, 'juice' on 38 of 55 over 106-140), the tree's in part ('ash' on 20 of 40 over 106-140), the "
             "bird's 'swan' seldom (15 of its 200 samples; 'heron', 'finch', then 'uck' on 12 of 25 over 106-140)).",
             rewards=("judge",), steps=140, spike=(84, 1000.0),
             args=dict(per_device_train_batch_size=10, num_generations=5, scale_rewards="none", loss_type="bnpo",
                       beta=0.03, learning_rate=3e-4, logging_steps=7, seed=346),
             mild={"GRAD_NORM_SPIKE": spike("grad_norm", 50)}, batch=33),
)
