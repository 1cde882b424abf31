"""``tablekit camera``: calibrate against the mat, or watch the table and show what it reads.

A live window when OpenCV has one (``--show``); otherwise annotated frames are written to
``--out`` whenever the table comes to rest.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

from tablekit.values import ValueRefused, output_file, text_arg

NAME = "camera"
HELP = "calibrate the camera on the mat, or preview readings on still frames"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from vision.mat import SIZES

    parser.add_argument("--source", default="auto",
                        help="auto (the Pi camera if there is one, else USB camera 0), picamera, "
                             "a device number, a video file or a folder of photos")
    parser.add_argument("--calibrate", type=text_arg, metavar="FILE", help="find the mat and save a calibration")
    parser.add_argument("--mat", choices=tuple(SIZES), default="A3",
                        help="the size of the printed mat (`tablekit mat --size`; default A3)")
    parser.add_argument("--seats", type=int, default=4, choices=range(2, 9), metavar="2-8")
    parser.add_argument("--deck", type=text_arg, metavar="FILE", help="enrolled deck (from `tablekit enroll`)")
    parser.add_argument("--variant", type=text_arg, help="the game played on this mat (see `tablekit variants`): "
                                           "saved with --calibrate, so that `see` reads its tiles "
                                           "or cards; the preview reads them too")
    parser.add_argument("--calibration", metavar="FILE", help="use this calibration")
    parser.add_argument("--out", type=text_arg, default="camera-frames", help="folder for annotated frames")
    parser.add_argument("--show", action="store_true", help="show a live window if possible")
    parser.add_argument("--max-frames", type=int, default=0, help="stop after N frames (0: never)")


def run(args: argparse.Namespace) -> int:
    import cv2

    from engine.variants import find
    from vision.annotate import annotate
    from vision.calibration import Calibration, calibrate, read_calibrated
    from vision.enroll import DeckTemplates
    from vision.errors import CalibrationError, FrameSourceError, VisionError
    from vision.mat import layout
    from vision.recognize import read_table
    from vision.sources import open_source
    from vision.stillness import StillnessGate

    if args.max_frames < 0:
        print(f"error: bad --max-frames {args.max_frames}: 0 (no limit) or more", file=sys.stderr)
        return 2
    game = find(args.variant).id if args.variant else None
    if args.calibrate:  # refused before the camera is opened and the mat looked for
        output_file(Path(args.calibrate), "--calibrate",
                    [(Path(f), what) for f, what in ((args.deck, "the --deck"),
                                                     (args.calibration, "the --calibration")) if f])
    elif Path(args.out).exists() and not Path(args.out).is_dir():
        raise ValueRefused(f"--out {args.out} is a file; name a folder for the annotated frames")
    try:
        source = open_source(args.source)
    except FrameSourceError as exc:
        print(f"camera: {exc}", file=sys.stderr)
        return 1
    # a folder of photos is a series of still scenes; a live source must come to rest first
    gate = None if Path(args.source).is_dir() else StillnessGate(still_frames=5)
    try:
        if args.calibrate:
            error = "no frames"
            for frame in source.frames():
                try:
                    cal = calibrate(frame, layout(args.mat, args.seats))
                except CalibrationError as exc:
                    error = str(exc)
                    continue
                if args.deck:
                    DeckTemplates.load(Path(args.deck))  # a deck the table could not use is said now
                    cal = replace(cal, deck=Path(args.deck).resolve())
                if game:
                    cal = replace(cal, game=game)
                cal.save(Path(args.calibrate))
                print(f"wrote {args.calibrate}: white gains "
                      + " ".join(f"{g:.2f}" for g in cal.white_gains))
                return 0
            print(f"camera: calibration failed: {error}", file=sys.stderr)
            return 1
        saved = Calibration.load(Path(args.calibration)) if args.calibration else None
        deck_path = args.deck or (saved.deck if saved else None)
        deck = DeckTemplates.load(Path(deck_path)) if deck_path else None
        played = game or (saved.game if saved else None)
        pieces = find(played).pieces if played else "auto"
        out = Path(args.out)
        window = args.show
        count = read = 0
        for n, frame in enumerate(source.frames()):
            if args.max_frames and n >= args.max_frames:
                break
            if gate is not None and not gate.push(frame):
                continue
            read += 1
            try:
                reading = read_calibrated(saved, frame, partial(read_table, deck=deck, pieces=pieces))
            except VisionError as exc:  # a garbled frame: its error line, and the next frame
                print(json.dumps({"frame": n, "error": str(exc)}), flush=True)
                continue
            zones = saved.group_zones(reading) if saved else [None] * len(reading.groups)
            print(json.dumps({"frame": n, **reading.to_json(), "zones": zones}), flush=True)
            drawn = annotate(frame, reading)
            if window:
                try:
                    cv2.imshow("tablekit", drawn)
                    if cv2.waitKey(1) & 0xFF == ord("q"):
                        break
                    continue
                except cv2.error:
                    window = False  # a headless OpenCV build: fall back to files
            out.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / f"frame-{n:06d}.jpg"), drawn)
            count += 1
        if count:
            print(f"wrote {count} annotated frame(s) to {out}", file=sys.stderr)
        elif not read:  # a single photo is a video of one frame: the table never comes to rest
            print(f"camera: no still frame came from {args.source} (for photos, give a folder of them)",
                  file=sys.stderr)
            return 1
        return 0
    finally:
        source.close()
