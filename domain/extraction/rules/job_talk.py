"""The job a conversation is about, and the day it starts: "Lowrie & Baird offered me a job as
accounts assistant. I start on 3 August." A start said with no job of its own ("I start on 4 May",
"start June 1", "starting 1st April") is the start of the job talked of last in the conversation,
with its title, employer and city as they were said; with no job talked of, a start day alone is
no memory (it may be a course, a diet, a holiday)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.rules.said import Said, candidate, one
from domain.model import MemoryKind
from domain.text.parse import Sentence, Word, joined

# What a job is called when it is talked of as a thing got or offered.
_JOBS = frozenset({"job", "position", "role", "post", "offer", "placement", "contract"})
# A start that is no job's: "start the course", "start my diet", "start school".
_NOT_JOBS = frozenset({"course", "class", "classes", "school", "diet", "treatment", "holiday", "leave",
                       "term", "semester", "programme", "program", "training", "degree", "college",
                       "university", "uni", "therapy", "medication", "physio", "rehab", "mba", "phd",
                       "masters", "master", "apprenticeship", "league", "lessons", "gym", "meds"})

_NOT_TITLES = frozenset({"new", "dream", "first", "old", "great", "summer", "big", "perfect", "full-time",
                         "part-time", "permanent", "temporary", "weekend"})


@dataclass(frozen=True)
class JobTalk:
    title: str | None = None
    employer: str | None = None
    city: str | None = None
    talked: bool = False  # a job was talked of ("I got the job!"), named or not
    called: str | None = None  # what the person called it: "the Crookes job"

    def heard(self, sentence: Sentence) -> JobTalk:
        """This talk, with what a sentence says of a job (a sentence with no job in it: as it was)."""
        jobs = [w for w in sentence.words if w.lemma.lower() in _JOBS and w.pos == "NOUN"]
        # "Clinical midwife, starting 1 June.": the title alone, once a job is talked of
        title = _title(sentence, jobs) or (_title_alone(sentence) if self.talked else None)
        if not jobs and title is None:
            return self
        employer = _employer(sentence)
        city = _city(sentence)
        called = _called(sentence, jobs)
        if employer and employer != self.employer:  # another job: what was said of the last goes
            return JobTalk(title, employer, city, talked=True, called=called)
        return replace(self, title=title or self.title, employer=employer or self.employer,
                       city=city or self.city, talked=True, called=called or self.called)


def _title_alone(sentence: Sentence) -> str | None:
    """A sentence that opens with a job's title and says no verb before it: "senior ux researcher,
    starting 15 june", "product designer at scotiabank!!!"."""
    words = sentence.words
    head = next((w for w in words if w.pos == "NOUN" and lex.an_occupation(w.lemma)), None)
    if head is None or any(w.pos in ("VERB", "AUX", "PRON") for w in words[:head.i]):
        return None
    return _phrase(sentence, [w for w in words[:head.i + 1] if w.pos in ("NOUN", "ADJ", "PROPN")])


def _called(sentence: Sentence, jobs: list[Word]) -> str | None:
    """ "the Crookes job", "the VetAndes job": a job called by a name, which may be a place or the
    employer (so written as said, no employer)."""
    for job in jobs:
        names = [w for w in sentence.children(job.i) if w.dep == "compound" and w.pos == "PROPN"
                 and w.text[:1].isupper()]
        if names and any(c.lower == "the" for c in sentence.children(job.i)):
            return f"the {joined(names)} {job.text}"
    return None


def _title(sentence: Sentence, jobs: list[Word]) -> str | None:
    """ "a job as accounts assistant", "the night manager job", "as a QA engineer"."""
    words = sentence.words
    for word in words:
        if word.lower == "as":
            named = next((w for w in words[word.i + 1:word.i + 4]
                          if w.pos == "NOUN" and lex.an_occupation(w.lemma)), None)
            if named is not None:
                return _phrase(sentence, words[word.i + 1:named.i + 1])
    for job in jobs:
        titles = [w for w in sentence.children(job.i) if w.dep == "compound" and w.pos == "NOUN"]
        if titles and lex.an_occupation(titles[-1].lemma):
            # "a clinical pharmacist job": the words before the job that name it, not "new", "dream"
            first = titles[-1].i
            while first > 0 and words[first - 1].dep in ("compound", "amod") and words[first - 1].head in (
                    job.i, first) and words[first - 1].lower not in _NOT_TITLES:
                first -= 1
            return _phrase(sentence, words[first:titles[-1].i + 1])
    return None


def _phrase(sentence: Sentence, words: Sequence[Word]) -> str:
    kept = [w for w in words if w.pos not in ("DET", "PUNCT")]
    return " ".join(w.text if w.pos == "PROPN" or w.text.isupper() else w.lower for w in kept)


def _employer(sentence: Sentence) -> str | None:
    """The organisation a job is with: a name after "at", "with" or "for" ("a job at Swedish", "at
    the Hilton"), else the one the model tags that offered it ("Deltares offered me a position");
    not one left ("I'm leaving Harborview") nor a word in capitals ("as a QA engineer")."""
    # "an offer from Cloudflare": who a job comes from is who it is with
    froms = ("at", "with", "for", "from") if any(w.lemma.lower() in _JOBS for w in sentence.words) else (
        "at", "with", "for")
    for prep in sentence.words:
        if prep.lower in froms and prep.dep == "prep":
            named = [w for w in sentence.subtree(prep.i) if w.pos == "PROPN" and w.text[:1].isupper()
                     and w.ent not in ("DATE", "TIME", "PERSON")]
            if 0 < len(named) <= 4:
                return joined(named)
    offering = [w for w in sentence.words if w.lemma.lower() in ("offer", "hire", "take") and w.pos == "VERB"]
    for kind, ws in sentence.entities():
        capitalised = all(w.text[:1].isupper() or not w.text[:1].isalpha() for w in ws)  # not "big news"
        if kind == "ORG" and capitalised and any(
                any(a.i == v.i for a in sentence.ancestors(ws[-1].i)) for v in offering):
            return joined(ws).rstrip(".")
    return None


def _named_in(sentence: Sentence, start: Word) -> str | None:
    """ "I start on 1 April in Baltic Freight Solutions": an organisation one starts "in"."""
    for kind, ws in sentence.entities():
        if kind == "ORG" and ws[0].i > start.i and sentence.words[ws[0].i - 1].lower == "in":
            return joined(ws).rstrip(".")
    return None


def _city(sentence: Sentence) -> str | None:
    """The city a sentence about a job names with "in" ("a job in Halifax")."""
    for kind, ws in sentence.entities():
        if kind == "GPE" and ws[0].i > 0 and sentence.words[ws[0].i - 1].lower == "in":
            return joined(ws)
    return None


def job_started(said: Said, talk: JobTalk) -> list[Candidate]:
    """ "I start on 4 May", "start June 1", "starting 1st April", "I start there on the 1st of
    July": the day the job talked of starts (a plan), with what is known of it. Read from the
    sentence's words (a small model often takes "start" for a noun), its times read as ahead."""
    if not talk.talked:
        return []
    sentence = said.sentence
    words = sentence.words
    if sentence.text.rstrip().endswith("?") or any(
            w.lower in _NOT_JOBS for s in said.earlier for w in s.words):
        return []  # asked; or a course talked of just before ("I'm doing my MBA. I start in August")
    for start in words:
        if start.lower not in ("start", "starts", "starting", "begin", "begins", "beginning"):
            continue
        subject = next((c for c in sentence.children(start.i) if c.dep in ("nsubj", "nsubjpass")), None)
        if subject is not None and subject.lower not in ("i", "we"):
            continue  # "the course starts on Monday", "it starts in September": which, unsaid
        if any(c.dep == "neg" for c in sentence.children(start.i)):
            continue  # "I don't start until the paperwork is done"
        if start.tag == "VBG" and start.head > start.i and words[start.head].pos == "VERB" and (
                words[start.head].lemma.lower() not in ("start", "begin")):
            continue  # "Starting Tuesday I'm bowling with Ray": when something else begins
        after = words[start.i + 1:start.i + 8]
        if any(w.lower in _NOT_JOBS or w.lemma.lower() in _NOT_JOBS for w in after) or any(
                w.dep in ("dobj", "xcomp") and w.head == start.i and w.lower not in ("work", "job")
                for w in after):
            continue  # "I start the new meds on Monday", "start school in September"
        ahead = [d for d in said.dated if d.when.moment().date() >= said.at.date()
                 and start.i < d.first <= start.i + 6]
        if not ahead:
            continue
        said_as = _title(sentence, []) if any(w.lower == "as" for w in after) else None
        here = _employer(sentence) or _named_in(sentence, start)
        if here and talk.employer and here != talk.employer:
            continue  # "I start at KNUST in August", of a job talked of with another name: not it
        employer = here or talk.employer
        title = said_as or talk.title
        text = "Starts" + (f" as {title}" if title else f" {talk.called}" if talk.called and not employer
                           else " the new job")
        text += f" at {employer}" if employer else ""
        text += f" in {talk.city}" if talk.city and (not employer or talk.city not in employer) else ""
        when = ahead[0].text
        text += f" {when}" if when.split()[0].lower() in ("on", "in", "at", "from") else f" on {when}"
        return one(candidate(said, MemoryKind.PLAN, "job_started", text, confidence=0.75,
                             entities=(employer,) if employer else ()))
    return []
