"""Every write on players, accounts and ratings: pages, rooms and the ranked queue call these.

One function per write, each in one transaction, so a half-done merge or rating update
is never seen.
"""

import unicodedata
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import NICKNAME_MAX_LENGTH, Player, Rating, RatingChange, new_device_token
from accounts.signals import player_merged
from mahjong.race_rules import ratings

# Control, format (zero-width, bidi overrides), surrogate, private-use and unassigned
# characters, and line/paragraph separators: none belongs in a name shown to others.
FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class NicknameError(ValueError):
    """A refused nickname; the message is shown to the player."""


def shown_text(text: str) -> str | None:
    """A name shown to others (a nickname, an arena's name) as it is stored: NFC, runs of
    whitespace folded into one space, trimmed; None when it holds a control or invisible
    character (FORBIDDEN_CATEGORIES), which no page should show."""
    text = unicodedata.normalize("NFC", text)
    if any(unicodedata.category(ch) in FORBIDDEN_CATEGORIES for ch in text):
        return None
    return " ".join(text.split())  # what is left of whitespace is spaces: one each


def clean_nickname(text) -> str:
    """The nickname as stored, the one rule of every page and socket: NFC, nothing
    invisible or controlling (tabs and line breaks included), runs of spaces folded into
    one, trimmed, 1 to NICKNAME_MAX_LENGTH characters. NicknameError says what is wrong."""
    if not isinstance(text, str):
        raise NicknameError(_("A nickname is text."))
    nickname = shown_text(text)
    if nickname is None:
        raise NicknameError(_("A nickname cannot contain control or invisible characters."))
    if not nickname:
        raise NicknameError(_("Enter a nickname: at least one character that is not a space."))
    if len(nickname) > NICKNAME_MAX_LENGTH:
        raise NicknameError(
            _("A nickname has at most %(max)d characters; this one has %(n)d.")
            % {"max": NICKNAME_MAX_LENGTH, "n": len(nickname)}
        )
    return nickname


def set_nickname(player: Player, text) -> Player:
    """The one write of a nickname (profile, rooms, the ranked queue, the admin's form
    checks by the same rule). Nothing is written when it is unchanged."""
    nickname = clean_nickname(text)
    if player.nickname != nickname:
        Player.objects.filter(pk=player.pk).update(nickname=nickname)
        player.nickname = nickname
    return player


def ban_from_ranked(player: Player) -> None:
    """An admin voided a result of this player's played by a script (docs/RULES.md §Fair
    play): no more ranked races."""
    Player.objects.filter(pk=player.pk).update(banned_from_ranked=True)


def new_player() -> Player:
    """A new anonymous player, for a device that has none (accounts.identity)."""
    return Player.objects.create()


# --- Accounts: one player per account, a device's player merged into it -----------------


@transaction.atomic
def sign_in_device(user, device_player: Player | None) -> Player:
    """The account's player after `user` signs in on a device whose player is given.

    A device player without an account becomes the account's player when the account
    has none, and is otherwise merged into it. A device player of another account is
    left alone. The caller points the device cookie at the player returned.
    """
    account_player = Player.objects.select_for_update().filter(user=user).first()
    device = _locked(device_player)
    if device is not None and device.user_id == user.pk:
        return device
    if device is None or device.user_id is not None or device.merged_into_id is not None:
        # get_or_create: two first sign-ins at once must not make two account players.
        return account_player or Player.objects.get_or_create(user=user)[0]
    if account_player is None:
        device.user = user
        device.save(update_fields=["user"])
        return device
    merge_players(device, account_player)
    return account_player


def rotate_device_token(user) -> Player | None:
    """The account's player under a new device token (at log-out): a device cookie copied
    before is nobody from now on. A device of the account still signed in (its session)
    is handed the new token by its next page (identity.ensure_player). Not at log-in: the
    account's other devices would lose their player until their next page, and a socket
    of theirs in a race would be nobody's on its next reconnect."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        player.device_token = new_device_token()
        player.save(update_fields=["device_token"])
    return player


def _locked(player: Player | None) -> Player | None:
    if player is None:
        return None
    return Player.objects.select_for_update().filter(pk=player.pk).first()


def merge_players(device: Player, account: Player) -> None:
    """Move everything of `device` to `account`; `device` stays as an empty husk.

    Call inside a transaction with both rows locked (`sign_in_device` does). The apps
    that keep a player's rows move them in their own actions, on `player_merged`.
    """
    player_merged.send(sender=Player, device=device, account=account)
    _move_rating(device, account)
    if not account.nickname and device.nickname:
        set_nickname(account, device.nickname)
    device.merged_into = account
    device.save(update_fields=["merged_into"])


def _move_rating(device: Player, account: Player) -> None:
    # Two ratings cannot be averaged honestly: the account's rating stands, and only an
    # account never rated takes over the device's rating and its history.
    if Rating.objects.filter(player=account).exists():
        return
    Rating.objects.filter(player=device).update(player=account)
    RatingChange.objects.filter(player=device).update(player=account)


# --- Ratings ---------------------------------------------------------------------------


class RatingError(ValueError):
    """Results that cannot be rated; nothing was changed."""


@transaction.atomic
def record_rated_result(
    results: Sequence[tuple[Player, int]], race_ref: int | None = None, at=None
) -> list[RatingChange]:
    """Apply one ranked race: `results` are (player, place group), 1 the best place.

    Every human player of the race is listed once; tied players share a place. With a
    `race_ref`, applying the same race twice changes nothing and returns the first changes.
    """
    _check_results(results)
    if race_ref is not None:
        done = list(RatingChange.objects.filter(race_ref=race_ref))
        if done:
            return done
    if len(results) < 2:
        return []
    at = at or timezone.now()
    current = _locked_ratings([player for player, _ in results])
    standings = [
        (player.pk, _standing_rating(current[player.pk], at), place) for player, place in results
    ]
    updated = ratings.race_updates(standings)
    return [
        _store_change(current[pk], before, updated[pk], place, len(results), race_ref, at)
        for pk, before, place in standings
    ]


@transaction.atomic
def record_late_result(
    player: Player, place: int, others: Sequence[tuple[Player, int]], race_ref: int, at=None
) -> RatingChange | None:
    """Rate one player of a race already rated without them (an admin cleared a pace
    flag: docs/ACCOUNTS.md §Fair play): against the others' ratings as they stood before
    that race, with the race's weight; the others keep theirs. None when the player is
    rated for it already or no other player was rated in it."""
    _check_results([(player, place), *others])
    if RatingChange.objects.filter(player=player, race_ref=race_ref).exists():
        return None
    rated = {
        change.player_id: change
        for change in RatingChange.objects.filter(
            race_ref=race_ref, player__in=[p for p, _ in others]
        )
    }
    games = [
        (_before(rated[other.pk]), ratings.pair_score(place, other_place))
        for other, other_place in others
        if other.pk in rated
    ]
    if not games:
        return None
    at = at or timezone.now()
    rating = _locked_ratings([player])[player.pk]
    before = _standing_rating(rating, at)
    new = ratings.update(before, games, 1.0 / len(games))
    return _store_change(rating, before, new, place, len(games) + 1, race_ref, at)


def _before(change: RatingChange) -> ratings.Glicko:
    deviation = change.deviation_before or ratings.START_DEVIATION
    return ratings.Glicko(change.before, deviation)


def _standing_rating(rating: Rating, at) -> ratings.Glicko:
    """The rating a race starts from: widened by the time since the last rated race."""
    if rating.rated_at is None:
        return rating.glicko
    return ratings.after_idle(rating.glicko, (at - rating.rated_at).total_seconds() / 86400)


def _check_results(results) -> None:
    pks = [player.pk for player, _ in results]
    if len(set(pks)) != len(pks):
        raise RatingError("a player is listed twice in the results")
    for player, place in results:
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise RatingError(f"the place of {player} must be a whole number from 1, not {place!r}")


def _locked_ratings(players) -> dict[int, Rating]:
    pks = sorted(player.pk for player in players)
    for pk in pks:
        Rating.objects.get_or_create(player_id=pk)
    # Locked in primary-key order, so two races ending together cannot deadlock.
    locked = Rating.objects.select_for_update().filter(player_id__in=pks).order_by("player_id")
    return {rating.player_id: rating for rating in locked}


def _store_change(
    rating, before: ratings.Glicko, new: ratings.Glicko, place, field_size, race_ref, at
) -> RatingChange:
    mean_before = rating.value
    rating.value, rating.deviation, rating.volatility = new.rating, new.deviation, new.volatility
    rating.games += 1
    rating.rated_at = at
    rating.save(
        update_fields=["value", "deviation", "volatility", "games", "rated_at", "updated_at"]
    )
    return RatingChange.objects.create(
        player_id=rating.player_id,
        before=mean_before,
        after=rating.value,
        deviation_before=before.deviation,
        deviation=rating.deviation,
        place=place,
        field_size=field_size,
        race_ref=race_ref,
        created_at=at,
    )
