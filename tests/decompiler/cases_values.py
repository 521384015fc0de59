"""Differential cases for and/or, conditional expressions and chained
comparisons that the structurer used to refuse (bench/fuzz.py, issue 11:
"short-circuit operand with statements", "conditional expression with
unbalanced branches", "stack underflow", "unrecognised comprehension body"),
each a shrunk fuzzer reproducer; versions named."""
from cases_async import ARange
from cases_branches import CM

ABCL = [(a, b, c, []) for a in (0, 1, 2) for b in (0, 1, 3) for c in (0, 1, 2)]
EXC = [(a, b, c, []) for a in (0, KeyError) for b in (0, 1) for c in (0, IndexError)]


# an and/or in a conditional expression's else branch whose value is tested
# again by the same operator: the left operand's jump is threaded past that
# second test, the right operand falls into it (3.8-3.11)
def or_in_ifexp_else_retested(a, b, c, log):
    return (a if c else b or log.append(1)) or log.append(2) or log


def and_in_ifexp_else_retested(a, b, c, log):
    x = (a if c else b and log.append(1)) and log.append(2)
    return x, log


# the left operand jumps to a lone jump (the end of an enclosing conditional
# expression's branch), the right operand jumps past it to where it leads
# (3.8/3.9: a nested conditional expression; 3.10/3.11/3.13: a chained
# comparison as the right operand; 3.11: a conditional expression in it)
def and_in_ifexp_in_ifexp(a, b, c, log):
    x = (a and log.append(b) if b else c) if a or c else 0
    return x, log


def or_with_ifexp_in_ifexp(a, b, c, log):
    return (a <= 0 or (b if c else 5)) if log.append(0) or b else 0


def and_chain_in_ifexp(a, b, c, log):
    x = (log.append(1) or a and b == c < 3) if b else 0
    return x, log


# ``return c or (a if b else (v := log))``: the compiler made the conditional
# expression's first branch a ``return`` of its own; the other is a walrus
# (3.8-3.10, 3.12, 3.13)
def or_returning_ifexp_walrus(a, b, c, log):
    return c or (a if b else (v := log))


CASES = [
    (or_in_ifexp_else_retested, ABCL),
    (and_in_ifexp_else_retested, ABCL),
    (and_in_ifexp_in_ifexp, ABCL),
    (or_with_ifexp_in_ifexp, ABCL),
    (and_chain_in_ifexp, ABCL),
    (or_returning_ifexp_walrus, ABCL),
]


# a walrus as a later link of an if's test: the link was not merged into the
# test (the if was split in two: "if branches end in different places" or the
# body written twice; all versions)
def walrus_in_later_link(a, b, c, log):
    if a or (v0 := c):
        log.append(b or 1)
    return log


# a later link of an if's or while's test whose operand holds an and/or of
# its own: not merged into the test, the if was split in two and walked
# outside its region ("conditional expression with unbalanced branches",
# 3.8/3.9/3.11), the while loop written as ``while True`` with a return in it
def ifexp_value_operand_in_later_link(a, b, c, log):
    if b and (a or c) <= 1:
        pass
    elif log:
        return 2 >= (log.append(2) or len(log))
    return log


def while_test_with_value_operand(a, b, c, log):
    while b and (a or c) < 3:
        a += 1
        log.append(a)
    return log


# 3.10+ copies a small ``raise`` (and the code from the end of a conditional
# expression to it) into a conditional expression's branch that jumps there
def raise_and_ifexp(a, b, c, log):
    raise a and (ValueError if b else c)


def raise_or_ifexp(a, b, c, log):
    raise a or (c if b else ValueError)


def raise_call_of_and_ifexp(a, b, c, log):
    try:
        raise ValueError(c and (0 if b else a))
    except ValueError as e:
        return e.args


CASES += [
    (walrus_in_later_link, ABCL),
    (ifexp_value_operand_in_later_link, ABCL),
    (while_test_with_value_operand, ABCL),
    (raise_and_ifexp, EXC),
    (raise_or_ifexp, EXC),
    (raise_call_of_and_ifexp, ABCL),
]


# 3.10+ copies the code from the end of an and/or to its return into the
# right operand's path (the ``or 0`` folded away: the operand is a constant)
def or_constant_in_returned_tuple(a, b, c, log):
    return (len(a) or 5 or 0,)


# ``if x or 0`` as a comprehension's filter: the false constant made the way
# to the next item a jump of its own, read as ``if not x: continue`` (3.10)
def comp_filter_or_false_constant(a, b, c, log):
    return [q for q in a if q or 0], {q: b for q in a if b or ''}


LISTS = [([3, 1, 2, 0], b, c, []) for b in (0, 1, 2) for c in (0, 1, 2)]
CASES += [
    (or_constant_in_returned_tuple, LISTS + [([], 0, 0, [])]),
    (comp_filter_or_false_constant, LISTS),
]


# a chained comparison as the test of an if in a (async) for loop whose body
# leaves the loop: the true path jumps over the false path's cleanup to the
# ``break`` (or ``return``) that drops the iterator, which was taken for the
# code after the loop ("stack underflow" 3.8/3.9/3.11, async for 3.13; "loop
# else clause ends in an unexpected place" 3.8/3.11)
def for_break_on_chained_comparison(a, b, c, log):
    for i in a:
        log.append(i)
        if 0 <= i >= c:
            break
    return log


def for_break_after_call_on_chained_comparison(a, b, c, log):
    for i in a:
        if b <= i != c:
            log.append(i)
            break
    return log


async def async_for_return_on_chained_comparison(a, b, c, log):
    async for i in ARange(a):
        log.append(i)
        if 0 != i != c:
            return log
    return log


async def async_for_break_on_chained_comparison(a, b, c, log):
    async for i in ARange(a):
        log.append(i)
        if b <= i > c:
            break
    return log


INTS = [(a, b, c, []) for a in (0, 2, 4) for b in (0, 1, 2) for c in (0, 1, 3)]
CASES += [
    (for_break_on_chained_comparison, LISTS),
    (for_break_after_call_on_chained_comparison, LISTS),
    (async_for_return_on_chained_comparison, INTS),
    (async_for_break_on_chained_comparison, INTS),
]


# ``(a or b) and c``: the jump of ``a`` is threaded straight into ``c``, which
# then lies outside the branch of that test; an and/or inside ``c`` was
# refused (3.8-3.11)
def threaded_into_right_operand_with_its_own_or(a, b, c, log):
    x = (a or b) and (c or log.append(1)) & 0
    return x, log


# a chained comparison (or a conditional expression) as the right operand of
# an and/or: 3.10+ copies the code after the value (to its raise or return)
# into the comparison's true path
def raise_or_of_chain(a, b, c, log):
    raise KeyError(a or 2 > c < b)


def raise_or_of_ifexp_holding_chain(a, b, c, log):
    raise KeyError(len(log) + a or (0 if b else 0 <= c >= -1))


def store_and_of_chain(a, b, c, log):
    log[0] = c and 0 > c > len(log) - 1


def stored_or_of_ifexp_then_returned(a, b, c, log):
    s = 2 >= c or (1 if b else log.append(1))
    return s


ABCL0 = [(a, b, c, [0]) for a in (0, 1, 2) for b in (0, 1, 3) for c in (0, 1, 2)]
CASES += [
    (threaded_into_right_operand_with_its_own_or, ABCL),
    (raise_or_of_chain, ABCL),
    (raise_or_of_ifexp_holding_chain, ABCL),
    (store_and_of_chain, ABCL0),
    (stored_or_of_ifexp_then_returned, ABCL),
]


# a conditional expression whose test of several parts ends in a constant
# (``c or b or 2``): every jump goes to the one live branch; as the operand
# of an augmented assignment to a cell the test cannot become a statement
# before the load of the cell ("InPlace used as a value", 3.10-3.13)
def augassign_cell_ifexp_with_constant_test(a, b, c, log):
    v = a
    v ^= 1 if 5 < c or b or 2 else 0
    return (lambda p: v + p)(c)


CASES += [
    (augassign_cell_ifexp_with_constant_test, ABCL),
]


# the same in a lambda's body, where the test cannot become a statement
# ("lambda body is not one expression", all versions)
def lambda_ifexp_with_constant_test(a, b, c, log):
    f = lambda p, q=1: c if b or 3 else p
    g = lambda p, q=0: 0 if b and 0 else c + q
    return f(a), g(a)


CASES += [
    (lambda_ifexp_with_constant_test, ABCL),
]


# the branches of a conditional expression in the middle of an expression
# each end in their own copy of the exit (3.10+: no block joins them); the
# statement was written once per branch with the value computed before the
# test in both ("an expression would be evaluated more than once")
def raise_after_ifexp_with_chain_branch(a, b, c, log):
    raise KeyError(len(log) - (4 == a <= c if c else 0))


def stored_list_with_nested_ifexp(a, b, c, log):
    global STORED
    STORED = [abs(a), (a if b else len) if c else a]


CASES += [
    (raise_after_ifexp_with_chain_branch, ABCL),
    (stored_list_with_nested_ifexp, ABCL0),
]


# the same test as the else branch of a conditional expression: it starts the
# branch, with no value below it; read as ``if a: pass`` the branch had
# statements and a value ("conditional expression with unbalanced branches",
# 3.8-3.11)
async def ifexp_else_with_constant_test(a, b, c, log):
    v = 3 if b else c if a or 4 else 5
    return v if 3 >= -1 else 0


CASES += [
    (ifexp_else_with_constant_test, ABCL),
]


# both branches of a conditional expression call the same function: the
# first place where each has pushed one thing is the NULL before the callable
# (3.11+), not a value ("Null used as a value", 3.12)
def ifexp_same_call_in_both_branches(a, b, c, log):
    global STORED
    STORED = len(log) if c else len(log)


CASES += [
    (ifexp_same_call_in_both_branches, ABCL),
]


# ``(c and b) or y`` inside a conditional expression: 3.8-3.11 thread the
# jump of ``c`` (false) past the ``or``'s test straight to ``y``; the other
# branch of the conditional expression goes to that test ("conditional
# expression with unbalanced branches", 3.8-3.11)
def or_of_ifexp_with_threaded_and(a, b, c, log):
    return len(log) + ((a if b else c and b) or sum(log) + 7)


def assert_message_with_threaded_and(a, b, c, log):
    assert a, (a if b else c and b) or sum(log) + 7


CASES += [
    (or_of_ifexp_with_threaded_and, ABCL),
    (assert_message_with_threaded_and, ABCL),
]


# an assert then a raise in a finally body (the exception below them on the
# stack): two statements, not copies of one exit to merge into
# ``raise AssertionError(c) if not b else KeyError(a)`` (3.10-3.13)
def assert_then_raise_in_finally(a, b, c, log):
    try:
        log.append(a)
    finally:
        assert b, c
        raise KeyError(a)


CASES += [
    (assert_then_raise_in_finally, ABCL),
]


# an and/or as a statement whose right operand is an and/or of its own: 3.11+
# copies the statement's POP_TOP, and the jump after it, into each way out of the
# inner one, whose walk wrote the statement itself; and ``return a or b`` in a
# try body, where the value meets at the finally body's inlined copy ("short-circuit
# operand with statements", 3.11-3.13; fuzz 43:264, 43:334, 43:430)
def and_of_or_statement_in_loop(a, b, c, log):
    log = []  # (not the input's list: both runs get that one)
    for i in [a, b]:
        c and (b or log.append(i))
        if i:
            a or (c and log.append(i))
        else:
            b and (a or log.append(-i))
        log.append(9)
    try:
        return c or b, log
    finally:
        log.append(1)


CASES += [
    (and_of_or_statement_in_loop, ABCL),
]


# a conditional expression or and/or in a finally body, whose exit (a store, then
# the re-raise that ends the body's exceptional copy) 3.10+ copies into a branch;
# and ``return a or b`` under an if in a try body, whose value meets at a finally
# copy that branches ("short-circuit operand with statements", "conditional
# expression with unbalanced branches", 3.10-3.13; fuzz 43:2666, 43:2192, 43:264)
def values_meeting_at_finally_copies(a, b, c, log):
    log = []  # (not the input's list: both runs get that one)
    try:
        if a:
            return len(log) or c
        log.append(b)
    finally:
        v0 = c and (3 if b else 4)
        v1 = a != b == c
        log.append((v0, v1))


def ifexp_value_ends_finally(a, b, c, log):
    log = [b]
    try:
        log.append(a)
    finally:
        v0 = v1 = len({0 for q in log if q}) and (3 if c else 0)
    return v0, v1


CASES += [
    (values_meeting_at_finally_copies, ABCL),
    (ifexp_value_ends_finally, ABCL),
]


# ``return <value>`` inside a with statement inside a try/finally whose finally
# body holds a conditional expression: the value goes through the with's exit and
# the finally's copy (which branches) to its return ("conditional expression with
# unbalanced branches", 3.11-3.13; fuzz 43:880); and ``b and f([...])`` as an
# except clause's statement, its operand an inlined comprehension, the clause's
# cleanup and ``return None`` copied into the operand's path ("short-circuit
# operand with statements", 3.12/3.13; fuzz 43:2834)
def return_in_with_through_branching_finally(a, b, c, log):
    log = []  # (not the input's list: both runs get that one)
    try:
        with CM(log, 1):
            if a:
                return len(log), log
    finally:
        v0 = b if c else a
        log.append(v0)
    return 0, log


def and_comprehension_statement_in_except(a, b, c, log):
    G_LOG[:] = []  # (the outcome, as the function returns None; not the input's
    try:           # list: both runs get that one)
        G_LOG.append(10 // a)
    except ZeroDivisionError as e1:
        b and G_LOG.append(sum([1 for q in [a, b] if not c]))


G_LOG = []


CASES += [
    (return_in_with_through_branching_finally, ABCL),
    (and_comprehension_statement_in_except, ABCL),
]
