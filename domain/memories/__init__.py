"""A person's memories one by one: recording, restating, forgetting and restoring, to-dos, verdicts."""
