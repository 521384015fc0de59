"""The bundled example: one frame, several cache entries.

Run by ``make demo``. With unveil's dump available it writes the dump of this
program to the directory given as the first argument (default ``demo_dump``).
"""
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
    try:
        ctx = unveil.prepare_debug(dump_dir)
    except NotImplementedError:
        ctx = None
    if ctx is None:
        # the dump is not available yet: show the decompiler on Dynamo's code
        f(x, 1); f(x, 2); f(x, 3)
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
        for k, entry in enumerate(_debug_get_cache_entry_list(f._torchdynamo_orig_callable.__code__)):
            print("# cache entry %d" % k)
            print(unveil.decompile(entry.code))
        return
    with ctx:
        print(f(x, 1), f(x, 2), f(x, 3))
    print("unveil: dump written to %s" % dump_dir)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "demo_dump")
