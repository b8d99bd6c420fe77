"""A conversation in Chinese summarized offline in Chinese, and the context block's labels in the
person's language."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.commands import Message
from domain.layers.summary_zh import noun_phrases, sentences, tone
from services.context import LABELS, Renderer, Section
from services.layers.writers import OfflineSummarizer

AT = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)


def chat(*lines: str) -> list[Message]:
    return [Message(role="user" if i % 2 == 0 else "assistant", content=t, timestamp=AT)
            for i, t in enumerate(lines)]


CHAT = chat("我上个月从成都搬到了杭州，新家离西湖很近。", "恭喜！",
            "我对花生过敏。提醒我下周一去医院复查。", "好的。",
            "杭州有什么好吃的面馆推荐吗？", "可以试试片儿川。",
            "西湖边的面馆我周末去试试，片儿川听起来不错。")


def test_sentences_end_at_chinese_marks_and_not_inside_a_number() -> None:
    assert sentences("我体重5.5公斤。真的吗？太好了！OK") == ["我体重5.5公斤。", "真的吗？", "太好了！", "OK"]


def test_topics_are_noun_phrases_said_most() -> None:
    assert "护士执业证" in noun_phrases("提醒我续护士执业证")
    assert "试试" not in noun_phrases("周末去试试")
    summary = OfflineSummarizer("zh").summarize(CHAT, AT).value
    assert summary.topics[:3] == ("杭州", "西湖", "面馆")  # type: ignore[attr-defined]


def test_a_chinese_store_summarizes_in_chinese_from_the_chinese_rules() -> None:
    written = OfflineSummarizer("zh").summarize(CHAT, AT)
    summary = written.value
    assert written.by == "narrative/1+narrative-zh/1"
    assert summary.summary.startswith("聊到了杭州、西湖、面馆")  # type: ignore[attr-defined]
    assert "2026年2月从成都搬到了杭州" in summary.summary  # type: ignore[attr-defined]
    assert "请求提醒：去医院复查" in summary.summary  # type: ignore[attr-defined]
    assert summary.user_intent == "杭州有什么好吃的面馆推荐吗？"  # type: ignore[attr-defined]
    assert "我" not in "".join(summary.key_facts)  # type: ignore[attr-defined]


def test_an_english_store_summarizes_as_before() -> None:
    assert OfflineSummarizer().summarize(CHAT, AT).by == "narrative/1"


def test_tone() -> None:
    assert tone(["今天好开心"]) == "positive"
    assert tone(["好累，膝盖又疼了"]) == "negative"
    assert tone(["我住在杭州"]) == "neutral"


def test_the_context_block_speaks_the_persons_language() -> None:
    class Count:
        name = "chars"

        def count(self, text: str) -> int:
            return len(text)

    zh = Renderer(Count(), "markdown", LABELS["zh"])  # type: ignore[arg-type]
    header = zh.header(AT)
    assert header.startswith("# 关于这个人你所知道的（截至2026-03-14）")
    assert zh.title(Section("todos", LABELS["zh"].titles["todos"])) == "\n## 待办"
    en = Renderer(Count(), "markdown")  # type: ignore[arg-type]
    assert en.header(AT).startswith("# What you know about this person (as of 2026-03-14)")
    assert set(LABELS["zh"].titles) == set(LABELS["en"].titles)


def test_a_conversation_in_chinese_has_substance_and_small_talk_has_none() -> None:
    from domain.layers.summary import has_substance
    assert has_substance(CHAT)
    assert not has_substance(chat("你好", "你好！", "好的谢谢"))


def test_the_profile_of_a_person_known_in_chinese_is_written_in_chinese() -> None:
    from domain.layers.profile import Brief, Known, ProfileInputs, SlotValue
    from services.layers.writers import OfflineProfileWriter
    february = datetime(2026, 2, 1, tzinfo=UTC)
    inputs = ProfileInputs(
        slots=(SlotValue("home_city", "南京", datetime(2026, 1, 10, tzinfo=UTC), february),
               SlotValue("home_city", "成都", february, None),
               SlotValue("pet_cat", "奶茶", datetime(2026, 1, 10, tzinfo=UTC), None)),
        memories=(Known("fact", "对芒果过敏", 0.7), Known("goal", "2027年想考驾照", 0.6)),
        summaries=(Brief("聊到了成都、火锅。", ("成都", "火锅"), None, datetime(2026, 3, 14, tzinfo=UTC),
                         ("2026年2月从南京搬到了成都",)),))
    written = OfflineProfileWriter("zh").write(inputs)
    narrative, basic = written.value  # type: ignore[misc]
    assert written.by == "profile/1+profile-zh/1"
    assert narrative.split("\n\n")[:3] == [
        "此人住在成都（自2026年2月1日起；之前是南京，自2026年1月10日起），养了一只叫奶茶的猫（自2026年1月10日起）。",
        "关于此人：对芒果过敏。", "目标和计划：2027年想考驾照。"]
    assert "一路走来：2026年3月14日：2026年2月从南京搬到了成都。" in narrative
    assert "最近（2026年3月14日至2026年3月14日）：聊到了成都、火锅。" in narrative
    # an English store, or a person known in English, as before
    assert OfflineProfileWriter().write(inputs).by == "profile/1"
    assert OfflineProfileWriter("zh").write(ProfileInputs(memories=(Known("fact", "Likes tea", 0.7),))
                                            ).value[0].startswith("About them")  # type: ignore[index]
