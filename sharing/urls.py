from django.urls import path

from sharing import views

app_name = "sharing"

urlpatterns = [
    path("share/gangs/<int:pk>/", views.gang_links, name="gang-links"),
    path("share/campaigns/<int:pk>/", views.campaign_links, name="campaign-links"),
    path("share/revoke/<str:token>/", views.link_revoke, name="link-revoke"),
    path("shared/<str:token>/", views.shared, name="shared"),
]
