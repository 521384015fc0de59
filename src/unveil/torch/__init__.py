"""Everything in unveil that knows about torch. Imports torch lazily."""
import sys

#: the newest Python torch.compile runs on (torch 2.13); the decompiler needs no torch
NEWEST_PYTHON_FOR_TORCH_COMPILE = (3, 14)


def require_torch(what: str):
    """``torch``, imported; else an ImportError that names what needs it, and why it may be
    missing (a Python that torch.compile does not run on)."""
    try:
        import torch
    except ImportError as e:
        if sys.version_info[:2] > NEWEST_PYTHON_FOR_TORCH_COMPILE:
            hint = ("torch.compile does not run on Python %d.%d (torch 2.13 supports up to %d.%d); "
                    "the decompiler (unveil.decompile, `unveil decompile`) works without torch"
                    % (sys.version_info[:2] + NEWEST_PYTHON_FOR_TORCH_COMPILE))
        else:
            hint = "pip install torch"
        raise ImportError("%s needs torch, which is not installed: %s" % (what, hint)) from e
    return torch
