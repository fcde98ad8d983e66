from django.apps import AppConfig


class ExtensionConfig(AppConfig):
    name = "extension"
    default_auto_field = "django.db.models.BigAutoField"
