"""Static files as served: hashed names, compressed copies, module imports rewritten.

whitenoise's compressed manifest storage gives every file a content-hashed name
(served with a year's caching) and a gzip copy. The pages' scripts are ES modules
that import each other by relative path (``import … from "./tiles.js"``):
Django rewrites those imports to the hashed names too, so a deploy never mixes a
new module with an old one from a browser's cache.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
