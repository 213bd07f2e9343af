"""Static files by their plain names: a collected file (with its gzip copy) is
served before the finders' source file of the same name; a file only the finders
have is served as before (config.storage.StaticMiddleware)."""

from __future__ import annotations

import gzip
from pathlib import Path

from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config.storage import StaticMiddleware


def test_a_collected_file_and_its_gzip_copy_come_before_the_source(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    (source / "vendor").mkdir(parents=True)
    (source / "vendor" / "big.wasm").write_bytes(b"source " * 200)
    (source / "vendor" / "only-here.js").write_bytes(b"export {};\n")
    collected = tmp_path / "collected"
    (collected / "vendor").mkdir(parents=True)
    body = b"collected " * 200
    (collected / "vendor" / "big.wasm").write_bytes(body)
    (collected / "vendor" / "big.wasm.gz").write_bytes(gzip.compress(body))
    with override_settings(
        STATIC_ROOT=str(collected),
        STATICFILES_DIRS=[source],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        WHITENOISE_USE_FINDERS=True,
        WHITENOISE_AUTOREFRESH=False,
    ):
        middleware = StaticMiddleware(lambda request: HttpResponse(status=404))
        ask = RequestFactory()
        zipped = middleware(
            ask.get("/static/vendor/big.wasm", HTTP_ACCEPT_ENCODING="gzip")
        )
        assert zipped.status_code == 200
        assert zipped["Content-Encoding"] == "gzip"
        assert gzip.decompress(b"".join(zipped.streaming_content)) == body
        plain = middleware(ask.get("/static/vendor/big.wasm"))
        assert b"".join(plain.streaming_content) == body
        only = middleware(ask.get("/static/vendor/only-here.js"))
        assert only.status_code == 200
        assert b"".join(only.streaming_content) == b"export {};\n"
