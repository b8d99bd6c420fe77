"""Chinese times resolved against when they were said (domain/extraction/zh/times.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from domain.extraction.zh.times import find, number, written

SATURDAY = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)  # a Saturday


def one(text: str, future: bool | None = None, at: datetime = SATURDAY) -> tuple[date, str, str]:
    found = find(text, at, future)
    assert len(found) == 1, found
    return found[0].when.start, found[0].when.grain, found[0].when.text


@pytest.mark.parametrize(("text", "future", "start", "grain", "written_as"), [
    ("我上个月从成都搬到了杭州", False, date(2026, 2, 1), "month", "2026年2月"),
    ("下周五要去体检", True, date(2026, 3, 20), "day", "2026年3月20日"),
    ("这周三我去了医院", False, date(2026, 3, 11), "day", "2026年3月11日"),
    ("三天前感冒了", False, date(2026, 3, 11), "day", "2026年3月11日"),
    ("两个月后要考试", True, date(2026, 5, 1), "month", "2026年5月"),
    ("明年年底想换工作", True, date(2027, 12, 31), "end", "2027年底"),
    ("去年春天去了云南", False, date(2025, 3, 1), "season", "2025年春天"),
    ("2025年6月毕业的", False, date(2025, 6, 1), "month", "2025年6月"),
    ("2026年4月3日面试", True, date(2026, 4, 3), "day", "2026年4月3日"),
    ("上周很忙", False, date(2026, 3, 2), "week", "2026年3月2日那一周"),
    ("明天交房租", True, date(2026, 3, 15), "day", "2026年3月15日"),
    ("昨晚没睡好", False, date(2026, 3, 13), "day", "2026年3月13日"),
    ("春节回老家", True, date(2027, 2, 6), "day", "2027年春节"),
    ("国庆节去了北京", False, date(2025, 10, 1), "day", "2025年国庆节"),
    ("月底之前交", True, date(2026, 3, 31), "end", "2026年3月底"),
    ("二十号还信用卡", True, date(2026, 3, 20), "day", "2026年3月20日"),
    ("10号发的工资", False, date(2026, 3, 10), "day", "2026年3月10日"),
])
def test_times_resolve_against_the_moment_said(text: str, future: bool | None, start: date, grain: str,
                                               written_as: str) -> None:
    assert one(text, future) == (start, grain, written_as)


def test_a_month_alone_is_the_coming_one_of_a_plan_and_the_last_one_of_the_past() -> None:
    assert one("十月份去日本", True)[0] == date(2026, 10, 1)
    assert one("十月份去了日本", False)[0] == date(2025, 10, 1)
    assert one("一月份开始健身", True)[0] == date(2027, 1, 1)


def test_a_week_starts_on_monday() -> None:
    sunday = datetime(2026, 3, 15, 20, 0, tzinfo=UTC)
    assert one("这周三", None, sunday)[0] == date(2026, 3, 11)
    assert one("下周一", None, sunday)[0] == date(2026, 3, 16)


def test_a_deadline_keeps_its_before() -> None:
    found = find("5月15号之前要把报告交了", SATURDAY, True)
    assert [(d.when.start, d.deadline) for d in found] == [(date(2026, 5, 15), True)]
    assert written("5月15号之前要把报告交了", found) == "2026年5月15日之前要把报告交了"
    assert not find("5月15号要交报告", SATURDAY, True)[0].deadline


@pytest.mark.parametrize("text", [
    "我住在3号楼",          # a building, not a day
    "坐十号线上班",          # a metro line
    "我有两个孩子",
    "一个月跑一百公里",      # a month long, not a month
    "一月一次体检",          # how often
    "每月存两千",
    "前面那家店不错",
    "我今年三十岁了的时候",  # 今年 alone resolves; the age is no time
])
def test_what_is_no_time_resolves_to_nothing(text: str) -> None:
    phrases = [d.phrase for d in find(text, SATURDAY)]
    assert all(p in ("今年",) for p in phrases), phrases


def test_an_impossible_day_resolves_to_nothing() -> None:
    assert find("2月30号", SATURDAY, True) == []
    assert find("13月", SATURDAY) == []


def test_numbers_as_written() -> None:
    written_as = ("24", "二十四", "十二", "两", "十", "三十", "零")
    assert [number(t) for t in written_as] == [24, 24, 12, 2, 10, 30, 0]
    assert number("几") is None


def test_the_hours_of_a_day_are_left_out_unless_asked() -> None:
    found = find("明天下午三点开会", SATURDAY, True)
    assert written("明天下午三点开会", found) == "2026年3月15日开会"
    assert written("明天下午三点开会", found, keep_clock=True) == "2026年3月15日下午三点开会"


def test_mixed_text_keeps_its_latin_words() -> None:
    found = find("下周二跟Tom去IKEA买书架", SATURDAY, True)
    assert written("下周二跟Tom去IKEA买书架", found) == "2026年3月17日跟Tom去IKEA买书架"
