"""``ast`` -> source text. ``ast.unparse`` where it exists (3.9+), our own
unparser on 3.8.

Every text the decompiler hands out is made here, so this is where the tree is
checked (:func:`unveil.decompiler.safety.check_tree`): names, constants and flags
taken from a code object are data until they pass."""
import ast
import sys

from .depth import check_tree_depth
from .nodes import child_nodes
from .safety import boundary, check_tree


def to_source(node) -> str:
    """The text of ``node``; :class:`~unveil.decompiler.errors.UnsafeInput` if a name,
    constant or flag in it would not be written as itself."""
    flatten_bool_ops(node)
    check_tree_depth(node)  # the unparsers recurse once per level
    check_tree(node)
    with boundary(_defined_name(node)):
        _number_statements(node)
        if sys.version_info >= (3, 9):
            text = ast.unparse(node)
        else:
            from .unparse38 import unparse
            text = unparse(node)
    return text if text.endswith("\n") else text + "\n"


def _defined_name(node):
    """The name of the first definition in ``node`` (for error messages)."""
    for child in getattr(node, "body", ()) if isinstance(node, ast.Module) else (node,):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return child.name
    return None


def flatten_bool_ops(node):
    """``a and (b and c)`` as ``a and b and c`` everywhere in ``node`` (the
    same bytecode; structure.bool_op leaves right operands whole), without
    recursion: a long chain nests as deep as it is long."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.BoolOp):
            flat, parts = [], list(reversed(n.values))
            while parts:
                v = parts.pop()
                if isinstance(v, ast.BoolOp) and type(v.op) is type(n.op) and not getattr(v, "_paren", False):
                    parts.extend(reversed(v.values))
                else:
                    flat.append(v)
            n.values = flat
        todo.extend(child_nodes(n))


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _number_statements(node):
    """Give statements without one a line number: ``ast.unparse`` reads ``lineno`` of
    statements (for type comments), nothing else. (Cheaper than ``fix_missing_locations``,
    which visits every expression node too.)"""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.stmt, ast.excepthandler)) and getattr(n, "lineno", None) is None:
            n.lineno = n.end_lineno = 1
        for field in _BLOCKS:
            todo.extend(getattr(n, field, ()))
