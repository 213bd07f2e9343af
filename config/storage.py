"""Static files as served: hashed names, compressed copies, module imports rewritten,
scripts without their comments.

whitenoise's compressed manifest storage gives every file a content-hashed name
(served with a year's caching) and a gzip copy. The pages' scripts are ES modules
that import each other by relative path (``import … from "./tiles.js"``):
Django rewrites those imports to the hashed names too, so a deploy never mixes a
new module with an old one from a browser's cache.

Collected scripts lose their comment lines, blank lines and indentation
(``js_strip``): a quarter of their bytes on the wire, gzip included (the table
page's first visit, ``bench/page_cost.py --show``). The source files keep them;
``STATIC_MANIFEST=false`` serves those. A hashed name is the source's hash: the
same source always strips to the same script.

Files under ``vendor/`` (Pyodide, fetched by ``make offline-runtime``) are served
as published: hashed copies are made, but neither stripped nor rewritten. Their
``import("functools")`` is Python's, not a file to hash, and they load each other
by their plain names from one folder.

Those plain names are asked for by address, so ``StaticMiddleware`` serves a
collected file before the finders' source file of the same name: the collected
one has its gzip copy (Pyodide's WebAssembly: 8.6 MB as published, 2.8 MB
gzipped). Where nothing was collected (the tests, a checkout before
``collectstatic``) the finders' files are served as before.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.files.base import ContentFile
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

_BLOCK_END = re.compile(r"\*/\s*$")


def js_strip(text: str) -> str:
    """``text`` without whole-line ``//`` comments, block comments that fill their
    lines, blank lines and each line's indentation; line breaks stay, so automatic
    semicolons fall where they did. Unchanged if a line could continue a string
    (an odd count of backticks: a template literal over several lines; a closing
    backslash): those lines' spaces are the string's own."""
    lines = text.split("\n")
    if any(line.count("`") % 2 or line.endswith("\\") for line in lines):
        return text
    kept: list[str] = []
    in_block = False
    for line in lines:
        code = line.strip()
        if in_block:
            in_block = not _BLOCK_END.search(code)
            continue
        if code.startswith("/*"):
            # A block comment from the line's start: dropped with every line up
            # to the one it ends on, if nothing follows it there.
            closed = "*/" in code[2:]
            if closed and not _BLOCK_END.search(code):
                kept.append(code)  # code follows the comment on its line
            else:
                in_block = not closed
            continue
        if code and not code.startswith("//"):
            kept.append(code)
    return "\n".join(kept) + ("\n" if text.endswith("\n") else "")


VERBATIM = "vendor/"


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def _post_process(
        self, paths: Any, adjustable_paths: list[str], hashed_files: Any
    ) -> Any:
        adjustable = [p for p in adjustable_paths if not p.startswith(VERBATIM)]
        for name, hashed, processed, substituted in super()._post_process(
            paths, adjustable, hashed_files
        ):
            # Nothing is substituted in a verbatim file: never another pass for it.
            verbatim = name.startswith(VERBATIM)
            yield name, hashed, processed, substituted and not verbatim

    def _save(self, name: str, content: Any) -> str:
        if name.endswith(".js") and not name.startswith(VERBATIM):
            content.seek(0)  # hashing the name may have read it already
            text = content.read().decode("utf-8")
            content = ContentFile(js_strip(text).encode("utf-8"))
        return str(super()._save(name, content))


class StaticMiddleware(WhiteNoiseMiddleware):
    """whitenoise, serving a file collected under ``STATIC_ROOT`` rather than the
    finders' source copy of the same name (see above)."""

    def add_files_from_finders(self) -> None:
        collected = dict(self.files)
        super().add_files_from_finders()
        self.files.update(collected)
