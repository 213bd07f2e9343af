"""A small tokenizer for the page's JavaScript: which literals read like prose.

It reads a module's string and template literals (comments and regular expressions
skipped, a template's substitutions read as code) and notes, for each, the place it
stands in: inside a translation call, a property key, a CSS class or selector, a
text the page shows, or plain code. ``findings`` flags the literals that read like
words for a person outside the translation functions, and translation calls given
anything but string literals (xgettext extracts literals only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# The functions xgettext extracts with Django's djangojs keywords, and which of
# their arguments are texts: (context, msgid, plural).
TRANSLATE: dict[str, tuple[int | None, int, int | None]] = {
    "gettext": (None, 0, None),
    "ngettext": (None, 0, 1),
    "pgettext": (0, 1, None),
    "npgettext": (0, 1, 2),
}

# Places, from the property key, the variable assigned to, or the function called.
CLASS_NAMES = {"class", "className"}
TEXT_SINKS = {
    "text",
    "textContent",
    "innerText",
    "innerHTML",
    "title",
    "aria-label",
    "aria-description",
    "placeholder",
    "alt",
    "label",
    "message",
}
TEXT_CALLS = {
    "alert",
    "confirm",
    "prompt",
    "append",
    "prepend",
    "after",
    "before",
    "replaceChildren",
    "replaceWith",
    "createTextNode",
}
SELECTOR_CALLS = {
    "querySelector",
    "querySelectorAll",
    "closest",
    "matches",
    "matchMedia",
}
TEXT_ATTRIBUTES = {"aria-label", "aria-description", "title", "placeholder", "alt"}
# The pages' element helpers: el(tag, class or attributes, text or children…).
ELEMENT_HELPERS = {"el"}

# Literals with words in them that are not prose, wherever they stand (whole text).
ALLOWED = [
    # The strict-mode directive.
    re.compile(r"use strict"),
    # URLs and paths: no spaces.
    re.compile(r"(/|\./|\.\./|https?://|wss?://)\S*"),
    # MIME types (Accept headers, drag data, DOMParser).
    re.compile(r"[a-z]+/[a-z0-9.+-]+"),
    # KeyboardEvent.key names compared in key handlers.
    re.compile(r"Escape|Enter|Tab|Backspace|Delete|Home|End|PageUp|PageDown"),
]

# What makes a literal read like prose.
PLACEHOLDER = re.compile(r"%\(\w+\)s")
WORDS = re.compile(r"[A-Za-z]\W*\s+\W*[A-Za-z]")
CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
SENTENCE_END = re.compile(r"[A-Za-z][.!?…]\)?$|…")

# After these words a slash starts a regular expression, not a division.
REGEX_AFTER = {
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "yield",
    "await",
}
OPERATOR_CHARS = set("=!<>+-*%&|^~")
COMPARISONS = {"===", "!==", "==", "!="}
NOT_ASSIGNMENTS = COMPARISONS | {"<=", ">="}
COMPARED = re.compile(r"\s*(===|!==|==|!=)")
IDENTIFIER = re.compile(r"[\w$]+")
NUMBER = re.compile(r"[\w.]+")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
CLOSERS = {")": "(", "]": "[", "}": "{"}


@dataclass
class Literal:
    line: int
    text: str  # the static text; a template's substitutions are left out
    place: str  # "translate", "key", "class", "selector", "text" or ""
    call: tuple[str, int] | None = None  # (translation function, argument) if direct


@dataclass
class Finding:
    path: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r} ({self.why})"


@dataclass
class Template:
    start: int
    place: str
    call: tuple[str, int] | None
    parts: list[str] = field(default_factory=list)
    substitutions: int = 0


@dataclass
class Frame:
    """An open bracket: its call, its argument, where the current expression began."""

    kind: str  # "(", "[", "{", "${" or "top"
    callee: str | None = None
    arg: int = 0
    first_arg: str | None = None
    boundary: tuple[str, str | None, int] = ("stmt", None, 0)
    ternary: int = 0
    template: Template | None = None  # for "${": the template it belongs to
    arg_tokens: int = 0  # tokens in the current argument (translation calls)
    arg_literal: bool = True  # the current argument is one string literal so far

    @property
    def translates(self) -> bool:
        return self.kind == "(" and self.callee in TRANSLATE


class Scanner:
    """The literals of a JavaScript module, each with its place."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.stack: list[Frame] = [Frame("top")]
        self.last: tuple[str, str] = ("punct", ";")
        self.literals: list[Literal] = []
        self.bad_calls: list[tuple[int, str]] = []  # translation calls, no literal

    def line(self, pos: int) -> int:
        return self.src.count("\n", 0, pos) + 1

    # --- places

    def place(self) -> str:
        if any(frame.translates for frame in self.stack):
            return "translate"
        if self.compared():
            return ""  # compared with a value (a frame type, a phase): never shown
        top = self.stack[-1]
        if self.is_key(top):
            return "key"
        kind, name, arg = top.boundary
        if kind == "template":
            assert top.template is not None
            return top.template.place
        if kind in ("prop", "assign"):
            return (
                "class" if name in CLASS_NAMES else "text" if name in TEXT_SINKS else ""
            )
        if kind == "arg":
            return self.argument_place(top, name, arg)
        return ""

    def compared(self) -> bool:
        return (
            self.last[0] == "punct" and self.last[1] in COMPARISONS
        ) or COMPARED.match(self.src, self.pos) is not None

    def is_key(self, top: Frame) -> bool:
        after_open = self.last in (("punct", "{"), ("punct", ","))
        return top.kind == "{" and after_open and self.next_char() == ":"

    @staticmethod
    def argument_place(top: Frame, callee: str | None, arg: int) -> str:
        if callee in SELECTOR_CALLS:
            return "selector"
        if callee in TEXT_CALLS:
            return "text"
        if callee == "setAttribute" and arg == 1 and top.first_arg in TEXT_ATTRIBUTES:
            return "text"
        if callee in ELEMENT_HELPERS and arg:
            return "class" if arg == 1 else "text"
        return ""

    def next_char(self) -> str:
        match = re.compile(r"\s*(\S)").match(self.src, self.pos)
        return match.group(1) if match else ""

    def direct_call(self) -> tuple[str, int] | None:
        top = self.stack[-1]
        return (top.callee, top.arg) if top.translates and top.callee else None

    # --- tokens

    def token(self, kind: str, value: str) -> None:
        top = self.stack[-1]
        if top.translates:
            top.arg_tokens += 1
            top.arg_literal = (
                top.arg_literal and top.arg_tokens == 1 and kind == "string"
            )
        self.last = (kind, value)

    def end_argument(self, top: Frame) -> None:
        """A translation call's text argument must be one string literal."""
        if not top.translates or top.callee is None:
            return
        texts = {a for a in TRANSLATE[top.callee] if a is not None}
        if top.arg in texts and not (top.arg_literal and top.arg_tokens):
            self.bad_calls.append((self.line(self.pos), top.callee))

    def push(self, kind: str, callee: str | None = None) -> Frame:
        frame = Frame(kind, callee=callee)
        frame.boundary = ("arg", callee, 0) if kind == "(" else (kind, None, 0)
        self.stack.append(frame)
        return frame

    def run(self) -> list[Literal]:
        while self.pos < len(self.src):
            self.step()
        if len(self.stack) != 1:
            raise SyntaxError(f"unclosed {self.stack[-1].kind!r} at the end")
        return self.literals

    def step(self) -> None:
        src, ch = self.src, self.src[self.pos]
        if ch.isspace():
            self.pos += 1
        elif src.startswith("//", self.pos):
            end = src.find("\n", self.pos)
            self.pos = len(src) if end == -1 else end
        elif src.startswith("/*", self.pos):
            end = src.find("*/", self.pos + 2)
            if end == -1:
                raise SyntaxError("unterminated comment")
            self.pos = end + 2
        elif ch == "/" and self.regex_allowed():
            self.skip_regex()
            self.token("regex", "")
        elif ch in "'\"":
            self.string(ch)
        elif ch == "`":
            self.pos += 1
            template = Template(self.pos - 1, self.place(), self.direct_call())
            self.read_template(template)
        elif ch.isalpha() or ch in "_$":
            self.word(IDENTIFIER, "ident")
        elif ch.isdigit():
            self.word(NUMBER, "num")
        else:
            self.punct(ch)

    def word(self, pattern: re.Pattern[str], kind: str) -> None:
        match = pattern.match(self.src, self.pos)
        assert match is not None
        self.pos = match.end()
        if match.group() == "return":
            self.stack[-1].boundary = ("stmt", None, 0)
        self.token(kind, match.group())

    def string(self, quote: str) -> None:
        start = self.pos
        text = self.read_string(quote)
        self.literals.append(
            Literal(self.line(start), text, self.place(), self.direct_call())
        )
        top = self.stack[-1]
        if top.kind == "(" and top.callee == "setAttribute" and top.arg == 0:
            top.first_arg = text
        self.token("string", text)

    def regex_allowed(self) -> bool:
        kind, value = self.last
        if kind == "ident":
            return value in REGEX_AFTER
        return kind == "punct" and value not in (")", "]", "}")

    def skip_regex(self) -> None:
        src = self.src
        self.pos += 1
        in_class = False
        while self.pos < len(src) and src[self.pos] != "\n":
            ch = src[self.pos]
            if ch == "\\":
                self.pos += 1
            elif ch in "[]":
                in_class = ch == "["
            elif ch == "/" and not in_class:
                self.pos += 1
                while self.pos < len(src) and src[self.pos].isalpha():
                    self.pos += 1  # the flags
                return
            self.pos += 1
        raise SyntaxError(
            f"unterminated regular expression, line {self.line(self.pos)}"
        )

    def read_escape(self) -> str:
        src, at = self.src, self.pos
        ch = src[at + 1]
        if ch == "u" and src[at + 2] == "{":
            end = src.index("}", at)
            code, self.pos = src[at + 3 : end], end + 1
        elif ch in "ux":
            size = 4 if ch == "u" else 2
            code, self.pos = src[at + 2 : at + 2 + size], at + 2 + size
        else:
            self.pos += 2
            return "" if ch == "\n" else ESCAPES.get(ch, ch)
        return chr(int(code, 16))

    def read_string(self, quote: str) -> str:
        src = self.src
        self.pos += 1
        out = []
        while self.pos < len(src) and src[self.pos] != "\n":
            ch = src[self.pos]
            if ch == "\\":
                out.append(self.read_escape())
                continue
            self.pos += 1
            if ch == quote:
                return "".join(out)
            out.append(ch)
        raise SyntaxError(f"unterminated string, line {self.line(self.pos)}")

    def read_template(self, template: Template) -> None:
        """Template text up to its end, or up to its next substitution."""
        src = self.src
        out: list[str] = []
        while self.pos < len(src):
            if src[self.pos] == "\\":
                out.append(self.read_escape())
            elif src[self.pos] == "`":
                self.pos += 1
                template.parts.append("".join(out))
                line = self.line(template.start)
                text = "".join(template.parts)
                self.literals.append(Literal(line, text, template.place, template.call))
                # A template with substitutions is no literal for xgettext.
                self.token("template" if template.substitutions else "string", "")
                return
            elif src.startswith("${", self.pos):
                self.pos += 2
                template.parts.append("".join(out))
                template.substitutions += 1
                self.push("${").template = template
                self.stack[-1].boundary = ("template", None, 0)
                self.last = ("punct", "(")
                return
            else:
                out.append(src[self.pos])
                self.pos += 1
        raise SyntaxError("unterminated template literal")

    # --- punctuation

    def punct(self, ch: str) -> None:
        if ch in "([{":
            self.open(ch)
        elif ch in ")]}":
            self.close(ch)
        elif ch == ",":
            self.comma()
        elif ch == "?":
            self.question()
        elif ch == ":":
            self.colon()
        elif ch in OPERATOR_CHARS:
            self.operator()
        else:
            self.pos += 1
            if ch == ";":
                self.stack[-1].boundary = ("stmt", None, 0)
            self.token("punct", ch)

    def open(self, ch: str) -> None:
        callee = self.last[1] if ch == "(" and self.last[0] == "ident" else None
        self.token("punct", ch)
        self.pos += 1
        self.push(ch, callee)
        self.last = ("punct", ch)

    def close(self, ch: str) -> None:
        top = self.stack[-1]
        if top.kind[-1] != CLOSERS[ch] or top.kind == "top":
            raise SyntaxError(f"unexpected {ch!r}, line {self.line(self.pos)}")
        self.end_argument(top)
        self.stack.pop()
        self.pos += 1
        if top.template is not None:
            self.read_template(top.template)
        else:
            self.token("punct", ch)

    def comma(self) -> None:
        top = self.stack[-1]
        self.end_argument(top)
        self.pos += 1
        top.arg += 1
        top.arg_tokens, top.arg_literal = 0, True
        if top.kind == "(":
            top.boundary = ("arg", top.callee, top.arg)
        else:
            top.boundary = (top.kind, None, 0)
        self.last = ("punct", ",")

    def question(self) -> None:
        src, top = self.src, self.stack[-1]
        following = src[self.pos + 1 : self.pos + 2]
        optional = following == "." and not src[self.pos + 2 : self.pos + 3].isdigit()
        if following == "?" or optional:
            self.pos += 2
            self.token("punct", "?" + following)
            return
        self.pos += 1
        top.ternary += 1
        self.token("punct", "?")

    def colon(self) -> None:
        top = self.stack[-1]
        self.pos += 1
        if top.ternary:
            top.ternary -= 1
        else:
            top.boundary = ("prop", self.last[1], 0)
        self.token("punct", ":")

    def operator(self) -> None:
        src, top = self.src, self.stack[-1]
        end = self.pos
        while end < len(src) and src[end] in OPERATOR_CHARS:
            end += 1
        op = "=>" if src.startswith("=>", self.pos) else src[self.pos : end]
        self.pos += len(op)
        if op == "=>":
            top.boundary = ("stmt", None, 0)
        elif op.endswith("=") and op not in NOT_ASSIGNMENTS:
            target = self.last[1] if self.last[0] == "ident" else None
            top.boundary = ("assign", target, 0)
        self.token("punct", op)


def prose_reason(literal: Literal) -> str | None:
    """Why a literal reads like words for a person, or None."""
    text = PLACEHOLDER.sub("", literal.text).strip()
    if not re.search(r"[A-Za-z]", text):
        return None
    if literal.place in ("translate", "key", "class", "selector"):
        return None
    if any(pattern.fullmatch(text) for pattern in ALLOWED):
        return None
    if literal.place == "text":
        return "shown as text"
    if WORDS.search(text):
        return "words"
    if CAPITALISED.search(text):
        return "a capitalised word"
    if SENTENCE_END.search(text):
        return "a sentence"
    return None


def findings(
    source: str, path: str = "<sample>", *, wrappers: bool = False
) -> list[Finding]:
    """Prose outside the translation functions, and calls given no literal.

    ``wrappers``: the module defining the wrappers, whose calls forward variables.
    """
    scanner = Scanner(source)
    found = [
        Finding(path, lit.line, lit.text, reason)
        for lit in scanner.run()
        if (reason := prose_reason(lit)) is not None
    ]
    if not wrappers:
        found += [
            Finding(path, line, name, "a translation call needs string literals")
            for line, name in scanner.bad_calls
        ]
    return found


def catalog_entries(source: str) -> set[tuple[str | None, str]]:
    """(context, text) of each translation call's literals: what xgettext must see."""
    entries: set[tuple[str | None, str]] = set()
    args: dict[int, str] = {}
    name: str | None = None
    for lit in Scanner(source).run():
        if lit.call is None:
            continue
        # A call's literals come in argument order; argument 0 starts the next call.
        if lit.call[1] == 0 or lit.call[0] != name:
            entries |= _call_entries(name, args)
            name, args = lit.call[0], {}
        args[lit.call[1]] = lit.text
    return entries | _call_entries(name, args)


def _call_entries(
    name: str | None, args: dict[int, str]
) -> set[tuple[str | None, str]]:
    if name is None:
        return set()
    ctx, msgid, plural = TRANSLATE[name]
    context = args.get(ctx) if ctx is not None else None
    return {(context, args[i]) for i in (msgid, plural) if i is not None and i in args}
