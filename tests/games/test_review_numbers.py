"""A review's numbers in the reader's language, the same on the review page
(server) and in the replay viewer's review panel (browser): "−41,6" in Italian."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from games.reviews.numbers import points_text, signed_points_text, whole_text

ROOT = Path(__file__).resolve().parents[2]
VALUES = [-41.6, 40.2, -2.1875, 21.25, 19.0625, 0.35, -0.04, -0.05, 0.0, 3.0, 1234.5]
LANGUAGES = ["en", "it", "es", "ca", "pl"]

NODE_FORMAT = """
const { formatPoints } = await import(%s);
const { languages, values } = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => done(text));
}));
const out = {};
for (const lang of languages) {
  globalThis.document = { documentElement: { lang } };
  out[lang] = values.map((v) => formatPoints(v));
}
process.stdout.write(JSON.stringify(out));
"""


def test_points_in_italian_and_english():
    with translation.override("it"):
        assert points_text(-41.6) == "\u221241,6"
        assert points_text(40.2) == "40,2"
        assert signed_points_text(2.8) == "+2,8"
        assert signed_points_text(-2.8) == "\u22122,8"
        assert signed_points_text(0.04) == "0,0"
        assert points_text(21.25) == "21,3"  # half away from zero, not truncated
        assert whole_text(-5) == "\u22125"
    with translation.override("en"):
        assert points_text(-41.6) == "\u221241.6"
        assert signed_points_text(-2.1875) == "\u22122.2"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_replay_writes_points_as_the_review_page_does(tmp_path):
    script = tmp_path / "format.mjs"
    module = (ROOT / "static/js/review/numbers.js").as_uri()
    script.write_text(NODE_FORMAT % json.dumps(module))
    done = subprocess.run(
        ["node", str(script)],
        input=json.dumps({"languages": LANGUAGES, "values": VALUES}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    browser = json.loads(done.stdout)
    for lang in LANGUAGES:
        with translation.override(lang):
            server = [points_text(v) for v in VALUES]
        assert browser[lang] == server, lang
    assert browser["it"][:2] == ["\u221241,6", "40,2"]
