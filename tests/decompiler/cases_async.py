"""Differential cases: coroutines and async generators (await, async with
with several items, async for, async comprehensions, try/finally around
awaits).  Driven with asyncio.run by drive.py."""
import asyncio

from drive import sends

INTS1 = [(0,), (1,), (3,), (-2,)]


class ARec:
    """Async context manager recording into ``log``."""

    def __init__(self, log, name, suppress=()):
        self.log = log
        self.name = name
        self.suppress = suppress

    async def __aenter__(self):
        await asyncio.sleep(0)
        self.log.append("enter " + self.name)
        return self.name

    async def __aexit__(self, et, ev, tb):
        self.log.append("exit %s %s" % (self.name, et.__name__ if et else None))
        return et is not None and issubclass(et, self.suppress)


class ARange:
    """Async iterator over range(n)."""

    def __init__(self, n):
        self.i = 0
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        await asyncio.sleep(0)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i - 1


async def double(x):
    await asyncio.sleep(0)
    return x * 2


async def fail_if(x):
    await asyncio.sleep(0)
    if x < 0:
        raise ValueError(x)
    return x


async def agen_source(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i


# ----------------------------------------------------------------- await

async def async_simple(n):
    return await double(n)


async def async_await_in_expression(n):
    return await double(n) + await double(n + 1) * 2, [await double(i) for i in range(2)]


async def async_await_in_condition(n):
    if await double(n) > 2:
        r = "big"
    elif await fail_if(n) == 0:
        r = "zero"
    else:
        r = "small"
    return r


async def async_await_in_loop(n):
    total = 0
    for i in range(abs(n) + 1):
        total += await double(i)
        if total > 10:
            break
    while total > 0 and await double(total) > 20:
        total -= 7
    return total


async def async_try_except(n):
    try:
        r = await fail_if(n)
    except ValueError as e:
        r = ("err", e.args)
    else:
        r = ("ok", r)
    finally:
        await asyncio.sleep(0)
    return r


async def async_raises(n):
    await fail_if(n)
    return "ok"


async def async_gather(n):
    rs = await asyncio.gather(*[double(i) for i in range(abs(n) + 1)])
    return list(rs)


async def async_nested_coroutine(n):
    async def helper(k):
        return await double(k) + 1
    return await helper(n), await helper(await helper(n))


async def async_lambda_and_closure(n):
    f = lambda: double(n)
    return await f()


# ------------------------------------------------------------ async with

async def async_with_single(n):
    log = []
    async with ARec(log, "a") as name:
        log.append(name)
    return log


async def async_with_several(n):
    log = []
    async with ARec(log, "a") as x, ARec(log, "b"), ARec(log, "c") as z:
        log.append(x + z)
    return log


async def async_with_exception(n):
    log = []
    try:
        async with ARec(log, "a"), ARec(log, "b", (ValueError,)):
            await fail_if(n)
            log.append("body")
        log.append("after")
    except ValueError:
        log.append("escaped")
    return log


async def async_with_return_and_break(n):
    log = []
    for i in range(3):
        async with ARec(log, str(i)):
            if i == n:
                return log
            if i == 1:
                break
    return log


async def async_with_break_continue(n):
    log = []
    for i in range(4):
        async with ARec(log, str(i)):
            if i == n:
                break
            if i % 2:
                continue
            log.append(await double(i))
    log.append("after")
    return log


async def async_with_return_in_try_finally(n):
    log = []
    try:
        async with ARec(log, "a"):
            return [await double(n), list(log)]
    finally:
        log.append("finally")


async def async_with_body_always_raises(n):
    # the statement after the block runs when __aexit__ swallows the exception
    log = []
    async with ARec(log, "a", (ValueError,) if n > 0 else ()):
        raise ValueError(n)
    log.append("after")
    return log


async def async_with_mixed_sync_with(n):
    import contextlib
    log = []
    with contextlib.suppress(KeyError):
        async with ARec(log, "a"):
            if n:
                raise KeyError(n)
            log.append("body")
    return log


# ------------------------------------------------------------- async for

async def async_for_simple(n):
    out = []
    async for i in ARange(n):
        out.append(i)
    return out


async def async_for_else_break_continue(n):
    out = []
    async for i in ARange(5):
        if i == 1:
            continue
        if i == n:
            break
        out.append(i)
    else:
        out.append("else")
    return out


async def async_for_nested(n):
    out = []
    async for i in ARange(n):
        async for j in agen_source(i):
            out.append((i, j))
    return out


async def async_for_unpack_target(n):
    async def pairs():
        for i in range(n):
            yield i, -i
    out = []
    async for a, b in pairs():
        out.append(a - b)
    return out


async def async_comprehensions(n):
    a = [i async for i in ARange(n)]
    b = {i: await double(i) async for i in agen_source(n) if i % 2 == 0}
    c = [await double(i) for i in range(n)]
    d = {i async for i in ARange(n) if i > 0}
    return a, b, c, d


async def async_comprehension_nested(n):
    return [[j async for j in agen_source(i)] async for i in ARange(n)]


async def async_comprehension_shadowing(n):
    # 3.12+ inlines the comprehension: the outer ``i`` is saved and restored
    i = "outer"
    a = [i * 2 async for i in ARange(n)]
    return a, i


async def async_comprehension_in_loop(n):
    out = []
    for k in range(n):
        out.append([x + k async for x in ARange(k) if x % 2])
    return out


async def async_comprehension_mixed(n):
    return [(x, y) async for x in ARange(n) for y in range(x) if await double(y) > 0]


async def await_first_in_while(n):
    # (unittest's _asyncioLoopRunner) <=3.10: the await ends mid-block in
    # the loop header; the body once came back empty
    out = []
    while True:
        item = await double(n)
        if item > 4 or item < 0:
            return out
        out.append(item)
        n += 1


async def async_with_first_in_while(n):
    # <=3.10: the await of __aenter__ ends mid-block in the loop header
    log = []
    while True:
        async with ARec(log, str(n)):
            n += 1
            if n > 3 or n < 0:
                break
    return log


async def async_for_in_try(n):
    out = []
    try:
        async for i in ARange(5):
            out.append(await fail_if(n - i))
    except ValueError as e:
        out.append(("err", e.args))
    return out


# ------------------------------------------------------- async generators

async def agen_simple(n):
    for i in range(n):
        yield await double(i)


@sends
async def agen_send(n):
    got = []
    x = yield "start"
    while x is not None and x < n:
        got.append(x)
        x = yield x * 3
    yield got


async def agen_with_async_with(n):
    log = []
    async with ARec(log, "g"):
        async for i in ARange(n):
            yield i
    yield log


async def agen_try_finally(n):
    try:
        async for i in ARange(n):
            if i == 2:
                raise ValueError(i)
            yield i
    finally:
        yield "finally"


async def agen_return_in_loop(n):
    # issue 11 #8: ``if a: return`` before a yield came back as ``return None``
    for i in range(4):
        if i == n:
            return
        yield i


async def agen_return_in_handlers(n):
    async for i in ARange(4):
        try:
            await fail_if(n - i)
        except ValueError:
            if i > 1:
                return
            yield "caught"
        else:
            if n == i:
                return
        finally:
            yield "finally %d" % i
        yield i
    yield "end"


async def agen_return_beside_nested_functions(n):
    def plain(k):
        if k:
            return None
        return k

    async def coro(k):
        return None if k else k

    while n < 3:
        n += 1
        if plain(n % 2) is None and await coro(n % 2) is None:
            return
        yield n


async def agen_none_genexps(n):
    async def none_agen():
        yield None
    yield tuple(None for _ in range(n))
    yield [x async for x in (None async for _ in none_agen())]
    yield [None async for _ in agen_source(n)]



async def async_chain_await_operand(n):
    log = []

    async def val(v):
        log.append(v)
        await asyncio.sleep(0)
        return v

    if 0 <= await val(n) < await val(2):
        log.append("in")
    x = 0 <= await val(n) < (await val(3) or 1)
    return x, log


async def async_chain_await_middle_operand(n):
    # the middle link's operand is awaited (3.12+: its YIELD_VALUE has a
    # handler of its own, CLEANUP_THROW; the chain was split there)
    log = []

    async def val(v):
        log.append(v)
        await asyncio.sleep(0)
        return v

    if 0 == n - n < await val(n) != 3:
        log.append("in")
    if -1 < (await val(n)) < 5 < n + 3:
        log.append("in2")
    return log


# issue 11 (fuzzer): an async for whose body never loops back (it always
# breaks or returns) has no back edge: "unexpected GET_ANEXT" (3.11+),
# "END_ASYNC_FOR outside an async for loop" (<=3.10)
async def afor_body_always_breaks(n):
    log = []
    async for i in ARange(n):
        log.append(i)
        break
    async for j in ARange(n + 1):
        break
    log.append("after")
    return log


async def afor_body_always_returns(n):
    log = []
    async for i in ARange(n):
        if i:
            break
        log.append(i)
        return log
    else:
        log.append("else")
    async for j in ARange(n):
        return j
    return log

CASES = [
    (async_simple, INTS1),
    (async_chain_await_operand, INTS1),
    (async_chain_await_middle_operand, INTS1),
    (async_await_in_expression, INTS1),
    (async_await_in_condition, INTS1),
    (async_await_in_loop, INTS1 + [(9,)]),
    (async_try_except, INTS1),
    (async_raises, INTS1),
    (async_gather, INTS1),
    (async_nested_coroutine, INTS1),
    (async_lambda_and_closure, INTS1),
    (async_with_single, INTS1),
    (async_with_several, INTS1),
    (async_with_exception, INTS1),
    (async_with_return_and_break, INTS1 + [(2,)]),
    (async_with_break_continue, INTS1),
    (async_with_return_in_try_finally, INTS1),
    (async_with_body_always_raises, INTS1),
    (async_with_mixed_sync_with, INTS1),
    (async_for_simple, INTS1),
    (async_for_else_break_continue, INTS1 + [(9,)]),
    (async_for_nested, INTS1),
    (async_for_unpack_target, INTS1),
    (async_comprehensions, INTS1),
    (async_comprehension_nested, INTS1),
    (async_comprehension_shadowing, INTS1),
    (await_first_in_while, INTS1 + [(5,)]),
    (async_with_first_in_while, INTS1),
    (async_comprehension_in_loop, INTS1),
    (async_comprehension_mixed, INTS1),
    (async_for_in_try, INTS1),
    (agen_simple, INTS1),
    (agen_send, INTS1 + [(5,)]),
    (agen_with_async_with, INTS1),
    (agen_try_finally, INTS1),
    (agen_return_in_loop, INTS1 + [(2,)]),
    (agen_return_in_handlers, INTS1 + [(2,), (5,)]),
    (agen_return_beside_nested_functions, INTS1),
    (agen_none_genexps, INTS1),
    (afor_body_always_breaks, INTS1),
    (afor_body_always_returns, INTS1),
]


# issue 11 (fuzzer): an async for (no back edge: its body always breaks)
# inside a for loop: before 3.11 the break jumps to where END_ASYNC_FOR falls,
# the outer loop's jump back ("loop body leaves the loop"; 3.10, 3.11)
async def afor_always_breaks_in_for(n):
    log = []
    for k in range(n + 1):
        async for i in ARange(n):
            log.append(i)
            if k:
                break
            break
    log.append("after")
    return log


# ``if a < b < c: break`` in an async for (the chain's true path jumps over
# its cleanup to the break; all versions: "loop else clause ends in an
# unexpected place")
async def afor_break_on_chain(n):
    log = []
    async for i in ARange(n + 2):
        log.append(i)
        if 0 < i <= n:
            break
    log.append("after")
    return log


# async for / else with a break: 3.12+ drops the iterator and falls into
# the code after the else clause ("loop body leaves the loop"; 3.12)
async def afor_else_break(n):
    log = []
    async for i in ARange(n + 2):
        log.append(i)
        if i == n:
            break
    else:
        log.append("else")
    log.append("after")
    return log


CASES += [
    (afor_always_breaks_in_for, INTS1),
    (afor_break_on_chain, INTS1),
    (afor_else_break, INTS1),
]


# an async for whose body always breaks, with an else clause: 3.11+ lays
# the code after the loop out right after the body's ``POP_TOP`` (the else
# clause, after END_ASYNC_FOR at the end, jumps back to it); no back edge
# tells where break goes ("loop body leaves the loop", 3.12, 3.13)
async def afor_first_item_breaks_with_else(n):
    log = []
    async for i in ARange(n):
        log.append(i)
        break
    else:
        log.append("else")
    log.append("after")
    return log


CASES += [
    (afor_first_item_breaks_with_else, INTS1),
]
