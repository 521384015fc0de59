"""3.12+ inlined comprehensions (PEP 709): ``LOAD_FAST_AND_CLEAR`` saves the
loop variables, the comprehension runs in the function's own frame, and the
saved values are restored after it.

A mixin of :class:`structure.Structurer`: the walker calls
``inlined_comprehension`` at a ``LOAD_FAST_AND_CLEAR``.
"""


class InlinedComprehensions:
    def inlined_comprehension(self, ins, frame, region, loop):
        """Fold the inlined comprehension starting at ``ins`` into one
        expression on ``frame``'s stack; return the index after it."""
        self.fail("inlined comprehensions are not supported yet", ins.index)
