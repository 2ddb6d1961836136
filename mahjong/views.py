from django.shortcuts import render
from django.views.decorators.http import require_GET

from mahjong.front_door import front_door


@require_GET
def home(request):
    """The front door: a board preview, Play now, today's challenge, open rooms, and the
    visitor's record and streak once they have played (mahjong/front_door.py)."""
    return render(request, "home.html", front_door(request))
