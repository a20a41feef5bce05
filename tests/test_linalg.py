"""Matrix products (minigrad/ops/linalg.py): PyTorch has no bool kernel for them (its error
names the kernel; empty products but ``dot`` return before it)."""

import re

import pytest
from parity_expr import agree

BOOL_PRODUCTS = [  # B(shape): a bool tensor of ones
    "B(2) @ B(2, 3)", "B(2, 2, 2) @ B(2, 2, 2)", "B(2, 2, 2) @ B(2)", "B(2) @ B(2, 2, 3)",
    "B(2, 2) @ B(2, 2, 2)", "B(2, 0) @ B(0, 2)", "B(0, 2) @ B(2)", "B(0) @ B(0)",
    "B(2, 2, 2).bmm(B(2, 2, 2))", "B(2, 0) @ B(0)", "B(1, 2, 2, 2) @ B(1, 2, 2, 2)",
    "B(0, 2, 2) @ B(0, 2, 2)", "B(2, 0).mm(B(0, 2))", "B(2, 0).mv(B(0))", "B(0).dot(B(0))",
    "B(1).dot(B(1))", "B(2, 2).mm(B(2, 2))", "B(2, 2).mv(B(2))",
    "T.addmm(B(2, 2), B(2, 2), B(2, 2))",
]


@pytest.mark.parametrize("src", BOOL_PRODUCTS)
def test_bool_products_raise_as_torch(oracle, src):
    agree(oracle, re.sub(r"B\(([^)]*)\)", r"T.ones(\1, dtype=T.bool)", src))
