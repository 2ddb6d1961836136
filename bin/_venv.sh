# Sourced by bin/run and bin/test: find Python >= 3.12, create .venv, install the project.
# The install is skipped when pyproject.toml and constraints.txt have not changed since
# the last one, so a second start takes a second, not a minute.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.13 python3.12 python3; do
        [ -n "$candidate" ] || continue
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
            command -v "$candidate"; return
        fi
    done
    # pyenv installs other versions beside the global one; their shims refuse to run
    # unless selected, so look for the interpreters themselves.
    for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do
        if [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
    echo "Python 3.12 or newer is needed; set PYTHON=/path/to/python3.12" >&2
    exit 1
}

ensure_venv() {  # $1: pip extras, e.g. "" or "[dev]"
    local extras="$1" stamp=".venv/.installed$1"
    if [ ! -x .venv/bin/python ]; then
        "$(find_python)" -m venv .venv
    fi
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
        .venv/bin/python -m pip install --quiet --upgrade pip
        .venv/bin/python -m pip install --quiet -c constraints.txt -e ".$extras"
        touch "$stamp"
    fi
}
