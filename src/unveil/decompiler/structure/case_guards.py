"""A case's guard read from its code (see match.py for the layout, patterns.py for the
pattern before it). :func:`guard` runs the guard's code through the walker, one test of the
guard's own frame at a time, and gives its expression and where its true path goes; the
other functions tell what one test of it is (a conjunct, an ``a or ...`` alternative, a
conditional expression), whether a jump goes to the next case
(:func:`goes_to_next_case`), and whether what read as the last case's guard is the test
of its body's first statement instead (:func:`body_test`).

Each but :func:`guard_stack_holds` takes the :class:`patterns.CaseParser` ``p`` reading the
case as its first argument: its instructions, whether the case copied the subject, where its
failing tests land, and its way of following a failing jump (``p.fail_jump``).
"""
import ast

from .. import expressions as E
from ..errors import DecompilationError
from .regions import bool_op, is_chain, negate
from .jumps import Poison, same_place
from .state import Snapshot
from .match_facts import GuardTest, NoMatch, _anywhere, conjunction, _live, resolve
from .conditions import condition, pure_condition
from .branches import if_


def guard(p, i):
    """The guard starting at ``i`` (the case's pattern matched and only
    the subject is left): its expression and where its true path goes.
    The guard's code is run by the walker like any expression (and/or
    as values, conditional expressions, comprehensions, awaits); the
    walker stops at each test of the guard's own frame. Each test that
    goes to the next case one way is a conjunct of the guard (merged
    by the walker where it can); the guard ends where the subject is
    dropped (a case that copied it) or where no more of it can be read
    (the last case)."""
    w = p.w
    base = [Poison() for _ in range(p.outer_depth + (1 if p.copy else 0))]
    f = E.Frame(p.ctx, base)
    k = i
    parts = []
    alts = []  # (test, body start): ``a or ...`` whose a goes to the body
    found = None  # (guard, true target) read so far, for the last case
    outer = w.guard_frame
    # a guard read too far walks on into the case's body, met again when the body is walked
    saved = Snapshot(w)
    try:
        for _ in range(64):
            w.guard_frame = f
            r = w.block(w.cfg.containing(k), f, _anywhere, None, start=k)
            w.guard_frame = outer
            if not isinstance(r, GuardTest):
                k = r  # (a short circuit's or a jump's target)
                if _live(f.stmts) or f.pending:
                    raise NoMatch  # (statements: the case's body, not its guard)
            else:
                c = condition(w, r.block, f)
                if _live(f.stmts) or f.pending:
                    raise NoMatch  # (a walrus in the test is no statement once tested)
                conjunct = guard_conjunct(p, c, base) or ifexp_conjunct(p, c, base)
                alt = None if conjunct is not None or parts else guard_alternative(p, c, base)
                if alt is not None:
                    expr, body, k = alt
                    alts.append((expr, body))
                    f = c.frame
                elif conjunct is None:
                    k = guard_operand(p, c, f)
                else:
                    expr, k = conjunct
                    parts.append(expr)
                    f = c.frame
                    if len(f.stack) == len(base) and not _live(f.stmts):
                        found = (conjunction(parts), k)
                        if p.copy and not alts and goes_to_next_case(p, k):
                            # the last conjunct is a constant the compiler found
                            # false (``g and not 1``): its jump to the next case
                            # replaces the test, and the body is not compiled
                            return conjunction(parts + [E.const(False)]), None
                        if p.copy and p.op(resolve(w, k)) == "POP_TOP":
                            if any(not same_place(w, b, k) for _, b in alts):
                                raise NoMatch
                            if alts:
                                expr = found[0]
                                for a, _ in reversed(alts):
                                    expr = bool_op(ast.Or, a, expr)
                                found = (expr, k)
                            return found
            if not isinstance(k, int) or not guard_stack_holds(f, base):
                raise NoMatch
    except (NoMatch, DecompilationError):
        saved.restore()
        if found is None or p.copy:
            raise
        return found
    finally:
        w.guard_frame = outer
    saved.restore()
    if found is None or p.copy:
        raise NoMatch
    return found


def guard_stack_holds(f, base):
    """The values of the match statement (and of the code around it)
    are still there, untouched, below the guard's own."""
    return len(f.stack) >= len(base) and all(a is b for a, b in zip(f.stack, base))


def guard_conjunct(p, c, base):
    """When condition ``c`` (``base``: the values of the statement on
    the stack) is a conjunct of the guard, i.e. one of its ways goes to
    the next case: (the test, where it goes when it holds); else None."""
    if not guard_stack_holds(c.frame, base) or len(c.frame.stack) > len(base) + 1:
        return None
    # a target that only pops and jumps (the subject's POP_TOP before an
    # empty body's jump to the end) is a ("pop", ...) trampoline: the
    # case reads the pop itself
    if isinstance(c.true, int) and isinstance(c.false, int) and (
            c.true == c.false or resolve(p.w, c.true) == resolve(p.w, c.false)):
        # both ways go on: a test the compiler found always true once
        # its operand was tested (``x or 1``), which ``x or True`` keeps
        # (a chained comparison's false way jumps over its cleanup)
        return ast.BoolOp(op=ast.Or(), values=[c.expr, E.const(True)]), c.true
    if fails_to_next_case(p, c.false, c.frame, base):
        return c.expr, c.true[2] if isinstance(c.true, tuple) else c.true
    if fails_to_next_case(p, c.true, c.frame, base):
        return negate(c.expr), past_chain_cleanup(p, c)
    return None


def guard_alternative(p, c, base):
    """``a or ...`` at the start of a guard of a case that copied the
    subject: one way of ``a`` drops the subject (the body), the other
    goes on with the guard. (The test, the body's start, where the
    guard goes on) or None; the guard's end checks the body's start."""
    if not p.copy or len(c.frame.stack) != len(base) or not guard_stack_holds(c.frame, base):
        return None
    ways = [x[2] if isinstance(x, tuple) else x for x in (c.true, c.false)]
    if isinstance(c.false, tuple) or not all(isinstance(x, int) for x in ways):
        return None
    t, fl = ways
    if p.op(resolve(p.w, t)) == "POP_TOP" and p.op(resolve(p.w, fl)) != "POP_TOP":
        return c.expr, t, fl
    return None


def ifexp_conjunct(p, c, base):
    """``a if c else b`` as a conjunct of the guard, each branch a test
    that goes to the next case one way: the compiler copies a small
    body that ends the function (``return y``) to each branch's true
    path. (The conjunct, where it holds) or None."""
    w = p.w
    if isinstance(c.true, tuple) or isinstance(c.false, tuple):
        return None
    a = pure_condition(w, c.true, c.frame, c.blocks)
    b = pure_condition(w, c.false, c.frame, c.blocks) if a is not None else None
    if b is None:
        return None
    ta, tb = guard_conjunct(p, a, base), guard_conjunct(p, b, base)
    if ta is None or tb is None or not guard_stack_holds(a.frame, base) \
            or len(a.frame.stack) != len(base) or len(b.frame.stack) != len(base):
        return None
    if not (same_place(w, ta[1], tb[1]) or p.tail(ta[1]) is not None
            and p.tail(ta[1]) == p.tail(tb[1])):
        return None
    c.frame = a.frame
    return ast.IfExp(test=c.expr, body=ta[0], orelse=tb[0]), ta[1]


def past_chain_cleanup(p, c):
    """Where a false condition ``c`` goes on. The false path of a
    chained comparison's first link drops the operand it kept first
    (the other links jump past that ``POP_TOP``): the guard ``not (a <
    b < c)`` holds past it."""
    x = c.false
    if not is_chain(c.expr):
        return x[2] if isinstance(x, tuple) else x
    if isinstance(x, tuple):
        return x[1]
    if p.copy:
        # (with the subject below, a cleanup reached from one link only
        # is a ("pop", ...) trampoline: ``x`` is the last link's way on)
        return x
    b = p.w.cfg.at(x)
    if b is not None and b.end - b.start == 1 and p.instrs[b.start].op == "JUMP":
        return p.instrs[b.start].target  # the last link's jump over the cleanup
    if b is None or p.instrs[b.start].op != "POP_TOP" or b.end - b.start > 2:
        raise NoMatch
    if b.end - b.start == 1:
        return b.end
    if p.instrs[b.start + 1].op != "JUMP":
        raise NoMatch
    return p.instrs[b.start + 1].target


def fails_to_next_case(p, target, frame, base):
    """Whether a test's jump to ``target`` with ``frame``'s stack goes
    to the next case."""
    if isinstance(target, tuple):
        # a chained comparison's false path first drops the operand it
        # kept: ("pop", where it goes, the cleanup)
        target, depth = target[2], len(base) + 1
    else:
        depth = len(frame.stack)
    landing = p.landing
    try:
        p.fail_jump(target, depth - p.outer_depth)
    except NoMatch:
        p.landing = landing
        return False
    return True


def guard_operand(p, c, f):
    """``x if c else y`` as an operand of the guard: the walker's
    ``if`` structuring turns the diamond into a conditional expression
    on ``f``'s stack; the index where the guard's code goes on."""
    w = p.w
    f.stack[:] = c.frame.stack
    before = len(f.stack)
    k = if_(w, c, f, _anywhere, None)
    if not isinstance(k, int) or len(f.stack) != before + 1 or _live(f.stmts) \
            or not isinstance(f.stack[-1], ast.IfExp):
        raise NoMatch
    return k


def goes_to_next_case(p, i):
    """Whether the jump at ``i`` (taken once the pattern matched) goes
    straight to the next case."""
    if p.op(i) != "JUMP":
        # (3.12+ copies a next case that ends the function, like
        # ``case v: return v``, to each path that jumps to it)
        return p.landing is not None and p.tail(i) is not None and p.same_landing(p.landing, i)
    landing = p.landing
    try:
        p.fail_jump(i, p.fail_depth)
    except NoMatch:
        p.landing = landing
        return False
    return True


def body_test(p, i, body):
    """Whether the tests read as the guard of the last case (from ``i``,
    its body at ``body``) are the test of the body's first statement
    instead: an assert's own test (the line of its error tells, see
    read_rewrites.mark_asserts_on_own_line; a guard would still run under
    ``python -O``), or tests that jump past the body's start, a lone jump,
    into the code it goes to and not to the next case (``assert a and not
    b``: ``a`` false goes straight to the raise that ``not b`` false
    reaches through a jump)."""
    t = resolve(p.w, body)
    if p.op(t) == "LOAD_ASSERTION_ERROR" and p.instrs[t].arg is None:
        return True
    if p.op(body) != "JUMP" or not any(ins.target == t for ins in p.instrs[i:body]):
        return False
    landing = p.landing
    try:
        p.fail_jump(t, p.fail_depth)
    except NoMatch:
        return True
    finally:
        p.landing = landing
    return False
