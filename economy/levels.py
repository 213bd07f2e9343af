"""The published level curve: pure arithmetic, no Django.

Level 1 starts at 0 XP and going from level ``n`` to ``n + 1`` costs ``100 × n`` XP, so
level ``L`` starts at ``50 × L × (L − 1)`` XP: 0, 100, 300, 600, 1000, 1500, …
"""

from math import isqrt

XP_STEP = 100


def level_threshold(level: int) -> int:
    """XP at which ``level`` (≥ 1) starts."""
    if level < 1:
        raise ValueError("levels start at 1")
    return XP_STEP * level * (level - 1) // 2


def level_for_xp(xp: int) -> int:
    """The level reached with ``xp`` (≥ 0) experience points."""
    if xp < 0:
        raise ValueError("XP is never negative")
    # Largest L with 50·L·(L−1) ≤ xp, from the quadratic formula, then corrected.
    level = (1 + isqrt(1 + 8 * xp // XP_STEP)) // 2
    while level_threshold(level + 1) <= xp:
        level += 1
    while level_threshold(level) > xp:
        level -= 1
    return level
