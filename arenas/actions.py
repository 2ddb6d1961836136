"""Every player's write to an arena (docs/RULES.md §Arenas): creating one, joining it,
saying ready for the next race, pausing, going all in; and the move of a device's places
when it is merged into an account. Each refuses bad input with an ArenaError naming what
was wrong, and changes nothing then. The pairing and the clock are arenas/pairing.py;
the scores arenas/scoring.py."""

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import actions as accounts_actions
from accounts.models import Player
from arenas import live
from arenas.models import (
    MAX_MINUTES,
    MIN_MINUTES,
    NAME_MAX_LENGTH,
    Arena,
    ArenaPlayer,
    arena_code,
)
from layouts import library
from mahjong.race_rules import arena_pairing
from mahjong.rules import LEVELS
from mahjong.rules import TIME_LIMITS as _TIME_LIMITS
from rooms.models import SiteDefaults

TIME_LIMITS = [minutes for minutes, _label in _TIME_LIMITS]
MAX_AHEAD = timedelta(days=7)


class ArenaError(Exception):
    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message, self.code = message, code


def _nickname(text) -> str:
    try:
        return accounts_actions.clean_nickname(text)
    except accounts_actions.NicknameError as refused:
        raise ArenaError(str(refused), "bad_nickname") from None


def _whole(value, name: str) -> int:
    if isinstance(value, bool):
        raise ArenaError(_("%(name)s: a whole number, please") % {"name": name}, "bad_form")
    try:
        return int(str(value).strip())
    except ValueError:
        raise ArenaError(
            _("%(name)s: a whole number, please") % {"name": name}, "bad_form"
        ) from None


@transaction.atomic
def create_arena(
    player: Player,
    name,
    level,
    minutes,
    starts_in_minutes=0,
    public=False,
    layout="",
    time_limit_minutes=5,
    now: datetime | None = None,
) -> Arena:
    """A player's arena, public or reached by its link (docs/RULES.md §Arenas): the site
    defaults' rules at `level` (or on a layout the picker offers), `minutes` long,
    starting in `starts_in_minutes`."""
    now = now or timezone.now()
    name = accounts_actions.shown_text(str(name or ""))
    if name is None:
        message = _("name: no control or invisible characters (such as a text-direction mark)")
        raise ArenaError(message, "bad_form")
    if not name or len(name) > NAME_MAX_LENGTH:
        raise ArenaError(_("name: 1 to %(n)d characters") % {"n": NAME_MAX_LENGTH}, "bad_form")
    if level not in LEVELS:
        raise ArenaError(
            _("choose a level: %(levels)s") % {"levels": ", ".join(LEVELS)}, "bad_level"
        )
    minutes = _whole(minutes, _("duration"))
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise ArenaError(
            _("duration: from %(min)d to %(max)d minutes")
            % {"min": MIN_MINUTES, "max": MAX_MINUTES},
            "bad_duration",
        )
    wait = _whole(starts_in_minutes, _("starts in"))
    if not 0 <= wait <= MAX_AHEAD.total_seconds() // 60:
        raise ArenaError(_("starts in: from now to 7 days ahead"), "bad_start")
    limit = _whole(time_limit_minutes, _("time limit"))
    if limit not in TIME_LIMITS:
        raise ArenaError(
            _("time limit: one of %(limits)s minutes")
            % {"limits": ", ".join(map(str, TIME_LIMITS))},
            "bad_form",
        )
    layout = str(layout or "")
    if layout and not library.is_offered(layout):
        raise ArenaError(_("layout: there is no such layout to race on"), "bad_form")
    if not isinstance(public, bool):
        raise ArenaError(_("public: yes or no"), "bad_form")
    rules = SiteDefaults.load().rules()
    rules.update(level=level, layout=layout, time_limit_minutes=limit, handicap=False)
    starts_at = now + timedelta(minutes=wait)
    return _new_arena(
        name=name, starts_at=starts_at, minutes=minutes, public=public, creator=player, **rules
    )


def _new_arena(**fields) -> Arena:
    for _attempt in range(10):
        try:
            with transaction.atomic():
                arena = Arena.objects.create(**fields)
                if arena.starts_at <= timezone.now():
                    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.RUNNING)
                    arena.status = Arena.Status.RUNNING
                return arena
        except IntegrityError:  # the random code was taken: draw another
            continue
    raise ArenaError(_("could not find a free arena code; try again"))


def _arena(code, lock=False) -> Arena:
    arenas = Arena.objects.select_for_update() if lock else Arena.objects
    arena = arenas.filter(code=arena_code(code)).first() if arena_code(code) else None
    if arena is None:
        raise ArenaError(_("no arena has this code"), "no_arena")
    return arena


def _not_over(arena: Arena, now: datetime) -> None:
    if arena.status == Arena.Status.FINISHED or now >= arena.ends_at:
        raise ArenaError(_("this arena is over"), "arena_over")


@transaction.atomic
def join(player: Player, code, nickname, now=None) -> ArenaPlayer:
    """Join the arena under `nickname` (a second join keeps the place): paused until the
    player says ready."""
    now = now or timezone.now()
    arena = _arena(code)
    _not_over(arena, now)
    nickname = _nickname(nickname)
    accounts_actions.set_nickname(player, nickname)
    place, made = ArenaPlayer.objects.get_or_create(
        arena=arena, player=player, defaults={"nickname": nickname}
    )
    if not made and place.nickname != nickname:
        place.nickname = nickname
        place.save(update_fields=["nickname"])
    live.changed(arena.code)
    return place


def _place(player: Player, arena: Arena) -> ArenaPlayer:
    place = ArenaPlayer.objects.select_for_update().filter(arena=arena, player=player).first()
    if place is None:
        raise ArenaError(_("join the arena first"), "not_joined")
    return place


@transaction.atomic
def ready(player: Player, code, now=None) -> ArenaPlayer:
    """Wait for the next race (paired within seconds; alone, against CPUs)."""
    now = now or timezone.now()
    arena = _arena(code)
    _not_over(arena, now)
    place = _place(player, arena)
    if not arena_pairing.may_start(now, arena.ends_at):
        raise ArenaError(_("no new race starts in the arena's last minute"), "last_minute")
    if place.state == ArenaPlayer.State.RACING:
        raise ArenaError(_("finish your race first"), "racing")
    if place.state != ArenaPlayer.State.WAITING:
        place.state, place.waiting_since = ArenaPlayer.State.WAITING, now
        place.save(update_fields=["state", "waiting_since"])
        live.changed(arena.code)
    return place


@transaction.atomic
def pause(player: Player, code, now=None) -> ArenaPlayer:
    """Stop being paired (a race under way runs on)."""
    arena = _arena(code)
    place = _place(player, arena)
    if place.state == ArenaPlayer.State.WAITING:
        place.state, place.waiting_since = ArenaPlayer.State.PAUSED, None
        place.save(update_fields=["state", "waiting_since"])
        live.changed(arena.code)
    return place


@transaction.atomic
def set_all_in(player: Player, code, on, now=None) -> ArenaPlayer:
    """Drop hints and shuffles in the next races (before their "go"): +1 on finishing."""
    now = now or timezone.now()
    if not isinstance(on, bool):
        raise ArenaError(_("all in: true or false"), "bad_message")
    arena = _arena(code)
    _not_over(arena, now)
    place = _place(player, arena)
    if place.all_in != on:
        place.all_in = on
        place.save(update_fields=["all_in"])
        live.changed(arena.code)
    return place


@transaction.atomic
def cancel(player: Player, code, now=None) -> None:
    """The creator calls off an arena that has not started: it is deleted."""
    now = now or timezone.now()
    arena = _arena(code, lock=True)
    if arena.creator_id != player.pk:
        raise ArenaError(_("only the arena's creator can cancel it"), "not_creator")
    if arena.status != Arena.Status.UPCOMING or now >= arena.starts_at:
        raise ArenaError(_("an arena that has started cannot be cancelled"), "started")
    arena.delete()


def take_over_places(device: Player, account: Player, **_signal) -> None:
    """On an account merge (accounts.signals.player_merged): the device's arena places
    become the account's, except in arenas the account joined itself."""
    taken = ArenaPlayer.objects.filter(player=account).values("arena_id")
    ArenaPlayer.objects.filter(player=device).exclude(arena_id__in=taken).update(player=account)
