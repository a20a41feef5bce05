"""``Tensor``: a NumPy array plus what autograd needs to know about it.

Arithmetic and the other differentiable methods are thin: each calls one op of ``minigrad.ops``.
"""

import numbers
import operator
import warnings
import weakref

import numpy as np

from minigrad import _device, _dtype
from minigrad import grad_mode as _grad_mode
from minigrad.autograd import api, inference
from minigrad.autograd.node import AccumulateGrad, _add_hook

__all__ = ["Tensor", "Size", "typename"]

_inference_blocks = _grad_mode.inference_blocks

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")

REQUIRES_GRAD_NON_LEAF = "you can only change requires_grad flags of leaf variables."
REQUIRES_GRAD_NON_LEAF_FALSE = (
    REQUIRES_GRAD_NON_LEAF + " If you want to use a computed variable in a subgraph that doesn't "
    "require differentiation use var_no_grad = var.detach().")
ONLY_FLOAT_GRAD = "only Tensors of floating point dtype can require gradients"
# PyTorch words it differently in the setter and in factories (``requires_grad=True``).
ONLY_FLOAT_GRAD_SETTER = "only Tensors of floating point and complex dtype can require gradients"
ONLY_FLOAT_GRAD_FACTORY = "Only Tensors of floating point and complex dtype can require gradients"


# PyTorch names the dtypes in the message below by their C++ type and their ScalarType.
# What a Python operator takes (anything else: NotImplemented, so that Python raises its own
# TypeError, as PyTorch's operators do); NumPy arrays go on to NumPy's reflected operator.
# (NumPy's then converts the tensor with ``__array__`` and ``__array_wrap__`` makes its result a
# tensor: NumPy's dtypes and values, as in PyTorch; ``==`` and ``!=`` take an array themselves).
_OPERANDS = (numbers.Number, np.bool_)  # and Tensor: added below its class
MISSING = object()  # an argument left out (PyTorch's TypeError then names it)
_MASKED_FILL_FORMS = ("Tensor mask, Tensor value", "Tensor mask, Number value")

_CPP_TYPE_NAMES = {"float32": ("float", "Float"), "float64": ("double", "Double"),
                   "float16": ("c10::Half", "Half"), "int64": ("long int", "Long"),
                   "int32": ("int", "Int"), "int16": ("short int", "Short"),
                   "int8": ("signed char", "Char"), "uint8": ("unsigned char", "Byte"),
                   "bool": ("bool", "Bool")}


def _grad_dtype_message(grad, tensor):
    def names(t):
        return _CPP_TYPE_NAMES.get(t._data.dtype.name, (t._data.dtype.name,) * 2)
    return (f"attempting to assign a gradient with dtype '{names(grad)[0]}' to a tensor with "
            f"grad_dtype '{names(tensor)[1]}'. The gradient must match the tensor's grad_dtype "
            "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute "
            "with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. "
            "Diverging the dtypes of a tensor and its gradient may break downstream systems "
            "that assume they match.")


def _read_only(name):
    """The setter of an attribute the user may not set (PyTorch's error)."""
    def refuse(self, value):
        raise AttributeError(f"attribute '{name}' of 'minigrad.Tensor' objects is not writable")
    return refuse


class Size(tuple):  # (named "minigrad.Size" below: Python's errors print torch.Size so)
    """The shape of a tensor: a tuple of ints that prints as ``minigrad.Size([2, 3])``.

    Example:
        >>> minigrad.zeros(2, 3).shape
        minigrad.Size([2, 3])
    """

    __slots__ = ()

    def __new__(cls, sizes=()):
        items = []
        for i, s in enumerate(sizes):
            try:
                items.append(operator.index(s))
            except TypeError:
                raise TypeError(f"minigrad.Size() takes an iterable of 'int' (item {i} is "
                                f"'{type(s).__name__}')") from None
        return super().__new__(cls, items)

    def __repr__(self):
        return f"minigrad.Size({list(self)})"

    def __getitem__(self, index):
        item = super().__getitem__(index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __mul__(self, times):
        return Size(tuple(self) * times)

    __rmul__ = __mul__

    def numel(self):
        """The number of elements of a tensor of this shape."""
        return int(np.prod(self, dtype=np.int64))


Size.__name__ = "minigrad.Size"  # (__qualname__ stays "Size": pickle finds it by that)

_UNDELETABLE = {  # PyTorch's errors for ``del tensor.<name>``
    "data": "Deleting tensor data is not allowed. Delete tensor instead!",
    "requires_grad": "requires_grad must be a bool",
    "_grad_fn": "Deletion of _grad_fn not allowed. Detach tensor instead!",
    "_backward_hooks": "Deletion of _backwards_hooks not allowed!",
}


def _undeletable(name):
    """A property deleter that raises PyTorch's error for ``del tensor.<name>``. (Tensor has no
    ``__delattr__``: defining one would slow down every attribute assignment on tensors.)"""
    def deleter(self):
        raise RuntimeError(_UNDELETABLE[name])
    return deleter


class Tensor:
    """A multi-dimensional array that can record the operations applied to it.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> y = (x * x).sum()
        >>> y.backward()
        >>> x.grad
        tensor([2., 4.])
    """

    __slots__ = ("_data", "_requires_grad", "_creator", "_output_nr", "_grad", "_vc",
                 "_base", "__weakref__", "__dict__")

    # Set on few tensors: class-level defaults until then, so that creating a tensor (the
    # commonest thing minigrad does) sets only the slots above.
    _hooks = None           # {handle id: hook} of a leaf (a non-leaf's are on its grad_fn)
    _post_acc_hooks = None  # {handle id: hook} run after .grad is accumulated
    _accumulator = None     # weak reference to the AccumulateGrad node of a leaf
    _uid = None             # the id of this tensor in snapshots and recordings
    _module_path = None     # the nn.Module whose forward created it (nn/_tracking.py)
    _display_name = None    # "fc1.weight": a module's parameters and buffers (nn/module.py)
    _inference = False      # made in inference mode (autograd/inference.py)
    _wrapped_number = False  # a Python number as an operand (ops/_util.py: WrappedNumber)

    __array_priority__ = 1000  # make ndarray <op> Tensor defer to Tensor's reflected operators

    def __init__(self, *args, device=None):
        """PyTorch's legacy constructor: ``Tensor([1, 2])`` (data as the default float dtype),
        ``Tensor(2, 3)`` (a shape), ``Tensor()`` (empty). Prefer ``minigrad.tensor``."""
        from minigrad._legacy import check_legacy_device, legacy_array
        check_legacy_device(device)
        if len(args) == 1 and isinstance(args[0], Tensor):  # an alias of that tensor
            self._init(args[0]._data, False, None, 0)
            self._version_counter = args[0]._version_counter
            return
        self._init(legacy_array(args, _dtype.get_default_dtype()), False, None, 0)

    def _init(self, data, requires_grad, grad_fn, output_nr):
        self._data = data
        self._requires_grad = requires_grad
        self._creator = grad_fn
        self._output_nr = output_nr
        self._grad = None
        self._base = self._vc = None
        if _inference_blocks[0] and _grad_mode.state.inference:
            self._inference = True

    def _array_for(self, dtype):
        """The array a backward on arrays computes with, next to a gradient of ``dtype``."""
        return self._data

    @property
    def _version_counter(self):
        """``[version]``, shared by a tensor and its views; made on first use (most tensors
        never need one). NB: not ``__getattr__``, which would slow every attribute read."""
        counter = getattr(self, "_vc", None)  # (None, or not set: none made yet)
        if counter is None:
            counter = self._vc = [0]
        return counter

    @_version_counter.setter
    def _version_counter(self, counter):
        self._vc = counter

    @classmethod
    def _make(cls, data, requires_grad=False, grad_fn=None, output_nr=0):
        """Wrap an ndarray without copying it (the fast constructor ops use)."""
        t = object.__new__(cls)
        # The body of _init, inlined: every op creates tensors through here.
        t._data = data
        t._requires_grad = requires_grad
        t._creator = grad_fn
        t._output_nr = output_nr
        t._grad = None
        t._base = t._vc = None  # (_version_counter is made when first read)
        if _inference_blocks[0] and _grad_mode.state.inference:  # an inference tensor
            t._inference = True
        return t

    # ---------------------------------------------------------------- data and metadata
    @property
    def data(self):
        """The same values as a tensor outside autograd (shares memory, never records)."""
        out = Tensor._make(self._data)
        if self._inference:
            out._inference = True
        return out

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data

    data = data.deleter(_undeletable("data"))

    # Read-only, as in PyTorch: the graph sets it (as ``_creator``), never the user.
    grad_fn = property(operator.attrgetter("_creator"), _read_only("grad_fn"),
                       doc="The node that created this tensor (None for a leaf).")

    # The slot is ``_creator`` (PyTorch's first name for grad_fn); ``_grad_fn`` is its
    # PyTorch name, which code written for PyTorch may read or set.
    _grad_fn = property(operator.attrgetter("_creator"),
                        lambda self, fn: setattr(self, "_creator", fn), _undeletable("_grad_fn"))

    @property
    def _backward_hooks(self):
        """This tensor's hooks, ``{id: hook}`` (None when it has none), as PyTorch keeps them."""
        if self._creator is None:
            return self._hooks
        hooks = self._creator._tensor_pre_hooks or {}
        mine = {key: hook for key, (index, hook) in hooks.items() if index == self._output_nr}
        return mine or None

    _backward_hooks = _backward_hooks.deleter(_undeletable("_backward_hooks"))

    @property
    def shape(self):
        """The size of each dimension, e.g. ``minigrad.Size([2, 3])``."""
        return tuple.__new__(Size, self._data.shape)  # NumPy's shape is valid: skip checks

    def size(self, dim=None):
        """``shape``, or the size of one dimension (negative ``dim`` counts from the end)."""
        if dim is None:
            return self.shape
        return self._data.shape[self._dim_index(dim)]

    def _dim_index(self, dim):
        """``dim`` as an index in ``range(ndim)``, with PyTorch's IndexError when it is not."""
        ndim = self._data.ndim
        if ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {dim})")
        return dim % ndim

    @property
    def dtype(self):
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        return self._data.ndim

    def ndimension(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    def nelement(self):
        return self._data.size

    def element_size(self):
        return self._data.itemsize

    def is_floating_point(self):
        return self._data.dtype.kind == "f"

    def is_complex(self):
        return False

    def is_contiguous(self):
        return self._data.flags.c_contiguous

    def stride(self, dim=None):
        if self._data.size == 0:  # PyTorch: contiguous strides, a size 0 counted as 1
            strides = np.cumprod((1,) + tuple(max(n, 1) for n in self._data.shape[:0:-1]))
            strides = tuple(int(s) for s in strides[::-1]) if self._data.ndim else ()
        else:
            strides = tuple(s // self._data.itemsize for s in self._data.strides)
        return strides if dim is None else strides[self._dim_index(dim)]

    def data_ptr(self):
        """The address of the tensor's first element (0 when it has none)."""
        return self._data.__array_interface__["data"][0] if self._data.size else 0

    def storage_offset(self):
        """How many elements of its storage come before the tensor's first element."""
        if not self._data.size:
            return 0
        return (self.data_ptr() - self.untyped_storage().data_ptr()) // self._data.itemsize

    def untyped_storage(self):
        """The storage the tensor and its views share, as bytes (see ``minigrad.storage``)."""
        from minigrad.ops.storage import _storage
        from minigrad.storage import UntypedStorage
        return UntypedStorage(_storage(self))

    def storage(self):
        """The storage as elements of the tensor's dtype (deprecated in PyTorch, which warns)."""
        from minigrad.ops.storage import _storage
        from minigrad.storage import TypedStorage
        _warn_typed_storage()
        return TypedStorage(_storage(self), self.dtype)

    def type(self, dtype=None, non_blocking=False):
        """``"minigrad.FloatTensor"`` (PyTorch's legacy type name), or a copy as ``dtype``
        (a dtype, a legacy class such as ``minigrad.DoubleTensor`` or its name)."""
        if dtype is None:
            return f"minigrad.{self.dtype.tensor_type}"
        from minigrad._legacy import dtype_of_type
        return self.to(dtype_of_type(dtype))

    @property
    def device(self):
        return _device.CPU

    @property
    def is_cuda(self):
        return False

    def cuda(self, device=None, non_blocking=False):
        """Raises, as PyTorch does on a CPU-only build: minigrad has no CUDA."""
        raise AssertionError(_device.NO_CUDA)

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        """The values as (nested) Python lists of Python numbers."""
        return self._data.tolist()

    def numpy(self, *, force=False):
        """The values as an ndarray that shares memory with this tensor."""
        if self._requires_grad and not force and _grad_mode.state.grad_enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """NumPy's result of ``x + array`` as a tensor (a bool result as uint8, as PyTorch)."""
        array = np.asarray(array)
        return Tensor._make(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    @property
    def _version(self):
        if self._inference:
            raise RuntimeError(inference.NO_VERSION)
        return self._version_counter[0]

    def is_inference(self):
        """True for a tensor made in inference mode (see ``minigrad.inference_mode``)."""
        return self._inference

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self):
        if self._data.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._data.size > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data)

    def _python_scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._data.item()

    def __float__(self):
        return float(self._python_scalar())

    def __int__(self):
        return int(self._python_scalar())

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data)

    __hash__ = object.__hash__

    def __repr__(self):
        from minigrad._formatting import tensor_repr
        return tensor_repr(self)

    def __reduce_ex__(self, protocol):
        from minigrad.serialization import tensor_reduce
        return tensor_reduce(self)

    def __deepcopy__(self, memo):
        from minigrad.serialization import tensor_deepcopy
        return tensor_deepcopy(self, memo)

    def __format__(self, spec):
        if self._data.ndim == 0:  # as PyTorch: f"{loss}" gives "0.25", like a Python number
            return format(self.item(), spec)
        return object.__format__(self, spec)

    # ---------------------------------------------------------------- dtype conversion
    def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
        """This tensor as ``dtype`` (``to(minigrad.float64)``, ``to(other)``, ``to("cpu")``,
        ``to("cpu", minigrad.float64)``).

        Returns ``self`` when nothing changes. A floating result is recorded (``ToCopyBackward0``);
        a cast to an integer or bool type is not differentiable and gives a plain tensor.
        NB: minigrad runs on the CPU only; other devices raise PyTorch's errors.
        """
        for a in args:
            if isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, (str, _device.device)):
                device = a
            elif isinstance(a, (_dtype.dtype, type, np.dtype)):
                dtype = a
            elif isinstance(a, int) and not isinstance(a, bool):
                device = a
            elif not isinstance(a, bool):  # non_blocking and copy may come positionally
                names = ", ".join(type(x).__name__ for x in args)
                raise TypeError(f"to() received an invalid combination of arguments - got "
                                f"({names}), but expected one of:")
        if device is not None:
            _device.check_device(device)
        # NB: NumPy dtypes are accepted too (minigrad's own code passes them)
        target = self.dtype if dtype is None else _dtype.to_dtype(dtype)
        if target is self.dtype:
            return self.clone() if copy else self
        if not target.is_floating_point:  # not differentiable: a plain tensor
            with np.errstate(invalid="ignore"):  # NaN -> int is undefined, as in PyTorch
                return Tensor._make(self._data.astype(target.numpy))
        from minigrad.ops.pointwise import ToCopy
        return ToCopy.apply(self, target)

    def cpu(self):
        return self

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def half(self):
        return self.to(_dtype.float16)

    def long(self):
        return self.to(_dtype.int64)

    def int(self):
        return self.to(_dtype.int32)

    def short(self):
        return self.to(_dtype.int16)

    def char(self):
        return self.to(_dtype.int8)

    def byte(self):
        return self.to(_dtype.uint8)

    def bool(self):
        return self.to(_dtype.bool)

    def type_as(self, other):
        ops.check_tensor_arg("type_as", "other", other, 1)
        return self.to(other.dtype)

    # ---------------------------------------------------------------- autograd state
    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self._creator is not None:
            raise RuntimeError(REQUIRES_GRAD_NON_LEAF if value else REQUIRES_GRAD_NON_LEAF_FALSE)
        if value and self._data.dtype.kind != "f":
            raise RuntimeError(ONLY_FLOAT_GRAD_SETTER)
        if value and self._inference:
            inference.check_requires_grad(self)
        self._requires_grad = bool(value)

    requires_grad = requires_grad.deleter(_undeletable("requires_grad"))

    def requires_grad_(self, requires_grad=True):
        if not isinstance(requires_grad, bool):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if requires_grad and self._creator is not None:
            return self  # a non-leaf requires grad already (the setter would raise)
        if requires_grad and self._data.dtype.kind != "f":
            raise RuntimeError(ONLY_FLOAT_GRAD)
        self.requires_grad = requires_grad
        return self

    @property
    def output_nr(self):
        """Which output of its ``grad_fn`` this tensor is (0 for a leaf)."""
        return self._output_nr

    @property
    def is_leaf(self):
        return self._creator is None

    is_leaf = is_leaf.setter(_read_only("is_leaf"))

    @property
    def grad(self):
        if self._creator is not None and self._grad is None and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(_grad_dtype_message(value, self))
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def retains_grad(self):
        fn = self._creator
        if fn is None or fn._retained is None:
            return False
        ref = fn._retained.get(self._output_nr)
        return ref is not None and ref() is self

    def retain_grad(self):
        """Keep ``.grad`` for this non-leaf tensor after backward (no-op on leaves)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._creator is None:
            return
        if self._creator._retained is None:
            self._creator._retained = {}
            self._creator._hooked = True
        self._creator._retained[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook):
        """``hook(grad) -> Tensor or None`` runs each time the gradient of this tensor is
        computed; a returned tensor replaces the gradient. Returns a removable handle."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._creator is not None:
            self._creator._keep_output(self)
            return self._creator._register_tensor_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = {}
        return _add_hook(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """``hook(tensor)`` runs right after backward has accumulated into ``tensor.grad``."""
        if self._creator is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_acc_hooks is None:
            self._post_acc_hooks = {}
        return _add_hook(self._post_acc_hooks, hook)

    def _grad_accumulator(self):
        """The AccumulateGrad node of this leaf: one per tensor while any graph holds it (None
        for a view made under no_grad: as in PyTorch, its gradient goes nowhere)."""
        node = self._accumulator() if self._accumulator is not None else None
        if node is None:
            if "_no_grad_view" in self.__dict__:
                return None
            node = AccumulateGrad(self)
            self._accumulator = weakref.ref(node)
        return node

    def detach(self):
        """A tensor sharing this one's data, cut off from the graph (a leaf, no grad)."""
        out = Tensor._make(self._data)
        out._version_counter = self._version_counter
        if self._inference:
            out._inference = True
        return out

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in minigrad/optim/optimizer.py as the solution.")
        self._creator, self._requires_grad, self._output_nr = None, False, 0
        if self.__dict__:  # as PyTorch: it loses its tangent too
            from minigrad.autograd import forward_ad
            self.__dict__.pop(forward_ad._ATTR, None)
        return self

    def _alias(self):
        out = Tensor._make(self._data)
        out._version_counter = self._version_counter
        if self._inference:
            out._inference = True
        return out

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor with respect to the graph leaves.

        ``gradient`` is the vector of the vector-Jacobian product (needed for non-scalars).
        """
        api.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def _bump_version(self):
        self._version_counter[0] += 1

    # ---------------------------------------------------------------- operators
    # (The commonest operators apply their op directly: ``minigrad.add`` and the like check
    # arguments that an operator never gets.)
    def __add__(self, other):
        if type(other) is float or isinstance(other, _OPERANDS):
            return ops.Add.apply(self, ops.as_tensor_operand(other, self))
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if type(other) is float or isinstance(other, _OPERANDS):
            return ops.Sub.apply(self, ops.as_tensor_operand(other, self))
        return NotImplemented

    def __rsub__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.rsub(self, other)

    def __mul__(self, other):
        if type(other) is float or isinstance(other, _OPERANDS):
            return ops.Mul.apply(self, ops.as_tensor_operand(other, self))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if type(other) is float or isinstance(other, _OPERANDS):
            return ops.Div.apply(self, ops.as_tensor_operand(other, self))
        return NotImplemented

    def __rtruediv__(self, other):
        if not isinstance(other, _DIVIDENDS):
            return NotImplemented
        return ops.reciprocal(self) * other

    def __neg__(self):
        return ops.neg(self)

    def __pos__(self):
        return self

    def __pow__(self, exponent):
        if not isinstance(exponent, _OPERANDS):
            return NotImplemented
        return ops.pow(self, exponent)

    def __rpow__(self, base):
        if not isinstance(base, _OPERANDS):
            return NotImplemented
        return ops.rpow(self, base)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return ops.matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return ops.matmul(other, self)

    def __abs__(self):
        return ops.abs(self)

    def __getitem__(self, index):
        return ops.getitem(self, index)

    def __setitem__(self, index, value):
        ops.setitem(self, index, value)

    def __eq__(self, other):
        if not isinstance(other, _OPERANDS):
            if not isinstance(other, np.ndarray):  # Python then compares identities: False
                return NotImplemented
            other = Tensor._make(other.copy())  # == takes an array (not !=, <, ...)
        return ops.eq(self, other)

    def __ne__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.ne(self, other)

    def __lt__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.lt(self, other)

    def __le__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.le(self, other)

    def __gt__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.gt(self, other)

    def __ge__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.ge(self, other)

    def __and__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.bitwise_and(self, other)

    __rand__ = __and__

    def __or__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.bitwise_or(self, other)

    __ror__ = __or__

    def __xor__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.bitwise_xor(self, other)

    __rxor__ = __xor__

    def __invert__(self):
        if self._data.dtype.kind not in "biu":  # the operator's own check, before the kernel's
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                            "tensors")
        return ops.bitwise_not(self)

    # ---------------------------------------------------------------- math methods
    def add(self, other, alpha=1):
        ops.check_operand("add", "other", other)
        return ops.add(self, other, alpha=alpha)

    def sub(self, other, alpha=1):
        ops.check_operand("sub", "other", other)
        return ops.sub(self, other, alpha=alpha)

    def mul(self, other):
        ops.check_operand("mul", "other", other)
        return ops.mul(self, other)

    def div(self, other, *, rounding_mode=None):
        ops.check_operand("div", "other", other)
        return ops.div(self, other, rounding_mode=rounding_mode)

    def neg(self):
        return ops.neg(self)

    def pow(self, exponent):
        ops.check_overloads("pow", (exponent,), ("Tensor exponent", "Number exponent"))
        return ops.pow(self, exponent)

    def reciprocal(self):
        return ops.reciprocal(self)

    def square(self):
        return ops.square(self)

    def exp(self):
        return ops.exp(self)

    def log(self):
        return ops.log(self)

    def log1p(self):
        return ops.log1p(self)

    def sin(self):
        return ops.sin(self)

    def sinh(self):
        return ops.sinh(self)

    def cosh(self):
        return ops.cosh(self)

    def tril(self, diagonal=0):
        return ops.tril(self, diagonal, position=1)

    def triu(self, diagonal=0):
        return ops.triu(self, diagonal, position=1)

    def cos(self):
        return ops.cos(self)

    def tanh(self):
        return ops.tanh(self)

    def sigmoid(self):
        return ops.sigmoid(self)

    def relu(self):
        return ops.relu(self)

    def sqrt(self):
        return ops.sqrt(self)

    def abs(self):
        return ops.abs(self)

    def sign(self):
        return ops.sign(self)

    def clamp(self, min=None, max=None):  # noqa: A002 - PyTorch's names
        return ops.clamp(self, min, max)

    clip = clamp

    def round(self, *, decimals=0):
        return ops.round(self, decimals=decimals)

    def floor(self):
        return ops.floor(self)

    def ceil(self):
        return ops.ceil(self)

    def trunc(self):
        return ops.trunc(self)

    def norm(self, p="fro", dim=None, keepdim=False):
        return ops.norm(self, p, dim, keepdim)

    def matmul(self, other):
        ops.check_tensor_arg("matmul", "other", other, 1)
        return ops.matmul(self, other)

    def mm(self, other):
        ops.check_tensor_arg("mm", "mat2", other, 1)
        return ops.mm(self, other)

    def dot(self, other):
        ops.check_tensor_arg("dot", "tensor", other, 1)
        return ops.dot(self, other)

    def sum(self, dim=None, keepdim=False, dtype=None):
        return ops.sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        return ops.mean(self, dim, keepdim, dtype=dtype)

    def max(self, dim=None, keepdim=False):
        return ops.max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return ops.min(self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return ops.argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return ops.argmin(self, dim, keepdim)

    def amax(self, dim=(), keepdim=False):
        return ops.amax(self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return ops.amin(self, dim, keepdim)

    def prod(self, dim=None, keepdim=False, dtype=None):
        return ops.prod(self, dim, keepdim, dtype=dtype)

    def var(self, dim=None, *args, **kwargs):
        return ops.var(self, dim, *args, **kwargs)

    def std(self, dim=None, *args, **kwargs):
        return ops.std(self, dim, *args, **kwargs)

    def logsumexp(self, dim, keepdim=False):
        return ops.logsumexp(self, dim, keepdim)

    def softmax(self, dim=None, dtype=None):
        return ops.softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim=None, dtype=None):
        return ops.log_softmax(self, dim, dtype=dtype)

    def bmm(self, other):
        ops.check_tensor_arg("bmm", "mat2", other, 1)
        return ops.bmm(self, other)

    def mv(self, vec):
        ops.check_tensor_arg("mv", "vec", vec, 1)
        return ops.mv(self, vec)

    def addmm(self, mat1, mat2, beta=1, alpha=1):
        return ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    # ---------------------------------------------------------------- shape methods
    def view(self, *shape):
        return ops.view(self, *shape)

    def view_as(self, other):
        ops.check_tensor_arg("view_as", "other", other, 1)
        return ops.view(self, other.shape)

    def reshape(self, *shape):
        return ops.reshape(self, *shape)

    def reshape_as(self, other):
        ops.check_tensor_arg("reshape_as", "other", other, 1)
        return ops.reshape(self, other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return ops.flatten(self, start_dim, end_dim)

    def transpose(self, dim0, dim1):
        return ops.transpose(self, dim0, dim1)

    def t(self):
        return ops.t(self)

    def swapaxes(self, axis0=MISSING, axis1=MISSING):
        for name, axis in (("axis0", axis0), ("axis1", axis1)):
            if axis is MISSING:
                raise TypeError(f'swapaxes() missing 1 required positional arguments: "{name}"')
        return ops.transpose(self, axis0, axis1)

    swapdims = transpose

    @property
    def T(self):
        return ops.shape.numpy_t(self)

    @property
    def mT(self):
        return ops.shape.matrix_t(self)

    def permute(self, *dims):
        return ops.permute(self, *dims)

    def squeeze(self, dim=None):
        return ops.squeeze(self, dim)

    def unsqueeze(self, dim):
        return ops.unsqueeze(self, dim)

    def expand(self, *shape):
        return ops.expand(self, *shape)

    def expand_as(self, other):
        ops.check_tensor_arg("expand_as", "other", other, 1)
        return ops.expand(self, other.shape)

    def contiguous(self):
        return ops.contiguous(self)

    def clone(self):
        return ops.clone(self)

    def chunk(self, chunks, dim=0):
        return ops.chunk(self, chunks, dim)

    def split(self, split_size, dim=0):
        return ops.split(self, split_size, dim)

    def unbind(self, dim=0):
        return ops.unbind(self, dim)

    def repeat(self, *repeats):
        return ops.repeat(self, *repeats)

    def narrow(self, dim, start, length):
        return ops.narrow(self, dim, start, length)

    def unflatten(self, dim, sizes):
        return ops.unflatten(self, dim, sizes)

    def movedim(self, source, destination):
        return ops.movedim(self, source, destination)

    moveaxis = movedim

    def select(self, dim, index):
        return ops.select(self, dim, index)

    def index_select(self, dim, index):
        return ops.index_select(self, dim, index)

    def __mod__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.remainder(self, other)

    def __rmod__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.remainder(other, self)

    def floor_divide(self, other):
        ops.check_overloads("floor_divide", (other,))
        return ops.floor_divide(self, other)

    def __floordiv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.floor_divide(self, other)

    def __rfloordiv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.rfloor_divide(self, other)

    def masked_fill(self, mask, value):
        ops.check_overloads("masked_fill", (mask, value), _MASKED_FILL_FORMS, tensor_first=True)
        return ops.masked_fill(self, mask, value)

    def masked_select(self, mask):
        return ops.masked_select(self, mask)

    # ---------------------------------------------------------------- comparisons
    def eq(self, other):
        ops.check_overloads("eq", (other,))
        return ops.eq(self, other)

    def ne(self, other):
        ops.check_overloads("ne", (other,))
        return ops.ne(self, other)

    def lt(self, other):
        ops.check_overloads("lt", (other,))
        return ops.lt(self, other)

    def le(self, other):
        ops.check_overloads("le", (other,))
        return ops.le(self, other)

    def gt(self, other):
        ops.check_overloads("gt", (other,))
        return ops.gt(self, other)

    def ge(self, other):
        ops.check_overloads("ge", (other,))
        return ops.ge(self, other)

    def all(self, dim=None, keepdim=False):
        return ops.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return ops.any(self, dim, keepdim)

    def gather(self, dim=MISSING, index=MISSING, *, sparse_grad=False):
        return ops.gather(self, dim, index, position=1)

    def scatter(self, dim, index, src=MISSING, *, value=None):
        return ops.scatter(self, dim, index, src, value=value)

    def scatter_(self, dim, index, src=MISSING, *, value=None):
        return ops.scatter_(self, dim, index, src, value=value)

    def scatter_add(self, dim, index, src):
        return ops.scatter_add(self, dim, index, src)

    def scatter_add_(self, dim, index, src):
        return ops.scatter_add_(self, dim, index, src)

    def cumsum(self, dim=MISSING, *, dtype=None):
        return ops.scan("cumsum", self, dim, dtype, position=1)

    def cumsum_(self, dim=MISSING, *, dtype=None):
        return ops.scan_("cumsum", self, dim, dtype)

    def cumprod(self, dim=MISSING, *, dtype=None):
        return ops.scan("cumprod", self, dim, dtype, position=1)

    def cumprod_(self, dim=MISSING, *, dtype=None):
        return ops.scan_("cumprod", self, dim, dtype)

    def flip(self, *dims, **kwargs):
        dims = dims or kwargs.pop("dims", ())
        if kwargs:
            raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        if not dims:
            raise TypeError('flip() missing 1 required positional arguments: "dims"')
        return ops.flip_dims(self, dims)

    def nextafter(self, other):
        return ops.nextafter(self, other, position=1)

    def nextafter_(self, other):
        return ops.nextafter_(self, other)

    def nanmedian(self):
        return ops.nanmedian(self)

    def signbit(self):
        return ops.signbit(self)

    def isnan(self):
        return ops.isnan(self)

    def isinf(self):
        return ops.isinf(self)

    def isfinite(self):
        return ops.isfinite(self)

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        ops.check_tensor_arg("isclose", "other", other, 1)
        return ops.isclose(self, other, rtol, atol, equal_nan)

    def logical_and(self, other):
        ops.check_tensor_arg("logical_and", "other", other, 1)
        return ops.logical_and(self, other)

    def logical_or(self, other):
        ops.check_tensor_arg("logical_or", "other", other, 1)
        return ops.logical_or(self, other)

    def logical_xor(self, other):
        ops.check_tensor_arg("logical_xor", "other", other, 1)
        return ops.logical_xor(self, other)

    def logical_not(self):
        return ops.logical_not(self)

    def maximum(self, other):
        ops.check_tensor_arg("maximum", "other", other, 1)
        return ops.maximum(self, other)

    def minimum(self, other):
        ops.check_tensor_arg("minimum", "other", other, 1)
        return ops.minimum(self, other)

    def allclose(self, other, rtol=1e-05, atol=1e-08):
        ops.check_tensor_arg("allclose", "other", other, 1)
        return ops.allclose(self, other, rtol, atol)

    def equal(self, other):
        ops.check_tensor_arg("equal", "other", other, 1)
        return ops.equal(self, other)


    # ---------------------------------------------------------------- in-place methods
    def add_(self, other, alpha=1):
        ops.check_operand("add_", "other", other)
        return ops.add_(self, other, alpha)

    def sub_(self, other, alpha=1):
        ops.check_operand("sub_", "other", other)
        return ops.sub_(self, other, alpha)

    def mul_(self, other):
        ops.check_operand("mul_", "other", other)
        return ops.mul_(self, other)

    def div_(self, other, *, rounding_mode=None):
        ops.check_operand("div_", "other", other)
        return ops.div_(self, other, rounding_mode=rounding_mode)

    def pow_(self, exponent):
        ops.check_overloads("pow_", (exponent,), ("Tensor exponent", "Number exponent"))
        return ops.pow_(self, exponent)

    def neg_(self):
        return ops.neg_(self)

    def zero_(self):
        return ops.zero_(self)

    def fill_(self, value):
        ops.check_overloads("fill_", (value,), ("Tensor value", "Number value"))
        return ops.fill_(self, value)

    def copy_(self, src):
        ops.check_operand("copy_", "other", src)
        return ops.copy_(self, src)

    def clamp_(self, min=None, max=None):  # noqa: A002 - PyTorch's names
        return ops.clamp_(self, min, max)

    clip_ = clamp_

    def sinh_(self):
        return ops.sinh_(self)

    def cosh_(self):
        return ops.cosh_(self)

    def tril_(self, diagonal=0):
        return ops.tril_(self, diagonal)

    def triu_(self, diagonal=0):
        return ops.triu_(self, diagonal)

    def relu_(self):
        return ops.relu_(self)

    def exp_(self):
        return ops.exp_(self)

    def log_(self):
        return ops.log_(self)

    def sigmoid_(self):
        return ops.sigmoid_(self)

    def tanh_(self):
        return ops.tanh_(self)

    def sqrt_(self):
        return ops.sqrt_(self)

    def abs_(self):
        return ops.abs_(self)

    def sin_(self):
        return ops.sin_(self)

    def cos_(self):
        return ops.cos_(self)

    def log1p_(self):
        return ops.log1p_(self)

    def sign_(self):
        return ops.sign_(self)

    def reciprocal_(self):
        return ops.reciprocal_(self)

    def square_(self):
        return ops.square_(self)

    def round_(self, *, decimals=0):
        return ops.round_(self, decimals=decimals)

    def floor_(self):
        return ops.floor_(self)

    def ceil_(self):
        return ops.ceil_(self)

    def trunc_(self):
        return ops.trunc_(self)

    # ---------------------------------------------------------------- random, in place
    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        """Fill with U(from, to) samples (PyTorch's values for the same seed)."""
        return ops.sampling.uniform_(self, from_, to, generator)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill with N(mean, std²) samples (PyTorch's values for the same seed)."""
        return ops.sampling.normal_(self, mean, std, generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 (probability ``p``, a number or tensor) or 0."""
        return ops.sampling.bernoulli_(self, p, generator)

    def random_(self, from_=None, to=None, *, generator=None):
        """Fill with integers: ``random_()``, ``random_(to)`` or ``random_(from, to)``."""
        return ops.sampling.random_(self, from_, to, generator)

    def exponential_(self, lambd=1.0, *, generator=None):
        """Fill with Exp(λ) samples."""
        return ops.sampling.exponential_(self, lambd, generator)

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        """Fill with Cauchy(median, σ) samples."""
        return ops.sampling.cauchy_(self, median, sigma, generator)

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        """Fill with exp N(mean, std²) samples."""
        return ops.sampling.log_normal_(self, mean, std, generator)

    def geometric_(self, p, *, generator=None):
        """Fill with the number of Bernoulli(p) trials up to the first success."""
        return ops.sampling.geometric_(self, p, generator)

    def bernoulli(self, p=None, *, generator=None):
        return ops.sampling.bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return ops.sampling.multinomial(self, num_samples, replacement, generator=generator)

    def __iadd__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.add_(self, other)

    def __isub__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.sub_(self, other)

    def __imul__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.mul_(self, other)

    def __itruediv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.div_(self, other)

    def floor_divide_(self, other):
        ops.check_overloads("floor_divide_", (other,))
        return ops.floor_divide_(self, other)

    def __ifloordiv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return ops.floor_divide_(self, other)

    # ---------------------------------------------------------------- more methods (issue 12)
    def remainder(self, other):
        ops.check_overloads("remainder", (other,))
        return ops.remainder(self, other)

    def remainder_(self, other):
        ops.check_overloads("remainder_", (other,))
        return ops.remainder_(self, other)

    def masked_fill_(self, mask, value):
        ops.check_overloads("masked_fill_", (mask, value), _MASKED_FILL_FORMS,
                            tensor_first=True)
        return ops.masked_fill_(self, mask, value)

    def eq_(self, other):
        ops.check_overloads("eq_", (other,))
        return ops.eq_(self, other)

    def ne_(self, other):
        ops.check_overloads("ne_", (other,))
        return ops.ne_(self, other)

    def lt_(self, other):
        ops.check_overloads("lt_", (other,))
        return ops.lt_(self, other)

    def le_(self, other):
        ops.check_overloads("le_", (other,))
        return ops.le_(self, other)

    def gt_(self, other):
        ops.check_overloads("gt_", (other,))
        return ops.gt_(self, other)

    def ge_(self, other):
        ops.check_overloads("ge_", (other,))
        return ops.ge_(self, other)

    def median(self, dim=None, keepdim=False):
        return ops.median(self, dim, keepdim)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return ops.diagonal(self, offset, dim1, dim2)

    def split_with_sizes(self, split_sizes, dim=0):
        return ops.split_with_sizes(self, split_sizes, dim)

    def clamp_min(self, min):  # noqa: A002 - PyTorch's name
        ops.check_overloads("clamp_min", (min,), ("Tensor min", "Number min"))
        return ops.clamp_min(self, min)

    def clamp_max(self, max):  # noqa: A002 - PyTorch's name
        ops.check_overloads("clamp_max", (max,), ("Tensor max", "Number max"))
        return ops.clamp_max(self, max)

    def clamp_min_(self, min):  # noqa: A002 - PyTorch's name
        return ops.clamp_min_(self, min)

    def clamp_max_(self, max):  # noqa: A002 - PyTorch's name
        return ops.clamp_max_(self, max)

    def as_strided_(self, size, stride, storage_offset=None):
        return ops.as_strided_(self, size, stride, storage_offset)

    def unsafe_split(self, split_size, dim=0):
        return ops.unsafe_split(self, split_size, dim)

    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        return ops.unsafe_split_with_sizes(self, split_sizes, dim)

    def unsafe_chunk(self, chunks, dim=0):
        return ops.unsafe_chunk(self, chunks, dim)

    @property
    def volatile(self):
        """Always False, with PyTorch's warning (volatile was replaced by ``no_grad``)."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning,
                      stacklevel=2)
        return False

    @property
    def layout(self):
        """Always ``minigrad.strided``: minigrad's tensors are dense."""
        return _dtype.strided

    def _is_view(self):
        """True for a view: a tensor that shares the memory of its ``_base``."""
        return self._base is not None

    def as_strided(self, size, stride, storage_offset=None):
        return ops.as_strided(self, size, stride, storage_offset)

    def transpose_(self, dim0, dim1):
        return ops.transpose_(self, dim0, dim1)

    swapaxes_ = swapdims_ = transpose_

    def t_(self):
        return ops.t_(self)

    def squeeze_(self, dim=None):
        return ops.squeeze_(self, dim)

    def unsqueeze_(self, dim):
        return ops.unsqueeze_(self, dim)

    def resize_(self, *sizes):
        return ops.resize_(self, *sizes)

    def resize_as_(self, other):
        return ops.resize_(self, other.shape)

    def set_(self, source=None):
        return ops.set_(self, source)

    def sort(self, dim=-1, descending=False, **stable):
        return ops.sort(self, dim, descending, method=True, **stable)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        return ops.argsort(self, dim, descending, stable=stable, method=True)

    def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - PyTorch's name
        return ops.topk(self, k, dim, largest, sorted, position=1)

    def erf(self):
        return ops.erf(self)

    def erfc(self):
        return ops.erfc(self)

    def erfinv(self):
        return ops.erfinv(self)

    def atan2(self, other):
        ops.check_tensor_arg("atan2", "other", other, 1)
        return ops.atan2(self, other)

    arctan2 = atan2

    def logaddexp(self, other):
        ops.check_tensor_arg("logaddexp", "other", other, 1)
        return ops.logaddexp(self, other)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return ops.nan_to_num(self, nan, posinf, neginf, position=1)

    def lerp(self, end, weight):
        return ops.lerp(self, end, weight)

    def addcmul(self, tensor1, tensor2, *, value=1):
        return ops.addcmul(self, tensor1, tensor2, value=value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return ops.addcdiv(self, tensor1, tensor2, value=value)

    def erf_(self):
        return ops.erf_(self)

    def erfc_(self):
        return ops.erfc_(self)

    def erfinv_(self):
        return ops.erfinv_(self)

    def atan2_(self, other):
        ops.check_tensor_arg("atan2_", "other", other, 1)
        return ops.atan2_(self, other)

    arctan2_ = atan2_

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return ops.nan_to_num_(self, nan, posinf, neginf)

    def lerp_(self, end, weight):
        return ops.lerp_(self, end, weight)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return ops.addcmul_(self, tensor1, tensor2, value=value)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return ops.addcdiv_(self, tensor1, tensor2, value=value)

    def roll(self, shifts, dims=None):
        return ops.roll(self, shifts, dims, position=1)

    def outer(self, vec2):
        return ops.outer(self, vec2)

    ger = outer

    def trace(self):
        return ops.trace(self)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return ops.diff(self, n, dim, prepend, append)

    def tile(self, *dims):
        if not dims:
            raise TypeError('tile() missing 1 required positional arguments: "dims"')
        if len(dims) == 1 and (not isinstance(dims[0], numbers.Integral)
                               or isinstance(dims[0], bool)):
            dims = dims[0]
        return ops.tile(self, dims, position=1)

    def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
        return ops.repeat_interleave(self, repeats, dim, output_size=output_size)

    def bincount(self, weights=None, minlength=0):
        return ops.bincount(self, weights, minlength)

    def count_nonzero(self, dim=None):
        return ops.count_nonzero(self, dim)

    def logit(self, eps=None):
        return ops.logit(self, eps)

    def xlogy(self, other):
        ops.check_overloads("xlogy", (other,))
        return ops.xlogy(self, other)

    def hypot(self, other):
        ops.check_tensor_arg("hypot", "other", other, 1)
        return ops.hypot(self, other)

    def logit_(self, eps=None):
        return ops.logit_(self, eps)

    def xlogy_(self, other):
        ops.check_overloads("xlogy_", (other,))
        return ops.xlogy_(self, other)

    def hypot_(self, other):
        return ops.hypot_(self, other)

    def cross(self, other, dim=None):
        return ops.cross(self, other, dim)

    def kron(self, other):
        return ops.kron(self, other)

    def new(self, *args):
        return tensor_new.new(self, *args)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        return tensor_new.new_tensor(self, data, dtype, device, requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return tensor_new.new_zeros(self, *size, dtype=dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return tensor_new.new_ones(self, *size, dtype=dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return tensor_new.new_empty(self, *size, dtype=dtype, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return tensor_new.new_full(self, size, fill_value, dtype, device, requires_grad)

_OPERANDS = (Tensor, float, int, *_OPERANDS)  # (float and int first: no ABC check for them)
_DIVIDENDS = (*_OPERANDS, np.ndarray)  # array / x is array * (1 / x), by NumPy, as in PyTorch

def typename(value):
    """The name PyTorch's messages give a value's type: a tensor's legacy type
    (``minigrad.FloatTensor``), a builtin's bare name (``int``), else ``module.QualName``."""
    if isinstance(value, Tensor):
        return f"minigrad.{value.dtype.tensor_type}"
    cls = type(value)
    module = cls.__module__ or ""
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


_TYPED_STORAGE_WARNED = []


def _warn_typed_storage():
    if not _TYPED_STORAGE_WARNED:  # once per process, as PyTorch does
        _TYPED_STORAGE_WARNED.append(True)
        warnings.warn(
            "TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
            "will be the only storage class. This should only matter to you if you are using "
            "storages directly.  To access UntypedStorage directly, use "
            "tensor.untyped_storage() instead of tensor.storage()", UserWarning, stacklevel=3)


from minigrad import ops, tensor_new  # noqa: E402 - they import Tensor from this module
