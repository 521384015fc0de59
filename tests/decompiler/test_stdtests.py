"""CPython's own tests as an oracle (bench/stdtests.py): a few pure-Python stdlib modules
have every function replaced by unveil's recompile of itself, and their test module must
pass exactly as before. The modules are code nobody tuned the decompiler on."""
import os
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import stdtests  # noqa: E402

MODULES = ["textwrap", "shlex", "colorsys", "fnmatch", "difflib"]


def test_recompiled_stdlib_modules_pass_their_own_tests():
    for name in MODULES:
        report = stdtests.compare(name, timeout=600, verbose=False)
        assert "skipped" not in report and "broken" not in report, report
        assert report["replaced"] >= 5, report
        assert not report["differ"], (name, report["differ"])


def test_the_oracle_sees_a_wrong_function():
    """Replacing one method by a wrong one makes the module's tests fail: the
    comparison runs the replaced code."""
    wrapper = [f for f in stdtests.functions_of(textwrap) if f.__name__ == "_wrap_chunks"][0]
    original = wrapper.__code__

    def wrong(self, chunks):
        return []
    try:
        wrapper.__code__ = wrong.__code__
        outcomes = stdtests.run_tests("test.test_textwrap")
    finally:
        wrapper.__code__ = original
    assert sum(o != "pass" for o in outcomes.values()) > 10
    assert all(o == "pass" for o in stdtests.run_tests("test.test_textwrap").values())
