"""The web server's CPU per websocket frame, for each of uvicorn's websocket
implementations (`--ws`): a bare ASGI app under uvicorn (one process, uvloop, no Django)
that answers each text frame it receives with one ack and writes a standings-sized frame
to every socket, the way a room's traffic looks (docs/PERFORMANCE.md).

    .venv/bin/python bench/ws_impl.py --sockets 200 --rounds 50

Per implementation and run: the server process's CPU µs per frame it wrote (read from
/proc), medians over the runs, implementations interleaved. Needs `wsproto` installed for
that one (it is not a dependency of the site)."""

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect

FRAME = "s" + "x" * 1500  # about a full room's standings
APP = """
import asyncio
sockets = set()
async def app(scope, receive, send):
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    sockets.add(send)
    try:
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                return
            text = event.get("text", "")
            await send({"type": "websocket.send", "text": "ack"})
            if text == "fan":
                for other in list(sockets):
                    await other({"type": "websocket.send", "text": FRAME})
    finally:
        sockets.discard(send)
""".replace("FRAME", repr(FRAME))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one_run(port: int, sockets: int, rounds: int, pid: int) -> float:
    clients = [await connect(f"ws://127.0.0.1:{port}/", ping_interval=None) for _ in range(sockets)]
    frames = 0

    async def drain(ws, expect):
        nonlocal frames
        for _ in range(expect):
            await ws.recv()
            frames += 1

    before = cpu_seconds(pid)
    for _ in range(rounds):
        await clients[0].send("fan")
        await asyncio.gather(drain(clients[0], 2), *(drain(ws, 1) for ws in clients[1:]))
    used = cpu_seconds(pid) - before
    for ws in clients:
        await ws.close()
    return used * 1e6 / frames


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--impls", default="websockets-sansio,websockets,wsproto")
    args = parser.parse_args()
    folder = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"ws_impl_{os.getpid()}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "ws_app.py"), "w") as f:
        f.write(APP)
    results = {impl: [] for impl in args.impls.split(",")}
    for _ in range(args.runs):
        for impl in results:
            port = 8390
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "ws_app:app",
                    "--port",
                    str(port),
                    "--ws",
                    impl,
                    "--loop",
                    "uvloop",
                    "--log-level",
                    "warning",
                    "--ws-per-message-deflate",
                    "false",
                ],
                cwd=folder,
            )
            deadline = time.monotonic() + 60
            while not _answers(port) and time.monotonic() < deadline:
                time.sleep(0.2)
            try:
                results[impl].append(
                    asyncio.run(one_run(port, args.sockets, args.rounds, server.pid))
                )
            finally:
                server.terminate()
                server.wait()
    print("| --ws | server CPU µs per frame written (median of runs) | runs |")
    print("|---|---|---|")
    for impl, values in results.items():
        runs = ", ".join(f"{v:.0f}" for v in values)
        print(f"| {impl} | {statistics.median(values):.0f} | {runs} |")


if __name__ == "__main__":
    main()
