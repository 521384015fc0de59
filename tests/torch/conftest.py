import pytest


@pytest.fixture(autouse=True)
def fresh_dynamo():
    """Every torch test starts and ends with empty Dynamo caches and default config."""
    import torch
    torch._dynamo.reset()
    with torch._dynamo.config.patch(automatic_dynamic_shapes=True):
        yield
    torch._dynamo.reset()
