from django.apps import AppConfig


class FriendsConfig(AppConfig):
    name = "friends"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.nav_counts import nav_count_register
        from friends import receivers  # noqa: F401
        from friends.selectors import requests_waiting

        nav_count_register("friend_request_count", requests_waiting)
