"""The free-text filter: insults and slurs in the site's five languages, masked.

A line is matched in a folded form (``text_normal``), so that the usual disguises
do not slip through:

* Unicode compatibility forms and case: NFKD then casefold (``ＦＵＣＫ``, ``𝐟𝐮𝐜𝐤``
  and ``Fuck`` are ``fuck``), accents and other combining marks dropped (``putà`` is
  ``puta``);
* invisible characters dropped: format characters (zero-width space, joiners,
  soft hyphen, bidi marks, tags), variation selectors and blank letters such as the
  Hangul filler (a zero-width space inside ``fuck`` hides nothing);
* letters of other scripts that look like Latin ones read as those (Cyrillic
  ``а е о р с у х і ѕ ј к м т в н``, Greek ``ο α ε ι κ ν ρ τ υ χ``: ``сunt`` with a
  Cyrillic ``с`` is ``cunt``);
* digits and symbols typed for a letter (``sh1t``, ``@sshole``, ``$hit``, ``c4zzo``)
  match that letter inside a blocked word only: elsewhere they stay what they are,
  so ``fuck!`` still ends at its ``k``;
* spaced-out letters: three or more single characters between separators
  (``f u c k``, ``f.u.c.k``, ``s-h-1-t``) are read once more joined up.

Blocked words are matched as whole words. The roots of ``INSIDE_WORDS`` are also
caught inside longer words (``motherfucker``, ``shithead``, ``wyjebać``): they are
the insults of four letters or more that no ordinary word of the five languages
holds, and ``INNOCENT`` lists the few ordinary words that hold one all the same
(``Scunthorpe``, ``shitake``). The short or common ones stay whole-word only, as
they sit inside ordinary words: ``puta`` in ``computadora`` and ``diputado``,
``cipa`` in ``municipal``, ``coño`` (``cono``) in ``conocer``, ``debil`` in
``debilidad``, ``dick`` in ``Dickens``, ``retard`` in ``retardant``.

A match (for a root, the whole word holding it) is masked in the line as typed:
every character from its first to its last, spaces aside, becomes an asterisk.
A short list of the common words: it keeps the ordinary out of friend rooms;
reports catch the rest, and the staff read a reported line in its folded form
too (``ChatLine.normal``).
"""

from __future__ import annotations

import re
import unicodedata

BLOCKED: dict[str, tuple[str, ...]] = {
    "en": (
        "fuck",
        "fucking",
        "shit",
        "bitch",
        "bastard",
        "asshole",
        "cunt",
        "dick",
        "retard",
        "whore",
        "slut",
    ),
    "es": (
        "puta",
        "puto",
        "mierda",
        "cabron",
        "gilipollas",
        "joder",
        "coño",
        "pendejo",
        "maricon",
        "zorra",
        "imbecil",
    ),
    "ca": (
        "merda",
        "puta",
        "fill de puta",
        "cabro",
        "collons",
        "malparit",
        "gilipolles",
        "imbecil",
    ),
    "pl": (
        "kurwa",
        "chuj",
        "pierdol",
        "pierdolony",
        "jebac",
        "skurwysyn",
        "cipa",
        "dziwka",
        "debil",
        "spierdalaj",
    ),
    "it": (
        "cazzo",
        "stronzo",
        "vaffanculo",
        "puttana",
        "merda",
        "coglione",
        "troia",
        "bastardo",
        "minchia",
    ),
}


# Roots also caught inside a longer word (see the module's docstring).
INSIDE_WORDS = frozenset(
    {
        "fuck",
        "shit",
        "bitch",
        "asshole",
        "cunt",
        "whore",
        "slut",
        "bastard",
        "mierda",
        "cabron",
        "gilipollas",
        "pendejo",
        "maricon",
        "malparit",
        "gilipolles",
        "collons",
        "kurwa",
        "skurwysyn",
        "pierdol",
        "jebac",
        "dziwka",
        "spierdalaj",
        "cazzo",
        "stronzo",
        "vaffanculo",
        "puttana",
        "coglione",
        "minchia",
    }
)

# Ordinary words holding a root of ``INSIDE_WORDS``, folded: a root found where one
# of these stands is left alone (a stem covers its forms: ``cazzott`` the Italian
# punch, ``cazzotto``, ``scazzottata``).
INNOCENT = (
    "scunthorp",
    "shitak",
    "shiitak",
    "mishit",
    "cushit",
    "shittim",
    "cazzott",
)

# Characters that show nothing but are neither format characters nor marks.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Non-Latin letters (after casefold) that look like a Latin one.
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "н": "h",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "с": "c",
        "ѕ": "s",
        "т": "t",
        "у": "y",
        "ԝ": "w",
        "х": "x",
        "ԁ": "d",
        "ɡ": "g",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        # Latin letters that read as another
        "ı": "i",
        "ɩ": "i",
        "ſ": "s",
    }
)
# Digits and symbols typed for a letter, matched as it inside a blocked word.
_STAND_INS = {
    "a": "4@",
    "b": "8",
    "e": "3€",
    "g": "9",
    "i": "1!|",
    "l": "1|",
    "o": "0",
    "s": "5$",
    "t": "7+",
}
# What may stand between spaced-out letters.
_SEPARATORS = "\\s.,:;_*/\\\\~·'\"\\-"
_SPACED = re.compile(
    rf"(?<![^{_SEPARATORS}])[^{_SEPARATORS}]"
    rf"(?:[{_SEPARATORS}]+[^{_SEPARATORS}]){{2,}}(?![^{_SEPARATORS}])"
)
_SEPARATOR = re.compile(rf"[{_SEPARATORS}]")
_LETTER = re.compile(r"[^\W_]")
_SYMBOLS = frozenset(c for c in "".join(_STAND_INS.values()) if not c.isalnum())


def _fold_char(char: str) -> str:
    """One character as it is matched: none, one or several."""
    if char in _BLANK_LETTERS:
        return ""
    folded = unicodedata.normalize(
        "NFKD", unicodedata.normalize("NFKD", char).casefold()
    )
    return "".join(
        c for c in folded if unicodedata.category(c) not in ("Mn", "Me", "Cf")
    ).translate(_LOOKALIKES)


# A folded line: its characters, each with the index of the typed one it came from.
_Folded = list[tuple[str, int]]


def _fold(text: str) -> _Folded:
    return [(c, i) for i, char in enumerate(text) for c in _fold_char(char)]


def _joined(folded: _Folded) -> _Folded:
    """``folded`` with the separators between spaced-out letters removed."""
    line = "".join(c for c, _ in folded)
    dropped: set[int] = set()
    for run in _SPACED.finditer(line):
        dropped.update(
            run.start() + sep.start() for sep in _SEPARATOR.finditer(run.group())
        )
    return [pair for at, pair in enumerate(folded) if at not in dropped]


def text_normal(text: str) -> str:
    """``text`` folded as the filter reads it (case, accents, invisible characters
    and look-alike letters), for the staff who read a reported line."""
    return "".join(c for c, _ in _fold(text))


def _letters(word: str) -> str:
    """A pattern for ``word`` (folded) taking each letter's stand-ins too."""
    out = []
    for char in word:
        if char.isspace():
            out.append(r"\s+")
        elif char in _STAND_INS:
            out.append("[" + re.escape(char + _STAND_INS[char]) + "]")
        else:
            out.append(re.escape(char))
    return "".join(out)


def _alternatives(words: set[str]) -> str:
    return "|".join(_letters(w) for w in sorted(words, key=len, reverse=True))


_WHOLE = re.compile(
    r"(?<![^\W_])(?:"
    + _alternatives({text_normal(w) for words in BLOCKED.values() for w in words})
    + r")(?![^\W_])"
)
_INSIDE = re.compile(_alternatives({text_normal(w) for w in INSIDE_WORDS}))


def _word_around(line: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the word that holds ``line[start:end]``: letters and digits,
    and a stand-in symbol between two of them (``fuck!`` ends at the ``k``)."""

    def joins(at: int, beyond: int) -> bool:
        return bool(_LETTER.match(line[at])) or (
            line[at] in _SYMBOLS
            and 0 <= beyond < len(line)
            and bool(_LETTER.match(line[beyond]))
        )

    while start > 0 and joins(start - 1, start - 2):
        start -= 1
    while end < len(line) and joins(end, end + 1):
        end += 1
    return start, end


def _innocent(word: str, start: int, end: int) -> bool:
    """Whether ``word[start:end]`` stands inside one of the ``INNOCENT`` words."""
    for stem in INNOCENT:
        at = word.find(stem)
        while at != -1:
            if at <= start and end <= at + len(stem):
                return True
            at = word.find(stem, at + 1)
    return False


def _found(folded: _Folded) -> list[tuple[int, int]]:
    """The typed characters' spans (first, last) of each blocked word in ``folded``:
    a whole word, or the whole of a longer word holding a root."""
    line = "".join(c for c, _ in folded)
    spans = [(m.start(), m.end()) for m in _WHOLE.finditer(line)]
    for root in _INSIDE.finditer(line):
        first, last = _word_around(line, root.start(), root.end())
        word = line[first:last]
        if not _innocent(word, root.start() - first, root.end() - first):
            spans.append((first, last))
    return [(folded[start][1], folded[end - 1][1]) for start, end in spans]


def text_clean(text: str) -> str:
    """``text`` with every blocked word masked."""
    folded = _fold(text)
    chars = list(text)
    for first, last in _found(folded) + _found(_joined(folded)):
        for i in range(first, last + 1):
            if not chars[i].isspace():
                chars[i] = "*"
    return "".join(chars)
