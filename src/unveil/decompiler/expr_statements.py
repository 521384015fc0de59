"""The simple statements an instruction makes by itself: ``return``, ``raise``, imports,
an interactive expression statement (``PRINT_EXPR``).
"""
import ast

from . import values as V


def _return_value(f, ins):
    v = f.pop(ins)
    f.emit(ast.Return(value=f.expr(v, ins)))


def _raise(f, ins):
    n = ins.arg
    cause = exc = None
    if n == 2:
        cause = f.pop_expr(ins)
    if n >= 1:
        exc = f.pop_expr(ins)
    f.emit(ast.Raise(exc=exc, cause=cause))


def _import_name(f, ins):
    fromlist = f.pop_expr(ins)
    level = f.pop_expr(ins)
    f.push(V.Import(ins.arg, fromlist.value, level.value, lazy=ins.op == "LAZY_IMPORT_NAME"))


def import_statement(kind, lazy, **fields):
    """An ``ast.Import`` / ``ast.ImportFrom`` (``kind``), ``lazy`` (3.15) or not."""
    if lazy:
        fields["is_lazy"] = 1
    return kind(**fields)


def _import_from(f, ins):
    mod = f.stack[-1]
    f.push(V.ImportedName(mod, ins.arg))


def _import_star(f, ins):
    mod = f.pop(ins)
    f.emit(ast.ImportFrom(module=mod.name, names=[ast.alias(name="*", asname=None)], level=mod.level))


def _print_expr(f, ins):
    f.emit(ast.Expr(value=f.pop_expr(ins)))


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "RETURN_VALUE": _return_value,
    "RAISE_VARARGS": _raise,
    "IMPORT_NAME": _import_name,
    "LAZY_IMPORT_NAME": _import_name,
    "IMPORT_FROM": _import_from,
    "IMPORT_STAR": _import_star,
    "PRINT_EXPR": _print_expr,
}
