"""unveil decompile: module:qualname, .py and .pyc targets, --out, exit codes."""
import ast
import importlib.util
import marshal
import os
import py_compile
import sys
import textwrap

import pytest

from unveil import DecompilationError, cli

from cli_helpers import assert_bad_input, run_unveil

SAMPLE = textwrap.dedent('''
    import math

    def area(r, scale=2.0):
        return math.pi * r * r * scale

    class Shape:
        def __init__(self, n):
            self.n = n

        def sides(self):
            total = 0
            for i in range(self.n):
                total += i
            return total

        class Inner:
            def hello(self):
                return "hi"

    class Sub(Shape):
        def sides(self):
            return super().sides() + 1

    values = [v * 2 for v in range(3)]

    def clamp(x, lo, hi):
        if x < lo:
            return lo
        if x > hi:
            return hi
        return x
''')


@pytest.fixture
def sample_py(tmp_path):
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    return path


def _defs(tree):
    """{qualname: node} of every function in a module AST."""
    found = {}

    def walk(body, prefix):
        for node in body:
            if isinstance(node, ast.FunctionDef):
                found[prefix + node.name] = node
            elif isinstance(node, ast.ClassDef):
                walk(node.body, prefix + node.name + ".")
    walk(tree.body, "")
    return found


def _check_sample_output(text):
    tree = ast.parse(text)  # valid Python
    defs = _defs(tree)
    assert set(defs) == {"area", "Shape.__init__", "Shape.sides", "Shape.Inner.hello",
                         "Sub.sides", "clamp"}
    # behaviour survives: run the decompiled module and compare
    ns = {"math": __import__("math")}
    exec(compile(text, "<decompiled>", "exec"), ns)
    assert ns["clamp"](5, 0, 3) == 3 and ns["clamp"](-1, 0, 3) == 0 and ns["clamp"](2, 0, 3) == 2
    assert ns["Shape"](4).sides() == 6
    assert ns["Shape"].Inner().hello() == "hi"
    # the literal default of area is kept
    assert ns["area"](1.0) == pytest.approx(2 * 3.141592653589793)


def test_module_qualname_to_stdout():
    r = run_unveil("decompile", "colorsys:rgb_to_yiq")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("def rgb_to_yiq(r, g, b):")
    ns = {}
    exec(r.stdout, ns)
    import colorsys
    assert ns["rgb_to_yiq"](0.2, 0.4, 0.6) == pytest.approx(colorsys.rgb_to_yiq(0.2, 0.4, 0.6))


def test_module_qualname_of_a_method_and_a_class():
    r = run_unveil("decompile", "json.decoder:JSONDecodeError.__reduce__")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("def __reduce__(self):")
    r = run_unveil("decompile", "json.decoder:JSONDecodeError")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("class JSONDecodeError(ValueError):")
    assert set(_defs(ast.parse(r.stdout))) == {"JSONDecodeError.__init__",
                                               "JSONDecodeError.__reduce__"}


def test_py_file_decompiles_every_function_and_method(sample_py):
    r = run_unveil("decompile", sample_py)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    _check_sample_output(r.stdout)


def test_py_file_is_not_executed(tmp_path):
    path = tmp_path / "boom.py"
    path.write_text("import sys\nprint('ran!')\nsys.exit(3)\n\ndef f(a):\n    return a + 1\n")
    r = run_unveil("decompile", path)
    assert r.returncode == 0, r.stderr
    assert "ran!" not in r.stdout + r.stderr
    assert r.stdout.startswith("def f(a):")


def test_pyc_of_running_python(sample_py, tmp_path):
    pyc = tmp_path / "sample.pyc"
    py_compile.compile(str(sample_py), cfile=str(pyc), doraise=True)
    r = run_unveil("decompile", pyc)
    assert r.returncode == 0, r.stderr
    _check_sample_output(r.stdout)


def test_out_writes_file(sample_py, tmp_path):
    out = tmp_path / "out.py"
    r = run_unveil("decompile", sample_py, "--out", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    _check_sample_output(out.read_text())


def test_python_dash_m_works_too():
    import subprocess
    r = subprocess.run([sys.executable, "-m", "unveil", "decompile", "colorsys:yiq_to_rgb"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("def yiq_to_rgb(y, i, q):")


# --- bad input: exit 2, one line, no traceback --------------------------------------------

def test_missing_py_file(tmp_path):
    assert_bad_input(run_unveil("decompile", tmp_path / "nope.py"), "no such file", "nope.py")


def test_missing_pyc_file(tmp_path):
    assert_bad_input(run_unveil("decompile", tmp_path / "nope.pyc"), "no such file")


def _pyc(tmp_path, name, magic, body):
    path = tmp_path / name
    path.write_bytes(magic + b"\0" * 12 + body)
    return path


def test_pyc_from_python_38(tmp_path):
    # the header CPython 3.8 writes: magic number 3413, then \r\n
    magic = (3413).to_bytes(2, "little") + b"\r\n"
    path = _pyc(tmp_path, "old.pyc", magic, marshal.dumps(compile("x = 1", "m", "exec")))
    assert_bad_input(run_unveil("decompile", path), "Python 3.8", "3413",
                     "this is Python %d.%d" % sys.version_info[:2])


def test_pyc_from_python_313(tmp_path):
    magic = (3571).to_bytes(2, "little") + b"\r\n"
    assert_bad_input(run_unveil("decompile", _pyc(tmp_path, "new.pyc", magic, b"")), "Python 3.13")


def test_pyc_with_unknown_magic(tmp_path):
    magic = (9999).to_bytes(2, "little") + b"\r\n"
    assert_bad_input(run_unveil("decompile", _pyc(tmp_path, "x.pyc", magic, b"")),
                     "unknown Python", "9999")


def test_file_that_is_not_a_pyc(tmp_path):
    path = tmp_path / "text.pyc"
    path.write_text("hello, not bytecode at all\n")
    assert_bad_input(run_unveil("decompile", path), "not a .pyc file")


def test_pyc_whose_body_is_not_a_code_object(tmp_path):
    path = _pyc(tmp_path, "data.pyc", importlib.util.MAGIC_NUMBER, marshal.dumps({"a": 1}))
    assert_bad_input(run_unveil("decompile", path), "does not hold a code object", "dict")


def test_corrupt_pyc(tmp_path):
    path = _pyc(tmp_path, "bad.pyc", importlib.util.MAGIC_NUMBER, b"\xff\x00garbage")
    assert_bad_input(run_unveil("decompile", path), "corrupt")


def test_truncated_pyc(tmp_path):
    path = tmp_path / "short.pyc"
    path.write_bytes(importlib.util.MAGIC_NUMBER + b"\0\0")
    assert_bad_input(run_unveil("decompile", path), "truncated")


def test_py_with_syntax_error(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("def f(:\n    pass\n")
    assert_bad_input(run_unveil("decompile", path), "does not compile", "line 1")


def test_nonexistent_qualname():
    assert_bad_input(run_unveil("decompile", "json:no_such_function"),
                     "json has no attribute no_such_function")


def test_nonexistent_module():
    assert_bad_input(run_unveil("decompile", "no_such_module_xyz:f"),
                     "cannot import module no_such_module_xyz")


def test_target_that_is_neither():
    assert_bad_input(run_unveil("decompile", "just_a_word"), "module:qualname")


def test_qualname_that_is_not_a_function():
    assert_bad_input(run_unveil("decompile", "json:__version__"), "json:__version__")


# --- decompilation errors: exit 1 -------------------------------------------------------

def _fail_on(monkeypatch, name):
    real = cli._unit_text

    def fake(kind, code, extra):
        if code.co_name == name:
            raise DecompilationError("unsupported instruction", function=name, offset=42,
                                     instruction="SETUP_WITH")
        return real(kind, code, extra)
    monkeypatch.setattr(cli, "_unit_text", fake)


def test_one_failing_function_others_still_output(sample_py, monkeypatch, capsys):
    # (a class is one unit: its statement is proved whole, issue 31 item 15)
    _fail_on(monkeypatch, "Shape")
    assert cli.main(["decompile", str(sample_py)]) == 1
    out, err = capsys.readouterr()
    tree = ast.parse(out)  # still valid Python
    assert set(_defs(tree)) == {"area", "Sub.sides", "clamp"}
    assert "# unveil: could not decompile Shape: unsupported instruction in Shape " \
           "at offset 42 (SETUP_WITH)" in out
    assert "cannot decompile Shape" in err and "offset 42" in err


def test_qualname_decompilation_error_exit_1(monkeypatch, capsys):
    import unveil

    def fail(obj):
        raise DecompilationError("cannot structure loop", function="dumps", offset=10,
                                 instruction="JUMP_BACKWARD")
    monkeypatch.setattr(unveil, "decompile", fail)
    assert cli.main(["decompile", "json:dumps"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == ("unveil: cannot decompile json:dumps: cannot structure loop in dumps "
                           "at offset 10 (JUMP_BACKWARD)")


def test_magic_table_names_versions():
    assert cli.python_version_for_magic(importlib.util.MAGIC_NUMBER) == "%d.%d" % sys.version_info[:2]
    assert cli.python_version_for_magic((3413).to_bytes(2, "little") + b"\r\n") == "3.8"
    assert cli.python_version_for_magic((3439).to_bytes(2, "little") + b"\r\n") == "3.10"
    assert cli.python_version_for_magic(b"abcd") is None


def test_decompiler_bug_is_a_failure_not_a_traceback(sample_py, monkeypatch, capsys):
    from unveil.decompiler import api

    real = api.Decompiler.decompile_ast

    def buggy(self, overwrite_fn_name=None, **kwargs):
        if self.code.co_name == "area":
            raise RecursionError("maximum recursion depth exceeded")
        return real(self, overwrite_fn_name, **kwargs)
    monkeypatch.setattr(api.Decompiler, "decompile_ast", buggy)
    assert cli.main(["decompile", str(sample_py)]) == 1
    out, err = capsys.readouterr()
    assert "# unveil: could not decompile area: internal error (RecursionError: " \
           "maximum recursion depth exceeded)" in out
    assert "def clamp(" in out
    assert "Traceback" not in err


def test_source_that_does_not_compile_is_never_printed(sample_py, monkeypatch, capsys):
    from unveil.decompiler import emit

    real = emit.to_source

    def broken(module):
        text = real(module)
        return "3\n    " + text if "def clamp" in text else text
    monkeypatch.setattr(emit, "to_source", broken)
    assert cli.main(["decompile", str(sample_py)]) == 1
    out, err = capsys.readouterr()
    ast.parse(out)
    assert ("# unveil: could not decompile clamp: the decompiled text could not be proved to do what "
            "the bytecode does: the text does not compile") in out
    assert "def area(" in out


def test_qualname_with_invalid_output_or_crash_exits_1(monkeypatch, capsys):
    import unveil
    monkeypatch.setattr(unveil, "decompile", lambda obj: "def f(:\n")
    assert cli.main(["decompile", "json:dumps"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "does not compile" in err

    def crash(obj):
        raise KeyError("oops")
    monkeypatch.setattr(unveil, "decompile", crash)
    assert cli.main(["decompile", "json:dumps"]) == 1
    out, err = capsys.readouterr()
    assert err.strip() == "unveil: cannot decompile json:dumps: internal error (KeyError: 'oops')"


def test_source_that_is_not_proved_is_refused(sample_py, monkeypatch, capsys):
    # text that would behave differently (here: a wrong return) is never printed as source
    from unveil.decompiler import emit

    real = emit.to_source

    def wrong(module):
        text = real(module)
        return text.replace("return hi", "return lo") if "def clamp" in text else text
    monkeypatch.setattr(emit, "to_source", wrong)
    assert cli.main(["decompile", str(sample_py)]) == 1
    out, err = capsys.readouterr()
    assert "return lo" not in out
    assert "# unveil: could not decompile clamp: the decompiled text could not be proved" in out
    assert "cannot decompile clamp" in err


def test_faithful_output_carries_no_mark(sample_py):
    # plain functions, methods (with super()), nested classes and loops round-trip exactly
    r = run_unveil("decompile", sample_py)
    assert r.returncode == 0, r.stderr
    assert "could not decompile" not in r.stdout


def test_pyc_from_a_prerelease_of_this_python(tmp_path):
    word = int.from_bytes(importlib.util.MAGIC_NUMBER[:2], "little") - 1
    path = _pyc(tmp_path, "pre.pyc", word.to_bytes(2, "little") + b"\r\n", b"")
    assert_bad_input(run_unveil("decompile", path),
                     "pre-release of Python %d.%d" % sys.version_info[:2], str(word))


def test_output_of_module_import_does_not_mix_into_the_source(tmp_path):
    (tmp_path / "chatty_mod.py").write_text("print('hello from import')\n\n"
                                            "def g(x):\n    return x * 3\n")
    # the console script finds modules of the current directory, as python -m does
    r = run_unveil("decompile", "chatty_mod:g", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "def g(x):\n    return x * 3\n"
    assert "hello from import" in r.stderr


# --- crafted input: never printed, exit 2 -------------------------------------------------

CRAFTED = textwrap.dedent('''
    def f(a):
        x = a
        return x

    class C:
        def m(self):
            return 1
''')


def _crafted_pyc(tmp_path, change):
    """A .pyc of CRAFTED whose code objects went through ``change(code) -> code``."""
    import types

    def walk(code):
        code = change(code)
        return code.replace(co_consts=tuple(walk(c) if isinstance(c, types.CodeType) else c
                                            for c in code.co_consts))
    module = walk(compile(CRAFTED, "inject.py", "exec"))
    return _pyc(tmp_path, "inject.pyc", importlib.util.MAGIC_NUMBER, marshal.dumps(module))


def _rename_local(code):
    if code.co_name != "f":
        return code
    return code.replace(co_varnames=("a", "x = 1; print('PWNED'); y"))


def _rename_class(code):
    if code.co_name != "C":
        return code
    return code.replace(co_name="C:\n    pass\nprint('PWNED')\nclass D")


@pytest.mark.parametrize("change", [_rename_local, _rename_class], ids=["local", "class"])
def test_pyc_with_crafted_names_prints_no_code(tmp_path, change):
    r = run_unveil("decompile", _crafted_pyc(tmp_path, change))
    assert_bad_input(r, "inject.pyc", "refusing", "PWNED")  # the name is shown as its repr
    assert "\\n" in r.stderr or "x = 1" in r.stderr


def test_crafted_name_in_a_failure_comment_stays_inside_the_comment(tmp_path, monkeypatch, capsys):
    def rename(code):
        if code.co_name != "f" or not hasattr(code, "co_qualname"):
            return code.replace(co_name="f\nprint('PWNED')") if code.co_name == "f" else code
        return code.replace(co_qualname="f\nprint('PWNED')")
    path = _crafted_pyc(tmp_path, rename)
    real = cli._decompile_unit

    def fake(obj, defaults):
        code = getattr(obj, "__code__", obj)
        if code.co_name.startswith("f"):
            raise DecompilationError("bad\nprint('PWNED')", function=code.co_name)
        return real(obj, defaults)
    monkeypatch.setattr(cli, "_decompile_unit", fake)
    assert cli.main(["decompile", str(path)]) == 1
    out, err = capsys.readouterr()
    tree = ast.parse(out)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                and getattr(n.func, "id", None) == "print"]
    assert "PWNED" in out  # shown, inside the comment
