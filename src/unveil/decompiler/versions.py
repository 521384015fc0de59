"""What differs between the bytecode of CPython 3.8-3.15, named once.

Every ``sys.version_info`` test of the reading and of the expression building is here: ``PY``
itself is read only where the reading settles what is a matter of spelling (instructions.py,
disassembly.py, read_*.py); a flag names a fact about what the compiler of the running
interpreter emits (``COPIES_EXIT_BLOCKS``: 3.10+ copies the implicit ``return None`` into
each branch); the reader, the expression builders (expr_*.py) and the structurer ask the
flag, never the version. The opcode tables that exist on some versions only
(``LOAD_COMMON_CONSTANT``'s constants, 3.13+'s superinstructions) are here as well.
"""
import sys

PY = sys.version_info[:2]

# -- what the reader settles ----------------------------------------------------------------

#: 3.14+ keeps some values as two stack entries where earlier versions keep one (slots.py)
HIDES_SLOTS = PY >= (3, 14)

#: 3.13+ loads a cell itself (for a closure tuple) with LOAD_FAST, as LOAD_CLOSURE did
LOADS_CELLS_WITH_LOAD_FAST = PY >= (3, 13)

#: 3.14+ threads an and/or's jump past the enclosing or/and's test that its value is sure
#: to fail, as <=3.11 did (see read_rewrites.unthread_known_truth)
THREADS_DECIDED_TESTS = PY >= (3, 14)

#: 3.14 leaves the test of an and/or operand out of the exception table when that and/or is
#: itself an operand of the same operator, and not its last (``(a or b) or c``: an exception
#: from ``bool(a)`` skips the handler around it; CPython 3.14.10's compiler, 3.13 and 3.15 cover
#: it). The text must nest such an and/or for the recompiled code to do the same (see
#: read_rewrites.nested_operand_tests).
LEAVES_NESTED_TESTS_UNCOVERED = PY == (3, 14)

#: 3.15 calls a generator expression's function with the outermost iterable itself, and
#: the generator gets its iterator (``LOAD_FAST .0; GET_ITER`` before RETURN_GENERATOR); so
#: does a list/set/dict comprehension the compiler does not inline (in an annotation scope)
GENEXPR_GETS_ITS_ITERATOR = PY >= (3, 15)

#: 3.14+ (PEP 649): a module's annotations (a class body's, when one of them is under an if or
#: a try) are those whose statement has run: the body makes a set (``BUILD_SET 0; STORE_NAME
#: __conditional_annotations__``, read as <=3.13's SETUP_ANNOTATIONS) and adds each annotated
#: statement's number to it after the statement (``LOAD_NAME __conditional_annotations__;
#: LOAD_CONST n; SET_ADD 1; POP_TOP``, read as ``ANNOTATED n``); its ``__annotate__`` function
#: returns the annotations whose number is in the set
MARKS_CONDITIONAL_ANNOTATIONS = PY >= (3, 14)

#: 3.15 (PEP 810): IMPORT_NAME's argument is the name's index above two flags: 1, a ``lazy
#: import``, read as LAZY_IMPORT_NAME; 2, an import the compiler keeps eager whatever
#: ``__lazy_modules__`` says (in a function, a class body, a try, ``import *``), which follows
#: from where the statement stands
MARKS_LAZY_IMPORTS = PY >= (3, 15)

#: 3.12+: LOAD_ASSERTION_ERROR carries the assert statement's first line (before: the
#: line the compiler last visited, where the assert's test ended)
ASSERT_ERROR_ON_STATEMENT_LINE = PY >= (3, 12)

# -- what the expression builders and the structurer ask ---------------------------------------

#: 3.10+ copies small exit blocks (the implicit ``return None``) into every
#: branch that reaches them; before, such a ``return`` in a branch was source.
COPIES_EXIT_BLOCKS = PY >= (3, 10)

#: 3.10+ optimizes the value of a walrus (constant folding, a list display as a
#: ``for``'s iterable or ``in``'s operand made a tuple) as any other; 3.8/3.9 leave
#: everything under a ``NamedExpr`` as written.
OPTIMIZES_WALRUS_VALUE = PY >= (3, 10)

#: <=3.10: a conditional jump falling into a lone jump is an if statement
#: whose body is that jump (``pass``, ``continue``, ``break``); ``and``/``or``
#: never lay out so. 3.11+ may end an ``and``/``or`` link with such a jump.
LONE_JUMP_IS_BODY = PY <= (3, 10)

#: <=3.10: a ``while c:`` loop's body is where its test falls through; a
#: test that falls into the way out is an ``if`` in a ``while True:`` body.
WHILE_BODY_FALLS_FROM_TEST = PY <= (3, 10)

#: 3.10+ drops an and/or that its constant first operand decides (``(1 or x)`` is ``1``),
#: after the constant folding of the source: an operation on its value stays in the bytecode.
DROPS_DECIDED_BOOL_OPS = PY >= (3, 10)

#: 3.10+ compiles ``while c:`` with a copy of its test at the bottom of the body, where
#: the body's end falls (or jumps); only a written ``continue`` jumps to the top test.
WHILE_TEST_COPIED_AT_BOTTOM = PY >= (3, 10)

#: <=3.10: ``break`` out of a for loop drops the iterator (``POP_TOP``) right
#: before its jump; a jump out of the body without it goes to code that drops
#: it itself (a ``return`` the jump was threaded to).
BREAK_POPS_ITERATOR = PY <= (3, 10)

#: 3.11+ compiles ``'%s-%r' % (a, b)`` (a str constant, a tuple display, only
#: %s/%r/%a) as an f-string: each value is formatted before the next is computed.
#: A ``%`` the bytecode does as an operator must not be printed in that form.
FOLDS_PERCENT_FORMAT = PY >= (3, 11)

#: 3.12+ moves exception handlers (cold code) to the end of the function, in
#: the order they were compiled: a try's else clause and the code after the
#: statement then both follow the body, and only the place of their own
#: handlers (before or after the try's) tells them apart.
HANDLERS_LAID_OUT_LAST = PY >= (3, 12)

#: 3.13 drops a store to a local that the next store to it overwrites: the values of
#: ``x, x = a, b`` are stored as ``STORE_FAST x; POP_TOP`` (``x, y, y = a, b, c`` as
#: ``STORE_FAST y; POP_TOP; STORE_FAST x``), the dropped value popped after its twin.
DROPS_OVERWRITTEN_STORE = PY >= (3, 13)

#: 3.14 folds a slice whose bounds are all constants in the source into one slice constant:
#: BINARY_SLICE/STORE_SLICE of constant bounds came from bounds the compiler folded later (``a[0 + 2:]``)
FOLDS_CONSTANT_SLICES = PY >= (3, 14)

#: 3.10+ compiles a call whose positional arguments plus twice its keyword arguments exceed
#: this many stack slots as a star call (CALL_FUNCTION_EX), keywords built with BUILD_MAP 0 +
#: MAP_ADD when there are more than half as many (CPython's STACK_USE_GUIDELINE); None: never.
CALL_STACK_GUIDELINE = 30 if PY >= (3, 10) else None

# -- opcode tables of some versions -------------------------------------------------------------

#: 3.14+: what LOAD_COMMON_CONSTANT's argument names
COMMON_CONSTANTS = tuple(getattr(__import__("opcode"), "_common_constants", ()))

#: 3.13+'s superinstructions and the two instructions each does (the compiler fuses two only
#: on one line: whether they are fused says where lines break, not what the code does)
SUPERINSTRUCTIONS = {"LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
                     "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ("LOAD_FAST", "LOAD_FAST"),
                     "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
                     "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST")}


def common_constant(arg):
    """(the value, the builtin's name or None) that ``LOAD_COMMON_CONSTANT arg`` loads: a
    builtin (AssertionError, all, ...) has its name; 3.15's literals (None, '', -1, ...) none."""
    value = COMMON_CONSTANTS[arg]
    literal = value is None or isinstance(value, (bool, int, str))
    return value, None if literal else value.__name__
