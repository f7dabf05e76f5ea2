from django.urls import path

from content import views

app_name = "content"

urlpatterns = [
    path("", views.content_index, name="index"),
    path("<str:edition>/houses/<slug:slug>/", views.house_detail, name="house-detail"),
    path("<str:edition>/equipment/", views.equipment_list, name="equipment-list"),
    path("<str:edition>/equipment/<slug:slug>/", views.equipment_detail, name="equipment-detail"),
    path("<str:edition>/skills/", views.skill_list, name="skill-list"),
    path("<str:edition>/territories/", views.territory_list, name="territory-list"),
]
