from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self):
        from campaigns import announcements
        from notifications.services import notify

        # The campaign services announce what they did; the outbox writes it in their transaction.
        announcements.listen(notify)
