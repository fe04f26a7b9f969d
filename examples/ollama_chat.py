"""A chat with memory through the Ollama client, against a local model.

ollama pull llama3.2 && python examples/ollama_chat.py "I live in Porto." "Where do I live?"
"""

from __future__ import annotations

import argparse

import ollama

from lokulmem import LokulMem
from lokulmem.integrations import OllamaChat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("messages", nargs="+", help="the user's messages, sent one after another")
    parser.add_argument("--host", default="http://127.0.0.1:11434", help="the Ollama server")
    parser.add_argument("--model", default="llama3.2")
    parser.add_argument("--path", default=None, help="store file (default: the default store)")
    args = parser.parse_args()

    with LokulMem(path=args.path) as memory:
        chat = OllamaChat(ollama.Client(host=args.host), memory, augment_options={"debug": True})
        history: list[dict[str, str]] = [{"role": "system", "content": "You are a helpful assistant."}]
        for text in args.messages:
            history.append({"role": "user", "content": text})
            response = chat.chat(model=args.model, messages=history)
            reply = response.message.content or ""
            history.append({"role": "assistant", "content": reply})
            used = chat.last.debug.injected if chat.last and chat.last.debug else ()
            print(f"you: {text}")
            for injected in used:
                print(f"  memory: {injected.memory.content}  ({injected.reason})")
            print(f"assistant: {reply}")


if __name__ == "__main__":
    main()
