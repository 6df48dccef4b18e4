"""Tiny, offline TRL training for the integration tests.

Everything is built here: a character-level tokenizer from the ``tokenizers`` library and
a 2-layer Qwen2 of width 32 from a config, saved to a directory (``beta > 0`` reloads the
reference model from the model's path). Nothing is downloaded. A 20-step run takes about
a second on one CPU core.
"""
from __future__ import annotations

import os
import string
from pathlib import Path
from typing import Any

# One intra-op thread: a width-32 model gains nothing from more, and on a busy machine
# OpenMP's spinning threads make each step ~20x slower.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

PROMPTS = ["abc", "hello", "xyz", "the cat", "a dog", "zebra", "moon", "sun"]


def char_tokenizer(chars: str = string.ascii_lowercase + " ") -> Any:
    """A tokenizer with one token per character of ``chars``, after ``<pad>`` (0) and ``<eos>`` (1)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"<pad>": 0, "<eos>": 1}
    for char in chars:
        vocab[char] = len(vocab)
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<pad>"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("."), "isolated")
    backend.decoder = decoders.Fuse()
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>")


def build_tiny_model(path: Path) -> Path:
    """Save a random 2-layer Qwen2 (width 32) and a character tokenizer to ``path``."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    tokenizer = char_tokenizer()
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         tie_word_embeddings=True, pad_token_id=0, eos_token_id=1, bos_token_id=1)
    torch.manual_seed(0)
    Qwen2ForCausalLM(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def load_tokenizer(path: Path) -> Any:
    # Not AutoTokenizer: it would pick Qwen2's tokenizer class from the model config,
    # whose pre-tokenizer drops the spaces of this character vocabulary.
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast.from_pretrained(path)


def reward_vowels(completions: list[str], **kwargs: Any) -> list[float]:
    """Fraction of vowels: noisy but learnable signal."""
    return [sum(c in "aeiou" for c in text) / max(len(text), 1) for text in completions]


def reward_short(completions: list[str], **kwargs: Any) -> list[float]:
    return [-abs(len(text) - 4) / 8 for text in completions]


def make_trainer(model_dir: Path, output_dir: Path, algorithm: str = "grpo", reward_funcs: list | None = None,
                 eval_prompts: list[str] | None = None, trainer_class: type | None = None,
                 **overrides: Any) -> Any:
    """A GRPOTrainer or RLOOTrainer on the tiny model, CPU only, nothing reported anywhere."""
    import torch
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer, RLOOConfig, RLOOTrainer

    torch.set_num_threads(1)
    config_class, default_class = (GRPOConfig, GRPOTrainer) if algorithm == "grpo" else (RLOOConfig, RLOOTrainer)
    settings: dict[str, Any] = dict(
        output_dir=str(output_dir), per_device_train_batch_size=4, num_generations=4, max_completion_length=8,
        max_steps=12, logging_steps=1, learning_rate=1e-3, bf16=False, use_cpu=True, report_to="none",
        save_strategy="no", activation_checkpointing=False, disable_tqdm=True, seed=0, dataloader_num_workers=0,
    )
    settings.update(overrides)
    args = config_class(**settings)
    train = Dataset.from_dict({"prompt": PROMPTS * 16})
    evaluation = Dataset.from_dict({"prompt": eval_prompts}) if eval_prompts else None
    return (trainer_class or default_class)(
        model=str(model_dir),
        reward_funcs=reward_funcs or [reward_vowels, reward_short],
        args=args,
        train_dataset=train,
        eval_dataset=evaluation,
        processing_class=load_tokenizer(model_dir),
    )


#: A learning rate far too high for the tiny model, with a KL penalty: KL to the reference
#: leaves ~0 for ~1-2 within a few steps and stays there (entropy collapses alongside).
KL_BLOWUP_TRAINING: dict[str, Any] = dict(beta=0.1, learning_rate=0.05, lr_scheduler_type="constant", max_steps=60)
