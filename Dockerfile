# One image for every role: web (uvicorn), worker and scheduler (celery).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    VAR_DIR=/app/var

WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY mahjong mahjong
COPY infra infra
COPY accounts accounts
COPY practice practice
COPY rooms rooms
COPY records records
COPY replays replays
COPY layouts layouts
COPY templates templates
COPY locale locale
COPY manage.py ./
RUN pip install --no-cache-dir -c constraints.txt . \
    && SECRET_KEY=build REDIS_URL=redis://unused:6379/0 DATABASE_URL=sqlite:////tmp/build.db \
       python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 mahjong \
    && mkdir -p /app/var && chown mahjong /app/var

USER mahjong
EXPOSE 8000
CMD ["uvicorn", "mahjong.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "2", "--proxy-headers", "--ws-max-size", "65536", "--ws-per-message-deflate", "false"]
