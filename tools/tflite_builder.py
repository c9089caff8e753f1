"""A small writer of float32 TFLite models, built on the flatbuffers object API that ai-edge-litert ships.

`ModelBuilder` collects tensors, constant buffers and operators of one subgraph; `finish()` packs a TFLite model
(version 3, buffer 0 empty, identifier "TFL3"). Output shapes may be given or left to LiteRT: `finish()` allocates the
model once in LiteRT and writes every tensor's inferred shape back, so the stored shapes are the ones LiteRT uses.

The `add_*` helpers below build one op each with the layouts TFLite expects:
CONV_2D filter [O, KH, KW, I], DEPTHWISE_CONV_2D filter [1, KH, KW, I * M], FULLY_CONNECTED weights [O, K].
"""

import numpy as np
import flatbuffers
from ai_edge_litert import schema_py_generated as schema

import pvtools

BO = schema.BuiltinOperator
OPT = schema.BuiltinOptions
ACT = schema.ActivationFunctionType
PAD = schema.Padding
TT = schema.TensorType

ACTIVATIONS = {"NONE": ACT.NONE, "RELU": ACT.RELU, "RELU6": ACT.RELU6, "RELU_N1_TO_1": ACT.RELU_N1_TO_1}
OP_NAMES = {v: k for k, v in vars(BO).items() if not k.startswith("_")}

_NP_TO_TT = {
    np.dtype(np.float32): TT.FLOAT32, np.dtype(np.float16): TT.FLOAT16, np.dtype(np.int32): TT.INT32,
    np.dtype(np.int8): TT.INT8, np.dtype(np.uint8): TT.UINT8, np.dtype(np.int64): TT.INT64,
}


class ModelBuilder:
    """One subgraph under construction. Tensor handles are plain integer indices."""

    def __init__(self, description="PureVision test model"):
        self.description = description
        self.tensors = []
        self.shapes = []  # None where LiteRT has to infer the shape
        self.buffers = [schema.BufferT()]
        self.opcodes = {}
        self.operators = []
        self.inputs = []
        self.op_names = []
        self.expected_tensors = {}  # tensor index -> the values it must hold after a run (generator self-checks)

    # Tensors

    def _tensor(self, shape, dtype, buffer, name, quantization=None, sparsity=None):
        tensor = schema.TensorT()
        tensor.shape = [1] if shape is None else [int(d) for d in shape]
        tensor.type = _NP_TO_TT[np.dtype(dtype)]
        tensor.buffer = buffer
        tensor.name = name or f"t{len(self.tensors)}"
        tensor.quantization = quantization
        tensor.sparsity = sparsity
        self.tensors.append(tensor)
        self.shapes.append(None if shape is None else [int(d) for d in shape])
        return len(self.tensors) - 1

    def input(self, shape, name=None):
        """A float32 subgraph input."""
        index = self._tensor(shape, np.float32, 0, name or f"input{len(self.inputs)}")
        self.inputs.append(index)
        return index

    def const(self, array, dtype=None, name=None, quantization=None, sparsity=None, shape=None):
        """A constant tensor whose buffer holds `array` (little-endian, row-major)."""
        array = np.ascontiguousarray(np.asarray(array, dtype=dtype))
        buffer = schema.BufferT()
        buffer.data = np.frombuffer(array.astype(array.dtype.newbyteorder("<")).tobytes(), dtype=np.uint8)
        self.buffers.append(buffer)
        return self._tensor(array.shape if shape is None else shape, array.dtype, len(self.buffers) - 1, name,
                            quantization, sparsity)

    def const_i32(self, values, name=None):
        return self.const(np.asarray(values, dtype=np.int32), name=name)

    def shape(self, index):
        """The tensor's shape, asking LiteRT when it was left to inference."""
        if self.shapes[index] is None:
            self.resolve_shapes(extra_outputs=[index])
        return list(self.shapes[index])

    # Operators

    def op(self, code, inputs, out_shape=None, options_type=OPT.NONE, options=None, out_dtype=np.float32,
           n_outputs=1, custom_code=None, out_shapes=None):
        """Appends an operator; returns its output tensor index (or a list when n_outputs > 1)."""
        key = (code, custom_code)
        if key not in self.opcodes:
            opcode = schema.OperatorCodeT()
            opcode.builtinCode = code
            opcode.deprecatedBuiltinCode = min(code, 127)
            opcode.version = 1
            opcode.customCode = custom_code
            self.opcodes[key] = (len(self.opcodes), opcode)
        outputs = []
        for k in range(n_outputs):
            shape = out_shapes[k] if out_shapes is not None else out_shape
            outputs.append(self._tensor(shape, out_dtype, 0, None))
        operator = schema.OperatorT()
        operator.opcodeIndex = self.opcodes[key][0]
        operator.inputs = [int(i) for i in inputs]
        operator.outputs = outputs
        operator.builtinOptionsType = options_type
        operator.builtinOptions = options
        self.operators.append(operator)
        self.op_names.append(custom_code if custom_code else OP_NAMES[code])
        return outputs[0] if n_outputs == 1 else outputs

    # Packing

    def pack(self, outputs):
        subgraph = schema.SubGraphT()
        subgraph.tensors = self.tensors
        subgraph.inputs = list(self.inputs)
        subgraph.outputs = [int(o) for o in outputs]
        subgraph.operators = self.operators
        subgraph.name = "main"
        model = schema.ModelT()
        model.version = 3
        model.description = self.description
        model.operatorCodes = [opcode for _, opcode in sorted(self.opcodes.values(), key=lambda e: e[0])]
        model.subgraphs = [subgraph]
        model.buffers = self.buffers
        builder = flatbuffers.Builder(1024)
        builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
        return bytes(builder.Output())

    def resolve_shapes(self, extra_outputs=()):
        """Fills in every unknown tensor shape with LiteRT's inference (reference kernels' Prepare)."""
        outputs = list(extra_outputs) or [len(self.tensors) - 1]
        interp = pvtools.reference_interpreter(model_content=self.pack(outputs))
        interp.allocate_tensors()
        for detail in interp.get_tensor_details():
            index = detail["index"]
            if index < len(self.tensors) and self.shapes[index] is None:
                inferred = [int(d) for d in detail["shape"]]
                self.shapes[index] = inferred
                self.tensors[index].shape = inferred

    def finish(self, outputs):
        """The packed model with `outputs` as subgraph outputs; checks stated shapes against LiteRT's."""
        outputs = [int(o) for o in outputs]
        self.resolve_shapes(extra_outputs=outputs)
        interp = pvtools.reference_interpreter(model_content=self.pack(outputs))
        interp.allocate_tensors()
        for detail in interp.get_tensor_details():
            index = detail["index"]
            if index < len(self.tensors) and self.tensors[index].buffer == 0:
                inferred = [int(d) for d in detail["shape"]]
                if inferred != self.shapes[index]:
                    raise ValueError(f"tensor {index}: stated shape {self.shapes[index]}, LiteRT infers {inferred}")
        return self.pack(outputs)


# Output shape arithmetic (TFLite's conventions).

def conv_out_size(size, kernel, stride, dilation, padding):
    effective = (kernel - 1) * dilation + 1
    if padding == PAD.SAME:
        return (size + stride - 1) // stride
    return (size - effective + stride) // stride


def broadcast_shape(a, b):
    return list(np.broadcast_shapes(tuple(a), tuple(b)))


# One helper per op. Each returns the output tensor index.

def add_conv2d(b, x, rng, out_channels, kernel=(3, 3), stride=(1, 1), dilation=(1, 1), padding=PAD.SAME,
               activation="NONE", bias=True, filter_tensor=None):
    n, h, w, c = b.shape(x)
    if filter_tensor is None:
        weights = rng.standard_normal((out_channels, kernel[0], kernel[1], c)).astype(np.float32)
        weights /= np.sqrt(kernel[0] * kernel[1] * c)
        filter_tensor = b.const(weights)
    inputs = [x, filter_tensor]
    # Without a bias the op has two inputs. LiteRT 2.3 itself cannot run that (see make_op_models.py).
    if bias:
        inputs.append(b.const(rng.standard_normal(out_channels).astype(np.float32) * 0.1))
    options = schema.Conv2DOptionsT()
    options.padding = padding
    options.strideH, options.strideW = stride
    options.dilationHFactor, options.dilationWFactor = dilation
    options.fusedActivationFunction = ACTIVATIONS[activation]
    oh = conv_out_size(h, kernel[0], stride[0], dilation[0], padding)
    ow = conv_out_size(w, kernel[1], stride[1], dilation[1], padding)
    return b.op(BO.CONV_2D, inputs, [n, oh, ow, out_channels], OPT.Conv2DOptions, options)


def add_depthwise(b, x, rng, kernel=(3, 3), stride=(1, 1), dilation=(1, 1), padding=PAD.SAME, multiplier=1,
                  activation="NONE", bias=True):
    n, h, w, c = b.shape(x)
    out_channels = c * multiplier
    weights = rng.standard_normal((1, kernel[0], kernel[1], out_channels)).astype(np.float32)
    weights /= np.sqrt(kernel[0] * kernel[1])
    inputs = [x, b.const(weights)]
    if bias:
        inputs.append(b.const(rng.standard_normal(out_channels).astype(np.float32) * 0.1))
    options = schema.DepthwiseConv2DOptionsT()
    options.padding = padding
    options.strideH, options.strideW = stride
    options.dilationHFactor, options.dilationWFactor = dilation
    options.depthMultiplier = multiplier
    options.fusedActivationFunction = ACTIVATIONS[activation]
    oh = conv_out_size(h, kernel[0], stride[0], dilation[0], padding)
    ow = conv_out_size(w, kernel[1], stride[1], dilation[1], padding)
    return b.op(BO.DEPTHWISE_CONV_2D, inputs, [n, oh, ow, out_channels], OPT.DepthwiseConv2DOptions, options)


def add_transpose_conv(b, x, rng, out_channels, output_hw, kernel=(3, 3), stride=(2, 2), padding=PAD.SAME,
                       activation="NONE", bias=True):
    """TRANSPOSE_CONV: inputs [output_shape int32[4], weights OHWI, input, bias?]; the output shape is given."""
    n, h, w, c = b.shape(x)
    weights = rng.standard_normal((out_channels, kernel[0], kernel[1], c)).astype(np.float32)
    weights /= np.sqrt(kernel[0] * kernel[1] * c)
    out_shape = [n, output_hw[0], output_hw[1], out_channels]
    inputs = [b.const_i32(out_shape), b.const(weights), x]
    if bias:
        inputs.append(b.const(rng.standard_normal(out_channels).astype(np.float32) * 0.1))
    options = schema.TransposeConvOptionsT()
    options.padding = padding
    options.strideH, options.strideW = stride
    options.fusedActivationFunction = ACTIVATIONS[activation]
    return b.op(BO.TRANSPOSE_CONV, inputs, out_shape, OPT.TransposeConvOptions, options)


def add_fully_connected(b, x, rng, units, bias=True, activation="NONE", keep_num_dims=False):
    shape = b.shape(x)
    k = shape[-1]
    weights = (rng.standard_normal((units, k)) / np.sqrt(k)).astype(np.float32)
    inputs = [x, b.const(weights)]
    inputs.append(b.const(rng.standard_normal(units).astype(np.float32) * 0.1) if bias else -1)
    options = schema.FullyConnectedOptionsT()
    options.fusedActivationFunction = ACTIVATIONS[activation]
    options.keepNumDims = keep_num_dims
    if keep_num_dims:
        out_shape = shape[:-1] + [units]
    else:
        out_shape = [int(np.prod(shape)) // k, units]
    return b.op(BO.FULLY_CONNECTED, inputs, out_shape, OPT.FullyConnectedOptions, options)


_BINARY = {
    "ADD": (BO.ADD, OPT.AddOptions, schema.AddOptionsT),
    "SUB": (BO.SUB, OPT.SubOptions, schema.SubOptionsT),
    "MUL": (BO.MUL, OPT.MulOptions, schema.MulOptionsT),
}


def add_binary(b, kind, lhs, rhs, activation="NONE"):
    code, options_type, options_class = _BINARY[kind]
    options = options_class()
    options.fusedActivationFunction = ACTIVATIONS[activation]
    return b.op(code, [lhs, rhs], broadcast_shape(b.shape(lhs), b.shape(rhs)), options_type, options)


def add_unary(b, code, x):
    return b.op(code, [x], b.shape(x))


def add_prelu(b, x, alpha):
    return b.op(BO.PRELU, [x, alpha], broadcast_shape(b.shape(x), b.shape(alpha)))


def add_pool(b, kind, x, filter_size=(2, 2), stride=(2, 2), padding=PAD.VALID, activation="NONE"):
    n, h, w, c = b.shape(x)
    options = schema.Pool2DOptionsT()
    options.padding = padding
    options.strideH, options.strideW = stride
    options.filterHeight, options.filterWidth = filter_size
    options.fusedActivationFunction = ACTIVATIONS[activation]
    code = BO.MAX_POOL_2D if kind == "MAX" else BO.AVERAGE_POOL_2D
    oh = conv_out_size(h, filter_size[0], stride[0], 1, padding)
    ow = conv_out_size(w, filter_size[1], stride[1], 1, padding)
    return b.op(code, [x], [n, oh, ow, c], OPT.Pool2DOptions, options)


def add_mean(b, x, axes, keep_dims):
    shape = b.shape(x)
    rank = len(shape)
    normalized = sorted({a % rank for a in axes})
    if keep_dims:
        out_shape = [1 if i in normalized else d for i, d in enumerate(shape)]
    else:
        out_shape = [d for i, d in enumerate(shape) if i not in normalized]
    options = schema.ReducerOptionsT()
    options.keepDims = keep_dims
    return b.op(BO.MEAN, [x, b.const_i32(axes)], out_shape, OPT.ReducerOptions, options)


def add_pad(b, x, paddings, value=None):
    shape = b.shape(x)
    out_shape = [d + lo + hi for d, (lo, hi) in zip(shape, paddings)]
    inputs = [x, b.const_i32(np.asarray(paddings, dtype=np.int32).reshape(len(shape), 2))]
    if value is None:
        return b.op(BO.PAD, inputs, out_shape, OPT.PadOptions, schema.PadOptionsT())
    inputs.append(b.const(np.asarray([value], dtype=np.float32)))
    return b.op(BO.PADV2, inputs, out_shape, OPT.PadV2Options, schema.PadV2OptionsT())


def add_reshape(b, x, new_shape, as_tensor):
    total = int(np.prod(b.shape(x)))
    known = int(np.prod([d for d in new_shape if d != -1]))
    out_shape = [total // known if d == -1 else d for d in new_shape]
    if as_tensor:
        return b.op(BO.RESHAPE, [x, b.const_i32(new_shape)], out_shape)
    options = schema.ReshapeOptionsT()
    options.newShape = [int(d) for d in new_shape]
    return b.op(BO.RESHAPE, [x], out_shape, OPT.ReshapeOptions, options)


def add_concat(b, xs, axis, activation="NONE"):
    shapes = [b.shape(x) for x in xs]
    rank = len(shapes[0])
    out_shape = list(shapes[0])
    out_shape[axis % rank] = sum(s[axis % rank] for s in shapes)
    options = schema.ConcatenationOptionsT()
    options.axis = axis
    options.fusedActivationFunction = ACTIVATIONS[activation]
    return b.op(BO.CONCATENATION, xs, out_shape, OPT.ConcatenationOptions, options)


def add_resize_bilinear(b, x, size, align_corners=False, half_pixel_centers=False):
    n, _, _, c = b.shape(x)
    options = schema.ResizeBilinearOptionsT()
    options.alignCorners = align_corners
    options.halfPixelCenters = half_pixel_centers
    return b.op(BO.RESIZE_BILINEAR, [x, b.const_i32(size)], [n, size[0], size[1], c],
                OPT.ResizeBilinearOptions, options)


def add_softmax(b, x, beta=1.0):
    options = schema.SoftmaxOptionsT()
    options.beta = beta
    return b.op(BO.SOFTMAX, [x], b.shape(x), OPT.SoftmaxOptions, options)


def add_strided_slice(b, x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                      shrink_axis_mask=0, offset=False):
    options = schema.StridedSliceOptionsT()
    options.beginMask = begin_mask
    options.endMask = end_mask
    options.ellipsisMask = ellipsis_mask
    options.newAxisMask = new_axis_mask
    options.shrinkAxisMask = shrink_axis_mask
    options.offset = offset
    inputs = [x, b.const_i32(begin), b.const_i32(end), b.const_i32(strides)]
    return b.op(BO.STRIDED_SLICE, inputs, None, OPT.StridedSliceOptions, options)


def add_depth_to_space(b, x, block):
    n, h, w, c = b.shape(x)
    options = schema.DepthToSpaceOptionsT()
    options.blockSize = block
    return b.op(BO.DEPTH_TO_SPACE, [x], [n, h * block, w * block, c // (block * block)],
                OPT.DepthToSpaceOptions, options)


def add_transpose(b, x, perm):
    shape = b.shape(x)
    return b.op(BO.TRANSPOSE, [x, b.const_i32(perm)], [shape[p] for p in perm], OPT.TransposeOptions,
                schema.TransposeOptionsT())


def add_dequantize(b, weights_tensor):
    return b.op(BO.DEQUANTIZE, [weights_tensor], b.shapes[weights_tensor])


def add_densify(b, sparse_tensor, dtype):
    return b.op(BO.DENSIFY, [sparse_tensor], b.shapes[sparse_tensor], OPT.DensifyOptions, schema.DensifyOptionsT(),
                out_dtype=dtype)


def int8_per_channel(b, weights, axis=0):
    """An int8 constant with symmetric per-channel scales along `axis` (zero points 0)."""
    moved = np.moveaxis(weights, axis, 0).reshape(weights.shape[axis], -1)
    scales = np.maximum(np.abs(moved).max(axis=1), 1e-6) / 127.0
    shape = [1] * weights.ndim
    shape[axis] = -1
    q = np.clip(np.round(weights / scales.reshape(shape)), -127, 127).astype(np.int8)
    quantization = schema.QuantizationParametersT()
    quantization.scale = scales.astype(np.float32).tolist()
    quantization.zeroPoint = [0] * len(scales)
    quantization.quantizedDimension = axis
    return b.const(q, quantization=quantization)


# Sparse constants in TFLite's SparsityParameters encoding.

_INDEX_VECTORS = {
    "uint8": (schema.SparseIndexVector.Uint8Vector, schema.Uint8VectorT, np.uint8),
    "uint16": (schema.SparseIndexVector.Uint16Vector, schema.Uint16VectorT, np.uint16),
    "int32": (schema.SparseIndexVector.Int32Vector, schema.Int32VectorT, np.int32),
}


def _index_vector(values, index_type):
    union_type, vector_class, dtype = _INDEX_VECTORS[index_type]
    vector = vector_class()
    vector.values = np.asarray(values, dtype=dtype)
    return union_type, vector


def encode_sparse(dense, traversal_order, formats, block_map=(), block_size=(), index_type="uint8"):
    """Encodes `dense` the way TFLite's sparsity format does; returns (values, SparsityParametersT).

    The expanded tensor has the original dimensions (a blocked dimension counts blocks) followed by one dimension per
    block_map entry (the position inside the block). `traversal_order` orders these expanded dimensions, and
    `formats[level]` (DENSE or SPARSE_CSR) and the dimension metadata follow that order. A CSR level keeps the
    children whose sub-tensor has any non-zero; values are every element under the kept positions, in traversal order.
    """
    rank = dense.ndim
    split_shape, outer_axes, inner_axes = [], [], [None] * len(block_map)
    for d in range(rank):
        if d in block_map:
            k = list(block_map).index(d)
            split_shape += [dense.shape[d] // block_size[k], block_size[k]]
            outer_axes.append(len(split_shape) - 2)
            inner_axes[k] = len(split_shape) - 1
        else:
            split_shape.append(dense.shape[d])
            outer_axes.append(len(split_shape) - 1)
    ordered = dense.reshape(split_shape).transpose(outer_axes + inner_axes).transpose(traversal_order)

    metadata, positions = [], [()]
    for level, fmt in enumerate(formats):
        size = ordered.shape[level]
        dim = schema.DimensionMetadataT()
        dim.format = fmt
        if fmt == schema.DimensionType.DENSE:
            dim.denseSize = size
            positions = [p + (i,) for p in positions for i in range(size)]
        else:
            segments, indices, kept = [0], [], []
            for p in positions:
                for i in range(size):
                    if np.any(ordered[p + (i,)] != 0):
                        indices.append(i)
                        kept.append(p + (i,))
                segments.append(len(indices))
            positions = kept
            dim.arraySegmentsType, dim.arraySegments = _index_vector(segments, index_type)
            dim.arrayIndicesType, dim.arrayIndices = _index_vector(indices, index_type)
        metadata.append(dim)
    values = np.array([ordered[p] for p in positions], dtype=dense.dtype).reshape(-1)
    sparsity = schema.SparsityParametersT()
    sparsity.traversalOrder = [int(t) for t in traversal_order]
    sparsity.blockMap = [int(m) for m in block_map] if len(block_map) else None
    sparsity.dimMetadata = metadata
    return values, sparsity


def sparse_const(b, dense, traversal_order, formats, block_map=(), block_size=(), index_type="uint8"):
    """A constant tensor of `dense`'s shape and dtype, stored sparsely (only the values in its buffer)."""
    values, sparsity = encode_sparse(dense, traversal_order, formats, block_map, block_size, index_type)
    return b.const(values, sparsity=sparsity, shape=dense.shape)


def add_densify_of(b, dense, traversal_order, formats, block_map=(), block_size=(), index_type="uint8"):
    """DENSIFY of `dense` stored sparsely; the builder records that its output must equal `dense`."""
    sparse = sparse_const(b, dense, traversal_order, formats, block_map, block_size, index_type)
    out = add_densify(b, sparse, dense.dtype)
    b.expected_tensors[out] = dense
    return out


def random_pruned(rng, shape, keep=0.3, block=None, dtype=np.float32):
    """Random weights with most entries (or most `block`-shaped blocks of the last dims) set to zero."""
    weights = rng.standard_normal(shape).astype(np.float32) / np.sqrt(np.prod(shape[1:]))
    if block is None:
        mask = rng.random(shape) < keep
    else:
        coarse = rng.random(tuple(s // k for s, k in zip(shape, block))) < keep
        mask = coarse
        for axis, k in enumerate(block):
            mask = np.repeat(mask, k, axis=axis)
    return (weights * mask).astype(dtype)
