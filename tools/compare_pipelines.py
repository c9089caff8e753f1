#!/usr/bin/env python3
"""Times the task pipelines end to end, ours beside MediaPipe Tasks 0.10.14, in one run, and prints the ratios.

Our side: `BENCH --json --runs R --threads T`, reading its "kind":"pipeline" lines (face_detector,
hand_landmarker_image, hand_landmarker_video_per_frame, gesture_recognizer_video_per_frame, image_classifier, object_detector, image_embedder,
image_segmenter_selfie, image_segmenter_deeplab, face_landmarker_image, face_landmarker_video_per_frame). MediaPipe's
side, in the same script run: the same models and the same decoded images (the committed fixtures the bench uses),
image decoding excluded:
  - FaceDetector (IMAGE) on faces/grace_hopper.jpg with Models/face_detection_short_range.tflite;
  - HandLandmarker (IMAGE) on hands/hand_dst.jpg, and (VIDEO) over the 48 frames of hands/video, looped, per frame;
  - GestureRecognizer (VIDEO) over the same frames with Models/gesture_recognizer.task, per frame;
  - ImageClassifier (IMAGE) on classifier/skimage_chelsea.png with Models/efficientnet_lite0.tflite;
  - ObjectDetector (IMAGE, default options) on detector/opencv_basketball1.png with Models/efficientdet_lite0.tflite;
  - ImageEmbedder (IMAGE) on detector/skimage_chelsea.png with Models/efficientnet_lite0_embedder.tflite;
  - ImageSegmenter (IMAGE, category mask and confidence masks) on faces/grace_hopper.jpg with
    Models/selfie_segmenter.tflite and Models/deeplab_v3.tflite (image_segmenter_selfie, image_segmenter_deeplab);
  - FaceLandmarker (IMAGE) on faces/grace_hopper.jpg, and (VIDEO) over the 24 frames of face_landmarker/video, looped,
    per frame; both with blendshapes and transformation matrixes, Models/face_landmarker.task.
  - PoseLandmarker (IMAGE) on pose/obama.png, and (VIDEO) over the 20 frames of pose/video/single_NNN.png, looped,
    per frame, with Models/pose_landmarker_full.task.
Each is timed over R calls after 5 warm-up calls; medians are compared (ratio = ours / MediaPipe; below 1 we are
faster). MediaPipe chooses its own thread count; run the whole script under `taskset -c 0` to compare on one core.

Run from the repository root:
    python3 tools/compare_pipelines.py [--bench .build/release/bench] [--runs 50] [--threads 1] [--json]
                                       [--only SUBSTRING]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import mediapipe as mp
import numpy as np
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision

FIXTURES = "Tests/PureVisionTests/Fixtures"
WARMUP = 5


def ours(bench, runs, threads, only="_"):
    command = [bench, "--json", "--runs", str(runs), "--threads", str(threads), "--filter", only]
    out = subprocess.run(command, capture_output=True, text=True, check=False).stdout
    results = {}
    for line in out.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("kind") == "pipeline":
                results[record["name"]] = record["median_ms"]
    return results


def median_ms(call, runs):
    for _ in range(WARMUP):
        call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return float(np.median(times))


def theirs_pose(runs):
    results = {}
    base = mp_tasks.BaseOptions
    pose = vision.PoseLandmarker.create_from_options(
        vision.PoseLandmarkerOptions(base_options=base(model_asset_path="Models/pose_landmarker_full.task")))
    image = mp.Image.create_from_file(f"{FIXTURES}/pose/obama.png")
    results["pose_landmarker_image"] = median_ms(lambda: pose.detect(image), runs)

    video = vision.PoseLandmarker.create_from_options(
        vision.PoseLandmarkerOptions(
            base_options=base(model_asset_path="Models/pose_landmarker_full.task"),
            running_mode=vision.RunningMode.VIDEO))
    frames = [mp.Image.create_from_file(f"{FIXTURES}/pose/video/single_{i:03d}.png") for i in range(20)]
    counter = [0]

    def next_frame():
        i = counter[0]
        video.detect_for_video(frames[i % len(frames)], 33 * i)
        counter[0] += 1

    results["pose_landmarker_video_per_frame"] = median_ms(next_frame, runs)
    return results


def theirs(runs, only="_"):
    if only != "_" and "pose" in only:
        return {k: v for k, v in theirs_pose(runs).items() if only in k}
    results = {}
    base = mp_tasks.BaseOptions
    face = vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=base(model_asset_path="Models/face_detection_short_range.tflite")))
    image = mp.Image.create_from_file(f"{FIXTURES}/faces/grace_hopper.jpg")
    results["face_detector"] = median_ms(lambda: face.detect(image), runs)

    hands = vision.HandLandmarker.create_from_options(
        vision.HandLandmarkerOptions(base_options=base(model_asset_path="Models/hand_landmarker.task")))
    image = mp.Image.create_from_file(f"{FIXTURES}/hands/hand_dst.jpg")
    results["hand_landmarker_image"] = median_ms(lambda: hands.detect(image), runs)

    video = vision.HandLandmarker.create_from_options(
        vision.HandLandmarkerOptions(
            base_options=base(model_asset_path="Models/hand_landmarker.task"),
            running_mode=vision.RunningMode.VIDEO))
    frames = [mp.Image.create_from_file(f"{FIXTURES}/hands/video/frame_{i:03d}.png") for i in range(48)]
    counter = [0]

    def next_frame():
        i = counter[0]
        video.detect_for_video(frames[i % len(frames)], 33 * i)
        counter[0] += 1

    results["hand_landmarker_video_per_frame"] = median_ms(next_frame, runs)

    gestures = vision.GestureRecognizer.create_from_options(
        vision.GestureRecognizerOptions(
            base_options=base(model_asset_path="Models/gesture_recognizer.task"),
            running_mode=vision.RunningMode.VIDEO))
    gesture_counter = [0]

    def next_gesture_frame():
        i = gesture_counter[0]
        gestures.recognize_for_video(frames[i % len(frames)], 33 * i)
        gesture_counter[0] += 1

    results["gesture_recognizer_video_per_frame"] = median_ms(next_gesture_frame, runs)

    classifier = vision.ImageClassifier.create_from_options(
        vision.ImageClassifierOptions(base_options=base(model_asset_path="Models/efficientnet_lite0.tflite")))
    image = mp.Image.create_from_file(f"{FIXTURES}/classifier/skimage_chelsea.png")
    results["image_classifier"] = median_ms(lambda: classifier.classify(image), runs)

    detector = vision.ObjectDetector.create_from_options(
        vision.ObjectDetectorOptions(base_options=base(model_asset_path="Models/efficientdet_lite0.tflite")))
    image = mp.Image.create_from_file(f"{FIXTURES}/detector/opencv_basketball1.png")
    results["object_detector"] = median_ms(lambda: detector.detect(image), runs)

    embedder = vision.ImageEmbedder.create_from_options(
        vision.ImageEmbedderOptions(base_options=base(model_asset_path="Models/efficientnet_lite0_embedder.tflite")))
    image = mp.Image.create_from_file(f"{FIXTURES}/detector/skimage_chelsea.png")
    results["image_embedder"] = median_ms(lambda: embedder.embed(image), runs)

    face_options = dict(output_face_blendshapes=True, output_facial_transformation_matrixes=True)
    face_landmarker = vision.FaceLandmarker.create_from_options(
        vision.FaceLandmarkerOptions(base_options=base(model_asset_path="Models/face_landmarker.task"), **face_options))
    image = mp.Image.create_from_file(f"{FIXTURES}/faces/grace_hopper.jpg")
    results["face_landmarker_image"] = median_ms(lambda: face_landmarker.detect(image), runs)

    face_video = vision.FaceLandmarker.create_from_options(
        vision.FaceLandmarkerOptions(
            base_options=base(model_asset_path="Models/face_landmarker.task"),
            running_mode=vision.RunningMode.VIDEO, **face_options))
    face_frames = [mp.Image.create_from_file(f"{FIXTURES}/face_landmarker/video/frame_{i:03d}.png") for i in range(24)]
    face_counter = [0]

    def next_face_frame():
        i = face_counter[0]
        face_video.detect_for_video(face_frames[i % len(face_frames)], 33 * i)
        face_counter[0] += 1

    results["face_landmarker_video_per_frame"] = median_ms(next_face_frame, runs)

    image = mp.Image.create_from_file(f"{FIXTURES}/faces/grace_hopper.jpg")
    for name, model in (("image_segmenter_selfie", "selfie_segmenter"), ("image_segmenter_deeplab", "deeplab_v3")):
        segmenter = vision.ImageSegmenter.create_from_options(vision.ImageSegmenterOptions(
            base_options=base(model_asset_path=f"Models/{model}.tflite"), output_category_mask=True,
            output_confidence_masks=True))
        results[name] = median_ms(lambda: segmenter.segment(image), runs)
    results.update(theirs_pose(runs))
    return {k: v for k, v in results.items() if only in k}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=".build/release/bench")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1, help="our thread count (default 1)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="_", help="time only the pipelines whose name contains this")
    args = parser.parse_args()
    ours_ms = ours(args.bench, args.runs, args.threads, args.only)
    theirs_ms = theirs(args.runs, args.only)
    rows = []
    for name, mediapipe_ms in theirs_ms.items():
        ours_median = ours_ms.get(name)
        ratio = ours_median / mediapipe_ms if ours_median else None
        rows.append({"name": name, "ours_ms": ours_median, "mediapipe_ms": mediapipe_ms, "ratio": ratio})
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print(f"{'pipeline':34} {'ours ms':>9} {'MediaPipe ms':>13} {'ratio':>7}")
    for row in rows:
        ours_text = f"{row['ours_ms']:.2f}" if row["ours_ms"] else "-"
        ratio_text = f"{row['ratio']:.2f}" if row["ratio"] else "-"
        print(f"{row['name']:34} {ours_text:>9} {row['mediapipe_ms']:>13.2f} {ratio_text:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
