"""What evaluating an expression may do: run code, bind a name, read a cell, build a new
object. The frame (expr_frame.py) asks it whether a value must be computed before a
statement, the builders and the structurer whether a value can be dropped or duplicated
(:func:`is_pure`, :func:`is_droppable`, :func:`has_effects`). Pure functions of ``ast``
nodes and stack values; no frame.
"""
import ast

from . import values as V
from .nodes import walk


_CONTAINERS = (ast.Constant, ast.expr_context, ast.Starred, ast.List, ast.Tuple)  # run no code


def written_names(stmt):
    out = set()
    for node in walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
    if isinstance(stmt, (ast.Global, ast.Nonlocal)):
        return set()
    return out


def is_droppable(e):
    """An expression statement that would do nothing: constants, names and
    displays of them (a name could be unbound; Dynamo's code never is)."""
    if isinstance(e, (ast.Constant, ast.Name)):
        return True
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        return all(is_droppable(x.value if isinstance(x, ast.Starred) else x) for x in e.elts)
    return False


def is_pure(e):
    """No effects and the same value whenever it is evaluated."""
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        return all(is_pure(x.value if isinstance(x, ast.Starred) else x) for x in e.elts)
    if isinstance(e, ast.Dict):
        return all((k is None or is_pure(k)) and is_pure(v) for k, v in zip(e.keys, e.values))
    return False


def binds_only(stmt):
    """Whether ``stmt`` only binds or unbinds local names, with nothing that
    could run other code (so it cannot change a value that does not read
    those names)."""
    if isinstance(stmt, ast.Delete):
        return all(isinstance(t, ast.Name) for t in stmt.targets)
    if isinstance(stmt, ast.Assign):
        return (all(isinstance(t, ast.Name) for t in stmt.targets)
                and isinstance(stmt.value, (ast.Name, ast.Constant)))
    return False


def walrus_moves_past(stored, stmt, written, local_only):
    """Whether turning ``stored`` into a walrus after ``stmt`` could change
    what the code does: ``stmt`` uses its name, or its value must be
    computed before ``stmt`` runs."""
    a = stored.assign
    # (every target a name: what ``as_expr`` turns into a walrus per target, ``(y := (x := v))``
    # for Dynamo's ``COPY; STORE x; COPY; STORE y``)
    if getattr(a, "_pinned", False) or not all(isinstance(t, ast.Name) for t in a.targets):
        return False
    targets = {t.id for t in a.targets}
    if any(isinstance(n, ast.Name) and n.id in targets for n in ast.walk(stmt)):
        return True
    return needs_spill(stored.value, written, local_only)


def needs_spill(e, written, local_only=False):
    if isinstance(e, ast.Name):  # the walk below, for the commonest stack value
        return e.id in written
    if is_pure(e):
        # a list, set or dict display makes a new object where it is evaluated: written after a
        # statement that runs code, it would be made after that code instead of before (Dynamo
        # leaves ``{0: True}`` on the stack under the calls that restore its side effects)
        return not local_only and _makes_container(e)
    reads_written = False
    for n in ast.walk(e):
        if isinstance(n, ast.Name):
            reads_written = reads_written or n.id in written
        elif not local_only and not isinstance(n, _CONTAINERS):
            return True  # it could run other code
    return reads_written


def _makes_container(e):
    """Whether evaluating ``e`` builds a list, set or dict that holds something. (Not an empty
    one: a comprehension's result, on the stack under its loop, is one until the loop ends.)"""
    return any(isinstance(n, (ast.List, ast.Set)) and n.elts or isinstance(n, ast.Dict) and n.keys
               for n in ast.walk(e))


def inert(e, cells):
    """Whether evaluating ``e`` later gives what it gives now, whatever code runs in between:
    it runs no code, binds no name (a walrus) and reads no cell (code may rebind a cell)."""
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.Name):
        return e.id not in cells
    if isinstance(e, (ast.Tuple, ast.List)):
        return all(inert(x, cells) for x in e.elts)
    if isinstance(e, ast.Dict):  # keys that are constants hash without running code
        return all(isinstance(k, ast.Constant) and inert(v, cells) for k, v in zip(e.keys, e.values))
    return False


def pending_walrus(v, cells) -> bool:
    """Whether ``v`` is a value stored in a name whose assignment may still become a walrus
    where the value is used (so it is computed there): one whose computing may run code."""
    return isinstance(v, V.Stored) and not getattr(v.assign, "_pinned", False) and not inert(v.value, cells)


def has_effects(v, seen=None):
    """Whether evaluating stack value ``v`` may run code (a symbolic list: one of its elements)."""
    if isinstance(v, ast.expr):
        return needs_spill(v, set())
    if isinstance(v, V.SymList):
        seen = seen if seen is not None else set()
        if id(v) in seen:
            return False
        seen.add(id(v))
        return any(has_effects(e.value if isinstance(e, ast.Starred) else e, seen) for e in v.elts)
    return False
