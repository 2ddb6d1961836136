"""Django's four password validators (settings.AUTH_PASSWORD_VALIDATORS), the same rules
in the site's words: Django's own Spanish speaks to the reader as *usted* ("Su contraseña
debe contener…"), the site says *tú* (docs/I18N.md). Only the messages differ."""

from django.contrib.auth import password_validation as django_rules
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class UserAttributeSimilarityValidator(django_rules.UserAttributeSimilarityValidator):
    def get_error_message(self):
        # %(verbose_name)s: the field it is too like ("username"), filled in by Django.
        return _("This password is too similar to your %(verbose_name)s.")

    def get_help_text(self):
        return _("Your password can’t be too similar to your username or e-mail.")


class MinimumLengthValidator(django_rules.MinimumLengthValidator):
    def get_error_message(self):
        return ngettext(
            "This password is too short: it needs at least %(min_length)d character.",
            "This password is too short: it needs at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}

    def get_help_text(self):
        return ngettext(
            "Your password needs at least %(min_length)d character.",
            "Your password needs at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


class CommonPasswordValidator(django_rules.CommonPasswordValidator):
    def get_error_message(self):
        return _("This password is one of the most used ones: choose another.")

    def get_help_text(self):
        return _("Your password can’t be one of the most used ones.")


class NumericPasswordValidator(django_rules.NumericPasswordValidator):
    def get_error_message(self):
        return _("This password is only digits.")

    def get_help_text(self):
        return _("Your password can’t be only digits.")
