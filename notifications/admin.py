from django.contrib import admin

from notifications.models import Delivery, Event


class DeliveryInline(admin.TabularInline):
    model = Delivery
    extra = 0
    readonly_fields = ("channel", "user", "status", "attempts", "next_attempt_at", "last_error", "delivered_at")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "campaign", "kind", "text", "expanded_at")
    list_filter = ("kind",)
    readonly_fields = ("campaign", "kind", "text", "path", "created_at", "expanded_at")
    inlines = [DeliveryInline]
