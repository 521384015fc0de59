"""Functions with asserts for test_asserts.py (outside a test module: pytest
rewrites the asserts of test modules)."""


def plain_assert(x, log):
    assert x


def assert_message(x, log):
    assert x > 0, "x must be positive %r" % (x,)


def assert_chain(x, log):
    assert 0 <= (log.append(x) or x) < 10


def assert_or(x, log):
    assert x > 5 or x < -5, "m"


def assert_in_loop(x, log):
    for i in range(2):
        assert x, i
        log.append(i)


def assert_false(x, log):
    # the compiler folds the test away: no jump, only the raise of LOAD_ASSERTION_ERROR
    assert False, "unreachable %r" % (x,)


def if_raise(x, log):
    if not x:
        raise AssertionError


def if_raise_message(x, log):
    if x <= 0:
        raise AssertionError("x")


def assert_reads_deleted_cell(x, log):
    # under -O the whole assert is skipped: the deleted cell x is never read
    def h():
        return x
    del x
    if log is not None:
        assert 0, (x, 2 if log else 3)
    return "done"


def if_then_assert(x, log):
    # python -O drops the assert, not the if's test (which logs)
    if log.append("test") or x < 100:
        assert x, "m"
    return log


def if_then_assert_or(x, log):
    # the assert's own test is an ``or``: only its operands are on the assert's line
    if log.append("test") or x < 100:
        assert x or log.append("x"), "m"
    return log


def if_and_then_assert_and(x, log):
    if log.append("test") or x < 100 and x > -100:
        assert not x and log.append("x")
    return log


def if_chain_then_assert(x, log):
    # the if's chained comparison jumps over its cleanup to the assert
    if 0 <= (log.append("test") or x) < 100:
        assert not x, "m"
    return log
