"""Facts of accounts every template may need: the nickname's length, defined once
(accounts.models.NICKNAME_MAX_LENGTH) for the model, forms, pages and scripts."""

from accounts.models import NICKNAME_MAX_LENGTH


def limits(request) -> dict:
    return {"NICKNAME_MAX_LENGTH": NICKNAME_MAX_LENGTH}
