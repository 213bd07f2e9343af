"""The tournaments' admin: each subpackage registers its own models."""

from tournaments.arenas import admin as arenas_admin
from tournaments.sitgo import admin as sitgo_admin

__all__ = ["arenas_admin", "sitgo_admin"]
