"""Notification forms: validation only (the webhook's address is checked by the service)."""

from django import forms

from core.forms import GameForm


class WebhookForm(forms.Form):
    url = forms.CharField(
        label="Discord webhook",
        max_length=500,
        required=False,
        help_text="From the channel's settings (Integrations, Webhooks). Leave empty to stop posting.",
        widget=forms.URLInput(attrs={"autocomplete": "off", "placeholder": "https://discord.com/api/webhooks/..."}),
    )


class MailChoiceForm(GameForm):
    changed = "your campaigns"  # a stale choice says what changed (core.forms.GameWords)

    campaign_events = forms.BooleanField(
        label="Mail me my campaigns' events",
        required=False,
        help_text="Challenges, battle reports and confirmations, new cycles, post-battle sequences and captives, "
        "in every campaign you play or arbitrate, but those you tick below.",
    )
    muted = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="No mail from these campaigns",
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["muted"].choices = [(c.pk, c.name) for c in campaigns]
        if not campaigns:
            del self.fields["muted"]
