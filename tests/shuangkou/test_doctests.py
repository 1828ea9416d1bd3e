"""The examples in the 双扣 docstrings run as written, and public objects pickle."""

from __future__ import annotations

import doctest
import importlib
import pickle

import pytest

MODULES = [
    "engines.shuangkou",
    "engines.shuangkou.cards",
    "engines.shuangkou.rules",
    "engines.shuangkou.game",
    "engines.shuangkou.batch",
    "engines.shuangkou.conformance",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    assert result.attempted > 0 and result.failed == 0


def test_public_objects_pickle() -> None:
    from engines.shuangkou import Card, Policy, classify, round_result, trick_next

    for obj in (Card.parse("S10"), Policy("straight", (4, 2, 1)), classify("S3 S3"),
                trick_next([0, 1, 3], 2, [3]), round_result([1, 0, 3])):
        assert pickle.loads(pickle.dumps(obj)) == obj
