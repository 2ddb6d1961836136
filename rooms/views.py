"""Room pages: create, join by link or code, and the room itself (lobby, race, results)."""

import contextlib

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.identity import ensure_player, player_for_request
from accounts.models import guest_name
from layouts import library
from mahjong.board_strings import strings as board_strings
from mahjong.rules import IDLE_LIMITS, SHUFFLE_PENALTIES, TIME_LIMITS, Level
from rooms.core import errors, outbox, serializers
from rooms.lobby import actions as lobby
from rooms.lobby import throttle
from rooms.lobby.open_rooms import open_rooms
from rooms.models import CpuLevel, Room, cpu_name, room_code
from rooms.quick import actions as quick


def rooms_home(request, error=None, status=200):
    player = player_for_request(request)
    layout = request.GET.get("layout", "")  # "Race friends on it" from a layout's page
    context = {
        "nickname": player.nickname if player else "",
        "layout": layout if library.is_offered(layout) else "",
        "layout_title": library.title_of(layout, get_language()) if layout else "",
        "error": error,
        "open_rooms": open_rooms(),  # also drawn without JavaScript; open_rooms.js refreshes it
    }
    return render(request, "rooms/home.html", context, status=status)


@require_GET
@never_cache
def open_rooms_json(request):
    """The open rooms of /rooms/, polled by its page (rooms/static/rooms/open_rooms.js)."""
    return JsonResponse({"rooms": open_rooms()})


@require_POST
@outbox.sent_after()
def create_room(request):
    player = ensure_player(request)
    if not throttle.may_create_room(request, player):
        message = _("You created many rooms in a short time: try again in a few minutes.")
        return rooms_home(request, message, status=429)
    try:
        room = lobby.create_room(player, request.POST.get("nickname", ""))
    except errors.RoomError as error:
        return rooms_home(request, error.message, status=400)
    layout = request.POST.get("layout", "")
    # Chosen on a layout's page: the room races on it, a rule like any other (hidden
    # meanwhile: the room races on its level, as any new room).
    with contextlib.suppress(errors.RoomError):
        if layout:
            lobby.update_rules(player, room.code, {"layout": layout})
    return redirect("room", code=room.code)


@require_POST
@outbox.sent_after()
def race_now(request):
    """Race now (docs/RULES.md §Race now): the next public quick race of the chosen level."""
    player = ensure_player(request)
    try:
        room = quick.race_now(player, request.POST.get("level", ""))
    except errors.RoomError as error:
        return rooms_home(request, error.message, status=400)
    return redirect("room", code=room.code)


@require_POST
@outbox.sent_after()
def leave_quick(request, code):
    """Leave a quick race before it starts: back to the rooms page."""
    player = ensure_player(request)
    with contextlib.suppress(errors.RoomError):
        quick.leave(player, code)
    return redirect("rooms")


@require_POST
def join_by_code(request):
    code = request.POST.get("code", "").strip()
    return join(request, code) if code else rooms_home(request, _("type a room code"), 400)


@require_POST
@outbox.sent_after()
def join(request, code):
    player = ensure_player(request)
    try:
        room = Room.objects.get(code=room_code(code))
        lobby.join_room(player, room.code, request.POST.get("nickname", ""))
    except Room.DoesNotExist:
        return rooms_home(request, _("no room has the code %(code)r") % {"code": code}, status=404)
    except errors.RoomError as error:
        return room_page(request, room.code, error=error.message, status=400)
    return redirect("room", code=room.code)


def room_page(request, code, error=None, status=200):
    room = Room.objects.filter(code=room_code(code)).first()
    if room is None:
        raise Http404(_("no room has this code"))
    player = ensure_player(request)  # the socket needs the device cookie set first
    seat = room.seats.filter(player=player).first()
    context = {
        "room": room,
        "seat": seat,
        "nickname": player.nickname,
        "error": error,
        "choices": rule_choices(),
        "layout_choices": library.choices(player, get_language(), include=room.layout),
        "strings": {**board_strings(), **race_strings()},
        "initial": serializers.snapshot(room, seat),
        "host": serializers.host_of(room) if room.hosted else None,
        "pair_floor_ms": settings.PAIR_FLOOR_MS,  # kept pairs sent again are spaced past it
    }
    context["first_phase"] = first_phase(context["initial"])
    return render(request, "rooms/room.html", context, status=status)


def first_phase(snapshot: dict) -> str:
    """Which part of the room page the first paint shows, as race_view.js will (its
    `phaseOf`): the lobby, the race (countdown, playing, done) or the results. Drawn so
    in the HTML, the page does not jump when its script takes over (layout shift)."""
    race = snapshot.get("race")
    if not race:
        return "lobby"
    return "results" if race.get("status") == "finished" else "race"


def ordinal_strings() -> dict:
    """A place as the page's language writes it, by the plural category of its ordinals
    (Intl.PluralRules(lang, {type: "ordinal"}) in race_state.js): English has four ("1st",
    "2nd", "3rd", "4th"), Spanish one ("1.º")."""
    return {
        "one": pgettext("ordinal of a place: 1st, 21st", "{n}st"),
        "two": pgettext("ordinal of a place: 2nd, 22nd", "{n}nd"),
        "few": pgettext("ordinal of a place: 3rd, 23rd", "{n}rd"),
        "other": pgettext("ordinal of a place: 4th, 11th", "{n}th"),
    }


def rule_choices() -> dict:
    return {
        "level": Level.choices,
        "shuffles": [(n, str(n)) for n in range(11)],
        "hints": [(n, str(n)) for n in range(11)],
        "shuffle_penalty_seconds": SHUFFLE_PENALTIES,
        "time_limit_minutes": TIME_LIMITS,
        "idle_limit_seconds": IDLE_LIMITS,
        "cpu_levels": CpuLevel.choices,
    }


def race_strings() -> dict:
    return {
        "ordinals": ordinal_strings(),
        "you_line": _("You: {place}, {progress}%"),
        "go": _("Go!"),
        "get_ready": _("Get ready"),
        "waiting": _("Waiting for the owner to start"),
        "finished": _("finished"),
        "out": _("out of moves"),
        "gave_up": _("gave up"),
        # A board still playing when the race ended (its time limit and cut-off).
        "out_of_time": _("out of time at {progress}%"),
        "stopped_at": _("stopped at {progress}% when the race ended"),
        "blocked_shuffle": _("No more moves: shuffle to go on."),
        "blocked_out": _("No more moves and no shuffle left: you can only give up."),
        "penalty": _("Shuffle penalty: wait…"),
        "confirm_give_up": _("Give up this race?"),
        "link_down": _("Reconnecting — your moves are kept"),
        "link_kept_one": _("1 pair waits to be sent."),
        "link_kept": _("{n} pairs wait to be sent."),
        "link_gone": _("This room no longer exists: the server closed it."),
        "link_refused_one": _("1 pair did not reach the server: its tiles are back on the board."),
        "link_refused": _("{n} pairs did not reach the server: their tiles are back on the board."),
        "cpu": _("CPU"),
        # A CPU seat's name per level, "{n}" its number: "CPU {n} (Constante)". Named here,
        # in the reader's language, not by the events every socket of the room shares.
        "cpu_names": {level: cpu_name("{n}", level) for level in CpuLevel.values},
        # A player who chose no name, "{n}" their number: "Jugador {n}" (the same reason).
        "guest_name": guest_name("{n}"),
        "remove_seat": _("Remove {name}"),
        "tag_owner": _("owner"),
        "tag_you": _("you"),
        "copied": _("Link copied"),
        "copy_by_hand": _("The link is selected: copy it"),
        # Race now's waiting page ({s}: seconds left; {n}: the CPUs a lone player races).
        "quick_starts_in": _("s until the race starts"),
        "quick_starting": _("Starting…"),
        "quick_alone": _("Nobody else yet: if you are still alone, you race %(n)d CPUs.")
        % {"n": settings.QUICK_RACE_CPUS},
        "quick_others_one": _("1 other player is racing with you."),
        "quick_others": _("{n} other players are racing with you."),
        "quick_over": _("This quick race is over: Race now again for the next one."),
        "ranked_next": _("A ranked race starts by itself once its group is formed."),
        "ranked_over": _("This ranked race is over: join the queue again for the next one."),
        "waiting_next": _("Waiting for the owner to start another game"),
        "you_finished": _("You finished {place} in {time}"),
        "you_out": _("You are out of moves"),
        "you_gave_up": _("You gave up"),
        "still_playing_one": _("1 player still playing"),
        "still_playing": _("{n} players still playing"),
        # The whole table's last column: your own pairs left, or a board's gap to the leader.
        "pairs_left": _("{n} pairs left"),
        "behind": _("{n}% behind"),
        "results_title": _("Results of race {n}"),
        "race_n": _("Race {n}"),
        "points_line": _("{name}: {points} points"),
        "points_line_one": _("{name}: {points} point"),
        "minutes": _("minutes"),
        "stand_in": _("CPU standing in"),
        # A human's board a stand-in CPU helped: the result is shown, never a record.
        "cpu_help": _("with CPU help: {n} of {total} pairs"),
        "another": _("Another game"),
        "ready_yes": _("ready"),
        "ready_no": _("not ready yet"),
        # The ready check, with its deadline counting down on every screen ({s}: seconds).
        "offer_note_owner": _(
            "The race starts by itself once everyone is ready. In {s} s you may start it "
            "without those who are not."
        ),
        "offer_note_owner_now": _("Time is up: start now, and those not ready sit this race out."),
        "offer_note": _("Say Ready within {s} s to race; otherwise you sit this race out."),
        "offer_note_ready": _(
            "You are ready: the race starts by itself once everyone is ({s} s left)."
        ),
        "offer_note_watch": _("The players are saying Ready: {s} s left."),
        "offer_note_late": _("Time is up: the owner may start without those not ready."),
        "start_wait": _("You may start without them in {s} s"),
        "sitting_out": _("You sit this race out: you are watching it."),
        "spectating": _("You are watching: the boards stay hidden until the race ends."),
        "watching_one": _("1 watching"),
        "watching": _("{n} watching"),
        "stand_in_on": _("{name} is away: a CPU plays for them"),
        "stand_in_off": _("{name} is back"),
        "you_are_back_one": _("You are back: a CPU played 1 pair for you while you were away."),
        "you_are_back": _("You are back: a CPU played {n} pairs for you while you were away."),
        "you_stood_in": _("You were away: a CPU plays your board. Play a pair to take it back."),
    }
