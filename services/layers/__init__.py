"""The layers above single facts: session summaries and the profile, made in the background."""
