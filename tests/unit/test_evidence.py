"""One ranking over memories and turns (a memory and the turn it came from are one piece of
evidence), and what a caller is shown of it: relevant, saying something, once."""

from __future__ import annotations

from domain.model import message_id
from projections.search import Candidate
from services.search import Hit, _fuse
from services.selection import select


def turn(position: int, score: float, content: str = "") -> Candidate:
    return Candidate("message", message_id("ada", "ep", position), score,
                     {"episode_id": "ep", "position": position, "content": content})


def memory(name: str, score: float, position: int | None = None) -> Candidate:
    refs = [f"ep#{position}"] if position is not None else []
    return Candidate("memory", name, score, {"content": name, "messages": refs})


def test_a_weak_memory_ranks_among_the_turns_by_its_score_not_first_of_its_own_list() -> None:
    lists = {("vector", "message"): [turn(1, 0.90), turn(2, 0.85), turn(3, 0.80)],
             ("vector", "memory"): [memory("weak", 0.60)]}
    hits = sorted(_fuse(lists, "ada"), key=lambda h: -h.scores["rrf"])
    assert [h.type for h in hits] == ["message", "message", "message", "memory"]


def test_a_memory_and_its_source_turn_are_one_hit_shown_as_the_one_that_ranked_better() -> None:
    lists = {("vector", "message"): [turn(1, 0.90), turn(2, 0.80)],
             ("vector", "memory"): [memory("moved to Leith", 0.95, position=2)],
             ("text", "message"): [turn(2, 7.0)]}
    hits = {h.id: h for h in _fuse(lists, "ada")}
    assert set(hits) == {message_id("ada", "ep", 1), "moved to Leith"}
    shown = hits["moved to Leith"]
    assert (shown.type, shown.ranks) == ("memory", {"vector": 1, "text": 1})
    assert shown.fields["content"] == "moved to Leith"
    # the turn ranks better than the memory anywhere: the turn is shown, once
    lists[("vector", "memory")] = [memory("moved to Leith", 0.5, position=2)]
    hits = {h.id: h for h in _fuse(lists, "ada")}
    assert set(hits) == {message_id("ada", "ep", 1), message_id("ada", "ep", 2)}


def hit(kind: str, content: str, cosine: float = 0.9) -> Hit:
    return Hit(kind, content, 1.0, {"cosine": cosine}, {}, {"content": content})  # type: ignore[arg-type]


def test_turns_that_say_little_are_left_out_unless_they_name_what_was_asked() -> None:
    hits = [hit("message", "Got it, thanks!"), hit("message", "Haha yes"),
            hit("message", "I got the job!"), hit("message", "We adopted a ginger cat called Biscuit"),
            hit("memory", "Likes tea")]
    shown = [h.id for h in select(hits, ["did I get the job at the clinic?"])]
    assert shown == ["I got the job!", "We adopted a ginger cat called Biscuit", "Likes tea"]


def test_nothing_is_shown_twice_and_a_memory_takes_the_place_of_a_turn_that_says_the_same() -> None:
    hits = [hit("message", "we moved into the new flat in Leith today"),
            hit("message", "We moved into the new flat in Leith today!"),
            hit("memory", "Moved into a new flat in Leith today"),
            hit("message", "The sofa nearly did not make the turn on the third landing")]
    shown = [(h.type, h.id) for h in select(hits, ["where did I move?"])]
    assert shown == [("memory", "Moved into a new flat in Leith today"),
                     ("message", "The sofa nearly did not make the turn on the third landing")]


def test_a_memory_that_says_less_than_the_turn_before_it_is_left_out() -> None:
    hits = [hit("message", "I moved to Leith and started a pottery class with Rosalind"),
            hit("memory", "Moved to Leith")]
    assert [h.type for h in select(hits, ["where do I live?"])] == ["message"]


def test_one_word_more_is_something_new() -> None:
    hits = [hit("memory", "Ada lives in Lisbon near the river"),
            hit("memory", "Ada lives in Porto near the river")]
    assert len(select(hits, ["where does Ada live?"])) == 2


def test_the_floor_the_limit_and_what_the_block_already_shows() -> None:
    hits = [hit("memory", "Prefers green tea", 0.95),
            hit("message", "the boiler broke again on Monday", 0.70),
            hit("message", "my sister Ife lives in Lagos with Tunde", 0.85),
            hit("message", "Tunde loves Scottish shortbread from Edinburgh", 0.84)]
    assert [h.id for h in select(hits, ["q"], floor=0.8, limit=2)] == [
        "Prefers green tea", "my sister Ife lives in Lagos with Tunde"]
    assert [h.id for h in select(hits, ["q"], floor=0.8, shown=["She prefers green tea"])] == [
        "my sister Ife lives in Lagos with Tunde", "Tunde loves Scottish shortbread from Edinburgh"]
