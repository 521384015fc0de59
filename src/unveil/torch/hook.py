"""The bytecode hook: Dynamo's transformed code -> a dumped file -> the code torch runs.

For each (original code, transformed code) pair Dynamo produces, unveil
decompiles the transformed code, writes it to ``__transformed_code_<i>_for_<fn>.py``
and compiles *that file's text* with the file's absolute path as ``co_filename``,
so a breakpoint set in the file is hit when torch runs the entry.

The replacement is returned to Dynamo only when it is provably the same
program: same layout (argument names, local slots, cell and free variables,
flags) and the same normalized bytecode as Dynamo's code. Anything else (a
``DecompilationError``, any exception, a difference) makes the hook return
``None`` -- Dynamo's own code runs -- and the file gets the disassembly and the
error instead.
"""
import ast
import dis
import re
import sys
import types

CO_NESTED = 0x10  # only informs repr/introspection, not execution
_DROP = {"NOP", "EXTENDED_ARG", "CACHE", "RESUME"}

#: the ``if False:`` statement that fixes the order of local slots (compiles to no code)
RUNS_HERE = "# torch runs the code compiled from this file: breakpoints set here are hit.\n\n"
SLOTS_COMMENT = "# (unveil) declares the local variable slots in Dynamo's order; generates no code"


class LayoutError(Exception):
    """The code compiled from the decompiled text is not a drop-in replacement."""


def normalized(code: types.CodeType) -> tuple:
    """Comparable form of ``code``'s bytecode (DESIGN.md section 3): opname and argument
    per instruction, jumps as instruction indices, no NOP/EXTENDED_ARG/CACHE/RESUME."""
    ins = [i for i in dis.get_instructions(code) if i.opname not in _DROP]
    index = {i.offset: k for k, i in enumerate(ins)}
    out = []
    for i in ins:
        if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs:
            arg = ("jump", index.get(i.argval, i.argval))
        elif isinstance(i.argval, types.CodeType):
            arg = ("code", normalized(i.argval))
        elif i.opname in ("LOAD_CONST", "RETURN_CONST"):
            arg = (type(i.argval).__name__, repr(i.argval))
        else:
            arg = i.argrepr if i.arg is not None else None
        out.append((i.opname, arg))
    return tuple(out)


def _find_code(container: types.CodeType, name: str):
    for c in container.co_consts:
        if isinstance(c, types.CodeType):
            if c.co_name == name:
                return c
            found = _find_code(c, name)
            if found is not None:
                return found
    return None


def check_layout(new: types.CodeType, like: types.CodeType) -> None:
    """Raise :class:`LayoutError` unless ``new`` can stand in for ``like`` in Dynamo's cache."""
    if (new.co_flags | CO_NESTED) != (like.co_flags | CO_NESTED):
        raise LayoutError("co_flags differs: Dynamo's %#x, recompiled %#x" % (like.co_flags, new.co_flags))
    for attr in ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount",
                 "co_varnames", "co_cellvars", "co_freevars"):
        a, b = getattr(new, attr), getattr(like, attr)
        if a != b:
            raise LayoutError("%s differs: Dynamo's %r, recompiled %r" % (attr, b, a))
    if normalized(new) == normalized(like):
        return
    from .verify import Unverifiable, same_effects
    try:
        same_effects(new, like)
    except Unverifiable as exc:
        raise LayoutError("not provably the same program as Dynamo's code: %s" % exc) from None


def declare_slots(source: str, def_name: str, varnames, argcount: int) -> str:
    """``source`` with ``if False: a = b = ... = None`` at the top of ``def_name``, listing
    the non-argument locals in ``varnames`` order, so the compiler numbers the local
    slots exactly like Dynamo did (the statement itself generates no bytecode)."""
    tree = ast.parse(source)
    target = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == def_name:
            target = node
            break
    if target is None:
        raise LayoutError("no function %s in the decompiled text" % def_name)
    names = list(varnames[argcount:])
    if not names:
        return source
    decl = ast.If(test=ast.Constant(value=False), body=[ast.Assign(
        targets=[ast.Name(id=n, ctx=ast.Store()) for n in names], value=ast.Constant(value=None),
        lineno=0)], orelse=[])
    target.body.insert(0, decl)
    text = ast.unparse(ast.fix_missing_locations(tree))
    return re.sub(r"(?m)^([ \t]*)if False:", lambda m: m.group(1) + SLOTS_COMMENT + "\n" + m.group(0), text, count=1)


def compile_like(text: str, filename: str, def_name: str, like: types.CodeType) -> types.CodeType:
    """Compile ``text`` (the whole file) with ``co_filename = filename`` and return the code of
    ``def_name`` renamed to ``like``'s name; raises :class:`LayoutError` if it is not a drop-in
    replacement for ``like`` (the variant of ``unveil.recompile`` that takes source + filename)."""
    module = compile(text, filename, "exec", dont_inherit=True)
    code = _find_code(module, def_name)
    if code is None:
        raise LayoutError("no function %s in the compiled text" % def_name)
    fields = {"co_name": like.co_name, "co_flags": like.co_flags}  # CO_NESTED may differ
    if hasattr(like, "co_qualname"):
        fields["co_qualname"] = like.co_qualname
    code = code.replace(**fields)
    check_layout(code, like)
    return code


def argcount(code: types.CodeType) -> int:
    import inspect
    return (code.co_argcount + code.co_kwonlyargcount
            + bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS))


def decompile_as(code: types.CodeType, def_name: str) -> str:
    """The decompiler's text for ``code`` as ``def <def_name>(...)``."""
    from unveil.decompiler import Decompiler
    return Decompiler(code).decompile(overwrite_fn_name=def_name)


class Transformed:
    """Outcome for one cache entry: the file text, and the code torch should run (or None)."""

    def __init__(self, text, code, error, decompiled):
        self.text = text
        self.code = code
        self.error = error
        self.decompiled = decompiled


def comment_block(text: str, prefix: str = "# ") -> str:
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
        decompiled = decompile_as(new_code, def_name)
        source = decompiled
        text = header + RUNS_HERE + source
        try:
            code = compile_like(text, path, def_name, new_code)
        except LayoutError as exc:
            if "co_varnames" not in str(exc):
                raise
            source = declare_slots(decompiled, def_name, new_code.co_varnames, argcount(new_code))
            text = header + RUNS_HERE + source
            code = compile_like(text, path, def_name, new_code)
        if log_bytecode:
            text += "\n" + comment_block("Dynamo's bytecode for this entry:\n" + disassembly(new_code))
        return Transformed(text, code, None, decompiled)
    except BaseException as exc:  # anything: Dynamo's own code runs instead
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        error = "%s: %s" % (type(exc).__name__, exc)
        return Transformed(failure_text(header, new_code, error, decompiled), None, error, decompiled)


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
            return self.callback(code, new_code)
        except Exception:  # never break the user's compilation
            return None
