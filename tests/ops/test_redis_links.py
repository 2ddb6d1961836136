"""Every Redis connection of the site is opened with a timeout, a health check and one
retry on a dropped link, and over TCP with keepalive (docs/OPERATIONS.md §Redis
connections): a link that dies in silence must be given up, not waited on forever. The
faults themselves are staged in test_layer_faults.py."""

import asyncio
import contextlib
import socket
import struct

import redis.asyncio
import uvloop
from channels.layers import get_channel_layer
from django.core.cache import caches

from config.celery import app as celery_app
from infra import redis_async, redis_links, worker_heartbeat
from tests.ops.drill_helpers import PrivateRedis


def _has_the_site_options(kwargs: dict) -> None:
    assert kwargs["socket_timeout"] is not None
    assert kwargs["socket_connect_timeout"] == redis_links.CONNECT_TIMEOUT_SECONDS
    assert kwargs["health_check_interval"] == redis_links.HEALTH_CHECK_SECONDS


def test_the_cache_and_our_clients_give_up_a_silent_link():
    cache_pool = caches["default"]._cache.get_client().connection_pool
    _has_the_site_options(cache_pool.connection_kwargs)
    assert cache_pool.connection_kwargs["retry"].get_retries() == 1
    _has_the_site_options(worker_heartbeat.client().connection_pool.connection_kwargs)


async def test_the_channel_layer_and_the_async_client_give_up_a_silent_link():
    shard = get_channel_layer()._get_layer()._shards[0]
    shard._ensure_redis()
    _has_the_site_options(shard._redis.connection_pool.connection_kwargs)
    assert shard._redis.connection_pool.connection_kwargs["retry"].get_retries() == 1
    _has_the_site_options(redis_async.client().connection_pool.connection_kwargs)


def test_the_broker_gives_up_a_silent_link():
    with celery_app.connection_for_write() as connection:
        kwargs = connection.default_channel.client.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == redis_links.BROKER_COMMAND_TIMEOUT_SECONDS
    assert kwargs["health_check_interval"] == redis_links.HEALTH_CHECK_SECONDS


def test_over_tcp_the_kernel_ends_a_dead_link_within_seconds():
    options = redis_links.timeouts("redis://10.0.0.1:6379/0")
    assert options["socket_keepalive"] is True
    keepalive = options["socket_keepalive_options"]
    assert keepalive[socket.TCP_KEEPIDLE] == 5
    assert keepalive[socket.TCP_USER_TIMEOUT] == 5000
    # A Unix socket takes no TCP option (redis-py refuses them there).
    assert "socket_keepalive" not in redis_links.timeouts("unix:///run/redis.sock")


class ResettingProxy:
    """A TCP proxy in front of a Redis server that can reset every link it carries, as
    a middlebox or a restarted peer does (an RST, not a FIN): the client's kernel ends
    its side at once, under an idle pooled connection."""

    def __init__(self, target_port: int):
        self.target_port, self.writers = target_port, []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        upstream_reader, upstream_writer = await asyncio.open_connection(
            "127.0.0.1", self.target_port
        )
        self.writers.append(writer)
        self.pumps = [
            asyncio.create_task(_pump(reader, upstream_writer)),
            asyncio.create_task(_pump(upstream_reader, writer)),
        ]

    def reset_all(self):
        for writer in self.writers:
            linger = struct.pack("ii", 1, 0)  # close with an RST
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            writer.transport.abort()
        self.writers.clear()


async def _pump(reader, writer):
    with contextlib.suppress(OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()


def test_a_link_reset_under_an_idle_connection_does_not_lose_the_next_event(tmp_path):
    # The web server runs uvloop. There, writing on a link whose RST already arrived
    # raised RuntimeError, which redis-py neither retries nor health-checks: the event
    # (a race's start, a standings frame) was lost (docs/SCALING.md §A night of chaos).
    server = PrivateRedis(tmp_path)
    server.start()

    async def scenario():
        proxy = ResettingProxy(server.port)
        port = await proxy.start()
        listener = redis.asyncio.Redis(port=server.port)
        subscription = listener.pubsub()
        await subscription.subscribe("room")
        await subscription.get_message(timeout=1)  # the subscribe confirmation
        sender = redis_links.async_client(f"redis://127.0.0.1:{port}/0")
        assert await sender.ping()
        proxy.reset_all()
        await asyncio.sleep(0.2)  # the reset has reached the sender's kernel
        assert await sender.publish("room", "race_started") == 1
        heard = await subscription.get_message(timeout=2)
        assert heard["data"] == b"race_started"
        await sender.aclose()
        await subscription.aclose()
        await listener.aclose()

    try:
        uvloop.run(scenario())
    finally:
        server.stop()
