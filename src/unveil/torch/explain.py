"""Placeholder until its issue lands."""


def _missing(*args, **kwargs):
    raise NotImplementedError("unveil.torch.explain is not implemented yet")


explain = _missing
