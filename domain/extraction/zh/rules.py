"""The offline extractor for what a person says of themselves in Chinese.

As the English rules (`domain/extraction/rules`), no model and nothing invented: each sentence the
person said (split at 。！？), cut into clauses at ，；, is kept only when it asserts something
about the person — not a question (？, 吗, 什么, 你觉得 ...), not supposed (如果, 要是, 可能 ...),
not what someone else did or said (我同事..., 我姐说...) — and a rule below knows what it is: a
reminder, where they live or move, where and as what they work, their health and diet, their
pets and people, what they like, their goals and plans, what happened to them, their habits.
A clause that follows without a rule of its own and without 我 is the same memory's detail
("我对海鲜过敏，吃虾会起疹子"). A memory is written without 我, with the times it names
resolved against when it was said (`zh/times.py`). What no rule knows is left.

Chinese drops the subject where English would say "I": a clause without one is the person's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from domain.commands import Message
from domain.extraction.candidate import Candidate, Relation
from domain.extraction.zh import times
from domain.model import MemoryKind, utc
from domain.text import chinese

RULES_VERSION = "rules-zh/2"  # 2: what ended (ends)


def _words(text: str) -> list[str]:
    return text.split()


_SENTENCE = re.compile(r"[^。！？!?\n]+[。！？!?]*")
_CLAUSE = re.compile(r"[，,；;、~～…]+|\s{2,}")
_FILLER = re.compile(r"^(?:(?:嗨|哈喽|你好|您好|嗯+|唉|哎|哈哈+|嘿嘿|对了|还有|另外|不过|其实|说实话|老实说|话说|"
                     r"(?:我)?跟你说(?:个事)?|告诉你|那个|然后|而且|所以|好吧|好的|对|是的)[，,！!。\s~]*)+")
_QUESTION = re.compile(r"[?？]|(?:吗|呢|么|吧)[。！!~]*$|什么|怎么|为什么|为啥|哪|谁|多少|多久|几[个点天号岁次]|"
                       r"是不是|有没有|能不能|会不会|要不要|可不可以|好不好|对不对|你觉得|你说|你看|请问|推荐|建议")
_SUPPOSED = re.compile(r"如果|要是|假如|假设|万一|的话|可能|也许|或许|说不定|大概|还没想好|不确定|考虑要不要")
# People the person speaks of: what they do is their news, not the person's.
RELATIVES = _words("""
老婆 老公 妻子 丈夫 爱人 太太 先生 女朋友 男朋友 对象 未婚夫 未婚妻
妈妈 爸爸 妈 爸 母亲 父亲 哥哥 姐姐 弟弟 妹妹 哥 姐 弟 妹 儿子
女儿 孩子 宝宝 孙子 孙女 外孙 外孙女 爷爷 奶奶 外公 外婆 姥姥 姥爷
表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹 同事 同学 朋友 好朋友 室友
邻居 老板 上司 领导 老师 闺蜜 兄弟 舅舅 叔叔 阿姨 姑姑 公公 婆婆
岳父 岳母 家人 师傅 客户 队友 搭档
""")
_RELATIVE = "|".join(sorted(RELATIVES, key=len, reverse=True))
_PARTNERS = {"老婆", "老公", "妻子", "丈夫", "爱人", "太太", "先生", "女朋友", "男朋友", "对象", "未婚夫", "未婚妻"}
_MANAGERS = {"老板", "上司", "领导"}
_OTHER_SUBJECT = re.compile(rf"^(?:我的?|我们的?)(?P<rel>{_RELATIVE})|^(?:他|她|他们|她们)(?!们)")
_INVOLVES_ME = re.compile(r"(?:看|陪|找|带|接|送|帮|请)我")
_TIME_WORDS = re.compile(r"^(?:现在|目前|最近|今年|去年|明年|上个?月|下个?月|这个?月|上周|下周|这周|本周|今天|明天|昨天|"
                         r"前天|后天|今晚|昨晚)")
_PASSING = re.compile(r"最近|这几天|这两天|今天|今晚|今早|刚刚?|刚才|此刻|现在有点")
_MOOD = re.compile(r"累|困|烦|开心|高兴|难受|无聊|郁闷|生气|紧张|好惨|羡慕|激动|兴奋|崩溃|头大")
_AHEAD = re.compile(r"要|会|将|打算|准备|计划|想|希望|下个?|明年|明天|后天|下周|之后|以后|预产期|快")
_BEHIND = re.compile(r"了|过|已经|上个?|去年|前年|昨|刚|以前|之前")

_PLACE_SUFFIX = re.compile(r"(?:工业园区|开发区|高新区|新区|园区|市|区|县|镇)$")
_GENERIC_WORKPLACE = frozenset(
    ["社区", "医院", "公司", "学校", "工厂", "厂", "厂里", "餐馆", "饭店", "餐厅", "单位", "银行", "超市", "商场", "诊所", "大学", "中学", "小学", "幼儿园", "事务所", "外企", "国企", "私企", "创业公司", "小公司", "大厂", "家里", "家", "店", "店里", "药店", "药房", "门店", "政府", "部门", "医院里", "公司里", "粤菜馆", "酒店"])
_OCCUPATION = re.compile(r"(?:师|员|工|家|护士|医生|经理|老师|总监|主管|会计|厨|司机|老板|店主|学生|主播|记者|编辑|"
                         r"警察|军人|农民|作家|画家|歌手|演员|模特|博士|硕士|研究生|本科生|实习生|保安|保姆|快递员)$")
_PETS = {"猫": "cat", "狗": "dog", "兔子": "rabbit", "兔": "rabbit", "仓鼠": "hamster", "鹦鹉": "parrot",
         "乌龟": "turtle", "金鱼": "fish", "鱼": "fish"}
_PET = "|".join(sorted(_PETS, key=len, reverse=True))
_FAVOURITE_THINGS = {"颜色": "color", "食物": "food", "菜": "food", "水果": "fruit", "花": "flower",
                     "电影": "movie", "书": "book", "歌手": "singer", "歌": "song", "运动": "sport",
                     "城市": "city", "饮料": "drink", "游戏": "game", "作家": "author", "乐队": "band"}


@dataclass
class Clause:
    text: str           # as said, fillers left out
    sentence: str
    at: datetime
    position: int
    dated: list[times.Dated] = field(default_factory=list)


def _third_person(text: str) -> str:
    """A clause written of the person without 我: 我家 -> 家里, 我妈 -> 妈妈, 我(们)的 -> ''."""
    text = re.sub(r"我们?家", "家里", text)
    text = re.sub(r"我(妈|爸|哥|姐|弟|妹)(?![妈爸哥姐弟妹])", r"\1\1", text)
    # the subject, at the start of a clause or after the time it begins with (明年我想...)
    return re.sub(r"(?:^|(?<=[，,年月天周后前号日晚早]))(?:我们|我)的?", "", text)
    return text


def _tidy(text: str) -> str:
    text = re.sub(r"(?:哈哈+|嘿嘿|呢|啊|呀|啦|哦|吧|嘛|~|～)+(?=$|[，,。！!])", "", text)
    text = re.sub(r"[。！!，,\s]+$", "", text)
    return re.sub(r"了$", "", text) if len(text) > 4 and not text.endswith(("好了", "完了")) else text


def _looks_ahead(text: str) -> bool | None:
    if _AHEAD.search(text) and not re.search(r"了$|已经|过了", text):
        return True
    if _BEHIND.search(text):
        return False
    return None


def _written(text: str, at: datetime, keep_clock: bool = False) -> str:
    return times.written(text, times.find(text, at, _looks_ahead(text)), keep_clock)


def _content(parts: Sequence[Clause], keep_clock: bool = False) -> str:
    said = "，".join(_third_person(p.text) for p in parts)
    return _tidy(_written(said, parts[0].at, keep_clock))


def _when(clause: Clause) -> datetime | None:
    """The time a clause names when it is in the past and before the day it was said (else the
    memory holds from when it was said)."""
    for dated in times.find(clause.text, clause.at, _looks_ahead(clause.text)):
        start = dated.when.start
        if start < clause.at.date() and dated.when.grain != "year" or start.year < clause.at.year:
            return dated.when.moment()
    return None


def _due(clause: Clause) -> datetime | None:
    for dated in times.find(clause.text, clause.at, True):
        if dated.when.start >= clause.at.date():
            return dated.when.moment()
    return None


def _make(parts: Sequence[Clause], kind: MemoryKind, rule: str, *, content: str | None = None,
          attribute: str | None = None, value: str | None = None, entity: str | None = None,
          typed: str | None = None, relation: str | None = None, valid_from: datetime | None = None,
          due_at: datetime | None = None, confidence: float = 0.8, ends: tuple[str, ...] = (),
          ended_value: str | None = None) -> Candidate | None:
    text = content if content is not None else _content(parts)
    if len(text) < 2 or "我" in text:
        return None
    return Candidate(
        kind=kind, content=text, attribute=attribute, value=value, ends=ends, ended_value=ended_value,
        valid_from=valid_from or parts[0].at, due_at=due_at,
        entities=(entity,) if entity else (),
        entity_types=((entity, typed),) if entity and typed else (),
        relations=(Relation(predicate=relation, object=entity),) if entity and relation else (),
        confidence=confidence, positions=(parts[0].position,), extractor=f"{RULES_VERSION}:{rule}")


def city_of(place: str) -> str:
    """The city of a place as said: 苏州工业园区 -> 苏州, 上海浦东 -> 上海, 广州 -> 广州 (the longest
    shorter start of it that is a place of its own)."""
    for end in range(len(place) - 1, 1, -1):
        if chinese.tagged(place[:end]) == [(place[:end], "ns")]:
            return place[:end]
    return _PLACE_SUFFIX.sub("", place) if len(place) > 3 else place


def _place(text: str) -> str | None:
    """The first place a text names (jieba's ns)."""
    for word, tag in chinese.tagged(text):
        if tag == "ns" and len(word) >= 2:
            return word
    return None


# Each rule reads a clause (with the ones after it, which may add its detail) and gives the
# memories it makes, or None when it does not apply.
Made = list[Candidate] | None


def reminder(c: Clause, rest: Sequence[Clause]) -> Made:
    m = re.search(r"(?:提醒我|帮我记(?:一下|着|住)?|别忘了|记得)(?P<what>.+)", c.text)
    deadline = re.search(r"(?:之前|以前|前)(?:要|得|必须|一定要)(?P<what>.+)", c.text)
    if not m and not (deadline and any(d.deadline for d in times.find(c.text, c.at, True))):
        return None
    found = m or deadline
    assert found is not None
    due = _due(c)
    what = found.group("what")
    what = times.written(what, [], False)
    for d in reversed(times.find(what, c.at, True)):
        what = what[:d.start] + what[d.end:].removeprefix("之前").removeprefix("以前")
    what = _tidy(times.CLOCK.sub("", what)).lstrip("，, ")
    made = _make([c], MemoryKind.TODO, "reminder", content=what, due_at=due)
    return [made] if made else []


# What ended, with nothing in its place (see Candidate.ends): a job (被裁员, 辞职, 离职, 退休), a couple
# (分手, 离婚), a pet of theirs that died, a home or workplace said to hold no longer (不再住在…, 已经不在…工作了).
_JOB_ENDED = re.compile(r"被(?:公司)?(?:裁员|裁了|裁掉|辞退|开除|炒鱿鱼|炒了)|(?<![不没])(?:辞职|离职|退休|失业)(?![前后金的])|"
                        r"丢了工作")  # not 退休前 (before retiring), 退休金 (a pension)
_COUPLE_ENDED = re.compile(r"(?<![不没])(?:分手|离婚)")
_PET_DIED = re.compile(rf"(?:我|我们)家?的?(?P<animal>{_PET})(?P<after>[^，,]*?)(?:去世|死|走)了")
_NO_LONGER = re.compile(r"不再|已经不|早就不|(?<=不)[^，,]*了$")
_LIVES_NO_LONGER = re.compile(r"(?:不再|不)(?:住在?|定居在?)(?P<where>[^，,]+)")
_WORKS_NO_LONGER = re.compile(r"(?:不再|不)在(?P<org>[^，,]+?)(?:上班|工作|任职)")


def ended(c: Clause, rest: Sequence[Clause]) -> Made:
    """ "我上个月被裁员了", "我辞职了", "我和男朋友分手了", "我们家的狗豆豆去世了", "我已经不住在北京了":
    what the person says ended, a memory that ends the value it names. Not what is ahead ("我想辞职",
    "明年退休"), denied ("没离职") or a plain "not" ("我不住在北京": nothing ended)."""
    text = c.text
    if _looks_ahead(text) is True:
        return None
    no_longer = _NO_LONGER.search(text) is not None
    lives = _LIVES_NO_LONGER.search(text) if no_longer else None
    works = _WORKS_NO_LONGER.search(text) if no_longer else None
    if lives and (where := _place(lives.group("where"))):
        made = _make([c, *rest], MemoryKind.FACT, "no_longer", ends=("home_city",), ended_value=city_of(where))
    elif works:
        made = _make([c, *rest], MemoryKind.FACT, "no_longer", ends=("employer",),
                     ended_value=_tidy(works.group("org")))
    elif _JOB_ENDED.search(text):
        left = re.search(r"从(?P<org>[^，,]{2,}?)(?:辞职|离职)", text)
        value = left.group("org") if left else None
        made = _make([c, *rest], MemoryKind.EVENT, "job_ended", valid_from=_when(c),
                     ends=_ending(c, ("employer", "job_title"), value), ended_value=value)
    elif _COUPLE_ENDED.search(text):
        made = _make([c, *rest], MemoryKind.EVENT, "parted", valid_from=_when(c), ends=_ending(c, ("partner",)))
    elif pet := _PET_DIED.search(text):
        made = _make([c, *rest], MemoryKind.EVENT, "pet_died", valid_from=_when(c),
                     ends=(f"pet_{_PETS[pet.group('animal')]}",), ended_value=_pet_name(pet.group("after")))
    else:
        return None
    return [made] if made else []


# A past that no date holds: "几年前", "以前", "那时", "当年", "离过婚".
_UNDATED_PAST = re.compile(r"前|那时|当年|曾经|过婚|过职")


def _ending(c: Clause, slots: tuple[str, ...], value: str | None = None) -> tuple[str, ...]:
    """The slots an ending ends: none when it names no value and says a past with no date
    ("我几年前离过婚": not the partner of now, who may have come since)."""
    if value is None and _when(c) is None and _UNDATED_PAST.search(c.text):
        return ()
    return slots


def _pet_name(after: str) -> str | None:
    """The name said right after the animal ("狗豆豆上个月…": 豆豆), not a time or a verb."""
    tagged = chinese.tagged(after)
    first = tagged[0] if tagged else None
    return first[0] if first and first[1] in ("n", "nr", "nz") and len(first[0]) <= 4 else None


def residence(c: Clause, rest: Sequence[Clause]) -> Made:
    m = re.search(r"(?:住在|住|定居在?|安家在?|搬(?:家)?(?:到|去|来)了?|回到了?)(?P<where>.+)", c.text)
    if not m or re.search(r"住院|住宿|住酒店", c.text) or c.text[max(m.start() - 1, 0):m.start()] in ("不", "没"):
        return None  # "我不住在北京": where they do not live is no home
    moving = not m.group().startswith(("住", "定居", "安家"))
    where = _place(m.group("where"))
    ahead = moving and _looks_ahead(c.text) is True
    if ahead or where is None:
        if not moving:
            return None
        made = _make([c, *rest], MemoryKind.EVENT, "moving", entity=where, typed="place" if where else None)
        return [made] if made else []
    city = city_of(where)
    made = _make([c, *rest], MemoryKind.FACT, "residence", attribute="home_city", value=city, entity=city,
                 typed="place", relation="lives_in", valid_from=_when(c))
    return [made] if made else []


def work(c: Clause, rest: Sequence[Clause]) -> Made:
    m = re.search(r"(?<![现正存实所自不没])在(?P<org>[^，,]+?)(?:的(?P<unit>[^，,]+?))?(?P<verb>(?<!叫)做|当|上班|工作|任职|实习)(?P<title>[^，,]*)",
                  c.text)
    if m and len(m.group("org")) == 1 and m.group("org") not in _GENERIC_WORKPLACE:
        m = None  # 在学做肉派, 在练瑜伽: 在 says what one is busy doing, not where one works
    copula = re.search(r"(?:^|我|前|以前|之前)是(?:一名|一个|个|名)?(?P<title>[^，,的]{1,8})$", c.text)
    if not m and not (copula and _OCCUPATION.search(copula.group("title"))):
        return None
    past = re.search(r"以前|之前|退休前|曾经|当过|做过", c.text) is not None
    made: list[Candidate | None] = []
    title = (m or copula).group("title") if (m or copula) else ""  # type: ignore[union-attr]
    title = re.sub(r"^(?:一名|一个|个|名)", "", _tidy(title or ""))
    if m and m.group("verb") in ("做", "当") and title and not past or copula and not past and _OCCUPATION.search(title):
        made.append(_make([c, *rest], MemoryKind.FACT, "job", attribute="job_title", value=title))
    if m and not past:
        org = re.sub(r"^(?:现在|目前)", "", m.group("org"))
        # 在杭州一家叫蓝鲸科技的公司: the workplace is named after 叫; what comes before it (a city,
        # 一家) says where and what kind, not who.
        called = re.search(r"(?:名叫|叫做|名为|叫)(?P<name>[^，,]{2,})$", org)
        org = called.group("name") if called else org
        words = [w for w, tag in chinese.tagged(org) if tag != "ns"]
        generic = not called and re.match(r"^(?:一家|一个|某|家|个)", org) or all(
            w in _GENERIC_WORKPLACE for w in words)
        if not generic and not (m.group("unit") or "").startswith(("一家", "一个")):
            made.append(_make([c, *rest], MemoryKind.FACT, "employer", attribute="employer", value=org,
                              entity=org, typed="organization", relation="works_at"))
    if past:
        made.append(_make([c, *rest], MemoryKind.FACT, "work"))
    return [x for x in made if x]


_SWITCHED_THINGS = {"编辑器": "editor", "主题": "editor_theme", "输入法": "input_method", "浏览器": "browser",
                    "手机": "phone"}


def switch(c: Clause, rest: Sequence[Clause]) -> Made:
    """把编辑器从VS Code换成了Cursor, 改用Cursor: what the person uses now, in place of what before."""
    m = re.search(r"(?:把(?P<thing>[^，,从]{1,4}))?(?:从(?P<old>[^，,]+?))?(?:换成|改成|改用|换到|转用)了?(?P<new>[^，,]+)",
                  c.text)
    if not m or re.search(r"换成了?(?:钱|现金)", c.text):
        return None
    thing = _SWITCHED_THINGS.get(m.group("thing") or "")
    new = _tidy(m.group("new"))
    made = _make([c], MemoryKind.PREFERENCE, "switch", attribute=thing, value=new if thing else None,
                 valid_from=_when(c))
    return [made] if made else []


def ability(c: Clause, rest: Sequence[Clause]) -> Made:
    """What the person cannot do (我不会开车): a plain statement kept as a fact."""
    if not re.fullmatch(r"(?:我|自己)?(?:完全|一直|从来)?不会(?!去|来|再|让|跟|给|是|有|太)[\u4e00-\u9fff]{1,5}", c.text):
        return None
    made = _make([c, *rest], MemoryKind.FACT, "ability")
    return [made] if made else []


def diet(c: Clause, rest: Sequence[Clause]) -> Made:
    m = re.search(r"素食|吃素|纯素|全素", c.text)
    if not m or re.search(r"不(?:是|吃)素", c.text):
        return None
    made = _make([c, *rest], MemoryKind.FACT, "diet", attribute="diet", value="素食")
    return [made] if made else []


def health(c: Clause, rest: Sequence[Clause]) -> Made:
    if not re.search(r"过敏|[病炎症癌]|综合征|怀孕|怀了|孕期|疼|痛|骨折|扭伤|受伤|失眠|抑郁|焦虑|血压|血糖|哮喘|"
                     r"近视|手术|体检|戒烟|戒酒", c.text):
        return None
    made = _make([c, *rest], MemoryKind.FACT, "health", valid_from=_when(c))
    return [made] if made else []


def pet(c: Clause, rest: Sequence[Clause]) -> Made:
    m = re.search(rf"(?:养了?|有)(?P<count>[一两二三四五六几\d])?[只条个]?(?P<breed>[^，,叫]*?)(?P<animal>{_PET})",
                  c.text)
    if not m:
        return None
    parts = [c, *rest]
    names = re.findall(r"叫(?P<name>[^，,。的它他她]{1,4})", "，".join(p.text for p in parts))
    slot = None
    if len(names) == 1 and (m.group("count") or "一") in ("一", "1"):
        slot = f"pet_{_PETS[m.group('animal')]}"
    made = _make(parts, MemoryKind.FACT, "pet", attribute=slot, value=names[0] if slot else None,
                 entity=names[0] if slot else None, typed="pet" if slot else None)
    return [made] if made else []


def family(c: Clause, rest: Sequence[Clause]) -> Made:
    if not re.search(rf"有(?:{times.NUM})个(?:{_RELATIVE})|(?:结婚|离婚|单身|订婚)(?!吗)", c.text):
        return None
    made = _make([c, *rest], MemoryKind.FACT, "family", valid_from=_when(c))
    return [made] if made else []


# A liked thing said only as "this", "that", "it" ("阿杰最爱吃这个" after naming a dish): what it is was
# said before, and a memory of it would not be understood without the chat.
_POINTS_BACK = re.compile(r"(?:吃|喝|看|听|玩|用|穿)?(?:这|那|它)(?:个|些|种|样|们)?(?:的)?")


def liking(c: Clause, rest: Sequence[Clause]) -> Made:
    m = re.search(r"(?:最|特别|很|超|非常|比较|挺)?(?:喜欢|爱吃|爱喝|爱看|爱听|爱玩|偏爱|热爱|讨厌|受不了|不吃|不喝|"
                  r"不爱|吃不了|喝不了)(?P<what>.*)", c.text)
    if not m or not m.group("what").strip() or _PASSING.search(c.text) or _POINTS_BACK.fullmatch(
            m.group("what").strip(" 。！!~")):
        return None
    slot = value = None
    favourite = re.search(r"最喜欢的(?P<thing>[^是]{1,3})是(?P<value>[^，,]+)", c.text)
    if favourite and favourite.group("thing") in _FAVOURITE_THINGS:
        slot = f"favorite_{_FAVOURITE_THINGS[favourite.group('thing')]}"
        value = _tidy(favourite.group("value"))
    made = _make([c, *rest], MemoryKind.PREFERENCE, "liking", attribute=slot, value=value)
    return [made] if made else []


def goal(c: Clause, rest: Sequence[Clause]) -> Made:
    if not re.search(r"目标|打算|计划|准备|想要?|希望|梦想|决定|争取|立志", c.text) or _PASSING.search(c.text):
        return None
    made = _make([c, *rest], MemoryKind.GOAL, "goal")
    return [made] if made else []


def habit(c: Clause, rest: Sequence[Clause]) -> Made:
    if re.search(r"最近|这几天|这两天|这阵子", c.sentence):
        return None  # what one does lately passes
    if not re.search(r"每天|每周|每个?星期|每个?月|每年|每晚|每早|经常|平时|一般都|总是|常常|天天|从来不|从不", c.text):
        return None
    made = _make([c, *rest], MemoryKind.FACT, "habit", content=_tidy(_third_person("，".join(
        p.text for p in [c, *rest]))) if not times.find(c.text, c.at) else None)
    return [made] if made else []


def event(c: Clause, rest: Sequence[Clause]) -> Made:
    found = [d for d in times.find(c.text, c.at, _looks_ahead(c.text))
             if d.phrase not in ("今天", "今晚", "今早", "今日")]
    said = c.text[:found[0].start] + c.text[found[0].end:] if found else ""
    if not found or _MOOD.search(c.text) or not re.search(r"[\u4e00-\u9fff]{2,}", said):
        return None
    ahead = found[0].when.start >= c.at.date()
    made = _make([c, *rest], MemoryKind.EVENT, "event", valid_from=None if ahead else _when(c))
    return [made] if made else []


RULES: tuple[Callable[[Clause, Sequence[Clause]], Made], ...] = (
    reminder, ended, residence, work, switch, diet, health, pet, family, ability, liking, goal, habit, event)


def person(c: Clause, rest: Sequence[Clause], rel: str) -> Made:
    """One of the person's people: their name, what they do, their age or school; or a visit to the
    person (我妈下个月来看我). What else they do or say is theirs, not the person's."""
    name = re.search(rf"(?:{_RELATIVE})(?:叫|是)?(?P<name>[^，,在是叫今上]{{1,4}}?)(?:$|[，,]|在|是|今年|上)", c.text)
    named = re.search(rf"(?:{_RELATIVE})(?:的名字)?叫(?P<name>[^，,]{{1,4}})$", c.text)
    works = re.search(r"在[^，,]+?(?:做|当|上班|工作)", c.text)
    school = re.search(r"(?:今年)?(?:\d+|[一二三四五六七八九十两]+)岁|上(?:幼儿园|小学|初|高|大学|中学)", c.text)
    slot = "partner" if rel in _PARTNERS else "manager" if rel in _MANAGERS else None
    rest = [r for r in rest if "我" not in r.text and not re.match(r"[他她它]", r.text)]
    if named or works or school:
        who = named.group("name") if named else name.group("name") if name and works else None
        if who and chinese.tagged(who)[0][1] not in ("nr", "nrt", "nz", "n", "eng") and not named:
            who = None
        made = _make([c, *rest], MemoryKind.PERSON, f"person:{rel}", attribute=slot if who else None,
                     value=who if slot else None, entity=who, typed="person" if who else None)
        return [made] if made else []
    if _INVOLVES_ME.search(c.text) and times.find(c.text, c.at):
        parts = [c, *[r for r in rest if "我" not in r.text]]
        content = _tidy(_written(re.sub(r"(?<=[看陪找带接送帮请])我", "", "，".join(
            _third_person(p.text) for p in parts)), c.at))
        made = _make(parts, MemoryKind.EVENT, "visit", content=content)
        return [made] if made else []
    return []


def _clauses(text: str, at: datetime, position: int) -> list[list[Clause]]:
    out = []
    for sentence in _SENTENCE.findall(text):
        sentence = _FILLER.sub("", sentence.strip())
        parts = [p for p in (_FILLER.sub("", x.strip()) for x in _CLAUSE.split(sentence)) if p]
        parts = [re.sub(r"[。！!？?~～]+$", "", p) for p in parts]
        out.append([Clause(p, sentence, at, position) for p in parts if p])
    return out


def _about_someone_else(sentence: str) -> str | None:
    """The relation of the one a sentence is about when it is not the person (None: the person)."""
    bare = _TIME_WORDS.sub("", sentence)
    m = _OTHER_SUBJECT.match(bare)
    if m:
        return m.group("rel") or "他"
    if re.match(r"(?:他|她)们?", bare):
        return "他"
    return None


def read(clauses: list[Clause]) -> list[Candidate]:
    """The memories of one sentence's clauses."""
    if not clauses:
        return []
    sentence = clauses[0].sentence
    if _QUESTION.search(sentence) or _SUPPOSED.search(sentence):
        return []
    other = _about_someone_else(sentence)
    if other:
        return person(clauses[0], clauses[1:], other) or []
    found: list[Candidate] = []
    i = 0
    while i < len(clauses):
        c = clauses[i]
        rule = _rule_of(c)
        # the clauses after it that no other rule reads and that do not say 我 are its detail
        j = i + 1
        while j < len(clauses) and "我" not in clauses[j].text and _rule_of(clauses[j]) in (None, rule):
            j += 1
        if rule is not None:
            found += rule(c, clauses[i + 1:j]) or []
        i = j
    return found


def _rule_of(clause: Clause) -> Callable[[Clause, Sequence[Clause]], Made] | None:
    """The first rule that reads a clause (None: none does)."""
    return next((rule for rule in RULES if rule(clause, ()) is not None), None)


def is_chinese(text: str) -> bool:
    """Whether a message is written in Chinese (Han characters outnumber the Latin words)."""
    return len(re.findall(r"[\u4e00-\u9fff]", text)) > len(re.findall(r"[A-Za-z]+", text))


def extract(messages: Sequence[Message], at: datetime, only: Callable[[Message], bool] = lambda m: True
            ) -> list[Candidate]:
    """The memories the Chinese rules find in what the person said (of the messages `only` keeps)."""
    found: dict[tuple[str | None, str], Candidate] = {}
    for position, message in enumerate(messages):
        if message.role != "user" or not only(message):
            continue
        said_at = utc(message.timestamp or at)
        for sentence in _clauses(message.content, said_at, position):
            for candidate in read(sentence):
                key = (candidate.attribute, candidate.value or candidate.content)
                if key not in found:
                    found[key] = candidate
                elif position not in found[key].positions:
                    found[key] = found[key].model_copy(update={"positions": (*found[key].positions, position)})
    return list(found.values())
