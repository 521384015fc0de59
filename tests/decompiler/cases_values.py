"""Differential cases for and/or, conditional expressions and chained
comparisons that the structurer used to refuse (bench/fuzz.py, issue 11:
"short-circuit operand with statements", "conditional expression with
unbalanced branches", "stack underflow", "unrecognised comprehension body"),
each a shrunk fuzzer reproducer; versions named."""
from cases_async import ARange

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
