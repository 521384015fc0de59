"""await, async for, async with, async comprehensions, async generators and
``yield from`` on every version (asyncs.py): each function is decompiled,
recompiled and driven side by side with the original (drive.py); the ones
in EQUAL must also give the same normalized bytecode."""
import asyncio

import pytest

from drive import check_driven, sends
from harness import check_bytecode

INTS = [(0,), (1,), (2,), (3,), (-1,)]


class Rec:
    """Async context manager logging enter/exit into ``log``."""

    def __init__(self, log, name, suppress=()):
        self.log, self.name, self.suppress = log, name, suppress

    async def __aenter__(self):
        await asyncio.sleep(0)
        self.log.append("in " + self.name)
        return self.name

    async def __aexit__(self, et, ev, tb):
        await asyncio.sleep(0)
        self.log.append("out %s %s" % (self.name, et.__name__ if et else None))
        return et is not None and issubclass(et, self.suppress)


class Count:
    """Async iterator over range(n)."""

    def __init__(self, n):
        self.i, self.n = 0, n

    def __aiter__(self):
        return self

    async def __anext__(self):
        await asyncio.sleep(0)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i - 1


async def inc(x):
    await asyncio.sleep(0)
    return x + 1


async def check(x):
    await asyncio.sleep(0)
    if x < 0:
        raise ValueError(x)
    return x


async def gen(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i


class Box:
    def __init__(self, v):
        self.v = v


async def box(v):
    return Box(v)


# ------------------------------------------------------------------ await
async def await_return(n):
    return await inc(n)


async def await_operands(n):
    return await inc(n) * 10 - await inc(n + 1)


async def await_call_args(n):
    return max(await inc(n), await inc(-n), key=abs)


async def await_nested(n):
    return await inc(await inc(await inc(n)))


async def await_statement(n):
    await inc(n)
    await asyncio.sleep(0)
    return n


async def await_if_elif(n):
    if await inc(n) > 2:
        return "big"
    elif await inc(n) == 1:
        return "zero"
    return "other"


async def await_while(n):
    k = 0
    while await inc(k) <= n:
        k += 1
    return k


async def await_bool_ops(n):
    a = n > 0 and await inc(n)
    b = n > 1 or await inc(-n)
    return a, b


async def await_ifexp(n):
    return await inc(n) if n else await inc(-5)


async def await_attr_subscript(n):
    v = (await box(n)).v
    w = (await box([n, n + 1]))
    return v, w.v[1], (await box({"k": n})).v["k"]


async def await_displays(n):
    return [await inc(n), n], {"a": await inc(n)}, (await inc(0),)


async def await_fstring(n):
    return f"<{await inc(n)}:{n!r}>"


async def await_augassign(n):
    total = 1
    total += await inc(n)
    total *= await inc(1)
    return total


async def await_loop_break_continue(n):
    out = []
    for i in range(6):
        if i == 1:
            continue
        v = await inc(i)
        if v > n + 2:
            break
        out.append(v)
    return out


async def await_try_except_finally(n):
    log = []
    try:
        log.append(await check(n - 1))
    except ValueError as e:
        log.append(("err", e.args))
    finally:
        log.append(await inc(100))
    return log


async def await_in_sync_with(n):
    import contextlib
    r = "suppressed"
    with contextlib.suppress(ZeroDivisionError):
        v = await inc(n)
        r = 10 // (v - 1)
    return r


async def await_nested_def(n):
    async def helper(k):
        return await inc(k) * 2
    return await helper(n) + await helper(1)


# -------------------------------------------------------------- async for
async def afor_simple(n):
    out = []
    async for i in Count(n):
        out.append(i)
    return out


async def afor_else_break_continue(n):
    out = []
    async for i in Count(4):
        if i == 0:
            continue
        if i == n:
            break
        out.append(i)
    else:
        out.append("else")
    return out


async def afor_nested(n):
    out = []
    async for i in Count(n):
        async for j in gen(i):
            out.append(i * 10 + j)
    return out


async def afor_unpack(n):
    async def pairs():
        for i in range(n):
            yield i, i * i
    out = []
    async for a, b in pairs():
        out.append(a + b)
    return out


async def afor_return(n):
    async for i in Count(5):
        if i == n:
            return "found %d" % i
    return "none"


async def afor_in_try(n):
    out = []
    try:
        async for i in Count(3):
            out.append(await check(n - i))
    except ValueError as e:
        out.append(e.args)
    return out


async def afor_in_for(n):
    out = []
    for k in range(2):
        async for i in Count(n):
            if i == 2:
                break
            out.append((k, i))
    return out


async def afor_await_body(n):
    total = 0
    async for i in gen(n):
        total += await inc(i)
    return total


async def afor_subscript_target(n):
    d = {}
    async for d["k"] in Count(n):
        d[d["k"]] = 1
    return d


# ------------------------------------------------------------- async with
async def awith_as(n):
    log = []
    async with Rec(log, "a") as name:
        log.append(name * 2)
    return log


async def awith_several(n):
    log = []
    async with Rec(log, "a") as x, Rec(log, "b"), Rec(log, "c") as z:
        log.append(x + z)
    return log


async def awith_suppress(n):
    log = []
    async with Rec(log, "a", (ValueError,)):
        await check(-n)
        log.append("body")
    log.append("after")
    return log


async def awith_return(n):
    log = []
    async with Rec(log, "r"):
        if n:
            return log
        log.append("no")
    return log


async def awith_break_continue(n):
    log = []
    for i in range(4):
        async with Rec(log, str(i)):
            if i == 1:
                continue
            if i == n:
                break
            log.append(i)
    return log


async def awith_in_afor(n):
    log = []
    async for i in Count(n):
        async with Rec(log, str(i)) as s:
            log.append(s)
    return log


async def awith_await_body(n):
    log = []
    async with Rec(log, "w"):
        log.append(await inc(n))
    return log


# -------------------------------------------------------- comprehensions
async def comp_async_list(n):
    return [i * 2 async for i in Count(n)]


async def comp_async_set_dict(n):
    return {i % 2 async for i in gen(n)}, {i: -i async for i in Count(n) if i}


async def comp_await_elt(n):
    return [await inc(i) for i in range(n)]


async def comp_genexp(n):
    g = (i * 3 async for i in gen(n))
    return [x async for x in g]


async def comp_nested(n):
    return [[j async for j in gen(i)] async for i in Count(n)]


# ------------------------------------------------------ async generators
async def agen_yield_await(n):
    for i in range(n):
        yield await inc(i)


@sends
async def agen_send(n):
    got = []
    x = yield "start"
    while x is not None and x < n:
        got.append(x)
        x = yield x * 2
    yield got


async def agen_over_agen(n):
    async for i in gen(n):
        yield i
        yield -i


async def agen_try_finally(n):
    try:
        async for i in Count(n):
            if i == 2:
                raise ValueError(i)
            yield i
    finally:
        yield "finally"


async def agen_with(n):
    log = []
    async with Rec(log, "g"):
        yield 1
    yield log


# -------------------------------------------------------------- yield from
def yf_value(n):
    def sub():
        yield n
        yield n + 1
        return n * 10
    r = yield from sub()
    yield r


def yf_in_expression(n):
    def sub():
        yield 0
        return n
    x = [(yield from sub()), (yield from sub()) + 1]
    yield x


def yf_condition(n):
    def sub(v):
        yield v
        return v
    if (yield from sub(n)):
        yield "t"
    else:
        yield "f"


CASES = [
    (await_return, INTS), (await_operands, INTS), (await_call_args, INTS),
    (await_nested, INTS), (await_statement, INTS), (await_if_elif, INTS),
    (await_while, INTS), (await_bool_ops, INTS), (await_ifexp, INTS),
    (await_attr_subscript, INTS), (await_displays, INTS), (await_fstring, INTS),
    (await_augassign, INTS), (await_loop_break_continue, INTS),
    (await_try_except_finally, INTS), (await_in_sync_with, INTS),
    (await_nested_def, INTS),
    (afor_simple, INTS), (afor_else_break_continue, INTS + [(9,)]), (afor_nested, INTS),
    (afor_unpack, INTS), (afor_return, INTS + [(7,)]), (afor_in_try, INTS),
    (afor_in_for, INTS), (afor_await_body, INTS), (afor_subscript_target, INTS),
    (awith_as, INTS), (awith_several, INTS), (awith_suppress, INTS), (awith_return, INTS),
    (awith_break_continue, INTS), (awith_in_afor, INTS), (awith_await_body, INTS),
    (comp_async_list, INTS), (comp_async_set_dict, INTS), (comp_await_elt, INTS),
    (comp_genexp, INTS), (comp_nested, INTS),
    (agen_yield_await, INTS), (agen_send, INTS + [(5,)]), (agen_over_agen, INTS),
    (agen_try_finally, INTS), (agen_with, INTS),
    (yf_value, INTS), (yf_in_expression, INTS), (yf_condition, INTS),
]

#: same normalized bytecode after the round trip, on every version
EQUAL = {
    "afor_await_body", "afor_nested", "afor_return", "afor_simple", "afor_subscript_target",
    "afor_unpack", "agen_over_agen", "agen_send", "agen_try_finally", "agen_with",
    "agen_yield_await", "await_attr_subscript", "await_augassign", "await_bool_ops",
    "await_call_args", "await_displays", "await_fstring", "await_if_elif", "await_ifexp",
    "await_in_sync_with", "await_nested", "await_nested_def", "await_operands", "await_return",
    "awith_as", "awith_await_body", "awith_in_afor", "awith_return", "awith_several",
    "awith_suppress", "comp_async_list", "comp_async_set_dict", "comp_await_elt", "comp_genexp",
    "comp_nested", "yf_condition", "yf_in_expression", "yf_value",
}


@pytest.mark.parametrize("fn, inputs", [pytest.param(f, i, id=f.__name__) for f, i in CASES])
def test_async_behaviour(fn, inputs):
    check_driven(fn, inputs)


@pytest.mark.parametrize("fn", [pytest.param(f, id=f.__name__) for f, _ in CASES
                                if f.__name__ in EQUAL])
def test_async_bytecode(fn):
    check_bytecode(fn)
