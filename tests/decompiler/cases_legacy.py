"""Differential cases from issue 11 for the <=3.10 layouts (3.8-3.10): each
failed there before its fix. Imported by test_differential.py only when
sys.version_info < (3, 11) (the 3.11+ layouts are fixed separately)."""
import sys

from drive import sends

ABC = [(1, 2, 3), (2, 2, 3), (1, 5, 3), (0, 0, 0), (3, 1, 2)]


# ------------------------------------------------ chained comparison operands
# (the middle operand is kept on the stack; it must be evaluated once)

def chain_middle_effect_if(a, b, c):
    log = []

    def f():
        if a != (log.append(1) or b) <= c:
            return 1
    return f(), log


def chain_middle_effect_if_body(a, b, c):
    log = []
    if a != (log.append(1) or b) <= c:
        log.append(2)
    return log


def chain_middle_effect_while(a, b, c):
    log = []

    def f():
        n = 0
        while n < 2 and a != (log.append(1) or b) <= c:
            n += 1
        return n
    return f(), log


def chain_middle_while_plain(a, b, c):
    n = 0
    while n < 2 and a != b <= c:
        n += 1
    return n


def chain_while_break(a, b, c):
    log = []

    def f():
        n = 0
        while a != (log.append(n) or b) <= c:
            n += 1
            if n > 3:
                break
        return n
    return f(), log


@sends
def chain_middle_yield(a, b, c):
    if a != (yield b) == c:
        return 1


def chain_middle_assert(a, b, c):
    log = []

    def g():
        log.append(a)
        return a

    def f():
        assert 0 <= g() < 10
    try:
        f()
    except AssertionError:
        return "failed", log
    return log


def chain_middle_assert_msg(a, b, c):
    log = []

    def f():
        assert b <= (log.append(b) or b) < c, "m"
    try:
        f()
    except AssertionError as e:
        return e.args, log
    return log


def chain_return_in_for(a, b, c):
    for i in range(3):
        if a < b + i < c:
            return i
    return -1


# ------------------------- a chained comparison as a conditional expression's test
# (the true path jumps over the false path's ``POP_TOP; JUMP``)

def chain_ifexp_then_finally(a, b, c):
    x = 1 if b < a <= c else 2
    try:
        pass
    finally:
        pass
    return x


def chain_ifexp_effect(a, b, c):
    log = []
    y = 1 if a < (log.append(1) or b) <= c else 2
    return y, log


def chain_ifexp_class_body(a, b, c):
    class K:
        x = 1 if b < a <= c else 2
        try:
            pass
        finally:
            pass
    return K.x


def chain_ifexp_in_call(a, b, c):
    return [a, "in" if 0 <= a < c else "out", b]


# ------------------------------------------------------ break ending a loop body
# (``break`` right after an inner for: cases_control.break_after_inner_for, every version)

def break_in_if_after_test(xs):
    found = None
    for x in xs:
        if x:
            if x == 2:
                x = 20
            break
    else:
        x = "none"
    return x, found


def break_in_if_after_test_while(n):
    out = []
    k = 0
    while k < n:
        k += 1
        if k > 2:
            if k == 4:
                out.append("four")
            break
        out.append(k)
    else:
        out.append("else")
    return out


def break_behind_test_in_while_true(xs):
    out = []
    it = iter(xs)
    while 1:
        tok = next(it, None)
        if tok is None:
            break
        while 1:
            t = next(it, None)
            if t is None or t == 0:
                if out:
                    out.append("end")
                    break
                else:
                    raise ValueError
            out.append(t)
    return out


def while_true_loops_in_sequence(xs):
    out = []
    it = iter(xs)
    while True:
        out.append("top")
        while True:
            line = next(it, "")
            if line == "more":
                out.append("more")
                continue
            break
        while True:
            line = next(it, "")
            if line == "more":
                out.append("more2")
                continue
            break
        if line == "":
            break
        out.append(line)
    return out


# ------------------------------- a finally body that ends in a raise, in a loop
# (the copy on the normal path ends with a dead jump to after the statement)

def finally_assert_in_loop(a, b, c):
    log = []
    for i in range(2):
        try:
            log.append(i)
        finally:
            assert b >= a or c < b, 3
        log.append(5)
    return log


def finally_assert_then_code(a, b, c):
    log = []
    try:
        log.append(1)
    finally:
        assert a or b, 3
    log.append(5)
    return log


def finally_if_else_raise_in_loop(a, b, c):
    log = []
    for i in range(2):
        try:
            log.append(i)
        finally:
            if a:
                log.append(7)
            else:
                raise ValueError
        log.append(5)
    return log


# ------------------- code after a try whose body never falls through
# (only the except clause reaches it; it runs after the clause's POP_EXCEPT)

D_INPUTS = [({},), ({"k": 1},), (None,), ({"x": 2},)]


def after_try_returning_body(d):
    try:
        return d["k"]
    except KeyError:
        pass
    return sys.exc_info()[0]


def after_try_returning_body_as(d):
    log = []
    try:
        return d["k"]
    except KeyError as e:
        log.append(type(e).__name__)
    return sys.exc_info()[0], log


def after_try_returning_body_two_clauses(d):
    log = []
    try:
        return d["k"]
    except KeyError:
        log.append(1)
    except TypeError:
        log.append(2)
    log.append(sys.exc_info()[0])
    return log


def after_try_returning_body_in_loop(d):
    log = []
    for i in range(2):
        try:
            if d:
                return d["k"]
            continue
        except KeyError:
            pass
        log.append(sys.exc_info()[0])
    return log


CASES = [
    (chain_middle_effect_if, ABC),
    (chain_middle_effect_if_body, ABC),
    (chain_middle_effect_while, ABC),
    (chain_middle_while_plain, ABC),
    (chain_while_break, ABC),
    (chain_middle_yield, ABC),
    (chain_middle_assert, [(0, 0, 0), (5, 0, 0), (-1, 0, 0), (12, 0, 0)]),
    (chain_middle_assert_msg, ABC),
    (chain_return_in_for, ABC),
    (chain_ifexp_then_finally, ABC),
    (chain_ifexp_effect, ABC),
    (chain_ifexp_class_body, ABC),
    (chain_ifexp_in_call, ABC),
    (break_in_if_after_test, [([],), ([0, 0],), ([0, 2, 3],), ([0, 5],)]),
    (break_in_if_after_test_while, [(0,), (2,), (3,), (6,)]),
    (break_behind_test_in_while_true, [([],), ([1, 2, 3, 0, 5],), ([1, 0],), ([1, 2, 0, 4, 0],)]),
    (while_true_loops_in_sequence, [([],), (["more", "a", "more", "b", "c", "d"],), (["x", "y", "more", "z"],)]),
    (finally_assert_in_loop, ABC),
    (finally_assert_then_code, ABC),
    (finally_if_else_raise_in_loop, ABC),
    (after_try_returning_body, D_INPUTS),
    (after_try_returning_body_as, D_INPUTS),
    (after_try_returning_body_two_clauses, D_INPUTS),
    (after_try_returning_body_in_loop, D_INPUTS),
]


# statistics._exact_ratio (stdlib, 3.9; see cases_trees.return_in_try_in_nested_clauses):
# the enclosing try's POP_BLOCK on the return's way too. (3.11+ refuses it: "Exception_
# used as a value", a gap of its own)
def return_in_try_in_clause_in_try(a):
    try:
        if a == 1:
            return a
        try:
            return a.x
        except AttributeError:
            try:
                return a.real
            except AttributeError:
                pass
    except (OverflowError, ValueError):
        return None
    return a, 2



CASES += [
    (return_in_try_in_clause_in_try, [(1,), (2,), ("x",), (1.5,)]),
]
