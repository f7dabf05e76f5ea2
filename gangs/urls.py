from django.urls import path

from gangs import views

app_name = "gangs"

urlpatterns = [
    path("", views.gang_list, name="gang-list"),
    path("new/", views.gang_create, name="gang-create"),
    path("import/", views.gang_import, name="gang-import"),
    path("import/yaktribe/", views.gang_import_yaktribe, name="gang-import-yaktribe"),
    path("import/<int:pk>/", views.import_status, name="import-status"),
    path("<int:pk>/", views.gang_detail, name="gang-detail"),
    path("<int:pk>/history/", views.gang_history_view, name="gang-history"),
    path("<int:pk>/print/", views.gang_print, name="gang-print"),
    path("<int:pk>/export/", views.gang_export, name="gang-export"),
    path("<int:pk>/rename/", views.gang_rename, name="gang-rename"),
    path("<int:pk>/override/", views.gang_override, name="gang-override"),
    path("<int:pk>/hire/", views.fighter_hire, name="fighter-hire"),
    path("<int:pk>/hire-gun/", views.hired_gun_hire, name="hired-gun-hire"),
    path("<int:pk>/stash/buy/", views.stash_buy, name="stash-buy"),
    path("<int:pk>/fighters/<int:fighter_pk>/", views.fighter_detail_view, name="fighter-detail"),
    path("<int:pk>/fighters/<int:fighter_pk>/rename/", views.fighter_rename, name="fighter-rename"),
    path("<int:pk>/fighters/<int:fighter_pk>/notes/", views.fighter_notes, name="fighter-notes"),
    path("<int:pk>/fighters/<int:fighter_pk>/retire/", views.fighter_retire, name="fighter-retire"),
    path("<int:pk>/fighters/<int:fighter_pk>/remove/", views.fighter_remove, name="fighter-remove"),
    path("<int:pk>/fighters/<int:fighter_pk>/copy/", views.fighter_copy, name="fighter-copy"),
    path("<int:pk>/fighters/<int:fighter_pk>/let-go/", views.fighter_let_go, name="fighter-let-go"),
    path("<int:pk>/fighters/<int:fighter_pk>/advance/", views.fighter_advance, name="fighter-advance"),
    path("<int:pk>/fighters/<int:fighter_pk>/record/<slug:what>/", views.fighter_record, name="fighter-record"),
    path("<int:pk>/history/<int:entry_pk>/undo/", views.entry_undo, name="entry-undo"),
    path("<int:pk>/fighters/<int:fighter_pk>/buy/", views.purchase_buy, name="purchase-buy"),
    path("<int:pk>/purchases/<int:purchase_pk>/sell/", views.purchase_sell, name="purchase-sell"),
    path("<int:pk>/purchases/<int:purchase_pk>/discard/", views.purchase_discard, name="purchase-discard"),
    path("<int:pk>/purchases/<int:purchase_pk>/move/", views.purchase_move, name="purchase-move"),
]
