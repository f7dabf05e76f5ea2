from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("mail/", views.mail_choice, name="mail-choice"),
    path("campaigns/<int:pk>/", views.campaign_notifications, name="campaign-notifications"),
    path("campaigns/<int:pk>/retry/", views.deliveries_retry, name="deliveries-retry"),
]
