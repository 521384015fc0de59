"""``with`` statements, 3.11+ (<=3.10: legacy.py): the body is the range the
exception table sends to the ``__exit__`` handler; its ways out run the inline exit call
``__exit__(None, None, None)``, which is dropped (with_facts.py finds it).
"""
import ast

from .. import expressions as E
from .. import values as V
from .regions import END
from .statement_parts import save_computed
from .state import fail
from .async_facts import with_body_end
from .with_facts import (after_suppressed, constant_returned_from_with, covered_by, jumped_out_through_exit,
                         returns_through_with_exits, with_exit_call_at)


def go_on(w, target, frame, region, loop):
    """Where the walk goes on after a try statement: ``target`` when its
    block lies in the region (it may start mid-block, after a skipped
    finally copy), else a jump out of the region."""
    if target < w.n and region(w.cfg.containing(target).start):
        return target
    return w.transfer(target, frame, region, loop)


def with_(w, ins, frame, region, loop):
    cm = frame.pop_expr(ins)
    is_async = ins.op == "BEFORE_ASYNC_WITH"
    frame.push(V.WithExit(cm, is_async))
    frame.push(V.WithEnter())
    start = ins.index + 1
    handler = w.cfg.at(start).handler if w.cfg.at(start) else None
    if handler is None:
        fail(w, "with block without a handler", ins.index)
    body_end = with_body_end(w, handler, start)  # asyncs.py
    body = frame.copy()
    body.stmts = []
    inner = lambda i: region(i) and (covered_by(w, i, handler) or i < body_end and i >= start)
    ex = w.walk(start, body, inner, loop)
    if ex.kind == "leave" and len(body.stack) > len(frame.stack) - 1:
        # a value computed inside (``return x`` in the body): the exit
        # call runs, then the statement that uses the value
        ex = w.walk(ex.target, body, region, loop)
    if (ex.kind == "leave" and returns_through_with_exits(w, ex.target, body)
            and len(body.stack) == len(frame.stack) - 1):
        # ``return x`` whose RETURN_VALUE lies just past a try's region: a return
        # cannot raise, so the exception table stops before it; it is still the
        # with body's own return (a temporary set inside would be unbound when
        # ``__exit__`` swallows an exception from computing it). Inside nested
        # with statements the outer ones' exits are called first, outside
        # their bodies' ranges too.
        body.emit(ast.Return(value=body.pop_expr(w.instrs[ex.target])))
        ex = END
    ex = returned_through_exits_and_finally(w, ex, body, frame, loop)
    returned = constant_returned_from_with(w, ex, body, frame, handler)
    if returned is not None:
        E.execute(body, w.instrs[returned])
        body.emit(ast.Return(value=body.pop_expr()))
        ex = END
    ex = jumped_out_through_exit(w, ex, body, frame, handler, region, loop)
    if ex.kind == "leave":
        # ... unless that statement lies past the region (a try's
        # ``finally`` runs first): the value waits in a temporary, set
        # inside the with block where it was computed
        save_computed(body, len(frame.stack) - 2)
    target = None
    stmts = body.stmts
    if stmts and isinstance(stmts[0], ast.Assign) and getattr(stmts[0].value, "_with_enter", False):
        target = stmts[0].targets[0]
        stmts = stmts[1:]
    item = ast.withitem(context_expr=cm, optional_vars=target)
    node_t = ast.AsyncWith if is_async else ast.With
    stmts = [s for s in stmts if not getattr(s, "_cancelled", False)]
    # a with body holding a single with is ``with a, b:``
    if len(stmts) == 1 and type(stmts[0]) is node_t:
        node = node_t(items=[item] + stmts[0].items, body=stmts[0].body, type_comment=None)
    else:
        node = node_t(items=[item], body=stmts or [ast.Pass()], type_comment=None)
    frame.emit(node)
    if ex.kind == "end":
        # the body never falls through, but an exception __exit__
        # swallows continues after the block
        after = after_suppressed(w, handler)
        if after is None:
            return END
        del frame.stack[-2:]  # (the pops before ``after`` drop the with's exit and enter)
        return go_on(w, after, frame, region, loop)  # (after the pops: mid-block)
    # the normal exit: call __exit__(None, None, None) and drop the result
    frame.stack[:] = body.stack
    return ex.target


def returned_through_exits_and_finally(w, ex, body, frame, loop):
    """``ex``, or END after ``return x`` ending the with body (walked in ``body``; the
    statement began on ``frame``) when the value leaves into the exit calls of
    enclosing with statements that go on into an inlined copy of a finally body
    before the return (``try: with a, b: return x`` / ``finally: if c: ...``): the
    copy's branches each end in a copy of the return, which the walk reads whole."""
    if (ex.kind != "leave" or len(body.stack) != len(frame.stack) - 1
            or not isinstance(body.stack[-1], ast.expr) or not with_exit_call_at(w, ex.target, body)):
        return ex  # (the value on top: this with's exit was called, the value waits above the next)
    trial = body.copy()
    got = w.walk(ex.target, trial, lambda i: True, loop)
    if got is not END or len(trial.stmts) != 1 or not isinstance(trial.stmts[0], ast.Return):
        return ex
    body.stmts.extend(trial.stmts)
    body.stack[:] = trial.stack
    return END
