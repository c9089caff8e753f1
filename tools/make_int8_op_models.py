#!/usr/bin/env python3
"""Writes the quantized (int8 / uint8) single-op and few-op model fixtures under Tests/PureVisionEngineTests/Fixtures/int8_ops/.

Every case is a small TFLite model built with tools/tflite_builder.py: 8-bit activations with per-tensor scale and
zero point, int8 symmetric per-channel weights, int32 biases; inputs are seeded random values over the whole integer
range (or float32 for the mixed cases), and the goldens are the outputs of LiteRT's builtin kernels
(BUILTIN_WITHOUT_DEFAULT_DELEGATES) in the model's own output types: <case>.tflite, <case>_input<I>.npy,
<case>_output<I>.npy, listed in cases.json. Cases cover every quantized operator, fused activations, extreme scales
and odd shapes, both directions of QUANTIZE / DEQUANTIZE and graphs that mix float and int8 ops.

Run from the repository root:  python3 tools/make_int8_op_models.py
"""

import json
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
import tflite_builder as tb  # noqa: E402
from tflite_builder import BO, OPT, PAD, ModelBuilder  # noqa: E402
from ai_edge_litert import schema_py_generated as schema  # noqa: E402

OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "int8_ops")
CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


def quant(scale, zero_point):
    q = schema.QuantizationParametersT()
    q.scale = [float(scale)]
    q.zeroPoint = [int(zero_point)]
    return q


def qinput(b, shape, scale, zp, dtype=np.int8):
    index = b._tensor(shape, dtype, 0, f"input{len(b.inputs)}", quant(scale, zp))
    b.inputs.append(index)
    return index


def qop(b, code, inputs, shape, scale, zp, options_type=OPT.NONE, options=None, dtype=np.int8):
    out = b.op(code, inputs, shape, options_type, options, out_dtype=dtype)
    b.tensors[out].quantization = quant(scale, zp)
    return out


def weights_per_channel(b, rng, shape, axis=0):
    return tb.int8_per_channel(b, rng.standard_normal(shape).astype(np.float32) * rng.uniform(0.2, 2.0), axis)


def bias(b, rng, input_scale, weights, count):
    scales = np.asarray(b.tensors[weights].quantization.scale, dtype=np.float64) * input_scale
    scales = np.broadcast_to(scales, (count,))
    q = schema.QuantizationParametersT()
    q.scale = scales.astype(np.float32).tolist()
    q.zeroPoint = [0] * count
    return b.const(rng.integers(-20000, 20000, count).astype(np.int32), quantization=q)


def conv(b, rng, x, in_scale, out_channels, kernel=(3, 3), stride=(1, 1), dilation=(1, 1), padding=PAD.SAME,
         activation="NONE", out_scale=0.05, out_zp=3):
    _, h, w, c = b.shapes[x]
    wt = weights_per_channel(b, rng, [out_channels, kernel[0], kernel[1], c])
    o = schema.Conv2DOptionsT()
    o.padding, o.strideH, o.strideW = padding, stride[0], stride[1]
    o.dilationHFactor, o.dilationWFactor = dilation
    o.fusedActivationFunction = tb.ACTIVATIONS[activation]
    shape = [b.shapes[x][0], tb.conv_out_size(h, kernel[0], stride[0], dilation[0], padding),
             tb.conv_out_size(w, kernel[1], stride[1], dilation[1], padding), out_channels]
    return qop(b, BO.CONV_2D, [x, wt, bias(b, rng, in_scale, wt, out_channels)], shape, out_scale, out_zp,
               OPT.Conv2DOptions, o)


def depthwise(b, rng, x, in_scale, kernel=(3, 3), stride=(1, 1), dilation=(1, 1), padding=PAD.SAME, multiplier=1,
              activation="NONE", out_scale=0.04, out_zp=-5):
    n, h, w, c = b.shapes[x]
    wt = weights_per_channel(b, rng, [1, kernel[0], kernel[1], c * multiplier], axis=3)
    o = schema.DepthwiseConv2DOptionsT()
    o.padding, o.strideH, o.strideW, o.depthMultiplier = padding, stride[0], stride[1], multiplier
    o.dilationHFactor, o.dilationWFactor = dilation
    o.fusedActivationFunction = tb.ACTIVATIONS[activation]
    shape = [n, tb.conv_out_size(h, kernel[0], stride[0], dilation[0], padding),
             tb.conv_out_size(w, kernel[1], stride[1], dilation[1], padding), c * multiplier]
    return qop(b, BO.DEPTHWISE_CONV_2D, [x, wt, bias(b, rng, in_scale, wt, c * multiplier)], shape, out_scale, out_zp,
               OPT.DepthwiseConv2DOptions, o)


def binary(b, kind, lhs, rhs, scale, zp, activation="NONE", dtype=np.int8):
    code, options_type, options_class = {
        "ADD": (BO.ADD, OPT.AddOptions, schema.AddOptionsT), "SUB": (BO.SUB, OPT.SubOptions, schema.SubOptionsT),
        "MUL": (BO.MUL, OPT.MulOptions, schema.MulOptionsT)}[kind]
    o = options_class()
    o.fusedActivationFunction = tb.ACTIVATIONS[activation]
    return qop(b, code, [lhs, rhs], tb.broadcast_shape(b.shapes[lhs], b.shapes[rhs]), scale, zp, options_type, o,
               dtype)


def pool(b, kind, x, scale, zp, size=(2, 2), stride=(2, 2), padding=PAD.VALID, activation="NONE", dtype=np.int8):
    n, h, w, c = b.shapes[x]
    o = schema.Pool2DOptionsT()
    o.padding, o.strideH, o.strideW, o.filterHeight, o.filterWidth = padding, stride[0], stride[1], size[0], size[1]
    o.fusedActivationFunction = tb.ACTIVATIONS[activation]
    shape = [n, tb.conv_out_size(h, size[0], stride[0], 1, padding), tb.conv_out_size(w, size[1], stride[1], 1, padding),
             c]
    return qop(b, BO.MAX_POOL_2D if kind == "MAX" else BO.AVERAGE_POOL_2D, [x], shape, scale, zp, OPT.Pool2DOptions, o,
               dtype)


# QUANTIZE / DEQUANTIZE, both directions and both 8-bit types

@case("quantize_float_to_int8")
def _(b, rng):
    return [qop(b, BO.QUANTIZE, [b.input([2, 3, 5, 7])], [2, 3, 5, 7], 0.0078, -3)]


@case("quantize_float_to_uint8")
def _(b, rng):
    return [qop(b, BO.QUANTIZE, [b.input([3, 17])], [3, 17], 0.0123, 131, dtype=np.uint8)]


@case("requantize_int8_to_int8")
def _(b, rng):
    return [qop(b, BO.QUANTIZE, [qinput(b, [1, 4, 5, 9], 0.05, 7)], [1, 4, 5, 9], 0.031, -11)]


@case("requantize_int8_to_uint8")
def _(b, rng):
    return [qop(b, BO.QUANTIZE, [qinput(b, [4, 33], 0.02, -4)], [4, 33], 0.02, 124, dtype=np.uint8)]


@case("requantize_uint8_to_int8")
def _(b, rng):
    return [qop(b, BO.QUANTIZE, [qinput(b, [4, 33], 0.1, 140, np.uint8)], [4, 33], 0.07, 2)]


@case("dequantize_int8")
def _(b, rng):
    return [b.op(BO.DEQUANTIZE, [qinput(b, [2, 5, 7], 0.0371, -9)], [2, 5, 7])]


@case("dequantize_uint8")
def _(b, rng):
    return [b.op(BO.DEQUANTIZE, [qinput(b, [3, 11], 0.21, 133, np.uint8)], [3, 11])]


# CONV_2D

for _name, _kw in [
    ("conv_3x3_same", dict()), ("conv_1x1_relu6", dict(kernel=(1, 1), activation="RELU6", out_scale=0.03, out_zp=-128)),
    ("conv_3x3_stride2_valid_relu", dict(stride=(2, 2), padding=PAD.VALID, activation="RELU")),
    ("conv_dilation2", dict(dilation=(2, 2))), ("conv_5x5_c17", dict(kernel=(5, 5))),
    ("conv_relu_n1_to_1", dict(activation="RELU_N1_TO_1", out_scale=0.01, out_zp=0)),
    ("conv_saturating_scale", dict(out_scale=0.0005, out_zp=0)), ("conv_huge_scale", dict(out_scale=40.0, out_zp=-2)),
]:
    def _conv_case(b, rng, kw=_kw, name=_name):
        channels = 17 if "c17" in name else 5
        x = qinput(b, [1, 9, 8, channels], 0.02, -7)
        return [conv(b, rng, x, 0.02, 19 if "c17" in name else 11, **kw)]
    case(_name)(_conv_case)


@case("conv_per_tensor_weights_batch2")
def _(b, rng):
    x = qinput(b, [2, 6, 7, 3], 0.05, 12)
    w = rng.standard_normal([6, 3, 3, 3]).astype(np.float32)
    scale = float(np.abs(w).max() / 127)
    wt = b.const(np.clip(np.round(w / scale), -127, 127).astype(np.int8), quantization=quant(scale, 0))
    o = schema.Conv2DOptionsT()
    o.padding, o.strideH, o.strideW = PAD.SAME, 1, 1
    return [qop(b, BO.CONV_2D, [x, wt, bias(b, rng, 0.05, wt, 6)], [2, 6, 7, 6], 0.1, -1, OPT.Conv2DOptions, o)]


def uint8_weights(b, rng, shape, zero_point):
    w = rng.standard_normal(shape).astype(np.float32)
    scale = float(np.abs(w).max() / 120)
    q = np.clip(np.round(w / scale) + zero_point, 0, 255).astype(np.uint8)
    return b.const(q, quantization=quant(scale, zero_point)), scale


@case("conv_uint8_3x3_relu6")
def _(b, rng):
    x = qinput(b, [1, 7, 6, 5], 0.02, 131, np.uint8)
    wt, ws = uint8_weights(b, rng, [9, 3, 3, 5], 117)
    bq = b.const(rng.integers(-3000, 3000, 9).astype(np.int32), quantization=quant(0.02 * ws, 0))
    o = schema.Conv2DOptionsT()
    o.padding, o.strideH, o.strideW = PAD.SAME, 1, 1
    o.fusedActivationFunction = tb.ACTIVATIONS["RELU6"]
    return [qop(b, BO.CONV_2D, [x, wt, bq], [1, 7, 6, 9], 0.03, 5, OPT.Conv2DOptions, o, np.uint8)]


@case("fc_uint8")
def _(b, rng):
    x = qinput(b, [2, 21], 0.05, 120, np.uint8)
    wt, ws = uint8_weights(b, rng, [7, 21], 140)
    bq = b.const(rng.integers(-3000, 3000, 7).astype(np.int32), quantization=quant(0.05 * ws, 0))
    return [qop(b, BO.FULLY_CONNECTED, [x, wt, bq], [2, 7], 0.2, 128, OPT.FullyConnectedOptions,
                schema.FullyConnectedOptionsT(), np.uint8)]


@case("dwconv_uint8_3x3")
def _(b, rng):
    x = qinput(b, [1, 6, 7, 10], 0.03, 125, np.uint8)
    wt, ws = uint8_weights(b, rng, [1, 3, 3, 10], 131)
    bq = b.const(rng.integers(-3000, 3000, 10).astype(np.int32), quantization=quant(0.03 * ws, 0))
    o = schema.DepthwiseConv2DOptionsT()
    o.padding, o.strideH, o.strideW, o.depthMultiplier = PAD.SAME, 1, 1, 1
    return [qop(b, BO.DEPTHWISE_CONV_2D, [x, wt, bq], [1, 6, 7, 10], 0.05, 120, OPT.DepthwiseConv2DOptions, o,
                np.uint8)]


# DEPTHWISE_CONV_2D

for _name, _kw, _c in [
    ("dwconv_3x3_same", dict(), 16), ("dwconv_5x5_s2_relu6", dict(kernel=(5, 5), stride=(2, 2), activation="RELU6"), 24),
    ("dwconv_c13_valid", dict(padding=PAD.VALID), 13), ("dwconv_multiplier2", dict(multiplier=2), 3),
    ("dwconv_dilation2_relu", dict(dilation=(2, 2), activation="RELU"), 8),
    ("dwconv_extreme_input_zero_point", dict(out_scale=0.2, out_zp=120), 9),
]:
    def _dw_case(b, rng, kw=_kw, c=_c, name=_name):
        zp = 127 if "extreme" in name else -20
        x = qinput(b, [1, 9, 10, c], 0.03, zp)
        return [depthwise(b, rng, x, 0.03, **kw)]
    case(_name)(_dw_case)


# FULLY_CONNECTED

def _fc(b, rng, x, in_scale, units, activation="NONE", keep=False, per_channel=False, out_shape=None):
    k = b.shapes[x][-1]
    w = rng.standard_normal([units, k]).astype(np.float32)
    if per_channel:
        wt = tb.int8_per_channel(b, w, 0)
    else:
        scale = float(np.abs(w).max() / 127)
        wt = b.const(np.clip(np.round(w / scale), -127, 127).astype(np.int8), quantization=quant(scale, 0))
    o = schema.FullyConnectedOptionsT()
    o.fusedActivationFunction = tb.ACTIVATIONS[activation]
    o.keepNumDims = keep
    return qop(b, BO.FULLY_CONNECTED, [x, wt, bias(b, rng, in_scale, wt, units)], out_shape, 0.2, -9,
               OPT.FullyConnectedOptions, o)


case("fc_bias")(lambda b, rng: [_fc(b, rng, qinput(b, [1, 37], 0.05, 3), 0.05, 13, out_shape=[1, 13])])
case("fc_relu_batch3")(lambda b, rng: [_fc(b, rng, qinput(b, [3, 20], 0.05, -3), 0.05, 9, "RELU", out_shape=[3, 9])])
case("fc_keep_num_dims")(lambda b, rng: [
    _fc(b, rng, qinput(b, [1, 2, 3, 8], 0.05, 0), 0.05, 5, keep=True, out_shape=[1, 2, 3, 5])])

# ADD / SUB / MUL

case("add_same_shape")(lambda b, rng: [
    binary(b, "ADD", qinput(b, [1, 5, 6, 7], 0.03, -4), qinput(b, [1, 5, 6, 7], 0.05, 9), 0.06, 2)])
case("add_broadcast_relu6")(lambda b, rng: [
    binary(b, "ADD", qinput(b, [1, 4, 5, 6], 0.04, -4), qinput(b, [1, 1, 1, 6], 0.02, 1), 0.03, -128, "RELU6")])
case("add_extreme_scale_ratio")(lambda b, rng: [
    binary(b, "ADD", qinput(b, [2, 3, 9], 0.0001, 10), qinput(b, [2, 3, 9], 1.5, -2), 1.2, 0)])
case("sub_two_sided_broadcast")(lambda b, rng: [
    binary(b, "SUB", qinput(b, [1, 4, 1, 6], 0.05, 0), qinput(b, [1, 1, 5, 1], 0.03, -7), 0.07, 5)])
case("mul_same_shape")(lambda b, rng: [
    binary(b, "MUL", qinput(b, [1, 5, 6, 7], 0.03, -4), qinput(b, [1, 5, 6, 7], 0.05, 9), 0.01, 2)])
case("mul_broadcast_relu")(lambda b, rng: [
    binary(b, "MUL", qinput(b, [1, 4, 5, 6], 0.04, -4), qinput(b, [6], 0.02, 1), 0.002, -100, "RELU")])
# Same-shape ADD rounds its input terms one way in TFLite's vector loop (whole blocks of 16 int8 / 8 uint8 elements)
# and another in its scalar loop over the rest; these scales and zero points (one of EfficientNet-Lite0's ADDs) give
# input pairs on the ties, placed both inside the blocks and in the tail.
ADD_TIE_SCALES = (0.3364337384700775, 0.4310333728790283, 0.47853824496269226)
ADD_TIE_PAIRS = {np.int8: [(28, -15), (-42, 3)], np.uint8: [(156, 113)]}
CASE_INPUTS = {}  # case name -> function(rng, input details) giving the inputs instead of uniform random bytes


def _add_ties(name, dtype, count, zero_points, positions):
    za, zb, zo = zero_points
    case(name)(lambda b, rng: [binary(b, "ADD", qinput(b, [1, count], ADD_TIE_SCALES[0], za, dtype),
                                      qinput(b, [1, count], ADD_TIE_SCALES[1], zb, dtype), ADD_TIE_SCALES[2], zo,
                                      dtype=dtype)])

    def inputs(rng, details):
        info = np.iinfo(dtype)
        lhs, rhs = (rng.integers(info.min, info.max + 1, [1, count]) for _ in range(2))
        pairs = ADD_TIE_PAIRS[dtype]
        for k, position in enumerate(positions):
            lhs[0, position], rhs[0, position] = pairs[k % len(pairs)]
        return [lhs.astype(dtype), rhs.astype(dtype)]
    CASE_INPUTS[name] = inputs


_add_ties("add_int8_rounding_ties", np.int8, 16 * 3 + 11, (-7, -6, -4), [0, 5, 17, 40, 47, 48, 52, 58])
_add_ties("add_uint8_rounding_ties", np.uint8, 8 * 3 + 5, (121, 122, 124), [0, 9, 23, 24, 26, 28])

case("add_uint8")(lambda b, rng: [
    binary(b, "ADD", qinput(b, [3, 11], 0.03, 128, np.uint8), qinput(b, [3, 11], 0.05, 100, np.uint8), 0.06, 120,
           dtype=np.uint8)])


# MEAN

def _mean(b, x, axes, keep, shape, scale, zp, dtype=np.int8):
    o = schema.ReducerOptionsT()
    o.keepDims = keep
    return qop(b, BO.MEAN, [x, b.const_i32(axes)], shape, scale, zp, OPT.ReducerOptions, o, dtype)


case("mean_hw_keep")(lambda b, rng: [_mean(b, qinput(b, [2, 5, 7, 9], 0.05, -6), [1, 2], True, [2, 1, 1, 9], 0.02, 4)])
case("mean_hw_nokeep")(lambda b, rng: [_mean(b, qinput(b, [1, 7, 7, 12], 0.05, -6), [1, 2], False, [1, 12], 0.03, -1)])
case("mean_last_axis")(lambda b, rng: [_mean(b, qinput(b, [1, 4, 5, 6], 0.05, 3), [-1], False, [1, 4, 5], 0.05, 3)])
case("mean_hw_keep_uint8")(lambda b, rng: [
    _mean(b, qinput(b, [1, 6, 5, 4], 0.05, 128, np.uint8), [1, 2], True, [1, 1, 1, 4], 0.04, 130, np.uint8)])

# Pools

case("avgpool_2x2_valid_odd")(lambda b, rng: [pool(b, "AVG", qinput(b, [1, 7, 9, 5], 0.1, 3), 0.1, 3)])
case("avgpool_3x3_s2_same_relu6")(lambda b, rng: [
    pool(b, "AVG", qinput(b, [1, 7, 7, 4], 0.05, -10), 0.05, -10, (3, 3), (2, 2), PAD.SAME, "RELU6")])
case("maxpool_3x3_s2_same")(lambda b, rng: [
    pool(b, "MAX", qinput(b, [2, 7, 9, 3], 0.1, 3), 0.1, 3, (3, 3), (2, 2), PAD.SAME)])
case("maxpool_2x2_relu")(lambda b, rng: [pool(b, "MAX", qinput(b, [1, 6, 6, 4], 0.1, 20), 0.1, 20, activation="RELU")])
case("avgpool_uint8")(lambda b, rng: [
    pool(b, "AVG", qinput(b, [1, 6, 7, 3], 0.1, 128, np.uint8), 0.1, 128, dtype=np.uint8)])


# Activations

def _unary(b, code, shape, in_q, out_q, dtype=np.int8):
    return qop(b, code, [qinput(b, shape, *in_q, dtype)], shape, *out_q, dtype=dtype)


case("relu_rescaled")(lambda b, rng: [_unary(b, BO.RELU, [1, 5, 6, 7], (0.05, -3), (0.03, -128))])
case("relu6_rescaled")(lambda b, rng: [_unary(b, BO.RELU6, [1, 5, 6, 7], (0.1, 0), (0.03, -128))])
case("relu_n1_to_1")(lambda b, rng: [_unary(b, BO.RELU_N1_TO_1, [2, 5, 7], (0.02, 5), (0.01, 0))])
case("logistic")(lambda b, rng: [_unary(b, BO.LOGISTIC, [1, 5, 6, 7], (0.06, -3), (1 / 256, -128))])
case("tanh")(lambda b, rng: [_unary(b, BO.TANH, [1, 5, 6, 7], (0.03, 4), (1 / 128, 0))])
case("hard_swish")(lambda b, rng: [_unary(b, BO.HARD_SWISH, [1, 5, 6, 7], (0.05, -10), (0.03, -90))])
case("hard_swish_wide_input")(lambda b, rng: [_unary(b, BO.HARD_SWISH, [3, 41], (0.4, 7), (0.2, -120))])
case("logistic_uint8")(lambda b, rng: [_unary(b, BO.LOGISTIC, [2, 31], (0.08, 128), (1 / 256, 0), np.uint8)])


def _softmax(b, shape, in_q, beta, dtype=np.int8):
    o = schema.SoftmaxOptionsT()
    o.beta = beta
    zp = -128 if dtype == np.int8 else 0
    return qop(b, BO.SOFTMAX, [qinput(b, shape, *in_q, dtype)], shape, 1 / 256, zp, OPT.SoftmaxOptions, o, dtype)


case("softmax")(lambda b, rng: [_softmax(b, [3, 37], (0.1, -5), 1.0)])
case("softmax_beta_half")(lambda b, rng: [_softmax(b, [1, 4, 10], (0.3, 2), 0.5)])
case("softmax_uint8")(lambda b, rng: [_softmax(b, [2, 19], (0.1, 128), 1.0, np.uint8)])


@case("prelu_per_channel")
def _(b, rng):
    x = qinput(b, [1, 4, 5, 6], 0.05, -3)
    alpha = b.const(rng.integers(-60, 100, [1, 1, 6]).astype(np.int8), quantization=quant(0.004, -10))
    return [qop(b, BO.PRELU, [x, alpha], [1, 4, 5, 6], 0.04, 2)]


# Layout

@case("pad_and_reshape")
def _(b, rng):
    x = qinput(b, [1, 4, 5, 3], 0.05, -7)
    padded = qop(b, BO.PAD, [x, b.const_i32([[0, 0], [1, 2], [0, 3], [0, 0]])], [1, 7, 8, 3], 0.05, -7)
    o = schema.ReshapeOptionsT()
    o.newShape = [1, 56, 3]
    return [qop(b, BO.RESHAPE, [padded, b.const_i32([1, 56, 3])], [1, 56, 3], 0.05, -7, OPT.ReshapeOptions, o)]


@case("padv2_value")
def _(b, rng):
    x = qinput(b, [1, 3, 4, 2], 0.05, 1)
    value = b.const(np.asarray([17], dtype=np.int8), quantization=quant(0.05, 1), shape=[])
    return [qop(b, BO.PADV2, [x, b.const_i32([[0, 0], [2, 0], [1, 1], [0, 1]]), value], [1, 5, 6, 3], 0.05, 1)]


@case("concatenation_axis3")
def _(b, rng):
    xs = [qinput(b, [1, 3, 4, c], 0.05, 2) for c in (2, 5, 1)]
    o = schema.ConcatenationOptionsT()
    o.axis = 3
    return [qop(b, BO.CONCATENATION, xs, [1, 3, 4, 8], 0.05, 2, OPT.ConcatenationOptions, o)]


@case("concatenation_inputs_in_output_slot")
def _(b, rng):
    # As an int8 EfficientDet's heads: ADDs, RESHAPEs, then a CONCATENATION along axis 1, computed in place.
    x = qinput(b, [1, 4, 6], 0.05, 3)
    y = qinput(b, [1, 4, 6], 0.05, 3)
    a = binary(b, "ADD", x, y, 0.1, -2)
    m = binary(b, "ADD", x, x, 0.1, -2)
    ra = qop(b, BO.RESHAPE, [a, b.const_i32([1, 8, 3])], [1, 8, 3], 0.1, -2)
    rm = qop(b, BO.RESHAPE, [m, b.const_i32([1, 8, 3])], [1, 8, 3], 0.1, -2)
    o = schema.ConcatenationOptionsT()
    o.axis = 1
    return [qop(b, BO.CONCATENATION, [ra, rm], [1, 16, 3], 0.1, -2, OPT.ConcatenationOptions, o)]


def _resize(b, shape, size, align=False, half=False):
    o = schema.ResizeBilinearOptionsT()
    o.alignCorners, o.halfPixelCenters = align, half
    x = qinput(b, shape, 0.05, -3)
    return qop(b, BO.RESIZE_BILINEAR, [x, b.const_i32(size)], [shape[0], size[0], size[1], shape[3]], 0.05, -3,
               OPT.ResizeBilinearOptions, o)


case("resize_bilinear_up")(lambda b, rng: [_resize(b, [1, 5, 4, 3], [11, 9])])
case("resize_bilinear_half_pixel")(lambda b, rng: [_resize(b, [1, 6, 5, 2], [12, 10], half=True)])
case("resize_bilinear_align_corners")(lambda b, rng: [_resize(b, [1, 4, 6, 3], [7, 11], align=True)])
case("resize_bilinear_down")(lambda b, rng: [_resize(b, [1, 9, 8, 2], [4, 3])])


def _resize_nearest(b, shape, size, align=False, half=False, dtype=np.int8):
    o = schema.ResizeNearestNeighborOptionsT()
    o.alignCorners, o.halfPixelCenters = align, half
    x = qinput(b, shape, 0.05, 3, dtype)
    return qop(b, BO.RESIZE_NEAREST_NEIGHBOR, [x, b.const_i32(size)], [shape[0], size[0], size[1], shape[3]], 0.05,
               3, OPT.ResizeNearestNeighborOptions, o, dtype)


# EfficientDet's BiFPN up-samples 3 -> 5 and by 2; uint8 without either flag takes LiteRT's fixed-point path.
case("resize_nearest_x2")(lambda b, rng: [_resize_nearest(b, [1, 5, 4, 3], [10, 8])])
case("resize_nearest_3_to_5")(lambda b, rng: [_resize_nearest(b, [2, 3, 3, 5], [5, 5])])
case("resize_nearest_odd_uint8")(lambda b, rng: [_resize_nearest(b, [1, 7, 5, 2], [17, 13], dtype=np.uint8)])
case("resize_nearest_half_pixel")(lambda b, rng: [_resize_nearest(b, [1, 6, 5, 2], [13, 9], half=True)])
case("resize_nearest_align_corners_uint8")(
    lambda b, rng: [_resize_nearest(b, [1, 4, 6, 3], [7, 11], align=True, dtype=np.uint8)])
case("resize_nearest_down")(lambda b, rng: [_resize_nearest(b, [1, 9, 8, 2], [4, 3])])


# Mixed float / int8 graphs

@case("mixed_quantize_conv_dequantize_float_add")
def _(b, rng):
    x = b.input([1, 8, 8, 3])
    q = qop(b, BO.QUANTIZE, [x], [1, 8, 8, 3], 1 / 128, 0)
    c = conv(b, rng, q, 1 / 128, 8, activation="RELU6", out_scale=6 / 255, out_zp=-128)
    d = depthwise(b, rng, c, 6 / 255, stride=(2, 2), out_scale=0.05, out_zp=1)
    f = b.op(BO.DEQUANTIZE, [d], [1, 4, 4, 8])
    y = b.op(BO.ADD, [f, b.input([1, 4, 4, 8])], [1, 4, 4, 8], OPT.AddOptions, schema.AddOptionsT())
    q2 = qop(b, BO.QUANTIZE, [y], [1, 4, 4, 8], 0.07, -2)
    m = _mean(b, q2, [1, 2], False, [1, 8], 0.05, 0)
    fc = _fc(b, rng, m, 0.05, 10, out_shape=[1, 10])
    o = schema.SoftmaxOptionsT()
    o.beta = 1.0
    s = qop(b, BO.SOFTMAX, [fc], [1, 10], 1 / 256, -128, OPT.SoftmaxOptions, o)
    return [b.op(BO.DEQUANTIZE, [s], [1, 10]), y]


@case("mixed_float_prelu_between_int8")
def _(b, rng):
    x = qinput(b, [1, 6, 6, 4], 0.04, -2)
    c = conv(b, rng, x, 0.04, 6, out_scale=0.05, out_zp=0)
    f = b.op(BO.DEQUANTIZE, [c], [1, 6, 6, 6])
    p = b.op(BO.PRELU, [f, b.const(rng.uniform(0, 0.3, [1, 1, 6]).astype(np.float32))], [1, 6, 6, 6])
    q = qop(b, BO.QUANTIZE, [p], [1, 6, 6, 6], 0.05, -10)
    return [binary(b, "ADD", q, c, 0.08, -3, "RELU")]


# Float islands between 8-bit tensors (DEQUANTIZE, channel-wise float operators, QUANTIZE): the engine runs each as
# one lookup per element (ChannelLookupFusion) unless an inner tensor has another reader.

def _leaky_relu(b, x, shape, alpha):
    o = schema.LeakyReluOptionsT()
    o.alpha = alpha
    return b.op(BO.LEAKY_RELU, [x], shape, OPT.LeakyReluOptions, o)


@case("mixed_chain_dequantize_prelu_quantize_odd")
def _(b, rng):
    x = qinput(b, [1, 7, 9, 5], 0.037, -9)
    f = b.op(BO.DEQUANTIZE, [x], [1, 7, 9, 5])
    p = b.op(BO.PRELU, [f, b.const(rng.uniform(-0.5, 1.5, [1, 1, 5]).astype(np.float32))], [1, 7, 9, 5])
    return [qop(b, BO.QUANTIZE, [p], [1, 7, 9, 5], 0.029, 11)]


@case("mixed_chain_uint8_prelu_relu6_leaky_to_int8")
def _(b, rng):
    x = qinput(b, [2, 6, 17], 0.05, 131, np.uint8)
    f = b.op(BO.DEQUANTIZE, [x], [2, 6, 17])
    p = b.op(BO.PRELU, [f, b.const(rng.uniform(0, 0.4, [17]).astype(np.float32))], [2, 6, 17])
    r = b.op(BO.RELU6, [p], [2, 6, 17])
    k = _leaky_relu(b, r, [2, 6, 17], 0.3)
    return [qop(b, BO.QUANTIZE, [k], [2, 6, 17], 0.021, -100)]


@case("mixed_chain_inner_tensor_also_output")
def _(b, rng):
    x = qinput(b, [1, 4, 4, 6], 0.04, 3)
    f = b.op(BO.DEQUANTIZE, [x], [1, 4, 4, 6])
    p = b.op(BO.PRELU, [f, b.const(rng.uniform(0, 0.3, [1, 1, 6]).astype(np.float32))], [1, 4, 4, 6])
    return [qop(b, BO.QUANTIZE, [p], [1, 4, 4, 6], 0.03, 120, dtype=np.uint8), p]


@case("mixed_chain_after_add_two_readers")
def _(b, rng):
    x = qinput(b, [1, 5, 5, 8], 0.05, -4)
    y = qinput(b, [1, 5, 5, 8], 0.07, 6)
    a = binary(b, "ADD", x, y, 0.09, -1)
    f = b.op(BO.DEQUANTIZE, [a], [1, 5, 5, 8])
    p = b.op(BO.PRELU, [f, b.const(rng.uniform(0, 0.3, [1, 1, 8]).astype(np.float32))], [1, 5, 5, 8])
    q = qop(b, BO.QUANTIZE, [p], [1, 5, 5, 8], 0.06, 2)
    return [binary(b, "ADD", q, a, 0.1, 0)]


# Chains from an 8-bit tensor to a float32 one (ChannelLookupFusion's float tables), and through an 8-bit table
# operator first: an int8 EfficientDet's class scores are LOGISTIC then DEQUANTIZE.

@case("mixed_chain_logistic_dequantize")
def _(b, rng):
    x = qinput(b, [1, 37, 90], 0.11, 9)
    s = qop(b, BO.LOGISTIC, [x], [1, 37, 90], 1 / 256, -128)
    return [b.op(BO.DEQUANTIZE, [s], [1, 37, 90])]


@case("mixed_chain_dequantize_prelu_float_out")
def _(b, rng):
    x = qinput(b, [1, 5, 7, 6], 0.043, -7)
    f = b.op(BO.DEQUANTIZE, [x], [1, 5, 7, 6])
    return [b.op(BO.PRELU, [f, b.const(rng.uniform(-0.5, 1.5, [1, 1, 6]).astype(np.float32))], [1, 5, 7, 6])]


@case("mixed_chain_logistic_dequantize_prelu_quantize")
def _(b, rng):
    x = qinput(b, [2, 3, 11], 0.09, 4)
    s = qop(b, BO.LOGISTIC, [x], [2, 3, 11], 1 / 256, -128)
    f = b.op(BO.DEQUANTIZE, [s], [2, 3, 11])
    p = b.op(BO.PRELU, [f, b.const(rng.uniform(0.5, 2.0, [11]).astype(np.float32))], [2, 3, 11])
    return [qop(b, BO.QUANTIZE, [p], [2, 3, 11], 0.01, -60)]


@case("mixed_chain_logistic_output_also_read")
def _(b, rng):
    x = qinput(b, [1, 9, 13], 0.08, -2)
    s = qop(b, BO.LOGISTIC, [x], [1, 9, 13], 1 / 256, -128)
    return [b.op(BO.DEQUANTIZE, [s], [1, 9, 13]), s]


def build_case(name):
    seed = zlib.crc32(name.encode())
    rng = np.random.default_rng(seed)
    b = ModelBuilder(f"PureVision int8 op case {name}")
    outputs = CASES[name](b, rng)
    model = b.finish(outputs)
    interp = pvtools.reference_interpreter(model_content=model)
    interp.allocate_tensors()
    if name in CASE_INPUTS:
        return model, CASE_INPUTS[name](rng, interp.get_input_details()), list(dict.fromkeys(b.op_names))
    inputs = []
    for d in interp.get_input_details():
        if d["dtype"] in (np.int8, np.uint8):
            info = np.iinfo(d["dtype"])
            inputs.append(rng.integers(info.min, info.max + 1, d["shape"]).astype(d["dtype"]))
        else:
            inputs.append(rng.uniform(-1, 1, d["shape"]).astype(np.float32))
    return model, inputs, list(dict.fromkeys(b.op_names))


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    entries = []
    for name in CASES:
        model, inputs, ops = build_case(name)
        outputs = pvtools.run(pvtools.reference_interpreter(model_content=model), inputs)
        with open(os.path.join(OUT_DIR, f"{name}.tflite"), "wb") as f:
            f.write(model)
        entry = {"name": name, "ops": ops, "model": f"{name}.tflite", "inputs": [], "outputs": []}
        for kind, arrays in (("input", inputs), ("output", outputs)):
            for i, array in enumerate(arrays):
                file_name = f"{name}_{kind}{i}.npy"
                pvtools.save_npy(os.path.join(OUT_DIR, file_name), array)
                entry[kind + "s"].append({"file": file_name, "shape": list(array.shape), "dtype": str(array.dtype)})
        entries.append(entry)
    manifest = {
        "generator": "python3 tools/make_int8_op_models.py",
        "litert": f"ai-edge-litert {pvtools.LITERT_VERSION}",
        "reference_kernels": "Interpreter(experimental_op_resolver_type=BUILTIN_WITHOUT_DEFAULT_DELEGATES)",
        "expect": "8-bit outputs identical; float outputs within 1e-4 + 1e-3 * |ref|",
        "cases": entries,
    }
    with open(os.path.join(OUT_DIR, "cases.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"{len(entries)} cases written to {OUT_DIR}")


if __name__ == "__main__":
    main()
