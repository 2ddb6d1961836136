"""docker-compose.yml matches the code: no engine runs here, so check its shape."""

import ast
import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = {"web", "worker", "pool-worker", "scheduler"}
ENV_READERS = {"env", "env_bool", "env_list", "env_int"}


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def names_the_settings_read() -> set[str]:
    tree = ast.parse((ROOT / "config" / "settings.py").read_text())
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) in ENV_READERS
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_compose_has_every_service_each_with_a_healthcheck():
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", *APP_SERVICES}
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no healthcheck"


def test_postgres_keeps_its_data_in_a_volume():
    data = compose()
    assert "postgres-data" in data["volumes"]
    assert any(v.startswith("postgres-data:") for v in data["services"]["postgres"]["volumes"])


def test_app_services_set_only_variables_the_settings_read():
    read = names_the_settings_read()
    for name in APP_SERVICES:
        service = compose()["services"][name]
        assert service["build"] == "."
        assert set(service["environment"]) <= read, name


def test_app_services_set_the_variables_production_needs():
    needed = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}
    assert needed <= names_the_settings_read()
    for name in APP_SERVICES:
        environment = compose()["services"][name]["environment"]
        assert needed <= set(environment), name
        assert environment["REDIS_URL"].startswith("redis://redis:")
        assert "@postgres:5432/" in environment["DATABASE_URL"]


def test_the_app_services_wait_for_healthy_postgres_and_redis():
    for name in APP_SERVICES:
        depends = compose()["services"][name]["depends_on"]
        assert depends == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }


def test_the_worker_and_scheduler_run_celery_on_the_project_app():
    services = compose()["services"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert "celery" in services["worker"]["command"]
    assert services["pool-worker"]["command"][-3:-1] == ["pools", "--hostname"]
    assert services["scheduler"]["command"][:4] == ["celery", "-A", "config", "beat"]


def test_the_image_holds_every_folder_the_site_runs_from():
    # Every package the project installs (pyproject.toml), so a new app cannot be left
    # out of the image (infra, practice and records once were), and the site's own files.
    dockerfile = (ROOT / "Dockerfile").read_text()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [
        name.rstrip("*") for name in project["tool"]["setuptools"]["packages"]["find"]["include"]
    ]
    assert {"mahjong", "infra", "accounts", "practice", "rooms", "records"} <= set(packages)
    for folder in (*packages, "templates", "locale"):
        assert f"COPY {folder} {folder}" in dockerfile, folder


def test_the_web_healthcheck_passes_with_no_worker_and_asks_livez(asgi_server, monkeypatch):
    """The compose web check is /livez (docs/OPERATIONS.md §Health): run as written,
    against a live server with no Celery worker, it exits 0."""
    command = compose()["services"]["web"]["healthcheck"]["test"]
    assert command[:3] == ["CMD", "python", "-c"] and "'/livez'" in command[3]
    script = command[3].replace("8000", str(asgi_server.port))
    monkeypatch.setenv("ALLOWED_HOSTS", "localhost,127.0.0.1")
    assert subprocess.run([sys.executable, "-c", script], timeout=30).returncode == 0


def test_the_balancer_checks_each_web_host_with_livez():
    spec = importlib.util.spec_from_file_location("topology", ROOT / "bench/scale/topology.py")
    topology = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(topology)
    config = topology.Topology(small=True).haproxy_config()
    assert "http-check send meth GET uri /livez " in config


def test_the_pool_worker_writes_backups_to_a_volume_with_the_servers_pg_dump():
    """The nightly backup runs on the pool worker (CELERY_TASK_ROUTES), so its dumps land
    in the `backups` volume there, at BACKUP_DIR's default under VAR_DIR; the image's
    client is the compose server's major version (docs/OPERATIONS.md §Backups)."""
    from django.conf import settings

    data = compose()
    assert settings.CELERY_TASK_ROUTES["infra.tasks.backup_database"] == {"queue": "pools"}
    assert "backups" in data["volumes"]
    assert "backups:/app/var/backups" in data["services"]["pool-worker"]["volumes"]
    environment = data["services"]["pool-worker"]["environment"]
    assert (
        "BACKUP_DIR" not in environment and "VAR_DIR=/app/var" in (ROOT / "Dockerfile").read_text()
    )
    major = data["services"]["postgres"]["image"].split(":")[1]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert f"postgresql-client-{major} " in dockerfile
    assert "mkdir -p /app/var/backups" in dockerfile
