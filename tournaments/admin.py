"""The tournaments' admin: each subpackage registers its own models."""

from tournaments.arenas import admin as arenas_admin
from tournaments.sitgo import admin as sitgo_admin
from tournaments.swiss import admin as swiss_admin

__all__ = ["arenas_admin", "sitgo_admin", "swiss_admin"]
