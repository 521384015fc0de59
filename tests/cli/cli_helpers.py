import os
import subprocess
import sys

import pytest

# the console script installed beside the interpreter running the tests
UNVEIL = os.path.join(os.path.dirname(sys.executable), "unveil")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def run_unveil(*args, cwd=None, timeout=120):
    """Run the console script; return the CompletedProcess (text mode)."""
    return subprocess.run([UNVEIL] + [str(a) for a in args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def assert_bad_input(result, *words):
    """Exit 2, one line on stderr naming ``words``, no traceback, nothing on stdout."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("unveil: ")
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert result.stdout == ""


def dump_is_implemented():
    from unveil.torch import dump
    return getattr(dump.prepare_debug, "__name__", "") != "_missing"


needs_dump = pytest.mark.skipif(not dump_is_implemented(),
                                reason="unveil.prepare_debug (the torch dump) is not implemented yet")
