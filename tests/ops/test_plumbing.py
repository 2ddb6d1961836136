"""The plumbing every feature stands on: websockets through the Redis channel layer,
tasks on a real Celery worker reaching sockets, and a real browser talking to both.
In Chromium: tests/browser/test_plumbing_browser.py."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.utils.module_loading import import_string

from config.asgi import application
from infra.tasks import broadcast_echo

ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
# The socket stack's auth middleware may read sessions and users from the database.
pytestmark = pytest.mark.django_db


async def connect(path="/ws/echo/", headers=ORIGIN):
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    if connected:
        # Redis confirms a SUBSCRIBE only when it processes it; one echo through the
        # layer shows the socket's subscriptions are live before a test publishes.
        await communicator.send_json_to({"echo": "ready?"})
        await communicator.receive_json_from(timeout=5)
    return communicator, connected


def test_the_channel_layer_is_redis_pubsub():
    backend = import_string(settings.CHANNEL_LAYERS["default"]["BACKEND"])
    assert issubclass(backend, RedisPubSubChannelLayer)  # watched: infra/channel_layer.py


async def test_a_socket_message_comes_back_through_the_channel_layer():
    communicator, connected = await connect()
    assert connected
    await communicator.send_json_to({"echo": "hello"})
    reply = await communicator.receive_json_from(timeout=5)
    assert reply == {"type": "echo", "text": "hello", "source": "socket"}
    await communicator.disconnect()


async def test_a_group_message_from_another_layer_reaches_the_socket():
    # A second layer object shares nothing in memory with the consumer's: the message
    # can only arrive through Redis.
    from channels.layers import channel_layers

    communicator, _ = await connect()
    other_layer = channel_layers.make_backend("default")
    assert other_layer is not get_channel_layer()
    await other_layer.group_send("echo", {"type": "echo.message", "text": "hi", "source": "x"})
    assert (await communicator.receive_json_from(timeout=5))["text"] == "hi"
    await communicator.disconnect()


async def test_a_malformed_message_gets_an_error_and_the_socket_stays_open():
    communicator, _ = await connect()
    await communicator.send_to(text_data="{not json")
    assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
    await communicator.send_json_to({"echo": 42})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
    await communicator.send_json_to({"echo": "still here"})
    assert (await communicator.receive_json_from(timeout=5))["text"] == "still here"
    await communicator.disconnect()


@pytest.mark.parametrize(
    "frame", ["[" * 60_000, "[" * 1000, '{"echo": ' * 500 + '"x"' + "}" * 500, "[]", '"x"']
)
async def test_a_nesting_bomb_or_a_frame_that_is_no_object_gets_an_error_and_the_socket_stays_open(
    frame,
):
    communicator, _ = await connect()
    await communicator.send_to(text_data=frame)
    assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
    await communicator.send_json_to({"echo": "still here"})
    assert (await communicator.receive_json_from(timeout=5))["text"] == "still here"
    await communicator.disconnect()


async def test_a_socket_from_a_foreign_origin_is_refused():
    headers = [(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1")]
    _, connected = await connect(headers=headers)
    assert not connected


@pytest.mark.django_db(transaction=True)
async def test_a_task_run_by_the_worker_reaches_a_websocket(celery_worker):
    communicator, _ = await connect()
    await sync_to_async(broadcast_echo.delay)("from the worker")
    reply = await communicator.receive_json_from(timeout=10)
    assert reply == {"type": "echo", "text": "from the worker", "source": "worker"}
    await communicator.disconnect()
