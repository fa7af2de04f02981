"""Portrait-swap classifier for the tamper step: genuine printed portrait vs another person's
photo put over it (pasted, blended, reglued, recut along the printed photo), on one 128 x 160
crop around the face box the service's detector finds. See README.md (data, architecture, seed,
command, figures).

    /usr/bin/python3 training/portrait/train.py DATA [DATA ...] [--epochs 40] [--minutes 15] [--seed 7]
        [--init-onnx FILE --lr 3e-4]   (fine-tune a committed export; batch norms frozen)

Reads DATA/index.json and DATA/<class>/<name>.png of every DATA directory (written by
packages/vision/scripts/eval/corpus/export-portrait.ts), writes training/portrait/portrait-cnn.onnx
and portrait-cnn.log.json (arguments, figures, temperature, duration) after every epoch, so an
interrupted run still leaves the last finished epoch's model and figures.
"""

import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from folded_batch_norm import freeze_batch_norm, load_folded_convs  # noqa: E402

W, H = 128, 160
CLASSES = ["genuine", "swapped"]
HERE = os.path.dirname(os.path.abspath(__file__))


def is_val(source):
    # One source's crops all go to the same side (no capture of a validation document trains).
    return hashlib.sha256(source.encode()).digest()[0] % 5 == 0


class PortraitNet(nn.Module):
    """A full-resolution first layer (a pasted edge, a paper margin or a glue shadow is 1-3 px
    wide after the capture), then five stride-2 stages; global average and max pooling (an edge
    may be a small part of the crop: the max keeps it), a linear layer to 2 classes."""

    def __init__(self):
        super().__init__()
        chans = [3, 16, 24, 32, 48, 64, 96]
        layers = []
        for i in range(6):
            layers += [
                nn.Conv2d(chans[i], chans[i + 1], 3, stride=1 if i == 0 else 2, padding=1, bias=False),
                nn.BatchNorm2d(chans[i + 1]),
                nn.ReLU(inplace=True),
            ]
        self.features = nn.Sequential(*layers)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(2 * chans[-1], len(CLASSES))

    def forward(self, x):
        # Input: RGB 0..255, NCHW float; normalised here so the service passes raw pixels.
        x = self.features((x - 128.0) / 64.0)
        pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
        return self.head(self.drop(pooled))


def load_onnx_weights(net, path):
    """Starts from a committed export (only the ONNX file is kept): the convolutions and their
    folded batch norms load as training/folded_batch_norm.py describes, so a run started this
    way keeps the batch norms frozen (freeze_batch_norm)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = next(n for n in graph.node if n.op_type == "Gemm")
    mods = list(net.features)
    pairs = [(m, mods[i + 1]) for i, m in enumerate(mods) if isinstance(m, nn.Conv2d)]
    load_folded_convs(pairs, convs, init, path)
    with torch.no_grad():
        net.head.weight.copy_(torch.from_numpy(init[gemm.input[1]].copy()))
        net.head.bias.copy_(torch.from_numpy(init[gemm.input[2]].copy()))


def to_tensor(a):
    return torch.from_numpy(np.ascontiguousarray(a)).permute(0, 3, 1, 2).float()


def augment(xb, rng):
    """Shifts of up to 8 px (the detector's box moves from capture to capture), mirror images,
    exposure and white balance: none of them is a fraud sign."""
    n = len(xb)
    pad = np.pad(xb, ((0, 0), (8, 8), (8, 8), (0, 0)), mode="edge")
    out = np.empty_like(xb)
    for i in range(n):
        dx, dy = rng.integers(0, 17, 2)
        out[i] = pad[i, dy : dy + H, dx : dx + W]
        if rng.random() < 0.5:
            out[i] = out[i, :, ::-1]
    t = to_tensor(out)
    gain = torch.from_numpy(rng.uniform(0.8, 1.2, (n, 1, 1, 1))).float()
    tint = torch.from_numpy(rng.uniform(0.92, 1.08, (n, 3, 1, 1))).float()
    shift = torch.from_numpy(rng.uniform(-20, 20, (n, 1, 1, 1))).float()
    return (t * gain * tint + shift).clamp(0, 255)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=15.0, help="wall-clock cap: stop early, keep the last epoch")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--out", default=os.path.join(HERE, "portrait-cnn.onnx"))
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--init-onnx", help="this model's ONNX export to start from (fine-tuning); batch norms stay frozen")
    args = ap.parse_args()
    t0 = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(args.seed)

    index, seen = [], set()
    for d in args.data:
        for e in json.load(open(os.path.join(d, "index.json"))):
            if (e["source"], e["kind"]) not in seen:
                seen.add((e["source"], e["kind"]))
                index.append(dict(e, file=os.path.join(d, e["file"])))
    tx, ty, tk, val = [], [], [], []
    for e in index:
        img = np.asarray(Image.open(e["file"]).convert("RGB"), dtype=np.uint8)
        if is_val(e["source"]):
            val.append((img, e["cls"], e["kind"], e["source"]))
        else:
            tx.append(img)
            ty.append(e["cls"])
            tk.append(e["kind"])
    X = np.stack(tx)
    Y = np.array(ty, dtype=np.int64)
    counts = np.bincount(Y, minlength=2)
    # Each class weighs the same in the loss (3 genuine captures per source against 5 swaps).
    Wt = np.array([len(Y) / (2.0 * counts[y]) for y in Y], dtype=np.float32)
    print(f"{len(X)} training crops {counts.tolist()}, {len(val)} validation crops of "
          f"{len({v[3] for v in val})} sources, loaded in {time.time() - t0:.0f} s", flush=True)

    net = PortraitNet()
    if args.init_onnx:
        load_onnx_weights(net, args.init_onnx)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-3)
    steps_per_epoch = len(X) // args.batch
    planned = max(1, steps_per_epoch * args.epochs)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda k: 0.05 + 0.95 * 0.5 * (1 + np.cos(np.pi * min(k, planned) / planned)))
    deadline = t0 + args.minutes * 60
    step, history, stopped_early = 0, [], False
    for epoch in range(1, args.epochs + 1):
        net.train()
        if args.init_onnx:
            freeze_batch_norm(net)
        order = rng.permutation(len(X))
        total, nb = 0.0, 0
        for b in range(0, len(order) - args.batch + 1, args.batch):
            idx = order[b : b + args.batch]
            xb = augment(X[idx], rng)
            w = torch.from_numpy(Wt[idx])
            loss = (F.cross_entropy(net(xb), torch.from_numpy(Y[idx]), reduction="none") * w).sum() / w.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
            nb += 1
            step += 1
            if time.time() > deadline:
                stopped_early = True
                break
        temperature = fit_temperature(net, val)
        res = evaluate(net, val, temperature)
        res.update(epoch=epoch, step=step, loss=round(total / max(1, nb), 4), temperature=temperature,
                   minutes=round((time.time() - t0) / 60, 1))
        history.append({k: v for k, v in res.items() if k != "per_kind"})
        print(json.dumps({k: v for k, v in res.items() if k != "per_kind"}), flush=True)
        write_outputs(net, args, t0, temperature, res, history, stopped_early)
        if stopped_early:
            break


def write_outputs(net, args, t0, temperature, final, history, stopped_early):
    net.eval()
    torch.onnx.export(
        net, torch.zeros(1, 3, H, W), args.out, input_names=["crop"], output_names=["logits"],
        dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
    )
    log = {
        "args": vars(args), "temperature": temperature, "validation": final,
        "history": history, "stopped_early": stopped_early,
        "torch": torch.__version__, "minutes": round((time.time() - t0) / 60, 1),
        "parameters": sum(p.numel() for p in net.parameters()),
    }
    json.dump(log, open(args.out.replace(".onnx", ".log.json"), "w"), indent=1)


@torch.no_grad()
def val_logits(net, val):
    net.eval()
    return net(to_tensor(np.stack([v[0] for v in val])))


@torch.no_grad()
def evaluate(net, val, temperature=1.0):
    """Per kind: accuracy and the sorted swap probabilities (what a threshold must clear)."""
    p = F.softmax(val_logits(net, val) / temperature, 1)[:, 1]
    per_kind, right = {}, 0
    for pi, (_, cls, kind, _src) in zip(p.tolist(), val):
        k = per_kind.setdefault(kind, {"n": 0, "right": 0, "p_swap": []})
        k["n"] += 1
        ok = int((pi >= 0.5) == (cls == 1))
        k["right"] += ok
        right += ok
        k["p_swap"].append(round(pi, 3))
    for k in per_kind.values():
        k["p_swap"].sort()
    return {"per_kind": per_kind, "right": right, "n": len(val)}


@torch.no_grad()
def fit_temperature(net, val):
    """Temperature scaling on the validation crops (negative log-likelihood, grid search)."""
    logits = val_logits(net, val)
    y = torch.tensor([cls for _, cls, *_ in val])
    best = min((F.cross_entropy(logits / t, y).item(), t) for t in np.arange(0.5, 5.01, 0.1))
    return round(float(best[1]), 2)


if __name__ == "__main__":
    main()
