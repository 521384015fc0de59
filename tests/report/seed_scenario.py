"""The seed scenario with a graph break: one function, three entries (one per value of b),
each split by a print() into a graph and a resume function.

Run as ``python seed_scenario.py DIR`` (or under ``unveil run``); the report tests dump it.
"""
import sys

import torch

import unveil

torch._dynamo.config.automatic_dynamic_shapes = False


@torch.compile(backend="aot_eager")
def f(a, b):
    y = a + b
    print("graph break here")
    return y * 2


def calls():
    x = torch.tensor([1.0])
    return [f(x, 1), f(x, 2), f(x, 3)]


if __name__ == "__main__":
    if len(sys.argv) > 1:
        with unveil.prepare_debug(sys.argv[1]):
            calls()
    else:
        calls()
