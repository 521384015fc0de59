"""Module-level code (issue 29): a module's annotations and 3.15's lazy imports.

* Annotations at a module's (a class body's) level: up to 3.13 stored in ``__annotations__`` as
  each statement runs; 3.14+ (PEP 649/749) computed by the module's ``__annotate__`` function,
  which returns those whose statement ran (the module records each in
  ``__conditional_annotations__``; a class body does so for those under an if or a try).
* ``lazy import`` (PEP 810): 3.15 syntax, compiled only there.

Each module is decompiled whole (``unveil.decompile`` of its code object), must compile back
to the same bytecode and, run, must make the same annotations and bindings."""
import sys
import types

import pytest

import unveil
from class_body_util import without_place
from test_whole_objects import run_cli
from unveil.decompiler.errors import DecompilationError
from unveil.decompiler.measure import normalized

LAZY_SYNTAX = pytest.mark.skipif(sys.version_info < (3, 15), reason="lazy imports are 3.15 syntax")

#: name -> a module's source; each annotates names at its own level (and in its classes)
ANNOTATED = {
    "plain": ("kinds = {int: list}\n"
              "x: int = 1\n"
              "y: kinds[int]\n"
              "z: 'later' = x\n"
              "w: kinds[x - 1 or int] = {'a': x}\n"),
    "later_names": ("Later = int\n"  # (up to 3.13 the annotations are evaluated right away)
                    "a: Later = None\n"  # (3.14+: when asked for, after the class below)
                    "class Later:\n"
                    "    pass\n"
                    "b: Later\n"
                    "c: 'Later' = Later()\n"),
    "module_names": ("global g\n"  # (a no-op at module level)
                     "g: int = 1\n"
                     "__all__: list = ['g']\n"
                     "__version__: str = '1.0'\n"
                     "_private: float = 2.0\n"),
    "conditional": ("import sys\n"
                    "if sys.maxsize > 1:\n"
                    "    c: int = 1\n"
                    "else:\n"
                    "    d: str\n"
                    "try:\n"
                    "    e: float = 2.0\n"
                    "except ImportError:\n"
                    "    f: bytes\n"
                    "finally:\n"  # (3.14+: each copy of the finally body numbered anew)
                    "    g: int = 3\n"
                    "for i in range(2):\n"
                    "    h: int = i\n"
                    "k: str = 'end'\n"),
    "unreachable": ("if 0:\n"  # (3.14+: no code records it, __annotate__ still has it)
                    "    h: int = 1\n"
                    "i: str\n"),
    "repeated": ("x: int = 1\n"
                 "x: str\n"
                 "x = 5\n"
                 "x: float = 2.0\n"),
    "with_definitions": ("def f(a: int = 1) -> str:\n"
                         "    b: int = a\n"
                         "    return str(b)\n"
                         "x: int = f(1)\n"
                         "class K:\n"
                         "    y: int = 2\n"
                         "    def m(self) -> 'K':\n"
                         "        return self\n"
                         "z: K = K()\n"),
    "future_annotations": ("from __future__ import annotations\n"  # (each kept as its text)
                           "x: int = 1\n"
                           "y: Later\n"
                           "z: 'quoted' = None\n"
                           "w: list[int] | None = None\n"
                           "def f(a: int, *args: str, b: list[int] = None, **kw: dict[str, 'X']) -> Later:\n"
                           "    return a\n"
                           "class Later:\n"
                           "    a: int\n"
                           "    if x:\n"
                           "        b: str = 'q'\n"
                           "    def m(self, o: Later) -> tuple[int, ...]:\n"
                           "        return ()\n"),
    "docstring": ('"""The module\'s docstring."""\n'  # (before a __future__ import)
                  "from __future__ import division\n"
                  "global x\n"
                  "x: int = 1\n"),
    "user_annotate": ("x: int = 1\n"  # (a def of the name, no function the compiler made)
                      "def __annotate__(format):\n"
                      "    return {'x': int, 'y': format}\n"),
    "class_if_true": ("class C:\n"  # (3.14+: recorded, though the compiler removes the test)
                      "    a: int\n"
                      "    if True:\n"
                      "        h: int = 4\n"),
    "class_conditional": ("flag = True\n"  # (3.14+: a class body records only those under if/try)
                          "class C:\n"
                          "    a: int\n"
                          "    if flag:\n"
                          "        b: str = 'q'\n"
                          "    else:\n"
                          "        c: bytes\n"
                          "    d: float = 1.0\n"
                          "    try:\n"
                          "        e: int = 2\n"
                          "    except Exception:\n"
                          "        pass\n"
                          "    class D:\n"
                          "        if flag:\n"
                          "            f: 'C' = None\n"
                          "        g: list\n"),
}


def _module(code):
    module = types.ModuleType("decompiled_module")
    exec(code, module.__dict__)
    return module


def _own_annotations(obj):
    if sys.version_info >= (3, 10):
        import inspect
        return inspect.get_annotations(obj)
    return dict(vars(obj).get("__annotations__", {}))


def _shown(value):
    """``value`` comparable across two runs: what the module made, by its name."""
    if isinstance(value, (type, types.FunctionType)):
        return value.__qualname__
    if type(value).__module__ == "decompiled_module":
        return "a %s" % type(value).__qualname__
    return value


def _annotations(module):
    """The module's annotations, and those of each class it defines (nested ones too)."""
    found = {"<module>": _own_annotations(module)}
    todo = [v for v in vars(module).values() if isinstance(v, type)]
    while todo:
        cls = todo.pop()
        found[cls.__qualname__] = _own_annotations(cls)
        todo.extend(v for v in vars(cls).values() if isinstance(v, type))
    return {where: {k: _shown(v) for k, v in a.items()} for where, a in found.items()}


def _bindings(module):
    """What the module bound, by name (its imports and dunder names aside), and its docstring."""
    found = {k: _shown(v) for k, v in vars(module).items()
             if not k.startswith("__") and not isinstance(v, types.ModuleType)}
    return dict(found, __doc__=module.__doc__)


def round_trip(source):
    """(the decompiled text, its module code) for ``source``, the bytecode checked the same."""
    code = compile(source, "m.py", "exec")
    text = unveil.decompile(code)
    new = compile(text, "m.py", "exec")
    # (what only says where a class stands, its __firstlineno__, aside: the text has blank lines)
    assert without_place(normalized(new)) == without_place(normalized(code)), text
    return text, new


@pytest.mark.parametrize("name", sorted(ANNOTATED))
def test_module_annotations_come_back_as_written(name):
    source = ANNOTATED[name]
    text, new = round_trip(source)
    original, decompiled = _module(compile(source, "m.py", "exec")), _module(new)
    assert _annotations(decompiled) == _annotations(original), text
    assert _bindings(decompiled) == _bindings(original), text


def test_annotations_stand_where_their_statements_are():
    text, _ = round_trip(ANNOTATED["conditional"] + ANNOTATED["unreachable"])
    assert ("if sys.maxsize > 1:\n    c: int = 1\nelse:\n    d: str\n" in text
            and "finally:\n    g: int = 3\n" in text and "    h: int = i\n" in text), text
    assert text.count("g: int = 3") == 1, text  # (one statement for the finally body's copies)


def test_an_unreachable_annotation_alone():
    """3.14+: its ``__annotate__`` function keeps it, and no annotation is written before or
    after it; up to 3.13 the compiler keeps only that the module has annotations: refused."""
    source = "if False:\n    from typing import IO\n    t: Theme\nx = 1\n"
    if sys.version_info < (3, 14):
        with pytest.raises(DecompilationError, match="annotates no name"):
            unveil.decompile(compile(source, "m.py", "exec"))
        return
    text, new = round_trip(source)
    assert "if False:\n    t: Theme\n" in text and "x = 1\n" in text, text
    assert _annotations(_module(new)) == {"<module>": {}}


def test_only_unkept_annotations_are_refused():
    """``a.b: int`` / ``(x): int`` keep no annotation (3.14+: not even evaluated); the code
    still sets annotations up, which a text without an annotated name would not."""
    source = "import types\na = types.SimpleNamespace()\na.b: int = 2\n(x): int = 1\n"
    with pytest.raises(DecompilationError, match="annotates no name"):
        unveil.decompile(compile(source, "m.py", "exec"))


#: 3.15: lazy imports, next to what stays eager (in a try, in a function, ``__lazy_modules__``)
LAZY = ("import sys\n"
        "lazy import unveil_lazy_probe_a\n"
        "lazy import unveil_lazy_probe_b as b_alias\n"
        "lazy from unveil_lazy_probe_c import VALUE, VALUE as other\n"
        "__lazy_modules__ = ['unveil_lazy_probe_d']\n"
        "import unveil_lazy_probe_d\n"
        "try:\n"
        "    import unveil_lazy_probe_e\n"
        "except ImportError:\n"
        "    pass\n"
        "def later():\n"
        "    import unveil_lazy_probe_f\n"
        "    return unveil_lazy_probe_f.VALUE\n"
        "loaded = sorted(n for n in sys.modules if n.startswith('unveil_lazy_probe'))\n")

PROBES = "abcdef"


@pytest.fixture
def probes(tmp_path, monkeypatch):
    for p in PROBES:
        (tmp_path / ("unveil_lazy_probe_%s.py" % p)).write_text("VALUE = %r\n" % p)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    _forget_probes()


def _forget_probes():
    for p in PROBES:
        sys.modules.pop("unveil_lazy_probe_" + p, None)


@LAZY_SYNTAX
def test_lazy_imports_come_back_lazy(probes):
    text, new = round_trip(LAZY)
    assert "lazy import unveil_lazy_probe_a\n" in text, text
    assert "lazy import unveil_lazy_probe_b as b_alias\n" in text, text
    assert "lazy from unveil_lazy_probe_c import VALUE, VALUE as other\n" in text, text
    runs = []
    for code in (compile(LAZY, "m.py", "exec"), new):
        _forget_probes()
        module = _module(code)
        seen = [module.loaded, module.other, module.b_alias.VALUE, module.later()]
        runs.append(seen)
    # nothing imported lazily (or by __lazy_modules__) was loaded before its first use
    assert runs[0] == [["unveil_lazy_probe_e"], "c", "b", "f"], runs
    assert runs[1] == runs[0], text


@LAZY_SYNTAX
def test_a_relative_lazy_import_comes_back():
    text, _ = round_trip("lazy from . import sibling\nlazy from .pkg.mod import name as other\n")
    assert text == "lazy from . import sibling\nlazy from .pkg.mod import name as other\n"


#: a module's file for ``unveil decompile``: definitions among module-level annotations
CLI_MODULE = (ANNOTATED["with_definitions"] + ANNOTATED["class_conditional"]
              + "def registered(cls):\n"
              "    cls.registered = True\n"
              "    return cls\n"
              "@registered\n"
              "class Point:\n"
              "    x: int\n"
              "    if flag:\n"
              "        y: int = 0\n")


@pytest.fixture
def cli_module(tmp_path):
    (tmp_path / "unveil_annotated_module.py").write_text(CLI_MODULE)
    return tmp_path


def test_cli_prints_the_definitions_of_an_annotated_module(cli_module):
    """3.14+: the compiler's ``__annotate__`` functions are part of what they annotate, no
    definitions of their own (each was listed, and refused)."""
    r = run_cli("decompile", cli_module / "unveil_annotated_module.py")
    assert r.returncode == 0 and "__annotate__" not in r.stdout + r.stderr, r.stdout + r.stderr
    original = _module(compile(CLI_MODULE, "m.py", "exec"))
    namespace = {"flag": True}
    exec(compile(r.stdout, "<decompiled>", "exec"), namespace)
    for name in ("f", "K", "C", "Point"):
        assert _own_annotations(namespace[name]) == _own_annotations(getattr(original, name)), r.stdout
    assert _own_annotations(namespace["C"].D) == _own_annotations(original.C.D), r.stdout


def test_cli_prints_a_class_of_an_annotated_module_whole(cli_module):
    """Its decorator comes from the module decompiled and proved whole (with a module-level
    annotation on 3.14+ the module was refused, and the class printed without it)."""
    r = run_cli("decompile", "unveil_annotated_module:Point", cwd=cli_module)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("@registered\nclass Point:\n    x: int\n    if flag:\n"), r.stdout
