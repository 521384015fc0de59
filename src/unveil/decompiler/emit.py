"""``ast`` -> source text. ``ast.unparse`` where it exists (3.9+), our own
unparser on 3.8.

Every text the decompiler hands out is made here, so this is where the tree is
checked (:func:`unveil.decompiler.safety.check_node`, in :func:`_finish`): names, constants and flags
taken from a code object are data until they pass."""
import ast
import sys

from .depth import _unparse_frames as _frames
from .depth import too_deep_to_unparse, unparse_budget
from .errors import UnsafeInput
from .nodes import child_nodes
from .safety import boundary, check_node
from .setorder import in_one_order


def to_source(node) -> str:
    """The text of ``node``; :class:`~unveil.decompiler.errors.UnsafeInput` if a name,
    constant or flag in it would not be written as itself."""
    _finish(node)
    with boundary(_defined_name(node)):
        if sys.version_info >= (3, 9):
            text = _Unparser().visit(node)  # (what ast.unparse does)
        else:
            from .unparse38 import unparse  # (only 3.8 needs it: not loaded elsewhere)
            text = unparse(node)
    return text if text.endswith("\n") else text + "\n"


if sys.version_info >= (3, 14):
    from _ast_unparse import Unparser as _BaseUnparser, _Precedence  # (3.14 moved it out of ast)
elif sys.version_info >= (3, 9):
    _BaseUnparser, _Precedence = ast._Unparser, ast._Precedence

if sys.version_info >= (3, 9):
    class _Unparser(_BaseUnparser):
        """``ast.unparse``'s writer; an and/or operand marked ``_own_line`` by the structurer
        starts on a line of its own, inside its parentheses: its jump must not be threaded
        past the enclosing operator's test (see structure.short_circuit)."""

        _visitors = {}  # node class -> the method that writes it

        def traverse(self, node):
            """``ast._Unparser.traverse`` with the method for each class found once
            (``ast.NodeVisitor.visit`` builds its name and looks it up at every node: a
            tenth of the writing). One frame less per level than depth.py counts."""
            if isinstance(node, list):
                for item in node:
                    self.traverse(item)
                return
            visitor = self._visitors.get(type(node))
            if visitor is None:
                visitor = self._visitors[type(node)] = getattr(
                    type(self), "visit_" + type(node).__name__, type(self).generic_visit)
            visitor(self, node)

        def visit_BoolOp(self, node):
            if not getattr(node, "_own_line", False):
                return super().visit_BoolOp(node)
            self.write("(\n" + "    " * (self._indent + 1))
            self.set_precedence(_Precedence.TEST, node)  # (the parentheses are written here)
            super().visit_BoolOp(node)
            self.write(")")


def _defined_name(node):
    """The name of the first definition in ``node`` (for error messages)."""
    for child in getattr(node, "body", ()) if isinstance(node, ast.Module) else (node,):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return child.name
    return None


#: Python frames the unparsers spend on one level of a node of each class (depth._unparse_frames)
_FRAMES = {}
#: the nodes that may hold a set display whose order the compiler drops (setorder.py)
_ORDER_FREE = frozenset((ast.Set, ast.Compare, ast.For, ast.comprehension))
#: the expression contexts: a node of one of these classes has no fields and costs no frame
_CONTEXTS = frozenset((ast.Load, ast.Store, ast.Del))


def _finish(tree):
    """The one walk over the finished tree before it is written (for 10,000 ifs each
    separate walk cost about 5% of the decompile): in each node, top down,
    ``a and (b and c)`` flattened to ``a and b and c`` (:func:`_flatten`: the same bytecode;
    structure.bool_op leaves right operands whole), the items of set displays the compiler
    folds into a frozenset in one order (:func:`setorder.in_one_order`: the text must not
    follow the process's string hashes), tuple constants holding ``...`` written
    as tuple displays (:func:`_spell_ellipsis`: the unparsers write a tuple constant's items by
    ``repr``, and ``Ellipsis`` is a global name), the count of the unparsers' frames (a tree
    too deep to write is refused first), the check of names, constants and flags
    (``safety.check_node``: its first problem is raised once the walk is done) and a line
    number for each statement (``ast.unparse`` reads it). Iterative: the tree may nest as
    deep as the input allows."""
    budget = unparse_budget()
    todo = [(tree, None, _frames(tree), 1, _frames(tree))]
    unsafe = None
    frames_of = _FRAMES
    while todo:
        node, where, cost, depth, frames = todo.pop()
        if cost > budget:
            raise too_deep_to_unparse(depth)
        if type(node) is ast.BoolOp:
            _flatten(node)
        elif type(node) in _ORDER_FREE:
            in_one_order(node)
        if unsafe is None:
            try:
                where, children = check_node(node, where)
            except UnsafeInput as e:
                unsafe, children = e, child_nodes(node)
        else:
            children = child_nodes(node)
        if frames == 4 and getattr(node, "lineno", None) is None:  # a statement or except clause
            node.lineno = node.end_lineno = 1
        depth += 1
        mark = len(todo)
        for c in children:
            t = type(c)
            if t in _CONTEXTS:
                continue  # (what check_node, the count and the numbering would find in it: nothing)
            if t is ast.Constant and type(c.value) is tuple and _holds_ellipsis(c):
                del todo[mark:]
                _spell_ellipsis(node)
                todo.extend((c, where, cost + _frames(c), depth, _frames(c)) for c in child_nodes(node))
                break
            frames = frames_of.get(t)
            if frames is None:
                frames = frames_of[t] = _frames(c)
            todo.append((c, where, cost + frames, depth, frames))
    if unsafe is not None:
        raise unsafe


def _flatten(n):
    flat, parts = [], list(reversed(n.values))
    while parts:
        v = parts.pop()
        if isinstance(v, ast.BoolOp) and type(v.op) is type(n.op) and not getattr(v, "_paren", False):
            parts.extend(reversed(v.values))
        else:
            flat.append(v)
    n.values = flat


def _spell_ellipsis(n):
    """The tuple constants holding ``...`` among the children of ``n`` as tuple displays."""
    for field, value in ast.iter_fields(n):
        if isinstance(value, list):
            value[:] = [_tuple_display(v) if _holds_ellipsis(v) else v for v in value]
        elif isinstance(value, ast.AST) and _holds_ellipsis(value):
            setattr(n, field, _tuple_display(value))


def _holds_ellipsis(node):
    if not isinstance(node, ast.Constant) or type(node.value) is not tuple:
        return False
    todo = [node.value]
    while todo:
        v = todo.pop()
        if v is Ellipsis:
            return True
        if type(v) is tuple:
            todo.extend(v)
    return False


def _tuple_display(node):
    """``node`` (a tuple constant) as a tuple of constants; the walk in
    :func:`_finish` splits the nested tuple constants in turn."""
    return ast.Tuple(elts=[ast.Constant(value=v) for v in node.value], ctx=ast.Load())
