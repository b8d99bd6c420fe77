"""Chinese: how its words are cut (jieba), the words each purpose leaves out, and its analyzers.

Chinese is written without spaces: a segmenter cuts it into words. jieba's dictionary ships in its
wheel (nothing is fetched) and the same text is always cut the same way, so that the words a search
looks for are the words its index holds, in every process and after a rebuild. It is loaded once
per process, on the first Chinese text. Latin words and numbers said inside Chinese ("在Google
上班", "5.5公斤") come out of it whole, and are then read as the English analyzers read them;
kana, which jieba leaves one character at a time, are read in pairs as Lucene's CJK analyzer does.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from domain.text import english
from domain.text.analyzer import Analyzer

_LOCK = threading.Lock()
_SEGMENTERS: dict[str, Any] = {}
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]+")
_WORD = re.compile(r"\w", re.UNICODE)


def _listed(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _jieba(kind: str) -> Any:
    """jieba's tokenizer ("cut") or part-of-speech tagger ("tag"), made once per process."""
    found = _SEGMENTERS.get(kind)
    if found is not None:
        return found
    with _LOCK:
        if not _SEGMENTERS:
            import jieba
            import jieba.posseg

            jieba.setLogLevel(logging.WARNING)
            tokenizer = jieba.Tokenizer()
            # Its dictionary read from the package, as `initialize` does, without the cache file it
            # would write to the temporary folder (a few seconds, once per process).
            with tokenizer.get_dict_file() as dictionary:
                tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(dictionary)
            tokenizer.initialized = True
            _SEGMENTERS["tag"] = jieba.posseg.POSTokenizer(tokenizer)
            _SEGMENTERS["cut"] = tokenizer
        return _SEGMENTERS[kind]


def has_han(text: str) -> bool:
    return _HAN.search(text) is not None


def segment(text: str) -> list[str]:
    """`text` cut into words as said (punctuation and spaces left out), kana in pairs."""
    out: list[str] = []
    kana = ""
    for word in [*_jieba("cut").lcut(text), ""]:
        if len(word) == 1 and _KANA.fullmatch(word):
            kana += word  # jieba gives kana one by one: read them as Lucene's CJK bigrams
            continue
        if kana:
            out += [kana[i:i + 2] for i in range(max(len(kana) - 1, 1))]
            kana = ""
        if _WORD.search(word):
            out.append(word)
    return out


def tagged(text: str) -> list[tuple[str, str]]:
    """`text` cut into words, each with jieba's part of speech (n, v, nr: a person's name, ns: a
    place, nt: an organisation, nz: another proper noun, t: a time, m: a number, eng: Latin, x:
    punctuation, ...)."""
    return [(pair.word, pair.flag) for pair in _jieba("tag").lcut(text)]


# What a Chinese text says without saying what it is about, as English's stop words are left out:
# particles, pronouns, and the commonest prepositions and conjunctions.
PARTICLES = _listed("""
的 地 得 了 着 过 吗 呢 吧 啊 呀 哦 噢 嗯 哈 嘛 啦 喔 哇 么 咯 呗 哟 唉 诶 欸 嘞 哒 滴 之
""")
# Words that ask, point or join rather than name what a text is about, as English's function
# words (NLTK's list) are: pronouns, question words, demonstratives, auxiliaries and copulas,
# prepositions, conjunctions, adverbs of degree and of frequency. A search looks for them only
# when a question holds nothing else.
FUNCTION_WORDS = PARTICLES | _listed("""
我 你 您 他 她 它 我们 你们 他们 她们 它们 咱 咱们 自己 大家 人家 别人 我的 你的 他的 她的 俺 本人
什么 啥 怎么 怎样 怎么样 如何 为什么 为啥 为何 哪 哪里 哪儿 哪个 哪些 哪位 哪天 哪年 几 几个 多少
多久 多长 多大 谁 是否 是不是 有没有 能不能 会不会 要不要 可不可以 什么样 什么时候 几时 何时
这 那 这个 那个 这些 那些 这里 那里 这儿 那儿 这样 那样 这么 那么 这种 那种 此 其 其他 其它 某 每
是 有 没 没有 在 会 能 能够 可以 可能 应该 该 要 想 得 需要 做 去 来 到 让 使 被 把 给 将 叫
和 与 跟 同 及 以及 并 并且 而 而且 或 或者 还是 但 但是 可是 不过 然而 因为 所以 因此 如果 要是
假如 虽然 即使 就 才 都 也 还 又 再 已经 已 正在 正 曾 曾经 从 向 对 对于 关于 于 以 为 为了 比
很 太 非常 特别 挺 最 更 比较 真 好 多 少 一 一个 一下 一些 一点 一直 只 只是 就是 还有 然后 其实
不 不是 别 吧 嘛 些 个 吗 呢 哦 上 下 里 中 内 外 前 后 时 时候 的话 一样 一起 之后 之前 以后 以前
""")
# Words that carry no detail of their own: a memory that adds only these adds nothing.
DETAIL_STOP_WORDS = PARTICLES | _listed("""
我 你 他 她 它 我们 你们 他们 自己 这 那 这个 那个 是 在 有 和 与 跟 也 都 就 很 还 又 把 被 给 对
""")
# What a chat says without saying what it is about: function words, fillers, greetings, thanks,
# the verbs and adverbs of any conversation. A topic is weighed without them.
CHAT_STOP_WORDS = FUNCTION_WORDS | _listed("""
哈哈 哈哈哈 哈哈哈哈 嘿嘿 呵呵 嗯嗯 好的 好吧 好嘞 好滴 好呀 对 对的 是的 嗯呢 谢谢 谢谢你 谢啦 多谢 感谢
你好 您好 在吗 拜拜 再见 晚安 早安 早上好 晚上好 辛苦 辛苦了 不客气 没事 没关系 当然 确实 其实 真的
知道 觉得 感觉 认为 说 告诉 问 问题 事 事情 东西 时间 今天 明天 昨天 现在 最近 刚才 刚刚 一会 一会儿
有点 有些 一下子 然后 还是 可能 应该 比较 稍微 特别 真是 太好了 不错 厉害 可以 行 好 棒 恭喜 加油
那个 这个 一下 一些 一点 东西 地方 样子 方面 情况 时候 今年 明年 去年 上次 下次 这次 每天 天天
不太 不太会 不会 不能 不要 不用 不想 没什么 还好 还行 还是 就是 老是 总是
明白 明白了 收到 了解 懂 懂了 没问题 好主意
""")

# Sentences end at 。！？!?; at a full stop of Latin text, when a space or the end follows (not
# inside "5.5" or "3.14"); at a line break.
SENTENCE = re.compile(r"(?:[^。！？!?\n.]|\.(?=\S))+(?:[。！？!?]+|\.|$)")


def _cut(english_analyzer: Analyzer) -> Callable[[str], list[str]]:
    """A cut that segments Chinese and gives each Latin word to `english_analyzer`'s rules."""
    def cut(text: str) -> list[str]:
        out: list[str] = []
        for word in segment(text):
            if has_han(word) or _KANA.search(word):
                out.append(word)
            else:
                out += english_analyzer.words(word)
        return out
    return cut


# What the index holds of a text: its words, the particles and Lucene's English stop words out,
# Latin words as Lucene's English analyzer reads them (folded, Porter-stemmed).
INDEX = Analyzer("index", _WORD, cut=_cut(english.INDEX), stop=PARTICLES)
# What a search looks for: the index's words less the function words of both languages.
QUERY = Analyzer("query", _WORD, cut=_cut(english.QUERY), stop=FUNCTION_WORDS)
# The words that carry a memory's details, as consolidation and grounding compare them.
DETAIL = Analyzer("detail", _WORD, cut=_cut(english.DETAIL), stop=DETAIL_STOP_WORDS)
# The words a conversation is about, as said: Chinese words of two characters or more, and
# Latin words as English's topic analyzer reads them.
TOPIC = Analyzer("topic", _WORD, cut=_cut(english.TOPIC), stop=CHAT_STOP_WORDS, min_length=2)

ANALYZERS = {a.name: a for a in (INDEX, QUERY, DETAIL, TOPIC)}


def named_share(query: str, name: str) -> float:
    """How much of a name in Chinese (or Japanese, Korean) `query` names: 1 where it holds the
    whole name, else the share of the name's characters in those of its words, of two characters
    or more, that it holds ("蓝鲸" of "杭州蓝鲸科技"); 0 for none. One character in common is no
    naming: an index that cuts such text into characters took any question with 一 in it for one
    about "杭州一家叫蓝鲸科技", and one with 院 in it for one about a hospital."""
    name, query = name.strip().lower(), query.lower()
    if not name:
        return 0.0
    if name in query:
        return 1.0
    # Run for each of a person's names on every Chinese search: jieba only where a word of the name
    # can be held, i.e. where two of its characters in a row are (most names share none).
    if not any(name[i:i + 2] in query for i in range(len(name) - 1)):
        return 0.0
    held = sum(len(word) for word in dict.fromkeys(segment(name)) if len(word) > 1 and word in query)
    return min(held / len(name), 1.0)
