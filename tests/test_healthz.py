"""/healthz tells an operator which part is down, and says 200 only when all are up."""

import pytest
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
