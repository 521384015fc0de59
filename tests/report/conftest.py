import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
# the console script installed beside the interpreter running the tests
UNVEIL = os.path.join(os.path.dirname(sys.executable), "unveil")


def chromium_path():
    """Debian's chromium (UNVEIL_CHROMIUM overrides), or None."""
    for candidate in (os.environ.get("UNVEIL_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), "/usr/lib/chromium/chromium"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def browser_missing():
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        return "chromium is not installed (apt-get install chromium; .ci/run does it)"
    return None


@pytest.fixture(scope="session")
def browser():
    """A headless chromium driven by Playwright. Without one the tests skip, saying why, except
    under CI (CI=true), where they must run."""
    why = browser_missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail("browser tests must run under CI: " + why)
        pytest.skip(why)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def seed_report(tmp_path_factory):
    """(dump dir, report dir) of a real dump of the seed scenario with a graph break, written by
    ``unveil run --report``."""
    pytest.importorskip("torch")
    d = str(tmp_path_factory.mktemp("seed") / "dump")
    result = subprocess.run([UNVEIL, "run", "--report", "--dump", d, os.path.join(HERE, "seed_scenario.py")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "report written to" in result.stderr, result.stderr
    return d, os.path.join(d, "report")
