"""The warm path in instructions: what each page of `make bench-web` costs a process,
counted by valgrind (deterministic, unlike requests/s on a shared machine).

    .venv/bin/python tools/bench_warm.py [--requests 50] [--gzip] [--profile PAGE]

Uses the bench's data and settings (``BENCH_DATABASE_URL``, ``CACHE_URL``; run
`tools/bench_web.py` once first to build them). In one process under callgrind, each page
is requested through the real WSGI handler and middleware (``config.wsgi.application``,
as gunicorn calls it, with the headers wrk sends: none but ``Host``), first a few times to
warm it, then ``--requests`` times with collection on; callgrind dumps the counts after
each page. Prints instructions per request and the ratio to the floor's (the bare view).
``--profile PAGE`` keeps that page's callgrind file (for callgrind_annotate) instead.
"""

from __future__ import annotations

import argparse
import io
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WARM_UP = 5


def _environ(path: str, *, gzip: bool) -> dict[str, object]:
    route, _, query = path.partition("?")
    environ: dict[str, object] = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": route,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if gzip:
        environ["HTTP_ACCEPT_ENCODING"] = "gzip"
    return environ


def _child(requests: int, gzip: bool, only: str | None) -> None:
    """Runs under callgrind: each page's measured requests inside one operator.call (the
    function callgrind collects in and dumps after)."""
    from tools import bench_web  # noqa: I001  (first: sets the bench settings' environment)

    from config.wsgi import application  # django.setup(), as gunicorn loads it

    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
        statuses.append(status)

    def get(path: str) -> int:
        result = application(_environ(path, gzip=gzip), start_response)
        size = sum(len(chunk) for chunk in result)
        result.close()
        return size

    for page in bench_web.pages():
        if only is not None and page.name != only:
            continue
        sizes = [get(page.path) for _ in range(WARM_UP)]
        if not statuses[-1].startswith("200"):
            sys.exit(f"{page.name}: {statuses[-1]}")

        def measured(path: str = page.path) -> None:
            for _ in range(requests):
                get(path)

        operator.call(measured)
        print(f"PAGE {page.name}\t{sizes[-1]}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50, help="measured requests a page")
    parser.add_argument("--gzip", action="store_true", help="send Accept-Encoding: gzip")
    parser.add_argument("--profile", metavar="PAGE", help="keep this page's callgrind file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.requests, args.gzip, args.profile)
        return 0
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("valgrind is missing")
    python = sys.executable  # the venv's link to the binary (not a shim script)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            valgrind,
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            "--toggle-collect=_operator_call",
            "--dump-after=_operator_call",
            python,
            __file__,
            "--child",
            f"--requests={args.requests}",
        ]
        if args.gzip:
            command.append("--gzip")
        if args.profile:
            command.append(f"--profile={args.profile}")
        env = os.environ | {"PYTHONPATH": str(ROOT)}
        run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
        if run.returncode:
            sys.exit(run.stdout + run.stderr)
        names = [line.split(" ", 1)[1].split("\t") for line in run.stdout.splitlines()
                 if line.startswith("PAGE ")]  # fmt: skip
        dumps = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.name.split(".")[-1]))
        if args.profile:
            kept = Path(f"callgrind.{re.sub(r'[^a-z0-9]+', '-', args.profile.lower())}.out")
            shutil.copy(dumps[0], kept)
            print(f"kept {kept} (callgrind_annotate --inclusive=yes {kept})")
            return 0
        counts = []
        for dump in dumps:
            match = re.search(r"^(?:summary|totals): (\d+)", dump.read_text(), re.M)
            counts.append(int(match.group(1)) if match else 0)
    if len(counts) != len(names):
        sys.exit(f"{len(names)} pages but {len(counts)} dumps")
    floor = counts[0] / args.requests
    print(f"instructions a warm request ({args.requests} requests a page"
          f"{', gzip' if args.gzip else ''}); floor: the bare view")  # fmt: skip
    print(f"{'page':34} {'bytes':>8} {'instr/request':>14} {'vs floor':>9} {'floor/page':>10}")
    for (name, size), count in zip(names, counts, strict=True):
        per = count / args.requests
        print(f"{name:34} {int(size):>8} {per:>14,.0f} {per / floor:>9.2f} {floor / per:>10.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
