"""An independent source of RL fine-tuning runs: a real GRPO loop over a tiny policy, in numpy.

Nothing here shares code or curve formulas with ``rlprobe.doctor.synth``. The curves are
not drawn, they are *measured*: a small autoregressive softmax policy samples completions,
reward functions score the token sequences, GRPO turns the rewards into group-normalised
advantages, and AdamW (with gradient clipping) updates the weights. Every pathology is
caused by a mechanism switched on at a known step (a learning rate that is too high, a
reward weight that makes a cheap component worth gaming, a reward that pays for length,
a broken advantage normaliser, a label bug, a learning-rate schedule that ends early),
never by editing a curve.

The task. Vocabulary: ``<eos>``, the answer marker ``<ans>`` and 28 words. Each prompt
has an answer word; a completion is *correct* when, after at least ``reasoning`` words of
working, it holds exactly one ``<ans>`` followed by the prompt's answer (a completion not
ended by ``<eos>`` within ``max_len`` tokens is *truncated*). The working words are free: no
reward depends on which they are, so their entropy stays up, as most of a language model's
tokens do. The policy's logits are ``T[prompt, previous token] + Pos[position // 8]`` (a
coarse sense of position, as a language model has: it cannot learn to stop at exactly the
last allowed token). The frozen reference is the initial weights, built like a
"pretrained" model that already answers some prompts.

Reward functions (logged unweighted as TRL does, ``rewards/<fn>/mean|std``):
``accuracy`` (correctness: exactly one ``<ans>``, followed by the answer), ``format``
(terminates with exactly one ``<ans>``), ``tags`` (one third per ``<ans>``, up to three: a
cheap reward at odds with the strict verifier) and
``thoroughness`` (length / ``max_len``: pays for rambling).

What is logged per step uses TRL GRPOTrainer's key names; per-sample records carry the
prompt/completion text, reward and components, advantage, sequence log-probs, per-token
KL and entropy, length, truncation and the group id.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

EOS, ANS = 0, 1
WORDS = ("the", "cat", "sat", "on", "mat", "dog", "ran", "far", "sun", "hot", "red", "blue", "one", "two",
         "six", "ten", "box", "key", "map", "owl", "fox", "jam", "ink", "cup", "pen", "egg", "ice", "oak")
VOCAB = ("<eos>", "<ans>") + WORDS
V = len(VOCAB)
BOS = V  # the "previous token" of position 0
BUCKET = 8  # positions that share one position bias

REWARD_FUNCS = ("accuracy", "format", "tags", "thoroughness")


@dataclass(frozen=True)
class SimConfig:
    """One simulated GRPO run. Steps are optimizer steps, as TRL counts them."""

    n_steps: int = 600
    seed: int = 0
    n_prompts: int = 16
    prompts_per_step: int = 4
    group_size: int = 8
    max_len: int = 32
    reasoning: int = 3                      # words of working the verifier wants before the answer
    lr: float = 0.02
    lr_schedule: str = "constant"          # "constant" | "linear" (to 0 at n_steps) | "cosine"
    lr_switch: tuple[int, float] | None = None   # (step, factor): lr multiplied by factor from step on
    lr_end_step: int | None = None          # a schedule mis-set to reach 0 at this step (then stays 0)
    warmup_steps: int = 0
    beta: float = 0.0                       # KL penalty; TRL logs `kl` only when beta > 0
    num_iterations: int = 1                 # optimizer steps per generation batch
    epsilon: float = 0.2
    epsilon_high: float = 0.2
    max_grad_norm: float = 1.0
    temperature: float = 1.0
    difficulty: float = 0.0                 # added to the reference's answer logits: < 0 is harder
    reward_weights: tuple[tuple[str, float], ...] = (("accuracy", 1.0), ("format", 0.2))
    weight_switch: tuple[int, tuple[tuple[str, float], ...]] | None = None  # (step, new weights)
    adv_group_bug: tuple[int, int] | None = None   # (step, group size wrongly used to normalise)
    nan_bug_step: int | None = None         # from here the normaliser loses its epsilon: 0/0 = NaN
    label_bug_step: int | None = None       # from here the answer key is shifted by one prompt
    sample_prompts: int = 2                 # groups captured per generation step
    capture_every: int = 1                  # capture samples every k-th generation

    @property
    def weights(self) -> dict[str, float]:
        return dict(self.reward_weights)

    def with_(self, **changes: Any) -> SimConfig:
        return replace(self, **changes)


@dataclass
class SimRun:
    """What the loop measured: TRL-named metrics per step, captured samples per step, and
    the trainer config a GRPOTrainer would record."""

    config: SimConfig
    steps: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    samples: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def series(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        """(steps, values) of one logged key, where it was logged."""
        pairs = [(s, m[key]) for s, m in self.steps if key in m]
        if not pairs:
            return np.array([], dtype=int), np.array([])
        s, v = zip(*pairs, strict=True)
        return np.asarray(s), np.asarray(v, dtype=float)

    @property
    def trainer_config(self) -> dict[str, Any]:
        c = self.config
        return {"num_generations": c.group_size, "max_completion_length": c.max_len, "beta": c.beta,
                "learning_rate": c.lr, "lr_scheduler_type": c.lr_schedule, "num_iterations": c.num_iterations,
                "epsilon": c.epsilon, "epsilon_high": c.epsilon_high, "max_grad_norm": c.max_grad_norm,
                "temperature": c.temperature, "scale_rewards": "group", "loss_type": "dapo",
                "reward_weights": [w for _, w in c.reward_weights], "max_steps": c.n_steps,
                "per_device_train_batch_size": c.prompts_per_step * c.group_size}

    def record(self, run_dir: str | Path, select: bool = False, logging_steps: int = 1) -> Path:
        """Write the run through the real ``rlprobe.Recorder`` (TRL key names). With
        ``select`` the Recorder's default sampling policy keeps a few samples per step (as
        the TRL integration does); without, every captured group is kept whole. With
        ``logging_steps`` = k, metrics are logged every k-th step as the mean over the k
        steps since the last log, as the Trainer does."""
        from rlprobe import Recorder

        run_dir = Path(run_dir)
        with Recorder(run_dir, algorithm="grpo", model_name="simrl/tabular-policy",
                      run_id=f"simrl-s{self.config.seed}", trainer_config=self.trainer_config,
                      capture_env=False, install_handlers=False, queue_size=1 << 20) as rec:
            window: dict[str, list[float]] = {}
            for step, metrics in self.steps:
                for key, value in metrics.items():
                    window.setdefault(key, []).append(value)
                if (step + 1) % logging_steps == 0:
                    rec.log_step(step, **{k: float(np.mean(v)) for k, v in window.items()})
                    window = {}
                if step in self.samples:
                    rec.log_samples(step, self.samples[step], select=select)
        return run_dir


# -- the policy -------------------------------------------------------------------------------


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _reference(rng: np.random.Generator, cfg: SimConfig, answers: np.ndarray) -> dict[str, np.ndarray]:
    """A "pretrained" policy: word-to-word preferences shared by all prompts plus a little
    prompt-specific noise, an answer marker now and then, a habit of answering after the
    marker (right for some prompts, not others) and of stopping after an answer."""
    P, L = cfg.n_prompts, cfg.max_len
    shared = rng.normal(0.0, 1.0, size=(V + 1, V))
    T = shared[None, :, :] + rng.normal(0.0, 0.3, size=(P, V + 1, V))
    T[:, :, ANS] -= 1.0                        # the marker is an occasional token ...
    T[:, ANS, ANS] -= 2.0                      # rarely twice in a row
    T[:, ANS, EOS] -= 1.5                      # and rarely left without an answer
    T[:, BOS, EOS] -= 4.0                      # empty completions are rare
    # Skill: the answer word after the marker, per-prompt strength (some prompts are easy).
    skill = rng.normal(2.5, 1.0, size=P) + cfg.difficulty
    T[np.arange(P), ANS, answers + 2] += skill
    # After the answer word, stopping is likely.
    T[np.arange(P), answers + 2, EOS] += 2.0
    pos = np.zeros((-(-L // BUCKET), V))
    pos[:, EOS] = np.minimum(np.linspace(0.0, 5.0, pos.shape[0]), 4.0)  # stopping grows likelier with length
    pos[0, EOS] -= 1.0
    pos[1:, ANS] += 2.0                        # ... that comes after some working
    return {"T": T, "Pos": pos}


class _Adam:
    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for k, p in params.items():
            m, v, g = self.m[k], self.v[k], grads[k]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            denom = np.sqrt(v / c2)
            denom += eps
            p -= (lr / c1) * m / denom


def _lr_at(cfg: SimConfig, step: int) -> float:
    end = cfg.lr_end_step if cfg.lr_end_step is not None else cfg.n_steps
    frac = min(1.0, step / max(1, end))
    if cfg.lr_end_step is not None:
        lr = cfg.lr * max(0.0, 1.0 - frac)
    elif cfg.lr_schedule == "linear":
        lr = cfg.lr * (1.0 - frac)
    elif cfg.lr_schedule == "cosine":
        lr = cfg.lr * 0.5 * (1.0 + np.cos(np.pi * frac))
    else:
        lr = cfg.lr
    if cfg.warmup_steps and step < cfg.warmup_steps:
        lr *= (step + 1) / cfg.warmup_steps
    if cfg.lr_switch is not None and step >= cfg.lr_switch[0]:
        lr *= cfg.lr_switch[1]
    return float(lr)


# -- one generation ---------------------------------------------------------------------------


def _generate(rng: np.random.Generator, params: dict[str, np.ndarray], pid: np.ndarray, cfg: SimConfig):
    """Sample one completion per row of ``pid``. Returns tokens (-1 after the end), the mask
    of generated positions (the ``<eos>`` included) and the per-position previous tokens."""
    B, L = pid.size, cfg.max_len
    tokens = np.full((B, L), -1, dtype=np.int64)
    prev = np.full((B, L), BOS, dtype=np.int64)
    mask = np.zeros((B, L), dtype=bool)
    alive = np.ones(B, dtype=bool)
    last = np.full(B, BOS, dtype=np.int64)
    T, Pos = params["T"], params["Pos"]
    draws = rng.random((B, L))
    rows = pid * (V + 1)
    flat = T.reshape(-1, V)
    inv_temp = 1.0 / cfg.temperature
    for t in range(L):
        logits = flat[rows + last] + Pos[t // BUCKET]
        if inv_temp != 1.0:
            logits *= inv_temp
        logits -= logits.max(axis=1, keepdims=True)
        cum = np.exp(logits, out=logits).cumsum(axis=1)
        # NaN weights give NaN probabilities: nothing compares true, argmax picks <eos>.
        tok = np.argmax(cum > draws[:, t:t + 1] * cum[:, -1:], axis=1)
        prev[:, t] = last
        mask[:, t] = alive
        tokens[:, t] = np.where(alive, tok, -1)
        alive &= tok != EOS
        if not alive.any():
            prev[:, t + 1:] = EOS
            break
        last = np.where(alive, tok, last)
    return tokens, mask, prev


def _rewards(tokens: np.ndarray, mask: np.ndarray, answers: np.ndarray, L: int,
             reasoning: int) -> dict[str, np.ndarray]:
    """Every reward function, unweighted, per completion. The verifier is strict, as answer
    extraction usually is: exactly one marker, after at least ``reasoning`` words of working,
    followed by the prompt's answer word (a truncated completion that has answered still
    counts)."""
    B = tokens.shape[0]
    idx = np.arange(L)
    terminated = ((tokens == EOS) & mask).any(axis=1)
    length = mask.sum(axis=1)
    marks = (tokens == ANS) & mask
    n_marks = marks.sum(axis=1)
    mark_at = np.where(marks, idx, -1).max(axis=1)
    answered = tokens[np.arange(B), np.minimum(mark_at + 1, L - 1)]
    correct = (n_marks == 1) & (mark_at >= reasoning) & (mark_at + 1 < L) & (answered == answers + 2)
    return {
        "accuracy": correct.astype(float),
        "format": (terminated & (n_marks == 1)).astype(float),
        "tags": np.minimum(n_marks, 3) / 3.0,
        "thoroughness": length / L,
    }


def _advantages(rewards: np.ndarray, size: int, eps: float) -> np.ndarray:
    """TRL's group normalisation (``scale_rewards="group"``): unbiased std, epsilon 1e-4."""
    g = rewards.reshape(-1, size)
    mean = g.mean(axis=1, keepdims=True)
    std = g.std(axis=1, ddof=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((g - mean) / (std + eps)).reshape(-1)


def _forward(params: dict[str, np.ndarray], rows: np.ndarray, buckets: np.ndarray, temperature: float):
    """Teacher-forced log-probabilities at the generated positions only: (tokens, V).
    ``rows`` index the flattened ``T`` (prompt × previous token), ``buckets`` ``Pos``."""
    logits = params["T"].reshape(-1, V)[rows] + params["Pos"][buckets]
    if temperature != 1.0:
        logits /= temperature
    return _log_softmax(logits)


def _sum_rows(values: np.ndarray, rows: np.ndarray, n_rows: int) -> np.ndarray:
    """``out[r] = Σ values[rows == r]`` (a scatter-add, sorted then reduced: np.add.at is slow)."""
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    out = np.zeros((n_rows,) + values.shape[1:])
    out[ordered[starts]] = np.add.reduceat(values[order], starts, axis=0)
    return out


# -- the training loop ------------------------------------------------------------------------


def simulate(cfg: SimConfig) -> SimRun:
    """Run the GRPO loop for ``cfg.n_steps`` optimizer steps and return what it measured."""
    rng = np.random.default_rng(cfg.seed)
    P = cfg.n_prompts
    answers = rng.integers(0, len(WORDS), size=P)
    ref = _reference(rng, cfg, answers)
    params = {k: v.copy() for k, v in ref.items()}
    adam = _Adam(params)
    run = SimRun(cfg)
    weights = cfg.weights
    batch = None
    gen_index = 0
    for step in range(cfg.n_steps):
        if cfg.weight_switch is not None and step == cfg.weight_switch[0]:
            weights = dict(cfg.weight_switch[1])
        metrics: dict[str, float] = {}
        if step % cfg.num_iterations == 0:
            batch = _generation(rng, params, ref, cfg, answers, weights, step, metrics, run, gen_index)
            gen_index += 1
        _update(params, adam, batch, cfg, step, metrics)
        metrics["learning_rate"] = _lr_at(cfg, step)
        metrics["epoch"] = step * cfg.prompts_per_step / P
        run.steps.append((step, metrics))
    return run


def _generation(rng, params, ref, cfg, answers, weights, step, metrics, run, gen_index) -> dict[str, Any]:
    P, G, L = cfg.n_prompts, cfg.group_size, cfg.max_len
    prompts = rng.choice(P, size=cfg.prompts_per_step, replace=False)
    pid = np.repeat(prompts, G)
    tokens, mask, prev = _generate(rng, params, pid, cfg)
    key = answers
    if cfg.label_bug_step is not None and step >= cfg.label_bug_step:
        key = np.roll(answers, 1)  # a dataset join off by one: every prompt graded against its neighbour's key
    parts = _rewards(tokens, mask, key[pid], L, cfg.reasoning)
    names = [n for n in REWARD_FUNCS if n in weights]
    reward = sum(weights[n] * parts[n] for n in names)
    size = G
    if cfg.adv_group_bug is not None and step >= cfg.adv_group_bug[0]:
        size = cfg.adv_group_bug[1]
    eps = 0.0 if cfg.nan_bug_step is not None and step >= cfg.nan_bug_step else 1e-4
    adv = _advantages(reward, size, eps)
    seq, pos = np.nonzero(mask)
    tok = tokens[seq, pos]
    rows = pid[seq] * (V + 1) + prev[seq, pos]
    buckets = pos // BUCKET
    old_lp_all = _forward(params, rows, buckets, cfg.temperature)
    ref_lp_all = _forward(ref, rows, buckets, cfg.temperature)
    at = np.arange(tok.size)
    old_lp, ref_lp = old_lp_all[at, tok], ref_lp_all[at, tok]
    with np.errstate(invalid="ignore", over="ignore"):
        ent_tok = -(np.exp(old_lp_all) * old_lp_all).sum(axis=1)
        kl_tok = np.exp(ref_lp - old_lp) - (ref_lp - old_lp) - 1.0
    per_seq = lambda x: np.bincount(seq, weights=x, minlength=pid.size)  # noqa: E731
    length = mask.sum(axis=1)
    truncated = ~((tokens == EOS) & mask).any(axis=1)
    grouped = reward.reshape(-1, G)
    metrics.update({
        "num_tokens": float(length.sum()),
        "completions/mean_length": float(length.mean()),
        "completions/min_length": float(length.min()),
        "completions/max_length": float(length.max()),
        "completions/clipped_ratio": float(truncated.mean()),
    })
    term = length[~truncated]
    if term.size:
        metrics.update({"completions/mean_terminated_length": float(term.mean()),
                        "completions/min_terminated_length": float(term.min()),
                        "completions/max_terminated_length": float(term.max())})
    for n in names:
        metrics[f"rewards/{n}/mean"] = float(parts[n].mean())
        metrics[f"rewards/{n}/std"] = float(parts[n].std(ddof=1))
    metrics["reward"] = float(reward.mean())
    metrics["reward_std"] = float(grouped.std(axis=1, ddof=1).mean())
    metrics["frac_reward_zero_std"] = float(np.isclose(grouped.std(axis=1), 0.0).mean())
    if gen_index % cfg.capture_every == 0:
        n = min(cfg.sample_prompts, cfg.prompts_per_step) * G
        n_tok = np.maximum(length[:n], 1)
        columns = {
            "reward": reward[:n], "advantage": adv[:n],
            "logprob": per_seq(old_lp)[:n], "ref_logprob": per_seq(ref_lp)[:n],
            "kl": per_seq(kl_tok)[:n] / n_tok, "entropy": per_seq(ent_tok)[:n] / n_tok,
        }
        values = {k: v.tolist() for k, v in columns.items()}
        comps = {name: parts[name][:n].tolist() for name in names}
        lengths, cut, ids = length[:n].tolist(), truncated[:n].tolist(), pid[:n].tolist()
        samples = []
        for i in range(n):
            sample = {"sample_id": f"{step}-{i}", "prompt_id": f"p{ids[i]}", "group_id": f"{step}-{i // G}",
                      "prompt": f"question {ids[i]}: what is the word?",
                      "completion": " ".join(VOCAB[t] for t in tokens[i, :lengths[i]]),
                      "reward_components": {name: comps[name][i] for name in names},
                      "length": lengths[i], "truncated": cut[i]}
            sample.update({k: v[i] for k, v in values.items()})
            samples.append(sample)
        run.samples[step] = samples
    return {"rows": rows, "buckets": buckets, "tok": tok, "adv": adv[seq], "old_lp": old_lp, "ref_lp": ref_lp,
            "fresh_lp_all": old_lp_all}


def _update(params, adam, batch, cfg, step, metrics) -> None:
    """One optimizer step on ``batch``: clipped surrogate (+ beta × k3 KL), token-level
    normalisation (TRL's ``loss_type="dapo"``), gradient clipping, AdamW."""
    rows, buckets, tok, A = batch["rows"], batch["buckets"], batch["tok"], batch["adv"]
    lp_all = batch.pop("fresh_lp_all", None)  # the generation's own forward pass, while the weights are unchanged
    if lp_all is None:
        lp_all = _forward(params, rows, buckets, cfg.temperature)
    at = np.arange(tok.size)
    lp = lp_all[at, tok]
    n_tok = max(1, tok.size)
    with np.errstate(invalid="ignore", over="ignore"):
        ratio = np.exp(lp - batch["old_lp"])
        clipped = np.clip(ratio, 1 - cfg.epsilon, 1 + cfg.epsilon_high)
        surrogate = np.minimum(ratio * A, clipped * A)
        kl_tok = np.exp(batch["ref_lp"] - lp) - (batch["ref_lp"] - lp) - 1.0
        loss = float((-surrogate + cfg.beta * kl_tok).sum() / n_tok)
        low = (ratio < 1 - cfg.epsilon) & (A < 0)
        high = (ratio > 1 + cfg.epsilon_high) & (A > 0)
        # d loss / d logprob of the sampled token; only the unclipped branch carries gradient.
        dlp = (np.where(low | high, 0.0, -A * ratio) + cfg.beta * (1.0 - np.exp(batch["ref_lp"] - lp))) / n_tok
        probs = np.exp(lp_all)
        dlogits = -dlp[:, None] * probs
        dlogits[at, tok] += dlp
        if cfg.temperature != 1.0:
            dlogits /= cfg.temperature
        ent = -(probs * lp_all).sum(axis=1)
    grads = {"T": _sum_rows(dlogits, rows, params["T"].shape[0] * (V + 1)).reshape(params["T"].shape),
             "Pos": _sum_rows(dlogits, buckets, params["Pos"].shape[0])}
    norm = float(np.sqrt(sum((g ** 2).sum() for g in grads.values())))
    if np.isfinite(norm) and norm > cfg.max_grad_norm:
        grads = {k: g * (cfg.max_grad_norm / norm) for k, g in grads.items()}
    adam.step(params, grads, _lr_at(cfg, step))
    metrics["loss"] = loss
    metrics["grad_norm"] = norm
    metrics["entropy"] = float(ent.sum() / n_tok)
    if cfg.beta > 0:
        metrics["kl"] = float(kl_tok.sum() / n_tok)
    metrics["clip_ratio/low_mean"] = float(low.sum() / n_tok)
    metrics["clip_ratio/high_mean"] = float(high.sum() / n_tok)
    metrics["clip_ratio/region_mean"] = float((low | high).sum() / n_tok)
