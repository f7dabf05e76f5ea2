from django.urls import path

from core import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
]
