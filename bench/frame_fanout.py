"""Benchmark: the CPU one standings publish costs a web process whose 20 sockets of a room
receive it, as a channel-layer message (`group_send`: msgpack, a queue put, an unpacking,
a wake-up and a dispatch per socket) against a frame (`group_send_frame`: its bytes
decoded once, written to each socket's send; infra/channel_layer.py). Real Redis (the
settings' channel layer), real consumers under channels' own ASGI loop; the sockets'
`send` is channels' test communicator for both. Not a test.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/frame_fanout.py [--rounds 300]

Prints CPU µs per publish (the whole process: publisher, subscriber and the 20 sockets),
medians of the runs, the two ways interleaved.
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from channels.consumer import AsyncConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.testing import ApplicationCommunicator  # noqa: E402

SOCKETS = 20
GROUP = "bench.fanout"
ROW = '{{"seat":{k},"nickname":"Player {k}","cpu":null,"stand_in":false,"status":"playing",'
ROW += '"progress":{k},"finished_ms":null}}'
ROWS = ",".join(ROW.format(k=k) for k in range(SOCKETS))
TEXT = '{"type":"standings","race":1,"v":1,"at":1,"standings":[' + ROWS + "]}"


class Socket(AsyncConsumer):
    """As rooms.consumers.RoomConsumer: in the group, a frame sink, a room_event handler."""

    async def websocket_connect(self, message):
        await self.channel_layer.group_add(GROUP, self.channel_name)
        self.channel_layer.add_frame_sink(self.channel_name, self.write_frame)
        await self.send({"type": "websocket.accept"})

    async def room_event(self, message):
        await self.send({"type": "websocket.send", "text": message["text"]})

    async def write_frame(self, text):
        await self.send({"type": "websocket.send", "text": text})


async def main(rounds: int, runs: int) -> None:
    layer = get_channel_layer()
    sockets = [
        ApplicationCommunicator(Socket.as_asgi(), {"type": "websocket"}) for _ in range(SOCKETS)
    ]
    for socket in sockets:
        await socket.send_input({"type": "websocket.connect"})
        await socket.receive_output(5)
    await asyncio.sleep(0.5)  # the subscription made

    async def message():
        await layer.group_send(GROUP, {"type": "room.event", "kind": "standings", "text": TEXT})

    async def frame():
        await layer.group_send_frame(GROUP, "standings", TEXT)

    results = {"channel-layer message": [], "frame": []}
    for _ in range(runs):
        for name, publish in (("channel-layer message", message), ("frame", frame)):
            started = time.process_time()
            for _ in range(rounds):
                await publish()
                for socket in sockets:
                    out = await socket.receive_output(5)
                    assert out["text"] == TEXT
            results[name].append((time.process_time() - started) * 1e6 / rounds)
    print(f"| {SOCKETS} sockets, one publish | CPU µs per publish (median) | runs |")
    print("|---|---|---|")
    for name, values in results.items():
        runs_text = ", ".join(f"{v:.0f}" for v in values)
        print(f"| {name} | {statistics.median(values):.0f} | {runs_text} |")
    for socket in sockets:
        await socket.send_input({"type": "websocket.disconnect", "code": 1000})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.runs))
