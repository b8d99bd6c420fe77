"""How what a person said is read for search: turns in their context, times in questions."""
