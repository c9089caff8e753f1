#!/usr/bin/env python3
"""Goldens for Tests/PureVisionTests/HandGeometry/HandRectMediaPipeGoldenTests.swift.

Runs MediaPipe 0.10.14's own HandLandmarksToRectCalculator and RectTransformationCalculator (the hand
landmarker's next-frame region) on seeded random hands and prints the Swift literals (float bit patterns) the test
embeds. Run from the repository root: python3 tools/make_hand_rect_goldens.py
"""
# MediaPipe 0.10.14 HandLandmarksToRectCalculator + RectTransformationCalculator (scale 2, shift_y -0.1,
# square_long) on seeded random hands; prints Swift literals (float bit patterns).
import numpy as np, mediapipe as mp
from mediapipe.python._framework_bindings import calculator_graph
from mediapipe.python import packet_creator, packet_getter
from mediapipe.framework.formats import landmark_pb2
from mediapipe.framework import calculator_pb2
from google.protobuf import text_format
cfg = """
input_stream: "lm" input_stream: "img" output_stream: "rect" output_stream: "rect2"
node { calculator: "ImagePropertiesCalculator" input_stream: "IMAGE:img" output_stream: "SIZE:size" }
node { calculator: "HandLandmarksToRectCalculator" input_stream: "NORM_LANDMARKS:lm" input_stream: "IMAGE_SIZE:size" output_stream: "NORM_RECT:rect" }
node { calculator: "RectTransformationCalculator" input_stream: "NORM_RECT:rect" input_stream: "IMAGE_SIZE:size" output_stream: "rect2"
  options { [mediapipe.RectTransformationCalculatorOptions.ext] { scale_x: 2.0 scale_y: 2.0 shift_y: -0.1 square_long: true } } }
"""
def bits(v): return "0x%08x" % np.float32(v).view(np.uint32)
rng = np.random.default_rng(2024)
sizes = [(640, 480), (480, 640), (1280, 720), (333, 517), (640, 480), (200, 100)]
for case, (w, h) in enumerate(sizes):
    g = calculator_graph.CalculatorGraph(graph_config=text_format.Parse(cfg, calculator_pb2.CalculatorGraphConfig()))
    out = {}
    g.observe_output_stream("rect", lambda s, p: out.__setitem__("rect", packet_getter.get_proto(p)))
    g.observe_output_stream("rect2", lambda s, p: out.__setitem__("rect2", packet_getter.get_proto(p)))
    g.start_run()
    # A hand-like cloud: points around a centre, rotated by a random angle; case 4 lies left of the image.
    ang = rng.uniform(-np.pi, np.pi)
    base = rng.normal(0, 0.08, size=(21, 2)) + np.array([0, -0.1]) * np.linspace(0, 1, 21)[:, None]
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    centre = np.array([-0.4, 0.5]) if case == 4 else rng.uniform(0.3, 0.7, size=2)
    pts = (base @ rot.T + centre).astype(np.float32)
    lml = landmark_pb2.NormalizedLandmarkList()
    for x, y in pts:
        lml.landmark.add(x=float(x), y=float(y), z=0.0)
    g.add_packet_to_input_stream("lm", packet_creator.create_proto(lml).at(1))
    g.add_packet_to_input_stream("img", packet_creator.create_image_frame(
        image_format=mp.ImageFormat.SRGB, data=np.zeros((h, w, 3), np.uint8)).at(1))
    g.close()
    r, t = out["rect"], out["rect2"]
    print(f"        Golden(width: {w}, height: {h},")
    print("               points: [" + ", ".join(bits(v) for v in pts.reshape(-1)) + "],")
    print("               rect: [" + ", ".join(bits(v) for v in (r.x_center, r.y_center, r.width, r.height, r.rotation)) + "],")
    print("               tracking: [" + ", ".join(bits(v) for v in (t.x_center, t.y_center, t.width, t.height, t.rotation)) + "]),")
