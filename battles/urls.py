from django.urls import path

from battles import views

app_name = "battles"

urlpatterns = [
    path("", views.battle_list, name="battle-list"),
    path("new/", views.battle_start, name="battle-start"),
    path("new/campaign/<int:battle_id>/", views.battle_start_campaign, name="battle-start-campaign"),
    path("<int:pk>/", views.battle_detail, name="battle-detail"),
    path("<int:pk>/follow/", views.battle_follow, name="battle-follow"),
    path("<int:pk>/act/<slug:kind>/", views.battle_act, name="battle-act"),
    path("<int:pk>/fighters/<int:fighter_pk>/set/", views.fighter_set, name="fighter-set"),
    path("<int:pk>/fighters/<int:fighter_pk>/move/", views.fighter_move, name="fighter-move"),
    path("<int:pk>/fighters/<int:fighter_pk>/group/", views.fighter_group, name="fighter-group"),
    path("<int:pk>/advance/", views.battle_advance, name="battle-advance"),
    path("<int:pk>/priority/", views.battle_priority, name="battle-priority"),
    path("<int:pk>/reinforce/", views.battle_reinforce, name="battle-reinforce"),
    path("<int:pk>/flee/", views.gang_flee, name="gang-flee"),
    path("<int:pk>/undo/", views.action_undo, name="action-undo"),
    path("<int:pk>/end/", views.battle_end, name="battle-end"),
    path("<int:pk>/report/", views.battle_report, name="battle-report"),
]
