"""Trains the MRZ line recogniser (CRNN + CTC) on synthetic OCR-B lines and exports it to ONNX.

    /usr/bin/python3 training/mrz/train.py            # the committed weights' run: 1500 steps of 32 lines
    /usr/bin/python3 training/mrz/train.py --steps 300 --out /tmp/mrz-quick.onnx   # a quick model

Seeded: the data stream (numpy Generator per worker, seeded from --seed) and the weights
(torch.manual_seed) are fixed, so the same command on the same library versions gives the same
weights. One torch thread by default (--threads), a second process draws the data.
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crops  # noqa: E402
import onnx_init  # noqa: E402
import synth  # noqa: E402

CLASSES = ["<blank>"] + list(synth.CHARSET)
INDEX = {c: i for i, c in enumerate(CLASSES)}


class Crnn(nn.Module):
    """32xW grey line -> (W/4) steps x 38 classes. Small (~0.2 M parameters, under 1 MB) and cheap
    (~75 M multiply-adds for a 44-character line): it trains on a shared 2-core machine."""

    def __init__(self):
        super().__init__()

        def block(cin, cout, stride=1):
            return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        self.cnn = nn.Sequential(
            *block(1, 16, 2),  # 16 x W/2
            *block(16, 32),
            nn.MaxPool2d(2, 2),  # 8 x W/4
            *block(32, 64),
            nn.MaxPool2d((2, 1), (2, 1)),  # 4 x W/4
            *block(64, 96),
            nn.MaxPool2d((2, 1), (2, 1)),  # 2 x W/4
            nn.Conv2d(96, 96, (2, 1), bias=False),  # 1 x W/4
            nn.BatchNorm2d(96),
            nn.ReLU(inplace=True),
        )
        self.rnn = nn.LSTM(96, 64, num_layers=1, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(128, len(CLASSES))

    def forward(self, x):
        # x: N x 1 x 32 x W, values x/255.
        f = self.cnn(x - 0.5).squeeze(2).permute(0, 2, 1)  # N x T x 96
        f, _ = self.rnn(f)
        return self.fc(f)  # N x T x C logits


class Stream(torch.utils.data.IterableDataset):
    """Endless batches of synthetic lines; with `crops` (stage 3), a share `crops_frac` of every
    batch is drawn from the service's own line crops (crops.py), lightly jittered."""

    def __init__(self, seed: int, batch: int, hard: bool = False, crops=None, crops_frac: float = 0.0):
        self.seed, self.batch, self.hard = seed, batch, hard
        self.crops, self.crops_frac = crops or [], crops_frac

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        wid = info.id if info else 0
        rng = np.random.default_rng([self.seed, wid])
        content = synth.Content(rng, hard=self.hard)
        n_crops = int(round(self.batch * self.crops_frac)) if self.crops else 0
        while True:
            items = [synth.sample(rng, content) for _ in range(self.batch - n_crops)]
            for k in rng.integers(0, len(self.crops), n_crops) if n_crops else []:
                im, text = self.crops[int(k)]
                items.append((crops.jitter(rng, im), text))
            yield collate(items)


def collate(items):
    w = max(im.shape[1] for im, _ in items)
    x = np.zeros((len(items), 1, synth.HEIGHT, w), np.float32)
    for i, (im, _) in enumerate(items):
        x[i, 0, :, : im.shape[1]] = im / 255.0
        # Pad with the line's own right edge (a plain strip, as the service never pads).
        x[i, 0, :, im.shape[1] :] = im[:, -1:].mean() / 255.0
    targets = torch.tensor([INDEX[c] for _, t in items for c in t], dtype=torch.long)
    tlens = torch.tensor([len(t) for _, t in items], dtype=torch.long)
    widths = torch.tensor([im.shape[1] for im, _ in items], dtype=torch.long)
    return torch.from_numpy(x), targets, tlens, widths


def greedy(logits: torch.Tensor, steps: int) -> str:
    ids = logits[:steps].argmax(-1).tolist()
    out, prev = [], 0
    for i in ids:
        if i != prev and i != 0:
            out.append(CLASSES[i])
        prev = i
    return "".join(out)


def edit(a: str, b: str) -> int:
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(b)]


def validation_set(seed: int, n: int, hard: bool = False):
    rng = np.random.default_rng([seed, 999])
    content = synth.Content(rng, hard=hard)
    return [synth.sample(rng, content) for _ in range(n)]


def set_training(model, frozen_bn: bool):
    model.train()
    if frozen_bn:
        onnx_init.freeze_batch_norm(model)


def evaluate(model, val, frozen_bn: bool = False):
    model.eval()
    exact, errs, chars = 0, 0, 0
    with torch.no_grad():
        for im, t in val:
            x = torch.from_numpy(im[None, None].astype(np.float32) / 255.0)
            logits = model(x)[0]
            s = greedy(logits, logits.shape[0])
            exact += s == t
            errs += edit(s, t)
            chars += len(t)
    set_training(model, frozen_bn)
    return exact / len(val), errs / chars


def export(model, path, frozen_bn: bool = False):
    model.eval()
    dummy = torch.zeros(1, 1, synth.HEIGHT, 400)
    torch.onnx.export(
        model,
        dummy,
        path,
        input_names=["x"],
        output_names=["logits"],
        dynamic_axes={"x": {0: "n", 3: "w"}, "logits": {0: "n", 1: "t"}},
        opset_version=13,
    )
    # Back to the training mode the run uses: a plain model.train() would switch frozen batch
    # norms back to batch statistics after the first snapshot (stage 3's runs did; see README).
    set_training(model, frozen_bn)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "mrz-crnn.onnx"))
    ap.add_argument("--snapshot-every", type=int, default=100, help="export a snapshot ONNX beside --out")
    ap.add_argument("--val", type=int, default=100)
    # One thread by default: the committed weights were made so, and it leaves a shared 2-core
    # machine's second core to the rest (CPU kernels may sum in another order with 2 threads).
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    # Stage 2 (README "Command"): start from stage 1's weights, draw the --hard data, and validate
    # on stage 1's validation lines (--val-seed 13) so the figures compare.
    ap.add_argument("--init", help="state_dict (.pt) to start from instead of a random initialisation")
    ap.add_argument("--hard", action="store_true", help="add synth.py's hard lines (K beside fillers, C1, small fillers, small prints)")
    ap.add_argument("--val-seed", type=int, help="seed of the validation lines (default: --seed)")
    ap.add_argument("--pct-start", type=float, default=0.1, help="share of the one-cycle schedule spent warming up")
    # The committed stage 2 ran out of time: its weights are the step-1200 snapshot of a
    # 1400-step schedule. --stop-after reproduces that (the schedule still spans --steps).
    ap.add_argument("--stop-after", type=int, help="end at this step (default: --steps), keeping the --steps schedule")
    # Stage 3 (README "Command"): start from the committed ONNX weights (stage 2's only form)
    # and mix the service's own line crops (export-mrz-crops.ts) into every batch.
    ap.add_argument("--init-onnx", help="ONNX file (this recogniser's export) to start from; batch norms stay frozen")
    ap.add_argument("--crops", help="folder of exported service line crops (crops.py)")
    ap.add_argument("--crops-frac", type=float, default=0.5, help="share of each batch drawn from --crops")
    ap.add_argument("--crops-val-share", type=float, default=0.2, help="share of the crops' documents held apart for validation")
    # Stage 3's committed weights were made while every snapshot export put the batch norms back
    # into batch statistics (from the first snapshot on); this reproduces that run.
    ap.add_argument("--snapshot-unfreezes-bn", action="store_true", help="stage 3's behaviour: batch norms use batch statistics after the first snapshot")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    model = Crnn()
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
    frozen_bn = bool(args.init_onnx)
    if args.init_onnx:
        onnx_init.load_onnx_weights(model, args.init_onnx)
    set_training(model, frozen_bn)
    crops_train, crops_val = crops.load(args.crops, args.crops_val_share) if args.crops else ([], [])
    if args.crops:
        print(f"crops: {len(crops_train)} for training, {len(crops_val)} held apart", flush=True)
    nparams = sum(p.numel() for p in model.parameters())
    print(f"parameters {nparams}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=args.pct_start)
    loader = torch.utils.data.DataLoader(
        Stream(args.seed, args.batch, args.hard, crops_train, args.crops_frac),
        batch_size=None,
        num_workers=args.workers,
        prefetch_factor=4 if args.workers else None,
        persistent_workers=bool(args.workers),
    )
    val_seed = args.seed if args.val_seed is None else args.val_seed
    val = validation_set(val_seed, args.val)
    # The hard lines' own validation (the same seed, hard content): only when training on them.
    val_hard = validation_set(val_seed, args.val, hard=True) if args.hard else None
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    t0 = time.time()
    log = []
    running = None
    last = args.steps if args.stop_after is None else min(args.steps, args.stop_after)
    if crops_val:
        # The starting weights on the held-apart crops: what the run is measured against.
        cacc, ccer = evaluate(model, crops_val, frozen_bn)
        log.append({"step": 0, "seconds": 0, "val_crops_line_exact": cacc, "val_crops_cer": ccer})
        print(f"== step 0 crops val line exact {cacc:.3f} CER {ccer:.4f}", flush=True)
    for step, (x, targets, tlens, widths) in enumerate(loader, 1):
        logits = model(x)  # N x T x C
        T = logits.shape[1]
        in_lens = torch.clamp((widths + 3) // 4, max=T)
        lp = F.log_softmax(logits, -1).permute(1, 0, 2)
        loss = ctc(lp, targets, in_lens, tlens)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        sched.step()
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        if step % 50 == 0:
            print(f"step {step} loss {running:.4f} {time.time() - t0:.0f}s", flush=True)
        if step % args.snapshot_every == 0 or step == last:
            acc, cer = evaluate(model, val, frozen_bn)
            entry = {"step": step, "seconds": round(time.time() - t0), "val_line_exact": acc, "val_cer": cer}
            print(f"== step {step} val line exact {acc:.3f} CER {cer:.4f}", flush=True)
            if val_hard is not None:
                hacc, hcer = evaluate(model, val_hard, frozen_bn)
                entry.update({"val_hard_line_exact": hacc, "val_hard_cer": hcer})
                print(f"== step {step} hard val line exact {hacc:.3f} CER {hcer:.4f}", flush=True)
            if crops_val:
                cacc, ccer = evaluate(model, crops_val, frozen_bn)
                entry.update({"val_crops_line_exact": cacc, "val_crops_cer": ccer})
                print(f"== step {step} crops val line exact {cacc:.3f} CER {ccer:.4f}", flush=True)
            log.append(entry)
            export(model, args.out + ".snapshot.onnx", frozen_bn and not args.snapshot_unfreezes_bn)
            # The log so far, beside the snapshot: a run stopped early keeps its figures.
            write_log(args, nparams, log, t0, args.out + ".snapshot.log.json")
        if step >= last:
            break
    export(model, args.out, frozen_bn and not args.snapshot_unfreezes_bn)
    torch.save(model.state_dict(), args.out.replace(".onnx", ".pt") if args.out.endswith(".onnx") else args.out + ".pt")
    write_log(args, nparams, log, t0, args.out.replace(".onnx", "") + ".log.json")
    print(f"done in {time.time() - t0:.0f}s -> {args.out}", flush=True)


def write_log(args, nparams: int, log: list, t0: float, path: str):
    with open(path, "w") as fh:
        json.dump({"args": vars(args), "parameters": nparams, "evaluations": log, "seconds": round(time.time() - t0)}, fh, indent=1)


if __name__ == "__main__":
    main()
