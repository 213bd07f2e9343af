"""The keyboard's focus ring reads at 3:1 or more against every surface it is drawn
on (WCAG 2.1, 1.4.11 non-text contrast): the light pages, the dark bar, the felt."""

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[2] / "static" / "css"


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def variable(css: str, name: str, selector: str = ":root") -> str:
    block = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert block, selector
    value = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", block.group(1))
    assert value, (selector, name)
    return value.group(1)


def test_the_focus_ring_stands_out_on_light_and_dark_surfaces():
    css = (CSS / "site.css").read_text()
    ring = variable(css, "focus-ring")
    for surface in ("paper", "accent"):
        assert contrast(ring, variable(css, surface)) >= 3, surface
    assert contrast(ring, "#ffffff") >= 3
    dark_ring = variable(css, "focus-ring", ".topbar, .board, .clock")
    for surface in ("bg", "felt"):
        assert contrast(dark_ring, variable(css, surface)) >= 3, surface
    # Every focus outline is drawn in the ring's colour, none in a fixed one.
    for sheet in CSS.glob("*.css"):
        for rule in re.findall(r":focus-visible\s*\{([^}]*)\}", sheet.read_text()):
            assert "#" not in rule, (sheet.name, rule)
