from django.urls import path

from campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("new/", views.campaign_create, name="campaign-create"),
    path("join/<str:token>/", views.campaign_join, name="campaign-join"),
    path("<int:pk>/", views.campaign_detail, name="campaign-detail"),
    path("<int:pk>/edit/", views.campaign_edit, name="campaign-edit"),
    path("<int:pk>/house-rules/", views.house_rules_edit, name="house-rules"),
    path("<int:pk>/arbitrators/add/", views.arbitrator_add, name="arbitrator-add"),
    path("<int:pk>/arbitrators/<int:user_id>/remove/", views.arbitrator_remove, name="arbitrator-remove"),
    path("<int:pk>/start/", views.campaign_start, name="campaign-start"),
    path("<int:pk>/invite/renew/", views.invite_renew, name="invite-renew"),
    path("<int:pk>/joins/<int:join_id>/<slug:decision>/", views.join_decide, name="join-decide"),
    path("<int:pk>/finish/", views.campaign_finish, name="campaign-finish"),
    path("<int:pk>/cycles/advance/", views.cycle_advance, name="cycle-advance"),
    path("<int:pk>/cycles/pair/", views.cycle_pair, name="cycle-pair"),
    path("<int:pk>/gangs/<int:gang_id>/remove/", views.membership_remove, name="membership-remove"),
    path(
        "<int:pk>/gangs/<int:gang_id>/wants-to-play/", views.membership_wants_to_play, name="membership-wants-to-play"
    ),
    path("<int:pk>/challenges/new/", views.challenge_issue, name="challenge-issue"),
    path("<int:pk>/challenges/pass/", views.challenge_pass, name="challenge-pass"),
    path("<int:pk>/territories/add/", views.territory_add, name="territory-add"),
    path("<int:pk>/territories/<int:territory_id>/assign/", views.territory_assign, name="territory-assign"),
    path("<int:pk>/battles/arrange/", views.battle_arrange, name="battle-arrange"),
    path("<int:pk>/battles/<int:battle_id>/", views.battle_detail, name="battle-detail"),
    path("<int:pk>/battles/<int:battle_id>/cancel/", views.battle_cancel, name="battle-cancel"),
    path("<int:pk>/battles/<int:battle_id>/scenario/", views.battle_scenario_roll, name="battle-scenario-roll"),
    path("<int:pk>/battles/<int:battle_id>/roles/", views.battle_roles_choose, name="battle-roles-choose"),
    path(
        "<int:pk>/battles/<int:battle_id>/scenario/choose/", views.battle_scenario_choose, name="battle-scenario-choose"
    ),
    path("<int:pk>/battles/<int:battle_id>/crews/<str:side>/", views.battle_crew, name="battle-crew"),
    path("<int:pk>/battles/<int:battle_id>/crews/<str:side>/size/", views.battle_crew_size, name="battle-crew-size"),
    path("<int:pk>/battles/<int:battle_id>/report/", views.battle_report, name="battle-report"),
    path("<int:pk>/battles/<int:battle_id>/confirm/", views.battle_confirm, name="battle-confirm"),
]
