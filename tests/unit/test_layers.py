"""The layers in the domain: what an offline summary keeps, when a profile version is due, what an
offline profile says, and how the deciders take summaries and profile versions."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import EndSession, Message, RecordMemory, RecordProfile, RecordSummary
from domain.conversations.deciders import summary_id_for
from domain.decide import decide
from domain.errors import ProfileVersionConflict, SummaryNotDue
from domain.events import ProfileDue, SummaryDue
from domain.layers.model import BasicInfo, SessionSummary
from domain.layers.profile import Known, ProfileInputs, SlotValue, carried_over, compose, due_reason
from domain.layers.summary import extractive_summary, has_substance, keywords, topics
from domain.state import UserState, evolve
from services.context import always_loaded
from services.questions import OfflineExpansion

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def said(*turns: tuple[str, str]) -> list[Message]:
    return [Message(role=role, content=text) for role, text in turns]  # type: ignore[arg-type]


TRIP = said(
    ("user", "Hi!"),
    ("assistant", "Hello! How can I help?"),
    ("user", "I'm planning a trip to Japan in April with my sister Ana."),
    ("assistant", "Lovely. Where to?"),
    ("user", "Kyoto and Osaka. We still need to book the ryokan in Kyoto."),
    ("assistant", "I can remind you."),
    ("user", "Thanks, that's great."),
)


# -- the offline summary ------------------------------------------------------------------------


def test_the_offline_summary_keeps_the_persons_telling_sentences_and_what_is_open() -> None:
    made = extractive_summary(TRIP)
    assert "trip to Japan in April" in made.summary and "ryokan" in made.summary
    assert "Hi" not in made.summary and "Thanks" not in made.summary  # small talk says nothing
    assert "How can I help" not in made.summary  # the person's side only
    assert made.unresolved == "We still need to book the ryokan in Kyoto."
    assert "kyoto" in made.topics and 3 <= len(made.topics) <= 5


def test_a_sentence_that_repeats_a_chosen_one_is_passed_over() -> None:
    made = extractive_summary(
        said(
            ("user", "I adopted a dog named Rex from the shelter."),
            ("user", "Rex the dog from the shelter is adopted now."),
            ("user", "Work at the bakery starts at five every morning."),
        ),
        sentences=2,
    )
    assert "bakery" in made.summary and made.summary.count("Rex") == 1


def test_tone_and_intent_come_from_what_the_person_says() -> None:
    worried = extractive_summary(
        said(
            ("user", "I'm worried and stressed about the exam."),
            ("assistant", "That is normal."),
            ("user", "Can you help me plan the revision?"),
        )
    )
    assert worried.emotional_tone == "negative"
    assert worried.user_intent == "Can you help me plan the revision?"
    calm = extractive_summary(
        said(
            ("user", "The garden has tomatoes and beans this year."),
            ("assistant", "Nice."),
            ("user", "The beans grow along the fence."),
        )
    )
    assert calm.emotional_tone == "neutral" and calm.user_intent is None and calm.unresolved is None


def test_a_session_of_small_talk_or_too_short_has_nothing_to_summarize() -> None:
    assert has_substance(TRIP)
    assert not has_substance(said(("user", "hi"), ("assistant", "hello"), ("user", "thanks, bye")))
    assert not has_substance(said(("user", "I moved to Lisbon."), ("assistant", "Nice.")))


def test_keywords_and_topics_are_the_words_said_most() -> None:
    assert keywords(["The ryokan in Kyoto", "Kyoto in April"])[:2] == ("kyoto", "ryokan")
    assert keywords(["hi, thanks, ok"]) == ()
    assert topics(TRIP)[0] == "kyoto"


# -- when a profile version is due ---------------------------------------------------------------


def test_a_profile_is_due_after_the_first_summary_and_then_on_change() -> None:
    assert due_reason(0, 1, None, NOW, None) == "first profile"
    assert due_reason(0, 0, None, NOW, "home_city") is None  # no conversation yet: no profile
    assert due_reason(2, 0, NOW, NOW, "home_city") == "home_city changed"
    assert due_reason(2, 4, NOW, NOW + timedelta(days=1), None) is None
    assert due_reason(2, 5, NOW, NOW, None) == "5 new session summaries"
    assert due_reason(2, 1, NOW, NOW + timedelta(days=8), None) == "8 days since version 2"
    assert due_reason(2, 0, NOW, NOW + timedelta(days=30), None) is None  # nothing new to say


def test_the_offline_profile_says_what_changed_and_keeps_what_nothing_contradicts() -> None:
    inputs = ProfileInputs(
        version=1,
        basic_info=(
            BasicInfo(key="home_city", value="Berlin"),
            BasicInfo(key="name", value="Ada"),
            BasicInfo(key="employer", value="Globex"),
        ),
        slots=(
            SlotValue(
                "home_city", "Berlin", datetime(2026, 1, 10, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)
            ),
            SlotValue("home_city", "Lisbon", datetime(2026, 2, 1, tzinfo=UTC), None),
            SlotValue(
                "employer", "Globex", datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC)
            ),
        ),
        memories=(
            Known("preference", "Likes green tea", 0.7),
            Known("lesson", "Short answers work best", 0.9),
        ),
    )
    narrative, basic = compose(inputs)
    assert "The person lives in Lisbon (since 1 Feb 2026; before that Berlin, from 10 Jan 2026)." in narrative
    assert "Employer: Globex until 1 Mar 2026." in narrative
    assert (
        "Preferences: likes green tea." in narrative
        and "What works for them: short answers work best." in narrative
    )
    # Lisbon now; the name stays (nothing says otherwise); the employer has ended, so it goes.
    assert basic == (BasicInfo(key="home_city", value="Lisbon"), BasicInfo(key="name", value="Ada"))
    assert carried_over(ProfileInputs(), ()) == ()


def test_a_slot_the_person_forgot_is_not_carried_over_from_the_version_before() -> None:
    before = (BasicInfo(key="home_city", value="Lisbon"), BasicInfo(key="name", value="Ada"))
    # The city was forgotten (no value of its slot is left); the name was never a slot: it stays.
    forgot = ProfileInputs(version=1, basic_info=before, forgotten=("home_city",))
    assert carried_over(forgot, ()) == (BasicInfo(key="name", value="Ada"),)
    # Nothing forgotten: both stay.
    assert carried_over(ProfileInputs(version=1, basic_info=before), ()) == before


# -- the deciders --------------------------------------------------------------------------------


class Person:
    def __init__(self) -> None:
        self.state = UserState("u")
        self.count = 0

    def do(self, command_type: type, at: datetime = NOW, **fields: object) -> list:
        self.count += 1
        fields.setdefault("command_id", f"c{self.count}")
        events = decide(self.state, command_type(user_id="u", occurred_at=at, **fields), at)
        evolve(self.state, events)
        return events

    def session(self, session_id: str) -> SummaryDue:
        from domain.commands import RecordEpisode

        self.do(
            RecordEpisode,
            session_id=session_id,
            episode_id=f"e-{session_id}",
            messages=[
                {"role": r, "content": t} for r, t in (("user", "a"), ("assistant", "b"), ("user", "c"))
            ],
        )
        return next(e for e in self.do(EndSession, session_id=session_id) if isinstance(e, SummaryDue))

    def summarize(
        self, due: SummaryDue, attempt: int = 0, fallback: bool = False, at: datetime = NOW
    ) -> list:
        return self.do(
            RecordSummary,
            at=at,
            command_id=f"summary-{due.due_id}-{attempt}",
            summary_id=due.summary_id,
            due_id=due.due_id,
            session_id=due.session_id,
            summarizer="extractive/1",
            fallback=fallback,
            summary=SessionSummary(summary="Said things."),
        )


def test_a_session_that_ends_is_summarized_once_and_its_first_summary_makes_a_profile_due() -> None:
    person = Person()
    due = person.session("s1")
    assert due.summary_id == summary_id_for("u", "s1")
    made = person.summarize(due)
    assert [type(e).__name__ for e in made] == ["SessionSummarized", "ProfileDue"]
    with pytest.raises(SummaryNotDue, match="answered already"):
        person.summarize(due, attempt=1)
    # A second summary while a version is due adds no second ProfileDue.
    assert [type(e).__name__ for e in person.summarize(person.session("s2"))] == ["SessionSummarized"]


def test_a_fallback_summary_is_replaced_by_a_later_answer_and_counts_once() -> None:
    person = Person()
    due = person.session("s1")
    person.summarize(due, fallback=True)
    assert person.state.summaries[due.summary_id].status == "fallback"
    assert person.state.profile.summaries_since == 1
    person.summarize(due, attempt=1)
    assert person.state.summaries[due.summary_id].status == "done"
    assert person.state.profile.summaries_since == 1


def test_an_answer_to_a_request_that_was_replaced_or_never_made_is_refused() -> None:
    person = Person()
    first = person.session("s1")
    person.do(RecordMemory, content="more", kind="fact")
    with pytest.raises(SummaryNotDue, match="no summary"):
        person.do(RecordSummary, summary_id="nope", due_id="x", session_id="s1", summarizer="x")
    from domain.commands import RecordEpisode

    person.do(RecordEpisode, session_id="s1", episode_id="more", messages=[{"role": "user", "content": "d"}])
    later = next(e for e in person.do(EndSession, session_id="s1") if isinstance(e, SummaryDue))
    assert later.summary_id == first.summary_id and later.due_id != first.due_id
    with pytest.raises(SummaryNotDue, match="later request"):
        person.summarize(first)


def test_profile_versions_follow_one_another_and_a_slot_change_makes_the_next_due() -> None:
    person = Person()
    person.summarize(person.session("s1"))
    revised = person.do(RecordProfile, version=1, narrative="Ada.", writer="profile/1", changes=1)
    assert person.state.profile.version == 1 and not person.state.profile.due
    with pytest.raises(ProfileVersionConflict, match="the next version is 2"):
        person.do(RecordProfile, version=3, narrative="?", writer="profile/1")
    assert revised[0].version == 1
    moved = person.do(
        RecordMemory, content="Lives in Lisbon", kind="fact", attribute="home_city", value="Lisbon"
    )
    assert isinstance(moved[-1], ProfileDue) and moved[-1].reason == "home_city changed"
    # Not due twice: the next change waits for the version being written.
    assert not any(
        isinstance(e, ProfileDue)
        for e in person.do(
            RecordMemory, content="Works at Acme", kind="fact", attribute="employer", value="Acme"
        )
    )


def test_the_always_loaded_kinds_and_the_offline_expansion() -> None:
    assert always_loaded("preference:all, lesson:5") == [("preference", None), ("lesson", 5)]
    with pytest.raises(ValueError, match="kind:all or kind:N"):
        always_loaded("preference:many")
    expand = OfflineExpansion()
    found = expand.questions("Where should we stay there?", ["We go to Kyoto in April", "with Ana"])
    assert found[0] == "We go to Kyoto in April with Ana Where should we stay there?"
    assert "kyoto" in found[1] and "april" in found[1]
    assert expand.questions("hi") == []  # nothing to add to the message as said


def test_a_version_written_while_the_person_changed_is_followed_by_another() -> None:
    person = Person()
    person.summarize(person.session("s1"))
    # Her city is said while version 1 is being written from what was known before it.
    person.do(RecordMemory, content="Lives in Lisbon", kind="fact", attribute="home_city", value="Lisbon")
    events = person.do(RecordProfile, version=1, narrative="Ada.", writer="profile/1", changes=1)
    assert [type(e).__name__ for e in events] == ["ProfileRevised", "ProfileDue"]
    assert events[1].reason == "changed while version 1 was written" and person.state.profile.due
    assert [
        type(e).__name__
        for e in person.do(RecordProfile, version=2, narrative="Ada, Lisbon.", writer="profile/1", changes=2)
    ] == ["ProfileRevised"]


def test_a_name_on_every_line_is_neither_a_topic_nor_what_makes_a_sentence_telling() -> None:
    lines = [
        "Ana: Thanks, Bob!",
        "Ana: I finished the marathon in Porto in four hours.",
        "Ana: Yes, Bob!",
        "Ana: My knee hurt after the marathon, so I booked a physiotherapist.",
        "Ana: Sure thing, Bob!",
        "Ana: Haha, Bob!",
    ]
    messages = [m for line in lines for m in said(("user", line), ("assistant", "Bob: ok"))]
    made = extractive_summary(messages, sentences=2)
    assert "marathon in Porto" in made.summary and "physiotherapist" in made.summary
    assert "Thanks, Bob" not in made.summary and "ana" not in made.topics
    assert made.topics[0] == "marathon"


def test_the_offline_profile_keeps_the_gist_of_each_latest_session_oldest_first() -> None:
    from domain.layers.profile import Brief

    briefs = (
        Brief("We booked the ryokan. It was cheap.", ("ryokan",), None, datetime(2026, 3, 2, tzinfo=UTC)),
        Brief(
            "Talked about work.",
            ("work",),
            "Still need a dentist",
            datetime(2026, 2, 1, tzinfo=UTC),
            ("Started as a nurse at the Charité",),
        ),
    )
    narrative, _ = compose(ProfileInputs(summaries=briefs))
    assert (
        "Along the way: 1 Feb 2026: Started as a nurse at the Charité; 2 Mar 2026: We booked the ryokan."
        in narrative
    )
    assert "Left open: Still need a dentist." in narrative


def test_forgetting_what_a_session_said_revises_its_summary_and_withholds_the_profile() -> None:
    from domain.commands import ForgetMemory, RecordExtraction, RestoreMemory
    from domain.events import ProfileDue, SummaryDue
    from domain.extraction.candidate import Candidate
    from domain.extraction.deciders import extraction_command_id

    person = Person()
    s1 = person.summarize(person.session("s1"))
    from domain.commands import RecordEpisode

    person.do(RecordEpisode, session_id="s2", episode_id="e-s2",  # a session going on: no summary yet
              messages=[{"role": "user", "content": "b"}])
    person.do(RecordProfile, version=1, narrative="Lives somewhere.", writer="profile/1", changes=10)
    window = [{"episode_id": "e-s1", "position": 0}, {"episode_id": "e-s2", "position": 0}]
    made = person.do(RecordExtraction, command_id=extraction_command_id("x1"), extraction_id="x1",
                     session_id="s1", window=window, extractor="rules/2",
                     candidates=[Candidate(content=f"Said {n}", kind="fact", valid_from=NOW, positions=(n,),
                                           confidence=0.9, extractor="rules/2") for n in (0, 1)])
    first, other = [e.memory_id for e in made if type(e).__name__ == "MemoryRecorded"]
    forgot = person.do(ForgetMemory, memory_id=first)
    revised = [e for e in forgot if isinstance(e, SummaryDue)]
    assert [(e.session_id, e.trigger) for e in revised] == [("s1", "revised")]
    assert [e.withhold for e in forgot if isinstance(e, ProfileDue)] == [True]
    assert s1 and person.state.summaries[revised[0].summary_id].status == "due"
    # Restoring revises them again, the profile shown as it is meanwhile; s2 has no summary to revise.
    back = person.do(RestoreMemory, memory_id=first)
    assert [e.session_id for e in back if isinstance(e, SummaryDue)] == ["s1"]
    assert [e.withhold for e in back if isinstance(e, ProfileDue)] == [False]
    assert not [e for e in person.do(ForgetMemory, memory_id=other) if isinstance(e, SummaryDue)]


def test_the_offline_summary_says_in_the_third_person_what_the_person_told_and_asked() -> None:
    from services.layers.writers import offline_summary

    at = datetime(2026, 4, 7, 18, 0, tzinfo=UTC)
    said = [("user", "Guess what, I moved to Valencia last month!"), ("assistant", "Wonderful!"),
            ("user", "I'm a physiotherapist, so I'm looking for a clinic job. Any tips for a CV in Spanish?"),
            ("assistant", "Keep it to one page."),
            ("user", "Thanks. Please remind me to call the relocation agent tomorrow.")]
    summary = offline_summary([Message(role=r, content=c, timestamp=at) for r, c in said], at)
    assert "They said they moved to Valencia in March 2026 and are a physiotherapist." in summary.summary
    assert summary.summary.startswith("The person talked about ")
    assert "They asked to be reminded to call the relocation agent on 8 April 2026." in summary.summary
    assert not re.search(r"\b(?:I|my|me)\b", summary.summary)
    assert "CV" in " ".join(summary.topics)
    assert all(t.lower() not in ("thanks", "tips") for t in summary.topics)
    assert summary.emotional_tone == "positive"


@pytest.mark.parametrize(("said", "tone"), [
    (["Work has been stressful."], "negative"),
    (["I am not happy with the new flat at all."], "negative"),  # negation, not the word "happy"
    (["So proud: I finally passed my driving test!!"], "positive"),
    (["I love the new job.", "But my mother is seriously ill and I am terrified."], "mixed"),
    (["The train leaves at nine."], "neutral"),
])
def test_the_tone_reads_negation_and_contrast_not_single_words(said: list[str], tone: str) -> None:
    from infra.nlp.tone import tone as tone_of

    assert tone_of(said) == tone


def test_the_offline_profile_says_who_the_person_is_now_in_sentences() -> None:
    inputs = ProfileInputs(
        slots=(
            SlotValue("job_title", "architect", datetime(2026, 1, 5, tzinfo=UTC), None),
            SlotValue("pet_cat", "Pixel", datetime(2026, 2, 1, tzinfo=UTC), None),
        ),
        memories=(Known("fact", "Is lactose intolerant", 0.7),
                  Known("goal", "Wants to learn Portuguese", 0.6)),
    )
    narrative, _ = compose(inputs)
    assert narrative.startswith("The person works as an architect (since 5 Jan 2026) and has a cat named "
                                "Pixel (since 1 Feb 2026).")
    assert "About them: is lactose intolerant." in narrative
    assert "Goals: wants to learn Portuguese." in narrative
