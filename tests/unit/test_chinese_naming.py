"""When a question names an entity whose name is Chinese: whole, or by a word of it, never by one
character in common."""

from __future__ import annotations

import pytest

from domain.text.chinese import named_share


@pytest.mark.parametrize(("query", "name", "share"), [
    ("旺财最近胃口怎么样？", "旺财", 1.0),
    ("我在杭州一家叫蓝鲸科技的公司上班", "杭州一家叫蓝鲸科技", 1.0),
    ("Lisa去成都了吗", "成都", 1.0),
    ("DEEPMIND北京的人", "DeepMind北京", 1.0),
])
def test_a_question_that_holds_the_whole_name_names_it(query: str, name: str, share: float) -> None:
    assert named_share(query, name) == share


def test_a_word_of_the_name_names_part_of_it() -> None:
    assert named_share("蓝鲸科技的工作忙吗", "杭州蓝鲸科技") == pytest.approx(4 / 6)
    assert 0 < named_share("中心医院几点开门", "西安市中心医院") < 1


@pytest.mark.parametrize(("query", "name"), [
    ("我和阿杰五一最后去哪儿玩了？", "杭州一家叫蓝鲸科技"),  # 一 in common
    ("我爸是什么时候住进养老院的？", "西安市中心医院心内科"),  # 院 in common
    ("京剧好看吗", "南京"),
    ("周末去哪儿", ""),
])
def test_one_character_in_common_is_no_naming(query: str, name: str) -> None:
    assert named_share(query, name) == 0.0
