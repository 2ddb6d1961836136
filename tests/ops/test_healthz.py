"""/healthz tells an operator which part of the site is down (200 only when all are up);
/livez tells a balancer whether this one web process can serve (docs/OPERATIONS.md §Health)."""

import pytest
from django.db import connection
from django.test import override_settings


@pytest.mark.django_db(transaction=True)
def test_healthz_is_200_when_database_redis_and_worker_are_up(client, celery_worker):
    response = client.get("/healthz")
    assert response.status_code == 200
    parts = response.json()["parts"]
    assert parts["database"]["ok"] and parts["redis"]["ok"] and parts["worker"]["ok"]


@pytest.mark.django_db
def test_healthz_is_503_and_names_the_worker_when_no_worker_runs(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["parts"]["worker"] == {
        "ok": False,
        "error": "RuntimeError: no Celery worker answered",
        "ms": body["parts"]["worker"]["ms"],
    }
    assert body["parts"]["database"]["ok"]


@pytest.mark.django_db
def test_healthz_is_503_when_redis_cannot_be_reached(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert not response.json()["parts"]["redis"]["ok"]


# --- /livez: this web process can serve (the balancer's check), no worker needed --------


@pytest.mark.django_db
def test_livez_is_200_with_no_worker_running_while_healthz_names_the_worker(client):
    alive = client.get("/livez")
    assert alive.status_code == 200
    assert alive.json()["status"] == "ok"
    assert set(alive.json()["parts"]) == {"database", "channel_layer"}
    site = client.get("/healthz")
    assert site.status_code == 503 and not site.json()["parts"]["worker"]["ok"]


@pytest.mark.django_db
def test_livez_is_503_and_names_the_channel_layer_when_its_redis_is_unreachable(client, settings):
    layer = settings.CHANNEL_LAYERS["default"]
    settings.CHANNEL_LAYERS = {
        "default": {**layer, "CONFIG": {**layer["CONFIG"], "hosts": ["redis://127.0.0.1:1/0"]}}
    }
    response = client.get("/livez")
    assert response.status_code == 503
    parts = response.json()["parts"]
    assert response.json()["status"] == "unavailable"
    assert not parts["channel_layer"]["ok"] and parts["channel_layer"]["error"]
    assert parts["database"]["ok"]


@pytest.mark.django_db(transaction=True)
def test_livez_is_503_and_names_the_database_when_it_cannot_be_opened(client, tmp_path):
    # A real failure: the connection closed, and the database it would reopen is gone.
    name = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = str(tmp_path / "no-such-folder" / "db.sqlite3")
    if connection.vendor == "postgresql":
        connection.settings_dict["NAME"] = "mahjong_no_such_database"
    try:
        response = client.get("/livez")
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name
    assert response.status_code == 503
    parts = response.json()["parts"]
    assert not parts["database"]["ok"] and "OperationalError" in parts["database"]["error"]
    assert parts["channel_layer"]["ok"]
