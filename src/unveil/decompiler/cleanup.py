"""Final tidying of the statement tree: drop what structuring marked as
superseded (an assignment that became a walrus) and nothing else."""
import ast

from .exceptstar import as_try_star


def _live(stmts):
    return [s for s in stmts if not getattr(s, "_cancelled", False)]


def tidy(stmts):
    stmts = [as_try_star(s) for s in _live(stmts)]
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
