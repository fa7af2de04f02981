"""Capture classifier for the tamper step: bona fide vs copy (grey, colour, printed and
photographed) vs screen recapture, on 96 x 96 patches of the document at the service's working
resolution. See README.md (data, architecture, seed, command, figures).

    /usr/bin/python3 training/tamper/train.py /tmp/tamper-data [--minutes 25] [--seed 7]

Reads DATA/index.json and DATA/<class>/<name>.png (written by
packages/vision/scripts/eval/corpus/export-training.ts), writes training/tamper/capture-cnn.onnx
and capture-cnn.log.json (arguments, figures, temperature, duration).
"""

import argparse
import hashlib
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

PATCH = 96
CLASSES = ["bona_fide", "copy", "screen"]
HERE = os.path.dirname(os.path.abspath(__file__))


def grid_origins(w, h, cols=4, rows=3):
    """The patch grid the service uses (packages/vision/src/tamper/capture-model.ts): evenly
    spread over the window, clamped inside it."""
    out = []
    for r in range(rows):
        for c in range(cols):
            x = round((w - PATCH) * (c + 0.5) / cols) if w > PATCH else 0
            y = round((h - PATCH) * (r + 0.5) / rows) if h > PATCH else 0
            out.append((x, y))
    return out


def load_image(path):
    img = np.asarray(Image.open(path).convert("RGB"), dtype=np.uint8)
    h, w, _ = img.shape
    if w < PATCH or h < PATCH:  # tiny crops: pad with edge pixels (the service does the same)
        img = np.pad(img, ((0, max(0, PATCH - h)), (0, max(0, PATCH - w)), (0, 0)), mode="edge")
    return img


def patches_of(img, rng, n):
    h, w, _ = img.shape
    xs = rng.integers(0, w - PATCH + 1, n)
    ys = rng.integers(0, h - PATCH + 1, n)
    return np.stack([img[y : y + PATCH, x : x + PATCH] for x, y in zip(xs, ys)])


def grid_patches(img):
    h, w, _ = img.shape
    return np.stack([img[y : y + PATCH, x : x + PATCH] for x, y in grid_origins(w, h)])


def is_val(source):
    # One source's images all go to the same side (no capture of a validation document trains).
    return hashlib.sha256(source.encode()).digest()[0] % 6 == 0


class CaptureNet(nn.Module):
    """Full resolution first layer (halftone dots, toner speckle and subpixel grids are 1-3 px),
    then four stride-2 stages and global average pooling: 60 k parameters."""

    def __init__(self):
        super().__init__()
        chans = [3, 16, 24, 48, 64, 96]
        layers = []
        for i in range(5):
            layers += [
                nn.Conv2d(chans[i], chans[i + 1], 3, stride=1 if i == 0 else 2, padding=1, bias=False),
                nn.BatchNorm2d(chans[i + 1]),
                nn.ReLU(inplace=True),
            ]
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(chans[-1], len(CLASSES))

    def forward(self, x):
        # Input: RGB 0..255, NCHW float; normalised here so the service passes raw pixels.
        x = (x - 128.0) / 64.0
        x = self.features(x)
        return self.head(x.mean(dim=(2, 3)))


def to_tensor(p):
    return torch.from_numpy(p).permute(0, 3, 1, 2).float()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--per-image", type=int, default=48)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--out", default=os.path.join(HERE, "capture-cnn.onnx"))
    args = ap.parse_args()
    t0 = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(args.seed)

    index = json.load(open(os.path.join(args.data, "index.json")))
    train_x, train_y, val = [], [], []
    for e in index:
        img = load_image(os.path.join(args.data, e["file"]))
        if is_val(e["source"]):
            val.append((grid_patches(img), e["cls"], e["kind"], e["source"]))
        else:
            train_x.append(patches_of(img, rng, args.per_image))
            train_y += [e["cls"]] * args.per_image
    X = np.concatenate(train_x)
    Y = np.array(train_y, dtype=np.int64)
    counts = np.bincount(Y, minlength=3)
    print(f"{len(X)} training patches {counts.tolist()}, {len(val)} validation images, "
          f"loaded in {time.time() - t0:.0f} s", flush=True)

    net = CaptureNet()
    # Classes weighted to balance them (three copy kinds for two bona fide captures per source).
    weight = torch.tensor(counts.sum() / (3.0 * np.maximum(counts, 1)), dtype=torch.float32)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    deadline = t0 + args.minutes * 60
    step, epoch, history = 0, 0, []
    while time.time() < deadline:
        epoch += 1
        net.train()
        order = rng.permutation(len(X))
        total = 0.0
        for b in range(0, len(order) - args.batch + 1, args.batch):
            idx = order[b : b + args.batch]
            xb = X[idx]
            # Flips and 90-degree turns: a document photographed any way round.
            if rng.random() < 0.5:
                xb = xb[:, :, ::-1]
            if rng.random() < 0.5:
                xb = xb[:, ::-1]
            if rng.random() < 0.5:
                xb = xb.transpose(0, 2, 1, 3)
            xb = to_tensor(np.ascontiguousarray(xb))
            # Brightness and contrast jitter: exposure is not a fraud sign.
            gain = torch.empty(len(idx), 1, 1, 1).uniform_(0.85, 1.15)
            shift = torch.empty(len(idx), 1, 1, 1).uniform_(-15, 15)
            xb = (xb * gain + shift).clamp(0, 255)
            loss = F.cross_entropy(net(xb), torch.from_numpy(Y[idx]), weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            step += 1
            if time.time() > deadline:
                break
        for g in opt.param_groups:  # step decay per epoch
            g["lr"] *= 0.8
        res = evaluate(net, val)
        res.update(epoch=epoch, step=step, loss=round(total / max(1, len(order) // args.batch), 4),
                   minutes=round((time.time() - t0) / 60, 1))
        history.append(res)
        print(json.dumps(res), flush=True)

    temperature = fit_temperature(net, val)
    final = evaluate(net, val, temperature)
    net.eval()
    torch.onnx.export(
        net, torch.zeros(1, 3, PATCH, PATCH), args.out, input_names=["patches"], output_names=["logits"],
        dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
    )
    log = {
        "args": vars(args), "temperature": temperature, "validation": final, "history": history,
        "torch": torch.__version__, "minutes": round((time.time() - t0) / 60, 1),
        "parameters": sum(p.numel() for p in net.parameters()),
    }
    json.dump(log, open(args.out.replace(".onnx", ".log.json"), "w"), indent=1)
    print(json.dumps({"temperature": temperature, "validation": final}), flush=True)


@torch.no_grad()
def image_logits(net, val):
    net.eval()
    return [net(to_tensor(p)).mean(0) for p, *_ in val]


@torch.no_grad()
def evaluate(net, val, temperature=1.0):
    """Per image (the mean of its grid's logits, as the service does): accuracy per kind, and
    the copy probability of bona fide images (what a threshold must clear)."""
    logits = image_logits(net, val)
    per_kind = {}
    for lg, (_, cls, kind, _src) in zip(logits, val):
        p = F.softmax(lg / temperature, 0)
        k = per_kind.setdefault(kind, {"n": 0, "right": 0, "p_copy": [], "p_screen": []})
        k["n"] += 1
        k["right"] += int(int(p.argmax()) == cls)
        k["p_copy"].append(round(float(p[1]), 3))
        k["p_screen"].append(round(float(p[2]), 3))
    for k in per_kind.values():
        k["p_copy"].sort()
        k["p_screen"].sort()
    return {"per_kind": per_kind}


@torch.no_grad()
def fit_temperature(net, val):
    """Temperature scaling on the validation images (negative log-likelihood, grid search)."""
    logits = torch.stack(image_logits(net, val))
    y = torch.tensor([cls for _, cls, *_ in val])
    best = min((F.cross_entropy(logits / t, y).item(), t) for t in np.arange(0.5, 5.01, 0.1))
    return round(float(best[1]), 2)


if __name__ == "__main__":
    main()
