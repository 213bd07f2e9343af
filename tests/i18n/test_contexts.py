"""Words of two meanings carry a context wherever the code asks for them.

An English msgid such as "Share" (the verb on a room's button, the noun of a
payout table) or "Draw" (the game, drawing from the stock) is one catalog entry
without a context: every language then reads one meaning in both places. The
strings are extracted as the catalogs are (``makemessages``, in a scratch copy of
the tree) and none of these words may be a bare msgid; each use says its meaning
with ``pgettext`` / ``{% translate … context … %}`` (docs: DESIGN.md, "One word,
two meanings").
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import polib
import pytest

from tests.i18n.test_catalogs import scratch_copy
from tests.support.catalogs import catalog_path

# Each read two ways by the translators of our catalogs (lower case; a plural
# "s" is checked too).
AMBIGUOUS = (
    "share",
    "draw",
    "block",
    "hand",
    "open",
    "entry",
    "stake",
    "set",
    "rating",
    "score",
    "match point",
)


def bare_ambiguous(entries: list[polib.POEntry]) -> list[str]:
    words = {w for word in AMBIGUOUS for w in (word, word + "s")}
    return sorted(
        e.msgid
        for e in entries
        if e.msgctxt is None
        and (e.msgid.strip().lower() in words or "match point" in e.msgid.lower())
    )


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, list[polib.POEntry]]:
    """Every entry the code asks for, per domain, in a fresh catalog."""
    copy = scratch_copy(tmp_path_factory.mktemp("contexts") / "tree")
    shutil.rmtree(copy / "locale")
    (copy / "locale").mkdir()
    found = {}
    for domain in ("django", "djangojs"):
        done = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "makemessages",
                "-d",
                domain,
                "-v0",
                "-l",
                "es",
            ],
            cwd=copy,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        po = polib.pofile(str(catalog_path(copy, "es", domain)))
        found[domain] = [e for e in po if not e.obsolete]
    return found


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_no_word_of_two_meanings_is_a_msgid_without_its_context(extracted, domain):
    assert not bare_ambiguous(extracted[domain])


def test_the_check_sees_a_bare_word():
    """The check itself: a bare "Share" fails, one in its context passes."""
    assert bare_ambiguous([polib.POEntry(msgid="Share")]) == ["Share"]
    assert bare_ambiguous([polib.POEntry(msgid="Stakes")]) == ["Stakes"]
    assert not bare_ambiguous([polib.POEntry(msgid="Share", msgctxt="verb")])
    assert not bare_ambiguous([polib.POEntry(msgid="Share this replay")])


def test_each_sense_has_its_own_context(extracted):
    """The words the players reported come in a context per meaning, and the
    engine's marks (``pgettext_noop``) reach the catalog with theirs."""
    keys = {(e.msgctxt, e.msgid) for d in extracted.values() for e in d}
    for key in [
        ("payout share: part of the pot", "Share"),
        ("verb: share a link", "Share"),
        ("domino game", "Draw"),
        ("domino game", "Block"),
        ("domino game", "Spider"),
        ("draw from the stock", "Draw"),
        ("draw from the stock", "draw"),
        ("domino set", "Set"),
        ("entry fee", "Entry"),
        ("a player's skill rating", "Rating"),
        ("points in a game", "Score"),
    ]:
        assert key in keys, key


def test_an_engine_text_in_a_context_asks_for_the_contexts_entry():
    """The engine has no ``pgettext``: its ``Text`` keys the catalog as gettext
    does (context, \\x04, msgid) and falls back to the English without an entry."""
    from games.engine import VARIANTS
    from games.engine.messages import text

    catalog = {"domino game\x04Draw": "Con robo", "Draw": "Robar"}

    def translate(msgid: str) -> str:
        return catalog.get(msgid, msgid)

    refusal = text(
        "There is no drawing in %(variant)s.", variant=VARIANTS["draw"].title_text()
    )
    assert refusal.render(translate) == "There is no drawing in Con robo."
    assert str(refusal) == "There is no drawing in Draw."
    assert VARIANTS["block"].title_text().render(translate) == "Block"
