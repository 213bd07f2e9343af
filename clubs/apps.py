from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.relay import relay_register
        from clubs.chat import club_chat_frame

        relay_register("club_chat", club_chat_frame)
