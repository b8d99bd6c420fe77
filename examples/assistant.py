"""An assistant's side of Lore, with the Python client: remember what the person says, and put
what Lore knows into the prompt before answering.

    lore serve &                                   # or `make run`
    python examples/assistant.py --user ada        # LORE_API_KEY=... when the server asks for keys
"""

from __future__ import annotations

import argparse
import os

from lore.client import LoreClient


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--user", default="ada")
    args = parser.parse_args()
    with LoreClient(args.url, api_key=os.environ.get("LORE_API_KEY")) as lore:
        lore.remember(args.user, "I switched to the light editor theme", kind="preference",
                      attribute="editor_theme", value="light")
        lore.remember(args.user, "My cat is called Miso", kind="fact")
        block = lore.context(args.user, "Can you set up my new laptop's editor?", token_budget=400)
        print("--- system prompt addition ---")
        print(block.text)
        print("--- cited memories:", ", ".join(block.cited.memories))
        for hit in lore.search(args.user, "pet name").hits[:3]:
            print(f"{hit.score:.3f}  {hit.content}")


if __name__ == "__main__":
    main()
