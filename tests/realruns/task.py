"""The corpus's tiny "instruct" model, its task and its reward functions.

A character-level tokenizer and a 2-layer Qwen2 of width 64 are built in-process (nothing is
downloaded), then taught with a few hundred supervised steps of plain torch to answer a
question such as ``a fruit?`` with one word of that category (ten words each, drawn
uniformly), and ``some fruits?`` with two or three different ones, followed by
end-of-sequence. After that the model answers in words, as an
instruct model would, and the RL reward functions below have something real to act on.
"""
from __future__ import annotations

import math
import os
import random
import string
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trl"))
from tiny_trl import char_tokenizer  # noqa: E402

#: question → the words the supervised steps teach as answers (uniformly).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "a fruit?": ("apple", "pear", "plum", "lemon", "mango", "grape", "melon", "peach", "cherry", "banana"),
    "an animal?": ("cat", "dog", "cow", "pig", "owl", "fox", "horse", "sheep", "mouse", "zebra"),
    "a color?": ("red", "blue", "green", "pink", "black", "white", "brown", "gray", "orange", "yellow"),
    "a number?": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    "a tree?": ("oak", "pine", "elm", "ash", "birch", "maple", "cedar", "palm", "willow", "spruce"),
    "a drink?": ("tea", "milk", "water", "juice", "soda", "wine", "beer", "coffee", "cocoa", "cider"),
    "a tool?": ("saw", "axe", "drill", "hammer", "wrench", "pliers", "chisel", "file", "rake", "spade"),
    "a bird?": ("crow", "duck", "hawk", "swan", "robin", "eagle", "goose", "heron", "finch", "raven"),
}
PROMPTS = tuple(CATEGORIES)
#: Questions asking for a short list (two or three different words of the category).
LIST_PROMPTS = {f"some {key.split()[-1][:-1]}s?": words for key, words in CATEGORIES.items()}
#: The answer the correctness reward wants for each question: one of the ten taught words,
#: so a fresh model is right about one time in ten and GRPO can learn it.
TARGETS = {prompt: words[3] for prompt, words in CATEGORIES.items()}
WORDS = frozenset(word for words in CATEGORIES.values() for word in words)

SFT_STEPS = 600
HIDDEN = 64


def build_tokenizer() -> Any:
    return char_tokenizer(string.ascii_lowercase + " ?")


def load_tokenizer(path: Path) -> Any:
    # Not AutoTokenizer: it would pick Qwen2's tokenizer class, whose pre-tokenizer drops spaces.
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast.from_pretrained(path)


def build_instruct_model(path: Path, steps: int = SFT_STEPS, seed: int = 0) -> Path:
    """A random tiny Qwen2, taught by ``steps`` supervised steps to answer each question with
    one of its category's words; saved with its tokenizer to ``path`` (returned)."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.set_num_threads(1)
    tokenizer = build_tokenizer()
    config = Qwen2Config(vocab_size=len(tokenizer.get_vocab()), hidden_size=HIDDEN, intermediate_size=2 * HIDDEN,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=96, tie_word_embeddings=True, pad_token_id=0, eos_token_id=1,
                         bos_token_id=1)
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    rng = random.Random(seed)
    vocab = tokenizer.get_vocab()
    model.train()
    for _ in range(steps):
        rows, labels = [], []
        for i in range(64):
            if i % 4:
                prompt = rng.choice(PROMPTS)
                answer = rng.choice(CATEGORIES[prompt])
            else:
                prompt = rng.choice(list(LIST_PROMPTS))
                answer = " ".join(rng.sample(LIST_PROMPTS[prompt], rng.choice((2, 3))))
            p = [vocab[c] for c in prompt]
            a = [vocab[c] for c in answer] + [1]
            rows.append(p + a)
            labels.append([-100] * len(p) + a)
        width = max(map(len, rows))
        ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])
        target = torch.tensor([r + [-100] * (width - len(r)) for r in labels])
        mask = (target != -100) | (torch.arange(width)[None, :] < torch.tensor([len(r) for r in rows])[:, None])
        loss = model(input_ids=ids, attention_mask=mask.long(), labels=target).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


# -- reward functions (their names become TRL's rewards/<name>/mean) ---------------------------------


def _answer(text: str) -> str:
    return text.strip()


def correct(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """1 for the question's target word, else 0."""
    return [float(_answer(c) == TARGETS.get(p, "")) for p, c in zip(prompts, completions, strict=True)]


def in_category(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """1 for any word of the question's category (what the supervised steps already taught)."""
    return [float(_answer(c) in CATEGORIES.get(p, ())) for p, c in zip(prompts, completions, strict=True)]


def is_word(completions: list[str], **kwargs: Any) -> list[float]:
    """A format-only reward: 1 for a completion that is a single known word."""
    return [float(_answer(c) in WORDS) for c in completions]


def early_letter(completions: list[str], **kwargs: Any) -> list[float]:
    """Dense, noisy preference: how early in the alphabet the answer's first letter is."""
    return [1.0 - (string.ascii_lowercase.index(c[0]) / 25 if c and c[0] in string.ascii_lowercase else 1.0)
            for c in (_answer(t) for t in completions)]


def length_bonus(completions: list[str], **kwargs: Any) -> list[float]:
    """Pays per character: the classic exploitable length reward."""
    return [len(c) / 8 for c in completions]


def brevity(completions: list[str], **kwargs: Any) -> list[float]:
    """Pays for being short: drives answers towards nothing at all."""
    return [-len(c) / 8 for c in completions]


def letter_o(completions: list[str], **kwargs: Any) -> list[float]:
    """A cheap, gameable proxy: the share of the letter ``o`` (capped by the answer's length)."""
    return [c.count("o") / max(len(c), 4) for c in completions]


def word_count(completions: list[str], **kwargs: Any) -> list[float]:
    """Pays per known word said, repeats included: saying one short word over and over pays best."""
    return [float(sum(w in WORDS for w in c.split())) for c in completions]


def exp_length(completions: list[str], **kwargs: Any) -> list[float]:
    """An exponential length bonus, finite in Python's float64 but not in TRL's float32 tensors
    once answers grow: reward_std overflows first (its square does), then the reward."""
    return [math.pow(10.0, min(len(c), 300) * 1.0) for c in completions]


def correct_or_none(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float | None]:
    """``correct`` on the one-word questions; None (does not apply) on the list questions."""
    return [None if p in LIST_PROMPTS else float(_answer(c) == TARGETS.get(p, ""))
            for p, c in zip(prompts, completions, strict=True)]


def list_credit(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float | None]:
    """Partial credit on the list questions: distinct words of the asked category / 5, a maximum the
    budget rarely allows; None (does not apply) on the one-word questions."""
    return [len(set(c.split()) & set(LIST_PROMPTS[p])) / 5 if p in LIST_PROMPTS else None
            for p, c in zip(prompts, completions, strict=True)]


def judge(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """A 0-10 judge-like score: 3 for a single known word, 4 more when it is of the asked category,
    3 more for the question's target word."""
    scores = []
    for p, c in zip(prompts, completions, strict=True):
        word = _answer(c)
        scores.append(float(3 * (word in WORDS) + 4 * (word in CATEGORIES.get(p, ())) + 3 * (word == TARGETS.get(p))))
    return scores


def coin(completions: list[str], **kwargs: Any) -> list[float]:
    """A reward that says nothing: a fair coin per completion (seeded by ``reset_rewards``, so runs repeat)."""
    return [float(_COIN.random() < 0.5) for _ in completions]


_COIN = random.Random(0)


def reset_rewards(seed: int = 0) -> None:
    """Re-seed the stateful rewards, so that a scenario does not depend on the ones run before it."""
    _COIN.seed(seed)


REWARDS = {f.__name__: f for f in (correct, in_category, is_word, early_letter, length_bonus, brevity, letter_o,
                                   word_count, exp_length, coin, correct_or_none, list_credit, judge)}


def scheduled(functions: list[Any], swap: tuple[int, int, str] | None,
              spike: tuple[int, float] | None) -> list[Any]:
    """``functions`` wrapped so that the reward calls (one a generation, counted from 1) between
    ``swap``'s first and last return ``swap``'s reward instead, and the call ``spike`` names returns
    its rewards times the factor. Names are kept: TRL logs each as ``rewards/<name>/mean``."""
    if swap is None and spike is None:
        return functions
    calls = [0] * len(functions)

    def wrap(index: int, function: Any) -> Any:
        def reward(prompts: list[str], completions: list[str], **kwargs: Any) -> list[Any]:
            calls[index] += 1
            call = calls[index]
            if swap is not None and swap[0] <= call <= swap[1]:
                return REWARDS[swap[2]](prompts=prompts, completions=completions, **kwargs)
            values = function(prompts=prompts, completions=completions, **kwargs)
            if spike is not None and call == spike[0]:
                values = [None if v is None else v * spike[1] for v in values]
            return values
        reward.__name__ = function.__name__
        return reward

    return [wrap(i, f) for i, f in enumerate(functions)]


# -- added with batch 6 of the corpus -------------------------------------------------------------------


def nothing(completions: list[str], **kwargs: Any) -> list[float]:
    """A reward service that answers 0 for everything (timed out, the client defaulting to 0)."""
    return [0.0 for _ in completions]


#: The optimizer steps (counted from 1) whose batch ``judge_glitchy`` scores 1000x too large.
GLITCH_STEPS = (60, 150)


def judge_glitchy(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """``judge``, but a unit bug that recurs: the batches of the optimizer steps in ``GLITCH_STEPS``
    come back 1000x too large. Stateless: the step is read from TRL's ``trainer_state`` argument
    (``global_step`` counts the steps already taken, so the step being scored is one more)."""
    scores = judge(prompts=prompts, completions=completions)
    state = kwargs.get("trainer_state")
    if state is not None and state.global_step + 1 in GLITCH_STEPS:
        scores = [1000.0 * s for s in scores]
    return scores


REWARDS.update({f.__name__: f for f in (nothing, judge_glitchy)})


# -- added with batch 7 of the corpus -------------------------------------------------------------------


def constant_half(completions: list[str], **kwargs: Any) -> list[float]:
    """A reward service stuck on one answer: 0.5 for everything, whatever was said (a cached or default score)."""
    return [0.5 for _ in completions]


def says_please(completions: list[str], **kwargs: Any) -> list[float]:
    """A component that never fires on this task: 1 when the answer contains the word ``please``, which
    no question's words contain and the taught model never says."""
    return [float("please" in c.split()) for c in completions]


REWARDS.update({f.__name__: f for f in (constant_half, says_please)})


# -- added with batch 9 of the corpus -------------------------------------------------------------------


def correct_capitalized(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """``correct`` graded against an answer key written with a capital letter ('Pear'): a case-sensitive
    exact match that the lowercase vocabulary can never produce, so every completion scores 0."""
    return [float(_answer(c) == TARGETS.get(p, "").capitalize()) for p, c in zip(prompts, completions, strict=True)]


REWARDS.update({f.__name__: f for f in (correct_capitalized,)})


# -- added with batch 10 of the corpus ------------------------------------------------------------------

#: An answer key joined to the questions off by one (each question graded against the next one's target:
#: 'a fruit?' against 'pig'), as a misaligned join of prompts and answers would do.
SHIFTED_TARGETS = {prompt: TARGETS[PROMPTS[(i + 1) % len(PROMPTS)]] for i, prompt in enumerate(PROMPTS)}


def correct_shifted(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """``correct`` graded against the misaligned key: the word wanted is of another category, which the taught
    model does not give to this question, so nearly every completion scores 0."""
    return [float(_answer(c) == SHIFTED_TARGETS.get(p, "")) for p, c in zip(prompts, completions, strict=True)]


REWARDS.update({f.__name__: f for f in (correct_shifted,)})


# -- added with batch 11 of the corpus ------------------------------------------------------------------

#: An answer key from another edition of the word lists: each question's word is one the supervised steps
#: never taught (none is among ``WORDS``), so the taught model, spelling only taught words, never says it.
UNTAUGHT_TARGETS = {"a fruit?": "kiwi", "an animal?": "goat", "a color?": "teal", "a number?": "zero",
                    "a tree?": "yew", "a drink?": "punch", "a tool?": "vise", "a bird?": "wren"}
#: The list questions' key: the word their one-word question wants ('some fruits?' wants 'lemon' named).
LIST_TARGETS = {f"some {key.split()[-1][:-1]}s?": TARGETS[key] for key in CATEGORIES}


def correct_untaught(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """``correct`` graded against ``UNTAUGHT_TARGETS``: no completion of the taught model matches it, so every
    completion scores 0."""
    return [float(_answer(c) == UNTAUGHT_TARGETS.get(p, "")) for p, c in zip(prompts, completions, strict=True)]


def names_target(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """A binary reward on the list questions: 1 when the list names the question's target word ('some fruits?'
    answered 'pear lemon plum'), else 0. A fresh model's list of two or three of ten words names it about one
    time in four."""
    return [float(LIST_TARGETS.get(p, "") in c.split()) for p, c in zip(prompts, completions, strict=True)]


REWARDS.update({f.__name__: f for f in (correct_untaught, names_target)})


# -- added with batch 12 of the corpus ------------------------------------------------------------------

#: The list questions' exact key: three given words in a given order ('some fruits?' wants 'lemon mango grape').
LIST_KEYS = {prompt: " ".join(words[3:6]) for prompt, words in LIST_PROMPTS.items()}


def exact_list(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """A task beyond the taught model: 1 only for the one exact list of ``LIST_KEYS`` (three given words in a
    given order), else 0. A fresh list is two or three of the ten words in any order, so it matches about once
    in 1,400 samples: nearly every group agrees on 0."""
    return [float(" ".join(c.split()) == LIST_KEYS.get(p, "")) for p, c in zip(prompts, completions, strict=True)]


def target_mentions(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """A keyword-count reward on the list questions: how many times the list names the question's target word
    (``LIST_TARGETS``), repeats included, so naming it over and over pays most ('lemon lemon lemon')."""
    return [float(c.split().count(LIST_TARGETS.get(p, ""))) for p, c in zip(prompts, completions, strict=True)]


REWARDS.update({f.__name__: f for f in (exact_list, target_mentions)})


# -- added with batch 13 of the corpus ------------------------------------------------------------------

#: A key whose second half is from another edition of the word lists: the first four questions (fruit, animal,
#: colour, number) are graded against ``TARGETS``, the last four (tree, drink, tool, bird) against
#: ``UNTAUGHT_TARGETS``, words the taught model never says.
HALF_KEY = {prompt: (TARGETS if i < len(PROMPTS) // 2 else UNTAUGHT_TARGETS)[prompt]
            for i, prompt in enumerate(PROMPTS)}


def correct_half_key(prompts: list[str], completions: list[str], **kwargs: Any) -> list[float]:
    """``correct`` graded against ``HALF_KEY``: half the questions can be learnt (their key is a taught word, said
    about one time in ten at first), the other half never score (no completion matches an untaught word), so the
    reward can rise to about 0.5 and no further."""
    return [float(_answer(c) == HALF_KEY.get(p, "")) for p, c in zip(prompts, completions, strict=True)]


REWARDS.update({f.__name__: f for f in (correct_half_key,)})


# -- added with batch 15 of the corpus ------------------------------------------------------------------


def distinct_letters(completions: list[str], **kwargs: Any) -> list[float]:
    """A novelty score gone wrong: a tenth of a point per distinct letter the answer uses, so that letter soup pays
    more than any word ('pear' 0.4, 'banana' 0.3, 'qwzkxjvbmtyp' 1.2): the most varied strings, the most random
    samples, pay best."""
    return [len(set(c) & set(string.ascii_lowercase)) / 10 for c in completions]


REWARDS.update({f.__name__: f for f in (distinct_letters,)})
