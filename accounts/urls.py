from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.forms import NewPasswordForm

urlpatterns = [
    path("accounts/signup/", views.sign_up, name="signup"),
    path("accounts/login/", views.LogIn.as_view(), name="login"),
    path("accounts/logout/", views.LogOut.as_view(), name="logout"),
    path("accounts/password-reset/", views.PasswordReset.as_view(), name="password_reset"),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html", form_class=NewPasswordForm
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]
