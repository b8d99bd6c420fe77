"""The offline Chinese rules (domain/extraction/zh/rules.py), on sentences of their own: what is kept,
in which slot, with which time, and what is not kept (questions, suppositions, others' news)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.zh.rules import city_of, extract, is_chinese
from domain.model import MemoryKind
from services.extraction.extractors import RULES_VERSION, RulesExtractor

WEDNESDAY = datetime(2026, 6, 10, 8, 0, tzinfo=UTC)


def said(*lines: str, at: datetime = WEDNESDAY) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=at) for line in lines], at)


def only(text: str) -> Candidate:
    found = said(text)
    assert len(found) == 1, found
    return found[0]


def test_a_move_fills_the_city_with_the_time_it_happened() -> None:
    found = only("我上个月从南京搬到了深圳")
    assert (found.kind, found.attribute, found.value) == (MemoryKind.FACT, "home_city", "深圳")
    assert found.valid_from.date().isoformat() == "2026-05-01"
    assert found.content == "2026年5月从南京搬到了深圳"
    assert found.entity_types == (("深圳", "place"),)


def test_where_one_lives_is_the_city_of_the_place_said() -> None:
    found = only("我住在成都高新区")
    assert (found.attribute, found.value) == ("home_city", "成都")
    assert city_of("上海浦东") == "上海"
    assert city_of("厦门") == "厦门"


def test_a_planned_move_is_an_event_not_the_city() -> None:
    found = only("我们打算明年搬到杭州")
    assert (found.kind, found.attribute) == (MemoryKind.EVENT, None)
    assert "2027年" in found.content


def test_an_allergy_and_a_health_condition_are_facts() -> None:
    found = only("我对花生过敏，吃了会喘不上气")
    assert (found.kind, found.content) == (MemoryKind.FACT, "对花生过敏，吃了会喘不上气")
    assert said("我有高血压，每天吃药")[0].content == "有高血压"


def test_a_reminder_is_a_todo_due_on_the_day_it_names() -> None:
    found = only("提醒我下周一去银行办卡")
    assert (found.kind, found.content) == (MemoryKind.TODO, "去银行办卡")
    assert found.due_at is not None and found.due_at.date().isoformat() == "2026-06-15"
    deadline = only("月底之前要把论文初稿交给导师")
    assert deadline.kind == MemoryKind.TODO and deadline.due_at is not None
    assert deadline.due_at.date().isoformat() == "2026-06-30"


def test_work_fills_employer_and_title_but_not_a_generic_workplace() -> None:
    found = {c.attribute: c.value for c in said("我在腾讯做数据分析师")}
    assert found == {"employer": "腾讯", "job_title": "数据分析师"}
    # a place is not an employer
    assert {c.attribute: c.value for c in said("我在上海做设计师")} == {"job_title": "设计师"}
    found = {c.attribute: c.value for c in said("我在一家小公司当会计")}
    assert found == {"job_title": "会计"}
    assert {c.attribute: c.value for c in said("我是一名律师")} == {"job_title": "律师"}


def test_a_workplace_named_after_jiao_is_the_employer_without_the_city_or_yijia() -> None:
    found = {c.attribute: c.value for c in said("我在杭州一家叫蓝鲸科技的公司做UX设计")}
    assert found == {"employer": "蓝鲸科技", "job_title": "UX设计"}
    assert {c.attribute: c.value for c in said("我在一家名叫绿洲的咖啡店上班")} == {"employer": "绿洲"}
    # 做 of 叫做 is no job
    assert {c.attribute: c.value for c in said("我在一家叫做小米的公司工作")} == {"employer": "小米"}
    # 在 of what one is busy doing is no workplace
    assert said("我最近在学做澳洲的肉派给他们吃") == []
    assert {c.attribute: c.value for c in said("我在厂里当电工")} == {"job_title": "电工"}
    # no name said: no employer, as before
    assert said("我在杭州的一家公司上班") == []
    assert {c.attribute: c.value for c in said("我在一家小公司当会计")} == {"job_title": "会计"}


def test_people_and_pets() -> None:
    partner = only("我老婆叫小敏")
    assert (partner.kind, partner.attribute, partner.value) == (MemoryKind.PERSON, "partner", "小敏")
    pet = only("我养了一只小狗，它叫豆豆")
    assert (pet.attribute, pet.value) == ("pet_dog", "豆豆")
    two = only("我养了两只猫，一只叫花花，一只叫黑黑")
    assert two.attribute is None and "花花" in two.content and "黑黑" in two.content


def test_likes_goals_habits_and_a_switch() -> None:
    assert only("我特别喜欢喝乌龙茶").kind == MemoryKind.PREFERENCE
    assert only("我不吃羊肉").kind == MemoryKind.PREFERENCE
    goal = only("我明年想考驾照")
    assert (goal.kind, goal.content) == (MemoryKind.GOAL, "2027年想考驾照")
    assert only("我每周游泳两次").kind == MemoryKind.FACT
    switched = only("我把浏览器从Chrome换成了Firefox")
    assert (switched.kind, switched.attribute) == (MemoryKind.PREFERENCE, "browser")
    assert switched.value == "Firefox"


def test_no_memory_says_i() -> None:
    for candidate in said("我今年的目标是减肥十斤", "我们下个月要去青岛玩", "我妈下周来看我"):
        assert "我" not in candidate.content


def test_an_event_in_the_past_holds_from_when_it_happened() -> None:
    found = only("我三天前参加了公司的年会")
    assert (found.kind, found.valid_from.date().isoformat()) == (MemoryKind.EVENT, "2026-06-07")



def test_a_part_of_the_day_counted_is_how_long_it_took_not_when() -> None:
    assert only("昨天跟朋友聊了一晚上").content == "2026年6月9日跟朋友聊了一晚上"
    assert only("上周六在图书馆待了整个下午").content == "2026年6月6日在图书馆待了整个下午"
    assert only("我昨天晚上去看了一场演唱会").content == "2026年6月9日去看了一场演唱会"  # when: left out



def test_a_liked_thing_said_only_as_this_or_it_gives_nothing_but_a_named_one_does() -> None:
    for text in ("红烧肉好！我最爱吃这个", "我喜欢它", "我最喜欢吃那个"):
        assert said(text) == [], text
    assert only("我最喜欢吃火锅").content == "最喜欢吃火锅"
    assert only("我特别喜欢这个城市的秋天").content == "特别喜欢这个城市的秋天"


@pytest.mark.parametrize("text", [
    "你知道杭州哪里好玩吗？",            # questions
    "我该不该搬到北京？",
    "你觉得我适合当老师吗",
    "如果我搬到上海，房租会贵很多吧",      # suppositions
    "要是明年有机会，我想去留学",
    "我可能会养只狗，还没想好",
    "我同事下个月要搬到广州了",          # others' news
    "我姐说她对猫过敏",
    "我老公下周去北京出差",
    "他上个月辞职了",
    "今天好累啊",                        # moods and small talk
    "哈哈好的谢谢",
    "最近特别想吃火锅",                   # what passes
    "嗯嗯",
])
def test_what_should_give_nothing_gives_nothing(text: str) -> None:
    assert said(text) == []


def test_a_chinese_store_reads_an_english_line_with_the_english_rules() -> None:
    messages = [Message(role="user", content="我对芒果过敏", timestamp=WEDNESDAY),
                Message(role="assistant", content="好的，记住了", timestamp=WEDNESDAY),
                Message(role="user", content="I moved to Denver last month", timestamp=WEDNESDAY)]
    found = RulesExtractor(language="zh").extract(messages, WEDNESDAY).candidates
    assert {(c.positions[0], c.attribute) for c in found} == {(0, None), (2, "home_city")}
    assert is_chinese("我在Google上班") and not is_chinese("I work at 腾讯 now")


def test_an_english_store_reads_as_before() -> None:
    messages = [Message(role="user", content="我对芒果过敏", timestamp=WEDNESDAY)]
    extractor = RulesExtractor()
    assert extractor.name == RULES_VERSION
    assert extractor.extract(messages, WEDNESDAY).candidates == []


# --- what ended -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "ends", "value"),
    [
        ("我上个月被裁员了", ("employer", "job_title"), None),
        ("我辞职了", ("employer", "job_title"), None),
        ("我上周从腾讯离职了", ("employer", "job_title"), "腾讯"),
        ("我退休三年了", ("employer", "job_title"), None),
        ("我和男朋友分手了", ("partner",), None),
        ("我去年离婚了", ("partner",), None),
        ("我们家的狗豆豆上个月去世了", ("pet_dog",), "豆豆"),
        ("我已经不在腾讯工作了", ("employer",), "腾讯"),
        ("我已经不住在北京了", ("home_city",), "北京"),
        ("我不再住在上海", ("home_city",), "上海"),
    ],
)
def test_what_the_person_says_ended_ends_its_value(
    line: str, ends: tuple[str, ...], value: str | None
) -> None:
    found = only(line)
    assert (found.ends, found.ended_value, found.attribute) == (ends, value, None)


@pytest.mark.parametrize(
    "line",
    ["我想辞职", "我明年退休", "我没离职", "我退休前是老师", "我的退休金不多", "我朋友离婚了",
     "我在腾讯工作", "我以前被裁员过"],  # the last: a past no date holds, not the job of now
)
def test_what_is_ahead_denied_or_someone_elses_ends_nothing(line: str) -> None:
    assert all(not c.ends for c in said(line))


@pytest.mark.parametrize("line", ["我不住在北京", "我没住在北京", "我不在腾讯工作"])
def test_where_one_does_not_live_or_work_is_no_value_of_theirs(line: str) -> None:
    assert [c for c in said(line) if c.attribute] == []  # it filled home_city / employer before


def test_a_pet_that_died_is_written_of_the_household() -> None:
    assert only("我们家的狗豆豆上个月去世了").content == "家里的狗豆豆2026年5月去世"
