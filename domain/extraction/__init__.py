"""Memory formation: what a conversation says worth remembering, as candidates (issue 10).

`rules` is the offline extractor (no model): deterministic patterns over what the person says
of themselves. The candidates it gives are plain values; turning them into commands and
consolidating them against the person's memories is a later step.
"""
