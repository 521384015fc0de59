"""Differential cases for chained comparisons and the values kept on the stack
around them (issue 11's refusals: "unrecognised chained comparison", "chained
comparison that could not be merged", "an expression would be evaluated more
than once") and for an if's test next to the assert it holds, each the shrunk
reproducer the fuzzer (bench/fuzz.py) found, on the versions named."""
from drive import sends

ABCL = [(0, 1, 2, None), (1, 1, 0, None), (2, 0, -1, None), (3, 5, 3, None), (-1, 2, 2, None)]
CASES = []


# ``return x and y`` inside a for loop: the value's way out drops the iterator
# below it (``SWAP 2; POP_TOP``) like a chained comparison drops its kept
# operand (3.12+: "unrecognised chained comparison")
def and_returned_in_for_loop(a, b, c, log):
    for i in [a, b]:
        return i and len([c])


def or_returned_in_for_loop(a, b, c, log):
    for i in [a, b]:
        return not c or -i


CASES += [
    (and_returned_in_for_loop, ABCL),
    (or_returned_in_for_loop, ABCL),
]
