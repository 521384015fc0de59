"""The walk state: what every construct of the structurer is given.

A construct is a function ``f(w, ...)`` of a :class:`Walk` and of what its caller hands it (the
block or index it starts at, the :class:`~..expressions.Frame` it writes statements into, the
region its walk may not leave, the innermost loop); it returns what it built (an index to go on
from, or an :class:`~.regions.Exit`). The fields below are everything constructs share, in four
groups: the code (never changes), the walk's entry points, what the walk is inside (changes as it
goes, and a :class:`Snapshot` saves it for the walks that may be undone), and answers kept
so that a question asked again costs nothing.
"""
from contextlib import contextmanager
from typing import Callable

from ..cfg import CFG, Block
from ..errors import DecompilationError
from .condition_parts import condition_starts, for_iter_starts
from .statement_parts import assert_tests_under_if


class Walk:
    """The state of structuring one code object.

    The code: ``ctx`` (:class:`~..function.Context`), ``program`` (the instruction stream of
    :mod:`..instructions`), ``instrs`` and ``n`` (its instructions and their count), ``cfg`` (its
    :class:`~..cfg.CFG`, split also where a condition or a for loop starts), ``assert_tests``
    (the indices of the tests of ``assert`` statements under an ``if``).

    The entry points (set by :func:`.walk.structure`, so that no construct imports walk.py):
    ``walk(start, frame, region, loop)`` structures from ``start`` until control leaves
    ``region``; ``block(block, frame, region, loop)`` runs one block's plain steps and the
    construct that ends it; ``transfer(target, ...)`` says what a jump to ``target`` means
    (``break``, ``continue``, the end of a branch); ``special`` maps an instruction name to its
    handler (``PUSH_EXC_INFO``, the <=3.10 block-stack instructions).

    The walk's state and answers are fields set here, each with the function that fills it.
    """

    def __init__(self, ctx, program):
        # -- the code
        self.ctx = ctx
        self.program = program
        self.instrs = program.instrs
        self.cfg = CFG(program, condition_starts(program) | for_iter_starts(program))
        self.n = len(self.instrs)
        self.assert_tests = assert_tests_under_if(self.instrs)
        # (match_finally_copy skips a CLEANUP_THROW in an inlined copy: no window lookup then)
        self._has_cleanup_throw = any(x.op == "CLEANUP_THROW" for x in self.instrs)
        # (short_circuit_ahead looks for one in each block it passes: none before 3.12)
        self._has_clear = any(x.op == "LOAD_FAST_AND_CLEAR" for x in self.instrs)
        # -- the entry points (walk.structure sets them)
        self.walk = self.block = self.transfer = self.special = None
        # -- what the walk is inside
        self.active_loops = set()  # headers of the loops being structured
        self.active_latches = set()  # starts of the bottom tests of the loops being structured
        self.active_handlers = set()  # handlers of the try statements met so far
        self.open_tries = set()  # of those, the ones being structured now
        self.finally_copies = {}  # start index of an inlined finally body -> index after the copy
        self.copies_version = 0  # bumped whenever finally_copies changes (after_finally_copy's cache)
        self.dead_end_copies = {}  # start of a copy of a finally body that never completes -> handler
        self.matches_being_read = set()  # see match.match_op
        self.guard_frame = None  # the frame of the case guard being read (see match_facts)
        self._resumes = (None, None)  # see finally_copies.copy_resumes
        self._one_pass_exit = None  # see tries.finally_body
        self._clause_tails = {}  # see clause_tails: index -> the clause's stack depth
        # (frame, kept operand) of the walks over a chained comparison's next
        # operand (chain_operand): the walk ends at the comparison with it
        self._stops = []
        # where a walk for a branch's value halts mid-block (value_up_to): the
        # start of the copied code that goes on with that value
        self._halt = None
        self._value_branch_at = None  # see branches.value_branch
        self._reducing = False  # see conditions.reduced_condition
        self._loopless_tries = 0  # see walk.loopless_while_ends
        # -- answers kept
        self._handler_chains = {}  # handler -> handler_chain's answer
        self._handler_kinds = {}  # handler -> handler_kind's answer
        self._doms = {}
        self._reduced = {}  # see reduced_condition
        self._reduced_below = set()
        self._only_tests = {}  # see only_tests_jump_to
        self._value_joins = {}  # see conditional_value_join
        self._copy_windows = {}  # see finally_copy_starts
        self._pred_span = {}  # see pred_outside_extent
        self._loop_headers = {}  # see is_loop_header
        self._enters_comprehension = {}  # see enters_inlined_comprehension
        self._inner_loop_at = {}  # header -> its back edges of a loop inside (see inner_loop_sources)
        # (filled when first asked: None until then)
        self._jump_joins = None  # see walk.jump_joins_after
        self._return_joins = None  # see branch_facts.return_joined_from_before
        self._reachable = None  # see loop_facts.leaves_loop_as_expected
        self._handler_at = None  # see finally_copies.program_handler
        self._lblocks = self._lv38 = None  # see legacy_facts.legacy_state
        self._ltargets = None  # see legacy_facts._legacy_copy_pattern
        self._async_sources = None  # see jumps._jump_sources
        self._ranges_by_target = self._entry_reaches = None  # see async_facts._ranges_to, _normally_reachable
        # -- the <=3.10 block stack and async loops, as the walk meets them
        self._lfollows = set()  # see legacy_facts.legacy_register
        self._lstops = []  # see legacy._legacy_clauses
        self._async_exits = set()  # END_ASYNC_FOR indices of structured loops (async_facts.async_state)
        self._loopless = set()  # (start, join) of the loopless while loops being tried (walk.loopless_while)


class Snapshot:
    """What a walk changes of the walk state that outlives it (the try statements and finally
    copies it met; the loops, latches and tries it is inside, which a walk that fails half way
    leaves as they were only if each construct puts them back), saved so that a walk whose
    result is dropped can be undone (one of the choices listed in docs/decompiler.md). :meth:`restore` may be
    called more than once: each time the state is as it was when saved."""

    def __init__(self, w):
        self.w = w
        self.saved = (set(w.active_loops), set(w.active_handlers), set(w.open_tries),
                      dict(w.finally_copies), set(w.active_latches))

    def restore(self):
        w = self.w
        loops, handlers, tries, copies, latches = self.saved
        (w.active_loops, w.active_handlers, w.open_tries, w.finally_copies,
         w.active_latches) = set(loops), set(handlers), set(tries), dict(copies), set(latches)
        w.copies_version += 1


@contextmanager
def undone(w):
    """A trial whose walk is always undone: only its answer is kept."""
    snapshot = Snapshot(w)
    try:
        yield
    finally:
        snapshot.restore()


def dominated_by(w, head: Block) -> Callable[[int], bool]:
    """Whether the block starting at an index is dominated by ``head``
    (False for an index inside a block)."""
    at, dominates = w.cfg.block_at.get, w.cfg.dominates

    def test(i):
        b = at(i)
        return b is not None and dominates(head, b)
    return test


def fail(w, msg, index):
    ins = w.instrs[index] if 0 <= index < w.n else None
    raise DecompilationError(msg, w.ctx.name, ins.offset if ins else None,
                             ins.op if ins else None)
