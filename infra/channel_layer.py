"""channels-redis's pub/sub layer, with its subscriber connections watched.

The layer (channels_redis.pubsub, the version CHANNELS_REDIS below) keeps one subscriber
connection per shard and event loop, read by a task that polls it every 0.1 s. A closed
connection (its Redis restarted) is noticed at once and reconnected, and redis-py
subscribes again to every channel; but a connection that merely stops carrying anything
(a partition: no FIN, no RST) looks like a quiet one, and stays "subscribed" to a server
that no longer hears it. So, here, a subscriber that has heard nothing for
PING_AFTER_SECONDS sends a PING of its own, and one whose PING is unanswered
PONG_WITHIN_SECONDS later is dropped and opened afresh (docs/OPERATIONS.md §Redis
connections). A busy connection is never pinged: every message proves it.

Whatever was published to a shard while its subscriber was away is lost: Redis pub/sub
keeps nothing for a subscriber that is not there (after a shard's restart, a race's
start sent before the subscriber was back never reached its sockets, and they waited
for "go" forever). So each time a subscriber connection is opened again, every local
channel of a group on that shard gets a `layer.resync` message: the room socket answers
it with a fresh snapshot (docs/PROTOCOL.md), whatever it missed.

Its timeouts, keepalive and retry come from the hosts' options (infra/redis_links.py).

Frames (`group_send_frame`): a text built once, for every socket of a group as it is
(the live standings: rooms/live/standings_feed.py). channels' `group_send` packs a message
with msgpack, and each process puts it in the queue of each of its consumers in the
group, each of which unpacks it again, wakes, and dispatches it: at 20 sockets a room,
20 unpackings, 20 wake-ups and 20 new receive tasks a publish and process. A frame is
published as its UTF-8 bytes behind FRAME_MARK and its kind; a process that receives one decodes it
once and writes it to the sockets of the group that registered a frame sink (one task
for all of them); a consumer with none gets it the usual way, as a `room.event`.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

logger = logging.getLogger(__name__)
# The version this module was written against: it overrides and reads private parts of
# channels-redis (RELIES_ON), which a new version may rename or reshape with no error
# until a fault. tests/ops/test_channel_layer_version.py fails on any other version;
# docs/OPERATIONS.md §Upgrading channels-redis says what to check before moving it.
CHANNELS_REDIS = "4.3.0"
# The private names of channels-redis used here, by the class that has them: methods
# overridden or called, and attributes read.
RELIES_ON = {
    "RedisSingleShardConnection": (
        "_do_receiving", "_receive_message", "_pubsub", "_lock", "host", "channel_layer",
    ),
    "RedisPubSubLoopLayer": (
        "_shards", "_get_shard", "_get_group_channel_name", "groups", "channels",
        "channel_layer",
    ),
    "RedisPubSubChannelLayer": ("_get_layer", "_layers", "_args", "_kwargs"),
    "channels_redis.utils": ("_wrap_close",),
}  # fmt: skip
# Published frames start with this: no msgpack message does (a map starts 0x80-0x8f or
# 0xde-0xdf).
FRAME_MARK = b"\x00frame\x00"

PING_AFTER_SECONDS = 1.0
# A PONG on a live link comes in a millisecond; this allows for an event loop busy for
# a while (the 2,000-player run's ack p99 was 0.8 s) before calling the link dead.
PONG_WITHIN_SECONDS = 1.5
# After a failed reconnect (the server still away): try again this soon. channels-redis
# waits 1 s; a fresh connection costs one round trip, and this keeps a healed link's
# first events within the 3 s promised.
RETRY_SECONDS = 0.25
WATCH_TOKEN = "mahjong-layer-watch"
# What every consumer in a group gets after its shard's subscriber reconnected: a
# handler `layer_resync` is required of each (rooms/consumers.py, infra/consumers.py).
RESYNC_TYPE = "layer.resync"


class WatchedShardConnection(RedisSingleShardConnection):
    def __init__(self, host, channel_layer):
        super().__init__(host, channel_layer)
        self._heard_at = None  # loop time the subscriber last received anything
        self._ping_sent_at = None  # loop time of our PING still unanswered, if any
        self._watched = None  # the subscriber connection our connect callback is on

    async def _do_receiving(self):
        failing = False
        while True:
            try:
                self._follow_reconnects()
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if message is not None:
                        self._heard()
                        if message["type"] != "pong":
                            self._receive_message(message)
                    else:  # nothing waiting: only now may silence count against the link
                        await self._watch()
                else:
                    self._heard_at = self._ping_sent_at = None
                    await asyncio.sleep(0.1)
                if failing:
                    logger.warning("channel layer shard %s: subscriber back", self._where())
                    failing = False
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as error:  # noqa: BLE001 - the server away: retry, log once
                if not failing:
                    logger.warning(
                        "channel layer shard %s: subscriber lost (%r); reconnecting",
                        self._where(),
                        error,
                    )
                    failing = True
                self._heard_at = self._ping_sent_at = None
                await asyncio.sleep(RETRY_SECONDS)

    def _follow_reconnects(self) -> None:
        """Be told of every reconnect of the subscriber connection, also those redis-py
        makes by itself inside a read (its retry)."""
        connection = self._pubsub.connection if self._pubsub else None
        if connection is not None and connection is not self._watched:
            # After redis-py's own callback, which subscribes again: ours runs second.
            connection.register_connect_callback(self._reconnected)
            self._watched = connection

    def _reconnected(self, connection) -> None:
        """Every socket of this shard's groups in this process may have missed events
        while the subscriber was away: each is told to resync."""
        resync = self.channel_layer.channel_layer.serialize({"type": RESYNC_TYPE})
        layer = self.channel_layer
        names = set()
        for group, members in layer.groups.items():
            if layer._get_shard(group) is self:
                names.update(members)
        for name in names:
            if name in layer.channels:
                layer.channels[name].put_nowait(resync)
        logger.warning(
            "channel layer shard %s: subscriber reconnected; %d sockets told to resync",
            self._where(),
            len(names),
        )

    def _receive_message(self, message):
        data = message["data"] if message is not None else None
        if isinstance(data, bytes) and data.startswith(FRAME_MARK):
            name = message["channel"]
            self.channel_layer.deliver_frame(
                name.decode() if isinstance(name, bytes) else name, data
            )
        else:
            super()._receive_message(message)

    def _heard(self) -> None:
        self._heard_at = asyncio.get_running_loop().time()
        self._ping_sent_at = None

    async def _watch(self) -> None:
        now = asyncio.get_running_loop().time()
        if self._heard_at is None:
            self._heard_at = now  # (re)connected just now: the clock starts
        if self._ping_sent_at is not None:
            if now - self._ping_sent_at > PONG_WITHIN_SECONDS:
                await self._drop_subscriber()
            return
        if now - self._heard_at > PING_AFTER_SECONDS:
            connection = self._pubsub.connection
            if connection is not None and connection.is_connected:
                # Not through PubSub.ping(), which would reconnect first: this asks the
                # link as it is. Written whole before the next await, so it never splits
                # a SUBSCRIBE that another task is sending.
                await connection.send_command("PING", WATCH_TOKEN, check_health=False)
                self._ping_sent_at = now

    async def _drop_subscriber(self) -> None:
        """Close the silent connection; the next read reconnects, and redis-py subscribes
        again to every channel it had (its on_connect callback)."""
        logger.warning(
            "channel layer shard %s: no PONG within %.1f s; reconnecting",
            self._where(),
            PONG_WITHIN_SECONDS,
        )
        async with self._lock:  # not in the middle of a subscribe of another task
            connection = self._pubsub.connection
            if connection is not None:
                await connection.disconnect(nowait=True)
        self._heard_at = self._ping_sent_at = None

    def _where(self) -> str:
        return str(self.host.get("address", self.host))


class WatchedLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [WatchedShardConnection(shard.host, self) for shard in self._shards]
        self.frame_sinks: dict[str, Callable[[str], Awaitable[None]]] = {}  # channel -> send

    async def group_send_frame(self, group: str, kind: str, text: str) -> None:
        group_channel = self._get_group_channel_name(group)
        data = b"".join((FRAME_MARK, kind.encode(), b"\x00", text.encode()))
        await self._get_shard(group_channel).publish(group_channel, data)

    def deliver_frame(self, group_channel: str, data: bytes) -> None:
        members = self.groups.get(group_channel)
        if not members:
            return
        kind, _, text = data[len(FRAME_MARK) :].decode().partition("\x00")
        sinks = []
        for channel in members:
            sink = self.frame_sinks.get(channel)
            if sink is not None:
                sinks.append(sink)
            elif channel in self.channels:  # a consumer without a sink: the usual way
                message = {"type": "room.event", "kind": kind, "text": text}
                self.channels[channel].put_nowait(self.channel_layer.serialize(message))
        if sinks:
            task = asyncio.create_task(_write_all(sinks, text))
            _writing.add(task)  # kept referenced until done (asyncio keeps only a weak one)
            task.add_done_callback(_writing.discard)


_writing: set[asyncio.Task] = set()


async def _write_all(sinks, text: str) -> None:
    for sink in sinks:
        try:
            await sink(text)
        except Exception as error:  # noqa: BLE001 - a socket closing: the others still get it
            logger.debug("a frame was not written: %r", error)


class WatchedPubSubChannelLayer(RedisPubSubChannelLayer):
    """The settings' BACKEND: as channels-redis's, one loop layer per event loop."""

    async def group_send_frame(self, group: str, kind: str, text: str) -> None:
        """`text` to every socket of `group`, on every process, as it is (see above);
        `kind` names it for a consumer that takes it as a `room.event`."""
        await self._get_layer().group_send_frame(group, kind, text)

    def add_frame_sink(self, channel: str, sink: Callable[[str], Awaitable[None]]) -> None:
        """Frames for `channel`'s groups go to `sink(text)` (a consumer's send)."""
        self._get_layer().frame_sinks[channel] = sink

    def discard_frame_sink(self, channel: str) -> None:
        self._get_layer().frame_sinks.pop(channel, None)

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = WatchedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
