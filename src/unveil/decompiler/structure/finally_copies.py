"""Facts about try statements (see tries.py): what kind of handler an
exception-table target is (:func:`handler_kind`), where a new try starts (:func:`new_try`), the
copies of a finally body the compiler inlines on each way out of the body
(:func:`finally_copy_starts`, :func:`match_finally_copy`, recorded in ``w.finally_copies``), and
where an except clause ends. Nothing here walks.
"""
import ast

from .. import expressions as E
from .. import values as V
from ..stack_effects import pops_pushes
from ..versions import COPIES_EXIT_BLOCKS, HANDLERS_LAID_OUT_LAST
from .statement_parts import (STATEMENT_STEPS, COPY_WINDOW, FINALLY_UNWINDS, OPPOSITE_JUMPS, copy_key,
                              leaves_loop)
from .state import dominated_by, fail
from .jumps import (alias, exit_copy, past_finally_copies, reraise_copy, return_copy, runs_to_return,
                    follow_jumps, same_place, straight_raise_end, thread)
from .with_facts import covered_by, same_code


def handler_kind(w, target):
    """What the handler at ``target`` is: "except"/"finally" for a try
    statement, "with" for a with block's cleanup, "cleanup" for the
    compiler's own re-raise blocks. (Found once per handler: new_try asks it of
    every handler around a block, at each level of nested try statements.)"""
    kind = w._handler_kinds.get(target)
    if kind is None:
        kind = w._handler_kinds[target] = _read_handler_kind(w, target)
    return kind


def _read_handler_kind(w, target):
    ins = w.instrs
    if target >= w.n:
        return "cleanup"
    if ins[target].op != "PUSH_EXC_INFO":
        return "cleanup"
    nxt = ins[target + 1] if target + 1 < w.n else None
    if nxt is None or nxt.op in ("WITH_EXCEPT_START",):
        return "with"
    if nxt.op == "POP_TOP":
        return "except"  # bare except:
    # typed except: the type is computed, then CHECK_EXC_MATCH
    k = target + 1
    while k < w.n and ins[k].target is None and ins[k].op not in (
            "CHECK_EXC_MATCH", "CHECK_EG_MATCH", "RERAISE", "RETURN_VALUE", "POP_TOP",
            "STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF", "STORE_ATTR"):
        k += 1
    if k < w.n and ins[k].op in ("CHECK_EXC_MATCH", "CHECK_EG_MATCH"):
        return "except"
    return "finally"


def new_try(w, block):
    """The outermost try statement that starts at ``block``, if any."""
    found = None
    seen = set()
    h = block.handler
    while h is not None and h not in seen:
        seen.add(h)
        if h in w.active_handlers:
            if h not in w.open_tries:
                # the code of a try statement already made, walked again
                # outside it: it would lose its handlers
                fail(w, "try statement structured twice", block.start)
            break
        if handler_kind(w, h) in ("except", "finally"):
            found = h
        hb = w.cfg.at(h)
        h = hb.handler if hb else None
    return found


def continues_in_else(w, start, H):
    """Whether the code at ``start``, where a try body (with handler ``H``)
    completes and that no except clause falls into, is the try's else
    clause rather than the code after the try statement. Both run the
    same; the layout decides. Up to 3.11 the handlers lie between the
    body and what follows the statement, the else clause before them.
    3.12+ lays both out right after the body and moves handlers to the
    end in compile order: handlers of code in the else clause come before
    ``H``, those of later code after it. With no handler there to tell,
    the code after the statement is what the programmer most likely wrote
    (and compiles the same)."""
    if not HANDLERS_LAID_OUT_LAST:
        return True
    after = dominated_by(w, w.cfg.containing(start))
    return any(h.target < H for h in w.program.handlers
               if h.start >= start and h.target != H and after(w.cfg.containing(h.start).start))


def ends_in_break(w, ex, frame, depth, region, loop):
    """Whether a try body or else clause whose walk stopped at ``ex``
    ends in ``break``: it leaves the region for where the loop's break
    goes, its stack back at ``depth``. 3.12+ lays the code after the
    loop out right after the protected range, or copies a small exit
    (``return x``) there: the walk falls into it, past the inlined copy
    of an enclosing finally body. (Or the walk stops at that copy,
    whose end jumps to where break goes.)"""
    if (ex.kind != "leave" or loop is None or loop.break_target is None
            or region(ex.target) or len(frame.stack) != depth):
        return False
    past = past_finally_copies(w, ex.target)
    return ex.target == loop.break_target or COPIES_EXIT_BLOCKS and same_code(w, 
        ex.target, loop.break_target) or past != ex.target and thread(w, past)[0] == loop.break_target


def ends_in_continue(w, ex, frame, depth, region, loop):
    """Whether a try body or else clause whose walk stopped at ``ex``
    ends in ``continue``: it leaves the region, its stack back at
    ``depth``, for a jump back to the loop's test, past the inlined
    copies of enclosing finally bodies."""
    if ex.kind != "leave" or loop is None or region(ex.target) or len(frame.stack) != depth:
        return False
    past = past_finally_copies(w, ex.target)
    return past != ex.target and thread(w, past)[0] in loop.continue_targets


def after_finally_copy(w, index):
    """Whether ``index`` is where the walk resumes after an inlined copy
    of a finally body (or a copy starts there)."""
    t = thread(w, index)[0]
    resumes = copy_resumes(w)
    return any(x in resumes or x in w.finally_copies for x in (index, t))


def copy_resumes(w):
    """Where walks resume after the finally copies found so far: each copy's end and
    where a jump there leads (a copy may end in a jump: the walk that steps over the copy
    follows it). Kept up to date as copies are added (:func:`add_finally_copy`; asked once
    per try statement, rebuilding it each time was quadratic), rebuilt after a restore."""
    version, resumes = w._resumes
    if version != w.copies_version:
        resumes = set(w.finally_copies.values())
        resumes |= {thread(w, x)[0] for x in resumes if x < w.n}
        w._resumes = (w.copies_version, resumes)
    return resumes


def add_finally_copy(w, start, end):
    current = w._resumes[0] == w.copies_version and start not in w.finally_copies
    w.finally_copies[start] = end
    w.copies_version += 1
    if current:
        resumes = w._resumes[1]
        resumes.add(end)
        if end < w.n:
            resumes.add(thread(w, end)[0])
        w._resumes = (w.copies_version, resumes)


def program_handler(w, target):
    if w._handler_at is None:
        w._handler_at = {}
        for h in w.program.handlers:
            w._handler_at.setdefault(h.target, h)  # the first range with that target
    if target not in w._handler_at:
        fail(w, "unknown handler", target)
    return w._handler_at[target]


def handler_frame(w, H, frame, depth):
    f = frame.copy()
    f.stmts = []
    f.pending = []
    if depth >= 0:
        del f.stack[depth:]
    f.push(V.Exception_())
    return f


def keep_inside(body, outer):
    """Values the protected code computed and leaves on the stack (Dynamo's code carries
    them on) are saved inside the try body: an exception they raise must meet the
    handlers, as in the bytecode."""
    for k, v in enumerate(body.stack):
        if k < len(outer.stack) and v is outer.stack[k]:
            continue
        if E.has_effects(v):
            body.save(k)


def breaks_out_of_finally(w, H, target):
    """Whether the exceptional copy of the finally body at ``H`` drops its
    exception (POP_EXCEPT) and jumps to ``target``: a ``break``."""
    cleanup = w.cfg.at(H).handler
    end = cleanup if cleanup is not None and cleanup > H else w.n
    return any(x.op == "JUMP" and same_place(w, follow_jumps(w, x.target), target)
               and w.instrs[x.index - 1].op == "POP_EXCEPT" for x in w.instrs[H + 1:end])


def one_pass_loop(w, node, ex, target, H):
    """The try statement ``node`` inside ``while True:``: its finally body
    ``break``s (its exceptional copy drops the exception and jumps to
    ``target``) out of no loop the walk knows, a loop whose body always
    breaks, so it has no jump back to its start (``while n < 4:`` /
    ``try: ...`` / ``finally: break`` is an ``if`` otherwise). The try
    body (``ex``: where it completes) must go on there too, and neither
    clause may hold another ``break``/``continue`` of an outer loop,
    which the ``while True:`` would capture."""
    if ex.kind == "leave" and not same_place(w, past_finally_copies(w, ex.target), target):
        fail(w, "finally body's break leaves for another place than its try body", H)
    if leaves_loop(node.body) or leaves_loop(node.finalbody[:-1]):
        fail(w, "finally body breaks out of a loop with a break or continue of another", H)
    return ast.While(test=ast.Constant(value=True), body=[node], orelse=[])


def finally_copy_starts(w, pattern):
    """Where an inlined copy of the finally body whose exceptional copy is
    ``pattern`` may start: the places whose instructions equal the pattern's
    first ones, up to the first that an inlined copy may write differently
    (an exception unwind, a jump, the re-raise that ends the body; see
    match_finally_copy). Looked up in an index of instruction windows: trying
    every index for every finally made a run of try statements quadratic."""
    width = 0
    while (width < min(len(pattern), COPY_WINDOW) and pattern[width].target is None
           and pattern[width].op not in ("RERAISE", "CLEANUP_THROW")
           and not any([copy_key(x) for x in pattern[width:width + len(u)]] == u
                       for u in FINALLY_UNWINDS)):
        width += 1
    if width == 0 or w._has_cleanup_throw:
        return range(w.n)
    windows = w._copy_windows.get(width)
    if windows is None:
        windows = w._copy_windows[width] = {}
        keys = [copy_key(x) for x in w.instrs]
        for p in range(w.n - width + 1):
            windows.setdefault(tuple(keys[p:p + width]), []).append(p)
    return windows.get(tuple(copy_key(x) for x in pattern[:width]), ())


def match_finally_copy(w, pattern, reraise, p):
    """Where control goes on after an inlined copy of a finally body
    that starts at ``p``, when one does (None otherwise). ``pattern`` is
    the body's exceptional copy, which ends in the RERAISE at
    ``reraise``; the inlined copy lacks that copy's exception unwinds
    (see FINALLY_UNWINDS), and where the exceptional copy completes
    (it jumps or falls to the RERAISE) the inlined one falls off its end
    or jumps on to the code after the try statement."""
    key = copy_key
    start, k, at = p, 0, {}
    goes_on = {}  # where control goes on after the copy -> where the walk resumes
    jumps = []  # (target in the exceptional copy, target in the inlined one)
    # where the inlined copy completes into a RETURN_VALUE: it returns what was on the
    # stack when the copy began (the exceptional copy re-raises there, at that depth)
    returns = set()
    while k < len(pattern):
        for unwind in FINALLY_UNWINDS:
            if ([key(x) for x in pattern[k:k + len(unwind)]] == unwind
                    and [key(x) for x in w.instrs[p:p + len(unwind)]] != unwind):
                for x in pattern[k:k + len(unwind)]:
                    at[x.index] = p
                k += len(unwind)  # only the exceptional copy drops an exception here
                # ...and the copy on a ``return``'s path drops the pending value
                drop = unwind[:-3] + [("POP_TOP", None)]  # ([SWAP 2,] POP_TOP)
                if ([key(x) for x in w.instrs[p:p + len(drop)]] == drop
                        and [key(x) for x in pattern[k:k + len(drop)]] != drop):
                    p += len(drop)
                break
        else:
            x = pattern[k]
            completes = ends_finally_body(w, x.index)
            if (x.op == "JUMP" and ends_finally_body(w, x.target) and x.target > x.index
                    and not (p < w.n and w.instrs[p].op == "JUMP")):
                completes = True  # (a jump there: an inner finally's copy ends the body)
            if completes:
                # the exceptional copy completes here; the inlined one
                # jumps on (or falls, at its end) to the code after the try
                at[pattern[k].index] = p
                if p < w.n and w.instrs[p].op == "JUMP":
                    goes_on.setdefault(thread(w, p)[0], p)  # (the jump may be a break)
                    p += 1
                elif k + 1 < len(pattern) and p < w.n and exit_copy(w, p) is not None:
                    # (3.12+ copies a small exit after the try into each branch)
                    goes_on.setdefault(p, p)
                    while w.instrs[p].op not in ("RETURN_VALUE", "RAISE_VARARGS"):
                        p += 1
                    p += 1
                elif (k + 1 < len(pattern) or returns) and p < w.n and w.instrs[p].op == "RETURN_VALUE":
                    # (3.11+: ``return f()`` in the try body returns its value after the
                    # copy, and the compiler copies that RETURN_VALUE into each branch,
                    # the last one's too)
                    goes_on.setdefault(p, p)
                    returns.add(p)
                    p += 1
                k += 1
                continue
            if p < w.n and w.instrs[p].op == "CLEANUP_THROW":
                # (left out of the pattern; 3.12+ places it after the loop that
                # an inlined copy's ``async for`` ends with, with a jump back)
                p += 2 if p + 1 < w.n and w.instrs[p + 1].op == "JUMP" else 1
            if p >= w.n or key(w.instrs[p]) != key(pattern[k]):
                return None
            at[pattern[k].index] = p
            if pattern[k].target is not None:
                jumps.append((pattern[k].target, w.instrs[p].target))
            k += 1
            p += 1
    if p == start:
        return None
    if w.instrs[p - 1].op not in ("JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
        goes_on[p] = p
    for t, u in jumps:
        if t == reraise or t < w.n and ends_finally_body(w, t):
            # (the compiler may copy the RERAISE to each branch)
            goes_on.setdefault(p if u == p else thread(w, u)[0], u)
            if u < w.n and w.instrs[u].op == "RETURN_VALUE":
                returns.add(u)
        elif t in at and at[t] != u or t not in at and t != u:
            return None  # not the same code: its jumps go elsewhere
    # the compiler copies a small exit (``return None``) to each branch
    # (3.11: a branch jumps to a lone jump on to where another jumps: one place)
    places = {"return" if d in returns else exit_copy(w, follow_jumps(w, d)) or reraise_copy(w, d)
              or return_copy(w, d) or alias(w, d) for d in goes_on}
    if len(places) > 1:
        return None
    if (not goes_on and pattern[-1].op == "JUMP" and w.instrs[p - 1].op == "JUMP"
            and not pattern[0].index <= pattern[-1].target <= reraise):
        return p - 1  # (the copy ends in its own ``break``: walked as the jump it is)
    return min(goes_on.values()) if goes_on else p


def match_finally_copy_by_flow(w, H, reraise, cleanup, p):
    """``match_finally_copy`` for a copy laid out differently from the
    exceptional one: 3.12+ moves the blocks that only exceptions reach
    (a comprehension's or a with's cleanup, a nested handler) past the
    inlined copy's end, while they stay in place in the exceptional copy,
    itself cold. Both copies are walked side by side along their jumps
    and exception edges; they must match instruction by instruction."""
    key = copy_key
    region_end = max(reraise, cleanup)
    inside = lambda i: H < i < region_end
    outer = []  # the handler over the inlined copy (its start may lie in a nested try)
    seen, goes_on, last = set(), {}, -1
    limit = 4 * (region_end - H)
    todo = [(H + 1, p)]
    while todo:
        i, j = todo.pop()
        i = follow_jumps(w, i)
        x = w.instrs[i] if i < w.n else None
        if x is not None and ends_finally_body(w, i):
            # the exceptional copy completes here: the inlined one goes on
            # to the code after the try statement (maybe by a jump, a break)
            if j < w.n and w.instrs[j].op == "JUMP":
                goes_on.setdefault(thread(w, j)[0], j)
            else:
                goes_on.setdefault(j, j)
            continue
        j = follow_jumps(w, j)
        if not inside(i):
            if i != j:
                return None  # a jump out of the body (break, continue) goes elsewhere
            continue
        if j >= w.n or H <= j < region_end:
            return None
        for unwind in FINALLY_UNWINDS:
            if ([key(y) for y in w.instrs[i:i + len(unwind)]] == unwind
                    and [key(y) for y in w.instrs[j:j + len(unwind)]] != unwind):
                # only the exceptional copy drops an exception here (and
                # the copy on a ``return``'s path drops the pending value)
                drop = unwind[:-3] + [("POP_TOP", None)]
                if ([key(y) for y in w.instrs[j:j + len(drop)]] == drop
                        and [key(y) for y in w.instrs[i + len(unwind):i + len(unwind) + len(drop)]] != drop):
                    j += len(drop)
                todo.append((i + len(unwind), j))
                break
        else:
            # (pairs, not a one-to-one map: either copy may repeat a
            # small tail that the other shares between its branches)
            if (i, j) in seen:
                continue
            y = w.instrs[j]
            # (a jump over a jump is turned into the opposite test when
            # the inner jump is a bare ``continue``, which only the
            # inlined copy has: the exceptional one unwinds first)
            flipped = OPPOSITE_JUMPS.get(x.op) == y.op
            if key(x) != key(y) and not flipped or len(seen) > limit:
                return None
            seen.add((i, j))
            last = max(last, j)
            hi = w.cfg.containing(i).handler
            hj = w.cfg.containing(j).handler
            if hi == cleanup:
                outer = outer or [hj]
                if hj != outer[0]:
                    return None
            elif hi is not None and inside(hi):
                if hj is None:
                    return None
                todo.append((hi, hj))  # a handler inside the body: matched too
            elif hi != hj:
                return None
            if x.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
                continue
            if flipped:
                todo.extend([(x.target, j + 1), (i + 1, y.target)])
                continue
            if x.target is not None:
                todo.append((x.target, y.target))
            todo.append((i + 1, j + 1))
    if not seen:
        return None
    # (a copy on a ``return``'s path completes into RETURN_VALUEs, one per branch
    # that 3.12+ copies it to: each returns the value kept below the copy)
    places = {"return" if d < w.n and w.instrs[d].op == "RETURN_VALUE"
              else exit_copy(w, d) or reraise_copy(w, d) or return_copy(w, d) or alias(w, d)
              for d in goes_on}
    if len(places) > 1:
        return None
    return min(goes_on.values()) if goes_on else last + 1


def ends_finally_body(w, index):
    """Whether the instruction at ``index`` is a RERAISE that ends the
    exceptional copy of the finally body at ``self._finally_at`` (where
    an inlined copy completes). Not the re-raise of a handler inside the
    body, nor that of an except clause inside it that matched nothing:
    those lie under the inner statement's own cleanup, the body's end
    under the cleanup of the finally handler itself."""
    x = w.instrs[index] if index < w.n else None
    if x is None or (x.op, x.arg) != ("RERAISE", 0):
        return False
    if only_raised_into(w, index) and w.instrs[index - 1].op != "POP_EXCEPT":
        # (after POP_EXCEPT an except clause inside the body has completed:
        # 3.12+ copies the body's closing re-raise there)
        return False
    cleanup = w.cfg.at(w._finally_at).handler
    return cleanup is None or w.cfg.containing(index).handler == cleanup


def only_raised_into(w, index, H=None):
    """Whether only exceptions reach the block holding ``index`` (the
    handler of a statement inside the finally body at ``H``, such as a
    3.12+ inlined comprehension's cleanup or an inner finally): its
    RERAISE is in every copy of the body."""
    H = w._finally_at if H is None else H
    b = w.cfg.containing(index)
    while b.start > 0 and not b.exc_preds and len(b.preds) == 1 and b.preds[0].end == b.start:
        b = b.preds[0]  # (a block it only falls from)
    # (an ``async for`` ends where StopAsyncIteration is caught: END_ASYNC_FOR)
    return (bool(b.exc_preds) and not b.preds and w.instrs[b.start].op != "END_ASYNC_FOR"
            and b.start != H)


def clause_ends(w, start, H):
    """Where the except clause starting at ``start`` jumps once it has
    dropped its exception (POP_EXCEPT, then the ``as`` name's cleanup):
    code there follows the try statement even when only the clause
    reaches it (the try body always returns), so it is not the clause's."""
    cleanup = w.cfg.at(H).handler if w.cfg.at(H) else None
    ends = set()
    # (only the clause's dominator subtree: a scan of every block made a run of
    # try statements quadratic)
    for b in w.cfg.dominated_blocks(w.cfg.containing(start)):
        last = w.instrs[b.end - 1]
        if last.op != "JUMP":
            continue
        k = b.end - 2
        while k >= b.start and w.instrs[k].op in (
                "LOAD_CONST", "STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL",
                "DELETE_FAST", "DELETE_NAME", "DELETE_DEREF", "DELETE_GLOBAL"):
            k -= 1  # (the ``as`` name's cleanup: ``name = None; del name``)
        if (k >= b.start and w.instrs[k].op == "POP_EXCEPT"
                and not (cleanup is not None and covered_by(w, b.start, cleanup))):
            ends.add(last.target)  # (a nested clause's POP_EXCEPT lies in this one's cleanup)
    return ends


def clause_tails(w, start, H):
    """Where the except clause starting at ``start`` falls, after dropping
    its exception (POP_EXCEPT, then the ``as`` name's cleanup), into code
    that runs straight to a ``return`` and was written after the try
    statement (a later line): 3.12+ copies such a small exit into the
    clause instead of jumping to it. The clause ends there (see
    :func:`_pop_except`): inside it, the return value would be computed
    while the exception is still being handled."""
    tails = set()
    outer = handler_around_try(w, H)
    # (the clause's dominator subtree only: every block per clause made a run of tries quadratic)
    for b in w.cfg.dominated_blocks(w.cfg.containing(start)):
        for k in range(b.start, b.end):
            ins = w.instrs[k]
            if ins.op != "POP_EXCEPT" or ins.line is None:
                continue
            j = after_name_cleanup(w, k + 1)
            if (j < w.n and w.instrs[j].line is not None and w.instrs[j].line > ins.line
                    and (runs_to_return(w, j) or straight_raise_end(w, j) is not None)
                    and returns_own_value(w, j)
                    and w.cfg.containing(j).handler == outer):
                tails.add(j)
    return tails


def handler_around_try(w, H):
    """The handler that covers the try statement whose except clauses
    start at ``H`` (the one that covers their cleanup), or None: code
    after the try statement lies under it too, while the inlined copy of
    an enclosing finally body that a ``return`` in a clause runs does not."""
    cleanup = w.cfg.at(H).handler if w.cfg.at(H) else None
    around = w.cfg.at(cleanup) if cleanup is not None else None
    return around.handler if around is not None else None


def returns_own_value(w, index):
    """Whether the straight code at ``index`` returns a value it computes
    without consuming anything pushed before it (a ``break`` would drop
    a for loop's iterator on its way to a copied return). Statements may
    come first (``del x`` / ``x = 1`` then the function's implicit
    ``return None``: 3.12+ lays such a tail, reached from the clause
    only, right after it)."""
    depth = 0
    for ins in w.instrs[index:]:
        if ins.op == "RETURN_VALUE" or (ins.op, ins.arg) == ("RAISE_VARARGS", 1):
            return depth == 1  # (or raises it: 3.12+ copies ``raise E`` the same way)
        pp = STATEMENT_STEPS.get(ins.op) or pops_pushes(ins)
        if pp is None or pp[0] > depth:
            return False
        depth += pp[1] - pp[0]
    return False


def after_name_cleanup(w, index):
    """``index``, or past the ``as`` name's cleanup (``name = None; del
    name``) that starts there."""
    ins = w.instrs
    if (index + 2 < w.n and (ins[index].op, ins[index].arg) == ("LOAD_CONST", None)
            and ins[index + 1].op.startswith("STORE_") and ins[index + 2].op.startswith("DELETE_")
            and ins[index + 1].arg == ins[index + 2].arg):
        return index + 3
    return index


def clause_tail_returns(w, index, in_clause):
    """Whether the code at ``index`` belongs to the clause only (the
    clause dominates it) and runs straight to a ``return``."""
    if index >= w.n or not in_clause(w.cfg.containing(index).start):
        return False
    k = index
    while k < w.n and w.instrs[k].target is None and w.instrs[k].op not in (
            "RAISE_VARARGS", "RERAISE", "RETURN_VALUE"):
        k += 1
    return k < w.n and w.instrs[k].op == "RETURN_VALUE" and k < w.cfg.containing(index).end
