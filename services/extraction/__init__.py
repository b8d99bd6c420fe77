"""Memory formation in the application: the extractors (offline rules, or a language model)."""
