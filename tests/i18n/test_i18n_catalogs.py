"""The Spanish catalogs are complete: every message translated, nothing fuzzy, the
placeholders kept, the compiled .mo files in step with the .po files, and (where gettext
is installed) no user-facing string of the code missing from them."""

import ast
import gettext
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
DOMAINS = ["django"]  # one catalog: the scripts get their words from the views (docs/I18N.md)


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgid, msgid_plural and every msgstr."""
    entries = []
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        entry = {"flags": "", "context": None, "msgid": None, "plural": None, "msgstr": {}}
        current = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] += line
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?) (".*")$', line)
            if match:
                current = [ast.literal_eval(match.group(3))]
                key = match.group(1)
                if key == "msgctxt":
                    entry["context"] = current
                elif key == "msgid":
                    entry["msgid"] = current
                elif key == "msgid_plural":
                    entry["plural"] = current
                else:
                    entry["msgstr"][match.group(2) or "0"] = current
            elif line.startswith('"'):
                current.append(ast.literal_eval(line))
        if entry["msgid"] is not None:
            entry["msgid"] = "".join(entry["msgid"])
            entry["context"] = "".join(entry["context"]) if entry["context"] else None
            entry["plural"] = "".join(entry["plural"]) if entry["plural"] else None
            entry["msgstr"] = {k: "".join(v) for k, v in entry["msgstr"].items()}
            entries.append(entry)
    return entries


def messages(domain: str) -> list[dict]:
    return [e for e in read_po(LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po") if e["msgid"]]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sdr]|\{\w+\}", text))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_a_spanish_translation(domain):
    entries = messages(domain)
    assert entries, f"{domain}.po has no messages"
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values())]
    assert untranslated == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_message_is_fuzzy(domain):
    po = (LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
    assert "fuzzy" not in po


def test_plural_messages_have_every_spanish_form():
    plurals = [e for e in messages("django") if e["plural"]]
    assert plurals
    for entry in plurals:
        assert sorted(entry["msgstr"]) == ["0", "1", "2"], entry["msgid"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_the_placeholders(domain):
    for entry in messages(domain):
        for text in entry["msgstr"].values():
            assert placeholders(text) == placeholders(entry["plural"] or entry["msgid"]), text


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalog_matches_the_po_file(domain):
    """The .mo is committed (no msgfmt needed to run the site), so it must be current."""
    with open(LOCALE / "es" / "LC_MESSAGES" / f"{domain}.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for entry in messages(domain):
        if entry["plural"]:
            assert compiled.ngettext(entry["msgid"], entry["plural"], 1) == entry["msgstr"]["0"]
            assert compiled.ngettext(entry["msgid"], entry["plural"], 5) == entry["msgstr"]["2"]
        elif entry["context"]:  # the same words, told apart by where they are used
            found = compiled.pgettext(entry["context"], entry["msgid"])
            assert found == entry["msgstr"]["0"], (entry["context"], entry["msgid"])
        else:
            assert compiled.gettext(entry["msgid"]) == entry["msgstr"]["0"], entry["msgid"]


def installed_packages() -> list[str]:
    """Every package the project installs (pyproject.toml), so a new app's strings are
    never left out of the check."""
    project = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text())
    return [
        name.rstrip("*") for name in project["tool"]["setuptools"]["packages"]["find"]["include"]
    ]


def project_copy(tmp_path: Path, domain: str) -> Path:
    """The code (symlinked) beside a copy of the catalog, so makemessages cannot touch
    the real one: it writes into the locale folder nearest to each file."""
    root = tmp_path / "project"
    (root / "locale" / "es" / "LC_MESSAGES").mkdir(parents=True)
    for name in [*installed_packages(), "templates"]:
        (root / name).symlink_to(Path(settings.BASE_DIR) / name)
    shutil.copy(LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po", root / "locale/es/LC_MESSAGES")
    return root


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext's xgettext")
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalog_holds_every_string_marked_in_the_code(domain, tmp_path, monkeypatch):
    from django.core.management import call_command
    from django.test.utils import override_settings

    root = project_copy(tmp_path, domain)
    monkeypatch.chdir(root)
    ignore = ["mahjong/engine/*", "*/tests/*"]
    with override_settings(LOCALE_PATHS=[root / "locale"]):
        call_command(
            "makemessages",
            locale=["es"],
            domain=domain,
            ignore_patterns=ignore,
            symlinks=True,
            verbosity=0,
        )
    fresh = {e["msgid"] for e in read_po(root / "locale/es/LC_MESSAGES" / f"{domain}.po")}
    known = {e["msgid"] for e in messages(domain)}
    assert len(fresh - {""}) >= len(known) * 0.9, "makemessages found too little"
    assert fresh - {""} - known == set(), "run makemessages and translate the new strings"
