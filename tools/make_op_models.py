#!/usr/bin/env python3
"""Writes the single-op (and few-op) model fixtures under Tests/PureVisionEngineTests/Fixtures/ops/.

Every case is a small float32 TFLite model built with tools/tflite_builder.py, seeded random weights and inputs
(numpy default_rng, a fixed seed per case), and the outputs of LiteRT's builtin reference kernels:
<case>.tflite, <case>_input<I>.npy, <case>_output<I>.npy, listed in cases.json. custom_op.tflite holds one custom
operator, MyCustomOp, for the engine's refusal test (LiteRT cannot run it either, so it has no golden).

Run from the repository root:  python3 tools/make_op_models.py [--only NAME ...] [--list]
"""

import argparse
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

OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "ops")
MAX_CASE_BYTES = 60_000
DENSE, CSR = schema.DimensionType.DENSE, schema.DimensionType.SPARSE_CSR

CASES = {}


def case(name, input_range=(-1.0, 1.0)):
    """Registers a builder function `fn(b, rng) -> outputs` under `name`."""
    def register(fn):
        if name in CASES:
            raise ValueError(f"duplicate case {name}")
        CASES[name] = (fn, input_range)
        return fn
    return register


def register_family(name, fn, input_range=(-1.0, 1.0)):
    case(name, input_range)(fn)


# CONV_2D

def _conv_case(shape, out_channels, **kw):
    return lambda b, rng: [tb.add_conv2d(b, b.input(shape), rng, out_channels, **kw)]


register_family("conv2d_1x1", _conv_case([1, 5, 6, 8], 12, kernel=(1, 1)))
register_family("conv2d_3x3_same", _conv_case([1, 7, 8, 4], 6, padding=PAD.SAME))
register_family("conv2d_3x3_valid", _conv_case([1, 7, 8, 4], 6, padding=PAD.VALID))
register_family("conv2d_3x3_stride2_odd_same", _conv_case([1, 9, 11, 3], 8, stride=(2, 2), padding=PAD.SAME))
register_family("conv2d_3x3_stride2_odd_valid", _conv_case([1, 9, 11, 3], 8, stride=(2, 2), padding=PAD.VALID))
register_family("conv2d_stride_2x1", _conv_case([1, 8, 7, 4], 5, stride=(2, 1), padding=PAD.SAME))
register_family("conv2d_dilation2_same", _conv_case([1, 9, 9, 4], 5, dilation=(2, 2), padding=PAD.SAME))
register_family("conv2d_dilation2_valid", _conv_case([1, 9, 10, 4], 5, dilation=(2, 2), padding=PAD.VALID))
for _act in ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]:
    register_family(f"conv2d_act_{_act.lower()}", _conv_case([1, 6, 6, 5], 7, activation=_act), (-4.0, 4.0))
# No bias-less conv cases: LiteRT 2.3 rejects CONV_2D without a bias ("has_bias was not true") and its reference
# DEPTHWISE_CONV_2D crashes on one, so neither has a reference output.
register_family("conv2d_batch2", _conv_case([2, 6, 6, 3], 4))
register_family("conv2d_5x5_c7", _conv_case([1, 9, 9, 7], 6, kernel=(5, 5)))
register_family("conv2d_c1", _conv_case([1, 8, 8, 1], 3))
register_family("conv2d_c3", _conv_case([1, 8, 8, 3], 3))
register_family("conv2d_c17", _conv_case([1, 6, 6, 17], 17))
register_family("conv2d_3x1_kernel", _conv_case([1, 7, 6, 5], 4, kernel=(3, 1)))


# DEPTHWISE_CONV_2D

def _dw_case(shape, **kw):
    return lambda b, rng: [tb.add_depthwise(b, b.input(shape), rng, **kw)]


register_family("dwconv_3x3_s1_same", _dw_case([1, 7, 8, 6]))
register_family("dwconv_3x3_s1_valid", _dw_case([1, 7, 8, 6], padding=PAD.VALID))
register_family("dwconv_3x3_s2_same_odd", _dw_case([1, 9, 11, 5], stride=(2, 2)))
register_family("dwconv_3x3_s2_valid_odd", _dw_case([1, 9, 11, 5], stride=(2, 2), padding=PAD.VALID))
register_family("dwconv_5x5_s1_same", _dw_case([1, 9, 9, 8], kernel=(5, 5)))
register_family("dwconv_5x5_s2_same", _dw_case([1, 10, 10, 8], kernel=(5, 5), stride=(2, 2)))
register_family("dwconv_5x5_s2_valid", _dw_case([1, 11, 11, 3], kernel=(5, 5), stride=(2, 2), padding=PAD.VALID))
register_family("dwconv_multiplier2", _dw_case([1, 6, 7, 3], multiplier=2))
register_family("dwconv_multiplier2_c1", _dw_case([1, 6, 6, 1], multiplier=2, padding=PAD.VALID))
register_family("dwconv_dilation2", _dw_case([1, 9, 9, 4], dilation=(2, 2)))
register_family("dwconv_dilation2_valid", _dw_case([1, 9, 9, 4], dilation=(2, 2), padding=PAD.VALID))
for _act in ["RELU", "RELU6", "RELU_N1_TO_1"]:
    register_family(f"dwconv_act_{_act.lower()}", _dw_case([1, 6, 6, 5], activation=_act), (-4.0, 4.0))
register_family("dwconv_c17", _dw_case([1, 5, 5, 17]))


# FULLY_CONNECTED

register_family("fc_bias", lambda b, rng: [tb.add_fully_connected(b, b.input([2, 24]), rng, 10)])
register_family("fc_no_bias", lambda b, rng: [tb.add_fully_connected(b, b.input([3, 16]), rng, 7, bias=False)])
register_family("fc_relu", lambda b, rng: [tb.add_fully_connected(b, b.input([1, 20]), rng, 9, activation="RELU")],
                (-3.0, 3.0))


@case("fc_4d_input_flattened")
def _fc_4d(b, rng):
    # keep_num_dims false: the [2, 3, 3, 4] input is read as [72 / k, k] with k = 36 from the weights.
    x = b.input([2, 3, 3, 4])
    weights = (rng.standard_normal((5, 36)) / 6.0).astype(np.float32)
    options = schema.FullyConnectedOptionsT()
    options.keepNumDims = False
    bias = b.const(rng.standard_normal(5).astype(np.float32) * 0.1)
    return [b.op(BO.FULLY_CONNECTED, [x, b.const(weights), bias], [2, 5], tb.OPT.FullyConnectedOptions, options)]


register_family("fc_keep_num_dims", lambda b, rng: [
    tb.add_fully_connected(b, b.input([1, 3, 4, 8]), rng, 6, keep_num_dims=True)])


# ADD / SUB / MUL

def _binary_case(kind, lhs_shape, rhs_shape, rhs_const=False, activation="NONE", swap=False):
    def build(b, rng):
        lhs = b.input(lhs_shape)
        if rhs_const:
            rhs = b.const(rng.uniform(-1, 1, rhs_shape).astype(np.float32))
        else:
            rhs = b.input(rhs_shape)
        if swap:
            lhs, rhs = rhs, lhs
        return [tb.add_binary(b, kind, lhs, rhs, activation)]
    return build


for _kind in ["ADD", "SUB", "MUL"]:
    _k = _kind.lower()
    register_family(f"{_k}_same_shape", _binary_case(_kind, [1, 4, 5, 6], [1, 4, 5, 6]))
    register_family(f"{_k}_scalar_const", _binary_case(_kind, [1, 4, 5, 6], [], rhs_const=True))
    register_family(f"{_k}_scalar_lhs", _binary_case(_kind, [1, 4, 5, 6], [1], rhs_const=True, swap=True))
    register_family(f"{_k}_per_channel", _binary_case(_kind, [1, 4, 5, 6], [6], rhs_const=True))
    register_family(f"{_k}_two_sided_broadcast", _binary_case(_kind, [1, 4, 1, 6], [1, 1, 5, 1]))
    register_family(f"{_k}_relu6", _binary_case(_kind, [1, 3, 4, 5], [1, 3, 4, 5], activation="RELU6"),
                    (-5.0, 5.0))
register_family("add_relu", _binary_case("ADD", [1, 3, 4, 5], [1, 3, 4, 5], activation="RELU"))
register_family("mul_relu_n1_to_1", _binary_case("MUL", [2, 3, 4], [2, 1, 4], activation="RELU_N1_TO_1"), (-2, 2))
register_family("add_rank2_broadcast", _binary_case("ADD", [3, 1], [1, 5]))


# PRELU and unary activations

@case("prelu_per_channel")
def _prelu_channel(b, rng):
    x = b.input([1, 4, 5, 6])
    return [tb.add_prelu(b, x, b.const(rng.uniform(0.0, 0.5, [1, 1, 6]).astype(np.float32)))]


@case("prelu_full_alpha")
def _prelu_full(b, rng):
    x = b.input([1, 4, 5, 6])
    return [tb.add_prelu(b, x, b.const(rng.uniform(-0.5, 0.5, [4, 5, 6]).astype(np.float32)))]


for _name, _code in [("relu", BO.RELU), ("relu6", BO.RELU6), ("logistic", BO.LOGISTIC), ("tanh", BO.TANH),
                     ("hard_swish", BO.HARD_SWISH)]:
    register_family(_name, (lambda code: lambda b, rng: [tb.add_unary(b, code, b.input([1, 5, 6, 7]))])(_code),
                    (-8.0, 8.0))


# Pools

def _pool_case(kind, shape, **kw):
    return lambda b, rng: [tb.add_pool(b, kind, b.input(shape), **kw)]


for _kind in ["MAX", "AVG"]:
    _k = _kind.lower()
    register_family(f"{_k}pool_2x2_s2_valid", _pool_case(_kind, [1, 8, 6, 3]))
    register_family(f"{_k}pool_2x2_s2_valid_odd", _pool_case(_kind, [1, 7, 9, 3]))
    register_family(f"{_k}pool_3x3_s2_same_odd", _pool_case(_kind, [1, 7, 9, 4], filter_size=(3, 3),
                                                          padding=PAD.SAME))
    register_family(f"{_k}pool_3x3_s1_same", _pool_case(_kind, [1, 5, 6, 2], filter_size=(3, 3), stride=(1, 1),
                                                      padding=PAD.SAME))
    register_family(f"{_k}pool_3x3_s2_same_relu6", _pool_case(_kind, [1, 7, 7, 3], filter_size=(3, 3),
                                                            padding=PAD.SAME, activation="RELU6"), (-8.0, 8.0))
    register_family(f"{_k}pool_2x2_s2_relu", _pool_case(_kind, [2, 6, 6, 3], activation="RELU"))


# MEAN

register_family("mean_axes12_keep", lambda b, rng: [tb.add_mean(b, b.input([1, 5, 6, 7]), [1, 2], True)])
register_family("mean_axes12_nokeep", lambda b, rng: [tb.add_mean(b, b.input([2, 5, 6, 7]), [1, 2], False)])
register_family("mean_axis3", lambda b, rng: [tb.add_mean(b, b.input([1, 4, 5, 6]), [3], False)])
register_family("mean_axis3_keep", lambda b, rng: [tb.add_mean(b, b.input([1, 4, 5, 6]), [3], True)])
register_family("mean_negative_axis", lambda b, rng: [tb.add_mean(b, b.input([1, 4, 5, 6]), [-1], True)])
register_family("mean_negative_axes", lambda b, rng: [tb.add_mean(b, b.input([1, 4, 5, 6]), [-3, -2], False)])


# PAD / PADV2

register_family("pad_asymmetric", lambda b, rng: [
    tb.add_pad(b, b.input([1, 4, 5, 3]), [[0, 0], [1, 2], [0, 3], [0, 0]])])
register_family("pad_all_dims", lambda b, rng: [
    tb.add_pad(b, b.input([1, 3, 3, 2]), [[1, 0], [2, 1], [1, 1], [0, 2]])])
register_family("padv2_constant", lambda b, rng: [
    tb.add_pad(b, b.input([1, 4, 5, 3]), [[0, 0], [2, 1], [1, 2], [0, 0]], value=-0.75)])
register_family("padv2_channels", lambda b, rng: [
    tb.add_pad(b, b.input([1, 3, 4, 3]), [[0, 0], [0, 0], [0, 0], [1, 4]], value=2.5)])


# PAD in front of a VALID convolution: absorbed by the convolution where its zeros lie within the kernel's reach
# (asymmetric, strided, dilated, read by two convolutions), kept where they do not (too wide, SAME convolution, another
# reader). The engine's tests also check which of these run as one operator.

register_family("pad_conv_asymmetric", lambda b, rng: [
    tb.add_conv2d(b, tb.add_pad(b, b.input([1, 7, 8, 4]), [[0, 0], [1, 2], [2, 0], [0, 0]]), rng, 6,
                  padding=PAD.VALID)])
register_family("pad_conv_stride2", lambda b, rng: [
    tb.add_conv2d(b, tb.add_pad(b, b.input([1, 9, 10, 3]), [[0, 0], [1, 1], [1, 1], [0, 0]]), rng, 5,
                  stride=(2, 2), padding=PAD.VALID, activation="RELU6")])
register_family("padv2_zero_dw_dilated", lambda b, rng: [
    tb.add_depthwise(b, tb.add_pad(b, b.input([1, 9, 9, 4]), [[0, 0], [4, 3], [0, 4], [0, 0]], value=0.0), rng,
                     dilation=(2, 2), padding=PAD.VALID)])


@case("pad_dw_two_readers")
def _pad_two_readers(b, rng):
    padded = tb.add_pad(b, b.input([1, 6, 7, 5]), [[0, 0], [1, 1], [1, 1], [0, 0]])
    return [tb.add_depthwise(b, padded, rng, padding=PAD.VALID),
            tb.add_depthwise(b, padded, rng, stride=(2, 2), padding=PAD.VALID, kernel=(5, 5))]


register_family("pad_conv_too_wide", lambda b, rng: [
    tb.add_conv2d(b, tb.add_pad(b, b.input([1, 5, 6, 3]), [[0, 0], [3, 0], [0, 1], [0, 0]]), rng, 4,
                  padding=PAD.VALID)])
register_family("pad_conv_same", lambda b, rng: [
    tb.add_conv2d(b, tb.add_pad(b, b.input([1, 5, 6, 3]), [[0, 0], [1, 1], [1, 1], [0, 0]]), rng, 4)])


@case("pad_conv_and_add")
def _pad_conv_and_add(b, rng):
    padded = tb.add_pad(b, b.input([1, 6, 6, 4]), [[0, 0], [1, 1], [1, 1], [0, 0]])
    return [tb.add_conv2d(b, padded, rng, 4, padding=PAD.VALID), tb.add_binary(b, "ADD", padded, padded)]


# RESHAPE

register_family("reshape_options", lambda b, rng: [tb.add_reshape(b, b.input([1, 4, 5, 6]), [1, 20, 6], False)])
register_family("reshape_options_minus1", lambda b, rng: [
    tb.add_reshape(b, b.input([1, 4, 5, 6]), [-1, 6], False)])
register_family("reshape_tensor", lambda b, rng: [tb.add_reshape(b, b.input([1, 4, 5, 6]), [2, 60], True)])
register_family("reshape_tensor_minus1", lambda b, rng: [
    tb.add_reshape(b, b.input([1, 4, 5, 6]), [1, -1, 3], True)])


@case("reshape_chain_shares_slot", (-3.0, 3.0))
def _reshape_chain(b, rng):
    # A RESHAPE's output shares its input's arena slot: a chain of two over an intermediate tensor that is read again
    # after them, a reshaped tensor that is also a graph output, and a reshape of a graph input (kept apart).
    x = b.input([1, 4, 5, 6])
    a = tb.add_binary(b, "ADD", x, b.const(rng.uniform(-1, 1, [6]).astype(np.float32)))
    r1 = tb.add_reshape(b, a, [1, 20, 6], False)
    r2 = tb.add_reshape(b, r1, [2, 60], True)
    s = tb.add_unary(b, BO.LOGISTIC, r1)
    m = tb.add_binary(b, "MUL", a, a)
    g = tb.add_reshape(b, x, [120], False)
    return [r2, s, m, tb.add_unary(b, BO.TANH, g)]


@case("concat_inputs_in_output_slot", (-3.0, 3.0))
def _concat_in_place(b, rng):
    # A CONCATENATION whose leading extents are 1 has its inputs computed in place in its output: two intermediate
    # tensors (one read again after it), one of them concatenated twice (copied the second time), and a graph input
    # (which keeps its own slot).
    x = b.input([1, 3, 4])
    y = b.input([1, 5, 4])
    a = tb.add_binary(b, "ADD", x, b.const(rng.uniform(-1, 1, [4]).astype(np.float32)))
    m = tb.add_binary(b, "MUL", y, y)
    c = tb.add_concat(b, [a, m, a, x], 1)
    return [c, tb.add_unary(b, BO.TANH, m)]


# CONCATENATION

def _concat_case(shapes, axis, activation="NONE"):
    return lambda b, rng: [tb.add_concat(b, [b.input(s) for s in shapes], axis, activation)]


register_family("concat_axis3", _concat_case([[1, 3, 4, 2], [1, 3, 4, 5], [1, 3, 4, 1]], 3))
register_family("concat_axis1", _concat_case([[1, 2, 4, 3], [1, 3, 4, 3], [1, 1, 4, 3]], 1))
register_family("concat_negative_axis", _concat_case([[1, 3, 2, 3], [1, 3, 4, 3], [1, 3, 1, 3]], -2))
register_family("concat_rank3", _concat_case([[1, 5, 4], [1, 2, 4]], 1))


@case("concat_const_and_input")
def _concat_const(b, rng):
    x = b.input([1, 3, 3, 2])
    c = b.const(rng.uniform(-1, 1, [1, 3, 3, 3]).astype(np.float32))
    return [tb.add_concat(b, [c, x], 3)]


# RESIZE_BILINEAR

def _resize_case(shape, size, **kw):
    return lambda b, rng: [tb.add_resize_bilinear(b, b.input(shape), size, **kw)]


register_family("resize_bilinear_x2", _resize_case([1, 4, 5, 3], [8, 10]))
register_family("resize_bilinear_odd", _resize_case([1, 5, 7, 2], [9, 11]))
register_family("resize_bilinear_align_corners", _resize_case([1, 4, 5, 3], [7, 9], align_corners=True))
register_family("resize_bilinear_half_pixel", _resize_case([1, 4, 5, 3], [8, 10], half_pixel_centers=True))
register_family("resize_bilinear_half_pixel_odd", _resize_case([1, 5, 3, 2], [7, 8], half_pixel_centers=True))
register_family("resize_bilinear_downsample", _resize_case([1, 9, 10, 3], [4, 3]))
register_family("resize_bilinear_downsample_half_pixel", _resize_case([1, 9, 10, 3], [4, 3],
                                                                      half_pixel_centers=True))


# RESIZE_NEAREST_NEIGHBOR

def _resize_nearest_case(shape, size, align_corners=False, half_pixel_centers=False):
    def build(b, rng):
        x = b.input(shape)
        options = schema.ResizeNearestNeighborOptionsT()
        options.alignCorners = align_corners
        options.halfPixelCenters = half_pixel_centers
        return [b.op(BO.RESIZE_NEAREST_NEIGHBOR, [x, b.const_i32(size)], [shape[0], size[0], size[1], shape[3]],
                     OPT.ResizeNearestNeighborOptions, options)]
    return build


register_family("resize_nearest_x2", _resize_nearest_case([1, 4, 5, 3], [8, 10]))
register_family("resize_nearest_odd", _resize_nearest_case([1, 5, 7, 2], [9, 11]))
register_family("resize_nearest_align_corners", _resize_nearest_case([1, 4, 5, 3], [7, 9], align_corners=True))
register_family("resize_nearest_half_pixel", _resize_nearest_case([1, 5, 3, 2], [7, 8], half_pixel_centers=True))
register_family("resize_bilinear_downsample_align", _resize_case([1, 9, 10, 3], [4, 3], align_corners=True))


# SOFTMAX

register_family("softmax_2d", lambda b, rng: [tb.add_softmax(b, b.input([3, 10]))], (-5.0, 5.0))
register_family("softmax_2d_beta_half", lambda b, rng: [tb.add_softmax(b, b.input([3, 10]), 0.5)], (-5.0, 5.0))
register_family("softmax_4d", lambda b, rng: [tb.add_softmax(b, b.input([1, 3, 4, 6]))], (-5.0, 5.0))
register_family("softmax_4d_beta_half", lambda b, rng: [tb.add_softmax(b, b.input([1, 3, 4, 6]), 0.5)],
                (-5.0, 5.0))


# A 1×1 CONV_2D over a CONCATENATION whose leading inputs are one-pixel maps resized to full size (DeepLab's image
# pooling), which the engine folds when it generates code; with the resized maps trailing, and with one of them also
# a graph output (the resize then stays).

def _broadcast_concat_conv(order, shared=False):
    def build(b, rng):
        pooled = b.input([2, 1, 1, 4])
        gains = b.input([2, 1, 1, 3])
        x = b.input([2, 5, 7, 6])
        spread = tb.add_resize_bilinear(b, pooled, [5, 7])
        copied = b.op(BO.RESIZE_NEAREST_NEIGHBOR, [gains, b.const_i32([5, 7])], [2, 5, 7, 3],
                      OPT.ResizeNearestNeighborOptions, schema.ResizeNearestNeighborOptionsT())
        parts = [spread, copied, x] if order == "leading" else [x, spread, copied]
        y = tb.add_conv2d(b, tb.add_concat(b, parts, 3), rng, 9, kernel=(1, 1), activation="RELU6")
        return [y, spread] if shared else [y]
    return build


register_family("concat_broadcast_conv", _broadcast_concat_conv("leading"), (-4.0, 4.0))
register_family("concat_broadcast_conv_trailing", _broadcast_concat_conv("trailing"), (-4.0, 4.0))
register_family("concat_broadcast_conv_shared", _broadcast_concat_conv("leading", shared=True), (-4.0, 4.0))

# DEQUANTIZE feeding CONV_2D

@case("dequantize_float16_conv")
def _dequantize_f16(b, rng):
    x = b.input([1, 6, 6, 4])
    weights = (rng.standard_normal((5, 3, 3, 4)) / 6.0).astype(np.float16)
    w = tb.add_dequantize(b, b.const(weights))
    return [tb.add_conv2d(b, x, rng, 5, filter_tensor=w)]


@case("dequantize_int8_per_channel_conv")
def _dequantize_i8(b, rng):
    x = b.input([1, 6, 6, 4])
    weights = (rng.standard_normal((6, 3, 3, 4)) / 6.0).astype(np.float32)
    w = tb.add_dequantize(b, tb.int8_per_channel(b, weights, axis=0))
    return [tb.add_conv2d(b, x, rng, 6, filter_tensor=w)]


@case("dequantize_float16_bias_dwconv")
def _dequantize_f16_dw(b, rng):
    # MediaPipe models dequantize biases too; here both depthwise filter and bias are float16.
    x = b.input([1, 6, 6, 4])
    n, h, w, c = b.shape(x)
    filt = tb.add_dequantize(b, b.const((rng.standard_normal((1, 3, 3, 4)) / 3).astype(np.float16)))
    bias = tb.add_dequantize(b, b.const((rng.standard_normal(4) * 0.1).astype(np.float16)))
    options = schema.DepthwiseConv2DOptionsT()
    options.padding = PAD.SAME
    options.strideH = options.strideW = 1
    options.dilationHFactor = options.dilationWFactor = 1
    options.depthMultiplier = 1
    return [b.op(BO.DEPTHWISE_CONV_2D, [x, filt, bias], [n, h, w, c], tb.OPT.DepthwiseConv2DOptions, options)]


# STRIDED_SLICE

def _slice_case(shape, begin, end, strides, **kw):
    return lambda b, rng: [tb.add_strided_slice(b, b.input(shape), begin, end, strides, **kw)]


register_family("strided_slice_plain", _slice_case([1, 6, 7, 5], [0, 1, 2, 1], [1, 5, 7, 4], [1, 1, 2, 1]))
register_family("strided_slice_negative_stride", _slice_case([1, 6, 7, 5], [0, 5, -1, 4], [1, 0, 0, 0],
                                                             [1, -2, -3, -1]))
register_family("strided_slice_masks", _slice_case([1, 6, 7, 5], [0, 2, 3, 1], [1, 4, 5, 3], [1, 1, 1, 2],
                                                   begin_mask=0b0110, end_mask=0b1000))
register_family("strided_slice_negative_indices", _slice_case([2, 6, 5], [-1, -5, 0], [2, -1, 5], [1, 2, 1]))
register_family("strided_slice_shrink_axis", _slice_case([1, 6, 7, 5], [0, 2, 0, 3], [1, 3, 7, 4], [1, 1, 1, 1],
                                                         shrink_axis_mask=0b1010))
register_family("strided_slice_ellipsis", _slice_case([2, 4, 6, 5], [0, 1], [0, 4], [1, 2], ellipsis_mask=0b01))
register_family("strided_slice_new_axis", _slice_case([4, 6, 5], [0, 0, 1, 0], [0, 4, 5, 5], [1, 1, 2, 2],
                                                      new_axis_mask=0b0001))
register_family("strided_slice_offset", _slice_case([1, 6, 7, 5], [0, 1, 2, 0], [1, 3, 4, 5], [1, 1, 1, 2],
                                                    offset=True))


# DEPTH_TO_SPACE / TRANSPOSE

register_family("depth_to_space_block2", lambda b, rng: [tb.add_depth_to_space(b, b.input([1, 3, 4, 12]), 2)])
register_family("depth_to_space_block2_c4", lambda b, rng: [tb.add_depth_to_space(b, b.input([2, 2, 3, 4]), 2)])
register_family("transpose_nhwc_to_nchw", lambda b, rng: [tb.add_transpose(b, b.input([1, 3, 4, 5]), [0, 3, 1, 2])])
register_family("transpose_rank3", lambda b, rng: [tb.add_transpose(b, b.input([3, 4, 5]), [2, 0, 1])])
register_family("transpose_rank4_swap", lambda b, rng: [tb.add_transpose(b, b.input([2, 3, 4, 5]), [0, 2, 1, 3])])


# DENSIFY (sparse constants), mirroring face_detection_full_range_sparse: a float16 [O, 1, 1, I] 1x1 conv filter,
# dimensions 0-2 dense and the last dimension CSR, traversal order [0, 1, 2, 3], no block map; DENSIFY, then
# DEQUANTIZE, then CONV_2D.

def _pointwise_filter(rng, out_channels, in_channels, keep=0.3):
    return tb.random_pruned(rng, (out_channels, 1, 1, in_channels), keep)


@case("densify_csr_float16_conv")
def _densify_csr_f16(b, rng):
    x = b.input([1, 5, 5, 32])
    dense = _pointwise_filter(rng, 8, 32).astype(np.float16)
    w = tb.add_dequantize(b, tb.add_densify_of(b, dense, [0, 1, 2, 3], [DENSE, DENSE, DENSE, CSR], index_type="uint8"))
    return [tb.add_conv2d(b, x, rng, 8, kernel=(1, 1), filter_tensor=w)]


@case("densify_csr_uint16_segments_float16_conv")
def _densify_csr_u16(b, rng):
    x = b.input([1, 4, 4, 24])
    dense = _pointwise_filter(rng, 16, 24).astype(np.float16)
    w = tb.add_dequantize(b, tb.add_densify_of(b, dense, [0, 1, 2, 3], [DENSE, DENSE, DENSE, CSR], index_type="uint16"))
    return [tb.add_conv2d(b, x, rng, 16, kernel=(1, 1), filter_tensor=w)]


@case("densify_csr_float32_conv")
def _densify_csr_f32(b, rng):
    x = b.input([1, 5, 5, 12])
    dense = _pointwise_filter(rng, 6, 12)
    w = tb.add_densify_of(b, dense, [0, 1, 2, 3], [DENSE, DENSE, DENSE, CSR], index_type="int32")
    return [tb.add_conv2d(b, x, rng, 6, kernel=(1, 1), filter_tensor=w)]


@case("densify_block4x4_float16_conv")
def _densify_block(b, rng):
    # Blocks of 4 output x 4 input channels: expanded dims [O/4, 1, 1, I/4, 4, 4], the block grid's input axis CSR.
    x = b.input([1, 4, 4, 16])
    out_channels, in_channels = 8, 16
    dense = rng.standard_normal((out_channels, 1, 1, in_channels)).astype(np.float32) / 4.0
    keep = rng.random((out_channels // 4, in_channels // 4)) < 0.4
    keep[0, 0] = True
    mask = np.repeat(np.repeat(keep, 4, axis=0), 4, axis=1).reshape(out_channels, 1, 1, in_channels)
    dense = (dense * mask).astype(np.float16)
    w = tb.add_dequantize(b, tb.add_densify_of(b, dense, [0, 1, 2, 3, 4, 5], [DENSE, DENSE, DENSE, CSR, DENSE, DENSE],
                                               block_map=[0, 3], block_size=[4, 4], index_type="uint8"))
    return [tb.add_conv2d(b, x, rng, out_channels, kernel=(1, 1), filter_tensor=w)]


@case("densify_block4x4_float32_fc")
def _densify_block_fc(b, rng):
    # The 2-D form: weights [O, K] with 4x4 blocks, expanded dims [O/4, K/4, 4, 4], the block columns CSR.
    x = b.input([2, 16])
    dense = rng.standard_normal((8, 16)).astype(np.float32) / 4.0
    keep = rng.random((2, 4)) < 0.5
    keep[1, 3] = True
    dense *= np.repeat(np.repeat(keep, 4, axis=0), 4, axis=1)
    w = tb.add_densify_of(b, dense, [0, 1, 2, 3], [DENSE, CSR, DENSE, DENSE], block_map=[0, 1], block_size=[4, 4],
                          index_type="int32")
    bias = b.const((rng.standard_normal(8) * 0.1).astype(np.float32))
    options = schema.FullyConnectedOptionsT()
    return [b.op(BO.FULLY_CONNECTED, [x, w, bias], [2, 8], tb.OPT.FullyConnectedOptions, options)]


# Few-op graphs

@case("chain_conv_dw_residual_mean_fc_softmax")
def _chain(b, rng):
    x = b.input([1, 8, 8, 3])
    c = tb.add_conv2d(b, x, rng, 8, stride=(2, 2), activation="RELU6")
    d = tb.add_depthwise(b, c, rng, activation="RELU6")
    r = tb.add_binary(b, "ADD", c, d)
    m = tb.add_mean(b, r, [1, 2], False)
    f = tb.add_fully_connected(b, m, rng, 5)
    return [tb.add_softmax(b, f)]


# TRANSPOSE_CONV (output size given; odd sizes, strides that do not divide, overlapping taps)

def _tconv_case(shape, out_channels, output_hw, **kw):
    return lambda b, rng: [tb.add_transpose_conv(b, b.input(shape), rng, out_channels, output_hw, **kw)]


register_family("transpose_conv_3x3_s2_same", _tconv_case([1, 4, 5, 3], 5, (8, 10)))
register_family("transpose_conv_3x3_s2_same_odd", _tconv_case([1, 4, 5, 3], 5, (7, 9)))
register_family("transpose_conv_3x2_s2x3_valid", _tconv_case([1, 3, 4, 6], 7, (7, 11), kernel=(3, 2), stride=(2, 3),
                                                             padding=PAD.VALID))
register_family("transpose_conv_2x2_s2_selfie", _tconv_case([1, 5, 7, 16], 1, (10, 14), kernel=(2, 2)))
register_family("transpose_conv_4x4_s2_relu", _tconv_case([1, 3, 3, 9], 17, (6, 6), kernel=(4, 4),
                                                          activation="RELU"))
register_family("transpose_conv_1x1_s1_nobias", _tconv_case([1, 3, 5, 4], 3, (3, 5), kernel=(1, 1), stride=(1, 1),
                                                            bias=False))
register_family("transpose_conv_5x5_s1_same", _tconv_case([2, 4, 3, 2], 3, (4, 3), kernel=(5, 5), stride=(1, 1)))


@case("two_inputs_two_outputs")
def _two_two(b, rng):
    a = b.input([1, 4, 4, 3], name="image")
    s = b.input([1, 1, 1, 3], name="gain")
    scaled = tb.add_binary(b, "MUL", a, s)
    conv = tb.add_conv2d(b, scaled, rng, 4, activation="RELU")
    pooled = tb.add_pool(b, "AVG", conv)
    return [tb.add_reshape(b, pooled, [1, 16], False), tb.add_unary(b, BO.LOGISTIC, scaled)]


@case("shared_input_branches_concat")
def _branches(b, rng):
    x = b.input([1, 6, 6, 4])
    left = tb.add_conv2d(b, x, rng, 3, kernel=(1, 1))
    right = tb.add_pool(b, "MAX", tb.add_pad(b, x, [[0, 0], [0, 0], [0, 0], [0, 0]]), (3, 3), (1, 1), PAD.SAME)
    return [tb.add_concat(b, [left, right], -1)]


def build_custom_op_model():
    b = ModelBuilder("PureVision custom-op refusal fixture")
    x = b.input([1, 4])
    y = b.op(BO.CUSTOM, [x], [1, 4], custom_code="MyCustomOp")
    return b.pack([y])


def case_seed(name):
    return zlib.crc32(name.encode())


def build_case(name):
    """(model bytes, inputs, op names) for a registered case."""
    fn, (low, high) = CASES[name]
    rng = np.random.default_rng(case_seed(name))
    b = ModelBuilder(f"PureVision op fixture {name}")
    outputs = fn(b, rng)
    model = b.finish(outputs)
    inputs = [rng.uniform(low, high, b.shapes[i]).astype(np.float32) for i in b.inputs]
    if b.expected_tensors:
        check = pvtools.Interpreter(
            model_content=model, experimental_preserve_all_tensors=True,
            experimental_op_resolver_type=pvtools.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        pvtools.run(check, inputs)
        for index, expected in b.expected_tensors.items():
            if not np.array_equal(check.get_tensor(index), expected):
                raise ValueError(f"{name}: tensor {index} does not hold the values the generator encoded")
    return model, inputs, list(dict.fromkeys(b.op_names))


def write_case(name):
    model, inputs, ops = build_case(name)
    outputs = pvtools.run(pvtools.reference_interpreter(model_content=model), inputs)
    files = {"name": name, "ops": ops, "model": f"{name}.tflite", "inputs": [], "outputs": []}
    with open(os.path.join(OUT_DIR, files["model"]), "wb") as f:
        f.write(model)
    size = len(model)
    for kind, arrays in (("input", inputs), ("output", outputs)):
        for i, array in enumerate(arrays):
            file_name = f"{name}_{kind}{i}.npy"
            path = os.path.join(OUT_DIR, file_name)
            pvtools.save_npy(path, array.astype(np.float32))
            files[kind + "s"].append({"file": file_name, "shape": list(array.shape)})
            size += os.path.getsize(path) if kind == "input" else 0
    if size > MAX_CASE_BYTES:
        raise ValueError(f"{name}: model and inputs take {size} bytes (limit {MAX_CASE_BYTES})")
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*",
                        help="case names to (re)build (cases.json is rewritten only by a full run)")
    parser.add_argument("--list", action="store_true", help="list case names and exit")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    os.makedirs(OUT_DIR, exist_ok=True)
    entries, failures = [], []
    for name in CASES:
        if args.only and name not in args.only:
            continue
        try:
            entries.append(write_case(name))
        except Exception as error:  # a case LiteRT rejects is a generator bug: report it, keep going
            failures.append(name)
            print(f"FAILED {name}: {error}", file=sys.stderr)
    with open(os.path.join(OUT_DIR, "custom_op.tflite"), "wb") as f:
        f.write(build_custom_op_model())
    if not args.only:
        manifest = {
            "generator": "python3 tools/make_op_models.py",
            "litert": f"ai-edge-litert {pvtools.LITERT_VERSION}",
            "reference_kernels": "Interpreter(experimental_op_resolver_type=BUILTIN_WITHOUT_DEFAULT_DELEGATES)",
            "tolerance": "|ours - ref| <= 1e-4 + 1e-3 * |ref|",
            "custom_op_model": {"file": "custom_op.tflite", "custom_code": "MyCustomOp",
                                "expect": "the engine refuses it with an unsupported-operator error"},
            "cases": entries,
        }
        with open(os.path.join(OUT_DIR, "cases.json"), "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
    print(f"{len(entries)} cases written, {len(failures)} failed" + (f": {failures}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
