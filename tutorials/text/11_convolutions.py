# %% [markdown]
# # 11 · Convolutions: what they compute, and what flows back
#
# **The question:** a convolution layer slides a small kernel over an image. What does its
# node in the graph do with the gradient — where does the gradient of the kernel come from,
# and how does the gradient reach the image? We answer it on one small convolution, step
# through its backward in the stepper, then train a small convolutional network on images we
# generate ourselves.
#
# About 15 minutes.

# %%
import numpy as np
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

nn = torch.nn
F = torch.nn.functional
torch.set_printoptions(precision=2)

# %% [markdown]
# ## One convolution, by hand and by `F.conv2d`
#
# A 5×5 image and a 3×3 kernel. Each output pixel is the sum of the kernel times the 3×3
# window of the image under it (PyTorch's "convolution" does not flip the kernel: it is a
# cross-correlation). A 5×5 image has 3×3 such windows, so the output is 3×3. Shapes are
# (batch, channels, height, width).

# %%
image = (torch.arange(25.0) % 7).view(1, 1, 5, 5)
kernel = torch.tensor([[1.0, 0.0, -1.0],
                       [2.0, 0.0, -2.0],
                       [1.0, 0.0, -1.0]]).view(1, 1, 3, 3)   # responds to left-right change

by_hand = torch.zeros(3, 3)
for i in range(3):
    for j in range(3):
        window = image[0, 0, i:i + 3, j:j + 3]
        by_hand[i, j] = (window * kernel[0, 0]).sum()

print(by_hand)
print(F.conv2d(image, kernel)[0, 0])

# %% [markdown]
# minigrad computes it as PyTorch's CPU code does, without the two loops: every window is laid
# out as one column of a matrix ("im2col"), and one matrix product multiplies them all by the
# kernel at once.
#
# ## Its node in the graph
#
# With a kernel and a bias that require grad, the whole convolution is **one** node,
# `ConvolutionBackward0`, with three edges: to the input, the weight and the bias. The image
# is data (a constant), so its edge is empty.

# %%
w = kernel.clone().requires_grad_()
b = torch.zeros(1, requires_grad=True)
out = F.conv2d(image, w, b)
loss = (out * out).sum() / 100
viz.draw(loss, show_saved=True)

# %% [markdown]
# ## Stepping through its backward
#
# Record the backward pass and step through it, one node per frame. `DivBackward0`,
# `SumBackward0` and `MulBackward0` hand a 3×3 gradient (one number per output pixel) to
# `ConvolutionBackward0`; the convolution's node turns it into a 3×3 gradient for the kernel
# and a single number for the bias, and a 5×5 one for the image; three AccumulateGrad nodes
# write them into `.grad`.

# %% tags=["export"]
image_in = image.clone().requires_grad_()    # now the image wants a gradient too
with record() as rec:
    out = F.conv2d(image_in, w, b)
    loss = (out * out).sum() / 100
    loss.backward()

viz.Stepper(rec, granularity="node", show_saved=True)

# %% [markdown]
# What did the convolution's node compute? Call the incoming gradient `g` (∂loss/∂out, 3×3):
#
# * **kernel:** `w[0, 0][a, b]` multiplied every pixel `image[i + a, j + b]`, so its gradient
#   is Σ over the outputs of `g[i, j] · image[i + a, j + b]` — the image convolved with `g`
#   as the kernel;
# * **bias:** it was added to every output pixel, so its gradient is `g.sum()`;
# * **image:** each pixel sends back `g` times the kernel entries that touched it — a
#   *transposed* convolution of `g` with the same kernel (each `g[i, j]` adds a copy of the
#   kernel, scaled by it, to the image).
#
# The gradients of a convolution are convolutions again. Checked against `.grad`:

# %%
g = 2 * out.detach() / 100                     # ∂loss/∂out for loss = Σ out² / 100
print(torch.allclose(w.grad, F.conv2d(image, g)))
print(torch.allclose(b.grad, g.sum().view(1)))
print(torch.allclose(image_in.grad, F.conv_transpose2d(g, w.detach())))

# %% [markdown]
# That is also why `create_graph=True` works through convolutions (tutorial 7): the backward
# is built from the same ops, so it can be differentiated again.
#
# ## Pooling: the gradient goes to the winner
#
# `F.max_pool2d(x, 2)` keeps the largest value of each 2×2 block. In backward, each block's
# gradient goes to the one pixel that won; the other three get zero. `F.avg_pool2d` would
# share it equally instead.

# %%
x = torch.tensor([[1.0, 5.0, 2.0, 0.0],
                  [3.0, 2.0, 1.0, 4.0],
                  [0.0, 1.0, 7.0, 2.0],
                  [6.0, 2.0, 3.0, 3.0]]).view(1, 1, 4, 4).requires_grad_()
pooled = F.max_pool2d(x, 2)
print(pooled)
pooled.grad_fn

# %% [markdown]
# ## A small network on generated images
#
# Three kinds of 12×12 noisy images: a horizontal bar (label 0), a vertical bar (1) or a
# diagonal (2), of random length and place. We make them with NumPy: nothing is downloaded.

# %%
def make_bars(n=300, size=12, seed=0):
    """``n`` noisy images with one bar each, and their labels."""
    rng = np.random.default_rng(seed)
    images = rng.normal(0.0, 0.3, (n, 1, size, size)).astype(np.float32)
    labels = rng.integers(0, 3, n)
    for picture, label in zip(images[:, 0], labels):
        length = rng.integers(5, size - 1)
        row, col = rng.integers(0, size - length + 1, 2)
        at = rng.integers(1, size - 1)
        steps = np.arange(length)
        if label == 0:
            picture[at, col + steps] += 1.0          # horizontal
        elif label == 1:
            picture[row + steps, at] += 1.0          # vertical
        else:
            picture[row + steps, col + steps] += 1.0  # diagonal
    return torch.tensor(images), torch.tensor(labels)

train_x, train_y = make_bars()
test_x, test_y = make_bars(200, seed=1)
print(train_x.shape, train_y[:10])

# %% [markdown]
# The network: four 3×3 kernels (12×12 → 10×10), ReLU, a 2×2 max pool (→ 5×5), and one
# linear layer from the 4·5·5 = 100 pooled values to 3 scores.

# %%
class BarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 5 * 5, 3)

    def forward(self, images):
        return self.fc(self.pool(self.conv(images).relu()).flatten(1))

torch.manual_seed(0)
model = BarNet()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model

# %% [markdown]
# One loss, drawn with each module call as one box:

# %%
loss = loss_fn(model(train_x), train_y)
viz.draw(loss, collapse="modules")

# %%
for step in range(150):
    optimizer.zero_grad()
    loss = loss_fn(model(train_x), train_y)
    loss.backward()
    optimizer.step()
    if step % 25 == 0:
        print(f"step {step:3d}   loss {loss.item():.3f}")

with torch.no_grad():
    accuracy = (model(test_x).argmax(dim=1) == test_y).float().mean().item()
print(f"accuracy on 200 new images: {accuracy:.0%}")

# %% [markdown]
# What did the four kernels learn? Each is a 3×3 pattern detector; look for rows, columns or
# diagonals of large weights.

# %%
model.conv.weight.detach().view(4, 3, 3)

# %% [markdown]
# ## Exercises
#
# **11a.** What is the shape of `nn.Conv2d(3, 8, 5, stride=2, padding=1)(torch.zeros(1, 3, 32,
# 32))`? Predict it from the rule: out = ⌊(in + 2·padding − kernel) / stride⌋ + 1, per side.

# %% tags=["exercise-11a"]
shape = ...   # your answer: a list of four numbers

# %% tags=["check-11a"]
check("11a", shape)

# %% [markdown]
# **11b.** For the 4×4 `x` of the pooling section, what is `x.grad` after
# `F.max_pool2d(x, 2).sum().backward()`? Give it as a 4×4 list of lists.

# %% tags=["exercise-11b"]
x_grad = ...   # your answer: a list of four rows of four numbers

# %% tags=["check-11b"]
check("11b", x_grad)

# %% [markdown]
# ## What you saw
#
# * A convolution is one node, `ConvolutionBackward0`, with edges to input, weight and bias.
# * Its backward is made of convolutions: the kernel's gradient correlates the input with the
#   incoming gradient; the input's gradient is a transposed convolution with the same kernel.
# * Max pooling sends each block's gradient to its largest element only.
