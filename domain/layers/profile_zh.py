"""A person's profile written offline in Chinese, for a person who speaks Chinese: the same
narrative as `profile.compose` — the slots in force with what they were before, then what they are,
like, want, who their people are and what happened lately, then the gist of the latest sessions —
in Chinese words around what they said ("此人住在成都（自2026年2月1日起；之前是南京，自2026年1月10日起）")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.layers.model import BasicInfo
from domain.layers.profile import (
    ALONG_THE_WAY,
    ProfileInputs,
    SlotValue,
    carried_over,
    current,
    timelines,
)
from domain.text import chinese

_SECTIONS = (
    ("fact", "关于此人", 8),
    ("preference", "偏好", 10),
    ("lesson", "对此人有效的做法", 5),
    ("goal", "目标和计划", 5),
    ("person", "身边的人", 8),
    ("event", "最近的生活", 4),
)
_SLOT_PHRASES = {
    "home_city": "住在{v}",
    "employer": "在{v}工作",
    "job_title": "职业是{v}",
    "partner": "伴侣是{v}",
    "manager": "上司是{v}",
    "diet": "饮食是{v}",
    "editor": "用{v}当编辑器",
    "editor_theme": "喜欢{v}主题",
    "browser": "用{v}浏览器",
    "name": "名字是{v}",
}
_ANIMALS = {"cat": "猫", "dog": "狗", "rabbit": "兔子", "hamster": "仓鼠", "parrot": "鹦鹉", "turtle": "乌龟",
            "fish": "鱼"}
_THINGS = {"color": "颜色", "food": "食物", "fruit": "水果", "flower": "花", "movie": "电影", "book": "书",
           "singer": "歌手", "song": "歌", "sport": "运动", "city": "城市", "drink": "饮料", "game": "游戏"}


def _day(moment: datetime) -> str:
    return f"{moment.year}年{moment.month}月{moment.day}日"


def slot_clause(attribute: str, values: Sequence[SlotValue]) -> str | None:
    """A slot in force said of the person, with what it was before; None when it holds none now."""
    now = current(values)
    if now is None:
        return None
    if attribute.startswith("pet_"):
        animal = attribute.removeprefix("pet_")
        phrase = f"养了一只叫{now.value}的{_ANIMALS.get(animal, animal)}"
    elif attribute.startswith("favorite_"):
        thing = attribute.removeprefix("favorite_")
        phrase = f"最喜欢的{_THINGS.get(thing, thing)}是{now.value}"
    elif attribute in _SLOT_PHRASES:
        phrase = _SLOT_PHRASES[attribute].format(v=now.value)
    else:
        phrase = f"的{attribute}是{now.value}"
    earlier = [v for v in values if v is not now]
    since = f"自{_day(now.valid_from)}起"
    if earlier:
        since += "；之前是" + "；".join(f"{v.value}，自{_day(v.valid_from)}起" for v in reversed(earlier))
    return f"{phrase}（{since}）"


def _lead(summary: str, key_facts: Sequence[str]) -> str:
    if key_facts:
        return key_facts[0].rstrip("。")
    sentences = chinese.SENTENCE.findall(summary)
    return (sentences[0] if sentences else summary).rstrip("。")


def compose_zh(inputs: ProfileInputs) -> tuple[str, tuple[BasicInfo, ...]]:
    """The offline profile in Chinese, deterministic, every clause from what the person said."""
    paragraphs: list[str] = []
    lines = timelines(inputs.slots)
    in_force = [c for a, v in lines.items() if (c := slot_clause(a, v))]
    if in_force:
        paragraphs.append("此人" + "，".join(in_force) + "。")
    ended = [f"{a}：{v[-1].value}，到{_day(v[-1].valid_until or v[-1].valid_from)}为止。"
             for a, v in lines.items() if current(v) is None]
    if ended:
        paragraphs.append("".join(ended))
    for kind, title, limit in _SECTIONS:
        said = sorted((m for m in inputs.memories if m.kind == kind), key=lambda m: -m.importance)[:limit]
        if said:
            paragraphs.append(f"{title}：" + "；".join(m.content.rstrip("。") for m in said) + "。")
    if inputs.summaries:
        along = reversed(inputs.summaries[:ALONG_THE_WAY])
        paragraphs.append("一路走来：" + "；".join(f"{_day(b.at)}：{_lead(b.summary, b.key_facts)}"
                                                for b in along) + "。")
        recent = inputs.summaries[:3]
        topics = list(dict.fromkeys(t for b in recent for t in b.topics))[:8]
        text = f"最近（{_day(recent[-1].at)}至{_day(recent[0].at)}）：聊到了{'、'.join(topics)}。"
        open_ = [b.unresolved for b in recent if b.unresolved]
        if open_:
            text += f"尚未解决：{open_[0].rstrip('。？?')}。"
        paragraphs.append(text)
    basic = tuple(BasicInfo(key=a, value=now.value) for a, v in lines.items() if (now := current(v)))
    return "\n\n".join(paragraphs), carried_over(inputs, basic)


def in_chinese(inputs: ProfileInputs) -> bool:
    """Whether what is known of the person is mostly said in Chinese."""
    texts = [*(m.content for m in inputs.memories), *(s.value for s in inputs.slots),
             *(b.summary for b in inputs.summaries)]
    return sum(chinese.has_han(t) for t in texts) * 2 > len(texts)
