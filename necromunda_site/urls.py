from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("tools.urls")),
    path("", include("core.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("content/", include("content.urls")),
    path("gangs/", include("gangs.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("campaigns/", include("tools.campaign_exchange.urls")),
    path("post-battle/", include("postbattle.urls")),
    path("battles/", include("battles.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("sharing.urls")),
    path("admin/", admin.site.urls),
]
