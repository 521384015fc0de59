"""The bytecode hook: Dynamo's transformed code -> a dumped file -> the code torch runs.

For each (original code, transformed code) pair Dynamo produces, unveil
decompiles the transformed code, writes it to ``__transformed_code_<i>_for_<fn>.py``
and compiles *that file's text* with the file's absolute path as ``co_filename``
(:func:`unveil.decompiler.recompile.compile_source`), so a breakpoint set in the
file is hit when torch runs the entry.

The replacement is returned to Dynamo only when it is provably the same
program: the same layout (argument names, local slots, cell and free variables,
flags; :func:`~unveil.decompiler.recompile.check_layout`) and either the same
normalized bytecode or the same paths of effects under :mod:`.verify`'s
symbolic interpreter. Anything else (a ``DecompilationError``, any exception,
a difference) makes the hook return ``None`` -- Dynamo's own code runs -- and
the file gets the disassembly and the error instead.

:mod:`.graph_runner` does the same for graph code (eager / aot_eager).
"""
import ast
import dis
import sys
import types

from unveil.decompiler.api import gc_paused

#: the ``if False:`` statement that fixes the order of local slots (compiles to no code)
RUNS_HERE = "# torch runs the code compiled from this file: breakpoints set here are hit.\n\n"
SLOTS_COMMENT = "# (unveil) declares the local variable slots in Dynamo's order; generates no code"


class NotEquivalent(Exception):
    """The code compiled from the decompiled text is not provably Dynamo's program."""


def prove_same(new: types.CodeType, like: types.CodeType) -> None:
    """Raise :class:`NotEquivalent` unless ``new`` (layout already checked) computes what
    ``like`` computes: the decompiler's translation validator, else :mod:`.verify`'s paths of effects (it also models the lists Dynamo's
    code builds and reshuffles, which the validator takes as events)."""
    from unveil.decompiler.errors import NotEquivalent as Unproved
    from unveil.decompiler.validate import check
    from .verify import Unverifiable, same_effects
    try:
        check(like, new)
        return
    except Unproved as first:
        reason = first
    try:
        same_effects(new, like)
    except Unverifiable as exc:
        raise NotEquivalent("not provably the same program as Dynamo's code: %s; %s"
                            % (reason, exc)) from None


class Decompiled(str):
    """Decompiled text; ``consts`` maps the ``__unveil_const_<k>`` names in it to the
    constants of the code that have no literal form."""
    consts = None


def decompile_as(code: types.CodeType, def_name: str, declare_slots: bool = False) -> str:
    """The decompiler's text for ``code`` as ``def <def_name>(...)`` (a :class:`Decompiled`).

    With ``declare_slots``, the non-argument locals of ``code`` are declared first in the
    function (:func:`unveil.decompiler.recompile.declare_locals`), so the compiler numbers
    the local slots like Dynamo did; the declaration carries a comment saying so."""
    from unveil.decompiler import Decompiler
    from unveil.decompiler.emit import to_source
    from unveil.decompiler.recompile import declare_locals
    # proved after compilation, against Dynamo's code (prove_same), not here; made text once,
    # after the declaration (writing and checking the text twice was a tenth of the hook's time)
    module, ctx = Decompiler(code).build_ast(def_name)
    declared = False
    if declare_slots:
        fn = next((n for n in ast.walk(module) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name == def_name), None)
        if fn is None:
            raise NotEquivalent("no function %s in the decompiled text" % def_name)
        before = len(fn.body)
        declare_locals(fn, code)
        declared = len(fn.body) != before
    text = to_source(module)
    if declared:
        text = _comment_declaration(text, def_name)
    text = Decompiled(text)
    text.consts = dict(ctx.consts)
    return text


def _comment_declaration(text: str, def_name: str) -> str:
    """Put :data:`SLOTS_COMMENT` above the declaration: the first ``if False:`` of the function."""
    lines = text.splitlines(True)
    for k, line in enumerate(lines):
        if line.strip() == "if False:" and k > 0 and lines[k - 1].lstrip().startswith("def %s(" % def_name):
            indent = line[:len(line) - len(line.lstrip())]
            lines.insert(k, indent + SLOTS_COMMENT + "\n")
            break
    return "".join(lines)


def consts_comment(consts) -> str:
    if not consts:
        return ""
    lines = ["(unveil) names for constants of Dynamo's code that have no literal form; the code"
             " torch runs holds the objects themselves:"]
    for name, value in consts.items():
        text = repr(value)
        lines.append("  %s = %s" % (name, text if len(text) <= 100 else text[:97] + "..."))
    return comment_block("\n".join(lines)) + "\n"


class Transformed:
    """Outcome for one cache entry: the file text, and the code torch should run (or None)."""

    def __init__(self, text, code, error, decompiled):
        self.text = text
        self.code = code
        self.error = error
        self.decompiled = decompiled


def comment_block(text: str, prefix: str = "# ") -> str:
    # a comment can hold any character but NUL (the compiler refuses it) and lone surrogates
    # (UTF-8 cannot write them); a code name can hold both
    text = text.replace("\x00", "\\x00").encode("utf-8", "backslashreplace").decode("utf-8")
    return "\n".join((prefix + line).rstrip() for line in text.splitlines()) + "\n"


def disassembly(code: types.CodeType) -> str:
    import io
    out = io.StringIO()
    dis.dis(code, file=out)
    return out.getvalue()


def transform(new_code: types.CodeType, def_name: str, path: str, header: str,
              log_bytecode: bool = False) -> Transformed:
    """Decompile Dynamo's ``new_code`` into the text of the file at ``path`` and compile it.

    Never raises: failures are reported in ``Transformed.error`` and written into the text."""
    decompiled = None
    try:
        from unveil.decompiler.disassembly import disassembly_kept
        from unveil.decompiler.recompile import compile_source
        # each code object disassembled once: Dynamo's code is read by the decompiler and the
        # proof, the compiled one by the bytecode check and the proof
        with disassembly_kept():
            decompiled = decompile_as(new_code, def_name, declare_slots=True)
            consts = decompiled.consts or {}
            text = header + RUNS_HERE + consts_comment(consts) + decompiled
            code = compile_source(text, new_code, path, def_name, consts)
            prove_same(code, new_code)
        if log_bytecode:
            text += "\n" + comment_block("Dynamo's bytecode for this entry:\n" + disassembly(new_code))
        return Transformed(text, code, None, decompiled)
    except BaseException as exc:  # anything: Dynamo's own code runs instead
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        error = "%s: %s" % (type(exc).__name__, exc)
        where = user_place(new_code, getattr(exc, "offset", None) or _first_offset(error))
        if where:
            error = "%s: %s" % (where, error)
        return Transformed(failure_text(header, new_code, error, decompiled), None, error, decompiled)


def _first_offset(error: str):
    """The offset in Dynamo's code a proof's message names (``original offset 92``), or None."""
    import re
    found = re.search(r"original offset (\d+)", error)
    return int(found.group(1)) if found else None


def user_place(code: types.CodeType, offset) -> str:
    """Where in the user's source the instruction at ``offset`` of Dynamo's ``code`` came from:
    ``near line 21 of model.py (`log.warning("c=%s", c)`)`` (Dynamo keeps the user's lines),
    or "" when unknown."""
    import linecache
    if offset is None:
        return ""
    starts = [(start, lineno) for start, lineno in dis.findlinestarts(code) if lineno is not None]
    line = next((lineno for start, lineno in reversed(starts) if start <= offset), None)
    if line is None or line <= code.co_firstlineno:
        # Dynamo's code keeps the ``def`` line until it reaches the user's statement it breaks at
        line = next((lineno for start, lineno in starts if start > offset and lineno > code.co_firstlineno), line)
    if line is None:
        return ""
    text = linecache.getline(code.co_filename, line).strip()
    return "near line %d of %s%s" % (line, code.co_filename, " (`%s`)" % text if text else "")


def failure_text(header: str, new_code: types.CodeType, error: str, decompiled) -> str:
    parts = [header,
             "# unveil could not turn this entry into debuggable Python, so torch runs Dynamo's\n"
             "# own bytecode for it (breakpoints in this file are not hit).\n",
             comment_block("error: " + error), "#\n"]
    if decompiled:
        parts.append(comment_block("Decompiler output (NOT equivalent to Dynamo's code, shown for reference):\n"
                                   + decompiled))
        parts.append("#\n")
    parts.append(comment_block("Disassembly of Dynamo's code (%s, Python %d.%d):\n%s" % (
        new_code.co_name, sys.version_info[0], sys.version_info[1], disassembly(new_code))))
    return "".join(parts)


class BytecodeHook:
    """Registers ``callback(original_code, transformed_code)`` with Dynamo; removable."""

    def __init__(self, callback):
        self.callback = callback
        self.handle = None

    def install(self):
        from torch._dynamo.convert_frame import register_bytecode_hook
        self.handle = register_bytecode_hook(self._hook)

    def remove(self):
        if self.handle is not None:
            self.handle.remove()
            self.handle = None

    def _hook(self, code, new_code):
        try:
            with gc_paused():
                return self.callback(code, new_code)
        except Exception:  # never break the user's compilation
            return None
