from django.contrib import admin

from postbattle.models import Application, Sequence


class ApplicationInline(admin.StackedInline):
    model = Application
    extra = 0
    readonly_fields = ["applied_by", "applied_at", "undo", "reverted_by", "reverted_at"]


@admin.register(Sequence)
class SequenceAdmin(admin.ModelAdmin):
    list_display = ["battle", "gang", "run", "state", "step", "created_at"]
    list_filter = ["state", "edition"]
    raw_id_fields = ["battle", "gang", "started_by"]
    inlines = [ApplicationInline]
