#!/usr/bin/env python3
"""Writes one tiny model per engine operator whose tensors have a dimension of 0, under
Tests/PureVisionEngineTests/Fixtures/empty/, and cases.json naming, for each file, the operator (index and TFLite
name) the engine must refuse with `InterpreterError.emptyTensor`.

These models are hostile input, not goldens: LiteRT is not asked about them (its shape inference is not what the
test checks), so shapes are written out by tools/tflite_builder.py's helpers and packed as they are. Most cases feed
the operator an empty run-time input ([1, 0, 4, 3] and the like); a few make an empty constant operand or an empty
output from non-empty inputs (a slice with begin == end). (A TRANSPOSE_CONV told to produce 0 rows from a non-empty
input is refused earlier, as an output shape its input and weights cannot give.)

Adding an operator to the engine: add one case here and re-run (Tests/.../EmptyTensorTests checks that every
supported operator has a case).

Run from the repository root:  python3 tools/make_empty_tensor_models.py
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pvtools  # noqa: E402
import tflite_builder as tb  # noqa: E402
from tflite_builder import BO, OPT, PAD, ModelBuilder  # noqa: E402
from ai_edge_litert import schema_py_generated as schema  # noqa: E402

OUT_DIR = os.path.join(pvtools.REPO_ROOT, "Tests", "PureVisionEngineTests", "Fixtures", "empty")
EMPTY_IMAGE = [1, 0, 4, 3]  # NHWC with no rows
CASES = {}  # name -> (builder function, operator index refused, operator name)


def case(name, operator, index=0):
    def register(fn):
        CASES[name] = (fn, index, operator)
        return fn
    return register


def quant(scale, zero_point):
    q = schema.QuantizationParametersT()
    q.scale, q.zeroPoint = [float(scale)], [int(zero_point)]
    return q


def int8_input(b, shape):
    index = b._tensor(shape, np.int8, 0, f"input{len(b.inputs)}", quant(0.05, 0))
    b.inputs.append(index)
    return index


def image(b):
    return b.input(EMPTY_IMAGE)


# Convolutions and matrix products.
case("conv_2d", "CONV_2D")(lambda b, rng: tb.add_conv2d(b, image(b), rng, 4))
case("depthwise_conv_2d", "DEPTHWISE_CONV_2D")(lambda b, rng: tb.add_depthwise(b, image(b), rng))
case("transpose_conv", "TRANSPOSE_CONV")(lambda b, rng: tb.add_transpose_conv(b, image(b), rng, 2, (0, 8)))
case("fully_connected", "FULLY_CONNECTED")(lambda b, rng: tb.add_fully_connected(b, b.input([0, 8]), rng, 4))


@case("convolution_2d_transpose_bias", "Convolution2DTransposeBias")
def _(b, rng):
    # MediaPipe's custom op: inputs [input, weights OHWI, bias], 12 bytes of options (padding, stride w, stride h).
    x = image(b)
    weights = b.const(rng.standard_normal((2, 2, 2, 3)).astype(np.float32))
    bias = b.const(np.zeros(2, dtype=np.float32))
    out = b.op(BO.CUSTOM, [x, weights, bias], [1, 0, 8, 2], custom_code="Convolution2DTransposeBias")
    b.operators[-1].customOptions = list(np.asarray([1, 2, 2], dtype="<i4").tobytes())
    return out


# Element-wise.
for _name, _code in [("add", BO.ADD), ("sub", BO.SUB), ("mul", BO.MUL), ("div", BO.DIV),
                     ("maximum", BO.MAXIMUM), ("minimum", BO.MINIMUM),
                     ("squared_difference", BO.SQUARED_DIFFERENCE)]:
    case(_name, tb.OP_NAMES[_code])(
        lambda b, rng, code=_code: b.op(code, [image(b), b.const(np.ones(3, np.float32))], EMPTY_IMAGE))


@case("add_empty_constant", "ADD")
def _(b, rng):
    # A non-empty input plus a constant with no elements.
    return b.op(BO.ADD, [b.input([1, 4, 4, 3]), b.const(np.ones((0, 3), np.float32))], [1, 4, 0, 3])


case("prelu", "PRELU")(lambda b, rng: tb.add_prelu(b, image(b), b.const(np.full(3, 0.1, np.float32))))
for _code in [BO.RELU, BO.RELU6, BO.RELU_N1_TO_1, BO.LOGISTIC, BO.TANH, BO.HARD_SWISH, BO.LEAKY_RELU]:
    case(tb.OP_NAMES[_code].lower(), tb.OP_NAMES[_code])(lambda b, rng, code=_code: tb.add_unary(b, code, image(b)))
case("softmax", "SOFTMAX")(lambda b, rng: tb.add_softmax(b, b.input([1, 0])))

# Pooling and reductions.
case("max_pool_2d", "MAX_POOL_2D")(lambda b, rng: tb.add_pool(b, "MAX", image(b)))
case("average_pool_2d", "AVERAGE_POOL_2D")(lambda b, rng: tb.add_pool(b, "AVERAGE", image(b)))
case("mean", "MEAN")(lambda b, rng: tb.add_mean(b, image(b), [1, 2], True))

# Layout.
case("pad", "PAD")(lambda b, rng: tb.add_pad(b, image(b), [[0, 0], [1, 1], [1, 1], [0, 0]]))
case("padv2", "PADV2")(lambda b, rng: tb.add_pad(b, image(b), [[0, 0], [1, 1], [1, 1], [0, 0]], value=0.5))
case("reshape", "RESHAPE")(lambda b, rng: tb.add_reshape(b, image(b), [1, 0, 12], as_tensor=True))


@case("squeeze", "SQUEEZE")
def _(b, rng):
    options = schema.SqueezeOptionsT()
    options.squeezeDims = [0]
    return b.op(BO.SQUEEZE, [image(b)], [0, 4, 3], OPT.SqueezeOptions, options)


case("concatenation", "CONCATENATION")(lambda b, rng: tb.add_concat(b, [image(b), image(b)], 3))
case("resize_bilinear", "RESIZE_BILINEAR")(lambda b, rng: tb.add_resize_bilinear(b, image(b), [8, 8]))


@case("resize_nearest_neighbor", "RESIZE_NEAREST_NEIGHBOR")
def _(b, rng):
    x = image(b)
    n, _, _, c = b.shape(x)
    return b.op(BO.RESIZE_NEAREST_NEIGHBOR, [x, b.const_i32([8, 8])], [n, 8, 8, c],
                tb.OPT.ResizeNearestNeighborOptions, tb.schema.ResizeNearestNeighborOptionsT())


@case("detection_postprocess", "TFLite_Detection_PostProcess")
def _(b, rng):
    # TFLite's SSD post-processing custom op on zero boxes: encodings [1, 0, 4], scores [1, 0, 3], anchors [0, 4].
    from flatbuffers import flexbuffers
    encodings = b.input([1, 0, 4])
    scores = b.input([1, 0, 3])
    anchors = b.const(np.zeros((0, 4), dtype=np.float32), name="anchors")
    fbb = flexbuffers.Builder()
    with fbb.Map():
        fbb.Int("max_detections", 4)
        fbb.Int("max_classes_per_detection", 1)
        fbb.Float("nms_score_threshold", 0.2)
        fbb.Float("nms_iou_threshold", 0.5)
        fbb.Int("num_classes", 3)
        fbb.Float("y_scale", 10.0)
        fbb.Float("x_scale", 10.0)
        fbb.Float("h_scale", 5.0)
        fbb.Float("w_scale", 5.0)
    outs = b.op(BO.CUSTOM, [encodings, scores, anchors], n_outputs=4, custom_code="TFLite_Detection_PostProcess",
                out_shapes=[[1, 4, 4], [1, 4], [1, 4], [1]])
    b.operators[-1].customOptions = list(bytes(fbb.Finish()))
    b.operators[-1].customOptionsFormat = 0
    return outs[0]


@case("strided_slice", "STRIDED_SLICE")
def _(b, rng):
    return tb.add_strided_slice(b, image(b), [0, 0, 0, 0], [1, 0, 4, 3], [1, 1, 1, 1])


@case("strided_slice_empty_result", "STRIDED_SLICE")
def _(b, rng):
    # A non-empty input sliced to nothing (begin == end on the row axis).
    out = tb.add_strided_slice(b, b.input([1, 4, 4, 3]), [0, 2, 0, 0], [1, 2, 4, 3], [1, 1, 1, 1])
    b.tensors[out].shape = [1, 0, 4, 3]
    return out


case("depth_to_space", "DEPTH_TO_SPACE")(lambda b, rng: tb.add_depth_to_space(b, b.input([1, 0, 3, 4]), 2))
case("transpose", "TRANSPOSE")(lambda b, rng: tb.add_transpose(b, image(b), [0, 2, 1, 3]))


@case("dequantize", "DEQUANTIZE")
def _(b, rng):
    # An empty float16 constant dequantized, then added to the input (so the graph has a run-time operator too).
    weights = b.const(np.zeros((0, 3), np.float16))
    dense = tb.add_dequantize(b, weights)
    return b.op(BO.ADD, [b.input([1, 4, 4, 3]), dense], [1, 4, 0, 3])


@case("densify", "DENSIFY")
def _(b, rng):
    sparse = tb.sparse_const(b, np.zeros((0, 4), np.float32), [0, 1], [schema.DimensionType.DENSE, schema.DimensionType.SPARSE_CSR])
    dense = tb.add_densify(b, sparse, np.float32)
    return b.op(BO.ADD, [b.input([1, 4]), dense], [0, 4])


# Operators other branches add (FaceLandmarker: SUM, NEG, SQRT, RSQRT; GestureRecognizer: REDUCE_MAX, REDUCE_MIN,
# GATHER, UNPACK). EmptyTensorTests skips a case whose operator the engine does not support yet.
for _code in [BO.NEG, BO.SQRT, BO.RSQRT]:
    case(tb.OP_NAMES[_code].lower(), tb.OP_NAMES[_code])(lambda b, rng, code=_code: tb.add_unary(b, code, image(b)))
for _code in [BO.SUM, BO.REDUCE_MAX, BO.REDUCE_MIN]:
    def _reduce(b, rng, code=_code):
        options = schema.ReducerOptionsT()
        options.keepDims = True
        return b.op(code, [image(b), b.const_i32([1, 2])], [1, 1, 1, 3], OPT.ReducerOptions, options)
    case(tb.OP_NAMES[_code].lower(), tb.OP_NAMES[_code])(_reduce)


@case("gather", "GATHER")
def _(b, rng):
    options = schema.GatherOptionsT()
    options.axis = 3
    return b.op(BO.GATHER, [image(b), b.const_i32([0, 2])], [1, 0, 4, 2], OPT.GatherOptions, options)


@case("unpack", "UNPACK")
def _(b, rng):
    options = schema.UnpackOptionsT()
    options.num, options.axis = 1, 0
    return b.op(BO.UNPACK, [image(b)], [0, 4, 3], OPT.UnpackOptions, options)


# Quantized lowerings (int8 activations).
@case("quantize", "QUANTIZE")
def _(b, rng):
    out = b.op(BO.QUANTIZE, [image(b)], EMPTY_IMAGE, out_dtype=np.int8)
    b.tensors[out].quantization = quant(0.05, 0)
    return out


@case("int8_add", "ADD")
def _(b, rng):
    out = b.op(BO.ADD, [int8_input(b, EMPTY_IMAGE), int8_input(b, EMPTY_IMAGE)], EMPTY_IMAGE, OPT.AddOptions,
               schema.AddOptionsT(), out_dtype=np.int8)
    b.tensors[out].quantization = quant(0.1, 0)
    return out


@case("int8_max_pool_2d", "MAX_POOL_2D")
def _(b, rng):
    out = tb.add_pool(b, "MAX", int8_input(b, EMPTY_IMAGE))
    b.tensors[out].type = tb.TT.INT8
    b.tensors[out].quantization = quant(0.05, 0)
    return out


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    for name in os.listdir(OUT_DIR):
        os.remove(os.path.join(OUT_DIR, name))
    listing = {}
    for name, (fn, index, operator) in sorted(CASES.items()):
        b = ModelBuilder(f"PureVision empty-tensor case {name}")
        out = fn(b, np.random.default_rng(0))
        with open(os.path.join(OUT_DIR, f"{name}.tflite"), "wb") as f:
            f.write(b.pack([out]))
        listing[name] = {"operatorIndex": index, "operator": operator}
    with open(os.path.join(OUT_DIR, "cases.json"), "w") as f:
        json.dump(listing, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(listing)} cases to {OUT_DIR}")


if __name__ == "__main__":
    main()
