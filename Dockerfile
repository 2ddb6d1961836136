# One image for every role: web (uvicorn), worker and scheduler (celery).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    VAR_DIR=/app/var

WORKDIR /app
# pg_dump and pg_restore for the backups (docs/OPERATIONS.md §Backups), of the compose
# server's major version: an older pg_dump refuses a newer server, and a newer one may
# write settings an older server rejects on restore. From PostgreSQL's own apt archive,
# as Debian ships one client version only.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-common \
    && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
    && apt-get install -y --no-install-recommends postgresql-client-16 \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml constraints.txt README.md ./
COPY config config
COPY pages pages
COPY mahjong mahjong
COPY infra infra
COPY accounts accounts
COPY practice practice
COPY rooms rooms
COPY records records
COPY replays replays
COPY layouts layouts
COPY arenas arenas
COPY templates templates
COPY locale locale
COPY manage.py ./
RUN pip install --no-cache-dir -c constraints.txt . \
    && SECRET_KEY=build REDIS_URL=redis://unused:6379/0 DATABASE_URL=sqlite:////tmp/build.db \
       python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 mahjong \
    && mkdir -p /app/var/backups && chown -R mahjong /app/var

USER mahjong
EXPOSE 8000
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "2", "--proxy-headers", "--ws-max-size", "65536", "--ws-per-message-deflate", "false"]
