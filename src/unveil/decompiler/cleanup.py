"""Final tidying of the statement tree: drop what structuring marked as
superseded (an assignment that became a walrus) and nothing else."""
import ast

from .errors import DecompilationError
from .exceptstar import as_try_star

#: expressions that run code each time they are evaluated
_RUNS_CODE = (ast.Call, ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)


def _live(stmts):
    return [s for s in stmts if not getattr(s, "_cancelled", False)]


def _as_assert(stmt):
    """``raise AssertionError(msg)`` whose error is LOAD_ASSERTION_ERROR is an ``assert``
    whose test the compiler folded away (``assert False, msg``): only ``assert`` loads it,
    and under ``python -O`` the statement must vanish, not raise."""
    if not isinstance(stmt, ast.Raise) or stmt.cause is not None or stmt.exc is None:
        return stmt
    exc = stmt.exc
    call = exc if isinstance(exc, ast.Call) else None
    if not getattr(call.func if call else exc, "_assertion", False):
        return stmt
    if call is not None and (call.keywords or len(call.args) > 1):
        return stmt
    msg = call.args[0] if call is not None and call.args else None
    return ast.Assert(test=ast.Constant(value=False), msg=msg)


def tidy(stmts):
    stmts = [_as_assert(as_try_star(s)) for s in _live(stmts)]
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


def check_evaluated_once(stmts, name):
    """Refuse a tree in which one expression of the bytecode that runs code
    stands in two places: the source would evaluate it twice (a value kept
    on the stack, like a chained comparison's middle operand, that the
    structuring did not put back in its one place)."""
    seen = set()
    for node in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(node, _RUNS_CODE):
            if id(node) in seen:
                raise DecompilationError("an expression would be evaluated more than once", name)
            seen.add(id(node))
