"""`{% race_now %}`: the Race now buttons, one per level (docs/RULES.md §Race now), drawn
on the home page and on /rooms/."""

from django import template
from django.conf import settings

from mahjong.rules import Level

register = template.Library()


@register.inclusion_tag("rooms/_race_now.html", takes_context=True)
def race_now(context):
    return {
        "levels": Level.choices,
        "wait": settings.QUICK_WAIT_SECONDS,
        "cpus": settings.QUICK_RACE_CPUS,
        "csrf_token": context.get("csrf_token"),
    }
