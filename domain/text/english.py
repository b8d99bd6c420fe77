"""English: its words, the lists of words each purpose leaves out, and its analyzers."""

from __future__ import annotations

import re

from domain.text.analyzer import Analyzer


def _listed(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Lucene's English stop words, which its index leaves out.
LUCENE_STOP_WORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    }
)
# Words that ask, point or join rather than name what a text is about: NLTK's English stop words
# (question words, pronouns, auxiliaries, prepositions) and their contractions, less those that
# are also words of their own ("won"). A search looks for them only when a query holds nothing else.
FUNCTION_WORDS = _listed("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
hers herself it its itself they them their theirs themselves what which who whom this that these
those am is are was were be been being have has had having do does did doing a an the and but if
or because as until while of at by for with about against between into through during before after
above below to from up down in out on off over under again further then once here there when where
why how all any both each few more most other some such no nor not only own same so than too very
s t can will just don should now d ll m re ve aren couldn didn doesn hadn hasn haven isn mustn
shouldn wasn weren wouldn i'm i've i'd i'll you're you've you'd you'll
he's she's it's we're we've we'd we'll they're they've they'd they'll that's what's who's where's
when's why's how's there's here's let's don't doesn't didn't isn't aren't wasn't weren't haven't
hasn't hadn't won't wouldn't can't couldn't shouldn't mustn't
""")
# Words that carry no detail of their own: a memory that adds only these adds nothing.
DETAIL_STOP_WORDS = _listed("""
    a an the and or but of to in on at for with by from as is are was were be been being am i me my
    mine we our us you your it its this that these those there here so very really just also too
    do does did have has had will would can could should may might""")
# What a chat says without saying what it is about: function words, fillers, greetings, the
# verbs of any conversation. A topic or a summary's sentence is weighed without them.
CHAT_STOP_WORDS = _listed("""
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
don't down during each even ever every few for from further get gets getting got had hadn't has
hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how
how's i i'd i'll i'm i've if in into is isn't it it's its itself just know let's like lot me more
most much must my myself no nor not now of off oh ok okay on once one only or other ought our ours
ourselves out over own really right same she she'd she'll she's should shouldn't so some still such
sure than that that's the their theirs them themselves then there there's these they they'd they'll
they're they've thing things think this those through to too under until up us very want was wasn't
we we'd we'll we're we've well were weren't what what's when when's where where's which while who
who's whom why why's will with won't would wouldn't yeah yes you you'd you'll you're you've your
yours yourself yourselves go going gonna wanna been make made time today yesterday tomorrow new
good great nice thanks thank hi hello hey bye cool awesome wow amazing glad definitely totally
actually maybe kind sort pretty quite bit way day days week year years said say
yep yup nope wow oops woohoo haha lol omg ooh aww hmm ugh whoa yay sorry please sounds sound
feel feels felt feeling look looks looked looking seem seems seemed bring brings brought take takes
took taken come comes came give gives gave keep keeps kept put puts tell tells told let lets find
found see seen saw seeing try tried trying mean means meant long lots little big thing stuff always
never sometimes often usually though although maybe anyway anything something everything nothing
happy lovely exciting excited fun luck hope enjoy wonderful fantastic brilliant congratulations
congrats welcome perfect whatever help need
""")

SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")

# Lucene's English analyzer: lower-cased, its stop words out, possessive dropped, Porter-stemmed.
INDEX = Analyzer(
    "index", re.compile(r"\w+(?:'\w+)?", re.UNICODE), stop=LUCENE_STOP_WORDS, suffix="'s", stemmer="porter"
)
# What a search looks for: the index's words less the function words.
QUERY = Analyzer("query", INDEX.token, stop=LUCENE_STOP_WORDS | FUNCTION_WORDS, suffix="'s", stemmer="porter")
# The words that carry a memory's details, Porter2-stemmed ("lives" and "live" are one; "5" and
# "10" two): what consolidation and grounding compare.
DETAIL = Analyzer("detail", re.compile(r"\w+"), fold=str.casefold, stop=DETAIL_STOP_WORDS, stemmer="english")
# The words a conversation is about, as said (no stems: a topic is shown to a person).
TOPIC = Analyzer(
    "topic",
    re.compile(r"[A-Za-z][A-Za-z'-]+"),
    fold_first=False,
    strip="'-",
    min_length=3,
    stop=CHAT_STOP_WORDS,
)

ANALYZERS = {a.name: a for a in (INDEX, QUERY, DETAIL, TOPIC)}


_LETTERS = re.compile(r"[^\W\d_]")
_SHOUTED_WORD = re.compile(r"\b[^\W\d_]{2,}\b")


_LONE_I = re.compile(r"(?<![\w'])i(?=(?:'(?:m|ve|ll|d))?(?![\w']))")
_IM = re.compile(r"(?<![\w'])im(?![\w'])")
# "her name's Biscuit": a parser reads "name's" as whose name; it is "name is".
_NAME_IS = re.compile(r"\b([Nn]ame)['’]s\b")
# "Interview's on the 12th", "my brother's getting married": no one's thing is "on" or "getting";
# before such a word "'s" is "is" (a parser reads it as whose)
_IS_BEFORE = re.compile(r"\b([A-Za-z]+)['’]s (?=(?:on|at|in|due|booked|next|tomorrow|tonight|today|coming|"
                        r"going|getting|moving|starting|having|finally|off)\b)")
# Contractions typed without their apostrophe that are no other word ("dont", "ive", "hes"; not
# "ill", "were", "well", "its", "id", "wed", "lets", "shell"): a parser reads "do nt use tables" as a
# question and "cant" as a noun.
_UNAPOSTROPHED = {
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "cant": "can't", "wont": "won't",
    "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't", "werent": "weren't", "havent": "haven't",
    "hasnt": "hasn't", "hadnt": "hadn't", "wouldnt": "wouldn't", "couldnt": "couldn't",
    "shouldnt": "shouldn't", "ive": "I've", "hes": "he's", "shes": "she's", "thats": "that's",
    "theyre": "they're", "youre": "you're", "theyve": "they've", "youve": "you've", "weve": "we've",
    "whats": "what's", "theres": "there's",
}
_UNAPOSTROPHED_WORD = re.compile(r"(?<![\w'’])(" + "|".join(_UNAPOSTROPHED) + r")(?![\w'’])", re.IGNORECASE)


def _apostrophed(match: re.Match[str]) -> str:
    typed = match.group(1)
    before = match.string[:match.start()].rstrip(" \"'(")
    opens = not before or before[-1] in ".!?"
    if typed != typed.lower() and not (typed == typed.capitalize() and opens):
        return typed  # "IVE", "Jony Ive": a shout or a name, not a word typed in haste
    written = _UNAPOSTROPHED[typed.lower()]
    return written[:1].upper() + written[1:] if typed[:1].isupper() else written


def typed_plainly(text: str) -> str:
    """A chat line as a parser trained on edited text reads it best: not shouted (`unshouted`),
    "i", "i'm", "im" written "I", "I'm" (a lower-case "i" reads as a noun or a typo), "dont",
    "ive", "hes" with their apostrophes, "name's" written "name is", "my gf" as "my girlfriend",
    "w/ my partner" as "with my partner", "ex-wife" as "ex wife", "10 yrs" as "10 years", "yday" as
    "yesterday", "appt" as "appointment", "me n my gf" as "me and my gf", and a month beside its
    day or after a word of time with its capital ("before 30 april", "june 5th", "end of may":
    lower case, the parser misses the date)."""
    text = _UNAPOSTROPHED_WORD.sub(_apostrophed, unshouted(text))
    text = _DAY_OF_MONTH.sub(_month_capitalised, text)
    text = _MONTH_AFTER_TIME_WORD.sub(lambda m: m.group(1) + m.group(2).capitalize(), text)
    text = _EX_HYPHENED.sub(r"\1 ", text)
    text = _PLEASE_SHORT.sub(lambda m: "Please" if m.group(0)[0].isupper() else "please", text)
    text = _ME_FOR_MY.sub(lambda m: m.group(1) + ("My " if m.group(2) == "Me" else "my "), text)
    text = _PARTNER_SHORT.sub(lambda m: f"{m.group(1)} {_PARTNERS[m.group(2).lower()]}", text)
    text = _WITH_SHORT.sub("with", text)
    text = _AND_SHORT.sub("and", text)
    text = _BECAUSE_SHORT.sub("because", text)
    text = _HAVE_TYPE.sub(r"\1 Type", text)
    text = _DAY_SHORT.sub(lambda m: _DAYS_SHORTENED[m.group(1).lower()], text)
    text = _APPOINTMENT_SHORT.sub(lambda m: "appointment" + m.group(2), text)
    text = _UNIT_SHORT.sub(lambda m: m.group(1) + _UNITS[m.group(2).lower().rstrip("s")]
                           + ("" if m.group(1).strip().lower() in _ONE else "s"), text)
    text = _IS_BEFORE.sub(_is_or_whose, text)
    return _NAME_IS.sub(r"\1 is", _IM.sub("I'm", _LONE_I.sub("I", text)))


def _is_or_whose(m: re.Match[str]) -> str:
    """ "Interview's on" is "Interview is on"; "at a chemist's in Porto", "to Tom's on Friday" are
    somebody's place, after a preposition (and an article or "my"), and stay as they are."""
    before = re.findall(r"[\w']+", m.string[:m.start()].lower())
    while before and before[-1] in _ARTICLES:
        before.pop()
    if m.group(1).lower() in _PRONOUNS_S | _DEGREES or (before and before[-1] in _PLACE_PREPOSITIONS):
        return m.group(0)
    return m.group(1) + " is "


_ARTICLES = frozenset({"a", "an", "the", "my", "your", "his", "her", "our", "their"})
# "a master's in science": a degree named by its possessive
_DEGREES = frozenset({"master", "bachelor"})
_PLACE_PREPOSITIONS = frozenset({"at", "to", "from", "round", "near", "by", "in", "over", "outside", "into",
                                 "past", "towards", "via", "behind"})
# "it's", "he's", "that's": contractions a parser reads well as they are ("let's" is "let us")
_PRONOUNS_S = frozenset({"it", "he", "she", "that", "what", "there", "here", "who", "where", "let", "how",
                         "when", "why"})


# "for 10 yrs", "2 wks ago": a unit of time as chat shortens it, after its number
_UNITS = {"yr": "year", "mth": "month", "mo": "month", "wk": "week", "hr": "hour", "min": "minute"}
_ONE = frozenset({"1", "a", "one", "next", "last", "this", "per", "every"})
_UNIT_SHORT = re.compile(r"(\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of"
                         r"|next|last|this|per|every) ?)"
                         r"(yrs?|mths?|mos|wks?|hrs?|mins)\b", re.IGNORECASE)
# "live in Leeds w my partner", "w/ the kids": "with" as chat shortens it, before whom
_WITH_SHORT = re.compile(r"(?<![\w/])w/?(?= (?:my|our|his|her|their|the|a|an|me|him|them|us)\b)")
# "cos im lactose intolerant", "bc apprenticeships dont pay": "because" as chat shortens it, before
# what it gives as the reason (not "BC", nor "cos" at the end of a line)
_BECAUSE_SHORT = re.compile(r"(?<![\w'’])(?<!the )(?<!a )(?:cos|coz|cuz|bc|bcos|bcoz|becos|becuz)(?= [a-z])")
# "I have type 2 diabetes": a small parser reads "have type" as a tense of a verb and finds no clause;
# "Type 2 diabetes", as the condition is often written, it reads as the condition had
_HAVE_TYPE = re.compile(r"\b(have|has|'ve) type(?= (?:1|2) diabetes\b)", re.IGNORECASE)
# "me n my gf", "fish n chips": "and" as chat shortens it, between two words
_AND_SHORT = re.compile(r"(?<=[a-z] )n(?= [a-z])")
# "yday", "tmrw": a day as chat shortens it
_DAYS_SHORTENED = {"yday": "yesterday", "yest": "yesterday", "ystday": "yesterday", "tmrw": "tomorrow",
                   "tmr": "tomorrow", "tmrow": "tomorrow", "tmw": "tomorrow", "2moro": "tomorrow",
                   "2morrow": "tomorrow", "tomoz": "tomorrow", "tonite": "tonight", "2nite": "tonight"}
_DAY_SHORT = re.compile(r"(?<![\w'’])(" + "|".join(_DAYS_SHORTENED) + r")(?![\w'’])", re.IGNORECASE)
# "a dentist appt on the 19th": the word as chat shortens it
_APPOINTMENT_SHORT = re.compile(r"(?<![\w'’])(appt)(s?)(?![\w'’])", re.IGNORECASE)
# "my gf", "our bf": a partner as chat shortens the word, after whose partner it is
_PARTNERS = {"gf": "girlfriend", "bf": "boyfriend"}
# "my ex-wife Carla": the parser reads the hyphen as a word of its own and loses the wife; "ex wife"
_EX_HYPHENED = re.compile(r"\b([Ee]x)-(?=(?:wife|husband|boyfriend|girlfriend|partner|fianc[eé]e?)\b)")
_PARTNER_SHORT = re.compile(r"\b(my|our|his|her|your|their|My|Our|His|Her|Your|Their) (gf|bf|GF|BF)\b")
# "pls", "plz": "please" as chat shortens it (a parser takes "pls" for a name, or a subject)
_PLEASE_SHORT = re.compile(r"\b(?:pls|plz|plse|pleez)\b", re.IGNORECASE)
# "me mate reece", "tyson (me staffie)", "out with me mates": "me" for "my", as it is said in the
# north of England, Scotland and Ireland, before one's people or pets, where no verb takes a "me"
_ME_FOR_MY = re.compile(
    r"(^|[(,;] ?|\b(?:and|with|to|for|of|about|but|so) )"
    r"([Mm]e) (?=(?:mate|mates|girlfriend|boyfriend|gf|bf|missus|mum|mam|ma|dad|da|nan|nana|brother|"
    r"sister|bro|sis|wife|husband|fella|kids|son|daughter|staffie|dog|cat|pup|puppy|uncle|auntie|"
    r"aunt|cousin|grandad|grandma|gran|boss|gaffer|lads|pals?)\b)")


def _month_capitalised(match: re.Match[str]) -> str:
    month = match.group("month") or match.group("month2")
    if month != month.lower():
        return match.group(0)
    start = match.start("month") if match.group("month") else match.start("month2")
    at = start - match.start()
    return match.group(0)[:at] + month.capitalize() + match.group(0)[at + len(month):]


_FULL_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_MONTH_NAMES = _FULL_MONTHS + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
# The months as a line may name them, whole or shortened (lower case).
MONTH_NAMES = tuple(_MONTH_NAMES.split("|"))
# "end of may", "in june", "until march": a month typed in lower case after a word that only a time
# follows there (not "I may", "on march"), with its capital, so that the parser reads a date
_MONTH_AFTER_TIME_WORD = re.compile(
    r"(\b(?:(?:end|start|beginning|middle) of|in|until|till|by|before|since|early|late|mid|"
    r"from|through|last|next|this)[ -])"
    rf"({_FULL_MONTHS})\b(?!['’])")
_DAY_OF_MONTH = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{_MONTH_NAMES})\b(?!['’])"
    # a month first ("june 5"), not "may" or "mar", which are verbs too ("I may 2 times")
    rf"|\b(?!may\b|mar\b)(?P<month2>{_MONTH_NAMES})\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?!\s*(?:%|kg|km|mg|am|pm|people|years))")


def unshouted(text: str) -> str:
    """A line typed in capitals ("MY KNEE IS BETTER NOW"), as it would be written in lower case,
    so that a parser trained on ordinary text reads it: each sentence starts with a capital and
    "I" stays one. A line with ordinary case, or one capital word in it ("I LOVE it"), is left."""
    letters = _LETTERS.findall(text)
    upper = sum(ch.isupper() for ch in letters)
    if len(letters) < 8 or upper < 0.8 * len(letters) or len(_SHOUTED_WORD.findall(text)) < 3:
        return text
    lowered = re.sub(r"\bi\b", "I", text.lower())
    lowered = re.sub(r"\bi'(m|ve|ll|d)\b", lambda m: "I'" + m.group(1), lowered)
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), lowered)
