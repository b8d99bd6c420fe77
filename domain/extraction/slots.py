"""The canonical slot vocabulary: single-valued properties of a person, under one name each, so
that "I moved to Lisbon" and "I live in Lisbon" meet in `home_city`."""

from __future__ import annotations

import re

# canonical slot -> other names for it (as an attribute, or a word that names the thing)
SLOTS: dict[str, tuple[str, ...]] = {
    "home_city": ("city", "hometown", "residence", "location", "lives_in"),
    "employer": ("company", "workplace", "works_at", "job_company"),
    "job_title": ("job", "role", "position", "occupation", "profession"),
    "editor": ("code_editor", "ide", "text_editor"),
    "editor_theme": ("theme", "color_theme", "colour_theme"),
    "diet": ("eating", "diet_type"),
    "partner": ("spouse", "wife", "husband", "girlfriend", "boyfriend"),
    "manager": ("boss",),
    "name": ("first_name", "preferred_name", "nickname"),
}
_ALIASES = {alias: slot for slot, aliases in SLOTS.items() for alias in (slot, *aliases)}
_NOT_A_WORD = re.compile(r"[^a-z0-9]+")
_SPELLINGS = {"favourite": "favorite", "colour": "color", "flavour": "flavor", "theatre": "theater"}


def canonical_slot(name: str) -> str:
    """The slot's canonical name: a known alias maps to its slot; anything else is kept, made
    snake_case (favourite things have a slot each: `favorite_color`, `favorite_food`)."""
    key = _NOT_A_WORD.sub("_", name.strip().lower()).strip("_")
    for british, american in _SPELLINGS.items():
        key = key.replace(british, american)
    return _ALIASES.get(key, key)
