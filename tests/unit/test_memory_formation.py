"""Memory formation in the domain: when extractions are due, and what consolidation decides."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import (
    EndSession,
    ExtractEpisode,
    MessageRef,
    ProposedVerdict,
    RecordEpisode,
    RecordExtraction,
    RecordMemory,
    Similar,
)
from domain.decide import decide
from domain.errors import EpisodeNotFound, SessionNotFound
from domain.events import (
    ExtractionDue,
    MemoriesExtracted,
    MemoryMerged,
    MemoryRecorded,
    MemoryReinforced,
    MemorySuperseded,
    ProfileDue,
    SessionAdvanced,
    SummaryDue,
)
from domain.extraction.candidate import Candidate
from domain.extraction.deciders import extraction_command_id
from domain.extraction.policy import ExtractionPolicy
from domain.extraction.taxonomy import Category, Taxonomy
from domain.model import MemoryKind, MemoryStatus
from domain.state import UserState, evolve

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def day(month: int, d: int = 1) -> datetime:
    return datetime(2026, month, d, tzinfo=UTC)


class Person:
    def __init__(self, policy: ExtractionPolicy = ExtractionPolicy()) -> None:
        self.state = UserState("u")
        # The conversations the extractions below come from.
        self.state.episodes.update({e: ("s", 10) for e in ("w", "a", "b")})
        self.count = 0
        self.policy = policy

    def do(self, command_type: type, **fields: object) -> list:
        self.count += 1
        fields.setdefault("occurred_at", NOW)
        fields.setdefault("command_id", f"c{self.count}")
        events = decide(self.state, command_type(user_id="u", **fields), NOW, policy=self.policy)
        evolve(self.state, events)
        return events

    def talk(self, session: str, episode: str, turns: list[tuple[str, str]]) -> list:
        return self.do(RecordEpisode, session_id=session, episode_id=episode,
                       messages=[{"role": role, "content": text} for role, text in turns])

    def extract(self, candidates: list[Candidate], window: tuple[MessageRef, ...] = (),
                similar: tuple[tuple[Similar, ...], ...] = (), extractor: str = "rules/1",
                proposed: tuple[ProposedVerdict | None, ...] = ()) -> list:
        self.count += 1
        return self.do(RecordExtraction, command_id=extraction_command_id(f"x{self.count}"),
                       extraction_id=f"x{self.count}", session_id="s",
                       window=window or tuple(MessageRef(episode_id="w", position=i) for i in range(10)),
                       extractor=extractor, candidates=tuple(candidates), similar=similar, proposed=proposed)


def exchange(n: int) -> list[tuple[str, str]]:
    return [turn for i in range(n) for turn in (("user", f"question {i}"), ("assistant", f"answer {i}"))]


def candidate(content: str, kind: MemoryKind = MemoryKind.FACT, **fields: object) -> Candidate:
    fields.setdefault("valid_from", NOW)
    fields.setdefault("confidence", 0.9)
    fields.setdefault("positions", (0,))
    return Candidate(kind=kind, content=content, extractor="test", **fields)  # type: ignore[arg-type]


def kinds(events: list) -> list[str]:
    return [type(e).__name__ for e in events]


# -- when an extraction is due ------------------------------------------------------------------

def test_every_fifth_turn_of_the_person_makes_the_latest_ten_messages_due() -> None:
    person = Person()
    events = person.talk("s", "e1", exchange(4))
    assert kinds(events) == ["EpisodeRecorded", "SessionAdvanced"]
    events = person.talk("s", "e2", exchange(1))
    assert kinds(events) == ["EpisodeRecorded", "SessionAdvanced", "ExtractionDue"]
    due = events[-1]
    assert isinstance(due, ExtractionDue) and due.trigger == "turns"
    assert [(r.episode_id, r.position) for r in due.window] == \
        [("e1", i) for i in range(8)] + [("e2", 0), ("e2", 1)]
    advanced = events[1]
    assert isinstance(advanced, SessionAdvanced) and advanced.pending == () and advanced.pending_turns == 0
    assert kinds(person.talk("s", "e3", exchange(3))) == ["EpisodeRecorded", "SessionAdvanced"]


def test_a_long_episode_is_due_in_windows_that_leave_no_message_out() -> None:
    person = Person()
    events = person.talk("s", "e", exchange(60) + [("assistant", "anything else?")])
    dues = [e for e in events if isinstance(e, ExtractionDue)]
    assert len(dues) == 12
    covered = {r.position for due in dues for r in due.window}
    assert covered == set(range(121))
    (advanced,) = [e for e in events if isinstance(e, SessionAdvanced)]
    assert advanced.pending == ()
    assert len({due.extraction_id for due in dues}) == 12


def test_the_end_of_a_session_makes_what_is_pending_due_once() -> None:
    person = Person()
    person.talk("s", "e1", exchange(2))
    events = person.do(EndSession, session_id="s")
    assert kinds(events) == ["SessionAdvanced", "ExtractionDue", "SummaryDue"]
    assert isinstance(events[1], ExtractionDue) and events[1].trigger == "session_end"
    assert len(events[1].window) == 4
    assert person.do(EndSession, session_id="s") == []


def test_a_session_too_short_ends_with_nothing_due_and_an_unknown_one_is_refused() -> None:
    person = Person()
    person.talk("s", "e1", [("user", "hi"), ("assistant", "hello")])
    assert kinds(person.do(EndSession, session_id="s")) == ["SessionAdvanced"]
    with pytest.raises(SessionNotFound):
        person.do(EndSession, session_id="never")


def test_turns_off_leaves_extraction_to_the_end_of_the_session() -> None:
    person = Person(ExtractionPolicy(every_turns=0))
    assert kinds(person.talk("s", "e1", exchange(30))) == ["EpisodeRecorded", "SessionAdvanced"]
    (_, due, _) = person.do(EndSession, session_id="s")
    assert isinstance(due, ExtractionDue) and len(due.window) == 60


def test_an_episode_asked_for_is_due_whole_and_an_unknown_one_is_refused() -> None:
    person = Person()
    person.talk("s", "e1", exchange(2))
    (due, summary) = person.do(ExtractEpisode, episode_id="e1")
    assert isinstance(due, ExtractionDue) and due.trigger == "asked"
    assert isinstance(summary, SummaryDue) and summary.trigger == "asked"
    assert [r.position for r in due.window] == [0, 1, 2, 3]
    with pytest.raises(EpisodeNotFound):
        person.do(ExtractEpisode, episode_id="nope")


# -- consolidation --------------------------------------------------------------------------------

def city(value: str, valid_from: datetime, **fields: object) -> Candidate:
    return candidate(f"Lives in {value}", attribute="home_city", value=value, valid_from=valid_from, **fields)


def test_a_move_closes_the_old_city_where_the_new_one_begins() -> None:
    person = Person()
    person.extract([city("Berlin", day(1))], window=(MessageRef(episode_id="a", position=0),))
    events = person.extract([city("Lisbon", day(5))], window=(MessageRef(episode_id="b", position=0),))
    assert kinds(events) == ["MemoriesExtracted", "MemoryRecorded", "MemorySuperseded"]
    extracted, lisbon, closed = events
    assert isinstance(extracted, MemoriesExtracted) and extracted.verdicts[0].verdict == "update"
    assert isinstance(closed, MemorySuperseded) and closed.valid_until == day(5)
    assert closed.by_memory_id == lisbon.memory_id and closed.decided_by == "rules/1"
    assert "berlin" in (closed.reason or "") and "lisbon" in (closed.reason or "")
    assert isinstance(lisbon, MemoryRecorded) and lisbon.decided_by == "rules/1"
    assert lisbon.valid_until is None


def test_a_job_got_closes_the_title_held_before_though_it_is_an_event() -> None:
    person = Person()
    person.extract([candidate("Works as a nurse", attribute="job_title", value="nurse", valid_from=day(1))],
                   window=(MessageRef(episode_id="a", position=0),))
    events = person.extract([candidate("Got the night manager job", MemoryKind.EVENT, attribute="job_title",
                                       value="night manager", valid_from=day(5))],
                            window=(MessageRef(episode_id="b", position=0),))
    assert kinds(events) == ["MemoriesExtracted", "MemoryRecorded", "MemorySuperseded"]
    _, got, closed = events
    assert isinstance(closed, MemorySuperseded) and closed.valid_until == day(5)
    assert isinstance(got, MemoryRecorded) and closed.by_memory_id == got.memory_id


def test_a_late_value_is_slotted_into_the_past() -> None:
    person = Person()
    person.extract([city("Lisbon", day(5))], window=(MessageRef(episode_id="b", position=0),))
    events = person.extract([city("Berlin", day(1))], window=(MessageRef(episode_id="a", position=0),))
    extracted, berlin, closed = events
    assert isinstance(berlin, MemoryRecorded) and berlin.valid_until == day(5)
    assert isinstance(closed, MemorySuperseded) and closed.memory_id == berlin.memory_id


def test_the_same_value_said_again_reinforces_and_the_same_message_read_again_does_not() -> None:
    person = Person()
    window = (MessageRef(episode_id="a", position=0), MessageRef(episode_id="b", position=0))
    (_, first) = person.extract([city("Berlin", day(1), positions=(0,))], window=window)
    events = person.extract([city("Berlin", day(2), positions=(1,))], window=window)
    assert kinds(events) == ["MemoriesExtracted", "MemoryReinforced"]
    reinforced = events[1]
    assert isinstance(reinforced, MemoryReinforced) and reinforced.memory_id == first.memory_id
    assert reinforced.confidence == pytest.approx(0.99) and reinforced.importance == pytest.approx(
        first.importance + 0.1)
    again = person.extract([city("Berlin", day(2), positions=(1,))], window=window)
    assert kinds(again) == ["MemoriesExtracted"]
    assert again[0].verdicts[0].verdict == "same" and "already" in again[0].verdicts[0].reason


def test_an_inference_never_replaces_what_the_person_said_but_may_replace_an_inference() -> None:
    person = Person()
    person.extract([city("Berlin", day(1))])
    events = person.extract([city("Lisbon", day(3), asserted=False)])
    assert kinds(events) == ["MemoriesExtracted"] and events[0].verdicts[0].verdict == "kept_out"
    other = Person()
    other.extract([city("Berlin", day(1), asserted=False)])
    assert kinds(other.extract([city("Lisbon", day(3), asserted=False)]))[-1] == "MemorySuperseded"


def test_words_all_in_a_close_memory_are_that_memory_and_more_words_merge_it() -> None:
    person = Person()
    (_, tea) = person.extract([candidate("Likes green tea", MemoryKind.PREFERENCE)])
    close = ((Similar(memory_id=tea.memory_id, cosine=0.9),),)
    pref = MemoryKind.PREFERENCE
    same = person.extract([candidate("likes tea, green", pref, positions=(3,))], similar=close)
    assert kinds(same) == ["MemoriesExtracted", "MemoryReinforced"]
    merged = person.extract([candidate("Likes green tea without sugar", pref, positions=(4,))], similar=close)
    assert kinds(merged) == ["MemoriesExtracted", "MemoryRecorded", "MemoryMerged"]
    recorded, merge = merged[1], merged[2]
    assert isinstance(recorded, MemoryRecorded) and recorded.merged_from == (tea.memory_id,)
    assert isinstance(merge, MemoryMerged) and merge.merged_from == (tea.memory_id,)
    assert recorded.importance == pytest.approx(0.7 + 0.1 + 0.1)  # preference, confident, one merge
    assert person.state.memories[tea.memory_id].status is MemoryStatus.MERGED


def test_close_memories_that_each_say_something_else_stay_apart() -> None:
    person = Person()
    (_, tea) = person.extract([candidate("Runs 5 km every morning", MemoryKind.FACT)])
    close = ((Similar(memory_id=tea.memory_id, cosine=0.93),),)
    events = person.extract([candidate("Runs 10 km every morning", MemoryKind.FACT, positions=(2,))],
                            similar=close)
    assert kinds(events) == ["MemoriesExtracted", "MemoryRecorded"]
    assert events[0].verdicts[0].verdict == "distinct"
    # Another kind is never judged against, however close.
    goal = candidate("Runs 5 km every morning", MemoryKind.GOAL, positions=(5,))
    other = person.extract([goal], similar=close)
    assert other[0].verdicts[0].verdict == "new"


def test_a_todo_keeps_its_due_time_and_where_it_was_said() -> None:
    person = Person()
    window = (MessageRef(episode_id="a", position=3), MessageRef(episode_id="a", position=4))
    events = person.extract([candidate("Call Mom", MemoryKind.TODO, due_at=day(6, 5), positions=(1,))],
                            window=window)
    todo = events[1]
    assert isinstance(todo, MemoryRecorded) and todo.due_at == day(6, 5) and todo.kind is MemoryKind.TODO
    assert todo.messages == (MessageRef(episode_id="a", position=4),) and todo.episode_id == "a"


def test_an_extraction_is_decided_the_same_way_twice_and_logs_what_it_was_given() -> None:
    command = RecordExtraction(
        command_id="extraction-x", user_id="u", occurred_at=NOW, extraction_id="x", session_id="s",
        window=(MessageRef(episode_id="e", position=0),), extractor="a-model", prompt_version="p/1",
        raw_output='{"memories": []}', prompt_tokens=120, completion_tokens=30,
        candidates=(city("Berlin", day(1)),))
    state = UserState("u", episodes={"e": ("s", 1)})
    first, second = decide(state, command, NOW), decide(state, command, NOW)
    assert first == second and state.memories == {}
    extracted = first[0]
    assert isinstance(extracted, MemoriesExtracted)
    assert (extracted.raw_output, extracted.prompt_tokens, extracted.completion_tokens) == \
        ('{"memories": []}', 120, 30)
    assert first[1].decided_by == "a-model:p/1"


def test_a_memory_recorded_by_hand_and_an_extraction_meet_in_the_same_slot() -> None:
    person = Person()
    person.do(RecordMemory, content="Lives in Berlin", attribute="home_city", value="Berlin",
              valid_from=day(1))
    events = person.extract([city("Lisbon", day(4))])
    assert kinds(events) == ["MemoriesExtracted", "MemoryRecorded", "MemorySuperseded"]


def test_words_are_compared_by_their_stems_and_numbers_stay_apart() -> None:
    from domain.extraction.consolidate import content_words

    assert content_words("Lives in Berlin") == content_words("I live in Berlin.")
    assert content_words("switched to Neovim") == content_words("switching to neovim")
    assert content_words("Runs 5 km") != content_words("Runs 10 km")
    assert content_words("Likes Lisbon's food") & content_words("I moved to Lisbon") == {"lisbon"}


def test_an_extraction_of_a_conversation_erased_meanwhile_records_nothing() -> None:
    from domain.commands import EraseUser

    person = Person()
    person.talk("s", "e", exchange(2))
    person.do(EraseUser)
    with pytest.raises(EpisodeNotFound):
        person.extract([city("Berlin", day(1))])
    assert person.state.memories == {}
    assert kinds(person.extract([])) == ["MemoriesExtracted"]  # an empty answer is taken: nothing comes back


def test_a_memory_names_every_entity_its_relations_name() -> None:
    from domain.extraction.candidate import Relation

    person = Person()
    relation = Relation(subject="Maya", predicate="works_at", object="Globex")
    (_, recorded) = person.extract([candidate("Maya works at Globex", MemoryKind.PERSON, entities=("Maya",),
                                              relations=(relation,))])
    assert isinstance(recorded, MemoryRecorded)
    assert recorded.entities == ("Maya", "Globex") and recorded.relations == (relation,)


# -- a model's proposed verdicts ----------------------------------------------------------------

def model(verdict: str, memory_id: str | None = None, content: str | None = None) -> ProposedVerdict:
    return ProposedVerdict(verdict=verdict, memory_id=memory_id, content=content, reason="it said so",
                           by="stand-in:consolidate-memories/1")  # type: ignore[arg-type]


def test_a_models_same_and_merge_are_taken_with_its_sentence_and_its_name() -> None:
    person = Person()
    pref = MemoryKind.PREFERENCE
    (_, tea) = person.extract([candidate("Likes green tea", pref)])
    close = ((Similar(memory_id=tea.memory_id, cosine=0.9),),)
    # Other words, the same meaning: the rules see new words, the model sees the same memory.
    same = person.extract([candidate("Enjoys a cup of sencha", pref, positions=(3,))], similar=close,
                          proposed=(model("same", tea.memory_id),))
    assert kinds(same) == ["MemoriesExtracted", "MemoryReinforced"]
    verdict = same[0].verdicts[0]
    assert (verdict.verdict, verdict.decided_by) == ("same", "stand-in:consolidate-memories/1")
    assert same[0].proposed == (model("same", tea.memory_id),)  # the proposal is in the log
    merged = person.extract([candidate("Takes tea without sugar", pref, positions=(4,))], similar=close,
                            proposed=(model("merge", tea.memory_id, "Likes green tea, without sugar"),))
    assert kinds(merged) == ["MemoriesExtracted", "MemoryRecorded", "MemoryMerged"]
    recorded, merge = merged[1], merged[2]
    assert recorded.content == "Likes green tea, without sugar" and recorded.merged_from == (tea.memory_id,)
    assert merge.decided_by == recorded.decided_by == "stand-in:consolidate-memories/1"


def test_a_models_distinct_keeps_apart_what_the_rules_would_have_made_one() -> None:
    person = Person()
    (_, tea) = person.extract([candidate("Likes green tea", MemoryKind.PREFERENCE)])
    close = ((Similar(memory_id=tea.memory_id, cosine=0.9),),)
    events = person.extract([candidate("Likes tea", MemoryKind.PREFERENCE, positions=(2,))], similar=close,
                            proposed=(model("distinct"),))
    assert kinds(events) == ["MemoriesExtracted", "MemoryRecorded"]
    assert events[0].verdicts[0].verdict == "distinct"


def test_a_model_never_supersedes_outside_a_slot_nor_names_what_it_was_not_shown() -> None:
    person = Person()
    (_, tea) = person.extract([candidate("Drinks tea in the morning", MemoryKind.PREFERENCE)])
    (_, run) = person.extract([candidate("Runs on Sundays", MemoryKind.FACT, positions=(1,))])
    close = ((Similar(memory_id=tea.memory_id, cosine=0.9),),)
    coffee = candidate("Drinks coffee in the morning", MemoryKind.PREFERENCE, positions=(2,))
    updated = person.extract([coffee], similar=close, proposed=(model("update", tea.memory_id),))
    assert "MemorySuperseded" not in kinds(updated)
    assert updated[0].verdicts[0].verdict == "distinct" and "not taken" in updated[0].verdicts[0].reason
    assert person.state.memories[tea.memory_id].active
    unshown = person.extract([candidate("Drinks coffee at noon", MemoryKind.PREFERENCE, positions=(3,))],
                             similar=close, proposed=(model("same", run.memory_id),))
    assert kinds(unshown) == ["MemoriesExtracted", "MemoryRecorded"]
    assert "named no memory it was shown" in unshown[0].verdicts[0].reason


def test_in_a_slot_the_model_may_see_the_same_value_in_other_words_and_never_close_an_assertion() -> None:
    person = Person()
    (_, nyc) = person.extract([city("New York City", day(1))])
    close = ((Similar(memory_id=nyc.memory_id, cosine=0.95),),)
    same = person.extract([city("NYC", day(3), positions=(3,))], similar=close,
                          proposed=(model("same", nyc.memory_id),))
    assert kinds(same) == ["MemoriesExtracted", "MemoryReinforced"]
    # An inference against the person's own word stays out, whatever the model proposes.
    kept = person.extract([city("Boston", day(4), asserted=False, positions=(4,))], similar=close,
                          proposed=(model("distinct"),))
    assert kinds(kept) == ["MemoriesExtracted"] and kept[0].verdicts[0].verdict == "kept_out"
    # A model's distinct does not keep two values of one slot in force.
    moved = person.extract([city("Lisbon", day(5), positions=(5,))], similar=close,
                           proposed=(model("distinct"),))
    assert kinds(moved)[-1] == "MemorySuperseded"


# -- a deployment's own categories ---------------------------------------------------------------

COACH = Taxonomy(categories=(
    Category(name="PREF", kind=MemoryKind.PREFERENCE, description="what they like", importance=0.5),
    Category(name="SOMA", kind=MemoryKind.FACT, description="the body: sleep, pain, energy", importance=0.9),
    Category(name="EFFECTIVE", kind=MemoryKind.LESSON, description="what worked for them"),
))


def test_a_candidate_is_filed_under_the_deployments_category_with_its_kind_and_importance() -> None:
    person = Person(ExtractionPolicy(taxonomy=COACH))
    events = person.extract([
        candidate("Sleeps badly after late runs", MemoryKind.FACT, category="soma", positions=(1,)),
        candidate("Box breathing calms her down", MemoryKind.FACT, category="EFFECTIVE", positions=(2,)),
        candidate("Likes morning runs", MemoryKind.PREFERENCE, category="Pref", positions=(3,)),
        candidate("Has a dog", MemoryKind.FACT, category="PETS", positions=(4,)),       # not one of them
        candidate("Wants to run a marathon", MemoryKind.GOAL, positions=(5,)),          # the rules name none
    ])
    recorded = [e for e in events if isinstance(e, MemoryRecorded)]
    assert [(m.category, m.kind) for m in recorded] == [
        ("SOMA", MemoryKind.FACT), ("EFFECTIVE", MemoryKind.LESSON), ("PREF", MemoryKind.PREFERENCE),
        (None, MemoryKind.FACT), (None, MemoryKind.GOAL)]
    # The category's own base (0.9, 0.5), else the kind's (lesson 0.8, fact and goal 0.6); +0.1 when
    # confident.
    assert [m.importance for m in recorded] == pytest.approx([1.0, 0.9, 0.6, 0.7, 0.7])


def test_without_a_taxonomy_no_category_is_kept() -> None:
    (_, recorded) = Person().extract([candidate("Sleeps badly", MemoryKind.FACT, category="SOMA")])
    assert isinstance(recorded, MemoryRecorded) and recorded.category is None


def test_a_taxonomy_names_each_category_once() -> None:
    with pytest.raises(ValueError, match="named once"):
        Taxonomy(categories=(Category(name="PREF", kind=MemoryKind.PREFERENCE, description="a"),
                             Category(name="pref", kind=MemoryKind.FACT, description="b")))
    with pytest.raises(ValueError):
        Category(name="no spaces allowed", kind=MemoryKind.FACT, description="a")


def test_content_words_stay_right_when_extractions_run_on_several_threads_at_once() -> None:
    # A snowball stemmer holds its word in itself; unguarded, threads garble each other's stems.
    from domain.extraction.consolidate import content_words
    from tests.support.threads import misread_under_threads

    texts = [f"{a}{b}{c}ations {a}{b}{c}ingly {a}{b}{c}ness" for a in "bcdfgklmnprst" for b in "aeiou"
             for c in "dlmnrst"]
    assert misread_under_threads({t: content_words(t) for t in texts}, content_words) == []


# -- what a memory says has ended ------------------------------------------------------------------

def _employed(person: Person, since: datetime) -> str:
    events = person.extract([candidate("Works at Tesco", attribute="employer", value="Tesco",
                                       valid_from=since)])
    (recorded,) = [e for e in events if isinstance(e, MemoryRecorded)]
    return recorded.memory_id


def test_a_job_lost_closes_the_employer_in_force_then() -> None:
    person = Person()
    tesco = _employed(person, day(1))
    person.state.profile.version = 1  # a profile written: what changes it makes the next one due
    events = person.extract([candidate("Was laid off in March 2026", MemoryKind.EVENT, valid_from=day(3),
                                       ends=("employer", "job_title"))])
    assert [e.reason for e in events if isinstance(e, ProfileDue)] == ["employer changed"]
    (laid_off,) = [e for e in events if isinstance(e, MemoryRecorded)]
    (closed,) = [e for e in events if isinstance(e, MemorySuperseded)]
    assert (closed.memory_id, closed.by_memory_id, closed.valid_until) == (tesco, laid_off.memory_id, day(3))
    assert "employer ended" in (closed.reason or "")
    assert person.state.memories[tesco].valid_until == day(3)
    assert not person.state.memories[tesco].holds_at(day(4))
    # the same messages read again close nothing twice
    again = person.extract([candidate("Was laid off in March 2026", MemoryKind.EVENT, valid_from=day(3),
                                      ends=("employer", "job_title"))])
    assert not [e for e in again if isinstance(e, MemorySuperseded)]


def test_an_ending_before_the_value_began_or_of_another_value_closes_nothing() -> None:
    person = Person()
    tesco = _employed(person, day(2))
    events = person.extract([candidate("Was laid off in January 2026", MemoryKind.EVENT, valid_from=day(1),
                                       ends=("employer",))])
    assert not [e for e in events if isinstance(e, MemorySuperseded)]
    events = person.extract([candidate("Left Google in May 2026", MemoryKind.EVENT, valid_from=day(5),
                                       ends=("employer",), ended_value="Google")])
    assert not [e for e in events if isinstance(e, MemorySuperseded)]
    assert person.state.memories[tesco].valid_until is None
    events = person.extract([candidate("Left Tesco in May 2026", MemoryKind.EVENT, valid_from=day(5),
                                       ends=("employer",), ended_value="tesco")])
    assert [e.memory_id for e in events if isinstance(e, MemorySuperseded)] == [tesco]


def test_a_new_value_after_an_ending_starts_the_slot_again() -> None:
    person = Person()
    tesco = _employed(person, day(1))
    person.extract([candidate("Was made redundant in March 2026", MemoryKind.EVENT, valid_from=day(3),
                              ends=("employer",))])
    events = person.extract([candidate("Works at Aldi", attribute="employer", value="Aldi",
                                       valid_from=day(5))])
    assert kinds(events) == ["MemoriesExtracted", "MemoryRecorded"]
    timeline = person.state.timeline("employer")
    assert [(m.value_key, m.valid_until) for m in timeline] == [("tesco", day(3)), ("aldi", None)]
    assert person.state.memories[tesco].superseded_by is not None
