"""An assistant built on Lore, the whole loop with the Python client: before each answer, Lore's
context block goes into the system prompt; the model (any OpenAI-compatible endpoint: llama.cpp's
server, vLLM, OpenAI) answers; the exchange is recorded as turns of the session; when the
conversation is over the session is ended, and Lore takes memories from it, sums it up and revises
the profile. Next time, the context block knows.

    lore serve &                                   # or `make run`
    python examples/assistant.py --user ada --llm-url http://127.0.0.1:8089/v1 \\
        "I moved to Lisbon last month." "Any idea for a weekend trip?"
    # LORE_API_KEY=... when the server asks for keys; OPENAI_API_KEY=... when the endpoint does
"""

from __future__ import annotations

import argparse
import os
import time
import uuid

import httpx

from lore.client import LoreClient

SYSTEM = "You are a helpful assistant. Answer in one or two sentences."


def answer(llm: httpx.Client, model: str, context: str, history: list[dict[str, str]]) -> str:
    """The model's reply, with what Lore knows of the person in the system prompt."""
    system = SYSTEM + (f"\n\nWhat you know about the person:\n{context}" if context else "")
    reply = llm.post("/chat/completions", json={
        "model": model, "max_tokens": 96, "temperature": 0,
        "messages": [{"role": "system", "content": system}, *history]})
    reply.raise_for_status()
    return str(reply.json()["choices"][0]["message"]["content"]).strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("messages", nargs="+", help="What the person says, one message each turn.")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="Lore.")
    parser.add_argument("--user", default="ada")
    parser.add_argument("--session", default=None, help="The session's id (default: a new one).")
    parser.add_argument("--llm-url", default=os.environ.get("OPENAI_BASE_URL", "http://127.0.0.1:8089/v1"))
    parser.add_argument("--model", default=os.environ.get("OPENAI_MODEL", "local"))
    args = parser.parse_args()
    session = args.session or f"chat-{uuid.uuid4().hex[:8]}"
    key = os.environ.get("OPENAI_API_KEY")
    with LoreClient(args.url, api_key=os.environ.get("LORE_API_KEY")) as lore, \
            httpx.Client(base_url=args.llm_url, timeout=900,
                         headers={"Authorization": f"Bearer {key}"} if key else {}) as llm:
        history: list[dict[str, str]] = []
        for message in args.messages:
            block = lore.context(args.user, message, token_budget=400)
            history.append({"role": "user", "content": message})
            reply = answer(llm, args.model, block.text, history)
            history.append({"role": "assistant", "content": reply})
            lore.record_conversation(args.user, session, history[-2:])
            print(f"> {message}\n{reply}\n")
        ended = lore.end_session(args.user, session)
        print(f"--- session {session} ended: extraction {ended.status}")
        # The session's summary and the profile are written in the background, a moment later (longer
        # with a model): the next conversation finds them. Here, wait a little for them.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                s.session_id == session for s in lore.summaries(args.user).items):
            time.sleep(0.5)
        print("--- what Lore now knows, for the next conversation:")
        print(lore.context(args.user, args.messages[-1], token_budget=400).text)


if __name__ == "__main__":
    main()
