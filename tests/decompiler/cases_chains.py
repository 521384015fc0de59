"""Differential cases for chained comparisons and the values kept on the stack
around them (issue 11's refusals: "unrecognised chained comparison", "chained
comparison that could not be merged", "an expression would be evaluated more
than once") and for an if's test next to the assert it holds, each the shrunk
reproducer the fuzzer (bench/fuzz.py) found, on the versions named."""
from drive import sends

ABCL = [(0, 1, 2, None), (1, 1, 0, None), (2, 0, -1, None), (3, 5, 3, None), (-1, 2, 2, None)]
CASES = []


# ``return x and y`` inside a for loop: the value's way out drops the iterator
# below it (``SWAP 2; POP_TOP``) like a chained comparison drops its kept
# operand (3.12+: "unrecognised chained comparison")
def and_returned_in_for_loop(a, b, c, log):
    for i in [a, b]:
        return i and len([c])


def or_returned_in_for_loop(a, b, c, log):
    for i in [a, b]:
        return not c or -i


CASES += [
    (and_returned_in_for_loop, ABCL),
    (or_returned_in_for_loop, ABCL),
]


# a chained comparison of three links in a try whose exits are copies of the
# ``return`` after it (3.10: each link's way out ends the try's block at its
# POP_BLOCK, the copy in a block of its own; "could not be merged" on 3.10)
def chain_of_three_in_try_finally(a, b, c, log):
    try:
        if 0 >= a <= (log.append(1) or b < c) == b:
            log.append(2)
    finally:
        pass
    return log


def chain_in_while_in_try_finally(a, b, c, log):
    n = 0
    log = []
    try:
        while n < 4 and 0 <= (log.append(n) or a) <= 3:
            n += 1
    finally:
        pass
    return log, n


# a chained comparison of three links in a finally body: the exceptional copy's
# links leave through a ``POP_TOP; RERAISE`` of their own and the last link's
# plain ``RERAISE`` (3.10+: "could not be merged" when an operand has effects)
def chain_of_three_in_finally(a, b, c, log):
    log = []
    try:
        log.append(0)
    finally:
        if a != -1 <= len(log) == c:
            log.append(1)
    return log


CASES += [
    (chain_of_three_in_try_finally, ABCL + [(0, 5, 2, None), (0, 0, 2, None)]),
    (chain_in_while_in_try_finally, ABCL + [(0, 0, 0, None), (1, 0, 0, None)]),
    (chain_of_three_in_finally, ABCL + [(0, 0, 1, None), (0, 0, 2, None)]),
]


# an assert's chained comparison at the end of a generator's body (3.13 leaves
# the assert's final jump out of the exception table between two ranges of the
# StopIteration handler: the test and its jump were split)
@sends
def chain_asserted_in_generator(a, b, c, log):
    log = []
    try:
        assert b < len([log.append(a), c]) != a
    except AssertionError:
        log.append(0)
    yield log
    v = yield 1
    yield v


# a coroutine whose chained comparison's operand is a comprehension with a
# chained filter (3.13 leaves the comprehension's jump back out of its
# handler's range: the handler of the code around it looked different)
async def chain_with_comprehension_operand_in_coroutine(a, b, c, log):
    n = 0
    while n < 3:
        n += 1
        if c < b >= len({0 for q in [a, b, c] if 5 >= q < 3}) == b:
            break
    return n


CASES += [
    (chain_asserted_in_generator, ABCL),
    (chain_with_comprehension_operand_in_coroutine, ABCL + [(1, 3, 0, None), (1, 2, 0, None)]),
]


# a chained comparison followed by ``and not x``: the rest of the test, merged
# first, jumps the other way (``not (b > c) or x``) and was put together as
# ``not a <= b or ...``, which evaluates b twice (all versions)
def chain_and_not(a, b, c, log):
    log = []
    if c <= (log.append(1) or b) > c and not a:
        log.append(2)
    return log


def chain_and_not_or(a, b, c, log):
    log = []
    if a <= (log.append(1) or b) > 1 and (not c) or not b:
        log.append(2)
    return log


def ifexp_of_chain(a, b, c, log):
    log = []
    if len if 3 < (log.append(2) or a) <= b else 1:
        return log
    return c


CASES += [
    (chain_and_not, ABCL + [(1, 1, 0, None), (0, 1, 0, None)]),
    (chain_and_not_or, ABCL + [(0, 2, 0, None), (0, 2, 1, None)]),
    (ifexp_of_chain, ABCL + [(5, 6, 0, None), (5, 5, 0, None)]),
]


# a conditional expression whose else value is a walrus, the rest of the
# statement copied into both branches (3.12+: the value below it was written
# twice, "an expression would be evaluated more than once")
def ifexp_walrus_before_copied_return(a, b, c, log):
    return (len([b]) + 0, not (5 if a else (v := c)))


CASES += [
    (ifexp_walrus_before_copied_return, ABCL),
]


# ``if c:`` / ``assert x, m`` (3.12+: the if's test was merged into the assert's)
def if_around_assert_then_return(a, b, c, log):
    if a:
        assert b, '-'
    return '-'


CASES += [
    (if_around_assert_then_return, ABCL + [(0, 0, 0, None)]),
]


# the if's test is a chained comparison, whose true path jumps over its cleanup
# to the assert (3.12+: the assert's test was taken to start at that jump)
def if_chain_around_assert(a, b, c, log):
    if 0 >= (b == (c == b)) != a:
        assert b, '-'
    return 0


CASES += [
    (if_chain_around_assert, ABCL + [(1, 0, 0, None), (1, 1, 0, None), (0, 0, 0, None)]),
]


# a while test whose operand holds an and/or as a value, then an assert on a
# chained comparison (3.10+: the bottom test was not taken for a copy of the
# top one; the code after the loop, copied into the body, failed with
# "conditional expression with unbalanced branches"; fuzz 43:2057)
def while_test_or_operand_then_chain_assert(a, b, c, log):
    n = 0
    while n <= (log.append(n) or a):
        n += 1
    assert 3 != (0 > b >= c), n
    return log


def while_test_or_operand_chain_or(a, b, c, log):
    n = 0
    while n <= (log.append(n) or a) != c or n < b:
        n += 1
    else:
        assert 3 != (0 > b >= (0 if c else n)), n
    return log


def while_and_or_operand_chain(a, b, c, log):
    n = 0
    while n < 4 and (n <= (log.append(n) or a) != c or b > n):
        n += 1
    return n, log


ABCLIST = [(a, b, c, []) for a, b, c in ((0, 1, 2), (1, 1, 0), (2, 0, -1), (3, 5, 3), (-1, 2, 2), (2, -1, 3))]
CASES += [
    (while_test_or_operand_then_chain_assert, ABCLIST),
    (while_test_or_operand_chain_or, ABCLIST),
    (while_and_or_operand_chain, ABCLIST),
]


# an or whose second operand holds an inlined comprehension (3.12+: its loop
# kept the operand from joining the test, so both ways reached the body's try
# statement: "try statement structured twice", and in a match guard "stack
# underflow"; fuzz 3200:798)
def or_operand_comprehension_then_try(a, b, c, log):
    if not a or {q: 0 for q in b} != {}:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            log.append(c)
    return log


CASES += [
    (or_operand_comprehension_then_try, [(0, [], 1, []), (1, [], 2, []), (2, [1], 3, []), (0, [1], 4, [])]),
]


# ``if a < b < c: pass`` then an if on a walrus: both ways out of the chain
# reach the next test, the true one over the chain's cleanup (3.12+: the test
# was merged as ``(w) if chain else (w)``: "an expression would be evaluated
# more than once"; fuzz 3200:413)
def empty_if_chain_then_walrus(a, b, c, log):
    if b <= 0 >= c:
        pass
    if (v := a):
        return v
    return c


CASES += [
    (empty_if_chain_then_walrus, ABCLIST + [(0, -1, -2, []), (3, -1, -2, [])]),
]


# an and/or whose right operand is a conditional expression on a test that
# ends in a constant (``k or 2``: the else value is dead code): its test goes
# on the same way both ways ("short-circuit operand with statements", 3.10+;
# fuzz 43:2019)
def and_operand_conditional_constant_test(a, b, c, log):
    return b and (a if c or 2 else 0)


CASES += [
    (and_operand_conditional_constant_test, ABCLIST + [(1, 2, 0, []), (1, 0, 0, [])]),
]


# a while loop's test whose last link is a chain ending in ``is None``: >=3.11's
# bottom copy of the test jumps back with POP_JUMP_BACKWARD_IF_NONE on the kept
# operand; the chain's operand walk took that jump for an if statement's and met
# the loop's test again without end (refused: "the walk went past Python's
# recursion limit", 3.11-3.13; fuzz 43:87)
def while_test_chain_ends_in_is_none(a, b, c, log):
    log = []  # (not the input's list: both runs get that one)
    n1 = a
    while n1 <= 1 and (0 < b is None):
        n1 += 1
    while n1 < 4 and (c <= b is not None):
        n1 += 1
        log.append(n1)
    return n1, log


CASES += [
    (while_test_chain_ends_in_is_none, ABCLIST + [(0, None, 1, []), (-2, None, 0, []), (0, 1, 1, [])]),
]


# a loop whose body ends in a try/finally, the finally body holding a conditional
# expression or a chained comparison: the jump of that expression in the finally's
# exceptional copy was taken for a ``break`` out of the loop (refused: "stack
# underflow", 3.9/3.10; fuzz 43:614, 43:997)
def loop_finally_holds_expression_jumps(a, b, c, log):
    log = []  # (not the input's list: both runs get that one)
    while a < 3:
        a += 1
        try:
            log.append(a)
        finally:
            log.append(a if 1 else b)
            if 0 != c == a:
                return 0, log
    return 1, log


CASES += [
    (loop_finally_holds_expression_jumps, ABCLIST + [(0, 0, 2, []), (0, 1, 3, [])]),
]


# a chained comparison of three links (an operand with effects) and a test after
# it: the last link, merged first with that test, goes on where the chain's
# cleanup goes on into its own copy of the exit (3.10+ copies ``return None`` /
# ``raise AssertionError`` there): the same place ("chained comparison that could
# not be merged", 3.10-3.13; fuzz 43:58)
def chain_then_and_with_copied_exits(a, b, c, log):
    log = []  # (not the input's list: both runs get that one)
    if 0 < a <= log.append(c) != b and not b:
        raise ValueError(len(log))


def assert_chain_then_and(a, b, c, log):
    assert 0 < a <= (c and log.append(c)) != b and (not b), c


CASES += [
    (chain_then_and_with_copied_exits, ABCLIST + [(1, None, 2, []), (1, 0, 2, [])]),
    (assert_chain_then_and, ABCLIST + [(1, None, 0, []), (1, 0, None, []), (1, 0, 0, [])]),
]


# a while loop whose body is an if/elif, the elif's test an and of chained comparisons
# (one ending in ``is None``), and whose else clause holds a chain ending in ``is not
# None``: the 3.12/3.13 structurer walked the chain's links again and again without end
# (a hang of the fuzzer, seed 9002:158; `bench/fuzz.py` counts more than 3 s of CPU)
def while_elif_chains_ending_in_is_none(a, b, v1, v2, n1):
    log = []
    while n1:
        if v2:
            n1 = 0
        elif (n1 >= b is None or 1 < a) and 0 != v1 < -1:
            n1 = log.append(n1)
    else:
        log.append(0 != v2 is not None)
    return log


CASES += [
    (while_elif_chains_ending_in_is_none,
     [(0, 0, 0, 1, 5), (0, 0, 0, 0, 0), (2, 0, -5, 0, 3), (0, None, 0, 0, 1), (0, 0, 0, None, 0)]),
]


# a while loop's bottom test whose chained comparison's later link has an
# and/or operand (``b <= 2 > (x or c)``): its start was not found, the bottom
# test was walked as an if in the body (3.11+: "conditional expression with
# unbalanced branches", fuzz 5000:262)
def while_bottom_test_chain_link_with_or_operand(a, b, c, log):
    while a < 1 and (b <= 2 > (log.append(a) or c) or a > -2):
        a += 1
    if c < (b <= a is not None):
        log.append(c)
    return log


CASES += [
    (while_bottom_test_chain_link_with_or_operand, ABCLIST),
]


# a while loop's bottom test whose chained comparison has a ``(yield x)``
# operand: the link's block was not read as a link (its stack depth unknown),
# the bottom test was not found ("loop body leaves the loop", 3.11+; fuzz 5000:339)
@sends
def while_bottom_test_chain_with_yield_operand(a, b, c, log):
    while a and 4 > b > (yield c) <= a:
        assert b
        a -= 1
    yield a


CASES += [
    (while_bottom_test_chain_with_yield_operand, ABCLIST),
]
