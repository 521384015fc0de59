"""Differential cases for control-flow shapes the structurer used to refuse
(bench/fuzz.py, issue 11): branches that end in return/raise on one side,
finally bodies that never complete, with blocks whose body raises."""
import asyncio


class CM:
    """Records enter/exit into ``log``; suppresses every exception when
    ``suppress``."""

    def __init__(self, log, tag, suppress=False):
        self.log, self.tag, self.suppress = log, tag, suppress

    def __enter__(self):
        self.log.append(("enter", self.tag))
        return self.tag

    def __exit__(self, t, v, tb):
        self.log.append(("exit", self.tag, t.__name__ if t else None))
        return self.suppress


# 3.11+: the else branch's ``return`` after an empty finally lies outside the
# try's protected range (the then branch jumps to the finally's inlined copy)
def else_returns_in_try_finally(a, log):
    try:
        if a:
            pass
        else:
            log.append(1)
            return
    finally:
        pass
    log.append(2)
    return log


def else_returns_in_try_finally_with_body(a, log):
    try:
        if a:
            log.append(0)
        else:
            log.append(1)
            return 7
    finally:
        log.append(3)
    log.append(2)
    return log


# 3.11+: a finally body that always raises: its inlined copy never completes
def finally_always_raises(a, log):
    try:
        log.append(1)
        if a:
            raise ValueError
    finally:
        raise KeyError


def finally_always_raises_after_except(a, log):
    try:
        log.append(1)
        if a:
            raise ValueError
    except ValueError:
        log.append(2)
    finally:
        raise KeyError(len(log))


# every exit of the try body (fall, break, continue, return) runs a copy of a
# finally body that never completes: the copies are one place (3.9+)
def return_value_into_raising_finally(a, log):
    try:
        if a:
            return log.append(a)
        log.append(0)
    finally:
        raise KeyError(len(log))


def break_into_finally_that_raises_or_returns(a, log):
    for i in range(3):
        try:
            if i == a:
                break
            log.append(i)
        finally:
            if a > 1:
                raise KeyError(i)
            return log


def continue_into_finally_that_returns(a, log):
    for i in range(3):
        try:
            if i == a:
                continue
            log.append(i)
        finally:
            return i


def finally_raises_or_returns(a, log):
    try:
        log.append(a)
    finally:
        if a:
            raise ValueError
        else:
            return 3


# 3.11+: a with block whose body raises, inside an if: the code after the
# with (reached when __exit__ suppresses) starts mid-block
def with_raises_in_if_then_elif(a, b, log):
    if b:
        with CM(log, 1, suppress=a > 1):
            raise KeyError
        log.append(5)
    elif 2 >= a:
        pass
    return log


class ACM(CM):
    async def __aenter__(self):
        await asyncio.sleep(0)
        return self.__enter__()

    async def __aexit__(self, t, v, tb):
        await asyncio.sleep(0)
        return self.__exit__(t, v, tb)


# 3.11+: ``return <value>`` in an async with: the value is returned after the
# awaited exit call, outside the with body's range
async def async_with_if_returns_value(a, log):
    async with ACM(log, 1) as v:
        if a:
            return [3, v]
    log.append(2)


# 3.11+: return/break/continue inside nested with statements: the outer
# exits are called outside the inner body's range, in the branch
def nested_with_if_returns(a, log):
    with CM(log, 1):
        with CM(log, 2) as v:
            if a:
                return v
            log.append(3)
        log.append(4)
    return log


def nested_with_if_breaks(a, log):
    n = 0
    while n < 4:
        n += 1
        with CM(log, 1) as v1, CM(log, 2):
            if a == n:
                break
            log.append(n)
    return log


def nested_with_if_continues(a, log):
    for i in range(3):
        with CM(log, 1):
            with CM(log, 2):
                if i == a:
                    continue
                log.append(i)
        log.append(-i)
    return log


async def async_nested_with_if_returns(a, log):
    with CM(log, 1):
        async with ACM(log, 2):
            if a:
                return
            log.append(3)
    log.append(4)


# a try/except/else whose body returns in a branch, under a finally that
# raises: the ``return`` stays (it is no tail of the function: the else
# clause follows the body)
def try_except_else_with_raising_finally(a, log):
    try:
        if a:
            return
    except TypeError:
        return
    else:
        log.append(1)
    finally:
        raise KeyError(len(log))


# 3.11+: ``return`` in an except clause inside nested with statements: the
# exits are called on the way out, outside the inner with's range
def with_try_except_returns_else(a, log):
    with CM(log, 1), CM(log, 2):
        try:
            if a:
                log.append(0)
            if a > 1:
                raise ValueError
        except ValueError as e1:
            return 0
        else:
            log.append(1)
    return log


# 3.11+: ``return`` in an inner except clause, through the inner finally's
# copy and the outer clause's clearing of its ``as`` name
def inner_except_returns_through_finally(a, log):
    try:
        log.append(0)
        if a:
            raise KeyError
    except Exception as e1:
        try:
            log.append(len(log) // (a - 1))
        except ZeroDivisionError as e2:
            return a
        finally:
            log.append(1)
    return log


# 3.12+: a comprehension inlined in a finally body: its own cleanup's
# re-raise is part of every copy; an async for in a finally body ends where
# StopAsyncIteration is caught, and its throw cleanup is laid out elsewhere
def comprehension_in_finally(a, log):
    try:
        log.append(1)
        if a > 1:
            raise ValueError
    finally:
        log.append(0)
        s0 = {p * 2 for p in range(a)}
    return s0


class ARange:
    def __init__(self, n):
        self.i, self.n = 0, n

    def __aiter__(self):
        return self

    async def __anext__(self):
        await asyncio.sleep(0)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i


async def async_for_in_finally(a, log):
    try:
        log.append(0)
        if a > 1:
            raise ValueError
    finally:
        async for i in ARange(a):
            log.append(i)
    return log


# ``y or <true constant>`` / ``y and <false constant>`` as a link of a test:
# the compiler folds the constant into a jump, so both ways out of ``y``'s
# test go to one place
def while_test_or_true_constant(a, log):
    n = 0
    while n < 3 and (log.append(n) or 4):
        n += 1
        if n == a:
            break
    return n, log


def if_test_and_false_constant(a, log):
    if a > 1 or (log.append(3) and 0):
        log.append(1)
    else:
        log.append(2)
    return log


def if_test_or_true_constant_or(a, log):
    if a >= 1 and (log.append(a) or 1) or a < -5:
        log.append(1)
        if a:
            pass
    else:
        log.append(2)
    return log


# 3.11+: a try/finally inside a finally body (bz2.BZ2File.close): in the
# handler's copy the inner finally's copy jumps to the outer re-raise, past
# the inner handler; the inlined copy goes on to the code after the statement
class Box:
    pass


def nested_finally_in_finally(a, log):
    box = Box()
    box.mode, box.closefp = a, a > 1
    try:
        if box.mode == 1:
            log.append(1)
        elif box.mode == 2:
            log.append(2)
            box.closefp = None
    finally:
        try:
            if box.closefp:
                log.append(3)
        finally:
            box.fp = None
            box.mode = 0
    return log


# 3.12+: the blocks only exceptions reach (a comprehension's or a with's
# cleanup) are moved past the end of the finally body's inlined copy, but stay
# in place in its exceptional copy (bench/fuzz.py 1400:52, 1400:185)
def comprehension_in_finally_at_end(a, log):
    try:
        log.append(1)
        if a > 1:
            raise ValueError
    finally:
        log.append({p: 2 for p in range(a) if p != len(log)})


def with_in_finally(a, log):
    try:
        log.append(1)
        if a > 1:
            raise ValueError
    finally:
        with CM(log, a, suppress=a == 1) as v:
            if a:
                raise KeyError
        log.append(v)


# 3.10, 3.12+: the exceptional copy repeats a chained comparison's tail in each
# branch; the inlined copy shares it (bench/fuzz.py 1400:128)
def chained_comparison_in_finally_in_loop(a, log):
    for i in range(3):
        try:
            log.append(i)
            if a > 1:
                raise ValueError
        finally:
            log.append(i == a <= len(log))
    return log


# 3.10: the inlined copy repeats the ``return`` after a chained comparison in
# each of its branches; the handler's copy shares one (bench/fuzz.py 1400:52)
def chained_comparison_returned_in_finally(a, log):
    try:
        log.append(a)
    finally:
        if a:
            return 0 < len(log) > a - 1
    log.append(5)
    return log


# 3.10: both ways past a chained comparison in the finally body jump to the
# code after the statement (bench/fuzz.py 1400:942)
def chained_comparison_test_in_finally(a, log):
    try:
        log.append(a)
    finally:
        if 0 < a <= 1:
            return 0
    if log:
        log.append(3)
    return log


# 3.11+: a ``continue`` in the finally body: in the inlined copy its test
# jumps straight back to the loop (the opposite test of the exceptional
# copy's, which drops the exception first)
def continue_in_finally(a, log):
    for i in range(3):
        try:
            log.append(i)
            if a == 2 and i == 1:
                raise ValueError
        finally:
            if a == i:
                continue
            log.append(0)
        log.append(9)
    return log


# 3.12+: the finally body's inlined copy starts inside the try statement it
# holds, under that statement's handler (bench/fuzz.py 1400:1541)
def returning_try_in_finally_after_comprehension(a, log):
    try:
        log.append({p for p in range(a)})
    finally:
        try:
            log.append(1)
        finally:
            return log


ARGS_AL = [(0, []), (1, []), (2, [])]

# 3.11+: ``return <value>`` computed inside nested with statements: the
# outer exits are called outside the bodies' ranges; when the inner exit
# swallows an exception from computing the value, the function goes on after
# the outer with (bench/fuzz.py 5000:798)
def nested_with_returns_value(a):
    log = []
    with CM(log, 1), CM(log, 2, suppress=a > 1):
        return log.append(1 // (a - 2)) or log


def nested_with_three_returns_value(a):
    log = []
    with CM(log, 1):
        with CM(log, 2, suppress=a > 2):
            with CM(log, 3, suppress=a == 2):
                return 10 // (a - 2) + (a - 3) // (a - 3)
        log.append(4)
    return log


CASES = [
    (else_returns_in_try_finally, ARGS_AL),
    (else_returns_in_try_finally_with_body, ARGS_AL),
    (finally_always_raises, ARGS_AL),
    (finally_always_raises_after_except, ARGS_AL),
    (return_value_into_raising_finally, ARGS_AL),
    (break_into_finally_that_raises_or_returns, ARGS_AL),
    (continue_into_finally_that_returns, ARGS_AL),
    (finally_raises_or_returns, ARGS_AL),
    (async_with_if_returns_value, ARGS_AL),
    (nested_with_if_returns, ARGS_AL),
    (nested_with_if_breaks, ARGS_AL),
    (nested_with_if_continues, ARGS_AL),
    (async_nested_with_if_returns, ARGS_AL),
    (try_except_else_with_raising_finally, ARGS_AL),
    (with_try_except_returns_else, ARGS_AL),
    (inner_except_returns_through_finally, ARGS_AL),
    (comprehension_in_finally, ARGS_AL),
    (async_for_in_finally, ARGS_AL),
    (while_test_or_true_constant, ARGS_AL),
    (if_test_and_false_constant, ARGS_AL),
    (if_test_or_true_constant_or, ARGS_AL),
    (nested_finally_in_finally, ARGS_AL),
    (comprehension_in_finally_at_end, ARGS_AL),
    (with_in_finally, ARGS_AL),
    (chained_comparison_in_finally_in_loop, ARGS_AL),
    (chained_comparison_returned_in_finally, ARGS_AL),
    (chained_comparison_test_in_finally, ARGS_AL),
    (continue_in_finally, ARGS_AL),
    (returning_try_in_finally_after_comprehension, ARGS_AL),
    (with_raises_in_if_then_elif, [(0, 0, []), (0, 1, []), (2, 1, []), (3, 0, [])]),
    (nested_with_returns_value, [(0,), (1,), (2,), (3,)]),
    (nested_with_three_returns_value, [(0,), (2,), (3,), (4,)]),
]


# a test joined by and/or to one whose operand holds an and/or computed as a
# value (<=3.11: JUMP_IF_TRUE_OR_POP), also as a chained comparison's middle
# operand (3.8, 3.9, 3.11: "if branches end in different places")
def or_test_with_or_value_in_chain(a, b, k, log):
    x = 0 if a or 3 <= (log.append(2) or b) >= k else k
    if b or 3 < (log.append(3) or a) > k:
        log.append(4)
    else:
        log.append(5)
    return x, log


def and_test_with_or_value_operand(a, b, k, log):
    if a and (log.append(1) or b) > k:
        log.append(2)
    raise ValueError(0 if b or 2 <= (a and log.append(3) or k) < 3 else k)


# a conditional expression as an if's test, its own test a chained
# comparison whose true path jumps over the cleanup (all versions)
def ifexp_test_with_chained_test(a, b, k, log):
    if (a if k == 4 >= b else b):
        log.append(1)
    if (log.append(2) or a) if 0 < b <= k else k:
        log.append(3)
    elif b != (log.append(4) or k):
        log.append(5)
    return log


# ``return`` in an except clause inside a with statement (3.11+: the return
# value is swapped below the with's exit after the clause's POP_EXCEPT)
def return_in_except_clause_in_with(a, b, k, log):
    with CM(log, "w"):
        try:
            log.append(1 // k)
        except ZeroDivisionError:
            if a:
                return b
            log.append(2)
    return log


ARGS_ABKL = [(a, b, k, []) for a in (0, 1, 3) for b in (0, 2, 5) for k in (0, 4)]

CASES += [
    (or_test_with_or_value_in_chain, ARGS_ABKL),
    (and_test_with_or_value_operand, ARGS_ABKL),
    (ifexp_test_with_chained_test, ARGS_ABKL),
    (return_in_except_clause_in_with, ARGS_ABKL),
]


# a walrus as a later operand of a test joined by and/or: its assignment is
# the walrus only once the test uses the value (all versions: the tests were
# split into nested ifs, an elif after it refused)
def walrus_operand_joined_test(a, b, k, log):
    if b < k and (a := 3):
        log.append(a)
    elif 1 < -1 <= a:
        return a
    if a or 1 < (x := (b or k)) < 4:
        log.append(x if not a else -1)
    while a and (y := b):
        a -= 1
        log.append(y)
    return log


# a conditional expression as the first operand of an or: one of its values'
# tests jumps over the other's to the next operand (all versions: the if's
# body was written twice, or refused)
def ifexp_or_test(a, b, k, log):
    if (b if k else a) or a in log:
        if a:
            log.append(k - (b < (log.append(1) or a)))
    else:
        log.append(2)
    return log


# a while loop's test holding a chained comparison joined by or, inside a
# with (3.11+: the loop's bottom test was not found past the comparison's
# cleanup: "if branches leave different values")
def while_chain_or_test_in_with(a, b, k, log):
    with CM(log, "w"):
        while a < 2 and (3 >= b == k < 7 or b in log):
            a += 1
            log.append(a)
    while a < 4 and (0 != b < a or k in log):
        a += 1
    return log


# ``return x`` in an if's else branch inside a try, its RETURN_VALUE past the
# try's range (3.11+: "if branches end in different places")
def return_in_else_inside_try(a, b, k, log):
    try:
        if 2 < 1:
            pass
        else:
            log.append(2)
            if k:
                return log
    finally:
        pass

CASES += [
    (walrus_operand_joined_test, ARGS_ABKL),
    (ifexp_or_test, ARGS_ABKL),
    (while_chain_or_test_in_with, ARGS_ABKL),
    (return_in_else_inside_try, ARGS_ABKL),
]


# a conditional expression with a constant arm as an if's test: its jump over
# the folded arm goes to the inlined copy of the finally body on the way to
# the ``return`` (3.11: "if branches end in different places"; 3.9: the jump
# over nothing was taken for ``if x: pass``)
def ifexp_constant_arm_test_returns_in_try(a, b, k, log):
    try:
        if a if b else 1:
            return "x"
        log.append(k)
    finally:
        log.append(2)
    return log


# the same jump straight into the finally's copy: a chained comparison's true
# way (3.11)
def chain_test_returns_in_try(a, b, k, log):
    try:
        if a != b <= 3:
            return 1
        log.append(k)
    finally:
        log.append(2)
    return log


# an arm that is a conditional expression of constants tests its condition
# both ways to one place, where the other arm goes when true
# (3.8, 3.9, 3.11: "if branches end in different places")
def ifexp_with_constant_ifexp_arm_test(a, b, k, log):
    if a:
        if b if k else 5 if a > 1 else 4:
            return 0
        log.append(1)
    if (0 if k else "") if b else a:
        log.append(2)
    return log


CASES += [
    (ifexp_constant_arm_test_returns_in_try, ARGS_ABKL),
    (chain_test_returns_in_try, ARGS_ABKL),
    (ifexp_with_constant_ifexp_arm_test, ARGS_ABKL),
]


# an and/or link whose operand begins with a conditional expression used as a
# value (``b or (x if c else y) != k``): the operand is walked up to its own
# test (every version: "if branches end in different places")
def or_operand_starts_with_ifexp(a, b, k, log):
    if a > 2:
        log.append(0)
    elif b or (1 if k else a) != k:
        log.append(1)
    try:
        if a < 1 or (k if k else a) == 4 >= b:
            raise ValueError(a)
    finally:
        log.append(2)
    if not (b and (a if k else b) + 1 > 2):
        log.append(3)
    return log


CASES += [
    (or_operand_starts_with_ifexp, ARGS_ABKL),
]


# a conditional expression whose test ends in a folded constant
# (``x if b or 0 else 1``): <=3.10 jumps to the else arm with a lone jump,
# which is no ``if b: pass`` (3.10: "if branches leave different values")
def ifexp_test_or_constant_value(a, b, k, log):
    x = 0 == (k if b or 0 else 1) != a
    try:
        del log[a]
    except IndexError:
        if (k if a or 0 else 0) > a:
            return x, log
    return x, (b if a and 1 else k)


CASES += [
    (ifexp_test_or_constant_value, ARGS_ABKL),
]


# the if is the try body's last statement: its other way falls into the
# finally's copy on the normal exit (3.11: "if branches end in different
# places"; 3.12, 3.13: the code after the try was moved into the if)
def chain_test_returns_last_in_try(a, b, k, log):
    try:
        if 5 != len(log) < b:
            return
    finally:
        log.append(1)
    log.append(k)
    return log


# a ``return`` in nested with statements whose test is a chained
# comparison: its false way drops the kept operand and goes into the exit
# calls the true way jumps to (3.11-3.13: "if branches end in different places")
def chain_test_returns_in_nested_with(a, b, k, log):
    with CM(log, 1), CM(log, 2, True):
        if not b < a >= k:
            return
    log.append(3)
    return log


# ``elif f(x): continue`` ending a try body: the test's jump lies outside the
# protected range (3.11: "if branches end in different places")
def elif_continue_ends_try_body(a, b, k, log):
    while a < 3:
        a += 1
        try:
            if b > 2:
                log.append(1)
            elif len(log) < k:
                continue
        finally:
            pass
        log.append(a)
    return log


CASES += [
    (chain_test_returns_last_in_try, ARGS_ABKL),
    (chain_test_returns_in_nested_with, ARGS_ABKL),
    (elif_continue_ends_try_body, ARGS_ABKL),
]


# 3.11+: a bare ``return`` in nested with statements: the exits are called,
# then the function returns; an exception the outer exit swallows goes on
# after the with statement. The ``return`` was dropped, and with it the code
# after the statement (fuzz 43:595)
def nested_with_bare_return(a, b, k, log):
    with CM(log, 1, suppress=a > 0), CM(log, 2):
        log.append(1 // b)
        return
    log.append(3)
    raise ValueError(len(log))


CASES += [
    (nested_with_bare_return, ARGS_ABKL),
]


# 3.11+: ``return <constant>`` in an if that ends a with body: the exit is
# called, then the constant returned, as on the with's normal way out, where
# the function's own ``return None`` follows; the two were swapped, the if's
# test negated (fuzz 43:408)
def with_if_returns_constant_at_end(a, b, k, log):
    with CM(log, 1, suppress=b > 2) as v:
        if not a < 1 <= k:
            return 'x'


CASES += [
    (with_if_returns_constant_at_end, ARGS_ABKL),
]


# a while test whose first operand holds a generator expression (its
# argument's GET_ITER): 3.10+ tests it again at the loop's bottom, where the
# whole test was not recognised ("if branches end in different places" on
# 3.12+, an inner loop that copied the test and the code after it on 3.10+;
# fuzz 3100:476)
def while_test_with_genexp_operand(a, b, k, log):
    seen = []
    n = 0
    while sum(x for x in seen) < 9 and n < b:
        n += 1
        seen.append(a)
        if k:
            continue
        seen.append(n)
    return seen if a else n


CASES += [
    (while_test_with_genexp_operand, ARGS_ABKL),
]


# 3.11+: a bare ``return`` in the try body's else branch runs its own inlined
# copy of the finally body, then returns None, as the function's end does
# after the copy on the normal way out: two copies, one place ("if branches
# end in different places"; fuzz 3100:1384)
def else_returns_none_through_finally_copy(a, b, k, log):
    seen = []
    try:
        if b > 2:
            seen.append(1)
        else:
            seen.append(2)
            assert a, 7
            return
    finally:
        if k:
            seen.append(3)
            if seen == [2, 3]:
                raise KeyError(a)


# ... and with code after the try statement: the else branch's copy runs
# into its own ``return``, which is the branch's (3.11+)
def else_returns_through_finally_copy_code_after(a, b, k, log):
    seen = []
    try:
        if b > 2:
            seen.append(1)
        else:
            seen.append(2)
            assert a, 7
            return
    finally:
        if k:
            seen.append(3)
    seen.append(4)
    return seen


# 3.11+: ``return <value>`` in an except clause with a name, inside a
# try/finally whose body is empty: the RETURN_VALUE right after the name's
# cleanup lies outside the handler's range (fuzz 3100:169, 3100:322)
def except_as_returns_value_in_try_finally(a, b, k, log):
    try:
        try:
            log.append(10 // k)
        except ZeroDivisionError as e:
            if a:
                return a * 10 + b
            if b > 2:
                raise
    finally:
        pass
    return log


# 3.12+: a conditional expression tested by an if whose arm is an inlined
# comprehension (its loop's blocks lie between the arm's start and its test;
# fuzz 3100:333, 3100:426)
def ifexp_test_with_comprehension_arm(a, b, k, log):
    if a if k else [x for x in (1, 2, 5) if x > b]:
        log.append(1)
        return 1
    else:
        log.append(2)
    return 2


# 3.13: the try body's last jump, to the finally's inlined copy, lies outside
# the except clause's range in a block of its own (fuzz 3100:1181)
def try_body_if_deletes_before_finally(a, b, k, log):
    v = k
    seen = []
    try:
        if a:
            del v
        else:
            seen.append(10 // b)
    except ZeroDivisionError:
        seen.append(0)
    finally:
        seen.append(3)
    return seen


CASES += [
    (else_returns_none_through_finally_copy, ARGS_ABKL),
    (else_returns_through_finally_copy_code_after, ARGS_ABKL),
    (except_as_returns_value_in_try_finally, ARGS_ABKL),
    (ifexp_test_with_comprehension_arm, ARGS_ABKL),
    (try_body_if_deletes_before_finally, ARGS_ABKL),
]


# <=3.10: a conditional expression tested whose arm is a true constant: the
# compiler folds the arm into a lone jump to the body, which the other arm's
# test falls into (fuzz 3100:190, 3100:726)
def ifexp_test_with_true_constant_arm(a, b, k, log):
    seen = []
    try:
        seen.append(1)
    finally:
        if (1 if a else b > 2):
            seen.append(2)
    for x in (k, a):
        if (b if x else 1):
            seen.append(x)
    return seen


# <=3.9: a while loop that never loops back (its body ends in ``return``):
# the ``break`` is a jump to the function's ``return None``, which the other
# branches do not reach (fuzz 3100:945)
def while_never_loops_break_returns_none(a, b, k, log):
    while a < 4:
        a += 1
        if k:
            pass
        elif b > 2:
            break
        return a


CASES += [
    (ifexp_test_with_true_constant_arm, ARGS_ABKL),
    (while_never_loops_break_returns_none, ARGS_ABKL),
]


# ``elif x: pass`` ending a with body (3.11+): the empty branch leaves where it
# starts, into the with's exit call, which was walked on as the branch's own
# way out ("if branches end in different places", fuzz 5000:403)
def with_body_ends_in_empty_elif(a, b, k, log):
    with CM(log, 1):
        if a:
            v = 1
        elif b:
            pass
    log.append(2)

    def g():
        return v
    return log, g()


CASES += [
    (with_body_ends_in_empty_elif, [(1, 0, 0, []), (0, 1, 0, []), (0, 0, 0, [])]),
]


# ``if <chained comparison>: continue`` ending a try body whose finally is
# empty (3.11+; no inlined copy of it lies between): the test's
# true way jumps to the ``continue``'s lone jump, past the try's protected
# range; it was taken for the try body's end ("if branches end in different
# places", fuzz 5000:1254)
def try_body_ends_in_chained_test_continue(a, b, k, log):
    n = 0
    while n < 3:
        n += 1
        try:
            if 0 < n in range(a):
                continue
        finally:
            pass
        log.append(n)
    return log


CASES += [
    (try_body_ends_in_chained_test_continue, ARGS_ABKL),
]


# ``if 1 if x or 0 else y:`` (3.10+): the folded ``or 0`` leaves x's false way
# a lone jump to ``y``, and the folded constant arm a lone jump to the body
# ("if branches end in different places", fuzz 43:587, 5002:485)
def if_test_ifexp_with_folded_or_constant(a, b, k, log):
    if 1 if a or 0 else b:
        log.append(1)
    if k if a > 2 or 0 else 1:
        log.append(2)
    if b if a or 0 else k:
        log.append(3)
    return log


CASES += [
    (if_test_ifexp_with_folded_or_constant, ARGS_ABKL),
]


# an if/else ending a try body whose statement is followed by ``return x``
# (3.12+): each branch falls into its own copy of that return, past the try's
# range; one line, one statement ("if branches end in different places",
# fuzz 43:2167)
def try_body_if_else_before_copied_return(a, b, k, log):
    try:
        if a:
            log.append(1)
        else:
            log.append(b)
    except ValueError:
        pass
    return log


CASES += [
    (try_body_if_else_before_copied_return, ARGS_ABKL),
]


# ``if a: pass`` ending a try body with a finally (3.11): both ways of the test
# go to one lone jump to the finally's inlined copy; the jump was taken for
# the body ("if branches end in different places", fuzz 5002:233)
def try_body_ends_in_empty_if_before_finally(a, b, k, log):
    try:
        if a:
            pass
    except TypeError:
        pass
    finally:
        log.append(k)
    assert b < 5
    return log


CASES += [
    (try_body_ends_in_empty_if_before_finally, ARGS_ABKL),
]


# ``return x`` in a try/finally inside ``with a, b:`` (two with statements): the value
# is computed in the try body, then the finally body's inlined copy and the inner
# with's exit call run, and the walk stopped at the outer with's exit call ("finally
# body's inlined copy not found"; fuzz 5100:281 on 3.11-3.13)
def return_in_try_finally_in_two_withs(a, log):
    with CM(log, 1), CM(log, 2, suppress=a > 1):
        try:
            if a == 1:
                raise ValueError
            return len(log) + a
        finally:
            log.append(3)
    with CM(log, 4):
        with CM(log, 5), CM(log, 6):
            try:
                return len(log)
            finally:
                if a:
                    log.append(7)


CASES += [
    (return_in_try_finally_in_two_withs, [(0, []), (1, []), (2, []), (3, [9])]),
]


# ``while True:`` whose body always breaks or returns: no jump back, the
# breaks are forward jumps that plain if statements cannot say (a break from
# a nested if beside code that goes on; "if branches end in different places",
# fuzz 43:687, 5002:1306, all versions)
def while_true_never_loops_nested_break(a, b, c, log):
    while True:
        a += 1
        if a > 0:
            break
        if b:
            if c:
                break
            log.append(1)
        log.append(2)
        return log
    log.append(3)
    return log


# (the same, a loop between the breaks; a loop, once refused, is walked again)
def while_true_never_loops_inner_loop(a, b, c, log):
    n = a
    while True:
        n += 1
        if n > 3:
            break
        if b:
            while n < 2:
                n += 1
                log.append(n)
            if c:
                break
            assert a or b > 1
        if a:
            break
        return log
    log.append(n)
    return log


ARGS_ABCL = [(a, b, c, []) for a in (-2, 0, 3) for b in (0, 2) for c in (0, 1)]

CASES += [
    (while_true_never_loops_nested_break, ARGS_ABCL),
    (while_true_never_loops_inner_loop, ARGS_ABCL),
]
