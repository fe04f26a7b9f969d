"""A chat with memory through the OpenAI client: each message augmented, each reply learned.

    OPENAI_API_KEY=... python examples/openai_chat.py "I live in Porto." "Where do I live?"
    python examples/openai_chat.py --base-url http://127.0.0.1:8080/v1 --model local "..."

Any server that speaks OpenAI's chat completions works (llama.cpp, vLLM, LM Studio).
"""

from __future__ import annotations

import argparse
import os

import openai

from lokulmem import LokulMem
from lokulmem.integrations import OpenAIChat, token_counter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("messages", nargs="+", help="the user's messages, sent one after another")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint (default: OpenAI's)")
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--path", default=None, help="store file (default: the default store)")
    args = parser.parse_args()

    client = openai.OpenAI(base_url=args.base_url, api_key=os.environ.get("OPENAI_API_KEY", "not-needed"))
    with LokulMem(path=args.path, token_counter=token_counter("o200k_base")) as memory:
        chat = OpenAIChat(client, memory, augment_options={"debug": True})
        history: list[dict[str, str]] = [{"role": "system", "content": "You are a helpful assistant."}]
        for text in args.messages:
            history.append({"role": "user", "content": text})
            response = chat.create(model=args.model, messages=history)
            reply = response.choices[0].message.content or ""
            history.append({"role": "assistant", "content": reply})
            used = chat.last.debug.injected if chat.last and chat.last.debug else ()
            print(f"you: {text}")
            for injected in used:
                print(f"  memory: {injected.memory.content}  ({injected.reason})")
            print(f"assistant: {reply}")


if __name__ == "__main__":
    main()
