"""Structuring of ``match`` statements (3.10+).

A mixin of :class:`structure.Structurer`. Two entry points:
``match_op`` for the instructions in ``MATCH_OPS`` met by ``block()``, and
``match_branch``, asked first by ``branch()`` for every conditional jump
(return None to let the ordinary ``if`` structuring proceed).
"""

#: instructions that ``Structurer.block()`` hands to ``match_op``
MATCH_OPS = frozenset()


class MatchStatements:
    def match_op(self, ins, frame, region, loop):
        self.fail("match statements are not supported yet", ins.index)

    def match_branch(self, block, frame, region, loop):
        return None
