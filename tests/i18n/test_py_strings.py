"""No user-facing Python string escapes the translation functions.

An ``ast`` scan of every application module: a string literal (or an f-string)
given as a message to a player (the error types of the services, the socket's
frame errors, form labels, help texts and validation errors, ``messages.*``,
the error texts of JSON answers) must be wrapped in ``gettext``/``ngettext`` (or
their lazy forms), and every translated text must be one literal with named
placeholders. The engine is pure (no Django): its ``IllegalAction`` takes a
template marked with the engine's own ``gettext_noop``, which the extraction
picks up, and the service translates it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "accounts",
    "config",
    "economy",
    "games",
    "leagues",
    "matchmaking",
    "realtime",
)
# The computer players produce no text for people; ``ops`` answers operators'
# probes (health, beacons), not players.
SKIPPED = ("games/bots/",)

TRANSLATORS = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "gettext_noop",
}
MARKER = "gettext_noop"
# The engine's errors: (positional index, keyword) of their template.
ENGINE_ERRORS: dict[str, tuple[int, str]] = {
    "IllegalAction": (0, "template"),
    "InvalidOptions": (1, "template"),
}

# Call name -> (positional index, keyword) of the argument read by a person.
MESSAGE_ARGS: dict[str, tuple[int, str]] = {
    "TableError": (1, "message"),
    "FrameError": (1, "message"),
    "MatchError": (1, "message"),
    "RoomError": (1, "message"),
    "StakeError": (1, "message"),
    "LeagueError": (1, "message"),
    "UploadError": (1, "message"),
    "ValidationError": (0, "message"),
    "add_error": (1, "error"),
    "success": (1, "message"),
    "error": (1, "message"),
    "info": (1, "message"),
    "warning": (1, "message"),
    "debug": (1, "message"),
    "add_message": (2, "message"),
    "message_user": (1, "message"),
}
# ``messages.error(request, …)`` but not ``logger.error("…")``.
MESSAGES_ONLY = {"success", "error", "info", "warning", "debug", "add_message"}
FIELD_KEYWORDS = {"label", "help_text", "empty_label", "verbose_name", "description"}
JSON_KEYS = {"error", "message", "detail"}
POSITIONAL = re.compile(r"%[sdifr]|%\(\)|\{\d*\}")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _owner(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id
    return ""


def _is_prose(text: str) -> bool:
    return any(c.isalpha() for c in text)


def _text_of(n: ast.AST) -> str | None:
    """The written text of a literal or an f-string (``None`` for anything else)."""
    if isinstance(n, ast.Constant) and isinstance(n.value, str):
        return n.value
    if isinstance(n, ast.JoinedStr):
        return "".join(str(v.value) for v in n.values if isinstance(v, ast.Constant))
    return None


def _parts(n: ast.AST) -> list[ast.AST]:
    """The sub-expressions of ``n`` that may carry the text a person reads.

    A translation call is done; another call's arguments are not the text
    itself (a format name, a join's items) but ``"...".format()``'s receiver
    is; dictionary keys are placeholder names; conditions and subscripts are
    not shown.
    """
    if isinstance(n, ast.Call):
        if _name(n.func) not in TRANSLATORS and isinstance(n.func, ast.Attribute):
            return [n.func.value]
        return []
    if isinstance(n, ast.Dict):
        return [v for v in n.values if v is not None]
    if isinstance(n, ast.IfExp):
        return [n.body, n.orelse]
    if isinstance(n, ast.Compare | ast.Subscript):
        return []
    return list(ast.iter_child_nodes(n))


def _bare_literals(node: ast.AST) -> list[ast.AST]:
    """String literals with letters in ``node`` that no translation call wraps."""
    found: list[ast.AST] = []
    pending = [node]
    while pending:
        n = pending.pop()
        text = _text_of(n)
        if text is not None:
            if _is_prose(text):
                found.append(n)
            continue
        pending.extend(_parts(n))
    return found


def _literal_text(node: ast.expr) -> bool:
    """Whether ``node`` is text written in place: a literal, an f-string, or a
    text built from them (anything else names a marked template)."""
    if isinstance(node, ast.Constant | ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _literal_text(node.left) or _literal_text(node.right)
    if isinstance(node, ast.IfExp):
        return _literal_text(node.body) or _literal_text(node.orelse)
    if isinstance(node, ast.Call) and _name(node.func) == MARKER:
        return not (len(node.args) == 1 and isinstance(node.args[0], ast.Constant))
    return False


def _message_arg(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if len(call.args) > index and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return None


def _check_translator_call(call: ast.Call, out: list[tuple[int, str]]) -> None:
    """A translated text is one literal with named placeholders only."""
    name = _name(call.func)
    texts = call.args[1:3] if name.startswith(("pgettext", "npgettext")) else None
    if texts is None:
        texts = call.args[:2] if name.startswith("ngettext") else call.args[:1]
    for arg in texts:
        if isinstance(arg, ast.JoinedStr | ast.BinOp):
            out.append((call.lineno, f"{name}() of a text built in place"))
        elif not isinstance(arg, ast.Constant) or not isinstance(arg.value, str):
            continue  # a value marked for translation where it was written
        elif POSITIONAL.search(arg.value):
            out.append((call.lineno, f"{name}() uses a positional placeholder"))


def _check_engine_error(
    call: ast.Call, name: str, engine: bool, out: list[tuple[int, str]]
) -> None:
    arg = _message_arg(call, *ENGINE_ERRORS[name])
    if arg is None:
        return
    if engine and _literal_text(arg):
        out.append((call.lineno, f"{name} without a gettext_noop text"))
    elif _bare_literals(arg):
        out.append((call.lineno, f"{name} with an unmarked text"))


def _check_message_call(call: ast.Call, name: str, out: list[tuple[int, str]]) -> None:
    if name in MESSAGES_ONLY and _owner(call.func) != "messages":
        return
    arg = _message_arg(call, *MESSAGE_ARGS[name])
    if arg is not None and _bare_literals(arg):
        out.append((call.lineno, f"bare text given to {name}()"))


def _check_json(call: ast.Call, out: list[tuple[int, str]]) -> None:
    if not call.args or not isinstance(call.args[0], ast.Dict):
        return
    for key, value in zip(call.args[0].keys, call.args[0].values, strict=True):
        if (
            isinstance(key, ast.Constant)
            and key.value in JSON_KEYS
            and _bare_literals(value)
        ):
            out.append((call.lineno, f"bare {key.value!r} in JsonResponse"))


def _check_field_keywords(call: ast.Call, out: list[tuple[int, str]]) -> None:
    if _owner(call.func) == "models":
        return  # a model field's help text is a note for developers
    for kw in call.keywords:
        if kw.arg in FIELD_KEYWORDS and _bare_literals(kw.value):
            out.append((call.lineno, f"bare {kw.arg}="))
        if (
            kw.arg == "error_messages"
            and isinstance(kw.value, ast.Dict)
            and any(_bare_literals(v) for v in kw.value.values)
        ):
            out.append((call.lineno, "bare error_messages"))


def scan_source(source: str, *, engine: bool = False) -> list[tuple[int, str]]:
    """(line, what) for every user-facing literal outside the translation calls.

    With ``engine``, ``IllegalAction`` and ``InvalidOptions`` must be given a
    ``gettext_noop`` literal (or a table of them): the engine has no Django, the
    service translates the template.
    """
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in TRANSLATORS:
            _check_translator_call(node, out)
            continue
        if name in ENGINE_ERRORS:
            _check_engine_error(node, name, engine, out)
            continue
        if name in MESSAGE_ARGS:
            _check_message_call(node, name, out)
        if name == "JsonResponse":
            _check_json(node, out)
        _check_field_keywords(node, out)
    return sorted(out)


def _modules() -> list[Path]:
    paths: list[Path] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or rel.startswith(SKIPPED):
                continue
            paths.append(path)
    return paths


def scan_tree() -> list[Finding]:
    findings: list[Finding] = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        engine = rel.startswith("games/engine/")
        for line, what in scan_source(path.read_text(encoding="utf-8"), engine=engine):
            findings.append(Finding(rel, line, what))
    return findings


# ---------------------------------------------------------------- the scanner


@pytest.mark.parametrize(
    "source",
    [
        'raise TableError("no_table", "There is no such table.")',
        'raise FrameError("too_large", f"Frames are limited to {limit} bytes.")',
        'raise MatchError(code="busy", message="You are already searching.")',
        'raise RoomError("full", "The room is full" + suffix)',
        'raise StakeError("poor", "Not enough coins." if poor else gettext("No."))',
        'raise ValidationError("Pick a speed.")',
        'raise forms.ValidationError(message="Pick a speed.")',
        'self.add_error("speed", "Pick a speed.")',
        'messages.success(request, "Saved.")',
        'messages.add_message(request, messages.INFO, "Saved.")',
        'name = forms.CharField(label="Room name")',
        'name = forms.CharField(help_text=f"Up to {n} letters")',
        'f = forms.IntegerField(error_messages={"min_value": "Too small."})',
        'return JsonResponse({"error": "Sign in first."}, status=403)',
        'gettext(f"Frames are limited to {limit} bytes.")',
        'gettext("Frames are limited to %s bytes.") % limit',
        'ngettext("%(n)s coin", "{} coins", n)',
        'gettext("Hello " + name)',
        'raise TableError("x", "Seat {} is taken.".format(n))',
    ],
)
def test_the_scanner_flags_a_bare_message(source: str) -> None:
    assert scan_source(source), source


def test_the_scanner_asks_the_engine_for_marked_templates() -> None:
    assert scan_source('raise IllegalAction("The stock is empty.")', engine=True)
    assert scan_source('raise IllegalAction(f"You do not hold {name}.")', engine=True)
    assert scan_source("raise IllegalAction(gettext_noop(text))", engine=True)
    assert scan_source(
        'raise InvalidOptions("seats", f"{n} players is too many.")', engine=True
    )
    assert scan_source(
        'raise InvalidOptions("seats", "Too many." if n else "Too few.")',
        engine=True,
    )
    assert not scan_source(
        'raise InvalidOptions("seats", gettext_noop("Too many players."))',
        engine=True,
    )
    # A table of marked templates, looked up by key.
    assert not scan_source("raise IllegalAction(_NOT_NOW[kind])", engine=True)
    assert not scan_source(
        'raise IllegalAction(gettext_noop("You do not hold the %(tile)s."),'
        " tile=tile_name(t))",
        engine=True,
    )


@pytest.mark.parametrize(
    "source",
    [
        'raise TableError("no_table", gettext("There is no such table."))',
        'raise FrameError("too_large", gettext("Frames are limited to %(limit)s'
        ' bytes.") % {"limit": limit})',
        'raise RoomError("full", message)',
        'messages.success(request, _("Saved."))',
        'logger.error("table %s failed", table_id)',
        'logger.warning("Refused a frame")',
        'name = forms.CharField(label=_("Room name"), help_text=_("Up to 20."))',
        'return JsonResponse({"code": "no_table", "message": gettext("No.")})',
        'raise ValidationError(gettext("Pick %(n)s.") % {"n": n}, code="x")',
        'ngettext("%(n)s coin", "%(n)s coins", n) % {"n": n}',
        'raise TableError("bad", ", ".join(names))',
        'options = models.JSONField(help_text="engine Options.to_dict()")',
        'messages.success(request, _("Until %(end)s.") % {"end": date_format(end,'
        ' "SHORT_DATETIME_FORMAT")})',
    ],
)
def test_the_scanner_passes_translated_or_machine_text(source: str) -> None:
    assert scan_source(source) == [], source


# ---------------------------------------------------------------- the code base


def test_every_user_facing_python_string_is_translated() -> None:
    findings = scan_tree()
    assert findings == [], "\n" + "\n".join(str(f) for f in findings)


def test_the_scan_covers_the_modules_that_speak_to_players() -> None:
    scanned = {p.relative_to(ROOT).as_posix() for p in _modules()}
    for module in (
        "games/services/creating.py",
        "games/services/seats.py",
        "games/services/acting.py",
        "games/engine/rules.py",
        "games/engine/actions.py",
        "realtime/frames.py",
        "matchmaking/rooms/services.py",
        "matchmaking/stakes/services.py",
        "economy/views.py",
    ):
        assert module in scanned
