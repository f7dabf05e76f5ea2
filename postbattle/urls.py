from django.urls import path

from postbattle import views

app_name = "postbattle"

_SEQUENCE = "battles/<int:battle_pk>/gangs/<int:gang_pk>/"

urlpatterns = [
    path("", views.battle_list, name="battle-list"),
    path(_SEQUENCE, views.sequence_detail, name="sequence-detail"),
    path(f"{_SEQUENCE}start/", views.sequence_start, name="sequence-start"),
    path(f"{_SEQUENCE}step/", views.sequence_step, name="sequence-step"),
    path(f"{_SEQUENCE}back/<int:step>/", views.sequence_back, name="sequence-back"),
    path(f"{_SEQUENCE}set-aside/<int:step>/", views.sequence_set_aside, name="sequence-set-aside"),
    path(f"{_SEQUENCE}apply/", views.sequence_apply, name="sequence-apply"),
    path(f"{_SEQUENCE}revert/", views.sequence_revert, name="sequence-revert"),
    path(f"{_SEQUENCE}rerun/", views.sequence_rerun, name="sequence-rerun"),
    path("gangs/<int:gang_pk>/history/", views.gang_history, name="gang-history"),
]
