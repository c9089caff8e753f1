"""SSD anchor, decoding and NMS goldens from MediaPipe 0.10.14's own calculators.

MediaPipe's anchors are a C++ `std::vector<Anchor>` with no Python getter, so they are observed through
decoding: a graph runs SsdAnchorsCalculator -> TensorsToDetectionsCalculator -> NonMaxSuppressionCalculator on
seeded synthetic tensors. The raw tensors are made by TensorConverterCalculator from uint8 images with the float
range [-128, 127] (scale exactly 1), so raw value = byte - 128, exactly. Boxes are XYWH (4 channels, no
keypoints); scores are one channel, so many scores tie and NMS exercises std::sort's tie order.

Writes Tests/PureVisionTests/Fixtures/detection/<case>/:
  boxes_u8.npy (N x 4 uint8 as float32), scores_u8.npy (N x 1), decoded.npy, nms_weighted.npy,
  nms_default.npy (rows: score, label_id, xmin, ymin, width, height; float32), and cases.json.

Run from the repository root: python3 tools/make_anchor_goldens.py
"""
import json
import os

import numpy as np
import mediapipe as mp
import mediapipe.calculators.tensor.tensor_converter_calculator_pb2  # noqa: F401 (registers extensions)
import mediapipe.calculators.tensor.tensors_to_detections_calculator_pb2  # noqa: F401
import mediapipe.calculators.tflite.ssd_anchors_calculator_pb2  # noqa: F401
import mediapipe.calculators.util.non_max_suppression_calculator_pb2  # noqa: F401
from google.protobuf import text_format
from mediapipe.framework import calculator_pb2
from mediapipe.python import packet_creator, packet_getter

OUT = "Tests/PureVisionTests/Fixtures/detection"

# name -> (SsdAnchorsCalculatorOptions text, anchor count, input size, min score thresh, seed, byte ranges)
CASES = {
    "palm192": (
        "num_layers: 4 min_scale: 0.1484375 max_scale: 0.75 input_size_height: 192 input_size_width: 192 "
        "anchor_offset_x: 0.5 anchor_offset_y: 0.5 strides: 8 strides: 16 strides: 16 strides: 16 "
        "aspect_ratios: 1.0 fixed_anchor_size: true", 2016, 192, 0.5, 1),
    "face_short128": (
        "num_layers: 4 min_scale: 0.1484375 max_scale: 0.75 input_size_height: 128 input_size_width: 128 "
        "anchor_offset_x: 0.5 anchor_offset_y: 0.5 strides: 8 strides: 16 strides: 16 strides: 16 "
        "aspect_ratios: 1.0 fixed_anchor_size: true", 896, 128, 0.5, 2),
    "face_full192": (
        "num_layers: 1 min_scale: 0.1484375 max_scale: 0.75 input_size_height: 192 input_size_width: 192 "
        "anchor_offset_x: 0.5 anchor_offset_y: 0.5 strides: 4 aspect_ratios: 1.0 "
        "interpolated_scale_aspect_ratio: 0.0 fixed_anchor_size: true", 2304, 192, 0.5, 3),
    # Not fixed-size: widths and heights come from scales and aspect ratios; lowest layer reduced.
    "custom_ssd": (
        "num_layers: 3 min_scale: 0.2 max_scale: 0.95 input_size_height: 96 input_size_width: 160 "
        "anchor_offset_x: 0.5 anchor_offset_y: 0.25 strides: 16 strides: 32 strides: 32 "
        "aspect_ratios: 1.0 aspect_ratios: 2.0 aspect_ratios: 0.5 reduce_boxes_in_lowest_layer: true",
        6 * 10 * 3 + 3 * 5 * 8, 64, 0.6, 4),
}


def graph_config(anchor_options, count, scale):
    text = f"""
input_stream: "boxes_img"
input_stream: "scores_img"
output_stream: "decoded"
output_stream: "weighted"
output_stream: "greedy"
node {{ calculator: "TensorConverterCalculator" input_stream: "IMAGE:boxes_img" output_stream: "TENSORS:bt"
  options {{ [mediapipe.TensorConverterCalculatorOptions.ext] {{
    max_num_channels: 4 output_tensor_float_range {{ min: -128 max: 127 }} }} }} }}
node {{ calculator: "TensorConverterCalculator" input_stream: "IMAGE:scores_img" output_stream: "TENSORS:st"
  options {{ [mediapipe.TensorConverterCalculatorOptions.ext] {{
    max_num_channels: 1 output_tensor_float_range {{ min: -128 max: 127 }} }} }} }}
node {{ calculator: "ConcatenateTensorVectorCalculator" input_stream: "bt" input_stream: "st"
  output_stream: "tensors" }}
node {{ calculator: "SsdAnchorsCalculator" output_side_packet: "anchors"
  options {{ [mediapipe.SsdAnchorsCalculatorOptions.ext] {{ {anchor_options} }} }} }}
node {{ calculator: "TensorsToDetectionsCalculator" input_stream: "TENSORS:tensors"
  input_side_packet: "ANCHORS:anchors" output_stream: "DETECTIONS:decoded"
  options {{ [mediapipe.TensorsToDetectionsCalculatorOptions.ext] {{
    num_classes: 1 num_boxes: {count} num_coords: 4 reverse_output_order: true sigmoid_score: true
    score_clipping_thresh: 100 min_score_thresh: {{MIN_SCORE}}
    x_scale: {scale} y_scale: {scale} w_scale: {scale} h_scale: {scale} }} }} }}
node {{ calculator: "NonMaxSuppressionCalculator" input_stream: "decoded" output_stream: "weighted"
  options {{ [mediapipe.NonMaxSuppressionCalculatorOptions.ext] {{
    min_suppression_threshold: 0.3 overlap_type: INTERSECTION_OVER_UNION algorithm: WEIGHTED
    return_empty_detections: true }} }} }}
node {{ calculator: "NonMaxSuppressionCalculator" input_stream: "decoded" output_stream: "greedy"
  options {{ [mediapipe.NonMaxSuppressionCalculatorOptions.ext] {{
    min_suppression_threshold: 0.3 overlap_type: INTERSECTION_OVER_UNION algorithm: DEFAULT
    return_empty_detections: true }} }} }}
"""
    return text


def rows(detections):
    out = []
    for d in detections:
        box = d.location_data.relative_bounding_box
        out.append([d.score[0], float(d.label_id[0]), box.xmin, box.ymin, box.width, box.height])
    return np.array(out, dtype=np.float32).reshape(-1, 6)


def run(name, anchor_options, count, scale, min_score, seed):
    rng = np.random.default_rng(seed)
    # Centres spread over ±128/scale of the anchor; sizes positive except a few negative ones (dropped).
    boxes = rng.integers(0, 256, size=(1, count, 4), dtype=np.uint8)
    boxes[..., 2:] = rng.integers(100, 256, size=(1, count, 2), dtype=np.uint8)
    boxes[0, rng.choice(count, 8, replace=False), 2] = 10
    # Scores: mostly low logits, a band of identical high ones (ties) and some saturated at +127.
    scores = rng.integers(0, 120, size=(1, count, 1), dtype=np.uint8)
    scores[0, rng.choice(count, 40, replace=False), 0] = 200
    scores[0, rng.choice(count, 20, replace=False), 0] = 255
    scores[0, rng.choice(count, 20, replace=False), 0] = 129
    text = graph_config(anchor_options, count, scale).replace("{MIN_SCORE}", repr(min_score))
    config = text_format.Parse(text, calculator_pb2.CalculatorGraphConfig())
    graph = mp.CalculatorGraph(graph_config=config)
    results = {}
    for stream in ("decoded", "weighted", "greedy"):
        graph.observe_output_stream(
            stream, lambda s, p: results.__setitem__(s, packet_getter.get_proto_list(p)))
    graph.start_run()
    graph.add_packet_to_input_stream(
        "boxes_img", packet_creator.create_image_frame(image_format=mp.ImageFormat.SRGBA, data=boxes).at(0))
    graph.add_packet_to_input_stream(
        "scores_img", packet_creator.create_image_frame(image_format=mp.ImageFormat.GRAY8, data=scores).at(0))
    graph.close()
    directory = os.path.join(OUT, name)
    os.makedirs(directory, exist_ok=True)
    np.save(os.path.join(directory, "boxes_u8.npy"), boxes.reshape(count, 4).astype(np.float32))
    np.save(os.path.join(directory, "scores_u8.npy"), scores.reshape(count, 1).astype(np.float32))
    for stream, file in (("decoded", "decoded"), ("weighted", "nms_weighted"), ("greedy", "nms_default")):
        np.save(os.path.join(directory, file + ".npy"), rows(results[stream]))
    print(f"{name}: {count} anchors, {len(results['decoded'])} decoded, "
          f"{len(results['weighted'])} weighted, {len(results['greedy'])} greedy")
    return {"anchors": count, "scale": scale, "min_score_thresh": min_score, "seed": seed,
            "ssd_anchors_options": anchor_options}


def main():
    manifest = {"reference": f"mediapipe {mp.__version__} (Python wheel, CPU calculators)",
                "command": "python3 tools/make_anchor_goldens.py",
                "raw_value": "float(byte) - 128", "cases": {}}
    for name, (anchor_options, count, scale, min_score, seed) in CASES.items():
        manifest["cases"][name] = run(name, anchor_options, count, scale, min_score, seed)
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
