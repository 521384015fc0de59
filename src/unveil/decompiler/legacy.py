"""Structuring of the <=3.10 block-stack constructs: ``SETUP_FINALLY``,
``SETUP_WITH``/``SETUP_ASYNC_WITH``, ``POP_BLOCK``, ``BEGIN_FINALLY``/
``END_FINALLY``/``CALL_FINALLY``/``POP_FINALLY`` (3.8), ``WITH_CLEANUP_*``
(3.8), ``WITH_EXCEPT_START``/``RERAISE``/``JUMP_IF_NOT_EXC_MATCH`` (3.9, 3.10).

A mixin of :class:`structure.Structurer`: the walker calls ``setup_block``
when a block ends in a ``SETUP_*`` instruction.
"""


class LegacyBlocks:
    def setup_block(self, ins, frame, region, loop):
        """Structure the try/with statement opened by ``ins``; return the
        index where control continues after it, or an ``Exit``."""
        self.fail("old-style exception blocks are not supported yet", ins.index)
