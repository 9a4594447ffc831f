"""Plain helpers shared by the test modules (and the programs some tests need)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_django(code_or_args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Run Python in a fresh process with exactly the Django variables given."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CACHE_")) and k != "PYTEST_CURRENT_TEST"
    }
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@dataclass(frozen=True)
class Program:
    """A program that some tests drive, found on this machine or not."""

    marker: str  # the tests that need it carry this pytest marker
    path: str | None  # where it is, None when missing
    wanted: str  # what was looked for
    install: str  # how a developer installs it
    require_env: str  # set to 1 (CI does, .ci/run) to fail instead of skipping

    @property
    def required(self) -> bool:
        return os.environ.get(self.require_env) == "1"


def _gnubg() -> str | None:
    if "NARDY_GNUBG" in os.environ:
        wanted = os.environ["NARDY_GNUBG"]
        return wanted if os.access(wanted, os.X_OK) else None
    found = shutil.which("gnubg")
    return found or ("/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


REDIS_SERVER = shutil.which("redis-server") or shutil.which("/usr/sbin/redis-server")


class RedisServer:
    """A ``redis-server`` of a test's own on a free port, keeping nothing on disk; a test
    stops it and starts it again (everything lost, as a restart without persistence)."""

    def __init__(self, directory: Path) -> None:
        assert REDIS_SERVER is not None, "tests that need it carry the redis marker"
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while not self.answers():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


class CutProxy:
    """A TCP relay to ``port`` that a test can cut, as a network does: every connection
    through it is closed and new ones are refused until ``mend()``; the server behind it
    keeps its data, and nothing sent during the cut reaches it."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.cut_off = False
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            if self.cut_off:
                client.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if self.cut_off:
                    break
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.cut_off = True
        with self.lock:
            for s in self.open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            self.open.clear()

    def mend(self) -> None:
        self.cut_off = False

    def close(self) -> None:
        self.cut()
        self.listener.close()


CHROMIUM = os.environ.get("NARDY_CHROMIUM", "/usr/bin/chromium")
PROGRAMS = (
    Program(
        marker="browser",
        path=CHROMIUM if os.access(CHROMIUM, os.X_OK) else None,
        wanted=CHROMIUM,
        install="sudo apt-get install chromium (or make browser-deps as root)",
        require_env="NARDY_REQUIRE_BROWSER",
    ),
    Program(
        marker="gnubg",
        path=_gnubg(),
        wanted=os.environ.get("NARDY_GNUBG", "gnubg"),
        install="sudo apt-get install gnubg (or make gnubg as root)",
        require_env="NARDY_REQUIRE_GNUBG",
    ),
    Program(
        marker="redis",
        path=REDIS_SERVER,
        wanted="redis-server",
        install="sudo apt-get install redis-server",
        require_env="NARDY_REQUIRE_REDIS",
    ),
)
