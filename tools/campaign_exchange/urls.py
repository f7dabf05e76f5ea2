from django.urls import path

from tools.campaign_exchange import views

app_name = "campaign_exchange"

urlpatterns = [
    path("import/", views.import_file, name="campaign-import"),
    path("<int:pk>/export.json", views.export_json, name="campaign-export"),
    path("<int:pk>/standings.csv", views.export_standings, name="standings-csv"),
]
