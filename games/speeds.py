"""How long computer players "think" before they move, by the table's speed option."""

BOT_SPEEDS: dict[str, int] = {
    "slow": 1600,
    "normal": 900,
    "fast": 350,
    "instant": 0,
}
DEFAULT_SPEED = "normal"
