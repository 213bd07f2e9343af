"""The weekly league: points, divisions and rollover."""
