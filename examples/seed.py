"""The bundled example: one frame, several cache entries.

Run by ``make demo``: writes what torch.compile did to this program into the
directory given as the first argument (default ``demo_dump``).
"""
import os
import sys

import torch

import unveil

# One entry per value of b (1, 2, 3), so the dump shows three guarded entries.
torch._dynamo.config.automatic_dynamic_shapes = False


@torch.compile
def f(a, b):
    return a + b


def main(dump_dir):
    x = torch.tensor([1.0])
    with unveil.prepare_debug(dump_dir):
        print(f(x, 1), f(x, 2), f(x, 3))
    print("unveil: dump written to %s" % os.path.abspath(dump_dir))
    print("unveil: start with %s" % os.path.join(os.path.abspath(dump_dir), "README.md"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "demo_dump")
