"""The pure core: commands, events, value objects and deciders. No I/O, no infrastructure."""
