"""Functions that break Dynamo's graph mid-way, for the naming and guard tests: their line numbers
are read from their source (``line_of``), so editing this file does not break the tests."""
import inspect

import torch


def normalize(x):
    m = x.mean()
    print("graph break here")
    if m.item() > 0.5:
        return x - m
    return x + m


def add_scaled(x, y):
    s = x.sum()
    return torch.add(s * 2, max(y.item(), 3))


def branch(a, b):
    x = a.sum()
    if x > 0:  # a data-dependent branch: one resume function per way it goes
        return a * b
    return a - b


def add(a, b):
    return a + b


def line_of(fn, text):
    """The line number of the first line of ``fn``'s source that holds ``text``."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line)
