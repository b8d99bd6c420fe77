"""The layers of a person's memory above single facts: session summaries and the profile."""
