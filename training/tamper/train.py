"""Capture classifier for the tamper step: bona fide vs copy (grey, colour, printed and
photographed) vs screen recapture, on 96 x 96 patches of the document at the service's working
resolution. See README.md (data, architecture, seed, command, figures).

    /usr/bin/python3 training/tamper/train.py DATA [DATA ...] [--epochs 4] [--minutes 40] [--seed 7]

Reads DATA/index.json and DATA/<class>/<name>.png of every DATA directory (written by
packages/vision/scripts/eval/corpus/export-training.ts), writes training/tamper/capture-cnn.onnx
and capture-cnn.log.json (arguments, figures, temperature, duration) after every epoch, so an
interrupted run still leaves the last finished epoch's model and figures.
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


def grid_patches(img, cols=4, rows=3):
    h, w, _ = img.shape
    return np.stack([img[y : y + PATCH, x : x + PATCH] for x, y in grid_origins(w, h, cols, rows)])


def is_val(source):
    # One source's images all go to the same side (no capture of a validation document trains).
    return hashlib.sha256(source.encode()).digest()[0] % 6 == 0


class CaptureNet(nn.Module):
    """Full resolution first layer (halftone dots, toner speckle and subpixel grids are 1-3 px),
    then four stride-2 stages and global average pooling: 98 k parameters.

    A fourth input channel, computed inside the network from the RGB it is given: the pixel's
    chroma (max - min of R, G, B). A copy loses the colour of the security print; a linear first
    layer can only see colour as signed differences of channels, the chroma says "how much
    colour" directly, whatever its hue."""

    def __init__(self):
        super().__init__()
        chans = [4, 16, 24, 48, 64, 96]
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
        chroma = x.max(dim=1, keepdim=True).values - x.min(dim=1, keepdim=True).values
        x = torch.cat([(x - 128.0) / 64.0, chroma / 32.0 - 1.0], dim=1)
        x = self.features(x)
        return self.head(x.mean(dim=(2, 3)))


def to_tensor(p):
    return torch.from_numpy(p).permute(0, 3, 1, 2).float()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minutes", type=float, default=40.0, help="wall-clock cap: stop early, keep the last epoch")
    ap.add_argument("--per-image", type=int, default=48, help="patches cut per training image, once")
    ap.add_argument("--per-epoch", type=int, default=16, help="of which an epoch draws this many per image")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--out", default=os.path.join(HERE, "capture-cnn.onnx"))
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads (1 on a shared machine)")
    args = ap.parse_args()
    t0 = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)

    # The directories' indexes together; an image (source and kind) exported twice counts once.
    index, seen = [], set()
    for d in args.data:
        for e in json.load(open(os.path.join(d, "index.json"))):
            if (e["source"], e["kind"]) not in seen:
                seen.add((e["source"], e["kind"]))
                index.append(dict(e, file=os.path.join(d, e["file"])))
    # val: the service's 4 x 3 grid; val_dense: a 6 x 4 grid of the same images (does a denser
    # grid measure better, for twice the inference?)
    train_x, train_y, train_k, val, val_dense = [], [], [], [], []
    for e in index:
        img = load_image(e["file"])
        if is_val(e["source"]):
            val.append((grid_patches(img), e["cls"], e["kind"], e["source"]))
            val_dense.append((grid_patches(img, 6, 4), e["cls"], e["kind"], e["source"]))
        else:
            train_x.append(patches_of(img, rng, args.per_image))
            train_y += [e["cls"]] * args.per_image
            train_k += [e["kind"]] * args.per_image
    X = np.concatenate(train_x)
    Y = np.array(train_y, dtype=np.int64)
    counts = np.bincount(Y, minlength=3)
    # Each class weighs the same in the loss, and inside a class each kind weighs the same: the
    # clean digital documents (fewer images than the phone captures) count as much as those.
    kinds = sorted(set(train_k))
    n_kind = {k: train_k.count(k) for k in kinds}
    kinds_of = {c: {k for k, y in zip(train_k[:: args.per_image], Y[:: args.per_image]) if y == c} for c in range(3)}
    W = np.array([len(Y) / (3.0 * len(kinds_of[y]) * n_kind[k]) for k, y in zip(train_k, Y)], dtype=np.float32)
    print(f"{len(X)} training patches {counts.tolist()}, kinds {n_kind}, {len(val)} validation images, "
          f"loaded in {time.time() - t0:.0f} s", flush=True)

    net = CaptureNet()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    # An epoch shows every training image once, through `per_epoch` of its patches (a fresh draw
    # each epoch: 3 epochs of 16 use all 48). Cosine decay of the rate over the planned steps.
    images = len(X) // args.per_image
    steps_per_epoch = images * args.per_epoch // args.batch
    planned = steps_per_epoch * args.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda k: 0.05 + 0.95 * 0.5 * (1 + np.cos(np.pi * min(k, planned) / planned)))
    deadline = t0 + args.minutes * 60
    step, history, stopped_early = 0, [], False
    for epoch in range(1, args.epochs + 1):
        net.train()
        pick = rng.integers(0, args.per_image, (images, args.per_epoch)) + np.arange(images)[:, None] * args.per_image
        order = rng.permutation(pick.ravel())
        total, nb = 0.0, 0
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
            w = torch.from_numpy(W[idx])
            loss = (F.cross_entropy(net(xb), torch.from_numpy(Y[idx]), reduction="none") * w).sum() / w.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
            nb += 1
            step += 1
            if step % 50 == 0:
                print(f"epoch {epoch} step {step}/{planned} loss {total / nb:.4f} {(time.time() - t0) / 60:.1f} min", flush=True)
            if time.time() > deadline:
                stopped_early = True
                break
        temperature = fit_temperature(net, val)
        res = evaluate(net, val, temperature)
        res.update(epoch=epoch, step=step, loss=round(total / max(1, nb), 4), temperature=temperature,
                   minutes=round((time.time() - t0) / 60, 1))
        history.append(res)
        print(json.dumps(res), flush=True)
        dense = evaluate(net, val_dense, fit_temperature(net, val_dense))
        write_outputs(net, args, t0, temperature, res, dense, history, stopped_early)
        if stopped_early:
            break


def write_outputs(net, args, t0, temperature, final, dense, history, stopped_early):
    net.eval()
    torch.onnx.export(
        net, torch.zeros(1, 3, PATCH, PATCH), args.out, input_names=["patches"], output_names=["logits"],
        dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
    )
    log = {
        "args": vars(args), "temperature": temperature, "validation": final,
        "validation_grid_6x4": dense,
        "history": history, "stopped_early": stopped_early,
        "torch": torch.__version__, "minutes": round((time.time() - t0) / 60, 1),
        "parameters": sum(p.numel() for p in net.parameters()),
    }
    json.dump(log, open(args.out.replace(".onnx", ".log.json"), "w"), indent=1)


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
