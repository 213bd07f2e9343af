"""Every cursor is closed by the code that opened it, in its own thread.

A cursor left to the garbage collector is finalised by whichever thread collects
it: on SQLite that thread then waits for the connection of the thread that owned
the cursor, and if that thread waits in the busy handler for a lock the collector's
thread holds, both wait for ever (seen wedging the embedded default). So a
``cursor()`` or ``prepared_cursor()`` call is only ever the item of a ``with``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPENERS = {"cursor", "prepared_cursor"}
SKIPPED = {".venv", "node_modules", "staticfiles", ".git"}


def _opener(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in OPENERS


def unmanaged_cursors(source: str) -> list[int]:
    """Lines that open a cursor outside a ``with`` item (or a ``return``, which
    hands it to a caller's ``with``)."""
    tree = ast.parse(source)
    managed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.With | ast.AsyncWith):
            managed.update(id(item.context_expr) for item in node.items)
        elif isinstance(node, ast.Return) and node.value is not None:
            managed.add(id(node.value))
    return [
        node.lineno
        for node in ast.walk(tree)
        if _opener(node) and id(node) not in managed
    ]


def python_files() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED.intersection(path.relative_to(ROOT).parts)
    ]


def test_the_check_finds_a_cursor_left_open():
    source = "def f(connection):\n    c = connection.cursor()\n    c.execute('x')\n"
    assert unmanaged_cursors(source) == [2]
    closed = "def f(connection):\n    with connection.cursor() as c:\n        pass\n"
    assert unmanaged_cursors(closed) == []


def test_no_cursor_is_left_to_the_garbage_collector():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in python_files()
        if (lines := unmanaged_cursors(path.read_text()))
    }
    assert found == {}
