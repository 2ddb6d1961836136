"""Each pytest-xdist worker (`bin/test` runs four, `-n`) gets services of its own, so two
workers never see each other's rooms, sockets, tasks or cache.

Loaded as a plugin (pyproject.toml `-p tests.xdist_worker`) because pytest-django reads
the settings before any conftest is imported; xdist names the worker in the environment
(PYTEST_XDIST_WORKER) before that. A run without xdist changes nothing.

- VAR_DIR: a folder of its own, VAR_DIR/gwN: with REDIS_URL unset that is its own
  embedded Redis (the session starts it, tests/conftest.py) and its own SQLite file.
- REDIS_URL set (CI): the same server, database number base+1+N, which keeps the cache,
  the Celery broker and queues, the socket cap's and watchers' keys apart.
- CHANNEL_PREFIX: pub/sub channels are not kept apart by database number, so the
  channel layer's prefix names the worker too.
- The test database: pytest-django suffixes its name with the worker (test_mahjong_gw0).
- Live servers take free ports (tests/conftest.py free_port), so none is shared.

Processes a test starts (a web server, `manage.py serve`) inherit this environment.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def redis_url_for_worker(url: str, index: int) -> str:
    """`url` with the database number moved up by 1 + index: redis://h:6379/0 for the
    second worker (index 1) is redis://h:6379/2."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        # Celery's broker spells a socket's database differently (infra/embedded_redis.py).
        raise RuntimeError(f"REDIS_URL {parts.scheme}:// cannot be split by worker: use -n 0")
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + 1 + index}"))


def worker_environment(worker: str, environ) -> dict[str, str]:
    """The variables worker `worker` ("gw0", "gw1"...) sets over `environ`."""
    index = int(worker.removeprefix("gw"))
    var_dir = Path(environ.get("VAR_DIR") or ROOT / "var")
    changes = {
        "VAR_DIR": str(var_dir / worker),
        "CHANNEL_PREFIX": f"{environ.get('CHANNEL_PREFIX') or 'mahjong'}-{worker}",
    }
    if environ.get("REDIS_URL"):
        changes["REDIS_URL"] = redis_url_for_worker(environ["REDIS_URL"], index)
    return changes


if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.update(worker_environment(os.environ["PYTEST_XDIST_WORKER"], os.environ))
