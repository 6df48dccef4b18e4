"""Train the corpus of real TRL runs (``make realruns``) and keep them as test fixtures.

    python tests/realruns/generate.py [--out tests/fixtures/realruns] [--only NAME,NAME] [--model-dir DIR]

Each scenario of ``corpus.SCENARIOS`` is a real GRPOTrainer or RLOOTrainer run on the CPU,
on the tiny instruct model of ``task.py`` (built and taught once, then reused), recorded
with ``rlprobe.integrations.trl.attach`` into ``<out>/<scenario>/run/``, with TRL's own
``trainer.state.log_history`` beside it as ``<out>/<scenario>/log_history.json.gz``: the raw
log that every onset in the corpus table is established from. Nothing is downloaded.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import task  # noqa: E402  (sets the thread and offline environment before torch loads)
from corpus import BASE_ARGS, SCENARIOS, Scenario, write_raw_log  # noqa: E402

ROOT = HERE.parents[1]
DEFAULT_OUT = ROOT / "tests" / "fixtures" / "realruns"
DEFAULT_MODEL = ROOT / "runs" / "realruns-model"


def instruct_model(model_dir: Path) -> Path:
    """The taught model, built once into ``model_dir`` and reused."""
    if not (model_dir / "config.json").exists():
        shutil.rmtree(model_dir, ignore_errors=True)
        task.build_instruct_model(model_dir)
    return model_dir


def train(scenario: Scenario, model_dir: Path, out: Path) -> dict[str, Any]:
    """Run one scenario into ``out/<name>/``; returns a short summary."""
    import torch
    import transformers
    from datasets import Dataset
    from transformers import PrinterCallback
    from trl import GRPOConfig, GRPOTrainer, RLOOConfig, RLOOTrainer

    from rlprobe import SamplingConfig
    from rlprobe.integrations.trl import attach

    torch.set_num_threads(1)
    transformers.logging.set_verbosity_error()
    warnings.filterwarnings("ignore")
    target = out / scenario.name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    work = out / f".work-{scenario.name}"
    shutil.rmtree(work, ignore_errors=True)

    config_class, trainer_class = (GRPOConfig, GRPOTrainer) if scenario.algorithm == "grpo" else \
        (RLOOConfig, RLOOTrainer)
    settings = dict(BASE_ARGS, output_dir=str(work), max_steps=scenario.steps, **scenario.args)
    if scenario.weights is not None:
        settings["reward_weights"] = list(scenario.weights)
    task.reset_rewards(int(settings["seed"]))
    questions = {"single": list(task.PROMPTS), "lists": list(task.LIST_PROMPTS),
                 "mixed": list(task.PROMPTS) + list(task.LIST_PROMPTS)}[scenario.prompts]
    evaluation = None
    if scenario.eval_steps:
        settings.update(eval_strategy="steps", eval_steps=scenario.eval_steps,
                        per_device_eval_batch_size=settings["per_device_train_batch_size"])
        evaluation = Dataset.from_dict({"prompt": questions})
    trainer = trainer_class(
        model=str(model_dir),
        reward_funcs=task.scheduled([task.REWARDS[name] for name in scenario.rewards], scenario.swap,
                                    scenario.spike),
        args=config_class(**settings),
        train_dataset=Dataset.from_dict({"prompt": questions * 400}),
        eval_dataset=evaluation,
        processing_class=task.load_tokenizer(model_dir),
    )
    trainer.remove_callback(PrinterCallback)
    # Every completion is kept: the batches are 8-16 completions, and group checks need them all.
    attach(trainer, target / "run", sampling=SamplingConfig(top_k=10_000, bottom_k=0, random_k=0),
                      model_name="tiny-qwen2-instruct")
    started = time.perf_counter()
    error = None
    try:
        trainer.train()
    except Exception as exc:  # noqa: BLE001 - a crash is a scenario's outcome; attach records it
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - started
    write_raw_log(target, trainer.state.log_history)
    shutil.rmtree(work, ignore_errors=True)
    return {"name": scenario.name, "seconds": round(seconds, 1), "steps": trainer.state.global_step,
            "error": error}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the scenarios go")
    parser.add_argument("--only", default="", help="comma-separated scenario names (default: all)")
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL, help="cache of the taught model")
    options = parser.parse_args(argv)
    wanted = [name for name in options.only.split(",") if name]
    unknown = sorted(set(wanted) - {s.name for s in SCENARIOS})
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(unknown)}")
    started = time.perf_counter()
    model_dir = instruct_model(options.model_dir)
    print(f"instruct model ready in {time.perf_counter() - started:.0f}s: {model_dir}", flush=True)
    for scenario in SCENARIOS:
        if (wanted and scenario.name not in wanted) or scenario.fixture:
            continue  # a scenario with a ``fixture`` reads another one's run
        summary = train(scenario, model_dir, options.out)
        print(json.dumps(summary), flush=True)
    print(f"done in {time.perf_counter() - started:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
