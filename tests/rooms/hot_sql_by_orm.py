"""The ORM forms of rooms/core/hot_sql.py's hand-written statements: what each statement
must do, said the plain way. tests/rooms/test_hot_sql.py runs both on the same rows and
compares; the site itself never calls these."""

from django.db.models import F

from rooms.models import Entry, Move, PooledDeal, Race, Room


def lock_room_by_orm(code: str) -> Room | None:
    return Room.objects.select_for_update().filter(code=code).first()


def room_version_and_race_by_orm(code: str) -> tuple[int | None, Race | None]:
    room = Room.objects.filter(code=code).first()
    return (room.version, room.current_race()) if room else (None, None)


def lock_room_and_entry_by_orm(code: str, *, player_id=None, seat_id=None):
    room = lock_room_by_orm(code)
    race = room.current_race() if room else None
    if race is None or race.status != Race.Status.RUNNING:
        return None
    boards = race.entries.select_for_update().select_related("race", "seat")
    by = {"seat__player_id": player_id} if seat_id is None else {"seat_id": seat_id}
    entry = boards.filter(**by).first()
    return (room, entry) if entry else None


def record_pair_by_orm(write) -> bool:
    board = Entry.objects.filter(
        pk=write.entry_id,
        race_id=write.race_id,
        race__status=Race.Status.RUNNING,
        pairs_removed=write.number,
        shuffles_used=write.shuffles_used,
        status=Entry.Status.PLAYING,
        cpu_control=write.was_cpu_control,
    )
    changes = {
        "alive": write.alive,
        "pairs_removed": F("pairs_removed") + 1,
        "cpu_pairs": F("cpu_pairs") + int(write.by_cpu),
        "last_action_at": write.at,
        "cpu_control": write.cpu_control,
        "status": write.status,
        "finished_ms": write.finished_ms,
    }
    if not write.by_cpu:
        changes["last_human_pair_at"] = write.at
    if write.cpu_step is not None:
        changes["cpu_step"] = write.cpu_step
    if not board.update(**changes):
        return False
    Move.objects.create(
        entry_id=write.entry_id,
        number=write.number,
        tiles=list(write.tiles),
        at=write.at,
        by_cpu=write.by_cpu,
    )
    return True


def standing_rows_by_orm(race_id: int) -> list[Entry]:
    return list(Entry.objects.filter(race_id=race_id).select_related("seat").order_by("pk"))


def pop_pooled_deal_by_orm(level: str, flowers: bool) -> str | None:
    deal = PooledDeal.objects.filter(level=level, flowers=flowers).order_by("id").first()
    if deal is None:
        return None
    deal.delete()
    return deal.code
