"""The differential harness itself: a log of effects passed in must be compared run
against run, not shared by both runs (the comparison would see one list twice)."""
from harness import outcome, separate_copies


def _forward(log):
    log.append(1)
    log.append(2)
    return log


def _backward(log):
    log.append(2)
    log.append(1)
    return len(log)


def test_effects_on_an_argument_in_another_order_differ():
    mine, theirs = separate_copies(([],))
    assert mine[0] is not theirs[0]
    assert outcome(_forward, mine) != outcome(_backward, theirs)


def test_effects_on_an_argument_are_compared_even_when_not_returned():
    mine, theirs = separate_copies(([],))
    assert outcome(lambda log: log.append(1), mine) != outcome(lambda log: log.append(2), theirs)


class _ByIdentity:
    pass


def test_objects_compared_by_identity_are_shared():
    obj = _ByIdentity()
    mine, theirs = separate_copies((obj,))
    assert mine[0] is obj and theirs[0] is obj
