"""Template filters for game results, used by practice, records and the home page: a
time as m:ss, a layout's label."""

from django import template

from mahjong.rules import layout_label as _layout_label

register = template.Library()


@register.filter
def duration(ms) -> str:
    """Milliseconds as m:ss (h:mm:ss past an hour); a dash when there is none."""
    if ms is None:
        return "–"
    seconds = int(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@register.filter
def layout_label(number) -> str:
    return _layout_label(int(number))
