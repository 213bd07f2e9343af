"""Texts for players from an engine that has no Django: templates to translate.

The engine cannot call ``gettext``. It writes each text as an English template
with named placeholders, marked with ``gettext_noop`` below: Django's
``makemessages`` passes ``--keyword=gettext_noop`` to xgettext, so the templates
land in the catalog. A ``Text`` holds the template and its parameters; a
parameter may itself be a ``Text`` (a tile's or an end's name), so every part a
player reads is translated. The caller that shows the text renders it with its
translation function: ``text.render(gettext)``; ``str(text)`` is the English.

A word with two meanings in English ("Draw" the game, "Draw" from the stock) is
marked with its context, ``pgettext_noop(context, template)`` (the project's
``makemessages`` passes ``--keyword=pgettext_noop:1c,2``), and its ``Text`` carries
the context: rendered, it asks the catalog for the context's entry, as Django's
``pgettext`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Union

from games.engine.tiles import IS_DOUBLE, TILE_HI, TILE_LO

DASH = "\u2013"  # as players write a tile: 4–6
Param = Union[str, int, "Text"]


# How gettext catalogs key an entry with a context: the context, this, the msgid.
CONTEXT_SEPARATOR = "\x04"


def gettext_noop(template: str) -> str:
    """Mark ``template`` for extraction; the text is translated where it is shown."""
    return template


def pgettext_noop(context: str, template: str) -> str:
    """Mark ``template`` for extraction in ``context``; where it is shown it is
    translated in the same context (``text_in``, Django's ``pgettext``)."""
    return template


def _same(template: str) -> str:
    return template


@dataclass(frozen=True, slots=True)
class Text:
    """An English template with named placeholders and the values that fill it."""

    template: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))
    context: str = ""

    def render(self, translate: Callable[[str], str] = _same) -> str:
        """The text in the language of ``translate`` (English by default)."""
        values = {
            key: value.render(translate) if isinstance(value, Text) else value
            for key, value in self.params.items()
        }
        if not self.context:
            return translate(self.template) % values
        said = translate(f"{self.context}{CONTEXT_SEPARATOR}{self.template}")
        if CONTEXT_SEPARATOR in said:  # no entry in that context: the English
            said = self.template
        return said % values

    def __str__(self) -> str:
        return self.render()


def text(template: str, **params: Param) -> Text:
    """A ``Text`` from a template marked with ``gettext_noop`` and its values."""
    return Text(template, MappingProxyType(params))


def text_in(context: str, template: str, **params: Param) -> Text:
    """A ``Text`` from a template marked with ``pgettext_noop(context, …)``."""
    return Text(template, MappingProxyType(params), context)


def text_list(items: Sequence[Param]) -> Text:
    """Several values, each rendered in the caller's language, joined by commas.

    Its template is only placeholders and commas, so no catalog holds it and every
    language renders it as it stands.
    """
    keys = [f"item{i}" for i in range(len(items))]
    template = ", ".join(f"%({key})s" for key in keys)
    return Text(template, MappingProxyType(dict(zip(keys, items, strict=True))))


DOUBLE_NAMES: tuple[str, ...] = (
    gettext_noop("double blank"),
    gettext_noop("double one"),
    gettext_noop("double two"),
    gettext_noop("double three"),
    gettext_noop("double four"),
    gettext_noop("double five"),
    gettext_noop("double six"),
    gettext_noop("double seven"),
    gettext_noop("double eight"),
    gettext_noop("double nine"),
    gettext_noop("double ten"),
    gettext_noop("double eleven"),
    gettext_noop("double twelve"),
)


def tile_name(t: int) -> Param:
    """How a player names tile ``t``: "double six", or its halves "4–6"."""
    lo, hi = TILE_LO[t], TILE_HI[t]
    if IS_DOUBLE[t]:
        return text(DOUBLE_NAMES[lo])
    return f"{lo}{DASH}{hi}"


_END_NAMES: dict[str, str] = {
    "left": gettext_noop("left end"),
    "right": gettext_noop("right end"),
    "n": gettext_noop("north arm"),
    "e": gettext_noop("east arm"),
    "s": gettext_noop("south arm"),
    "w": gettext_noop("west arm"),
}


def end_name(end: str) -> Text:
    """How a player names an end: "left end", "north arm", "left side of the
    double five" (the arms a branching double starts, ids ``"x-x:l"``/``"x-x:r"``).

    The opening has no end to name: its messages say "in the middle".
    """
    if end in _END_NAMES:
        return text(_END_NAMES[end])
    double, _, side = end.partition(":")
    halves = double.split("-")
    if len(halves) == 2 and halves[0] == halves[1] and halves[0].isdigit():
        pips = int(halves[0])
        if pips < len(DOUBLE_NAMES):
            name = text(DOUBLE_NAMES[pips])
            if side == "l":
                return text(gettext_noop("left side of the %(tile)s"), tile=name)
            return text(gettext_noop("right side of the %(tile)s"), tile=name)
    return text(gettext_noop("that end"))
