"""Final tidying of the statement tree: drop what structuring marked as
superseded (an assignment that became a walrus) and nothing else."""
import ast

from .errors import DecompilationError
from .structure.exceptstar import as_try_star
from .nodes import child_nodes, walk, walk_statements

#: expressions that run code each time they are evaluated
_RUNS_CODE = (ast.Call, ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)
#: their classes and subclasses met so far -> whether a node of that class runs code
#: (one dict lookup per node instead of five class tests)
_RUNS_CODE_BY_CLASS = {}


def _live(stmts):
    return [s for s in stmts if not getattr(s, "_cancelled", False)]


def tidy(stmts):
    stmts = [_assert_for_raise(as_try_star(s)) for s in _live(stmts)]
    for s in stmts:
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(s, field, None)
            if isinstance(sub, list):
                new = tidy(sub)
                if not new and field == "body":
                    new = [ast.Pass()]
                setattr(s, field, new)
        for h in getattr(s, "handlers", []) or []:
            h.body = tidy(h.body) or [ast.Pass()]
        for c in getattr(s, "cases", []) or []:
            c.body = tidy(c.body) or [ast.Pass()]
    return stmts


def _assert_for_raise(stmt):
    """``assert False`` for the ``raise AssertionError`` of an ``assert`` whose test the
    compiler folded away (``assert 0``): ``LOAD_ASSERTION_ERROR`` does not read the global
    ``AssertionError``, which the code may rebind."""
    if not isinstance(stmt, ast.Raise) or stmt.cause is not None:
        return stmt
    exc = stmt.exc
    call = isinstance(exc, ast.Call)
    if not getattr(exc.func if call else exc, "_assertion", False):
        return stmt
    if call and (len(exc.args) != 1 or exc.keywords or isinstance(exc.args[0], ast.Starred)):
        return stmt
    return ast.copy_location(ast.Assert(test=ast.Constant(value=False), msg=exc.args[0] if call else None),
                             stmt)


def check_evaluated_once(stmts, name):
    """Refuse a tree in which one expression of the bytecode that runs code
    stands in two places: the source would evaluate it twice (a value kept
    on the stack, like a chained comparison's middle operand, that the
    structuring did not put back in its one place)."""
    seen = set()
    todo = list(stmts)
    runs_code = _RUNS_CODE_BY_CLASS
    while todo:
        node = todo.pop()
        cls = type(node)
        runs = runs_code.get(cls)
        if runs is None:
            runs = runs_code[cls] = issubclass(cls, _RUNS_CODE)
        if runs:
            if id(node) in seen:
                raise DecompilationError("an expression would be evaluated more than once", name)
            seen.add(id(node))
        todo.extend(child_nodes(node))


def check_asserts_whole(stmts, name, temp_prefix):
    """Refuse an ``assert`` that reads a temporary: part of its test or message
    was computed by a statement before it, which ``python -O`` would still run
    where the original skips the whole assert (the proof compares the text only
    as compiled without -O)."""
    for node in walk_statements(stmts):  # (an assert is a statement: no expression holds one)
        if isinstance(node, ast.Assert) and any(
                isinstance(n, ast.Name) and n.id.startswith(temp_prefix) for n in walk(node)):
            raise DecompilationError("an assert's test or message would be computed outside "
                                     "the assert (it would run under python -O)", name)
