"""Who a sentence is said to, and what is only said to them: in a chat between people, a name is often the
listener's, not the subject's ("Caroline, my family's been great"), and "That's great news, Caroline!" is
about nothing at all. A participant is a speaker of the turns consolidated. See docs/consolidation.md, "Chats
between people: who a sentence is said to".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lang.english import INTERJECTION_PATTERN as _INTERJECTION

_I = re.IGNORECASE
_BEFORE_ADDRESS = re.compile(rf"^\W*(?:{_INTERJECTION}\W*)*$", _I)   # only interjections and punctuation before
# "Caroline, …", "Hey Mel!", "Thanks Mel - …", "Jon you've got this"
_AFTER_OPENING = re.compile(r"^\s*(?:[,!?.:;—–-]|$|you(?:'[a-z]+|’[a-z]+)?\b|your\b)", _I)
_AT_END = re.compile(r"^\s*[!?.…]*\s*(?:[:;]-?[)(D]|[\U0001F300-\U0001FAFF\u2600-\u27BF]\s*)*$")  # ", Caroline!" :)
#: a word after which a participant's name closing the sentence addresses the listener with no comma ("That's so
#: cool Joanna!", "Miss you Mel!"); after any other word it may be the object ("I had lunch with Joanna!")
_CLOSING_CUE_WORDS = (r"(?:great|awesome|amazing|cool|nice|lovely|beautiful|sweet|wonderful|fantastic|incredible|"
                      r"inspiring|impressive|exciting|fun|brilliant|perfect|special|adorable|cute|neat|good|true|"
                      r"thanks|thank you|congrats|congratulations|sorry|you|too|lol|haha|wow|hey|hi|hello|buddy|"
                      r"a lot|so much|indeed|exactly|agreed|absolutely|later|soon|again|tonight)")
_CLOSING_CUE = re.compile(rf"\b{_CLOSING_CUE_WORDS}\W*$", _I)
_CAPITALISED = re.compile(r"(?<![\w'’-])[A-Z][a-z'’-]+(?![\w'’-])")
_SURNAME = re.compile(r"\s+([A-Z][a-z'’-]+)(?![\w'’-])")


#: two-letter words that start many names and are no short form of one ("So, …" is not Sophie)
_COMMON_PAIRS = frozenset("""
am an as at be by do go he hi if in is it me my no of oh ok on or so to up us we ya ye yo ah aw eh ha hm ma pa
""".split())


def _is_participant(name: str, participants: Iterable[str]) -> bool:
    """`name` (one word) is a word of a participant's name, or the start of one ("Mel", "Caro", "Jo")."""
    word = name.lower()
    short_form = len(word) >= 3 or (len(word) == 2 and word not in _COMMON_PAIRS)
    return any(word in parts or (short_form and any(p.startswith(word) for p in parts))
               for parts in (person.lower().split() for person in participants))


def participant_named(name: str, participants: Iterable[str]) -> str:
    """The participant a one-word `name` is the short form of ("Mel", "Caro" → Melanie, Caroline: the start of one
    participant's name and of no other's), else `name` itself."""
    if " " in name or len(name) < 2:
        return name
    word = name.lower()
    full = [p for p in participants if any(part.startswith(word) for part in p.lower().split())]
    return full[0] if len(full) == 1 and full[0].lower() != word else name


def _spans(sentence: str, participants: Iterable[str]) -> list[tuple[int, int]]:
    people = [p for p in participants if p]
    if not people:
        return []
    out = []
    for m in _CAPITALISED.finditer(sentence):
        if not _is_participant(m.group(), people):
            continue
        start, end = m.start(), m.end()
        if (nxt := _SURNAME.match(sentence, end)) and any(  # "Mel Smith": the rest of the participant's name
                f"{m.group()} {nxt.group(1)}".lower() == p.lower() for p in people):
            end = nxt.end()
        before, after = sentence[:start], sentence[end:]
        opening = _BEFORE_ADDRESS.match(before) is not None and _AFTER_OPENING.match(after) is not None
        if opening or _closes(before, after):
            out.append((start, end))
    return out


def _closes(before: str, after: str) -> bool:
    """A name between `before` and `after` closes the sentence as an address: after a comma, or a cue word."""
    if _AT_END.match(after) is None:
        return False
    before = before.rstrip()
    return before.endswith(",") or (before[-1:].isalnum() and _CLOSING_CUE.search(before) is not None)


def addressees(sentence: str, participants: Iterable[str]) -> list[str]:
    """The names `sentence` addresses its listener by (vocatives), as written: a participant's name or its
    start, opening or closing the sentence ("That's so cool Joanna!", not "I had lunch with Joanna!"), or
    after a greeting or interjection ("Hey Mel!")."""
    return [sentence[s:e] for s, e in _spans(sentence, list(participants))]


def unaddressed(sentence: str, participants: Iterable[str]) -> str:
    """`sentence` with every name it addresses its listener by blanked out (what names it has as subjects)."""
    for start, end in reversed(_spans(sentence, list(participants))):
        sentence = sentence[:start] + " " * (end - start) + sentence[end:]
    return sentence


def without_address(sentence: str, participants: Iterable[str]) -> str:
    """`sentence` without the vocative opening it ("Caroline, my family's been great" → "My family's been great")
    or closing it ("That helps, Mel!" → "That helps!"); one in the middle stays (the sentence reads on around it)."""
    text, people = sentence, list(participants)
    spans = _spans(text, people)
    if spans and _closes(text[: spans[-1][0]], text[spans[-1][1] :]):
        start, end = spans[-1]
        cut = text[:start].rstrip()
        cut = cut[:-1].rstrip() if cut.endswith(",") else cut
        rest = text[end:].strip()
        text = cut + ("" if rest[:1] in ("", "!", "?", ".", "…") else " ") + rest if cut else text
        spans = _spans(text, people)
    if spans and spans[0][0] == len(text) - len(text.lstrip()):  # the very first words: "Caroline, …"
        start, end = spans[0]
        rest = text[end:].lstrip(" ,:;—–-")
        if rest and len(rest.split()) >= 2:
            text = rest[:1].upper() + rest[1:]
    return text


_EVAL = (r"(?:great|awesome|amazing|cool|nice|lovely|beautiful|gorgeous|sweet|tough|hard|rough|wonderful|fantastic|"
         r"incredible|inspiring|impressive|exciting|fun|peaceful|calming|relaxing|stunning|brilliant|perfect|"
         r"special|touching|powerful|scary|sad|terrible|awful|crazy|wild|adorable|cute|neat|epic|fabulous|"
         r"interesting|hilarious|funny|cozy|delicious|magical|meaningful|heartwarming|inspirational|admirable|"
         r"unbelievable|rewarding|intense|stressful|brave|bold|smart|true|right|good|fine|ok(?:ay)?|a blast|"
         r"a bummer|a shame|a pity|a relief|a lot|so much fun|huge|wonderful|unreal|rad|dope|legit|tremendous|"
         r"exhausting|overwhelming|frustrating|heartbreaking|devastating|hard work|great work|a good one)")
_INTENSIFIER = r"(?:so|really|such|very|truly|absolutely|pretty|super|just|totally|quite|a|an|the|most|incredibly|"\
               r"seriously|sooo+|soo|extremely|definitely|certainly|always|also|still)"
_REACTION = tuple(re.compile(pattern, _I) for pattern in (
    # thanks, congratulations, wishes
    r"^(?:thanks|thank you|thx|ty|many thanks|congrats|congratulations|good luck|best of luck|well done|"
    r"happy birthday|cheers|bless you|take care|get well soon|hugs)\b",
    # "That's great news", "That sounds so peaceful and calming", "It must have been tough for you"
    rf"^(?:that|this|it|what)(?:'s|’s| is| was| sounds| sounded| looks| looked| seems| seemed| feels"
    rf"| must (?:have )?be(?:en)?| must be| would be| will be| has been| had to be| can be)\s+"
    rf"(?:{_INTENSIFIER}\s+)*{_EVAL}(?:\s*(?:,|and|&)\s*(?:{_INTENSIFIER}\s+)*{_EVAL})*"
    rf"(?:\s+(?:news|idea|stuff|thing|work|time|job|one|pic|photo|picture|to hear|to see|for you|of you|"
    rf"for (?:both|all) of you|for your family|for them|to me))?\s*[.!…]*$",
    # "They're adorable!", "Those look amazing"
    rf"^(?:they|these|those)(?:'re|’re| are| were| look| looked| sound| seem)\s+(?:{_INTENSIFIER}\s+)*"
    rf"{_EVAL}(?:\s*(?:,|and|&)\s*(?:{_INTENSIFIER}\s+)*{_EVAL})*\s*[.!…]*$",
    # "Nice work!", "Great job!", "So cool!"
    rf"^(?:{_INTENSIFIER}\s+)*{_EVAL}(?:\s+(?:work|job|one|idea|stuff|pic|photo|picture|shot|news|"
    rf"choice|move|call))?\s*[.!…]*$",
    # "You're the best for supporting me"
    r"^you(?:'re|’re| are) (?:the best|a lifesaver|a star|a rockstar|so kind|so sweet|too kind)\b",
    # "What a great idea", "How exciting"
    rf"^(?:what (?:a|an)|how)\s+(?:{_INTENSIFIER}\s+)*{_EVAL}\b.{{0,30}}$",
    # "You're right", "You did amazing", "You look great"
    rf"^you(?:'re|’re| are| were| did| look| looked| sound| have been|'ve been)\s+(?:{_INTENSIFIER}\s+)*"
    rf"(?:{_EVAL}|an inspiration|a star|a rockstar|the best)\b.{{0,24}}$",
    # "Proud of you for starting your own business!", "You must be so excited", "Your support means a lot"
    r"^(?:(?:so|really|super)\s+)?proud of you\b",
    r"^you must (?:be|have been|feel|have felt)\s+(?:(?:so|really|very|super)\s+)*(?:excited|thrilled|proud|"
    r"nervous|stoked|happy|glad|relieved|exhausted|tired|devastated|heartbroken|over the moon)\b",
    r"^your (?:\w+\s+)?(?:support|help|kindness|words|encouragement|friendship)\W+(?:\w+\W+){0,2}?"
    r"means? (?:a lot|so much|the world|everything)\b",
    # "Your group sounds awesome", "That sign looks serious", "Sounds like the parade was an awesome experience"
    rf"^(?:your|that|this|those|these) (?:[\w'’-]+\s+){{0,2}}(?:sounds?|looks?|seems?)\s+"
    rf"(?:like\s+)?(?:{_INTENSIFIER}\s+)*(?:{_EVAL}|serious|scary|delicious)"
    rf"(?:\s+(?:to me|for you|experience|time|idea|one))?\s*[.!…]*$",
    rf"^(?:it |that )?sounds like\b[^:;\d]{{0,60}}\b{_EVAL}\b[^:;\d]*$",
    # "Way to go!", "You've got this", "You're gonna kill it", "You're doing an awesome job"
    r"^(?:way to go|you(?:'ve|’ve| have)? got this|keep (?:it )?up|you(?:'re|’re| are) (?:gonna|going to) "
    r"(?:kill|crush|rock|nail|ace) it|you(?:'re|’re| are) (?:killing|crushing|rocking|nailing|acing) it)\b",
    rf"^you(?:'re|’re| are) doing (?:an? |such an? )?(?:{_INTENSIFIER}\s+)*{_EVAL} (?:job|work)\b",
    # "I'm so happy for you", "I'm proud of you for …", "I'm sorry to hear that", "I hope you're okay"
    r"^i(?:'m|’m| am)\s+(?:(?:so|really|very|super|truly|just)\s+)*(?:happy|glad|proud|sorry|thrilled|"
    r"excited|stoked|delighted|pleased)\s+(?:for you|of you|to hear|you)\b",
    r"^i (?:really |do |truly )?hope (?:you|you're|you’re|your|that you|it all|everything)\b",
    # "Sorry to hear about your job", "Sorry about the setback"
    r"^(?:so |really |very )?sorry (?:to hear|about|for your|for the)\b",
))


_TRAILING_NOTE = re.compile(r"\s*\[[^\[\]]*\]\s*$")  # "[photo attached]", "[edited]": a note on the message
_TRAILING_FACES = re.compile(r"(?:\s*(?:[:;]-?[)(DP]|[\U0001F300-\U0001FAFF\u2600-\u27BF]))+\s*$")  # ":)", "😊"


def is_reaction(sentence: str, participants: Iterable[str] = ()) -> bool:
    """Whether `sentence` only reacts to its listener ("That sounds great", "You're right"), stating nothing
    about anyone's world; interjections and a vocative at either end are read past."""
    people = list(participants)
    text = _TRAILING_FACES.sub("", _TRAILING_NOTE.sub("", without_address(sentence.strip(), people)))
    if any(p.search(text) for p in _REACTION):
        return True
    text = _TRAILING_NOTE.sub("", _past_opening(text, people))
    return bool(text) and any(p.search(text) for p in _REACTION)


def _past_opening(text: str, people: list[str]) -> str:
    """`text` past its opening interjections and a vocative after them ("Wow, Caroline, that looks amazing" →
    "that looks amazing")."""
    text = re.sub(rf"^(?:{_INTERJECTION}\b[\s,!.:;—–-]*)+", "", text, flags=_I).strip()
    for span in reversed(_spans(text, people)):
        if span[0] == 0:
            text = text[span[1]:].lstrip(" ,:;—–-!")
    return text


# a pronoun standing for something said before, as the sentence's subject
_LEANING = re.compile(r"^(?:it|its|it's|it’s|that|that's|that’s|this|these|those|they|they're|they’re|they've|"
                      r"they’ve|they'll|they’ll|them|he|he's|he’s|she|she's|she’s)\b", _I)


def leans_back(sentence: str, participants: Iterable[str] = ()) -> bool:
    """Whether `sentence` opens (past interjections and a vocative) with a pronoun for something said before it
    ("They give me the strength to keep going."): on its own, a reader cannot tell what it is about."""
    people = list(participants)
    return _LEANING.match(_past_opening(without_address(sentence.strip(), people), people)) is not None
