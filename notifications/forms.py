"""Notification forms: validation only (the webhook's address is checked by the service)."""

from django import forms


class WebhookForm(forms.Form):
    url = forms.CharField(
        label="Discord webhook", max_length=500, required=False,
        help_text="From the channel's settings (Integrations, Webhooks). Leave empty to stop posting.",
        widget=forms.URLInput(attrs={"autocomplete": "off", "placeholder": "https://discord.com/api/webhooks/..."}),
    )  # fmt: skip


class MailChoiceForm(forms.Form):
    campaign_events = forms.BooleanField(
        label="Mail me my campaigns' events", required=False,
        help_text="Challenges, battle reports and confirmations, new cycles, post-battle sequences and captives, "
        "in every campaign you play or arbitrate.",
    )  # fmt: skip
