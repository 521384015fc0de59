"""Drive generators, coroutines and async generators so that original and
decompiled functions can be compared by behaviour (see harness.py).

A generator is driven by ``next``; if the original function has a
``drive_sends`` attribute (set with the ``sends`` decorator), by ``next`` and
then ``send(0)``, ``send(1)``, ... so that ``x = yield`` receives
deterministic values.  Its yielded values, its return value
(``StopIteration.value``) and any exception type are recorded.
A coroutine function is run with ``asyncio.run``; an async generator is
driven inside ``asyncio.run`` the same way as a generator (``asend``)."""
import asyncio
import inspect
import types

from harness import rebuild, separate_copies

LIMIT = 10000  # guard against a decompiled generator that never stops


def sends(fn):
    """Mark a generator / async generator function to be driven with send(n)."""
    fn.drive_sends = True
    return fn


def drive_generator(gen, send=False):
    yielded = []
    try:
        value = next(gen)
        n = 0
        while True:
            yielded.append(value)
            if len(yielded) > LIMIT:
                return ("runaway", yielded[:20])
            value = gen.send(n if send else None)
            n += 1
    except StopIteration as stop:
        return ("ok", yielded, stop.value)
    except Exception as e:
        return ("raised", yielded, type(e))


async def _drive_async_generator(agen, send=False):
    yielded = []
    try:
        value = await agen.__anext__()
        n = 0
        while True:
            yielded.append(value)
            if len(yielded) > LIMIT:
                return ("runaway", yielded[:20])
            value = await agen.asend(n if send else None)
            n += 1
    except StopAsyncIteration:
        return ("ok", yielded)
    except Exception as e:
        return ("raised", yielded, type(e))


def outcome(fn, args, send=False):
    """Run ``fn(*args)`` to completion, whatever kind of function it is."""
    try:
        r = fn(*args)
        if isinstance(r, types.GeneratorType):
            return drive_generator(r, send)
        if inspect.iscoroutine(r):
            return ("ok", asyncio.run(r))
        if inspect.isasyncgen(r):
            return asyncio.run(_drive_async_generator(r, send))
        return ("ok", r)
    except Exception as e:
        return ("raised", type(e))


def needs_driving(fn):
    code = fn.__code__
    return bool(code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE
                                 | inspect.CO_ASYNC_GENERATOR))


def check_driven(fn, inputs):
    """Like harness.check_behaviour, for generators and async functions."""
    src, new = rebuild(fn)
    send = getattr(fn, "drive_sends", False)
    for args in inputs:
        mine, theirs = separate_copies(args)
        want, got = outcome(fn, mine, send) + (mine,), outcome(new, theirs, send) + (theirs,)
        assert want == got, "%s%r: original %r, decompiled %r\n%s" % (
            fn.__name__, args, want, got, src)
    return src, new
