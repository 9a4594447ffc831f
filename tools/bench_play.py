"""make bench-play GAMES=N: N concurrent game rooms played by bot clients over real
WebSockets against uvicorn (config.asgi; ``--server daphne`` for daphne) on PostgreSQL
and the Redis channel layer (docs/online.md). Each client plays the first legal turn
(rolls, takes a double, resigns a Lurč houšek) after a think time (``--think``: a random
pause of 0.5 to 1.5 times it, from the moment the player has the state; players do not
answer in a millisecond); a move's round trip is from sending it until both players'
sockets have the new state, timed for the moves sent in the ``--seconds`` after
``--warmup`` (the sockets connect during it). With --processes 2 the rooms are spread
over two server processes sharing the Redis layer, and with --kill one of them is killed
halfway: its clients reconnect to the other, resend what was not acknowledged, and the
database shows whether any move was lost or played twice. The last line:

    bench-play: N games, round trip p50 X ms, p95 Y ms, moves lost 0, played twice 0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h4"),
    "CHANNEL_LAYER_URL": os.environ.get("BENCH_CHANNEL_LAYER_URL", "redis://127.0.0.1:6379/12"),
    "DJANGO_SECRET_KEY": "bench-play-only-" + "x" * 40,
    "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}


def setup(games: int) -> list[dict[str, Any]]:
    """Users, rooms (seeded, the first roll made) and session cookies, in the bench's
    database."""
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from tournaments.models import Room
    from tournaments.services.online.challenges import challenge_accept, challenge_create
    from tournaments.services.online.rooms import room_act

    call_command("migrate", verbosity=0)
    stamp = int(time.time())
    password = make_password(None)
    users = User.objects.bulk_create(
        [User(username=f"bench{stamp}-{i}", password=password) for i in range(2 * games)]
    )
    backend = settings.AUTHENTICATION_BACKENDS[-1]

    def cookie(user: User) -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"

    out = []
    for i in range(games):
        a, b = users[2 * i], users[2 * i + 1]
        challenge = challenge_create(
            user=a, variant="long", settings={"clock": "none", "length": 3}
        )
        room = challenge_accept(challenge_id=challenge.pk, user=b)
        for user, seed in ((a, "aa"), (b, "bb")):
            seq = Room.objects.get(pk=room.pk).seq
            room_act(
                room_id=room.pk, user=user, message={"action": "seed", "seq": seq, "seed": seed}
            )
        out.append({"room": room.pk, "cookies": [cookie(a), cookie(b)],
                    "seq0": Room.objects.get(pk=room.pk).seq})  # fmt: skip
    return out


def db_seqs(rooms: list[dict[str, Any]]) -> dict[int, int]:
    from tournaments.models import Room

    return dict(Room.objects.filter(pk__in=[r["room"] for r in rooms]).values_list("pk", "seq"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SERVERS = {
    "daphne": ["daphne", "-b", "127.0.0.1", "-p", "{port}", "config.asgi:application"],
    # uvicorn[standard]: uvloop, httptools and the websockets library (docs/deploy.md)
    "uvicorn": [
        "uvicorn",
        "--host",
        "127.0.0.1",
        "--port",
        "{port}",
        "--no-access-log",
        "--log-level",
        "warning",
        "config.asgi:application",
    ],
}


def start_server(port: int, server: str = "daphne") -> subprocess.Popen[bytes]:
    env = {**os.environ, **ENV}
    program, *rest = SERVERS[server]
    proc = subprocess.Popen(
        [str(ROOT / ".venv/bin" / program), *(a.format(port=port) for a in rest)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{server} did not start on port {port}")


def cpu_s(pid: int) -> float:
    """CPU seconds (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Player:
    """One player's socket: the latest state, reconnecting to the next server when its
    own goes away."""

    def __init__(self, room: int, cookie: str, urls: list[str], first: int) -> None:
        self.room, self.cookie, self.urls, self.index = room, cookie, urls, first
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None

    reconnects = 0  # sockets opened again after theirs closed (all players)

    async def connect(self) -> None:
        import websockets
        from websockets.typing import Origin

        if self.ws is not None:
            Player.reconnects += 1
        for attempt in range(len(self.urls) * 120):
            url = self.urls[(self.index + attempt) % len(self.urls)]
            try:
                self.ws = await websockets.connect(
                    f"{url}/ws/rooms/{self.room}/", origin=Origin("http://localhost"),
                    additional_headers={"Cookie": self.cookie}, open_timeout=30,
                )  # fmt: skip
                self.index = (self.index + attempt) % len(self.urls)
                self.reader = asyncio.create_task(self.read())
                return
            except (OSError, Exception):
                await asyncio.sleep(0.5)
        raise RuntimeError("no server answers")

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = json.loads(raw)
                newer = (
                    self.state is None
                    or message.get("state", {}).get("seq", -1) >= self.state["seq"]
                )
                if message["type"] == "state" and newer:
                    self.state = message["state"]
                self.changed.set()
        self.changed.set()

    @property
    def alive(self) -> bool:
        return self.reader is not None and not self.reader.done()

    async def send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(message))


def choice(state: dict[str, Any]) -> dict[str, Any]:
    can, seq = state["can"], state["seq"]
    if "take" in can:
        return {"action": "take", "seq": seq}
    if "roll" in can:
        return {"action": "roll", "seq": seq}
    if not state["legal"]:
        return {"action": "resign", "seq": seq}
    return {"action": "move", "seq": seq, "turn": state["legal"][0]["movetext"]}


def _turn(players: list[Player]) -> Player | None:
    """The player who must act now, when every socket has the newest state."""
    states = [p.state for p in players]
    if any(s is None for s in states):
        return None
    seq = max(s["seq"] for s in states if s is not None)
    for p in players:
        if p.state is not None and p.state["turn"] == p.state["you"] and p.state["seq"] == seq:
            return p
    return None


async def _acknowledged(players: list[Player], mover: Player, message: dict[str, Any],
                        end: float) -> bool:  # fmt: skip
    """Wait until both players have the state after ``message``; a lost server's clients
    reconnect and send it again when it was not acknowledged (a stale seq: it played)."""
    sent = message["seq"]
    while time.monotonic() < end + 30:
        if all(p.state and p.state["seq"] > sent for p in players):
            return True
        if not all(p.alive for p in players):
            for p in players:
                if not p.alive:
                    await p.connect()
            await asyncio.sleep(0.3)
            if not any(p.state and p.state["seq"] > sent for p in players):
                await mover.send(message)
            continue
        for p in players:
            p.changed.clear()
        waits = [asyncio.create_task(p.changed.wait()) for p in players]
        await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()
    return False


async def _thought(players: list[Player], think: float) -> Player | None:
    """The player on turn once they have looked at the position for ``think`` seconds
    (None while the sockets do not agree whose turn it is)."""
    mover = _turn(players)
    if mover is None or think <= 0:
        return mover
    await asyncio.sleep(think)
    return mover if _turn(players) is mover else None


async def _reconnect(players: list[Player]) -> None:
    for p in players:
        if not p.alive:
            await p.connect()


async def play(room: dict[str, Any], urls: list[str], first: int, window: tuple[float, float],
               times: list[float], acked: dict[int, list[int]], think: float,
               delay: float) -> None:  # fmt: skip
    """Play one room until ``window`` ends; the round trips of the moves sent inside it
    are counted (the ones before, while the sockets connect, are played but not timed)."""
    measured, end = window
    players = [Player(room["room"], c, urls, first) for c in room["cookies"]]
    acked[room["room"]] = counted = [0, 0]  # actions sent (not counting resends), acknowledged
    pause = random.Random(room["room"])
    await asyncio.sleep(delay)  # the connects spread over the warm-up
    for p in players:
        await p.connect()
    while time.monotonic() < end:
        await _reconnect(players)
        if players[0].state is not None and players[0].state["status"] != "playing":
            break
        mover = await _thought(players, think * (0.5 + pause.random()))
        if mover is None or mover.state is None:
            await asyncio.sleep(0.01)
            continue
        message = choice(mover.state)
        started = time.perf_counter()
        timed = time.monotonic() >= measured
        await mover.send(message)
        counted[0] += 1
        if await _acknowledged(players, mover, message, end):
            if timed:
                times.append(time.perf_counter() - started)
            counted[1] += 1
    for p in players:
        if p.ws is not None:
            await p.ws.close()


async def run(args: argparse.Namespace, rooms: list[dict[str, Any]]) -> dict[str, Any]:
    ports = [free_port() for _ in range(args.processes)]
    servers = [start_server(port, args.server) for port in ports]
    urls = [f"ws://127.0.0.1:{port}" for port in ports]
    before = sum(rss_kb(s.pid) for s in servers)
    times: list[float] = []
    acked: dict[int, list[int]] = {}
    measured = time.monotonic() + args.warmup
    window = (measured, measured + args.seconds)
    spread = 0.8 * args.warmup / max(1, len(rooms))
    tasks = [asyncio.create_task(play(r, urls, i % len(urls), window, times, acked, args.think,
                                      i * spread)) for i, r in enumerate(rooms)]  # fmt: skip
    await asyncio.sleep(args.warmup)  # every socket is open: the steady state is measured
    during = sum(rss_kb(s.pid) for s in servers if s.poll() is None)
    cpu_before = {s.pid: cpu_s(s.pid) for s in servers}
    client_before = time.process_time()
    if args.kill and len(servers) > 1:
        await asyncio.sleep(args.seconds / 2)
        servers[-1].kill()
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if r is not None]
    if failed:
        print(f"{len(failed)} games could not connect or broke off: {failed[0]!r}")
    server_cpu = sum(cpu_s(s.pid) - cpu_before[s.pid] for s in servers if s.poll() is None)
    for s in servers:
        s.terminate()
    return {"times": times, "acked": acked, "server_cpu": server_cpu,
            "client_cpu": time.process_time() - client_before,
            "per_connection_kb": (during - before) / max(1, 2 * len(rooms))}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30, help="the measured time")
    parser.add_argument("--warmup", type=float, default=15,
                        help="seconds to connect every socket (spread over 80%% of it) "
                             "and play before the measured time")  # fmt: skip
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--kill", action="store_true", help="kill one process halfway")
    parser.add_argument("--server", choices=sorted(SERVERS), default="uvicorn",
                        help="the ASGI server (docs/deploy.md)")  # fmt: skip
    parser.add_argument("--think", type=float, default=2.0,
                        help="a player's mean think time before an action, in seconds")  # fmt: skip
    args = parser.parse_args()
    rooms = setup(args.games)
    load_before = load_average()
    result = asyncio.run(run(args, rooms))
    seqs = db_seqs(rooms)
    lost = twice = 0
    for r in rooms:
        played = seqs[r["room"]] - r["seq0"]
        sent, seen = result["acked"].get(r["room"], [0, 0])
        lost += max(0, seen - played)  # acknowledged, not in the database
        twice += max(0, played - sent)  # more moves played than the clients made
    times = sorted(result["times"])
    p50 = statistics.median(times) * 1000 if times else float("nan")
    p95 = times[int(0.95 * (len(times) - 1))] * 1000 if times else float("nan")
    moves = max(1, len(times))
    print(f"moves {len(times)} in {args.seconds:.0f} s after {args.warmup:g} s of warm-up, "
          f"think {args.think:g} s, "
          f"{args.server} processes {args.processes}{' (one killed)' if args.kill else ''}, "
          f"memory per connection {result['per_connection_kb']:.0f} kB, "
          f"reconnects {Player.reconnects}")  # fmt: skip
    print(f"CPU per move: servers {1000 * result['server_cpu'] / moves:.1f} ms "
          f"(a killed one not counted), clients {1000 * result['client_cpu'] / moves:.1f} ms; "
          f"load average before {load_before}, after {load_average()}")  # fmt: skip
    print(f"bench-play: {args.games} games, round trip p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
          f"moves lost {lost}, played twice {twice}")  # fmt: skip


if __name__ == "__main__":
    main()
