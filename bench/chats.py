"""Lore's own labelled conversations (bench/lifechats): multi-session chats between a person and
an assistant, with questions and the turns that answer them. bench/lifechats/README.md says how
they were written; this reads them.

A file holds one person:

    # a comment
    person: maya
    ## 2024-01-07 20:15            a session, and when it began (a minute a turn after that)
    @ flat-move                    the topic of the turns that follow, until the next
    user: we moved today {move}    a turn; {tag}s name it for the questions
    user~: ok thanks               ~: a filler turn (says nothing of its own)
    ## questions
    category | question | answer | tag tag ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "lifechats"
CATEGORIES = ("single-hop", "multi-hop", "temporal", "update", "inference")
_TURN = re.compile(r"^(?P<role>user|assistant)(?P<filler>~?):\s*(?P<text>.*?)\s*"
                   r"(?P<tags>(?:\{[\w-]+\}\s*)*)$")
_TAG = re.compile(r"\{([\w-]+)\}")


@dataclass(frozen=True)
class Turn:
    id: str          # S<session>:<turn>, both from 1
    role: str
    text: str
    at: datetime
    topic: str
    filler: bool
    tags: tuple[str, ...] = ()


@dataclass
class Session:
    number: int
    began: datetime
    turns: list[Turn] = field(default_factory=list)


@dataclass(frozen=True)
class Question:
    category: str
    text: str
    answer: str
    evidence: frozenset[str]   # turn ids


@dataclass
class Chat:
    person: str
    sessions: list[Session]
    questions: list[Question]

    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


def parse(text: str, name: str = "?") -> Chat:
    person = ""
    sessions: list[Session] = []
    questions: list[Question] = []
    topic = ""
    tagged: dict[str, str] = {}
    asking = False
    pending: list[tuple[int, str, str, str, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line or line.startswith("# "):
            continue
        if line.startswith("person:"):
            person = line.split(":", 1)[1].strip()
        elif line == "## questions":
            asking = True
        elif line.startswith("## "):
            sessions.append(Session(len(sessions) + 1, datetime.fromisoformat(line[3:].strip())))
        elif line.startswith("@"):
            topic = line[1:].strip()
        elif asking:
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 4 or parts[0] not in CATEGORIES:
                raise ValueError(f"{where}: a question is 'category | question | answer | tags': {line!r}")
            pending.append((number, parts[0], parts[1], parts[2], parts[3].split()))
        else:
            match = _TURN.match(line)
            if not match or not sessions:
                raise ValueError(f"{where}: not a turn of a session: {line!r}")
            session = sessions[-1]
            turn_id = f"S{session.number}:{len(session.turns) + 1}"
            tags = tuple(_TAG.findall(match["tags"]))
            for tag in tags:
                if tag in tagged:
                    raise ValueError(f"{where}: tag {tag!r} is already on {tagged[tag]}")
                tagged[tag] = turn_id
            session.turns.append(Turn(turn_id, match["role"], match["text"],
                                      session.began + timedelta(minutes=len(session.turns)),
                                      topic, bool(match["filler"]), tags))
    for number, category, question, answer, tags in pending:
        unknown = [t for t in tags if t not in tagged]
        if unknown or not tags:
            raise ValueError(f"{name}:{number}: no turn carries {unknown or 'a tag'}")
        questions.append(Question(category, question, answer, frozenset(tagged[t] for t in tags)))
    if not person:
        raise ValueError(f"{name}: no 'person:' line")
    return Chat(person, sessions, questions)


def load(folder: Path = FOLDER) -> list[Chat]:
    return [parse(path.read_text(encoding="utf-8"), path.name) for path in sorted(folder.glob("*.txt"))]
