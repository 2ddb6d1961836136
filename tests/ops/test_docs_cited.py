"""The project explains itself only if what it cites is there: every `docs/X.md §<heading>`
named in the code, its templates and its docs is a heading of that page, and every file a
page of docs/ names in backticks exists. A heading renamed or a module moved fails here,
not in a reader's hands."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "node_modules", "var", ".git", "staticfiles", ".hypothesis", "locale"}
TEXTS = {".py", ".js", ".html", ".md", ".toml", ".sh", ".css", ".yml"}
# `X.md §<heading>`, `[X.md §<heading>](X.md#…)`, also wrapped over comment lines.
CITE = re.compile(r"((?:[\w./-]+/)?[A-Z][A-Z_-]*\.md)\]?(?:\([^)]*\))?,? ?§\s*(.{0,120})", re.S)
CITED_ENDS = re.compile(r"[)\],;:\"`]|\.(?:\s|$)| \(")  # where a cited heading stops
WRAP = re.compile(r"\n\s*(?:#|//|\*|\{#)?\s*")
FILE = re.compile(r"`([\w][\w./-]*/[\w./-]+\.(?:py|js|html|css|md|toml|yml|sh|json))`")


def texts():
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if path.suffix in TEXTS and path.is_file() and not SKIP.intersection(parts):
            yield path


def headings(page: Path) -> list[str]:
    lines = page.read_text().splitlines()
    return [re.sub(r"^#+\s*", "", line).strip() for line in lines if line.startswith("#")]


def names_a_heading(rest: str, page_headings: list[str]) -> bool:
    """`rest` (the text after §) begins with one of the headings, or is the start of one
    (`§Fair play` for "Fair play (`rooms/race/actions.py`, …)")."""
    cited = CITED_ENDS.split(rest)[0].strip()
    for heading in page_headings:
        if heading == cited or (heading.startswith(cited) and not heading[len(cited)].isalnum()):
            return True
        if rest.startswith(heading) and rest[len(heading) : len(heading) + 1] in ("", " ", "."):
            return True
    return False


def test_every_docs_heading_cited_in_the_project_exists():
    missing = []
    for path in texts():
        for match in CITE.finditer(path.read_text()):
            name, rest = match.group(1), " ".join(WRAP.sub(" ", match.group(2)).split())
            if rest.startswith("<"):  # a placeholder: `§<heading>`
                continue
            page = ROOT / name if "/" in name else path.parent / name
            page = page if page.exists() else ROOT / "docs" / Path(name).name
            where = f"{path.relative_to(ROOT)}: {name} §{rest[:40]}"
            if not page.exists() or not names_a_heading(rest, headings(page)):
                missing.append(where)
    assert missing == []


def test_every_file_the_docs_name_exists():
    pages = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "tests/README.md"]
    missing = []
    for page in pages:
        for name in FILE.findall(page.read_text()):
            places = [ROOT / name, page.parent / name, *ROOT.glob(f"*/templates/{name}")]
            places += ROOT.glob(f"*/static/{name}")
            if not any(place.exists() for place in places):
                missing.append(f"{page.relative_to(ROOT)}: {name}")
    assert missing == []
