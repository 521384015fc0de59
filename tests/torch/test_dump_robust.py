"""The dump never stops the program, survives a crash, and is never a mix of two runs (issue 14)."""
import json
import os
import random
import signal
import subprocess
import sys
import time
import warnings

import pytest
import torch

import unveil
from unveil.cli import format_show, load_index

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_dump import assert_all_python, load_index as load_checked_index  # noqa: E402


def compiled_add():
    @torch.compile(backend="eager")
    def add(a):
        return a + 1
    return add


def run_undumped(path):
    """prepare_debug(path): the compiled function's result is right and one warning says why."""
    add = compiled_add()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with unveil.prepare_debug(str(path)):
            assert add(torch.ones(2)).tolist() == [2.0, 2.0]
            assert add(torch.ones(3)).tolist() == [2.0, 2.0, 2.0]
    mine = [w for w in caught if "unveil" in str(w.message)]
    assert len(mine) == 1, [str(w.message) for w in mine]
    assert "runs without the dump" in str(mine[0].message)
    assert mine[0].category is RuntimeWarning


def test_a_regular_file_as_dump_dir_warns_once_and_runs(tmp_path):
    path = tmp_path / "not_a_dir"
    path.write_text("keep me\n")
    run_undumped(path)
    assert path.read_text() == "keep me\n"


def unwritable_dir(tmp_path):
    """A directory this process cannot write into: read-only permissions, or (as root, whom
    permissions do not stop) a sysfs directory."""
    if os.geteuid() != 0:
        d = tmp_path / "ro"
        d.mkdir()
        d.chmod(0o555)
        return d
    for d in ("/sys/kernel", "/sys"):
        try:
            os.mkdir(os.path.join(d, "unveil_probe"))
        except OSError:
            return d
        os.rmdir(os.path.join(d, "unveil_probe"))
    pytest.skip("no unwritable directory on this machine")


def test_an_unwritable_dump_dir_warns_once_and_runs(tmp_path):
    d = unwritable_dir(tmp_path)
    before = sorted(os.listdir(d))
    run_undumped(d)
    assert sorted(os.listdir(d)) == before


def test_code_names_with_line_breaks_give_files_that_compile(tmp_path):
    d = str(tmp_path / "dump")

    def g(x):
        print("graph break")
        return x + 1
    odd = "a\nb = 1\r\x0c\u2028z\x00"
    g.__code__ = g.__code__.replace(co_name=odd, **({"co_qualname": "q\nq\u2029"} if sys.version_info >= (3, 11) else {}))
    c = torch.compile(g, backend="eager")
    with unveil.prepare_debug(d):
        assert c(torch.ones(1)).tolist() == [2.0]
    files = assert_all_python(d)
    assert any(f.startswith("__transformed_code_0_for_a_b") for f in files), files
    index = load_checked_index(d)
    assert all("\n" not in f["name"] and "\n" not in f["qualname"] for f in index["functions"])
    # every entry of the function runs from its file: the header comments did not break it
    assert all(e["error"] is None for f in index["functions"] for e in f["entries"])


GRAPH_BREAK = '''
import torch, unveil

def inner(x):
    print("hello")
    return x + 1

def user_fn(x):
    y = x * 2
    return inner(y)

c = torch.compile(user_fn, backend="eager")
with unveil.prepare_debug(DUMP):
    c(torch.ones(2))
'''


def test_graph_break_keeps_the_cause_and_the_user_stack(tmp_path):
    d = str(tmp_path / "dump")
    script = tmp_path / "gb_user.py"
    script.write_text(GRAPH_BREAK.replace("DUMP", repr(d)))
    import runpy
    runpy.run_path(str(script))
    index = load_checked_index(d)
    brk = [b for b in index["graph_breaks"] if b["function"] == "user_fn"]
    assert brk, index["graph_breaks"]
    b = brk[0]
    assert "does not know how to trace builtin operator `print`" in b["cause"]
    assert "does not know how to trace builtin operator `print`" in b["reason"]
    assert "Hint:" in b["reason"]  # torch's whole reason, not only its first line
    assert b["location"] == "%s:5" % script  # the print in the user's inner()
    assert [f.rsplit(" in ", 1)[1] for f in b["stack"]][-2:] == ["user_fn", "inner"]
    readme = open(os.path.join(d, "README.md")).read()
    assert "does not know how to trace builtin operator `print`" in readme
    assert "in user_fn" in readme and "in inner" in readme
    shown = format_show(load_index(d), d)
    assert "graph break at %s:5: Failed to trace builtin operator: Dynamo does not know how to trace " \
           "builtin operator `print`" % script in shown
    assert "%s:10 in user_fn" % script in shown  # the stack
    assert "Hint: Avoid calling builtin `print`" in shown  # torch's reason
    brief = format_show(load_index(d), d, brief=True)
    assert "does not know how to trace builtin operator `print`" in brief and "Hint:" not in brief


# ---------------------------------------------------------------------------
# a crash at any instant, and a new run into an existing dump

KILLED = '''
import sys, torch, unveil
torch._dynamo.config.automatic_dynamic_shapes = False
torch._dynamo.config.recompile_limit = 1000

@torch.compile(backend="eager")
def grow(x, k):
    return x * k

with unveil.prepare_debug(sys.argv[1]):
    print("started", flush=True)
    for k in range(1000):
        grow(torch.ones(2), k)
        print("compiled", k, flush=True)
'''


def assert_listed_and_usable(d):
    """A dump that ``unveil show`` reads, whose every listed file exists and compiles."""
    index = load_index(d)  # raises BadInput when it is not a readable dump
    for f in index["functions"]:
        for e in f["entries"]:
            assert os.path.isfile(os.path.join(d, e["transformed_file"]))
    for g in index["graphs"]:
        assert os.path.isfile(os.path.join(d, g["file"]))
    assert_all_python(d) if any(n.endswith(".py") for n in os.listdir(d)) else None
    assert os.path.isfile(os.path.join(d, "README.md"))
    out = subprocess.run([sys.executable, "-m", "unveil", "show", d], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return index, out.stdout


def kill_after(script, d, compiles, extra_delay):
    """Start the script, SIGKILL it ``extra_delay`` seconds after it reported ``compiles``
    compilations (0: right after it entered prepare_debug)."""
    proc = subprocess.Popen([sys.executable, str(script), d], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        want = "started" if compiles == 0 else "compiled %d" % (compiles - 1)
        deadline = time.monotonic() + 240
        for line in proc.stdout:
            if line.strip() == want or time.monotonic() > deadline:
                break
        time.sleep(extra_delay)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def test_sigkill_at_any_instant_leaves_a_usable_dump_and_a_rerun_replaces_it_whole(tmp_path):
    d = str(tmp_path / "dump")
    script = tmp_path / "killed.py"
    script.write_text(KILLED)
    rng = random.Random(os.getpid())
    # right after entering prepare_debug, then at a random instant in the middle of compiles
    for compiles, delay in ((0, 0.0), (3, rng.uniform(0.0, 0.3))):
        kill_after(script, d, compiles, delay)
        index, shown = assert_listed_and_usable(d)
        assert index["complete"] is False
        assert "incomplete" in shown
        assert "incomplete" in open(os.path.join(d, "README.md")).read()
        if compiles:
            entries = [e for f in index["functions"] for e in f["entries"]]
            assert len(entries) >= compiles - 1  # what was written before the kill is listed
    killed_files = {n for n in os.listdir(d) if n.endswith(".py")}
    assert killed_files
    # a new run into the same directory: the killed run's files are gone, not mixed in
    done = tmp_path / "done.py"
    done.write_text(KILLED.replace("range(1000)", "range(1)").replace("grow", "other"))
    out = subprocess.run([sys.executable, str(done), d], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    index, shown = assert_listed_and_usable(d)
    assert index["complete"] is True and "incomplete" not in shown
    assert [f["name"] for f in index["functions"]] == ["other"]
    left = {n for n in os.listdir(d) if n.endswith(".py")}
    assert not [n for n in left if "grow" in n], left
    readme = open(os.path.join(d, "README.md")).read()
    assert "replaces this dump whole" in readme
    # the dump says how to stop in it: pdb, VS Code, unveil run --break
    assert "## Setting breakpoints" in readme and "VS Code" in readme and "--break" in readme


def test_a_second_run_into_a_finished_dump_replaces_it_whole(tmp_path):
    """(A second prepare_debug of one process stands for a re-run: the killed run above is
    another process.)"""
    d = str(tmp_path / "dump")

    @torch.compile(backend="eager")
    def grow(x, k):
        return x * k

    @torch.compile(backend="eager")
    def other(x):
        return x - 1

    with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
        with unveil.prepare_debug(d):
            for k in range(3):
                grow(torch.ones(2), k)
        torch._dynamo.reset()  # as in a new process (else grow's entries are listed as compiled before)
        with unveil.prepare_debug(d):
            other(torch.ones(2))
    index = load_checked_index(d)
    assert [f["name"] for f in index["functions"]] == ["other"]
    assert sorted(n for n in os.listdir(d) if n.endswith(".py")) == sorted(
        [f["full_code"] for f in index["functions"]]
        + [e["transformed_file"] for f in index["functions"] for e in f["entries"]]
        + [g["file"] for g in index["graphs"]])
