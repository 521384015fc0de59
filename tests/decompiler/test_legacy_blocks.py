"""try/except/else/finally and with/async with: the block-stack forms of
3.8-3.10 (SETUP_FINALLY, SETUP_WITH, POP_BLOCK, ...) and, under 3.11+, the
exception table."""
import sys

import pytest

from unveil import DecompilationError

from harness import check_behaviour, check_bytecode


class Ctx:
    def __init__(self, log, swallow=False, value=None):
        self.log = log
        self.swallow = swallow
        self.value = value

    def __enter__(self):
        self.log.append("enter")
        return self.value if self.value is not None else self

    def __exit__(self, t, v, tb):
        self.log.append(("exit", t.__name__ if t else None))
        return self.swallow



def work(x):
    if x == 0:
        raise ValueError("zero")
    if x == 1:
        raise KeyError("one")
    if x == 2:
        raise TypeError("two")
    return x * 10


# ------------------------------------------------------------- try/except
def except_one(x):
    try:
        r = work(x)
    except ValueError:
        r = -1
    return r


def except_as(x):
    try:
        r = work(x)
    except ValueError as e:
        r = str(e)
    return r


def except_several(x):
    try:
        r = work(x)
    except ValueError:
        r = "v"
    except KeyError as k:
        r = "k" + str(k)
    except (TypeError, IndexError):
        r = "t"
    return r


def bare_except(x):
    try:
        r = work(x)
    except:
        r = None
    return r


def typed_then_bare(x):
    try:
        r = work(x)
    except ValueError:
        r = 1
    except:
        r = 2
    return r


def except_else(x):
    log = []
    try:
        r = work(x)
    except ValueError:
        log.append("exc")
    else:
        log.append(r)
    return log


def except_pass(x):
    try:
        work(x)
    except ValueError:
        pass
    return x


def nested_try(x):
    try:
        try:
            r = work(x)
        except ValueError:
            r = work(x + 1)
    except KeyError:
        r = "outer"
    return r


def try_in_except(x):
    try:
        r = work(x)
    except ValueError:
        try:
            r = work(x + 2)
        except TypeError:
            r = "t"
    return r


def return_in_try(x):
    try:
        return work(x)
    except ValueError:
        return "v"


def return_const_in_try(x):
    try:
        work(x)
        return 5
    except ValueError:
        pass
    return 6


def return_in_except_as(x):
    try:
        work(x)
    except ValueError as e:
        return str(e)
    return "ok"


def raise_in_handler(x):
    try:
        return work(x)
    except ValueError:
        raise KeyError("again")


def raise_from_in_handler(x):
    try:
        return work(x)
    except ValueError as e:
        raise TypeError("wrapped") from e


def reraise(x):
    try:
        return work(x)
    except ValueError:
        raise


def continue_in_try(n):
    out = []
    for x in range(n):
        try:
            if x == 4:
                continue
            out.append(work(x))
        except ValueError:
            out.append("v")
    return out


def break_in_except(n):
    out = []
    for x in range(3, 3 + n):
        try:
            out.append(work(x % 4))
        except ValueError:
            break
    return out


def continue_in_except(n):
    out = []
    for x in range(n):
        try:
            out.append(work(x))
        except KeyError as e:
            continue
        out.append("after")
    return out


def while_try(n):
    i = 0
    total = 0
    while i < n:
        i += 1
        try:
            total += work(i % 4)
        except (ValueError, KeyError):
            total -= 1
    return total


def except_in_loop_else(n):
    out = []
    for x in range(n):
        try:
            r = work(x)
        except ValueError:
            out.append("v")
        else:
            out.append(r)
    return out


def except_return_in_loop(n):
    for x in range(n):
        try:
            return work(x)
        except ValueError:
            continue
    return None


# ------------------------------------------------------------ try/finally
def finally_(x):
    log = []
    try:
        log.append(work(x))
    finally:
        log.append("fin")
    return log


def except_finally(x):
    log = []
    try:
        log.append(work(x))
    except KeyError:
        log.append("key")
    finally:
        log.append("fin")
    return log


def return_in_finally_try(x):
    log = []
    try:
        return work(x)
    finally:
        log.append(1)


def return_in_finally_body(x):
    try:
        work(x)
    finally:
        return "swallowed"


def return_var_in_finally_body(x):
    r = 0
    try:
        r = work(x)
    finally:
        if x == 1:
            return r
    return r + 1


def break_in_finally_try(n):
    out = []
    for x in range(n):
        try:
            if x == 5:
                break
            out.append(x)
        finally:
            out.append("f")
    return out


def continue_in_finally_try(n):
    out = []
    for x in range(n):
        try:
            if x == 5:
                continue
            out.append(x)
        finally:
            out.append("f")
    return out


def finally_nested_return(x):
    try:
        try:
            return work(x)
        finally:
            x += 100
    finally:
        x += 1000



def with_as(x):
    log = []
    with Ctx(log, value=7) as v:
        log.append(v + work(x))
    return log


def with_two(x):
    log = []
    with Ctx(log, value=1) as a, Ctx(log, value=2) as b:
        log.append(a + b + work(x))
    return log


def with_return(x):
    log = []
    with Ctx(log, value=3) as v:
        return v * work(x)


def with_tuple_target(x):
    log = []
    with Ctx(log, value=(1, 2)) as (a, b):
        log.append(a - b + work(x))
    return log


def except_tuple_as(x):
    try:
        r = work(x)
    except (KeyError, TypeError) as e:
        r = type(e).__name__
    except ValueError:
        r = "v"
    return r


def except_attr_type(x):
    import builtins
    try:
        r = work(x)
    except builtins.ValueError:
        r = "v"
    return r


def except_else_return(x):
    try:
        r = work(x)
    except ValueError:
        return "v"
    else:
        r += 1
    return r


def except_raise_new(x):
    try:
        r = work(x)
    except KeyError as e:
        raise ValueError(str(e))
    return r


def while_try_break(n):
    i = 0
    while True:
        i += 1
        try:
            if work(i % 4) > 20 or i > n:
                break
        except ValueError:
            pass
    return i


def with_as_attr(x):
    log = []

    class O:
        pass
    o = O()
    with Ctx(log, value=5) as o.attr:
        log.append(o.attr + work(x))
    return log


def with_nested_bodies(x):
    log = []
    with Ctx(log, value=1) as a:
        log.append(a)
        with Ctx(log, value=2) as b:
            log.append(b + work(x))
    return log


# ------------------------------------- 3.10: code after a statement copied
def except_else_finally(x):
    log = []
    try:
        r = work(x)
    except ValueError:
        log.append("v")
    else:
        log.append(r)
    finally:
        log.append("fin")
    return log


def try_in_finally_body(x):
    log = []
    try:
        log.append(work(x))
    finally:
        try:
            log.append(work(x + 1))
        except KeyError:
            log.append("k")
    return log


def with_in_try(x):
    log = []
    try:
        with Ctx(log, value=4) as v:
            log.append(v + work(x))
    except ValueError:
        log.append("v")
    return log


def try_in_with(x):
    log = []
    with Ctx(log, value=6) as v:
        try:
            log.append(v + work(x))
        except KeyError:
            log.append("k")
    return log


def with_swallow_in_with(x):
    log = []
    with Ctx(log) as a:
        log.append(1)
        with Ctx(log, swallow=True):
            log.append(work(x))
        log.append(2)
    return log


def nested_try_three(x):
    try:
        try:
            try:
                r = work(x)
            except ValueError:
                r = "v"
        except KeyError:
            r = "k"
    except TypeError:
        r = "t"
    return r


def except_as_finally(x):
    log = []
    try:
        log.append(work(x))
    except (KeyError, ValueError) as e:
        log.append(type(e).__name__)
    finally:
        log.append("fin")
    return log


def return_through_finally_override(x):
    try:
        return work(x)
    finally:
        if x != 5:
            return "finally"


def break_in_finally_body(n):
    out = []
    for x in range(n):
        try:
            out.append(work(x % 4 + 3))
        finally:
            if x == 3:
                break
    return out


INPUTS = [(0,), (1,), (2,), (3,), (5,)]
LOOP_INPUTS = [(0,), (1,), (3,), (5,), (8,)]

CASES = [
    except_tuple_as, except_attr_type, except_else_return, except_raise_new,
    with_as_attr, with_nested_bodies,
    except_one, except_as, except_several, bare_except, typed_then_bare, except_else,
    except_pass, nested_try, try_in_except, return_in_try, return_const_in_try,
    return_in_except_as, raise_in_handler, raise_from_in_handler, reraise,
    finally_, except_finally, return_in_finally_try,
    return_in_finally_body, return_var_in_finally_body, finally_nested_return,
    with_as, with_two, with_return, with_tuple_target,
    except_else_finally, try_in_finally_body, with_in_try, try_in_with,
    with_swallow_in_with, nested_try_three, except_as_finally,
    return_through_finally_override,
]
LOOP_CASES = [
    continue_in_try, break_in_except, continue_in_except, while_try,
    except_in_loop_else, except_return_in_loop, while_try_break, break_in_finally_try,
    continue_in_finally_try, break_in_finally_body,
]

# Not structured yet on these versions: a loud DecompilationError is accepted
# for them (never different behaviour); every other case must pass.
GAPS = {
    # 3.12+ (structure/): the else clause's exit is not recognised
    "except_else_finally": {(3, 12), (3, 13)},
    # 3.11+: ``return work(x)`` is also written into the finally's early
    # return (``work`` called twice); check_evaluated_once refuses it
    "return_through_finally_override": {(3, 11), (3, 12), (3, 13)},
}


def _check(fn, inputs):
    try:
        check_behaviour(fn, inputs)
    except DecompilationError:
        if sys.version_info[:2] not in GAPS.get(fn.__name__, ()):
            raise


# normalized bytecode identical after recompilation, on every version
SAME_BYTECODE = {
    "continue_in_finally_try", "raise_from_in_handler", "raise_in_handler", "reraise",
    "return_in_finally_body", "return_in_finally_try", "return_in_try", "with_as",
    "with_return", "with_tuple_target",
}


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_behaviour(fn):
    _check(fn, INPUTS)


@pytest.mark.parametrize("fn", LOOP_CASES, ids=lambda f: f.__name__)
def test_loop_behaviour(fn):
    _check(fn, LOOP_INPUTS)


# and on the block-stack versions (3.8-3.10)
SAME_BYTECODE_LEGACY = SAME_BYTECODE | {
    "except_one", "except_as", "except_several", "bare_except", "typed_then_bare",
    "except_pass", "nested_try", "try_in_except",
    "finally_", "except_finally", "return_var_in_finally_body",
    "finally_nested_return", "with_two", "except_tuple_as", "except_attr_type",
    "with_as_attr", "with_nested_bodies",
    "except_else_finally", "with_in_try", "try_in_with", "with_swallow_in_with",
    "nested_try_three", "except_as_finally", "return_through_finally_override",
    "continue_in_try", "while_try",
}


@pytest.mark.parametrize("fn", sorted(SAME_BYTECODE), ids=lambda n: n)
def test_bytecode(fn):
    check_bytecode(globals()[fn])


@pytest.mark.skipif(sys.version_info >= (3, 11), reason="block-stack versions only")
@pytest.mark.parametrize("fn", sorted(SAME_BYTECODE_LEGACY - SAME_BYTECODE), ids=lambda n: n)
def test_bytecode_legacy(fn):
    check_bytecode(globals()[fn])
