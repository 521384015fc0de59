"""Structuring of the <=3.10 block-stack constructs: ``SETUP_FINALLY``,
``SETUP_WITH``/``SETUP_ASYNC_WITH``, ``POP_BLOCK``, ``BEGIN_FINALLY``/
``END_FINALLY``/``CALL_FINALLY``/``POP_FINALLY`` (3.8), ``WITH_CLEANUP_*``
(3.8), ``WITH_EXCEPT_START``/``RERAISE``/``JUMP_IF_NOT_EXC_MATCH`` (3.9, 3.10).

:func:`setup_block` is called by the walk (walk.block) when a block ends in a ``SETUP_*``
instruction; the handlers of the other block-stack instructions are registered in
walk.SPECIAL by :func:`install`. What these constructs ask about the code is in
legacy_facts.py.

How a statement is laid out (all three versions): the protected body, with
every early exit (``return``/``break``/``continue``) written inline, lies
between the ``SETUP_*`` instruction and its handler; each way out of the body
starts with a ``POP_BLOCK``. What follows that ``POP_BLOCK`` before the exit
proper is compiler bookkeeping, handled per instruction here:

* 3.8 runs a ``finally`` body as a subroutine (``CALL_FINALLY`` /
  ``BEGIN_FINALLY`` ... ``END_FINALLY``/``POP_FINALLY``) and calls ``__exit__``
  through ``WITH_CLEANUP_START``/``WITH_CLEANUP_FINISH``: the body is
  decompiled once, from the handler, and the calls are skipped;
* 3.9 and 3.10 copy the ``finally`` body onto every exit and call
  ``__exit__(None, None, None)`` inline: the copies are found by comparing
  them with the handler's copy and skipped, the exit call is consumed.

The exit that leads to the code after the statement (the *normal* exit) ends
the body. 3.10 copies small ``return`` blocks into every path that jumps to
them, so that exit may be followed by a copy of the code after the statement
rather than by a jump to it; :func:`.legacy_facts._normal_exits` tells it from
the early exits (see there).

The stack entries the interpreter pushes for a handler (the saved exception
state and the exception itself, the NULL of ``BEGIN_FINALLY``, 3.8's
``LOAD_CONST None`` pad under a finally body that leaves early) are markers
below: a ``POP_TOP`` drops them silently, using one as a value fails.
"""
import ast

from .. import expressions as E
from .. import values as V
from .regions import (END, Exit, WithinRange, both, ends_in_loop_left_by_break, leaves_reraise,
                      strip_name_cleanup, strip_tail_reraise)
from .state import dominated_by, fail
from .jumps import legacy_key
from .with_facts import legacy_same_place
from .legacy_facts import (Fin, Pad, SavedExc, _Block, STORES, enter_marker, legacy_clause_end, legacy_copies,
                           legacy_dead_clause_exit, legacy_dead_copies, legacy_exit_call,
                           legacy_handler_frame, legacy_handler_kind, legacy_pop_block, legacy_reached,
                           legacy_register, legacy_same_tail, legacy_skip_await, legacy_state, mentions_enter,
                           normal_exits)
from .finally_copies import ends_in_break


def _pop_block(w, ins, frame, region, loop):
    nxt = legacy_pop_block(w, ins, frame)
    if isinstance(nxt, int) and loop is not None and nxt in loop.continue_targets:
        # a finally's inlined copy whose last jump goes straight to the loop's
        # header (the compiler threads ``continue``'s jump through the copy)
        return w.transfer(nxt, frame, region, loop)
    return nxt


def _begin_finally(w, ins, frame, region, loop):
    frame.push(Fin())


def _end_finally(w, ins, frame, region, loop):
    top = frame.pop(ins)
    if not isinstance(top, Fin):
        fail(w, "END_FINALLY outside a finally body", ins.index)
    if top.stop:
        return Exit("leave", ins.index + 1)
    return None


def _pop_finally(w, ins, frame, region, loop):
    keep = frame.pop(ins) if ins.arg else None
    fin = frame.pop(ins)
    if not isinstance(fin, Fin):
        fail(w, "POP_FINALLY outside a finally body", ins.index)
    if ins.arg:
        frame.push(keep)


def _with_cleanup_start(w, ins, frame, region, loop):
    # [exit, NULL] -> (call __exit__(None, None, None)) -> [NULL]
    k = legacy_skip_await(w, ins.index + 1)
    if w.instrs[k].op != "WITH_CLEANUP_FINISH":
        fail(w, "unexpected with cleanup", ins.index)
    fin = frame.pop(ins)
    ex = frame.pop(ins)
    if not isinstance(fin, Fin) or not isinstance(ex, V.WithExit):
        fail(w, "with cleanup outside a with block", ins.index)
    frame.push(fin)
    return k + 1


def _before_async_with(w, ins, frame, region, loop, previous=None):
    k = ins.index
    if (w.instrs[k + 1].op == "GET_AWAITABLE" and legacy_skip_await(w, k + 1) < w.n
            and w.instrs[legacy_skip_await(w, k + 1)].op == "SETUP_ASYNC_WITH"):
        cm = frame.pop_expr(ins)
        frame.push(V.WithExit(cm, True))
        frame.push(enter_marker())
        return legacy_skip_await(w, k + 1)
    if previous is not None:
        return previous(w, ins, frame, region, loop)
    fail(w, "unsupported async with", ins.index)


def _pop_except(w, ins, frame, region, loop, previous=None):
    st = frame.stack
    if st and isinstance(st[-1], SavedExc):
        if len(st) < 3 or not all(isinstance(x, SavedExc) for x in st[-3:]):
            fail(w, "POP_EXCEPT without a saved exception", ins.index)
        del st[-3:]
        return legacy_clause_end(w, ins, frame, region, loop)
    if previous is not None:
        return previous(w, ins, frame, region, loop)
    fail(w, "POP_EXCEPT outside a handler", ins.index)


_HANDLERS = {
    "POP_BLOCK": _pop_block,
    "BEGIN_FINALLY": _begin_finally,
    "END_FINALLY": _end_finally,
    "POP_FINALLY": _pop_finally,
    "WITH_CLEANUP_START": _with_cleanup_start,
}


_CHAINED = {
    "BEFORE_ASYNC_WITH": _before_async_with,
    "POP_EXCEPT": _pop_except,
}


def install(special):
    """Register the instruction handlers in ``special`` (structure.SPECIAL;
    called once, by walk.py)."""
    for op, fn in _HANDLERS.items():
        special.setdefault(op, fn)
    for op, fn in _CHAINED.items():
        prev = special.get(op)
        special[op] = (lambda fn, prev: lambda self, ins, frame, region, loop:
                       fn(self, ins, frame, region, loop, previous=prev))(fn, prev)


def _legacy_continue(w, follow, frame, region, loop):
    """Go on at ``follow`` (possibly inside a block) after a statement."""
    if follow is None:
        return END
    if follow < w.n and region(w.cfg.containing(follow).start):
        return follow
    return w.transfer(follow, frame, region, loop)


def setup_block(w, ins, frame, region, loop):
    """Structure the try/with statement opened by ``ins``; return the
    index where control continues after it, or an ``Exit``."""
    legacy_state(w)
    s, H = ins.index, ins.target
    if H is None or H >= w.n or H <= s:
        fail(w, "SETUP without a handler", s)
    if ins.op in ("SETUP_WITH", "SETUP_ASYNC_WITH"):
        return _legacy_with(w, ins, frame, region, loop)
    kind = legacy_handler_kind(w, H)
    if kind == "cleanup":
        # ``except E as name:``'s own try/finally that deletes the name:
        # its body is the clause body; the deletions are dropped later
        w._lblocks[H] = _Block("cleanup", s, H, len(frame.stack))
        return s + 1
    if kind == "except":
        return _legacy_try(w, ins, frame, region, loop)
    return _legacy_finally(w, ins, frame, region, loop)


def _legacy_body(w, blk, frame, region, loop, excluded=()):
    """Walk the protected body of ``blk`` into a copy of ``frame``."""
    s, H = blk.setup, blk.handler
    body = frame.copy()
    body.stmts = []
    body.pending = []
    ex = w.walk(s + 1, body, both(region, WithinRange(s, H, set(excluded))), loop)
    return body, ex


def _legacy_try(w, ins, frame, region, loop):
    s, H = ins.index, ins.target
    blk = _Block("try", s, H, len(frame.stack))
    w._lblocks[H] = blk
    if not w._lv38:
        blk.normal = normal_exits(w, blk, loop, lambda p: p + 1)
    body, ex = _legacy_body(w, blk, frame, region, loop, {p + 1 for p in blk.normal})
    if len(body.stack) != len(frame.stack) and ex.kind == "leave":
        fail(w, "try body leaves values on the stack", s)
    stop = None
    if ex.kind == "leave" and not w._lv38:
        stop = legacy_key(w, ex.target)
        if isinstance(stop, tuple):
            legacy_register(w, [ex.target])
        else:
            stop = None
    handlers, h_exit, dead_exit = _legacy_clauses(w, blk, frame, region, loop, stop)
    orelse = []
    follow = None
    if ex.kind == "leave":
        X = ex.target
        if h_exit is not None and legacy_same_place(w, X, h_exit):
            follow = X
        elif h_exit is None and dead_exit is not None and legacy_same_place(w, X, dead_exit):
            follow = X  # no clause ends normally, but all would go where the body goes
        elif h_exit is None and dead_exit is None:
            # no clause ends normally and none shows where it would go:
            # the code after is the try statement's follow (an else
            # clause lies in the same place; see function.py for the
            # one at the end of a function)
            follow = X
        else:
            # the else clause runs from X to where the handlers go
            ef = frame.copy()
            ef.stmts = []
            ef.pending = []
            dom = dominated_by(w, w.cfg.containing(X))
            end = h_exit if h_exit is not None else dead_exit
            ex2 = w.walk(X, ef, lambda i: region(i) and dom(i) and i != end, loop)
            if ends_in_break(w, ex2, ef, len(frame.stack), region, loop):
                ef.emit(ast.Break())
                ex2 = END
            if (ex2.kind == "leave" and h_exit is not None
                    and not legacy_same_place(w, ex2.target, h_exit)):
                fail(w, "try/else ends in an unexpected place", X)
            orelse = ef.stmts
            follow = ex2.target if ex2.kind == "leave" else h_exit
    else:
        follow = h_exit
    frame.emit(ast.Try(body=body.stmts or [ast.Pass()], handlers=handlers,
                       orelse=orelse, finalbody=[]))
    return _legacy_continue(w, follow, frame, region, loop)


def _legacy_clauses(w, blk, frame, region, loop, stop=None):
    """The except clauses at ``blk``'s handler, where they go, and where
    the clauses that never end would go (see
    :func:`legacy_dead_clause_exit`); ``stop``: the key of the code
    after the statement, whose copies end a clause."""
    w._lstops.append(stop)
    try:
        return _legacy_clauses_at(w, blk, frame, region, loop)
    finally:
        w._lstops.pop()


def _legacy_clauses_at(w, blk, frame, region, loop):
    ins = w.instrs
    clauses = []
    exits = []
    dead_exits = []  # where clauses that never end normally would go
    k = blk.handler
    while True:
        op = ins[k].op
        typ = None
        nxt = None
        if op in ("END_FINALLY", "RERAISE"):
            break  # no clause matched: the exception goes on
        if op == "COPY" and ins[k].arg == 1:
            tf = E.Frame(w.ctx)
            j = k + 1
            while ins[j].op not in ("CHECK_EXC_MATCH", "JUMP_IF_NOT_EXC_MATCH"):
                if ins[j].target is not None or ins[j].op in w.special:
                    fail(w, "unexpected except test", j)
                E.execute(tf, ins[j])
                j += 1
            typ = tf.pop_expr(ins[j])
            if tf.stack or tf.stmts:
                fail(w, "unexpected except test", j)
            if ins[j].op == "CHECK_EXC_MATCH":
                j += 1
                if ins[j].op != "POP_JUMP_IF_FALSE":
                    fail(w, "unexpected except test", j)
            nxt = ins[j].target
            k = j + 1
            if ins[k].op != "POP_TOP":
                fail(w, "unexpected except clause", k)
            name = None
            if ins[k + 1].op in STORES:
                name = ins[k + 1].arg
            elif ins[k + 1].op != "POP_TOP":
                fail(w, "unexpected except clause", k + 1)
            if ins[k + 2].op != "POP_TOP":
                fail(w, "unexpected except clause", k + 2)
            start = k + 3
        elif all(ins[k + j].op == "POP_TOP" for j in range(3)):
            name = None
            start = k + 3
        else:
            fail(w, "unexpected except clause", k)
        cf = legacy_handler_frame(w, frame, blk, exception=False)
        if name is not None:
            cf.clause_names = cf.clause_names | {name}
        head = w.cfg.containing(k)
        dom = dominated_by(w, head)
        cregion = lambda i, dom=dom: region(i) and dom(i)
        blk_at = w.cfg.containing(start)
        if start >= w.n:
            fail(w, "except clause without a body", k)
        if blk_at.start != start:
            ex = w.block(blk_at, cf, cregion, loop, start=start)
            if not isinstance(ex, Exit):
                # (the next index may lie inside a block: a skipped copy)
                ex = (w.walk(ex, cf, cregion, loop)
                      if ex < w.n and cregion(w.cfg.containing(ex).start)
                      else Exit("leave", ex))
        else:
            ex = w.walk(start, cf, cregion, loop)
        body = strip_name_cleanup(cf.stmts, name)
        if (body and isinstance(body[-1], ast.Continue) and nxt is not None
                and legacy_dead_clause_exit(w, start, nxt, unreached=True) is not None):
            # the clause's own exit is there, unreached: the ``continue`` was
            # written (``pass`` would run into that exit), though it ends the loop body
            body[-1]._written = True
        if ex.kind == "leave":
            exits.append(ex.target)
        elif nxt is not None:
            dead = legacy_dead_clause_exit(w, start, nxt)
            if dead is not None:
                dead_exits.append(dead)
        clauses.append(ast.ExceptHandler(type=typ, name=name, body=body or [ast.Pass()]))
        if nxt is None:
            break
        k = nxt
    if any(not legacy_same_place(w, exits[0], x) for x in exits[1:]):
        fail(w, "except clauses end in different places", blk.handler)
    if not clauses:
        fail(w, "try without except clauses", blk.handler)
    for c in clauses[:-1]:
        if c.type is None:
            fail(w, "bare except before the last clause", blk.handler)
    dead_exit = None
    if dead_exits and all(legacy_same_place(w, dead_exits[0], x) for x in dead_exits[1:] + exits):
        dead_exit = dead_exits[0]
    return clauses, (exits[0] if exits else None), dead_exit


def _legacy_finally(w, ins, frame, region, loop):
    s, H = ins.index, ins.target
    pad = False
    if (w._lv38 and frame.stack and isinstance(frame.stack[-1], ast.Constant)
            and frame.stack[-1].value is None and s > 0 and w.instrs[s - 1].op == "LOAD_CONST"
            and w.instrs[s - 1].arg is None):
        frame.stack[-1] = Pad()
        pad = True
    blk = _Block("finally", s, H, len(frame.stack))
    w._lblocks[H] = blk
    hb = w.cfg.at(H)
    hdom = dominated_by(w, hb)
    if w._lv38:
        body, ex = _legacy_body(w, blk, frame, region, loop)
        ff = frame.copy()
        ff.stmts = []
        ff.pending = []
        ff.push(Fin(stop=True))
        fex = w.walk(H, ff, lambda i: region(i) and hdom(i), loop)
        fin = ff.stmts
        follow = None
        if fex.kind == "leave":
            e = fex.target - 1
            if w.instrs[e].op != "END_FINALLY":
                fail(w, "finally body ends in an unexpected place", H)
            follow = e + 1
            if pad:
                if w.instrs[follow].op != "POP_TOP":
                    fail(w, "finally body without its pad", follow)
                follow += 1
                frame.stack.pop()
        if ex.kind == "leave" and ex.target != H:
            fail(w, "try/finally body ends in an unexpected place", s)
    else:
        # the handler's copy of the finally body, up to its RERAISE
        hf = legacy_handler_frame(w, frame, blk)
        fex = w.walk(H, hf, lambda i: region(i) and hdom(i), loop)
        ends = {n._index for st in hf.stmts for n in ast.walk(st) if getattr(n, "_reraise", False)}
        # (a statement inside that goes on to a copy of the re-raise)
        ends.update(i for i in w._lfollows if w.instrs[i].op == "RERAISE"
                    and hdom(w.cfg.containing(i).start))
        fin = strip_tail_reraise(hf.stmts)
        if leaves_reraise(fin):
            fail(w, "finally body re-raises where no branch ends", H)
        # (3.9 leaves an unreachable jump to a re-raise after a raising branch)
        never_completes = fex.kind == "end" or not legacy_reached(w, fex.target)
        if never_completes and ends_in_loop_left_by_break(fin):
            never_completes = False  # (3.10: the loop's break is the re-raise)
        dead = legacy_dead_copies(w, blk, hdom, loop) if never_completes else None
        if dead is not None:
            # every path of the finally body raises or returns: so does
            # each inlined copy, where the body's exits end
            blk.dead = frozenset(dead)
            w.dead_end_copies.update(dict.fromkeys(dead, H))
            body, ex = _legacy_body(w, blk, frame, region, loop)
            if ex.kind == "leave" and ex.target in dead:
                ex = END
        else:
            blk.copies = legacy_copies(w, blk, hdom, ends)
            blk.normal = normal_exits(w, 
                blk, loop, lambda p: blk.copies.get(p + 1))
            body, ex = _legacy_body(w, blk, frame, region, loop,
                                         {p + 1 for p in blk.normal})
        follow = ex.target if ex.kind == "leave" else None
        if follow is not None and s < follow < H:
            pass  # after the inlined copy: the code after the statement
    node = ast.Try(body=body.stmts or [ast.Pass()], handlers=[], orelse=[],
                   finalbody=fin or [ast.Pass()])
    if (len(node.body) == 1 and isinstance(node.body[0], ast.Try)
            and not node.body[0].finalbody and node.body[0].handlers):
        inner = node.body[0]
        node = ast.Try(body=inner.body, handlers=inner.handlers, orelse=inner.orelse,
                       finalbody=node.finalbody)
    frame.emit(node)
    return _legacy_continue(w, follow, frame, region, loop)


def _legacy_with(w, ins, frame, region, loop):
    s, H = ins.index, ins.target
    is_async = ins.op == "SETUP_ASYNC_WITH"
    base = len(frame.stack) - (2 if is_async else 1)
    if is_async:
        if len(frame.stack) < 2 or not isinstance(frame.stack[-2], V.WithExit):
            fail(w, "async with without its context manager", s)
        cm = frame.stack[-2].context
    else:
        cm = frame.pop_expr(ins)
        frame.push(V.WithExit(cm, False))
        frame.push(enter_marker())
    blk = _Block("with", s, H, base + 1)
    w._lblocks[H] = blk
    instrs = w.instrs
    if w._lv38:
        k = legacy_skip_await(w, H + 1)
        if not (instrs[H].op == "WITH_CLEANUP_START" and instrs[k].op == "WITH_CLEANUP_FINISH"
                and instrs[k + 1].op == "END_FINALLY"):
            fail(w, "unexpected with cleanup", H)
        tail = k + 2
    else:
        blk.inline_exit = True
        k = legacy_skip_await(w, H + 1)
        if not (instrs[H].op == "WITH_EXCEPT_START" and instrs[k].op == "POP_JUMP_IF_TRUE"
                and instrs[k + 1].op == "RERAISE" and instrs[k].target == k + 2
                and [x.op for x in instrs[k + 2:k + 7]] == ["POP_TOP"] * 3 + ["POP_EXCEPT", "POP_TOP"]):
            fail(w, "unexpected with cleanup", H)
        tail = k + 7

        def after(p):
            t, swap = legacy_exit_call(w, p + 1)
            return "value" if swap else t
        blk.normal = normal_exits(w, blk, loop, after)
    body, ex = _legacy_body(w, blk, frame, region, loop, {p + 1 for p in blk.normal})
    del frame.stack[base:]  # the with's own entries
    if w._lv38:
        if ex.kind == "leave" and ex.target != H:
            fail(w, "with body ends in an unexpected place", s)
        follow = tail
    elif ex.kind == "leave":
        follow = ex.target
        if not legacy_same_tail(w, follow, tail):
            fail(w, "with block's exits continue differently", s)
    else:
        follow = tail
    stmts = [st for st in body.stmts if not getattr(st, "_cancelled", False)]
    target = None
    if stmts and isinstance(stmts[0], ast.Assign) and len(stmts[0].targets) == 1 \
            and getattr(stmts[0].value, "_with_enter", False):
        target = stmts[0].targets[0]
        stmts = stmts[1:]
    elif stmts and isinstance(stmts[0], ast.Expr) and getattr(stmts[0].value, "_with_enter", False):
        stmts = stmts[1:]
    else:
        fail(w, "with statement's enter value not found", s)
    if mentions_enter(stmts) or target is not None and mentions_enter([target]):
        fail(w, "with statement's enter value used elsewhere", s)
    item = ast.withitem(context_expr=cm, optional_vars=target)
    node_t = ast.AsyncWith if is_async else ast.With
    if len(stmts) == 1 and type(stmts[0]) is node_t:
        node = node_t(items=[item] + stmts[0].items, body=stmts[0].body, type_comment=None)
    else:
        node = node_t(items=[item], body=stmts or [ast.Pass()], type_comment=None)
    frame.emit(node)
    if follow is None or follow >= w.n:
        return END if follow is None else Exit("leave", follow)
    return _legacy_continue(w, follow, frame, region, loop)
