"""One ranking over memories and turns (a memory and the turn it came from are one piece of
evidence), and what a caller is shown of it: relevant, saying something, once."""

from __future__ import annotations

from dataclasses import replace

from domain.model import message_id
from projections.search import Candidate
from services.search import Hit, _fuse, _seeds, source_weights
from services.selection import names, select


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


def turn_in(context: list[str], position: int) -> Hit:
    """A turn as the text source reads it: the day, two turns before, the turn, one after."""
    window = context[max(position - 2, 0):position + 2]
    return Hit("message", context[position], 1.0, {"cosine": 0.9}, {},  # type: ignore[arg-type]
               {"content": context[position], "context": "7 May 2023. " + " ".join(window)})


def test_a_reply_that_takes_up_the_words_it_answers_says_only_what_is_new_in_it() -> None:
    chat = ["We adopted a cat last week, she only drinks from the bathroom tap",
            "A very particular cat.",
            "True, cats are experts at that.",
            "She also sleeps in the laundry basket on warm towels"]
    shown = [h.id for h in select([turn_in(chat, n) for n in range(4)], ["what does my cat drink?"])]
    assert shown == [chat[0], chat[3]]


def test_a_short_answer_that_names_something_or_says_what_was_asked_stays() -> None:
    chat = ["My sister had her baby on Sunday, a little girl!",
            "Congratulations! What did they call her?",
            "they called her Adaeze",
            "Where did you move in the end?",
            "I moved to Leith in March",
            "Did the move go well?",
            "the move went fine, the piano did not",
            "Lovely.",
            "we paid 1200 for the piano movers"]
    hits = [turn_in(chat, n) for n in range(len(chat))]
    assert chat[2] in [h.id for h in select(hits, ["what is my niece's name?"])]
    assert chat[4] in [h.id for h in select(hits, ["which part of Edinburgh did I move to?"])]
    shown = [h.id for h in select(hits, ["what broke in the piano?"])]
    assert chat[6] in shown and chat[8] in shown and "Lovely." not in shown


def test_a_short_reply_to_a_question_is_an_answer_and_a_greeting_by_name_is_not_news() -> None:
    chat = ["Good morning. My son set this up for me so bear with me.",
            "Good morning, Arthur! Happy to help.",
            "How often do you swim these days?",
            "Three times a week.",
            "I finished the bookshelf for the hallway",
            "Well done, Arthur!"]
    shown = [h.id for h in select([turn_in(chat, n) for n in range(len(chat))], ["how often do I swim?"])]
    assert chat[3] in shown and chat[1] not in shown and chat[5] not in shown


def test_a_name_taken_up_from_the_turn_before_is_not_news_and_good_wishes_say_nothing() -> None:
    chat = ["My brother is getting married in Porto in June",
            "Porto in June, how lovely! Enjoy the wedding.",
            "I'm giving the best man speech, which terrifies me",
            "Good luck with the speech, hope it goes well! Happy to help with whatever you need.",
            "the reception is at a quinta near Amarante"]
    shown = [h.id for h in select([turn_in(chat, n) for n in range(len(chat))], ["who is getting married?"])]
    assert shown == [chat[0], chat[2], chat[4]]


def test_what_any_chat_says_is_not_what_a_turn_is_about() -> None:
    hits = [hit("message", "That sounds like a really good sign, thanks!"),
            hit("message", "You're welcome. Let me know how it goes."),
            hit("message", "The physio says the knee has healed and I can run again")]
    assert [h.id for h in select(hits, ["how is my knee?"])] == [hits[2].id]


def test_a_chinese_turn_is_weighed_by_its_words_not_its_clauses() -> None:
    said = hit("message", "我上个月搬到了杭州，在一家医院当护士")
    thanks = hit("message", "好的，谢谢！")
    assert select([said, thanks], ["我现在住在哪里？"]) == [said]


def test_a_turn_read_without_its_window_is_weighed_by_all_its_words() -> None:
    alone = hit("message", "True, cats are experts at that.")
    assert select([alone], ["what does my cat drink?"]) == [alone]


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


def test_a_short_chinese_turn_that_names_someone_or_somewhere_stays_and_one_spoken_to_is_no_news() -> None:
    chat = ["我姐姐上周生了个女儿，特别可爱",
            "太好了，恭喜！",
            "取名王小美",
            "小王，早上好！",
            "谢谢你上次帮我订的餐厅",
            "明白了，一点都不麻烦",
            "Sam的爸妈下个月从墨尔本过来"]
    hits = [turn_in(chat, n) for n in range(len(chat))]
    shown = [h.id for h in select(hits, ["我外甥女叫什么？"])]
    assert chat[2] in shown  # a name jieba tags as one
    assert chat[6] in shown  # a Latin name and a place
    assert chat[1] not in shown and chat[3] not in shown and chat[5] not in shown


def spoken(chat: list[tuple[str, str]], position: int) -> Hit:
    """A turn of `chat` ((role, words) pairs) as the text source reads it, with its role."""
    found = turn_in([words for _, words in chat], position)
    return replace(found, fields={**found.fields, "role": chat[position][0]})


def test_an_assistants_remark_that_speaks_of_no_one_is_left_out_whatever_its_length() -> None:
    chat = [("user", "adopted a cat from the shelter, she only drinks from the bathroom tap"),
            ("assistant", "Cats have their favourites, and running water often seems fresher to them."),
            ("user", "also she sleeps on the radiator shelf all day"),
            ("assistant", "A very particular cat, with excellent taste in warm spots.")]
    shown = [h.id for h in select([spoken(chat, n) for n in range(len(chat))], ["what does my cat drink?"])]
    assert shown == [chat[0][1], chat[2][1]]


def test_an_assistants_turn_that_speaks_to_the_person_or_names_something_new_stays() -> None:
    chat = [("user", "my cousin is getting married in December, the whole family is flying out"),
            ("assistant", "December in Chennai will be warm but pleasant, a good time for a wedding."),
            ("user", "the ceremony is two days long and I have to give a toast in front of everyone"),
            ("assistant", "Maybe you could practise the toast with your sister beforehand.")]
    hits = [spoken(chat, n) for n in range(len(chat))]
    shown = [h.id for h in select(hits, ["when is the wedding?"])]
    assert chat[1][1] in shown and chat[3][1] in shown


def test_the_persons_own_words_stay_without_an_i_and_a_name_taken_up_is_not_news() -> None:
    chat = [("user", "found a roommate! a nurse who works night shifts, moving in next month"),
            ("assistant", "Night shifts, so the flat stays quiet during the day."),
            ("user", "we are going to Chennai for the wedding in December"),
            ("assistant", "Chennai in December, warm but pleasant weather for a wedding.")]
    shown = [h.id for h in select([spoken(chat, n) for n in range(len(chat))], ["who is my roommate?"])]
    assert shown == [chat[0][1], chat[2][1]]


def test_a_chinese_remark_of_the_assistants_is_weighed_by_whom_it_speaks_of() -> None:
    chat = [("user", "我们上周从收容所领养了一只猫，它只喝水龙头的水"),
            ("assistant", "猫咪都有自己的偏好，流动的水更受欢迎。"),
            ("user", "它还整天睡在暖气片上面的架子上"),
            ("assistant", "你可以在窗边放一个猫窝，让它晒太阳。"),
            ("assistant", "其他猫咪也常常喜欢暖和的地方，这很正常。")]
    shown = [h.id for h in select([spoken(chat, n) for n in range(len(chat))], ["我的猫喝什么水？"])]
    assert chat[1][1] not in shown and chat[4][1] not in shown
    assert chat[0][1] in shown and chat[3][1] in shown


def test_a_chinese_quantity_word_is_no_number_but_a_numeral_is() -> None:
    assert names("很多猫都这样，过一阵子就好了。")[0] == frozenset()
    assert names("一些猫一起睡也很常见。")[0] == frozenset()
    assert names("三次")[0] and names("十五号之前")[0] and names("第一次")[0] and names("5.5公斤")[0]
    chat = [("user", "我家猫最近总是半夜叫"),
            ("assistant", "很多猫都这样，过一阵子就好了。"),
            ("assistant", "一般两周左右会好转。")]
    shown = [h.id for h in select([spoken(chat, n) for n in range(len(chat))], ["我的猫为什么半夜叫？"])]
    assert chat[1][1] not in shown and chat[0][1] in shown and chat[2][1] in shown


def test_the_graph_looks_around_the_best_hits_not_around_the_best_of_weak_memories() -> None:
    lists = {("vector", "message"): [turn(1, 0.90), turn(2, 0.85), turn(3, 0.80)],
             ("vector", "memory"): [memory("weak", 0.60)],
             ("text", "message"): [turn(2, 7.0), turn(4, 6.0), turn(5, 5.0)],
             ("text", "memory"): [memory("weak", 1.5)]}
    assert _seeds(lists, "memory") == []
    lists[("vector", "memory")] = [memory("close", 0.88), memory("weak", 0.60)]
    assert _seeds(lists, "memory") == ["close"]
    # a search of memories only looks around the best of them
    assert _seeds({("vector", "memory"): [memory("weak", 0.60)]}, "memory") == ["weak"]


def test_in_a_chinese_store_a_rank_by_words_counts_for_less_than_a_rank_by_meaning() -> None:
    # first by words and second by meaning, against first by meaning and third by words
    lists = {("text", "message"): [turn(1, 9.0), turn(2, 8.0), turn(3, 7.0)],
             ("vector", "message"): [turn(3, 0.90), turn(1, 0.85)]}

    def best(language: str) -> int:
        hits = sorted(_fuse(lists, "ada", source_weights(language)), key=lambda h: -h.scores["rrf"])
        return int(hits[0].fields["position"])

    assert best("en") == 1
    assert best("zh") == 3
    assert source_weights("fr") == source_weights("en")
