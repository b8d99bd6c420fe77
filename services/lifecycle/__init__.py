"""The lifecycle of a person's memory: maintenance runs, reminders."""
