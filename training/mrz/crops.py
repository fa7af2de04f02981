"""The service's own MRZ line crops as training lines (`train.py --crops DIR`).

DIR is written by packages/vision/scripts/eval/export-mrz-crops.ts: grey PNGs already at the
model's input size (32 px tall, the service's width rule) and `labels*.tsv` rows
(file, truth line, document index, variant, line). The crops of one document (its lines, each
cut three ways) are near copies of each other, so the validation share is held apart by
document, never by crop: a document's crops are all training or all validation.
"""

import glob
import os

import cv2
import numpy as np

import synth

# Documents are assigned to validation by a fixed hash of their index (Knuth's multiplicative
# hash, spread over [0, 1)), so the split does not depend on the order of the label files.
_HASH = 2654435761


def _val_doc(doc: int, share: float) -> bool:
    return ((doc * _HASH) % 2**32) / 2**32 < share


def load(folder: str, val_share: float):
    """(training crops, validation crops), each a list of (uint8 32 x W image, truth line)."""
    train, val = [], []
    files = sorted(glob.glob(os.path.join(folder, "labels*.tsv")))
    if not files:
        raise FileNotFoundError(f"no labels*.tsv in {folder}")
    for path in files:
        with open(path) as fh:
            for row in fh:
                if not row.strip():
                    continue
                name, text, doc = row.rstrip("\n").split("\t")[:3]
                im = cv2.imread(os.path.join(folder, name), cv2.IMREAD_GRAYSCALE)
                if im is None or im.shape[0] != synth.HEIGHT:
                    raise ValueError(f"{name}: not a {synth.HEIGHT}-px grey line")
                (val if _val_doc(int(doc), val_share) else train).append((im, text))
    return train, val


def jitter(r: np.random.Generator, im: np.ndarray) -> np.ndarray:
    """Light variation of a crop seen many times: width ±8 % (the service's width rule and crop
    variants span about that), contrast and brightness, a little sensor noise."""
    w = max(16, int(round(im.shape[1] * r.uniform(0.92, 1.08))))
    out = cv2.resize(im, (w, synth.HEIGHT), interpolation=cv2.INTER_AREA).astype(np.float32)
    mean = out.mean()
    out = (out - mean) * r.uniform(0.75, 1.15) + mean + r.uniform(-20, 20)
    out += r.normal(0, r.uniform(0, 6), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)
