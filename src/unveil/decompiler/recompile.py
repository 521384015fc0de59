"""Source -> a code object laid out like the original (a drop-in replacement).

``fn.__code__ = recompile(fn.__code__)`` must work, and Dynamo must accept the
result in place of the code it wrote. That needs, beyond equal behaviour, the
same name, arguments, flags, local-variable order (``co_varnames``),
``co_freevars`` and ``co_cellvars``, and every constant of the original,
including objects that have no literal form.

This module compiles a text back and checks the layout; :func:`.api.recompile` puts
the steps together (decompile, compile back, prove on the original's lines), and
:func:`.validate.prove_text` compiles each decompiled text back with :func:`compile_back`.
"""
import ast
import types
from typing import Optional

from .errors import DecompilationError
from .expressions import CO_FUTURE_ANNOTATIONS
from .function import CELL_SUFFIX, cell_name, has_docstring, is_dynamo_code
from .measure import find_code

CO_NESTED = 0x10  # set on code compiled inside a function; informational only


class LayoutError(DecompilationError):
    """The recompiled code cannot stand in for the original."""


def declare_locals(fn_node, code):
    """Make the compiler number local variables in ``code``'s order: a dead
    ``if False:`` assignment of every non-argument local, first in the body.
    The compiler removes the dead branch but its symbol table still sees the
    names first, in this order."""
    nargs = (code.co_argcount + code.co_kwonlyargcount
             + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08))
    names = [n for n in code.co_varnames[nargs:] if n.isidentifier()]
    body = []
    if names:
        body.append(ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store()) for n in names],
                               value=ast.Constant(value=None)))
    # free variables the body never reads still belong to the closure
    used = {n.id for n in ast.walk(fn_node) if isinstance(n, ast.Name)}
    for n in code.co_freevars:
        n = cell_name(code, n)
        if n not in used:
            body.append(ast.Expr(value=ast.Name(id=n, ctx=ast.Load())))
    body.extend(_cell_makers(fn_node, code))
    if not body:
        return
    decl = ast.If(test=ast.Constant(value=False), body=body, orelse=[])
    fn_node.body.insert(_after_docstring_and_decls(fn_node.body), decl)


def _cell_makers(fn_node, code):
    """``lambda: <name>`` for each cell variable of Dynamo's code that no nested scope of
    the text reads: Dynamo keeps an argument a cell (``self``, captured by an inner
    function it inlined into the graph) although nothing left closes over it, and only a
    nested scope makes the compiler lay it out as a cell (in the dead ``if False:``)."""
    if not code.co_cellvars or not is_dynamo_code(code):
        return []
    nested = set()
    for node in ast.walk(fn_node):
        if node is not fn_node and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.Lambda, ast.ClassDef)):
            nested.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    out = []
    for n in code.co_cellvars:
        n = cell_name(code, n)
        if n not in nested and n.isidentifier():
            no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                    kw_defaults=[], kwarg=None, defaults=[])
            out.append(ast.Expr(value=ast.Lambda(args=no_args, body=ast.Name(id=n, ctx=ast.Load()))))
    return out


def _after_docstring_and_decls(body):
    k = 1 if body and _is_docstring(body[0]) else 0
    while k < len(body) and isinstance(body[k], (ast.Global, ast.Nonlocal)):
        k += 1
    return k


def _is_docstring(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


class _Placeholders(ast.NodeTransformer):
    """Names standing for non-literal constants -> unique string constants,
    swapped for the objects after compilation."""

    def __init__(self, consts):
        self.consts = consts
        self.marks = {}

    def visit_Name(self, node):
        if node.id in self.consts and isinstance(node.ctx, ast.Load):
            mark = "\0unveil-const\0%s" % node.id
            self.marks[mark] = self.consts[node.id]
            return ast.copy_location(ast.Constant(value=mark), node)
        return node


def _swap_consts(code, marks):
    consts = tuple(marks.get(c, c) if isinstance(c, str) else
                   _swap_consts(c, marks) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_consts=consts)


def check_layout(new, like):
    """Raise :class:`LayoutError` unless ``new`` can replace ``like``."""
    if (new.co_flags | CO_NESTED) != (like.co_flags | CO_NESTED):
        raise LayoutError("co_flags differ: %#x, recompiled %#x" % (like.co_flags, new.co_flags),
                          like.co_name)
    for attr in ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_varnames",
                 "co_cellvars", "co_freevars"):
        a, b = getattr(like, attr), getattr(new, attr)
        if attr == "co_varnames":
            # temporaries the decompiler introduced come after the original's
            ok = b[:len(a)] == a
        else:
            ok = a == b
        if not ok:
            raise LayoutError("%s differ: %r, recompiled %r" % (attr, a, b), like.co_name)


def compile_back(text, code, filename: str, def_name: Optional[str] = None, consts=None):
    """Compile ``text`` (decompiled from ``code``; or its tree, which is changed) as file
    ``filename``.

    Returns the code object of the function in it (its cells named like ``code``'s,
    non-literal constants swapped back) and the qualified name it was compiled
    under (None before 3.11)."""
    tree = text  # (the text compiles as its tree does; the tree is built only to be changed)
    marks = {}
    if consts:
        p = _Placeholders(consts)
        tree = p.visit(ast.parse(text, filename) if isinstance(text, str) else text)
        marks = p.marks  # (each new node has its Name's location)
    # (under ``from __future__ import annotations`` the text's annotations are kept as text, as
    # the original's were; a module's own text says so itself, a def's cannot)
    module = compile(tree, filename, "exec", flags=code.co_flags & CO_FUTURE_ANNOTATIONS, dont_inherit=True)
    if code.co_name == "<module>" and def_name is None:
        check_docstrings(code, module)
        return (_swap_consts(module, marks) if marks else module), None
    name = def_name or code.co_name
    if not name.isidentifier():
        name = "__unveil_" + "".join(c if c.isalnum() else "_" for c in name)
    new = find_code(module, name)
    if new is None:
        raise LayoutError("the recompiled text has no function %s" % name, code.co_name)
    compiled_qualname = getattr(new, "co_qualname", None)
    check_docstrings(code, new)
    if marks:
        new = _swap_consts(new, marks)
    renamed = {n + CELL_SUFFIX: n for n in code.co_varnames}
    if any(n in renamed for n in new.co_freevars + new.co_cellvars):
        new = new.replace(co_freevars=tuple(renamed.get(n, n) for n in new.co_freevars),
                          co_cellvars=tuple(renamed.get(n, n) for n in new.co_cellvars))
    return new, compiled_qualname


def check_docstrings(like, new):
    """Raise :class:`LayoutError` unless each function in ``new`` (compiled back from
    ``like``'s text) has the docstring of its counterpart in ``like``: no instruction reads
    a docstring, so the proof of the instructions does not see one. Nested code objects are
    paired by name, in order (where the two do not define the same ones, the proof says so)."""
    todo = [(like, new)]
    while todo:
        a, b = todo.pop()
        doc_a = a.co_consts[0] if has_docstring(a) else None
        doc_b = b.co_consts[0] if has_docstring(b) else None
        if doc_a != doc_b:
            raise LayoutError("the docstring differs: %s, recompiled %s"
                              % (_shown(doc_a), _shown(doc_b)), a.co_name)
        nested_b = {}
        for c in b.co_consts:
            if isinstance(c, types.CodeType):
                nested_b.setdefault(c.co_name, []).append(c)
        seen = {}
        for c in a.co_consts:
            if isinstance(c, types.CodeType):
                k = seen[c.co_name] = seen.get(c.co_name, -1) + 1
                if k < len(nested_b.get(c.co_name, ())):
                    todo.append((c, nested_b[c.co_name][k]))


def _shown(doc, limit=60):
    return repr(doc if doc is None or len(doc) <= limit else doc[:limit - 3] + "...")


def compile_source(text, code, filename: str, def_name: Optional[str] = None, consts=None):
    """Compile ``text`` (decompiled from ``code``; or its tree) as file ``filename`` and
    return the function's code object, renamed and checked to replace ``code``."""
    new, _ = compile_back(text, code, filename, def_name, consts)
    return laid_out_like(new, code)


def laid_out_like(new, code):
    """``new`` (compiled back from ``code``'s text) named like ``code`` and checked to
    replace it."""
    fields = {"co_name": code.co_name, "co_flags": code.co_flags}
    if hasattr(code, "co_qualname"):
        fields["co_qualname"] = code.co_qualname
    new = new.replace(**fields)
    check_layout(new, code)
    return new
