"""Scores the validation crops of portrait exports with one set of weights, by group, so two weight
files are compared on the same crops (training/portrait/README.md, State). A crop is a validation
crop when train.py's is_val puts its source there: no run trained on it.

    /usr/bin/python3 training/portrait/score_validation.py MODEL.onnx[,MODEL2.onnx] --temperature T
        --styled DIR [DIR ...] --fixture-like DIR [DIR ...] [--top 8] [--fit]

Groups: V1, the styled exports' validation sources; V2, the fixture-like exports' (the two kinds of
synthetic page pull the genuine side apart, so each is reported alone). Several models are averaged
(their logits, each divided by --member-temperature) before --temperature. Prints per group the
AUC (a swap's p(swap) above a genuine crop's), the swaps above every genuine crop (the sign bar
rule: the bar sits above the highest genuine validation crop), the genuine maximum and the AUC per
kind; --top lists the highest genuine crops, --fit the temperature that fits all crops best
(negative log-likelihood, grid 0.5-5, as train.py fits it).
"""

import argparse
import json
import os
import sys

import numpy as np
import torch
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import PortraitNet, is_val, load_onnx_weights, to_tensor  # noqa: E402


def auc(genuine, swaps):
    a, b = np.array(genuine), np.array(swaps)
    if not len(a) or not len(b):
        return float("nan")
    return float(((b[:, None] > a[None, :]).sum() + 0.5 * (b[:, None] == a[None, :]).sum()) / (len(a) * len(b)))


def validation_crops(dirs, seen):
    """(source, kind, class, image) of every validation crop; a source and kind met twice (in any
    directory of either group, `seen`) keep the first crop, as train.py does."""
    for d in dirs:
        for e in json.load(open(os.path.join(d, "index.json"))):
            key = (e["source"], e["kind"])
            if key in seen or not is_val(e["source"]):
                continue
            seen.add(key)
            img = np.array(Image.open(os.path.join(d, e["file"])).convert("RGB"), dtype=np.uint8)
            yield e["source"], e["kind"].split("~")[0], e["cls"], img


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models")
    ap.add_argument("--temperature", type=float, required=True)
    ap.add_argument("--member-temperature", type=float, default=1.0)
    ap.add_argument("--styled", nargs="+", default=[])
    ap.add_argument("--fixture-like", nargs="+", default=[])
    ap.add_argument("--top", type=int, default=0)
    ap.add_argument("--fit", action="store_true")
    args = ap.parse_args()
    nets = []
    for path in args.models.split(","):
        net = PortraitNet()
        load_onnx_weights(net, path)
        nets.append(net.eval())
    logits, rows, seen = [], [], set()
    for group, dirs in (("V1", args.styled), ("V2", args.fixture_like)):
        for source, kind, cls, img in validation_crops(dirs, seen):
            with torch.no_grad():
                x = to_tensor(img[None])
                z = sum(n(x)[0].numpy() / args.member_temperature for n in nets) / len(nets)
            logits.append(z)
            rows.append((group, source, kind, cls, float(1 / (1 + np.exp((z[0] - z[1]) / args.temperature)))))
    for group in ("V1", "V2"):
        g = [r for r in rows if r[0] == group]
        if not g:
            continue
        genuine = [r[4] for r in g if r[3] == 0]
        swaps = [r[4] for r in g if r[3] == 1]
        top = max(genuine)
        kinds = {k: round(auc(genuine, [r[4] for r in g if r[2] == k]), 3) for k in sorted({r[2] for r in g if r[3] == 1})}
        print(group, json.dumps(dict(genuine=len(genuine), swaps=len(swaps), auc=round(auc(genuine, swaps), 3),
                                     above_every_genuine=sum(p > top for p in swaps), genuine_max=round(top, 3),
                                     per_kind=kinds)))
        if args.top:
            best = sorted((r for r in g if r[3] == 0), key=lambda r: -r[4])[: args.top]
            print(f"  highest genuine: {[(r[1], r[2], round(r[4], 3)) for r in best]}")
    if args.fit:
        y = np.array([r[3] for r in rows])
        z = np.array(logits)
        fits = []
        for t in np.arange(0.5, 5.01, 0.1):
            zz = z / t
            nll = -(zz[np.arange(len(y)), y] - np.logaddexp(zz[:, 0], zz[:, 1])).mean()
            fits.append((nll, round(float(t), 1)))
        print("fitted temperature", min(fits)[1])


if __name__ == "__main__":
    main()
