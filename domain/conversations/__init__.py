"""Conversations: episodes as they are recorded, sessions and when their words are due for extraction."""
