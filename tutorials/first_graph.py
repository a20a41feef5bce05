"""A first graph to draw from the shell (see the README):

    minigrad-viz render tutorials/first_graph.py --var loss -o build/first_graph.svg
    minigrad-viz render tutorials/first_graph.py --var loss --view forward --grads -o build/values.svg

Swap the import for ``import torch`` and it runs unchanged under PyTorch.
"""

import minigrad as torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = torch.tanh(x * w)
h.retain_grad()
loss = (h ** 2).sum()
loss.backward()
print("loss =", loss.item())
print("x.grad =", x.grad)
