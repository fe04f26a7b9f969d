"""A chat with memory through the Anthropic client: the memory block goes to ``system=``.

ANTHROPIC_API_KEY=... python examples/anthropic_chat.py "I live in Porto." "Where do I live?"
"""

from __future__ import annotations

import argparse
import os

import anthropic

from lokulmem import LokulMem
from lokulmem.integrations import AnthropicChat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("messages", nargs="+", help="the user's messages, sent one after another")
    parser.add_argument("--base-url", default=None, help="endpoint (default: Anthropic's)")
    parser.add_argument("--model", default="claude-sonnet-4-5")
    parser.add_argument("--path", default=None, help="store file (default: the default store)")
    args = parser.parse_args()

    client = anthropic.Anthropic(
        base_url=args.base_url, api_key=os.environ.get("ANTHROPIC_API_KEY", "not-needed")
    )
    with LokulMem(path=args.path) as memory:
        chat = AnthropicChat(client, memory, augment_options={"debug": True})
        history: list[dict[str, str]] = []
        for text in args.messages:
            history.append({"role": "user", "content": text})
            response = chat.create(
                model=args.model, max_tokens=512, system="You are a helpful assistant.", messages=history
            )
            reply = "".join(block.text for block in response.content if block.type == "text")
            history.append({"role": "assistant", "content": reply})
            used = chat.last.debug.injected if chat.last and chat.last.debug else ()
            print(f"you: {text}")
            for injected in used:
                print(f"  memory: {injected.memory.content}  ({injected.reason})")
            print(f"assistant: {reply}")


if __name__ == "__main__":
    main()
