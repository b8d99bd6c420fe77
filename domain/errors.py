"""Refusals of the domain: each names the problem, and the command produces no event."""

from __future__ import annotations


class DomainError(Exception):
    """A command that the current state does not allow."""

    code = "domain_error"


class MemoryPaused(DomainError):
    code = "memory_paused"

    def __init__(self, why: str) -> None:
        super().__init__(f"nothing is remembered for this person now: {why} (PUT .../settings)")


class MemoryNotFound(DomainError):
    code = "memory_not_found"

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"memory {memory_id!r} does not exist for this user")
        self.memory_id = memory_id


class MemoryAlreadyForgotten(DomainError):
    code = "memory_already_forgotten"

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"memory {memory_id!r} is already forgotten")
        self.memory_id = memory_id


class MemoryNotForgotten(DomainError):
    code = "memory_not_forgotten"

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"memory {memory_id!r} is not forgotten, so it cannot be restored")
        self.memory_id = memory_id


class InvalidValidityWindow(DomainError):
    code = "invalid_validity_window"

    def __init__(self, valid_from: object, valid_until: object) -> None:
        super().__init__(f"valid_until ({valid_until}) is before valid_from ({valid_from})")



class EpisodeNotFound(DomainError):
    code = "episode_not_found"

    def __init__(self, episode_id: str) -> None:
        super().__init__(f"episode {episode_id!r} does not exist for this user")
        self.episode_id = episode_id


class SessionNotFound(DomainError):
    code = "session_not_found"

    def __init__(self, session_id: str) -> None:
        super().__init__(f"session {session_id!r} has no messages for this user")
        self.session_id = session_id


class SummaryNotDue(DomainError):
    code = "summary_not_due"

    def __init__(self, summary_id: str, why: str) -> None:
        super().__init__(f"summary {summary_id!r} is not due for this answer: {why}")


class ProfileVersionConflict(DomainError):
    code = "profile_version_conflict"

    def __init__(self, asked: int, current: int) -> None:
        super().__init__(f"profile version {asked} was sent, and the profile is at version {current}: "
                         f"the next version is {current + 1}")


class NotATodo(DomainError):
    code = "not_a_todo"

    def __init__(self, memory_id: str, kind: str) -> None:
        super().__init__(f"memory {memory_id!r} is a {kind}, not a to-do")


class TodoAlreadyCompleted(DomainError):
    code = "todo_already_completed"

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"to-do {memory_id!r} is done already")


class TodoNotCompleted(DomainError):
    code = "todo_not_completed"

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"to-do {memory_id!r} is not done: there is nothing to reopen")


class PurgeUnavailable(DomainError):
    """A purge needs the log's words sealed (LORE_ENCRYPTION on): only then can one memory's words be
    made unreadable in an append-only log."""

    code = "purge_unavailable"

    def __init__(self) -> None:
        super().__init__("a purge needs encryption (LORE_ENCRYPTION=on): without it the log keeps the words "
                         "in the clear and cannot unsay them; forget the memory instead, or erase the person")


class NothingAboutTopic(DomainError):
    """None of what was found about a topic is still the person's."""

    code = "topic_not_found"

    def __init__(self, topic: str) -> None:
        super().__init__(f"nothing the person has is about {topic!r} any more")


class MemoryNotCurrent(DomainError):
    """Only a memory in force can be corrected: a superseded, merged or compressed one is history."""

    code = "memory_not_current"

    def __init__(self, memory_id: str, status: str) -> None:
        super().__init__(f"memory {memory_id!r} is {status}: only a memory in force can be corrected")
        self.memory_id = memory_id


class RevisionInvalid(DomainError):
    """A revision that cannot be carried out as a whole: it names a memory twice, changes nothing,
    or moves a memory to another slot."""

    code = "revision_invalid"
