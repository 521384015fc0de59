"""unveil run: script execution as __main__, argv, exit codes, --backend, summary.

The dump itself belongs to unveil.torch; here ``prepare_debug`` is replaced by a
fake that writes a known index.json, so these tests check the command's own
work. test_end_to_end.py runs it with the real dump.
"""
import contextlib
import json
import os
import shutil
import sys
import textwrap

import pytest

import unveil
from unveil import cli

from cli_helpers import FIXTURES, run_unveil


@pytest.fixture
def fake_dump(monkeypatch):
    """Replace prepare_debug by a context manager that records its use and
    writes the dump_basic fixture's index.json into the directory."""
    calls = []

    @contextlib.contextmanager
    def prepare_debug(dump_dir, clean_wild_fx_code=True, log_bytecode=False):
        calls.append(("enter", dump_dir))
        os.makedirs(dump_dir, exist_ok=True)
        try:
            yield
        finally:
            shutil.copy(os.path.join(FIXTURES, "dump_basic", "index.json"),
                        os.path.join(dump_dir, "index.json"))
            calls.append(("exit", dump_dir))
    monkeypatch.setattr(unveil, "prepare_debug", prepare_debug)
    return calls


def _script(tmp_path, body, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def test_runs_script_as_main_with_argv(tmp_path, fake_dump, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "helper_mod_for_run.py").write_text("VALUE = 41\n")
    script = _script(tmp_path, """
        import sys
        import helper_mod_for_run          # the script's directory is on sys.path
        print("name", __name__)
        print("argv", sys.argv)
        print("value", helper_mod_for_run.VALUE + 1)
    """)
    argv_before = sys.argv[:]
    code = cli.main(["run", "--dump", "d", str(script), "a1", "--flag", "x"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "name __main__" in out
    assert "argv [%r, 'a1', '--flag', 'x']" % str(script) in out
    assert "value 42" in out
    assert fake_dump == [("enter", "d"), ("exit", "d")]
    assert sys.argv == argv_before
    # summary read from the dump's index.json, and where the dump is
    assert "unveil: 2 functions, 3 entries, 2 graph breaks, 1 recompile, 1 error" in err
    assert "unveil: dump in %s (see: unveil show d)" % (tmp_path / "d") in err


def test_default_dump_dir(tmp_path, fake_dump, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = _script(tmp_path, "pass\n")
    assert cli.main(["run", str(script)]) == 0
    assert fake_dump[0] == ("enter", "unveil_dump")
    assert (tmp_path / "unveil_dump" / "index.json").is_file()


def test_exit_code_of_script_is_propagated(tmp_path, fake_dump, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = _script(tmp_path, "import sys\nprint('before')\nsys.exit(7)\n")
    assert cli.main(["run", str(script)]) == 7
    out, err = capsys.readouterr()
    assert "before" in out and "3 entries" in err  # the summary still comes


def test_exception_in_script_gives_traceback_and_exit_1(tmp_path, fake_dump, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = _script(tmp_path, "def boom():\n    raise ValueError('kaputt')\nboom()\n")
    assert cli.main(["run", str(script)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" in err and "ValueError: kaputt" in err
    assert fake_dump[-1] == ("exit", "unveil_dump")  # the dump was closed properly


def test_sys_exit_with_message(tmp_path, fake_dump, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = _script(tmp_path, "raise SystemExit('bad config')\n")
    assert cli.main(["run", str(script)]) == 1
    assert "bad config" in capsys.readouterr().err


def test_missing_script(tmp_path):
    r = run_unveil("run", tmp_path / "nope.py", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() == "unveil: no such file: %s" % (tmp_path / "nope.py")
    assert not (tmp_path / "unveil_dump").exists()


def test_run_without_script_is_a_usage_error():
    r = run_unveil("run")
    assert r.returncode == 2
    assert "SCRIPT" in r.stderr


# --- --backend -------------------------------------------------------------------------

COMPILES = []


@pytest.fixture(scope="module")
def counting_backend():
    """A named torch.compile backend that counts the graphs it compiles."""
    torch = pytest.importorskip("torch")
    from torch._dynamo.backends.registry import list_backends, register_backend
    name = "unveil_cli_test_counter"
    if name not in list_backends(exclude_tags=()):
        @register_backend(name=name)
        def counter(gm, example_inputs):
            COMPILES.append(gm)
            return gm.forward
    return name


BACKEND_SCRIPT = """
    import torch

    def f(x):
        return x.sin() * 2

    def g(x):
        return x.cos() + 1

    a = torch.compile(f)(torch.ones(3))                  # no backend: gets --backend
    b = torch.compile(g, backend="eager")(torch.ones(3))  # explicit backend: unchanged
    assert torch.allclose(a, torch.ones(3).sin() * 2)
    print("ok")
"""


def _check_backend_run(tmp_path, capsys, backend):
    import torch
    torch._dynamo.reset()
    del COMPILES[:]
    script = _script(tmp_path, BACKEND_SCRIPT)
    assert cli.main(["run", "--backend", backend, str(script)]) == 0
    assert "ok" in capsys.readouterr().out
    assert len(COMPILES) == 1  # f only
    torch._dynamo.reset()


def test_backend_applies_to_calls_without_one(tmp_path, fake_dump, capsys, monkeypatch,
                                              counting_backend):
    from torch._dynamo.backends import registry
    monkeypatch.chdir(tmp_path)
    before = registry.get_default_backend()
    _check_backend_run(tmp_path, capsys, counting_backend)
    assert registry.get_default_backend() == before


def test_backend_on_torch_without_default_backend_setting(tmp_path, fake_dump, capsys,
                                                          monkeypatch, counting_backend):
    # older torch has no set_default_backend: unveil wraps torch.compile instead
    import torch
    from torch._dynamo.backends import registry
    monkeypatch.chdir(tmp_path)
    monkeypatch.delattr(registry, "set_default_backend")
    original = torch.compile
    _check_backend_run(tmp_path, capsys, counting_backend)
    assert torch.compile is original


def test_dump_that_cannot_start_does_not_stop_the_script(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def broken(dump_dir, **kw):
        raise NotImplementedError("unveil.torch.dump is not implemented yet")
    monkeypatch.setattr(unveil, "prepare_debug", broken)
    script = _script(tmp_path, "import sys\nprint('ran')\nsys.exit(4)\n")
    assert cli.main(["run", str(script)]) == 4
    out, err = capsys.readouterr()
    assert "ran" in out
    assert ("unveil: the dump could not start (NotImplementedError: unveil.torch.dump is not "
            "implemented yet); running %s without it" % script) in err
    assert "unveil: no dump of this run was written (the dump could not start)" in err


def test_dump_that_fails_at_the_end_keeps_the_exit_code(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)

    @contextlib.contextmanager
    def failing_exit(dump_dir, **kw):
        yield
        raise OSError("disk full")
    monkeypatch.setattr(unveil, "prepare_debug", failing_exit)
    script = _script(tmp_path, "print('ran')\n")
    assert cli.main(["run", str(script)]) == 0
    out, err = capsys.readouterr()
    assert "ran" in out
    assert "unveil: the dump failed while finishing (OSError: disk full)" in err
