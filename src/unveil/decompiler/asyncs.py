"""Structuring of ``await``, ``async for``, ``async with`` and async
generators, on every version (``YIELD_FROM`` loops on <=3.10, ``SEND``
loops with ``END_SEND``/``CLEANUP_THROW`` handlers on 3.11+).

A mixin of :class:`structure.Structurer`: ``Structurer.block()`` calls
``async_op`` for the instructions in ``ASYNC_OPS``.
"""

#: instructions that ``Structurer.block()`` hands to ``async_op``
ASYNC_OPS = frozenset()


class AsyncConstructs:
    def async_op(self, ins, frame, region, loop):
        """Structure the construct that starts at ``ins``; return the index
        where control continues, or an ``Exit``."""
        self.fail("async constructs are not supported yet", ins.index)
