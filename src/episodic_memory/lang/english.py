"""English, in one place: the month and weekday tables, interjections, irregular verbs and the stemmer that the
rules of consolidation and recall share.

Closed tables and the Snowball (Porter2) stemmer, no phrase bank nor hand-written suffix rules: a rule that
only holds for English reads its words from here, so that it is plain which rules are English.
"""

from __future__ import annotations

import calendar
import gzip
import threading
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

import snowballstemmer

from ..util import forgettable

# --- months and weekdays ----------------------------------------------------------------------------------------

#: month names and their abbreviations (and "sept") → the month's number
MONTHS: dict[str, int] = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
#: a month as written in running text ("March", "Mar", "Mar."); the caller tells the modal "may" apart
MONTH_WORD_PATTERN = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                      r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b")

#: weekday names and abbreviations → 0 (Monday) … 6 (Sunday)
WEEKDAYS: dict[str, int] = {name.lower(): i for i, name in enumerate(calendar.day_name)}
WEEKDAYS.update({name.lower(): i for i, name in enumerate(calendar.day_abbr)})
WEEKDAYS.update({"tues": 1, "weds": 2, "thur": 3, "thurs": 3})
#: a weekday as written ("Friday", "fri", "Thurs")
WEEKDAY_PATTERN = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tue|wed|thu|fri|sat|sun)\b)"

# --- interjections and discourse openers ------------------------------------------------------------------------

#: words and phrases that open a chat message without saying anything ("Hey", "Wow", "Thanks", "lol")
INTERJECTIONS = (
    "hey", "hi", "hello", "hiya", "yo", "thanks", "thank you", "thx", "wow", "woah", "whoa", "oh", "ooh", "aw+",
    "yes", "yeah", "yep", "no", "nope", "sure", "congrats", "congratulations", "omg", "well", "ok(?:ay)?", "haha",
    "lol", "ah", "dear", "good (?:morning|night|evening)", "oof", "dang", "yay", "ugh", "hm+", "phew", "gosh",
    "geez", "jeez", "no doubt", "of course", "absolutely", "totally", "man", "dude",
)
INTERJECTION_PATTERN = "(?:" + "|".join(INTERJECTIONS) + ")"
#: words that lead into what a sentence says ("So, …", "Also …", "Oh and …"): dropped before it is read
LEAD_INS = ("also", "and", "oh", "ok", "okay", "so", "hey", "hi", "btw", "right", "fyi", "anyway", "plus", "ugh",
            "now", "alright", "well", "actually", "quick one", "one more thing", "oh and")
LEAD_IN_PATTERN = "(?:" + "|".join(sorted(LEAD_INS, key=len, reverse=True)) + ")"

# --- verbs: irregular past forms --------------------------------------------------------------------------------

#: past tense and past participle → base form (the common irregular verbs)
IRREGULAR_VERBS: dict[str, str] = {}
for _line in """
arise arose arisen | be was were been | bear bore borne | beat beat beaten | become became become
begin began begun | bend bent | bind bound | bite bit bitten | blow blew blown | break broke broken
breed bred | bring brought | broadcast broadcast | build built | burn burnt | buy bought | catch caught
choose chose chosen | cling clung | come came come | cost cost | creep crept | cut cut | deal dealt | dig dug
do did done | draw drew drawn | dream dreamt | drink drank drunk | drive drove driven | eat ate eaten
fall fell fallen | feed fed | feel felt | fight fought | find found | flee fled | fly flew flown
forbid forbade forbidden | forget forgot forgotten | forgive forgave forgiven | freeze froze frozen
get got gotten | give gave given | go went gone | grind ground | grow grew grown | hang hung | have had
hear heard | hide hid hidden | hit hit | hold held | hurt hurt | keep kept | know knew known | lay laid
lead led | leave left | lend lent | let let | lie lay lain | light lit | lose lost | make made | mean meant
meet met | pay paid | prove proven | put put | quit quit | read read | rid rid | ride rode ridden
ring rang rung | rise rose risen | run ran run | say said | see saw seen | seek sought | sell sold | send sent
set set | sew sewn | shake shook shaken | shine shone | shoot shot | show shown | shrink shrank shrunk
shut shut | sing sang sung | sink sank sunk | sit sat | sleep slept | slide slid | speak spoke spoken
spend spent | spin spun | split split | spread spread | stand stood | steal stole stolen | stick stuck
sting stung | strike struck | swear swore sworn | sweep swept | swim swam swum | swing swung | take took taken
teach taught | tear tore torn | tell told | think thought | throw threw thrown | understand understood
undertake undertook undertaken | upset upset | wake woke woken | wear wore worn | win won | wind wound
withdraw withdrew withdrawn | write wrote written | rewrite rewrote rewritten | redo redid redone
overcome overcame overcome | oversee oversaw overseen | undergo underwent undergone | sign-off signed-off
""".replace("\n", "|").split("|"):
    if _line.strip():
        _base, *_forms = _line.split()
        for _form in _forms:
            IRREGULAR_VERBS.setdefault(_form, _base)

# --- the stemmer ------------------------------------------------------------------------------------------------

_SNOWBALL = snowballstemmer.stemmer("english")

# The stems of the ~21,700 whole English words of the MiniLM vocabulary, worked out once by this stemmer and
# shipped (`scripts/stem_table.py`): `snowballstemmer` is pure Python (docs/retrieval.md, "A shipped stem
# table"). A word outside the table is stemmed as it comes.
STEM_TABLE = "english_stems.txt.gz"
_STEM_TABLE_CHECKS = 64   # entries checked against the stemmer at load: another Snowball version, no table
_stems: dict[str, str] | None = None
_stems_lock = threading.Lock()


def _stem_table() -> dict[str, str]:
    global _stems
    if _stems is None:
        with _stems_lock:
            if _stems is None:
                _stems = _load_stem_table()
    return _stems


def _load_stem_table() -> dict[str, str]:
    try:
        text = gzip.decompress(resources.files("episodic_memory").joinpath(f"data/{STEM_TABLE}").read_bytes())
        same_line, pairs_line = text.decode("utf-8").split("\n")[:2]
    except (OSError, ValueError, ModuleNotFoundError):  # not shipped (a trimmed install): every word stemmed
        return {}
    same, pairs = same_line.split(), pairs_line.split()
    table = dict(zip(same, same, strict=True))
    table.update(zip(pairs[::2], pairs[1::2], strict=True))
    step = max(1, len(table) // _STEM_TABLE_CHECKS)
    if any(_SNOWBALL.stemWord(w) != table[w] for w in [*same[::step], *pairs[::2 * step]]):
        return {}  # made by another version of the stemmer: not these stems
    return table


def stem_table_text(words: Iterable[str]) -> str:
    """The table for `words` (lower case, as `stem` hands them to the stemmer), as two lines: the words that are
    their own stem, then "word stem" pairs for the others; space-separated."""
    same: list[str] = []
    pairs: list[str] = []
    for w in sorted(set(words)):
        stemmed = _SNOWBALL.stemWord(w)
        if stemmed == w:
            same.append(w)
        else:
            pairs += [w, stemmed]
    return " ".join(same) + "\n" + " ".join(pairs) + "\n"


@forgettable
@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """The Snowball (Porter2) stem of one word, lower-cased, a possessive "'s" and edge apostrophes off; an
    irregular past form is stemmed as its base ("wrote" → write)."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.strip("'-")
    if not w:
        return w
    base = IRREGULAR_VERBS.get(w, w)
    known = _stem_table().get(base)
    return known if known is not None else _SNOWBALL.stemWord(base)


#: function words whose presence tells tense, aspect, modality, negation, person and sentence type: closed
#: classes, the same whatever the topic, so a model that weighs them does not learn a bank's content words.
FUNCTION_WORDS = tuple(dict.fromkeys("""
i me my mine we us our you your he him his she her they them their it its this that these those there here
am is are was were be been being 's 're 'm
do does did done doing have has had having 've 'd 'll
will would shall should can could may might must ought need needs needed gotta gonna wanna going
not n't no never nothing nobody none yet still already just finally now then soon later today tonight tomorrow
yesterday ago last next this morning week weekend month
if when once whether unless until before after because so but and or though although while since
to for by on at in of with from about into onto over off up out back down
what how why where which who whom whose
please pls thanks thank sorry oh ok okay well actually also anyway really maybe perhaps probably honestly
let let's lets some any all every each both either neither more most less
instead rather than anymore longer again either
a an the
""".split()))
