"""A real, tiny GRPO run under rlprobe's live guardian, on CPU, offline — then the doctor.

    python examples/trl_demo.py [--out runs/trl-demo] [--steps 60]

A 2-layer Qwen2 of width 32 and a character tokenizer are built on the spot (nothing is
downloaded). It is trained with a learning rate far too high for it and a KL penalty, so
within a few steps the policy runs away from its reference: KL to the reference blows up
and entropy collapses. The guardian (``attach(..., halt=True)``) diagnoses the recording
every few steps, halts the run on the first critical finding, and keeps a checkpoint.
Then the full doctor runs over the recording and writes an HTML report.

Takes well under a minute on two CPU cores. Exit status 0 when the run was halted.
"""
from __future__ import annotations

import argparse
import os
import shutil
import string
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # a width-32 model only loses from more threads
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")


def build_tiny_model(path: Path) -> None:
    """A random 2-layer Qwen2 (width 32) and a character-level tokenizer, saved to ``path``
    (GRPO reloads the reference model from it when ``beta > 0``)."""
    import torch
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    vocab = {"<pad>": 0, "<eos>": 1}
    for char in string.ascii_lowercase + " ":
        vocab[char] = len(vocab)
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<pad>"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("."), "isolated")
    backend.decoder = decoders.Fuse()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>")
    config = Qwen2Config(vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         tie_word_embeddings=True, pad_token_id=0, eos_token_id=1, bos_token_id=1)
    torch.manual_seed(0)
    Qwen2ForCausalLM(config).save_pretrained(path)
    tokenizer.save_pretrained(path)


def vowel_reward(completions: list[str], **kwargs: object) -> list[float]:
    """Fraction of vowels in the completion."""
    return [sum(c in "aeiou" for c in text) / max(len(text), 1) for text in completions]


def length_reward(completions: list[str], **kwargs: object) -> list[float]:
    """Prefer completions of about four characters."""
    return [-abs(len(text) - 4) / 8 for text in completions]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="runs/trl-demo", help="work directory (recreated)")
    parser.add_argument("--steps", type=int, default=60, help="max optimizer steps")
    parser.add_argument("--learning-rate", type=float, default=0.05, help="0.05 is far too high on purpose")
    options = parser.parse_args()

    import transformers
    from datasets import Dataset
    from transformers import PreTrainedTokenizerFast, PrinterCallback
    from trl import GRPOConfig, GRPOTrainer

    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    warnings.filterwarnings("ignore", category=FutureWarning)

    from rlprobe.doctor import Finding, diagnose, render_report
    from rlprobe.integrations.trl import attach

    out = Path(options.out)
    shutil.rmtree(out, ignore_errors=True)
    build_tiny_model(out / "model")
    prompts = ["abc", "hello", "xyz", "the cat", "a dog", "zebra", "moon", "sun"]
    args = GRPOConfig(
        output_dir=str(out / "checkpoints"), max_steps=options.steps, learning_rate=options.learning_rate,
        lr_scheduler_type="constant", beta=0.1, per_device_train_batch_size=4, num_generations=4,
        max_completion_length=8, logging_steps=1, bf16=False, use_cpu=True, report_to="none",
        save_strategy="no", activation_checkpointing=False, disable_tqdm=True, seed=0,
    )
    trainer = GRPOTrainer(
        model=str(out / "model"), reward_funcs=[vowel_reward, length_reward], args=args,
        train_dataset=Dataset.from_dict({"prompt": prompts * 32}),
        processing_class=PreTrainedTokenizerFast.from_pretrained(out / "model"),
    )
    trainer.remove_callback(PrinterCallback)  # the per-step log dicts would drown the story
    run_dir = out / "run"

    def announce(finding: Finding) -> None:
        print(f"[rlprobe] step {trainer.state.global_step}: {finding.severity} {finding.signature_id} "
              f"(confidence {finding.confidence:.2f}, since step {finding.first_step})", flush=True)

    callback = attach(trainer, run_dir, halt=True, on_finding=announce, diagnose_every=5)
    trainer.train()

    print()
    if callback.halted_by is None:
        print(f"not halted: ran all {trainer.state.global_step} steps")
    else:
        finding = callback.halted_by
        checkpoints = sorted(p.name for p in (out / "checkpoints").glob("checkpoint-*"))
        print(f"halted at step {trainer.state.global_step} of {options.steps} by {finding.signature_id}: "
              f"{finding.explanation}")
        print(f"checkpoint kept: {', '.join(checkpoints) or 'none'}")
    print(f"\nrlprobe doctor {run_dir}")
    for finding in diagnose(run_dir):
        print(f"  {finding.severity:<8} {finding.signature_id:<24} from step {finding.first_step}: "
              f"{finding.explanation}")
    report = render_report(run_dir, out / "report.html")
    print(f"\nreport: {report}")
    return 0 if callback.halted_by is not None else 1


if __name__ == "__main__":
    sys.exit(main())
