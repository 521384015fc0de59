"""The ``unveil`` command line: a thin layer over the decompiler and the dump.

Commands::

    unveil decompile TARGET [--out FILE]     module:qualname, a .py file or a .pyc file
    unveil run [--dump DIR] [--backend B] [--break FILE:LINE] [--pdb] [--report] SCRIPT [ARGS...]
    unveil show DIR [--entry ID]
    unveil explain SCRIPT --call 'f(x, 2)' [--dump DIR]
    unveil report DIR [-o OUT]

Exit codes: 0 success, 1 decompilation error, 2 bad input (one-line reason on
stderr, never a traceback) - a code object holding a name that is not an
identifier or a constant marshal cannot write is bad input too. ``unveil run``
exits with the script's own code.
"""
import argparse
import contextlib
import importlib
import importlib.util
import inspect
import marshal
import os
import sys
import types

from . import ranks as ranks_mod
from .dump_index import NotADump, read_index

DEFAULT_DUMP_DIR = "unveil_dump"


class BadInput(Exception):
    """Input the command cannot use; the message is the one-line reason (exit 2)."""


EXIT_CODES = """exit codes:
  0  success
  1  a decompilation failed (decompile), or the script failed (run: the script's own code)
  2  bad input: a one-line reason on stderr, never a traceback
"""


def _build_parser():
    p = argparse.ArgumentParser(
        prog="unveil",
        description="Open up torch.compile: decompile bytecode, dump and explain what the compiler did.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    p.add_argument("--version", action="version", version="unveil %s" % __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    d = sub.add_parser(
        "decompile", help="print Python source for a function, .py or .pyc file",
        description="Print Python source decompiled from bytecode. TARGET is module:qualname "
                    "(e.g. json:dumps), a .py file (each function and method in it) or a .pyc "
                    "file written by this Python.")
    d.add_argument("target", help="module:qualname, a .py file or a .pyc file")
    d.add_argument("--out", metavar="FILE", help="write the source to FILE instead of stdout")

    r = sub.add_parser(
        "run", help="run a script with everything torch.compile does dumped",
        description="Run SCRIPT as __main__ inside unveil.prepare_debug(DIR), without editing "
                    "it, then print a summary of the dump. Exits with the script's exit code "
                    "(2: SCRIPT or an option is bad input).")
    r.add_argument("--break", dest="breaks", metavar="FILE:LINE", action="append", default=[],
                   help="stop in pdb at FILE:LINE: a file of the dump (e.g. "
                        "__transformed_code_0_for_f.py:9) or a line of your source (stops in "
                        "the dumped code torch runs for it); repeatable")
    r.add_argument("--pdb", action="store_true",
                   help="stop in pdb at the first line torch runs from the dump")
    r.add_argument("--dump", metavar="DIR", default=DEFAULT_DUMP_DIR,
                   help="dump directory (default: ./%s)" % DEFAULT_DUMP_DIR)
    r.add_argument("--backend", metavar="B",
                   help="backend for torch.compile calls that do not name one "
                        "(e.g. eager, aot_eager, inductor)")
    r.add_argument("--report", action="store_true",
                   help="write the HTML report of the dump (DIR/report/index.html) after the run")
    r.add_argument("script", metavar="SCRIPT", help="the Python script to run")
    r.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="arguments passed to the script")

    s = sub.add_parser(
        "show", help="summarize a dump directory",
        description="Summarize a dump written by unveil run / unveil.prepare_debug: per "
                    "function its cache entries, guards, recompile reasons and graph files.")
    s.add_argument("dir", metavar="DIR", help="the dump directory")
    s.add_argument("--brief", action="store_true",
                   help="count the guards of each entry instead of listing them")
    s.add_argument("--entry", metavar="ID",
                   help="only this cache entry, with its guard and why it was compiled: a compile "
                        "id (0/1), FN:INDEX (f:1) or a transformed file name")
    x = sub.add_parser(
        "explain", help="which cache entry a call would run, and why",
        description="Run SCRIPT as __main__, then explain CALL (e.g. 'f(x, 2)', evaluated in the "
                    "script's globals) with unveil.explain: per cache entry torch's verdict and "
                    "failing condition, then the entry that would run or why torch would compile.")
    x.add_argument("script", metavar="SCRIPT", help="the Python script that compiles and calls the function")
    x.add_argument("--call", required=True, metavar="CALL", help="the call to explain, e.g. 'f(x, 2)'")
    x.add_argument("--dump", metavar="DIR", help="run the script inside unveil.prepare_debug(DIR)")

    h = sub.add_parser(
        "report", help="write a browsable HTML report of a dump",
        description="Write a static HTML report of a dump (functions, cache entries in the order "
                    "torch checks them, guards, reasons, source beside transformed code, graphs). "
                    "It works offline: open OUT/index.html in a browser.")
    h.add_argument("dir", metavar="DIR", help="the dump directory")
    h.add_argument("-o", "--out", metavar="OUT", help="output directory (default: DIR/report)")
    return p


def _explain(args):
    if not os.path.isfile(args.script):
        _err("no such file: %s" % args.script)
        return 2
    try:
        from .torch.explain import UndefinedName, call_parts, explain_script, undefined_names
        call_parts(args.call)
        missing = undefined_names(args.call, args.script)
        if missing:  # said before the script runs (it may take minutes)
            what = ("name %r is" % missing[0] if len(missing) == 1
                    else "names %s are" % ", ".join(repr(n) for n in missing))
            raise ValueError("--call %r: %s not defined in %s (the script was not run)"
                             % (args.call, what, args.script))
    except (ImportError, ValueError) as e:
        _err(e)
        return 2
    try:
        result = explain_script(args.script, args.call, (), args.dump)
    except UndefinedName as e:
        _err(e)
        return 2
    except Exception as e:
        _err("%s: %s" % (type(e).__name__, _one_line(e)))
        return 1
    sys.stdout.write(str(result))
    return 0


def _err(message):
    print("unveil: %s" % message, file=sys.stderr)


def _one_line(text):
    lines = str(text).strip().splitlines()
    return lines[0] if lines else ""


def _graph_title(g):
    """`` -- <what the graph is>`` for a graph the index names (a DDP bucket split's graphs)."""
    return " -- %s" % _one_line(g["title"]) if g.get("title") else ""


# ---------------------------------------------------------------------------
# unveil decompile

# (first, last) magic-number words per CPython release, from
# Lib/importlib/_bootstrap_external.py; used only to name a foreign version.
_MAGIC_RANGES = [
    (20121, 20121, "1.5"), (50428, 50428, "1.6"), (50823, 50823, "2.0"),
    (60202, 60202, "2.1"), (60717, 60717, "2.2"), (62011, 62021, "2.3"),
    (62041, 62061, "2.4"), (62071, 62131, "2.5"), (62151, 62161, "2.6"),
    (62171, 62211, "2.7"), (3000, 3131, "3.0"), (3141, 3151, "3.1"),
    (3160, 3180, "3.2"), (3190, 3230, "3.3"), (3250, 3310, "3.4"),
    (3320, 3351, "3.5"), (3360, 3379, "3.6"), (3390, 3399, "3.7"),
    (3400, 3419, "3.8"), (3420, 3429, "3.9"), (3430, 3449, "3.10"),
    (3450, 3499, "3.11"), (3500, 3549, "3.12"), (3550, 3599, "3.13"),
    (3600, 3649, "3.14"), (3650, 3699, "3.15"),
]


def python_version_for_magic(magic: bytes):
    """The CPython version that writes ``magic`` (4 bytes), or None if unknown."""
    if len(magic) != 4 or magic[2:] != b"\r\n":
        return None
    word = int.from_bytes(magic[:2], "little")
    for first, last, version in _MAGIC_RANGES:
        if first <= word <= last:
            return version
    return None


def load_pyc(path):
    """The module code object in the .pyc at ``path``; BadInput if it is not one
    this Python can run."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput("cannot read %s: %s" % (path, e.strerror or e))
    magic = data[:4]
    if magic != importlib.util.MAGIC_NUMBER:
        if len(magic) < 4 or magic[2:] != b"\r\n":
            raise BadInput("%s is not a .pyc file (no Python magic number)" % path)
        version = python_version_for_magic(magic)
        word = int.from_bytes(magic[:2], "little")
        running = "%d.%d" % sys.version_info[:2]
        if version is None:
            raise BadInput("%s was written by an unknown Python (magic number %d); "
                           "this is Python %s" % (path, word, running))
        if version == running:  # a pre-release of this version wrote it
            raise BadInput("%s was written by a pre-release of Python %s (magic number %d, "
                           "this Python expects %d)" % (path, version, word, int.from_bytes(
                               importlib.util.MAGIC_NUMBER[:2], "little")))
        raise BadInput("%s was written by Python %s (magic number %d); this is Python %s "
                       "- run unveil under Python %s" % (path, version, word, running, version))
    # PEP 552 header: magic, flags, then mtime+size or a source hash - 16 bytes.
    if len(data) < 16:
        raise BadInput("%s is truncated (header is %d bytes, expected 16)" % (path, len(data)))
    try:
        obj = marshal.loads(data[16:])
    except (EOFError, ValueError, TypeError) as e:
        raise BadInput("%s is corrupt: %s" % (path, e))
    if not isinstance(obj, types.CodeType):
        raise BadInput("%s does not hold a code object (found %s)" % (path, type(obj).__name__))
    return obj


def load_py(path):
    """The module code object compiled (not run) from the .py file at ``path``."""
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        raise BadInput("cannot read %s: %s" % (path, e.strerror or e))
    try:
        return compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as e:
        raise BadInput("%s does not compile: %s (line %s)" % (path, e.msg, e.lineno))
    except ValueError as e:  # e.g. null bytes
        raise BadInput("%s does not compile: %s" % (path, e))


def _is_function_code(code):
    # Function bodies get fast locals; module and class bodies do not.
    return bool(code.co_flags & inspect.CO_OPTIMIZED)


def _qualname(code):
    return getattr(code, "co_qualname", code.co_name)


def _comment_text(text):
    """``text`` safe inside a ``#`` comment: a crafted name may hold a line break,
    which would end the comment and start code."""
    text = str(text)
    return text if text.isprintable() else "".join(
        c if c.isprintable() else repr(c)[1:-1] for c in text)


#: a function whose definition carries more than a constant tuple of defaults
COMPUTED = "computed"


def _literal_defaults(body):
    """{function code: defaults tuple} for functions that ``body`` (a module or
    class body) creates with a constant tuple of positional defaults; COMPUTED for
    those whose definition sets anything else (defaults the body computes, keyword
    defaults, annotations) or passes the function to a decorator before storing it:
    only the body decompiled whole can say what."""
    import dis
    found = {}
    instrs = [i for i in dis.get_instructions(body) if i.opname not in ("CACHE", "EXTENDED_ARG")]
    for k, ins in enumerate(instrs):
        if ins.opname != "MAKE_FUNCTION":
            continue
        flags, n = ins.arg or 0, k + 1
        while n < len(instrs) and instrs[n].opname == "SET_FUNCTION_ATTRIBUTE":
            flags |= instrs[n].arg  # 3.13+: the attributes are set one at a time after it
            n += 1
        stored = n < len(instrs) and instrs[n].opname in ("STORE_NAME", "STORE_GLOBAL")
        if not flags and stored:
            continue
        # The code object is pushed last (before its qualname on <= 3.10), the
        # defaults tuple first; only the case where both are constants is known.
        j = k - 1
        while j >= 0 and instrs[j].opname == "LOAD_CONST" and not isinstance(instrs[j].argval, types.CodeType):
            j -= 1
        if j < 1 or instrs[j].opname != "LOAD_CONST":
            continue
        code = instrs[j].argval
        if stored and flags == 0x01 and instrs[j - 1].opname == "LOAD_CONST" \
                and isinstance(instrs[j - 1].argval, tuple):
            found[code] = instrs[j - 1].argval
        elif code.co_name != "<lambda>":  # (a lambda is written as itself, where it stands)
            found[code] = COMPUTED
    return found


def units_from_code(body):
    """The functions and classes defined directly in a module body: a list of
    ("function", code, defaults), ("definition", code, ModuleDefinitions) for a
    function whose definition the module computes, and ("class", body, ModuleDefinitions)."""
    from .decompiler.function import is_annotate_function
    from .decompiler.safety import check_name
    from .decompiler.whole import ModuleDefinitions
    units = []
    defaults = _literal_defaults(body)
    definitions = ModuleDefinitions(body)
    for const in body.co_consts:
        if not isinstance(const, types.CodeType):
            continue
        if _is_function_code(const):
            if const.co_name.startswith("<") and const.co_name != "<lambda>":
                continue  # comprehensions and generator expressions are not definitions
            if is_annotate_function(const):
                continue  # 3.14+: part of the def (the module's statements) it annotates
            if defaults.get(const) is COMPUTED:
                units.append(("definition", const, definitions))
            else:
                units.append(("function", const, defaults.get(const)))
        else:
            # the name is written into the text as it is: a crafted one is refused
            check_name(const.co_name, "class name", _qualname(const))
            units.append(("class", const, definitions))
    return units


def _decompile_unit(obj, defaults):
    """Source of one function (code object or function), as text."""
    from .decompiler.api import Decompiler
    if isinstance(obj, types.CodeType) and defaults:
        obj = types.FunctionType(obj, {}, obj.co_name, defaults,
                                 tuple(types.CellType() for _ in obj.co_freevars) or None)
    decompiler = Decompiler(obj)
    decompiler.decompile_ast()
    return checked_source(decompiler.text)


def _unit_text(kind, code, extra):
    """Source of one unit of units_from_code; a class is its whole statement (as the module
    proved whole has it, else its body proved alone), so the methods' defaults and
    docstrings are as the body made them."""
    from .decompiler import whole
    from .decompiler.errors import DecompilationError
    if kind == "class":
        try:
            return checked_source(extra.statement(code))
        except DecompilationError:
            return checked_source(whole.class_statement(code))
    if kind == "definition":
        return checked_source(extra.statement(code))
    return _decompile_unit(code, extra)


class InvalidOutput(Exception):
    """The decompiler produced text that is not valid Python (a decompiler bug)."""


def checked_source(text):
    """``text`` if it compiles; InvalidOutput otherwise. The command promises
    valid Python, so text that does not compile is reported, never printed."""
    try:
        compile(text, "<decompiled>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        raise InvalidOutput("the decompiled source does not compile: %s (line %s)"
                            % (getattr(e, "msg", e), getattr(e, "lineno", "?")))
    return text


def _failure_message(exc):
    """One line for a failed decompilation; errors other than
    DecompilationError are decompiler bugs and say so."""
    from .decompiler import DecompilationError
    if isinstance(exc, (DecompilationError, InvalidOutput)):
        return _one_line(exc)
    return "internal error (%s: %s)" % (type(exc).__name__, _one_line(exc))


def render_units(units):
    """(text, failures): the decompiled units, failures as comments in place."""
    parts, failures = [], []
    from .decompiler.errors import UnsafeInput
    for kind, code, extra in units:
        try:
            text = _unit_text(kind, code, extra)
        except UnsafeInput:
            raise  # crafted input: the whole target is refused (exit 2)
        except Exception as e:  # a decompiler bug is this function's failure, not the file's
            message = _failure_message(e)
            failures.append((_qualname(code), message))
            text = "# unveil: could not decompile %s: %s\n" % (
                _comment_text(_qualname(code)), _comment_text(message))
        parts.append(text if text.endswith("\n") else text + "\n")
    return "\n".join(parts), failures


def _resolve_target(target):
    """(source text, failures) for TARGET; raises BadInput / DecompilationError."""
    from . import decompile
    lower = target.lower()
    if lower.endswith(".pyc") or lower.endswith(".py"):
        if not os.path.exists(target):
            raise BadInput("no such file: %s" % target)
        if os.path.isdir(target):
            raise BadInput("%s is a directory, not a file" % target)
        module = load_pyc(target) if lower.endswith(".pyc") else load_py(target)
        with _refused_as_bad_input(target):
            text, failures = render_units(_units_of_module(module, target))
        if not text.strip():
            text = "# unveil: %s defines no functions\n" % _comment_text(target)
        return text, failures
    if ":" not in target:
        if os.path.exists(target):
            raise BadInput("%s: expected a .py or .pyc file" % target)
        raise BadInput("TARGET must be module:qualname, a .py file or a .pyc file, not %r" % target)
    mod_name, _, qual = target.partition(":")
    if not mod_name or not qual:
        raise BadInput("TARGET must be module:qualname, e.g. json:dumps, not %r" % target)
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` does: modules here are importable
    try:
        # whatever the module prints while importing must not end up in the source
        with contextlib.redirect_stdout(sys.stderr):
            obj = importlib.import_module(mod_name)
    except ImportError as e:
        raise BadInput("cannot import module %s: %s" % (mod_name, e))
    except Exception as e:  # the module ran and failed; still the user's input
        raise BadInput("importing %s failed: %s: %s" % (mod_name, type(e).__name__, _one_line(e)))
    for part in qual.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BadInput("%s has no attribute %s (looking up %s)"
                           % (getattr(obj, "__name__", mod_name), part, target))
    if isinstance(obj, type):
        return _class_target(obj, target), []
    from .decompiler.api import resolve, _check_python
    try:
        _check_python()
        resolve(obj)
    except (TypeError, ValueError) as e:
        raise BadInput("%s: %s" % (target, e))
    try:
        with _refused_as_bad_input(target):
            text = checked_source(decompile(obj))
    except BadInput:
        raise
    except Exception as e:
        raise _Failed(_failure_message(e))
    return text, []


def _class_target(cls, target):
    """The proved class statement of the live class ``cls``; BadInput if it has no
    bytecode, _Failed if it cannot be decompiled or proved."""
    from .decompiler import whole
    from .decompiler.api import _check_python
    try:
        _check_python()
        with _refused_as_bad_input(target):
            module_code = whole.module_code_of(cls)
            body = whole.class_body(cls, module_code)
    except (TypeError, ValueError) as e:
        raise BadInput("%s: %s" % (target, e))
    except Exception as e:
        raise _Failed(_failure_message(e))
    try:
        with _refused_as_bad_input(target):
            return checked_source(whole.class_text(cls, module_code, body))
    except BadInput:
        raise
    except Exception as e:
        raise _Failed(_failure_message(e))


def _units_of_module(module, target):
    """units_from_code for a module read from a file; bytecode that cannot be read
    (a crafted or corrupt .pyc) is bad input."""
    from .decompiler.errors import UnsafeInput
    try:
        return units_from_code(module)
    except UnsafeInput:
        raise
    except Exception as e:
        raise BadInput("%s: cannot read the module's bytecode (%s: %s)"
                       % (target, type(e).__name__, _one_line(e)))


@contextlib.contextmanager
def _refused_as_bad_input(target):
    """A code object the decompiler refuses as crafted (UnsafeInput) is bad input:
    nothing of it is printed."""
    from .decompiler.errors import UnsafeInput
    try:
        yield
    except UnsafeInput as e:
        raise BadInput("%s: %s" % (target, _one_line(e)))


class _Failed(Exception):
    """The one target could not be decompiled (exit 1)."""


def _decompile(args):
    try:
        text, failures = _resolve_target(args.target)
    except BadInput as e:
        _err(e)
        return 2
    except _Failed as e:
        _err("cannot decompile %s: %s" % (args.target, e))
        return 1
    if args.out:
        try:
            with open(args.out, "w") as f:
                f.write(text)
        except OSError as e:
            _err("cannot write %s: %s" % (args.out, e.strerror or e))
            return 2
    else:
        sys.stdout.write(text)
    for name, message in failures:
        _err("cannot decompile %s: %s" % (name, _one_line(message)))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# unveil show

def load_index(path):
    """The parsed index.json of the dump directory ``path``; BadInput otherwise."""
    try:
        return read_index(path)
    except NotADump as e:
        raise BadInput(str(e)) from None


def summary_counts(index):
    """{functions, entries, graph_breaks, recompiles, errors} of a dump index."""
    functions = index.get("functions", [])
    entries = sum(len(fn.get("entries", [])) for fn in functions)
    return {
        "functions": len(functions),
        "entries": entries,
        "graph_breaks": len(index.get("graph_breaks", [])),
        # every entry after a function's first exists because a guard failed
        "recompiles": sum(max(len(fn.get("entries", [])) - 1, 0) for fn in functions),
        "errors": len(index.get("errors", [])),
    }


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def summary_line(index):
    c = summary_counts(index)
    line = ", ".join([_plural(c["functions"], "function"), _plural(c["entries"], "entry")
                      .replace("entrys", "entries"), _plural(c["graph_breaks"], "graph break"),
                      _plural(c["recompiles"], "recompile")])
    if c["errors"]:
        line += ", " + _plural(c["errors"], "error")
    return line


def _breaks_of(fn, breaks):
    """The graph breaks that happened in function ``fn`` of the index: same
    (qual)name and, when both are known, a location in its source file."""
    names = {fn.get("qualname"), fn.get("name")} - {None}
    found = []
    for b in breaks:
        if b.get("function") not in names:
            continue
        loc, src = b.get("location"), fn.get("source_file")
        if loc and src and loc.rpartition(":")[0] not in (src, os.path.basename(src)):
            continue
        found.append(b)
    return found


def _break_cause(b):
    """One line for a graph break: what Dynamo could not do (older dumps: the reason's first line)."""
    return _one_line(b.get("cause") or b.get("reason"))


def _break_details(w, b, indent):
    """torch's whole reason for a graph break, and the user code stack that led to it."""
    if b.get("stack"):
        w("%sstack, outermost first:" % indent)
        for frame in b["stack"]:
            w("%s  %s" % (indent, frame))
    reason = [line for line in str(b.get("reason") or "").splitlines() if line.strip()]
    if len(reason) > 1:
        w("%storch's reason:" % indent)
        for line in reason:
            w("%s  %s" % (indent, line.strip()))


def format_show(index, path, brief=False):
    """The text ``unveil show`` prints for a dump index."""
    from .torch import naming  # (no torch import: names only)
    out = []
    w = out.append
    w("unveil dump %s (torch %s, unveil %s)" % (path, index.get("torch", "?"), index.get("unveil", "?")))
    w(summary_line(index))
    if index.get("complete") is False:
        w("incomplete: a process writing this dump is still running or was killed; what it wrote "
          "whole is listed (guards and full_code files are written when prepare_debug exits)")
    graphs_by_fn = {}
    for g in index.get("graphs", []):
        graphs_by_fn.setdefault(g.get("compiled_fn"), []).append(g)
    shown_graphs = set()
    breaks = list(index.get("graph_breaks", []))
    functions = naming.by_torch_name(index)

    for fn in index.get("functions", []):
        w("")
        where = ""
        if fn.get("source_file"):
            where = "  %s" % fn["source_file"]
            if fn.get("first_line") is not None:
                where += ":%d" % fn["first_line"]
        entries = fn.get("entries", [])
        # the heading's name is the function's display name (naming.py: "GPT2LMHeadModel.forward,
        # via can_return_tuple.wrapper", "forward (resumed at line 28)"), torch's names beside it
        w("function %s%s" % (naming.heading_of(fn), where))
        w("  full code: %s" % (fn.get("full_code") or "(not written: the run did not finish)"))
        w("  %s%s" % (naming.count(len(entries), "entry"), ", in the order torch checks them" if len(entries) > 1 else ""))
        stack = fn.get("stack_values") or {}
        for entry in entries:
            w("  %s: %s" % (naming.entry_label(entry.get("index"), entry.get("compile_id")),
                            entry.get("transformed_file") or "(no transformed code)"))
            if entry.get("reason"):
                w("    recompiled because: %s" % naming.with_stack_values(_one_line(entry["reason"]), stack))
            guards = entry.get("guard") or []
            if brief:
                w("    guard: %s" % (naming.count(len(guards), "condition") if guards else "(none)"))
            else:
                w("    guard (%d):" % len(guards) if guards else "    guard: (none)")
                for g in guards:
                    w("      %s" % naming.with_stack_values(g, stack))
            for name in entry.get("compiled_fns") or []:
                files = graphs_by_fn.get(name, [])
                shown_graphs.add(name)
                if not files:
                    w("    graph %s" % name)
                for g in files:
                    w("    graph %s [%s]: %s%s" % (name, g.get("stage"), g.get("file"), _graph_title(g)))
            for name in entry.get("resume_functions") or []:
                w("    resumes in %s" % naming.refer_to(name, functions))
            if entry.get("error"):
                w("    error: %s" % _one_line(entry["error"]))
        for b in _breaks_of(fn, breaks):
            breaks.remove(b)
            loc = " at %s" % b["location"] if b.get("location") else ""
            w("  graph break%s: %s" % (loc, _break_cause(b)))
            if not brief:
                _break_details(w, b, "    ")

    other = [g for g in index.get("graphs", []) if g.get("compiled_fn") not in shown_graphs]
    if other:
        w("")
        w("other graphs and kernels:")
        for g in other:
            w("  %s [%s]: %s%s" % (g.get("compiled_fn"), g.get("stage"), g.get("file"), _graph_title(g)))
    if breaks:
        w("")
        w("graph breaks:")
        for b in breaks:
            loc = " at %s" % b["location"] if b.get("location") else ""
            w("  %s%s: %s" % (naming.refer_to(b.get("function"), functions), loc, _break_cause(b)))
            if not brief:
                _break_details(w, b, "    ")
    if index.get("errors"):
        w("")
        w("errors:")
        for e in index["errors"]:
            w("  %s: %s" % (e.get("where"), _one_line(e.get("message"))))
    return "\n".join(out) + "\n"


def format_ranks(path, dirs, brief=False):
    """``unveil show`` of a directory holding per-rank dumps: each rank's summary, then the
    functions whose cache entries differ between ranks."""
    ranks = {r: (d, load_index(d)) for r, d in dirs.items()}
    out = ["unveil dump %s: %d ranks (%s)" % (path, len(ranks), ", ".join("rank_%d" % r for r in ranks))]
    for r, (d, index) in ranks.items():
        out.append("rank %d: %s%s" % (r, summary_line(index),
                                       " (incomplete)" if index.get("complete") is False else ""))
    lines = ranks_mod.divergences(ranks)
    out.append("")
    out.extend(lines or ["every function was compiled the same way on every rank"])
    out.append("")
    out.append("one rank in full: unveil show %s" % os.path.join(path, "rank_<r>"))
    return "\n".join(out) + "\n"


def _show(args):
    try:
        dirs = ranks_mod.rank_dirs(args.dir)
        if dirs:
            sys.stdout.write(format_ranks(args.dir, dirs, brief=args.brief))
            return 0
        index = load_index(args.dir)
        if getattr(args, "entry", None):
            from .torch.explain import find_dump_entry, format_dump_entry
            found = find_dump_entry(index, args.entry)
            if found is None:
                raise BadInput("%s has no cache entry %r (give a compile id such as 0/1, FN:INDEX "
                               "or a transformed file name)" % (args.dir, args.entry))
            from .torch.naming import by_torch_name
            text = format_dump_entry(*found, functions=by_torch_name(index))
        else:
            text = format_show(index, args.dir, brief=args.brief)
    except BadInput as e:
        _err(e)
        return 2
    except (AttributeError, TypeError, KeyError) as e:  # fields of the wrong type
        _err("%s: index.json is malformed: %s" % (args.dir, e))
        return 2
    sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------------------
# unveil run

class _DefaultBackend:
    """While active, torch.compile calls that name no backend use ``backend``.

    Uses torch's own default-backend setting where it exists, else wraps
    ``torch.compile``; either way restored on exit."""

    def __init__(self, backend):
        self.backend = backend
        self._undo = None

    def __enter__(self):
        if self.backend is None:
            return self
        import functools
        import torch
        registry = getattr(getattr(getattr(torch, "_dynamo", None), "backends", None), "registry", None)
        if registry is not None and hasattr(registry, "set_default_backend") \
                and hasattr(registry, "get_default_backend"):
            previous = registry.get_default_backend()
            registry.set_default_backend(self.backend)
            self._undo = lambda: registry.set_default_backend(previous)
            return self
        original = torch.compile

        @functools.wraps(original)
        def compile(*args, **kwargs):
            kwargs.setdefault("backend", self.backend)
            return original(*args, **kwargs)

        torch.compile = compile
        self._undo = lambda: setattr(torch, "compile", original)
        return self

    def __exit__(self, *exc):
        if self._undo is not None:
            self._undo()
            self._undo = None
        return False


def run_script(script, script_args, dump_dir, backend=None, debugger=None):
    """Run ``script`` as __main__ under prepare_debug(dump_dir); return (exit code, None when
    this run's dump was written, else why not). An exception in the script is printed and
    gives 1, as python does. ``debugger``: a context manager the script runs inside
    (``--break`` / ``--pdb``)."""
    import bdb
    import runpy
    saved_argv, saved_path0 = sys.argv[:], sys.path[0] if sys.path else None
    sys.argv = [script] + list(script_args)
    # as `python SCRIPT` does: the script's directory comes first on sys.path
    script_dir = os.path.dirname(os.path.abspath(script))
    if sys.path:
        sys.path[0] = script_dir
    else:
        sys.path.insert(0, script_dir)
    # A failure of the dump never stops the script (DESIGN.md section 4): if it
    # cannot start, the script runs without it; if it fails at the end, the
    # script's own exit code still wins.
    dump = _start_dump(dump_dir, script)
    code, failure = 0, (None, None, None)
    try:
        with _DefaultBackend(backend):
            try:
                with debugger if debugger is not None else contextlib.nullcontext():
                    runpy.run_path(script, run_name="__main__")
            except SystemExit as e:
                code = _exit_code(e.code)
                if code:
                    failure = sys.exc_info()
            except bdb.BdbQuit:
                _err("quit in the debugger: %s stopped there" % script)
                code, failure = 1, sys.exc_info()
            except KeyboardInterrupt:
                _print_script_error()
                code, failure = 130, sys.exc_info()
            except BaseException:
                _print_script_error()
                code, failure = 1, sys.exc_info()
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None and sys.path:
            sys.path[0] = saved_path0
        if dump is not None:
            try:
                # told how the script ended: one that failed before anything was dumped leaves
                # the directory's earlier dump whole
                dump.__exit__(*failure)
            except Exception as e:
                _err("the dump failed while finishing (%s: %s)" % (type(e).__name__, _one_line(e)))
    return code, _not_written(dump, code)


def _start_dump(dump_dir, script):
    """The entered prepare_debug session, or None when it cannot start. The session's
    warnings while it starts ("cannot dump to DIR") are printed as plain ``unveil:`` lines:
    no line of the user's runs yet, and one of unveil's would say nothing to them."""
    import warnings
    import unveil
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RuntimeWarning)
            dump = unveil.prepare_debug(dump_dir)
            dump.__enter__()
    except Exception as e:
        _err("the dump could not start (%s: %s); running %s without it"
             % (type(e).__name__, _one_line(e), script))
        dump = None
    for w in caught:
        if issubclass(w.category, RuntimeWarning) and str(w.message).startswith("unveil: "):
            print(w.message, file=sys.stderr)
        else:  # torch's own warnings while it is imported: shown as they would have been
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    return dump


def _not_written(dump, code):
    """None when ``dump`` (a finished prepare_debug session) wrote this run's dump, else why not."""
    if dump is None:
        return "the dump could not start"
    if getattr(dump, "disabled", False):
        return "the directory cannot be written"
    if not getattr(dump, "wrote", True):
        return "the script stopped (exit code %d) before torch compiled anything" % code
    return None


def _print_script_error():
    """The exception being handled, printed as ``python SCRIPT`` prints it: the frames of
    unveil and of runpy, which run the script, left out."""
    import traceback
    from .torch.capture import launcher_file
    etype, value, tb = sys.exc_info()
    while tb is not None and launcher_file(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    traceback.print_exception(etype, value, tb)


def _exit_code(value):
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    print(value, file=sys.stderr)
    return 1


def _run(args):
    if not os.path.exists(args.script):
        _err("no such file: %s" % args.script)
        return 2
    if os.path.isdir(args.script):
        _err("%s is a directory, not a script" % args.script)
        return 2
    if not args.script.endswith((".pyc", ".pyo")):
        import warnings
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the run shows the script's SyntaxWarnings, once
                load_py(args.script)  # a script that does not compile is bad input: no run, no dump
        except BadInput as e:
            _err(e)
            return 2
    try:
        from .torch import require_torch
        require_torch("unveil run")  # the dump needs torch; say so plainly
    except ImportError as e:
        _err(str(e))
        return 2
    dump_dir = args.dump
    debugger = None
    if args.breaks or args.pdb:
        from .torch.breakpoints import BadBreak, RunDebugger
        try:
            debugger = RunDebugger(args.breaks, args.pdb, dump_dir)
        except BadBreak as e:
            _err(e)
            return 2
    code, not_written = run_script(args.script, args.args, dump_dir, args.backend, debugger)
    sys.stdout.flush()
    from .torch.dump import current_rank, rank_dir
    if current_rank() is not None and os.path.isdir(rank_dir(dump_dir)):
        dump_dir = os.path.relpath(rank_dir(dump_dir))  # under torch.distributed: this rank's dump
    if not_written:
        # what the directory holds is not this run's: no summary of it
        earlier = os.path.isfile(os.path.join(dump_dir, "index.json"))
        _err("no dump of this run was written (%s)%s" % (
            not_written, "; %s holds an earlier run's dump, left as it was" % dump_dir if earlier else ""))
        return code
    try:
        index = load_index(dump_dir)
    except BadInput as e:
        print("unveil: no summary: %s" % e, file=sys.stderr)
        return code
    print("unveil: %s" % summary_line(index), file=sys.stderr)
    print("unveil: dump in %s (see: unveil show %s)" % (os.path.abspath(dump_dir), dump_dir),
          file=sys.stderr)
    if getattr(args, "report", False):
        _write_report(dump_dir, None)  # a report that fails is said, the script's exit code stays
    return code


# ---------------------------------------------------------------------------
# unveil report

def _write_report(dump_dir, out):
    """Write the report; 0, or 2 with a one-line reason on stderr."""
    from .report import ReportError, write_report
    try:
        path = write_report(dump_dir, out)
    except ReportError as e:
        _err(e)
        return 2
    except OSError as e:
        _err("cannot write the report: %s" % (e.strerror or e))
        return 2
    print("unveil: report written to %s (open it in a browser)" % path, file=sys.stderr)
    return 0


def _report(args):
    return _write_report(args.dir, args.out)


# ---------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command == "decompile":
        return _decompile(args)
    if args.command == "run":
        return _run(args)
    if args.command == "show":
        return _show(args)
    if args.command == "explain":
        return _explain(args)
    if args.command == "report":
        return _report(args)
    parser.print_help()
    return 0
