from django.urls import path

from core import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/signup/verify/<str:uidb64>/<str:token>/", views.signup_verify, name="signup-verify"),
]
