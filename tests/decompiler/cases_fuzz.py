"""Differential cases found by the fuzzer (bench/fuzz.py, issue 11), each the
shrunk reproducer of a wrong output, on the versions named."""
import sys

from drive import sends

G = 0

ABC = [(0, 1, 2), (1, 1, 0), (2, 0, -1), (3, 5, 3), (-1, 2, 2)]


# a conditional expression whose branch holds a walrus: both branches leave a
# value, the else branch's was dropped (all versions; in a generator, where
# the code after it is not copied into both branches)
def ifexp_walrus_branch_in_call(a, b, c):
    x = len([(v := a) if b else 0])
    yield x
    yield v


def ifexp_walrus_branch_yielded(a, b, c):
    yield ((v := c) if c else 1)
    yield a


def ifexp_walrus_branch_returned(a, b, c):
    return (v := a) if b else 0, b


# the then value of a conditional expression was kept, the else value lost
# (3.8/3.9: a constant test after a yield; 3.10: a global in the test)
@sends
def ifexp_constant_test_after_yield(a, b, c):
    s = [(yield 0), (c if -1 or 2 else a)]
    return s


def ifexp_as_test_of_ifexp(a, b, c):
    global G
    G = a
    log = []
    log.append(0 if (G if b else 0) else 1)
    G += b or not 0
    return log, G


CASES = [
    (ifexp_walrus_branch_in_call, ABC),
    (ifexp_walrus_branch_yielded, ABC),
    (ifexp_walrus_branch_returned, ABC),
    (ifexp_constant_test_after_yield, ABC),
    (ifexp_as_test_of_ifexp, ABC),
]


# ``(x := (b := 4))`` came back as the statement ``b = x = 4`` before the whole
# expression: the stores happened before ``log | 0`` raised (all versions)
def walrus_of_walrus_after_a_raise(a, b, c):
    log = [a]
    try:
        return (log | 0) + (x := (b := 4))
    except TypeError:
        return b


def walrus_of_walrus_value(a, b, c):
    log = []
    log.append(x := (b := a + 1))
    return log, x, b


CASES += [
    (walrus_of_walrus_after_a_raise, ABC),
    (walrus_of_walrus_value, ABC),
]


# comprehensions whose filter or element the compiler reduced: a filter found
# always false leaves neither its test nor the element (an empty loop body),
# ``x or 1`` leaves only the test of ``x`` (refused on every version; 3.12+:
# "element does not match the result")
def comp_filter_always_false(a, b, c):
    s = [a, b, c]
    return ({p: b for p in s if 0}, [b for p in s if not 1], {c for p in s if 0},
            list(b for p in s if 0), [q for q in s for r in s if 0])


def comp_filter_test_only(a, b, c):
    log = []
    s = [a, b, c]
    x = [p for p in s if log.append(p) or -1]
    y = {p: b if p or 4 else 2 for p in s if b}
    z = list(0 for p in s if (b or 5))
    w = {p for p in s if p if log.append(p) or 1}
    return x, y, z, w, log


def comp_dead_element_reads_closure(a, b, c):
    s = [a, b, c]
    g = [b + p for p in s if 0]
    h = (lambda: b)
    return g, h()


CASES += [
    (comp_filter_always_false, ABC),
    (comp_filter_test_only, ABC),
    (comp_dead_element_reads_closure, ABC),
]


# a chained comparison as a value whose later operand is a comprehension
# (3.12+: inlined, "unsupported instruction LOAD_FAST_AND_CLEAR")
def chain_value_with_comprehension_operand(a, b, c):
    s = [a, b, c]
    x = 0 <= a != sum([p for p in s if p])
    y = "%s" % (1 < b <= len({q for q in s if q > a}))
    return x, y


CASES += [
    (chain_value_with_comprehension_operand, ABC),
]


# 3.12+: an except clause that falls into a small tail after the try (a
# statement, then the function's implicit return) when the try body never
# completes: the compiler lays the tail right after the clause, without a
# jump; it was written inside the clause (fuzz 43:191, "different values")
def except_as_clause_then_small_tail(a, b, c):
    x = a

    def h():
        nonlocal x
        try:
            del x
            raise ValueError(b)
        except (ValueError, NameError) as e:
            pass
        del x
    h()
    return a


# 3.12+: a conditional expression whose branch does not run straight into the
# copied rest of the statement (a chained comparison's false path has a copy
# of its own, an inlined comprehension loops): the statement was split into
# an if statement, the callable loaded before the test in each branch
def ifexp_branch_chain_before_copied_tail(a, b, c):
    return int((4 if a == b else a >= 2 >= c) - b)


def ifexp_branch_chain_in_raise(a, b, c):
    raise KeyError(0 > b == abs(c) if a else 0)


def ifexp_branch_comprehension_before_copied_tail(a, b, c):
    return len([q for q in range(a + 2)] if b else [c])


def ifexp_branch_set_comprehension_in_raise(a, b, c):
    raise KeyError({0 for p in range(b % 4) if a <= c} if len else 4)


def ifexp_both_branches_with_flow_before_copied_tail(a, b, c):
    if b:
        return int(a if c else b < a < 5)
    return str([x for x in range(a + 3)] if c else (b if a else 4))


def assert_message_ifexp_with_genexp(a, b, c):
    assert a, 0 if b else (c for p in range(a % 4))
    return a


CASES += [
    (ifexp_branch_chain_before_copied_tail, ABC),
    (ifexp_branch_chain_in_raise, ABC),
    (ifexp_branch_comprehension_before_copied_tail, ABC),
    (ifexp_branch_set_comprehension_in_raise, ABC),
    (ifexp_both_branches_with_flow_before_copied_tail, ABC),
    (assert_message_ifexp_with_genexp, ABC),
]


# ``not`` of a constant that a conditional expression with a constant test
# left behind, unfolded (3.12+: ``LOAD_CONST 4; TO_BOOL; UNARY_NOT``): the
# text's ``not 4`` folds to False, which is the same value (fuzz 43:2279)
def not_of_constant_left_by_dead_ifexp(a, b, c):
    return a + (not (b if 0 else 4)), [not (c if 0 else 0)]


CASES += [
    (not_of_constant_left_by_dead_ifexp, ABC),
]


# 3.12+ copies a small ``raise E`` after a try statement into the end of the
# try body and of the except clause (3.10: the clause falls into it when the
# body never completes): the clause's copy was written inside the clause, the
# body's as an else clause (fuzz 43:2826)
def try_except_then_copied_raise(a, b, c):
    log = []
    try:
        log.append(1 // a)
        x = b
    except ZeroDivisionError as e:
        log.append(c)
    raise KeyError


def try_raises_except_then_raise(a, b, c):
    try:
        raise ValueError(a)
    except ValueError:
        pass
    raise KeyError


CASES += [
    (try_except_then_copied_raise, ABC),
]

if sys.version_info >= (3, 11):  # (3.10 still refuses them: the clause falls into the tail there)
    CASES += [
        (except_as_clause_then_small_tail, ABC),
        (try_raises_except_then_raise, ABC),
    ]


# a walrus whose value is stored again (``b = (a := value)``) was written as
# a chained assignment, which 3.8/3.9 optimize where they leave a walrus's
# value as written (fuzz 43:782, 43:2947; 3.8, 3.9)
def walrus_value_stored_again_unoptimized(a, b, c):
    v2, = (v1 := [a for q in [0, 4]])
    w = (x := {p: b for p in [-1, c] if p in [a, b]})
    y = (z := (1 + 2, (3, 4)))
    return v1, v2, w, x, y, z


CASES += [
    (walrus_value_stored_again_unoptimized, ABC),
]


# a conditional expression in a raise/assert/call whose branch has control flow
# of its own that does not join before the exit: 3.10+ copies the rest of the
# statement into each way, and the text was an if statement with the expression
# in progress evaluated after the test (fuzz 43:540, 43:1834, 43:918; 3.10, 3.11)
def ifexp_nested_in_raise(a, b, c):
    raise ValueError(0 if c else 5 if b else 4)


def ifexp_chain_branch_in_assert_message(a, b, c):
    assert a > 5, b if c else a == b > c


def ifexp_nested_branches_in_call(a, b, c):
    log = []
    log.append((b if c else a) if a < b else c)
    log.append(a or 1 if b else c and 2)
    return log


def ifexp_comprehension_branch_in_raise(a, b, c):
    raise KeyError({p: c for p in range(a % 4)} if b else 0)


@sends
def ifexp_yield_branch_with_tail(a, b, c):
    yield (b < 3) - ((yield a) if c else b)
    raise ValueError((yield (c if a else 1)))


CASES += [
    (ifexp_nested_in_raise, ABC),
    (ifexp_chain_branch_in_assert_message, ABC),
    (ifexp_nested_branches_in_call, ABC),
    (ifexp_comprehension_branch_in_raise, ABC),
    (ifexp_yield_branch_with_tail, ABC),
]


# ``return <constant>`` ending a with body whose __exit__ may swallow an
# exception, code after the with: 3.11+ put the return right after the exit
# call, and the text returned after the with statement instead (the code after
# it, reached when an exception is swallowed, was lost; fuzz 43:2412, 43:2418,
# 43:2952 on 3.11; 3.12 and 3.13 the same)
def with_body_returns_constant_then_code(a, b, c):
    from cases_exceptions import Rec
    log = []
    try:
        with Rec(log, "a", (ZeroDivisionError,)):
            log.append(1 // a)
            return 5, log
        log.append("after")
    except Exception as e:
        log.append(type(e).__name__)
    return log


async def async_with_body_returns_then_code(a, b, c):
    from cases_async import ARec
    log = []
    async with ARec(log, "a", (ZeroDivisionError,)), ARec(log, "b"):
        log.append(1 // a)
        return
    log.append("after")
    return log


CASES += [
    (with_body_returns_constant_then_code, ABC),
    (async_with_body_returns_then_code, ABC),
]


# A tuple assignment storing one local twice: 3.13 drops the overwritten store (``STORE_FAST
# x; POP_TOP``) and the text evaluated the dropped value after the other (``x = u`` then
# ``s if b else u``: which unbound local raises first changed; fuzz 3000:260 on 3.13)
def tuple_assign_same_local_twice(a, b, c):
    log = []
    if a:
        u = 1
    try:
        x, x = (log.append(1) or u if b else c, u)
        log.append(x)
        x, y, y = (log.append(2), u if c else b, log.append(3))
        log.append((x, y))
        x, x, x = (u, log.append(4), c)
        log.append(x)
    except NameError as e:
        log.append(type(e).__name__)
    return log


CASES += [
    (tuple_assign_same_local_twice, [(0, 0, 0), (0, 1, 0), (1, 0, 1), (1, 1, 0), (0, 0, 1)]),
]


# A generator expression in a lambda whose only reference to ``b`` the compiler folded away
# (``-1 or b``): the lambda still passes ``b``'s cell on to it, the text's lambda has no ``b``
# to pass; a cell passed on only to code that never reads it is not read (fuzz 3000:1220 on
# 3.12 and 3.13)
def lambda_genexp_with_folded_reference(a, b, c):
    g = lambda p: (-1 or b for p in range((c if c else a) % 4))
    return list(g(0))


CASES += [
    (lambda_genexp_with_folded_reference, ABC),
]


# A tuple assignment whose last item is a walrus (``k, k = x, (v0 := -1)``, the targets
# stored in reverse order): the walrus was written as a chained assignment before the
# other item (``v0 = k = -1`` then ``k = x``: ``k`` ended with the wrong value; fuzz 43:334
# on 3.10, where the validator caught it)
def tuple_assign_walrus_last(a, b, c):
    log = []
    k, k = (len([log.append(1), a]), (v0 := -1))
    j, i = (log.append(2) or a, (w := b))
    return k, v0, j, i, w, log


CASES += [
    (tuple_assign_walrus_last, ABC),
]


# A with body that ends in ``break`` (or ``continue``) inside a loop: the way out calls
# ``__exit__`` and leaves the loop, while an exception ``__exit__`` swallows goes on after
# the with statement; the text put the ``break`` (or the copy of the code after the loop
# that 3.12+ puts there) after the with statement (fuzz 3000:1461 on 3.12 and 3.13)
def with_body_breaks_inside_loop(a, b, c):
    from cases_exceptions import Rec
    log = []
    n = 0
    while n < 3:
        n += 1
        with Rec(log, "a", (ZeroDivisionError,)) as v:
            log.append(1 // (a - n))
            break
        log.append("after")
    log.append(v)
    return log


def nested_with_body_continues_inside_loop(a, b, c):
    from cases_exceptions import Rec
    log = []
    for i in range(b + 2):
        with Rec(log, "b", (ZeroDivisionError,)), Rec(log, "c"):
            log.append(1 // (c - i))
            continue
        log.append(i)
    return log


def nested_with_body_breaks_inside_for(a, b, c):
    from cases_exceptions import Rec
    log = []
    for i in range(2):
        with Rec(log, "d", (ZeroDivisionError,)) as w, Rec(log, "e"):
            log.append(1 // (b - i))
            break
        log.append(i)
    return w, log


CASES += [
    (with_body_breaks_inside_loop, ABC),
    (nested_with_body_continues_inside_loop, ABC),
    (nested_with_body_breaks_inside_for, ABC),
]


# ``return x`` in the body of nested with statements inside a try whose finally body holds
# an ``if``: the inlined copy of the finally body ends in a copy of the return in each
# branch; the value was kept in a temporary set inside the inner with and returned after
# it (unbound when the inner ``__exit__`` swallows an exception; fuzz 3000:222 on 3.12
# and 3.13)
def nested_with_return_in_try_finally_with_if(a, b, c):
    from cases_exceptions import Rec
    log = []
    try:
        with Rec(log, "a"), Rec(log, "b", (ZeroDivisionError,)):
            return 1 // a, log
    finally:
        if b:
            log.append("finally")
    return log


CASES += [
    (nested_with_return_in_try_finally_with_if, ABC),
]


# A conditional expression whose test ends in a true constant (``x if a or 2 else y``: the
# compiler drops ``y`` and the jump) as an operand inside an if's test: the test ``a`` was
# made a link of its own, ``0 != n // 3 and (a or True) and (n // 3 >= ...)``, which
# evaluates the chain's middle operand twice (fuzz 3000:1387 on 3.12 and 3.13)
def chain_operand_ifexp_with_constant_test(a, b, c):
    log = []
    for n in range(4):
        if 0 != log.append(n) or n // 3 >= (5 == c if a or 2 else 0):
            log.append("if")
        if log.append(-n) < (b if c or -1 else 4):
            log.append("lt")
        if a < c < (n if b or -1 else 4):
            log.append("chain")
    return log


CASES += [
    (chain_operand_ifexp_with_constant_test, ABC),
]


# ``return x`` in the body of nested with statements inside a for loop: the way out calls
# both exits, drops the loop's iterator, returns; the value was kept in a temporary set
# inside the inner with and returned after it (unbound when the inner ``__exit__``
# swallows an exception; fuzz 3000:707 on 3.12 and 3.13)
def nested_with_return_inside_for(a, b, c):
    from cases_exceptions import Rec
    log = []
    for i in range(3):
        with Rec(log, "a"), Rec(log, "b", (ZeroDivisionError,)):
            return [*log, 1 // (a - i)]
    return log


CASES += [
    (nested_with_return_inside_for, ABC),
]


# a call that unpacks a display: written with its items in place it is another
# call (CALL_FUNCTION / CALL, not CALL_FUNCTION_EX), so the proof refused it
# (the widened fuzzer's kcall forms, seed 2001: a fifth of 3.8's functions)
def kw_and_star_of_displays(a, b, c):
    log = []

    def kcall(*args, **kw):
        log.append((args, sorted(kw.items())))
        return len(args)
    kcall(a, **{"k": b})
    kcall(**{"k": b})
    kcall(a, *[b, c], k=a)
    kcall(*(a, b))
    kcall(a, *(b, c), c)
    kcall(a, *[b], *[c], z=b, **{"m": a})
    return log, [*[a, b], c], (a, *(b, c))


CASES += [
    (kw_and_star_of_displays, ABC),
]


# a chained comparison ending in ``is None`` / ``is not None``: >=3.11 tests the
# kept operand with POP_JUMP_IF_(NOT_)NONE and no comparison, a link the chain
# merge did not take (refused: "if branches end in different places"; the
# widened fuzzer's is/in tests, seed 2007 on 3.11)
def chain_ends_in_is_none(a, b, c):
    log = []

    def h(k):
        return 1 if 0 == k is not None else k
    if a < (log.append(1) or b) is not None:
        log.append(2)
    return h(a), h(None), [a if b >= a is None else 2 for q in [c]], {0 for p in [a, b] if 0 != c is None}, log


CASES += [
    (chain_ends_in_is_none, ABC + [(None, None, 1), (0, None, None)]),
]


# a set display with a starred item built in a loop: its SET_ADD after the
# SET_UPDATE was taken for a set comprehension's element (refused: "internal
# node Element left in the decompiled tree"; fuzz 2006:468 on 3.9, all of 3.9-3.13)
def starred_set_display_in_loop(a, b, c):
    s0 = [a, b]
    out = []
    for i in range(2):
        x = {*s0, c, i}
        {*s0, c}
        out.append(sorted(x))
    return out, {p for p in s0 if p}


CASES += [
    (starred_set_display_in_loop, ABC),
]


# a ``while True`` whose body breaks both ways never loops back: the compiler
# drops the loop, and the ``break`` that ends an if is a jump to where the
# other branch goes on, the end of the if, not the start of its body (refused:
# "if branches end in different places"; fuzz 4200:284 on 3.11-3.13)
def loop_never_loops_breaks_both_ways(a, b, c):
    log = []
    if a:
        while True:
            log.append(b)
            if b > 1:
                break
            log.append(c)
            break
        x = y = 2
        log.append(x + y)
    return log


# the false way out of a chained comparison ending in ``is not None`` jumps
# to another jump, to the else clause of a loop that never loops back (its
# body ends in ``break``): both jumps lead to the branch's code (refused: "if
# branches end in different places"; fuzz 4200:892 on 3.11)
def while_chain_is_not_none_body_breaks(a, b, c):
    log = []
    n = 0
    while n < a and (c <= b is not None or 0):
        n += 1
        break
    else:
        log.append('else')
    return n, log


# a loop whose bottom test is a chained comparison, with an else clause: the
# chain's cleanup on the way out goes to the loop's normal exit, no ``break``
# (the real break goes past the else clause) (refused: "loop body leaves the
# loop"; fuzz 4200:119, all versions)
def while_else_chain_test_inner_break(a, b, c):
    log = []
    n1 = n2 = 0
    while n1 < 3:
        n1 += 1
        while 0 != b < 3 and n2 < 4:
            n2 += 1
            if n2 == a:
                break
        else:
            log.append(n1)
    return log, n1, n2


# a ``while True`` with a break and an assert of a conditional expression of
# constants: the expression jumps straight to the assert's raise, which is
# no break target (refused: "loop body leaves the loop"; fuzz 4200:576 on
# 3.11)
def while_true_break_then_assert_ifexp(a, b, c):
    n = 0
    d = [a]
    if a:
        while True:
            n += 1
            if n > b:
                break
            assert 0 if c else 1
    d[0] //= 1
    return n, d


# an ``async for`` that ends a ``while True`` body: its END_ASYNC_FOR, reached
# from the for loop's code by an exception edge, goes back to the header, so
# that code is in the loop and the ``break`` before it leaves it (refused: "if
# branches end in different places"; fuzz 4200:1358 on 3.10-3.13)
async def while_true_ends_in_async_for(a, b, c):
    from cases_async import ARange
    log = []
    n = m = 0
    while n < 3 and 0 == (log.append(n) or 0) <= c + 1:
        n += 1
        while True:
            m += 1
            if m > a:
                break
            async for i in ARange(2):
                log.append(i)
    return log, n, m


CASES += [
    (loop_never_loops_breaks_both_ways, ABC),
    (while_chain_is_not_none_body_breaks, ABC + [(1, None, 0)]),
    (while_else_chain_test_inner_break, ABC),
    (while_true_break_then_assert_ifexp, ABC),
    (while_true_ends_in_async_for, ABC),
]


# the bottom test of a 3.11+ ``while`` whose first link holds a walrus, or
# whose operand is a conditional expression: its start was not found, the
# loop came back as ``if`` + ``while True`` or was refused ("if branches end
# in different places", "loop body leaves the loop"; fuzz 4200:1387, 759, 40
# on 3.10-3.13)
def while_test_walrus_and_ifexp_operand(a, b, c):
    log = []
    n1 = 0
    s0 = [a, c]
    v2 = b
    if a is not None:
        while (n1 := (n1 + 1)) <= 2 and (a if c else v2) in s0:
            v2 -= 4
            log.append(v2)
        log.append(n1)
        d = {}
        v0 = v2 = d['k'] = b == 2 > c
        log.append((v0, v2, d))
    return log


def while_test_walrus_and_continue(a, b, c):
    log = []
    n1 = n2 = 0
    while n1 < 2:
        n1 += 1
        while (n2 := (n2 + 1)) <= 3 and b:
            if n2 == c:
                continue
            log.append([q for q in range(n2) if n1])
    return log, n2


def while_test_chain_of_chain(a, b, c):
    log = []
    for i in range(2):
        n = 0
        while n <= 2 and (a <= b not in [c]) != a > c - 3:
            n += 1
            log.append(n)
        log.append(i)
    return log


CASES += [
    (while_test_walrus_and_ifexp_operand, ABC + [(None, 1, 1)]),
    (while_test_walrus_and_continue, ABC),
    (while_test_chain_of_chain, ABC),
]


# an if whose chained-comparison test falls (through its cleanup) into a try
# statement the true path jumps to as well: that try is the body, not code
# other paths share (refused: "if branches end in different places"; fuzz
# 4200:607, 401 on 3.11-3.13)
def if_chain_test_body_is_try(a, b, c):
    log = []
    for i1 in [a, b]:
        if not b >= c in [-1, 2]:
            try:
                log.append(i1)
            finally:
                log.append(0)
        elif i1:
            log.append(1)
        log.append(2)
    return log


# ``return`` in an except clause's inner try/finally (empty finally): the way
# out clears the clause's ``as`` name before it returns (refused: "if branches
# end in different places"; fuzz 4200:919 on 3.11, 3.12)
def return_in_try_in_named_clause(a, b, c):
    try:
        1 // a
    except ZeroDivisionError as e2:
        try:
            if b <= c > 1 // b:
                return
        finally:
            pass


CASES += [
    (if_chain_test_body_is_try, ABC),
    (return_in_try_in_named_clause, ABC + [(0, 0, 2)]),
]


# a for loop whose body ends in ``break`` never loops back, with an else
# clause: the body's way out is a break to where the else clause goes on
# (refused: "loop body leaves the loop"; fuzz 4201:328 on 3.9, 3.10; 3.11
# still refuses it: known_gaps.py)
def for_never_loops_with_else(a, b, c):
    log = []
    for i2 in [a, b][c % 2:]:
        try:
            log.append(i2)
        finally:
            log.append(0)
        break
    else:
        if b:
            log.append(1)
    log.append(3)


# a walrus in a comprehension binds in the function around it: the comprehension's
# store to a free variable made that function lose its ``nonlocal`` (3.8-3.11, where
# a comprehension is a code object of its own; fuzz 43:421 on 3.11)
def comprehension_walrus_binds_nonlocal(a, b, c):
    v = a

    def h(k):
        nonlocal v
        return [(v := v + q) for q in range(k)]
    return h(c + 1), v


# 3.10+: a ``continue`` ending a ``while c:`` body jumps to the top test, the body's end
# to a copy of the test at the bottom: the written ``continue`` was dropped (fuzz 43:498)
def while_body_ends_in_continue(a, b, c):
    s0 = [a, b, c, a, b]
    n = 0
    while (n := n + 1) <= 3:
        del s0[:len(s0) - 4:-1]
        continue
    return s0, n


# a walrus in the first operand of a ``while`` test's ``and``: the bottom copy of the test
# was not seen as one (the loop became ``if t: while u: ... if t: continue``; 3.10+,
# fuzz 43:862 on 3.12)
def while_test_and_after_walrus(a, b, c):
    s0 = [a]
    n = 0
    while (n := n + 1) <= 2 and a < b:
        s0 = [*s0, n]
    return s0, n


def call_args(*args, **kw):
    return args, sorted(kw.items())


# a list display unpacked into a call's arguments before a conditional expression whose
# test is a chained comparison (or before a comprehension inlined, 3.12+): the stack shuffles
# of the later arguments (on their own operands) were taken for code changing the argument
# list, and ``*[c]`` was written ``c`` (3.9+; fuzz 43:698, 4000:13)
def starred_display_before_chained_ifexp(a, b, c):
    return (call_args(*[c], 1 if a < b < c else b, **{"k": a}), (*[a, b], c < b < a),
            call_args(*[b], len({q for q in range(a % 3 + 1) if q}), **{"k": c}))


# an and/or decided by its constant first operand inside an operation: 3.10+ drops it after
# folding the source's constants, and ``(1 or a) * 3`` was written ``1 * 3``, which the
# compiler folds (fuzz 4000:418, 4000:657, 4000:22 on 3.12)
def decided_bool_op_in_operation(a, b, c):
    out = []
    for i in range(2):
        v = (1 or a) * 3
        w = -(2 and b)
        x = 0 ^ (0 and c * 4)
        out.append((v, w, x, i))
    return out


# a ``while`` test ending in a chained comparison (whose cleanup the body's start jumps
# over) and a body ending in ``if x: continue``: the top test was not seen as the copy of
# the bottom one, and the body became a ``while True`` loop of its own (3.10+; fuzz 43:649)
def while_chain_test_body_ends_in_if_continue(a, b, c):
    log, g = [], ()
    n = 0
    while (n := n + 1) <= 3 and b != c < 4:
        g = (q for q in log[:3] if b > len(log))
        log.append(n)
        if a > n:
            continue
    return log, n, list(g)


# 3.10+: a body ending in ``if x: continue`` (to the top test; the other way goes through
# the bottom copy of the test): it was written ``if not x: pass``
def while_body_ends_in_if_continue(a, b, c):
    log = []
    n = 0
    while (n := n + 1) <= 3:
        log.append(n)
        if a > n:
            continue
    return log, n


# a generator whose only yield the compiler removed (in a branch never taken) and which
# defines a generator function: that function's yield was taken for its own, and the text
# was no generator (all versions; fuzz 43:2540)
def generator_dead_yield_defines_generator(a, b, c):
    if 5:
        def g(p):
            yield from range(p)
        c = list(g(a % 3 + 1))
    else:
        c = (yield 0)
    return c


# a ``continue`` ending a finally body at the end of a loop body swallows the exception the
# finally would re-raise: it was dropped as implied (fuzz 4000:255, 4000:535 on 3.12)
def finally_ends_in_continue(a, b, c):
    log = []
    for i in range(3):
        try:
            log.append(10 // (i - a))
        finally:
            log.append(i)
            if b:
                continue
    n = 0
    while n < 2:
        n += 1
        try:
            log.append(c // (n - 1))
        finally:
            continue
    return log


# a ``while`` body of only ``continue`` (3.10+: the test jumps back to itself): the body
# was walked from the test again, ``if not t: break`` in it (fuzz 4000:606 on 3.12)
def while_body_only_continue(a, b, c):
    log = []
    n = 0
    while (n := n + 1) <= 2:
        continue
    log.append(n)


# a walrus in a comprehension binds in the enclosing function: there the name is
# nonlocal (or global) only because that function's source declares it, yet the
# function itself never stores it (the comprehension's code does), so the
# declaration was dropped and the name became the function's own (refused by the
# proof: "different values" of the closure; fuzz 43:421 on 3.8-3.10, before 3.12
# inlined comprehensions)
G_WALRUS = 0


def walrus_in_comprehension_binds_nonlocal(a, b, c):
    v0 = a

    def h(k):
        nonlocal v0
        return [(v0 := v0 + q) for q in range(k)], {q: (v0 := q) for q in [k, b]}

    def g(k):
        global G_WALRUS
        return [[(G_WALRUS := p + q) for p in [k]] for q in [c]]
    return h(2), v0, g(b), G_WALRUS


CASES += [
    (walrus_in_comprehension_binds_nonlocal, ABC),
]


# a closure made after a join the original code alone has (3.8-3.10 keep a loop's
# unreachable else clause, which falls into the code after the loop): the cell read by
# LOAD_CLOSURE was forgotten as dead on the side already at MAKE_FUNCTION, but not on
# the side joining before its LOAD_CLOSURE (refused by the proof: "different values";
# fuzz 43:1651 on 3.8)
def closure_after_loop_with_dead_else(a, b, c):
    n1 = 0
    while True:
        n1 += 1
        if n1 > 2:
            break
    else:
        b = c
    return (lambda p: a + p)(b)


CASES += [
    (closure_after_loop_with_dead_else, ABC),
]


# a conditional expression whose test ends in a constant (its else branch dead) and
# whose value is a lambda with defaults: the value was taken to be the defaults'
# tuple, the first value the branch pushes, and MAKE_FUNCTION then found a
# conditional expression for its defaults (internal error: AttributeError: 'IfExp'
# object has no attribute 'elts'; fuzz 43:412 on 3.8-3.10)
def ifexp_constant_test_lambda_with_defaults(a, b, c):
    log = []
    log.append((lambda p, q=3: p + q) if a or 2 else 0)
    log.append((lambda p=b, *, q=c: p - q) if b or 2 else 0)
    log.append(len([(lambda p=a: p) if c and 0 else 1]))
    return [x(1) if callable(x) else x for x in log[:1]] + [log[1](), log[2]]


CASES += [
    (ifexp_constant_test_lambda_with_defaults, ABC),
]


# an async comprehension in an operand of ``and``/``or`` (<=3.10, where its steps are
# run one by one): calling its function makes a coroutine, awaited right away, and
# the text wrote that await (``len(await [...])``; refused by the proof: "different
# operations: CALL and GET_AWAITABLE"; fuzz 43:2193 on 3.8-3.10)
async def async_comprehension_in_bool_operand(a, b, c):
    from cases_async import ARange
    log = []
    if a and len([p async for p in ARange(3) if p != b]) <= 4:
        log.append(1)
    x = b or sum({p: 0 async for p in ARange(c + 1)})
    assert a < 3 or [p async for p in ARange(2)], a
    return log, x


CASES += [
    (async_comprehension_in_bool_operand, ABC),
]


# a generator whose only yield the compiler dropped (a branch a constant test never
# takes), next to a nested generator: the nested function's yield was taken for its
# own, the ``if False: yield`` that keeps the function a generator was left out, and the
# text made a plain function (refused by the proof: "co_flags differ"; fuzz 43:2540 on
# 3.8-3.10)
def generator_dead_yield_beside_nested_generator(a, b, c):
    def g1(p):
        yield from [p, a]
    if 5:
        return list(g1(b)), (lambda p=(x for x in [c]): list(p))()
    else:
        yield 0


CASES += [
    (generator_dead_yield_beside_nested_generator, ABC),
]


# a call unpacking list displays where a later one holds a chained comparison (or
# another jump, a walrus): its DUP_TOP/ROT_THREE were taken for code reaching into the
# list being built (as Dynamo's does), so the first display was written with its
# items in place, built another way (refused by the proof: "different operations:
# LIST_EXTEND and LOAD_GLOBAL"; fuzz 43:333 on 3.9, 3.10)
def unpacked_displays_with_chain_in_later_one(a, b, c):
    log = []

    def kcall(*args, **kw):
        log.append((args, sorted(kw.items())))
        return len(args)
    kcall(*[b and a], *[len(log), 1 < a >= 0], **{"k": c})
    kcall(*[a], *[b, (x := a + 1) and c], *[x])
    kcall(*[a], *[b, kcall(*[a], *[c < b <= a])], c)
    return log


CASES += [
    (for_never_loops_with_else, ABC),
    (comprehension_walrus_binds_nonlocal, ABC),
    (while_body_ends_in_continue, ABC),
    (while_test_and_after_walrus, ABC),
    (starred_display_before_chained_ifexp, ABC),
    (decided_bool_op_in_operation, ABC),
    (while_chain_test_body_ends_in_if_continue, ABC),
    (while_body_ends_in_if_continue, ABC),
    (generator_dead_yield_defines_generator, ABC),
    (finally_ends_in_continue, ABC),
    (while_body_only_continue, ABC),


    (unpacked_displays_with_chain_in_later_one, ABC),
]


# a ``continue`` written as the last statement of a while loop's body (or of its last
# statement's branch): 3.10+ repeats the loop's test at the bottom, where the body's
# end goes, while ``continue`` goes to the test at the top; the ``continue`` was
# dropped as implied, and the loop compiled rotated (refused by the proof: "different
# operations"; fuzz 43:1722 on 3.10, also 3.11-3.13)
def while_body_ends_in_written_continue(a, b, c):
    log = []
    n1 = 0
    while (n1 := n1 + 1) <= 3:
        log.append(n1)
        continue
    n2 = 0
    while n2 < 4:
        n2 += 1
        if n2 == b:
            log.append(-n2)
        else:
            continue
    return log


CASES += [
    (while_body_ends_in_written_continue, ABC),
]


# ``if b: continue`` at the end of a try body: 3.12+ threads the ``continue`` into
# the test's jump, so the test falls past the try's protected range when false; it was
# written ``if not b:`` around the code after the try statement, moving that code
# into the try (refused by the proof; fuzz 5100:940 on 3.12, 3.13)
def try_body_ends_in_if_continue(a, b, c):
    log = []
    for i in range(3):
        try:
            if i == b:
                continue
        except ValueError:
            raise KeyError
        log.append(i)
    n = 0
    while n < 3:
        n += 1
        try:
            if n == c:
                continue
        finally:
            log.append(-n)
        log.append(n)
    return log


def generator_try_body_ends_in_if_continue(a, b, c):
    for i in range(3):
        try:
            if i == b:
                continue
        except:
            raise KeyError
        yield i


CASES += [
    (try_body_ends_in_if_continue, ABC),
    (generator_try_body_ends_in_if_continue, ABC),
]


# a loop whose body always ends in a ``break`` from a finally body has no jump back
# to its start: ``while n < 4:`` compiles as an ``if``; only the exceptional copy of the
# finally body shows the ``break`` (it drops the exception and jumps out). It was
# dropped (3.12, 3.13: the proof refused the text) or refused ("finally body's inlined
# copy not found", 3.11); written ``while True:`` around the try statement
def loop_body_breaks_from_finally(a, b, c):
    log = []
    n = a
    while n < 4:
        n += 1
        try:
            log.append(10 // (b - 1))
        finally:
            log.append(n)
            break
    for i in range(3):
        log.append(i)
        while i < c:
            try:
                if i == b:
                    raise ValueError
                log.append(-i)
            finally:
                if i == a:
                    return log
                break
    return log


# a loop with a ``continue`` whose last statement is a try statement whose finally
# body breaks: 3.11's inlined copy of the finally body ends in its own jump out, which
# was not matched with the exceptional copy's ("finally body's inlined copy not found")
def loop_finally_breaks_after_continue(a, b, c):
    log = []
    n = 0
    while n < 4:
        n += 1
        if n == a:
            continue
        try:
            log.append(10 // (b - n))
        finally:
            log.append(n)
            break
    return log, n


# ``if c: return x`` at the end of a try body and ``return y`` after the try
# statement: 3.12+ leaves the RETURN_VALUE and the code after the try outside the
# protected range, and they were merged into ``return x if c else y`` inside the try
# (the proof refused it; fuzz 5100:864 on 3.12, 3.13)
def try_ends_in_if_return_before_return(a, b, c):
    try:
        if a:
            return b.bit_length()
    except AttributeError:
        pass
    return c.bit_length()


CASES += [
    (loop_body_breaks_from_finally, ABC),
    (loop_finally_breaks_after_continue, ABC),
    (try_ends_in_if_return_before_return, ABC + [(1, "x", 2), (0, 1, "y")]),
]


# ``if c: while True: ... break`` / ``else: B`` in a finally body: the loop's ``break``
# jumps to the body's end, whose re-raise 3.10+ copies there; the if's branch never
# completes but for that re-raise, so ``B`` was taken for the code after the if and the
# re-raise stayed ("finally body re-raises where no branch ends"; fuzz 5100:279 on
# 3.10, 3.12, 3.13)
def finally_if_endless_loop_breaks_else(a, b, c):
    log = []
    n = 0
    try:
        log.append(10 // (b + 1))
    finally:
        if a:
            while True:
                n += 1
                if n > c:
                    break
        else:
            log.append(-1)
    return log, n


CASES += [
    (finally_if_endless_loop_breaks_else, ABC),
]


# ``return x`` in a try whose finally body ends in an if holding a comprehension:
# 3.12+ inlines the comprehension and lays its cleanup out past the inlined copy on the
# return's path, which completes into a RETURN_VALUE in each branch; the copies were
# not matched and the finally body ran twice in the text (the proof refused it; fuzz
# 5100:850 on 3.12, 3.13)
def return_through_finally_if_comprehension(a, b, c):
    log = []
    try:
        return log, [a, b][c % 3]
    finally:
        b = -b
        if c:
            log.append({p: b for p in range(c % 4)})


CASES += [
    (return_through_finally_if_comprehension, ABC),
]


# a conditional expression statement in a try whose finally raises (3.8-3.10): the else
# arm ends in the finally's copy and its raise, so the then arm's jump over it looked
# like an if body jumping over an else that raises; its arms meet past the else with a
# value (fuzz 43:800, 43:897, 43:1412 on 3.10, refused after equal10's jumped_over_else)
def ifexp_statement_in_try_finally_that_raises(a, b, c):
    log = []
    try:
        try:
            log.append(b) if a else log.append(c)
        finally:
            raise ValueError(len(log))
    except ValueError as e:
        return log, e.args


CASES += [
    (ifexp_statement_in_try_finally_that_raises, ABC),
]
