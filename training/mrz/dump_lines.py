"""Writes synthetic MRZ line crops (before the model's resize) for the service-side evaluation.

    /usr/bin/python3 training/mrz/dump_lines.py 300 /tmp/mrz-synth-lines [--seed 7]

Each crop is a grey PNG as the degradation left it (natural aspect, any height), so the service's
own input rule (packages/vision/src/mrz/line-model.ts `mrzLineInput`) does the resize; `lines.json`
maps file names to their text. The stream is seeded apart from training (`[seed, 4242]`; training
uses `[seed, worker]` with worker 0 and validation `[seed, 999]`), so these lines are unseen.
`--hard` writes stage 2's hard lines instead (K beside fillers, C1, small fillers and prints).
Read with `npx tsx packages/vision/scripts/eval/mrz-lines.ts --lines /tmp/mrz-synth-lines`.
"""

import argparse
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("count", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--hard", action="store_true", help="stage 2's hard lines (synth.py Content(hard=True))")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng([args.seed, 4242])
    content = synth.Content(rng, hard=args.hard)
    truth = {}
    for i in range(args.count):
        lines = content.lines()
        k = int(rng.integers(0, len(lines)))
        text = lines[k]
        above = lines[k - 1] if k > 0 and rng.random() < 0.5 else None
        below = lines[k + 1] if k + 1 < len(lines) and rng.random() < 0.5 else None
        size = int(rng.integers(22, 60))
        if args.hard and rng.random() < 0.3:
            size = int(rng.integers(14, 24))
        img = synth.degrade(rng, synth.draw_line(rng, text, size, (above, below), args.hard), args.hard)
        name = f"line-{i:04d}.png"
        cv2.imwrite(os.path.join(args.out, name), img)
        truth[name] = text
    with open(os.path.join(args.out, "lines.json"), "w") as fh:
        json.dump(truth, fh, indent=0)


if __name__ == "__main__":
    main()
