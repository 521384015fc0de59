"""``try: ... except* E as e: ...`` (PEP 654, 3.11+): tries.except_clauses hands the clauses of such a handler here.

One handler serves all the ``except*`` clauses of a statement.  It splits the
exception group clause by clause and re-raises, at the end, what no clause
matched together with what the clauses raised.  Normalized (instructions.py
gives 3.11-3.13 one layout)::

    H:      PUSH_EXC_INFO                      [prev, eg]
            BUILD_LIST 0; COPY 2               [prev, eg, raised, rest]
    clause: <type>; CHECK_EG_MATCH             [prev, eg, raised, rest, match]
            COPY 1; POP_JUMP_IF_NONE no_match
            STORE name | POP_TOP               [prev, eg, raised, rest]
            <body>             (what it raises joins ``raised``: a cleanup handler)
            [name = None; del name]
            JUMP next
    no_match: POP_TOP
    next:   <the next clause, or the tail>
    tail:   LIST_APPEND 1; PREP_RERAISE_STAR; COPY 1; POP_JUMP_IF_NOT_NONE reraise
            POP_TOP; POP_EXCEPT; <JUMP to the code after the statement, or a copy of it>

A clause body may not ``return``, ``break`` or ``continue`` (a SyntaxError), so
each one either falls through to the next clause or raises.  The clauses come
back as ``ExceptHandler`` nodes marked ``_star``; the statement stays an
``ast.Try`` while structuring (so the try/finally merging applies unchanged)
and :func:`as_try_star` turns it into ``ast.TryStar`` at the end.
"""
import ast

from .. import expressions as E
from .. import values as V
from .regions import strip_name_cleanup
from .state import fail
from .finally_copies import handler_frame
from .branches import walk_dominated


_BINDS = ("STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL")




def is_except_star(w, H) -> bool:
    """Whether the handler at ``H`` is the entry of ``except*`` clauses."""
    ins = w.instrs
    if H + 2 >= w.n or [(x.op, x.arg) for x in ins[H:H + 3]] != [
            ("PUSH_EXC_INFO", None), ("BUILD_LIST", 0), ("COPY", 2)]:
        return False
    k = H + 3
    while k < w.n and ins[k].op not in ("CHECK_EG_MATCH", "CHECK_EXC_MATCH"):
        k += 1
    return k < w.n and ins[k].op == "CHECK_EG_MATCH"


def except_star_clauses(w, H, frame, depth, region, loop):
    """The ``except*`` clauses of the handler at ``H`` and where control
    goes after the statement (see the module docstring)."""
    f = handler_frame(w, H, frame, depth)
    # the previous exception, the group, the list of what clauses raise
    # and what is left to match: nothing in the source names them
    for _ in range(3):
        f.push(V.Exception_())
    clauses = []
    i = H + 3
    while not is_star_tail(w, i):
        clause, i = except_star_clause(w, i, f, region, loop)
        clauses.append(clause)
    return clauses, except_star_exit(w, i)


def except_star_clause(w, i, f, region, loop):
    """The clause whose type test starts at ``i``; and where the next one
    (or the tail) starts."""
    ins = w.instrs
    cf = f.copy()
    cf.stmts = []
    k = i
    while k < w.n and ins[k].op != "CHECK_EG_MATCH":
        if ins[k].target is not None:
            fail(w, "unexpected except* type", k)
        E.execute(cf, ins[k])
        k += 1
    if k + 3 >= w.n:
        fail(w, "unexpected except* clause", i)
    typ = cf.pop_expr(ins[k])
    if cf.stmts:
        fail(w, "except* type with statements", i)
    copy, test, bind = ins[k + 1], ins[k + 2], ins[k + 3]
    if not (copy.op == "COPY" and copy.arg == 1 and test.op == "POP_JUMP_IF_NONE"
            and ins[test.target].op == "POP_TOP"):
        fail(w, "unexpected except* test", k + 1)
    after = test.target + 1  # past the no-match path's POP_TOP
    if bind.op in _BINDS:
        name = bind.arg
    elif bind.op == "POP_TOP":
        name = None
    else:
        fail(w, "unexpected except* clause", k + 3)
    ex = walk_dominated(w, k + 4, cf, region, loop)  # the code only the test reaches
    if ex.kind == "leave" and ex.target != after:
        fail(w, "except* clause ends in an unexpected place", k + 4)
    body = strip_name_cleanup(cf.stmts, name)
    clause = ast.ExceptHandler(type=typ, name=name, body=body or [ast.Pass()])
    clause._star = True
    return clause, after


def is_star_tail(w, i) -> bool:
    ins = w.instrs
    return (i + 1 < w.n and ins[i].op == "LIST_APPEND" and ins[i].arg == 1
            and ins[i + 1].op == "PREP_RERAISE_STAR")


def except_star_exit(w, i):
    """Where the tail at ``i`` goes when nothing is left to re-raise: a
    jump's target, or the code after the statement copied right there."""
    ins = w.instrs
    ops = [x.op for x in ins[i + 2:i + 6]]
    if ops != ["COPY", "POP_JUMP_IF_NOT_NONE", "POP_TOP", "POP_EXCEPT"] or i + 6 >= w.n:
        fail(w, "unexpected except* tail", i)
    nxt = ins[i + 6]
    return nxt.target if nxt.op == "JUMP" else i + 6


def as_try_star(stmt):
    """A try statement whose clauses are ``except*`` clauses as the
    ``ast.TryStar`` it is."""
    if isinstance(stmt, ast.Try) and any(getattr(h, "_star", False) for h in stmt.handlers):
        return ast.TryStar(body=stmt.body, handlers=stmt.handlers, orelse=stmt.orelse,
                           finalbody=stmt.finalbody)
    return stmt
