"""The corpus table: every real TRL scenario, its mechanism, what it must be diagnosed as, and
the rule that dates its onset from TRL's raw ``log_history`` (never from the doctor).

One source of truth: ``generate.py`` trains from it, ``tests/doctor/test_realruns.py`` judges
the doctor against it, ``validation.py`` writes ``docs/validation.md`` from it.

Onset rules read only ``<scenario>/log_history.json`` (what ``trainer.state.log_history``
held), except the two about completion texts (repeated words, copies within a group): those
read TRL's own completions buffer as recorded (``samples.parquet``), not any rlprobe analysis.
"""
from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

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


def load_history(name: str, root: Path = FIXTURES) -> History:
    """The training entries of a scenario's ``log_history`` (no evaluation or summary entries)."""
    entries = json.loads((root / name / "log_history.json").read_text())
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
                                             rolling(series(history, cheap), smooth))]
        return first_sustained(both, lambda v: v == 1.0, run)
    return Onset(f"first step where the {smooth}-log mean of `{honest}` < 0.5 x its first-10-log median while "
                 f"that of `{cheap}` > 2 x its own, for {run} logs in a row", rule)


# -- the table ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    name: str
    mechanism: str
    """What was done to the run, and why that produces the pathology."""
    algorithm: str = "grpo"
    lists: bool = False
    """Train on the list questions (``some fruits?``) instead of the one-word ones."""
    rewards: tuple[str, ...] = ("correct", "in_category")
    weights: tuple[float, ...] | None = None
    steps: int = 120
    args: dict[str, Any] = field(default_factory=dict)
    """GRPOConfig / RLOOConfig overrides over BASE_ARGS."""
    expect: dict[str, Onset] = field(default_factory=dict)
    """signature → the rule dating its onset: what the doctor must report at warn or above, from
    about that step. Empty: a healthy run, on which nothing may be reported at warn or above."""
    tolerance: int = 10
    """How far (steps) a finding's first_step may be from the onset."""
    accepted: tuple[str, ...] = ()
    """Other warn/critical signatures an expert accepts on this run (consequences of the mechanism)."""

    @property
    def healthy(self) -> bool:
        return not self.expect

    def onsets(self, root: Path = FIXTURES) -> dict[str, int | None]:
        """signature → onset step, established from the scenario's raw log."""
        history = load_history(self.name, root)
        return {signature: rule(history, root / self.name / "run") for signature, rule in self.expect.items()}

    def shape(self) -> str:
        """Groups per step, num_generations, logging_steps … as docs print them."""
        merged = {"beta": 0.0, **BASE_ARGS, **self.args}
        groups = merged["per_device_train_batch_size"] * merged.get("steps_per_generation", 1) \
            // merged["num_generations"]
        bits = [self.algorithm, f"{groups}x{merged['num_generations']}", f"beta={merged['beta']:g}",
                f"lr={merged['learning_rate']:g}", f"log={merged['logging_steps']}"]
        for key in ("num_iterations", "loss_type", "scale_rewards", "lr_scheduler_type", "max_completion_length"):
            if key in self.args:
                bits.append(f"{key}={merged[key]}")
        return " ".join(bits)


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
             expect={"KL_BLOWUP": above("kl", 0.1, run=5, smooth=5)}, tolerance=15,
             accepted=("ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE",
                       "REWARD_PLATEAU")),
    Scenario("kl_blowup_rloo_log10", "RLOO, warm-up into a learning rate far too high, KL penalty; logged "
             "every 10 steps.", algorithm="rloo", weights=(1.0, 0.2), steps=250,
             args=dict(beta=0.1, learning_rate=3e-3, warmup_steps=60, lr_scheduler_type="constant_with_warmup",
                       logging_steps=10), expect={"KL_BLOWUP": above("kl", 0.05, run=3)}, tolerance=20,
             accepted=("ENTROPY_COLLAPSE", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "LENGTH_COLLAPSE",
                       "GROUP_MODE_COLLAPSE")),
    Scenario("entropy_collapse", "No KL anchor, a high learning rate (2e-3) and a reward that says nothing (a "
             "fair coin): the policy drifts onto one completion per prompt while the reward stays at chance.",
             rewards=("coin",), steps=120, args=dict(num_generations=8, learning_rate=2e-3),
             expect={"ENTROPY_COLLAPSE": falls("entropy", 0.3, run=5, smooth=5),
                     "GROUP_MODE_COLLAPSE": copied_groups(0.6)}, tolerance=15,
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "REPETITIVE_COMPLETIONS")),
    Scenario("lr_typo", "A learning rate of 1e6 (a typo for 1e-6), fp32: one Adam step destroys the weights; "
             "the policy samples uniformly from the vocabulary and the reward drops to 0.", weights=(1.0, 0.2),
             steps=40, args=dict(learning_rate=1e6),
             expect={"ENTROPY_EXPLOSION": rises("entropy", 3.0, run=5, first=1),
                     "REWARD_COLLAPSE": falls("reward", 0.25, run=5, first=1)}, tolerance=5,
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION")),
    Scenario("lr_too_high", "No KL anchor and a learning rate of 3e-3: the answers degrade into letter soup "
             "(entropy up, reward down).", weights=(1.0, 0.2), steps=120, args=dict(learning_rate=3e-3),
             expect={"REWARD_COLLAPSE": falls("reward", 0.5, run=5, first=3, smooth=3)}, tolerance=10,
             accepted=("ZERO_ADVANTAGE_GROUPS", "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "ENTROPY_EXPLOSION",
                       "GROUP_MODE_COLLAPSE", "REWARD_PLATEAU")),
    Scenario("length_explosion", "A reward paid per character: answers grow to the 24-token budget and get cut.",
             rewards=("length_bonus",), steps=150, args=dict(max_completion_length=24, learning_rate=5e-4),
             expect={"LENGTH_EXPLOSION": rises("completions/mean_length", 1.5, run=5),
                     "TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)}, tolerance=15,
             accepted=("ZERO_ADVANTAGE_GROUPS", "REWARD_HACKING", "ENTROPY_EXPLOSION")),
    Scenario("truncation_budget", "A token budget of 3 for one-word answers: nearly every answer is cut from "
             "the first step, and the cut caps the reward.", weights=(1.0, 0.2), steps=100,
             args=dict(max_completion_length=3, learning_rate=2e-4),
             expect={"TRUNCATION_HIGH": above("completions/clipped_ratio", 0.5, run=5)}, tolerance=5,
             accepted=("ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE")),
    Scenario("length_collapse", "A reward for brevity: answers shrink to nothing.", rewards=("brevity",),
             steps=150, args=dict(learning_rate=5e-4),
             expect={"LENGTH_COLLAPSE": falls("completions/mean_length", 0.5, run=5, smooth=5)}, tolerance=15,
             accepted=("ENTROPY_COLLAPSE", "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE")),
    Scenario("reward_hacking", "A cheap proxy (share of the letter o, weight 2) outweighs answering with a "
             "word of the asked category (weight 1): the policy games the proxy and stops answering.",
             rewards=("in_category", "letter_o"), weights=(1.0, 2.0), steps=120, args=dict(learning_rate=1e-3),
             expect={"REWARD_HACKING": hacked("rewards/in_category/mean", "rewards/letter_o/mean")},
             tolerance=15, accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE",
                                     "ZERO_ADVANTAGE_GROUPS", "GROUP_MODE_COLLAPSE", "REPETITIVE_COMPLETIONS")),
    Scenario("zero_advantage", "A format-only reward the instruct model already satisfies: nearly every "
             "group's rewards are equal, so there is no advantage to learn from.", rewards=("is_word",),
             steps=100, args=dict(learning_rate=2e-4),
             expect={"ZERO_ADVANTAGE_GROUPS": above("frac_reward_zero_std", 0.5, run=5, smooth=5)}, tolerance=10),
    Scenario("reward_overflow", "An exponential length bonus (10**length) computed in float64 overflows TRL's "
             "float32 reward statistics once answers grow; NaN advantages become 0.",
             rewards=("exp_length",), steps=150, args=dict(max_completion_length=48, learning_rate=5e-4),
             expect={"NONFINITE_VALUES": nonfinite("reward", "reward_std")}, tolerance=5,
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_EXPLOSION")),
    Scenario("nan_weights", "A learning rate of 2e6 (a typo), fp32: the weights blow up, the gradient "
             "norm turns NaN (TRL logs the loss as 0.0) and the next generation crashes.", weights=(1.0, 0.2),
             steps=30, args=dict(learning_rate=2e6),
             expect={"NONFINITE_VALUES": nonfinite("grad_norm", "loss", "entropy", "reward", "reward_std")},
             tolerance=2, accepted=("ENTROPY_EXPLOSION", "REWARD_COLLAPSE", "ZERO_ADVANTAGE_GROUPS",
                                    "TRUNCATION_HIGH", "LENGTH_EXPLOSION", "RECORDING_GAPS")),
    Scenario("repetition", "List questions and a reward paid per known word said, repeats included: the "
             "policy says one short word over and over.", lists=True, rewards=("word_count",), steps=200,
             args=dict(max_completion_length=40, learning_rate=5e-4),
             expect={"REPETITIVE_COMPLETIONS": repeated_words(0.5, run=5)}, tolerance=15,
             accepted=("LENGTH_EXPLOSION", "TRUNCATION_HIGH", "ENTROPY_COLLAPSE", "GROUP_MODE_COLLAPSE",
                       "ZERO_ADVANTAGE_GROUPS")),
)
