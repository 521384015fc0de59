"""The decompiler's public entry points: ``decompile``, ``Decompiler``, ``recompile``.

The top of the decompiler: it reads (:mod:`.driver`), writes (:mod:`.emit`) and proves
(:mod:`.validate`) each text, and for ``recompile`` compiles it back laid out like the
original (:mod:`.recompile`, :mod:`.lines`). Nothing below imports this module."""
import ast
import contextlib
import functools
import gc
import sys
import types
from typing import Any, Optional

from . import emit
from .errors import DecompilationError, NotEquivalent
from .driver import class_def, decompile_code, function_def
from .expressions import CO_FUTURE_ANNOTATIONS
from .function import TEMP_PREFIX, cell_name, is_class_body, is_literal
from .disassembly import disassembly_kept
from .lines import line_map, renumber
from .recompile import compile_back, declare_locals, laid_out_like
from .safety import boundary, check_bytecode, qualname
from .validate import check, prove_text

SUPPORTED = ((3, 8), (3, 15))

CLASS_BODY_NOTE = ("# The body of class %s. Its bases, keywords and decorators are evaluated\n"
                   "# outside the body's code object, so they are not known and not shown.\n")


def _check_python():
    if not SUPPORTED[0] <= sys.version_info[:2] <= SUPPORTED[1]:
        raise ValueError("unveil's decompiler supports CPython %d.%d-%d.%d, not %d.%d"
                         % (SUPPORTED[0] + SUPPORTED[1] + sys.version_info[:2]))


def resolve(obj: Any, caller: str = "unveil.decompile"):
    """The code object behind ``obj`` and the function it came from (if any); a TypeError
    naming ``caller`` (the public function the user called) for anything else."""
    seen = 0
    while seen < 20:
        seen += 1
        if isinstance(obj, types.CodeType):
            return obj, None
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
            continue
        if isinstance(obj, functools.partial):
            obj = obj.func
            continue
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
            continue
        if isinstance(obj, types.FunctionType):
            return obj.__code__, obj
        if hasattr(obj, "__wrapped__"):  # lru_cache and other wrappers
            obj = obj.__wrapped__
            continue
        if isinstance(obj, type):
            raise TypeError("%s expects a function or code object; got the class %s (%s one of "
                            "its methods)" % (caller, obj.__name__, caller.rpartition(".")[2]))
        call = getattr(type(obj), "__call__", None)
        if isinstance(call, types.FunctionType):
            obj = call
            continue
        break
    raise TypeError("%s expects a function, method or code object, not %s" % (caller, type(obj).__name__))


def _closure_wrapper(node, freevars):
    """Put ``node`` inside a minimal function that declares its free variables,
    so the text compiles on its own and the closure is real."""
    body = [ast.Assign(targets=[ast.Name(id=v, ctx=ast.Store())], value=ast.Constant(value=None))
            for v in freevars]
    body.append(node)
    body.append(ast.Return(value=ast.Name(id=node.name, ctx=ast.Load())))
    outer = ast.FunctionDef(name="__unveil_closure_" + node.name, args=ast.arguments(
        posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=body, decorator_list=[], returns=None, type_comment=None)
    if hasattr(ast, "TypeVar"):
        outer.type_params = []
    return outer


@contextlib.contextmanager
def gc_paused():
    """Python's cyclic garbage collector paused while the block runs (and left as it was).

    A decompile allocates millions of container objects (instructions, frames, the tree
    and its checks) and keeps a tree as large as its input: each full collection walks
    every live object, and the number of full collections grew with the objects allocated,
    so on a large function the collector alone cost time quadratic in its size (10,000 ifs
    on 3.11: 12 full collections, 1 of 4.8 s). The few reference cycles a decompile leaves
    are collected when the collector next runs. (Mercurial's ``util.nogc`` does the same
    when it builds large structures.) unveil's work inside torch's compile runs paused too:
    its short-lived objects would be promoted, and torch's large heap then pays for an extra
    full collection (about 0.3 s) during the user's compile."""
    if not gc.isenabled():  # paused already (an outer decompile) or by the caller
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Decompiler:
    """depyf-compatible: ``Decompiler(code).decompile()``."""

    def __init__(self, code):
        _check_python()
        self.code, self.function = resolve(code)

    def decompile_ast(self, overwrite_fn_name=None, validate=True):
        """(``ast.Module`` holding the function, its decompilation context).

        With ``validate`` (the default) the module's text (``self.text``) has been compiled
        back and proved to do what the code does (:mod:`.validate`). Whatever fails inside
        is a :class:`DecompilationError` with the cause chained."""
        with gc_paused(), disassembly_kept(), boundary(qualname(self.code)):
            module, ctx, name = self._build(overwrite_fn_name)
            self.text = emit.to_source(module)
            self.def_name = None if self.code.co_name == "<module>" else name
            self.consts = ctx.consts
            if validate:
                self.prove(self.text)
        return module, ctx

    def build_ast(self, overwrite_fn_name=None):
        """(``ast.Module`` holding the function, its decompilation context), not yet written
        as text nor proved: for a caller that changes the tree before writing it once (the
        dump declares the local slots, then proves the compiled result)."""
        with gc_paused(), disassembly_kept(), boundary(qualname(self.code)):
            module, ctx, _ = self._build(overwrite_fn_name)
        return module, ctx

    def prove(self, text, def_name=None):
        """Raise :class:`DecompilationError` unless ``text`` (holding the decompiled
        function, possibly inside other statements) is proved to do what the code does."""
        try:
            with gc_paused(), disassembly_kept():
                prove_text(self.code, text, self.consts, def_name or self.def_name)
        except NotEquivalent as e:
            raise DecompilationError("the decompiled text could not be proved to do what the "
                                     "bytecode does: %s" % e, qualname(self.code)) from None

    def _build(self, overwrite_fn_name):
        code = self.code
        check_bytecode(code)
        if code.co_name == "<module>":
            body, ctx = decompile_code(code)
            return ast.Module(body=body, type_ignores=[]), ctx, None
        if is_class_body(code):
            return self._class_ast(overwrite_fn_name)
        fn = self.function
        defaults = [ast.Constant(value=d) for d in (fn.__defaults__ or ())] if fn else []
        kwdefaults = {k: ast.Constant(value=v) for k, v in (fn.__kwdefaults__ or {}).items()} if fn else None
        if fn and not all(is_literal(d) for d in (fn.__defaults__ or ())):
            defaults = []
        if fn and not all(is_literal(v) for v in (fn.__kwdefaults__ or {}).values()):
            kwdefaults = None
        name = _source_name(overwrite_fn_name or code.co_name)
        node, ctx = function_def(code, defaults, kwdefaults, name=name)
        if code.co_freevars:
            node = _closure_wrapper(node, [cell_name(code, v) for v in code.co_freevars])
        return ast.Module(body=[node], type_ignores=[]), ctx, name

    def _class_ast(self, overwrite_name=None):
        code = self.code
        name = _source_name(overwrite_name or code.co_name)
        node, ctx = class_def(code, name=name)
        if code.co_freevars:
            node = _closure_wrapper(node, [cell_name(code, v) for v in code.co_freevars])
        return ast.Module(body=[node], type_ignores=[]), ctx, name

    def decompile(self, indentation=4, temp_prefix="__temp_", overwite_fn_name=None,
                  overwrite_fn_name=None) -> str:
        if not (isinstance(temp_prefix, str) and temp_prefix.isidentifier()):
            raise ValueError("temp_prefix must start a Python identifier, got %r" % (temp_prefix,))
        token = TEMP_PREFIX.set(temp_prefix)
        try:
            with gc_paused():  # (resumed once the tree is freed: then nothing is left to walk)
                module, _ = self.decompile_ast(overwrite_fn_name or overwite_fn_name)
                future = _needs_future_annotations(self.code, module)
        finally:
            TEMP_PREFIX.reset(token)
        text = self.text
        if future:
            text = "from __future__ import annotations\n\n" + text
        if indentation != 4:
            text = _reindent(text, indentation)
        if is_class_body(self.code):
            text = CLASS_BODY_NOTE % self.code.co_name + text
        return text


def _needs_future_annotations(code, module):
    """Whether the text of ``code`` (not a module: its text has its own ``__future__`` import)
    holds annotations the compiler kept as text, under ``from __future__ import annotations``:
    the text says so too, so that it means the same compiled on its own (the proof compiles
    it under the original's flags)."""
    if code.co_name == "<module>" or not code.co_flags & CO_FUTURE_ANNOTATIONS:
        return False
    return any(isinstance(n, ast.AnnAssign) or isinstance(n, ast.arg) and n.annotation is not None
               or isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None
               for n in ast.walk(module))


def _source_name(name):
    """``name`` if source can spell it, else an identifier made from it."""
    if name.isidentifier():
        return name
    return "__unveil_" + "".join(c if c.isalnum() else "_" for c in name)


def _reindent(text, width):
    out = []
    for line in text.splitlines(True):
        stripped = line.lstrip(" ")
        levels = (len(line) - len(stripped)) // 4
        out.append(" " * (levels * width) + stripped)
    return "".join(out)


def decompile(obj: Any) -> str:
    """Python source for a function, method, lambda, code object, partial,
    wrapper or callable instance. The text compiles on its own."""
    return Decompiler(obj).decompile()


def recompile(code: Any) -> types.CodeType:
    """Decompile ``code`` and compile the source back into a code object that
    can replace it (``fn.__code__ = recompile(fn.__code__)``)."""
    code, _ = resolve(code, "unveil.recompile")
    if code.co_name == "<module>":
        raise ValueError("recompile expects a function's code object, not a module's")
    with gc_paused(), disassembly_kept(), boundary(qualname(code)):
        return _recompile(code)


def source_for(code, def_name: Optional[str] = None) -> str:
    """The decompiled text used for recompilation: the function (inside its
    closure wrapper if it has free variables) with its locals declared."""
    module, ctx = Decompiler(code).decompile_ast(def_name)
    fn = _def_node(module, def_name or code.co_name)
    if fn is not None:
        declare_locals(fn, code)
    return emit.to_source(module), ctx


def _def_node(module, name):
    for node in ast.walk(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return None


def _recompile(code, filename: Optional[str] = None) -> types.CodeType:
    """``code`` decompiled and compiled back, laid out like ``code``: its file name
    (unless ``filename`` is given), ``co_firstlineno`` and the original line of each
    statement whose instructions are paired with the original's (:mod:`.lines`)."""
    filename = code.co_filename if filename is None else filename
    text, ctx = source_for(code)
    new, _ = compile_back(text, code, filename, consts=ctx.consts)  # (the text's lines: proved)
    return laid_out_like(_on_original_lines(text, code, new, filename, ctx.consts), code)


def _on_original_lines(text, code, new, filename, consts):
    """``new`` (compiled from ``text``) compiled again with ``code``'s line numbers, if the
    result is proved to do what ``code`` does (a line number can change the instructions
    the compiler writes: 3.10+ keeps a no-op for a line, 3.13 fuses two loads on one line);
    else ``new`` moved whole to ``code``'s first line, if that is proved; else ``new``."""
    lines, first_lines = line_map(code, new)
    shift = {line: line - new.co_firstlineno + code.co_firstlineno for line in range(1, text.count("\n") + 2)}
    for mapping in (lines, shift):
        tree = renumber(ast.parse(text, filename), mapping, first_lines, code.co_firstlineno)
        candidate, qualname = compile_back(tree, code, filename, consts=consts)
        try:
            check(code, candidate, new_prefix=qualname)
        except NotEquivalent:
            continue
        return candidate
    return new
