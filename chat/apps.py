from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.relay import relay_register
        from chat.services import chat_frame

        relay_register("chat", chat_frame)
