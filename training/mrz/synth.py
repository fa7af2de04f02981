"""Synthetic MRZ line images: random valid MRZ content of the three ICAO 9303 formats, drawn in
OCR-B and degraded the way phone photos, scans and binarised crops degrade them.

Everything is drawn from one numpy Generator, so a seed fixes the whole data stream.
"""

import glob
import string

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

CHARSET = string.ascii_uppercase + string.digits + "<"
HEIGHT = 32
# The model sees lines narrowed to this share of their natural aspect: OCR-B's pitch at a 32 px
# line height is ~16 px, so 0.8 leaves ~3 CTC steps per character (a width-4 downsampling),
# enough for filler runs, where every repeated '<' needs a blank between it and the next.
SQUEEZE = 0.8

FONT_DIR = "/usr/share/fonts/opentype/ocr-b"
# Regular and Sharp are the MRZ faces; Oblique stands in for sheared prints.
FONT_FILES = ["OCRB.otf", "OCRB.otf", "OCRB.otf", "OCRBS.otf", "OCRBL.otf"]

WEIGHTS = [7, 3, 1, 7, 3, 1, 7, 3, 1]


def check_digit(s: str) -> str:
    total = 0
    for i, c in enumerate(s):
        if c.isdigit():
            v = int(c)
        elif c == "<":
            v = 0
        else:
            v = ord(c) - 55
        total += v * WEIGHTS[i % 3]
    return str(total % 10)


class Content:
    """Random MRZ text of each format (mostly valid, with the structures real documents have).

    hard=True (stage 2 of the recipe, train.py --hard) adds lines aimed at the service's misses on
    real captures: K and other K-like letters (X, R, H, N) beside filler runs, `C1`/`CT`/`CI`-like
    pairs, and short lines. hard=False draws exactly the stage-1 stream (no extra random draws)."""

    def __init__(self, rng: np.random.Generator, hard: bool = False):
        self.r = rng
        self.hard = hard

    def letters(self, n: int) -> str:
        return "".join(self.r.choice(list(string.ascii_uppercase), n))

    def digits(self, n: int) -> str:
        return "".join(self.r.choice(list(string.digits), n))

    def alnum(self, n: int) -> str:
        return "".join(self.r.choice(list(string.ascii_uppercase + string.digits), n))

    def word(self) -> str:
        r = self.r
        vowels, cons = "AEIOUY", "BCDFGHJKLMNPRSTVWXZ"
        n = int(r.integers(2, 12))
        out = []
        start_vowel = r.random() < 0.3
        for i in range(n):
            out.append(r.choice(list(vowels if (i % 2 == 0) == start_vowel else cons)))
            if r.random() < 0.12:
                out.append(out[-1])  # double letters: LL, SS, NN
        return "".join(out)[: int(r.integers(2, 16))]

    def names(self, width: int) -> str:
        r = self.r
        surname = "<".join(self.word() for _ in range(int(r.choice([1, 1, 1, 2, 3]))))
        given = "<".join(self.word() for _ in range(int(r.choice([0, 1, 1, 2, 2, 3]))))
        s = surname + ("<<" + given if given else "")
        if r.random() < 0.05:
            s = "<" + s[1:]
        return (s + "<" * width)[:width]

    def date(self) -> str:
        return f"{int(self.r.integers(0, 100)):02d}{int(self.r.integers(1, 13)):02d}{int(self.r.integers(1, 32)):02d}"

    def country(self) -> str:
        r = self.r
        c = self.letters(3)
        if r.random() < 0.1:
            c = self.letters(1) + "<<" if r.random() < 0.5 else self.letters(2) + "<"
        return c

    def docnum(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.4:
            n = self.alnum(9)
        elif k < 0.8:
            n = self.letters(int(r.integers(0, 3))) + self.digits(9)
            n = n[:9]
        else:
            n = self.alnum(int(r.integers(5, 9)))
        return (n + "<<<<<<<<<")[:9]

    def optional(self, n: int) -> str:
        r = self.r
        k = r.random()
        if k < 0.5:
            return "<" * n
        m = int(r.integers(1, n + 1))
        body = self.digits(m) if r.random() < 0.6 else self.alnum(m)
        return (body + "<" * n)[:n]

    def sex(self) -> str:
        return str(self.r.choice(list("MMFF<X")))

    def maybe_break(self, d: str) -> str:
        # A few check digits wrong, so the model reads digits rather than computes them.
        if self.r.random() < 0.1:
            return str(self.r.integers(0, 10))
        return d

    def td3(self) -> list[str]:
        r = self.r
        code = str(r.choice(["P<", "P<", "PD", "PO", "V<", "PS"]))
        l1 = code + self.country() + self.names(39)
        num = self.docnum()
        dob, exp = self.date(), self.date()
        opt = self.optional(14)
        optcd = "<" if opt == "<" * 14 and r.random() < 0.5 else check_digit(opt)
        l2 = num + check_digit(num) + self.country() + dob + check_digit(dob) + self.sex() + exp + check_digit(exp) + opt + optcd
        comp = check_digit(l2[0:10] + l2[13:20] + l2[21:43])
        l2 = l2 + self.maybe_break(comp)
        return [l1, l2]

    def td2(self) -> list[str]:
        r = self.r
        code = str(r.choice(["I<", "ID", "IR", "AC", "V<", "IP"]))
        l1 = code + self.country() + self.names(31)
        num = self.docnum()
        dob, exp = self.date(), self.date()
        l2 = num + check_digit(num) + self.country() + dob + check_digit(dob) + self.sex() + exp + check_digit(exp) + self.optional(7)
        l2 = l2 + self.maybe_break(check_digit(l2[0:10] + l2[13:20] + l2[21:35]))
        return [l1, l2]

    def td1(self) -> list[str]:
        r = self.r
        code = str(r.choice(["I<", "ID", "IR", "AC", "C1", "IO", "A<"]))
        if r.random() < 0.35:
            # Long document numbers (e.g. 17-digit card numbers): the first 9 in the number
            # field, '<' where its check digit would be, the rest and the check digit in the
            # optional field (ICAO 9303-5, 4.2.2).
            full = self.digits(int(r.integers(10, 18))) if r.random() < 0.7 else self.alnum(int(r.integers(10, 15)))
            rest = full[9:] + check_digit(full)
            opt1 = (rest + "<" * 15)[:15]
            l1 = code + self.country() + full[:9] + "<" + opt1
        else:
            num = self.docnum()
            l1 = code + self.country() + num + check_digit(num) + self.optional(15)
        dob, exp = self.date(), self.date()
        l2 = dob + check_digit(dob) + self.sex() + exp + check_digit(exp) + self.country() + self.optional(11)
        l2 = l2 + self.maybe_break(check_digit(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29]))
        l3 = self.names(30)
        return [l1, l2, l3]

    def random_line(self) -> str:
        """Arbitrary MRZ-alphabet text with filler runs: no language prior to lean on."""
        r = self.r
        n = int(r.choice([30, 36, 44]))
        out = []
        while len(out) < n:
            if r.random() < 0.3:
                out += ["<"] * int(r.integers(1, 12))
            else:
                out += list(self.alnum(int(r.integers(1, 8))))
        return "".join(out[:n])

    def confusable_line(self) -> str:
        """Filler runs against K-like letters and C1/CT-like pairs: the pairs the service misreads."""
        r = self.r
        n = int(r.choice([30, 36, 44]))
        out: list[str] = []
        pieces = ["K", "KK", "K<", "<K", "X", "R", "H", "N", "KX", "C1", "CT", "CI", "C<", "T1", "1T", "I1", "L1", "CL"]
        while len(out) < n:
            k = r.random()
            if k < 0.4:
                out += ["<"] * int(r.integers(1, 8))
            elif k < 0.75:
                out += list(str(r.choice(pieces)))
            else:
                out += list(self.alnum(int(r.integers(1, 5))))
        return "".join(out[:n])

    def k_names(self, width: int) -> str:
        """Names whose words begin or end in K (MARTIN<<KRISTELLE, KAKOU<KOFFI): fillers beside K."""
        r = self.r
        words = []
        for _ in range(int(r.integers(2, 5))):
            w = self.word()
            w = ("K" + w) if r.random() < 0.5 else (w + "K")
            words.append(w)
        s = words[0] + "<<" + "<".join(words[1:])
        return (s + "<" * width)[:width]

    def lines(self) -> list[str]:
        if self.hard:
            k = self.r.random()
            if k < 0.12:
                return [self.confusable_line(), self.confusable_line()]
            if k < 0.2:
                # A name line of each format (TD3 2x44, TD2 2x36, TD1's third line) with K-names.
                fmt = int(self.r.integers(0, 3))
                if fmt == 0:
                    return [str(self.r.choice(["P<", "PD", "V<"])) + self.country() + self.k_names(39)]
                if fmt == 1:
                    return [str(self.r.choice(["I<", "ID", "AC"])) + self.country() + self.k_names(31)]
                return [self.k_names(30)]
            if k < 0.28:
                lines = self.td1()
                return [("C1" + lines[0][2:]), lines[1], lines[2]]
        k = self.r.random()
        if k < 0.12:
            return [self.random_line(), self.random_line()]
        if k < 0.45:
            return self.td3()
        if k < 0.8:
            return self.td1()
        return self.td2()


_fonts: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    key = (name, size)
    if key not in _fonts:
        _fonts[key] = ImageFont.truetype(f"{FONT_DIR}/{name}", size)
    return _fonts[key]


def background(r: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Paper, card plastic or security print: a light base, gradients, guilloche waves, specks."""
    base = float(r.uniform(150, 250))
    img = np.full((h, w), base, np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if r.random() < 0.7:
        # Guilloche / security print: a few low-contrast sine line patterns.
        for _ in range(int(r.integers(1, 4))):
            fx, fy = r.uniform(0.01, 0.25), r.uniform(0.01, 0.4)
            ph = r.uniform(0, 6.3)
            amp = r.uniform(5, 45)
            wave = np.sin(xx * fx + np.sin(yy * fy + ph) * r.uniform(0.5, 4) + yy * r.uniform(-0.3, 0.3))
            img -= amp * (wave > r.uniform(0.6, 0.95))
    if r.random() < 0.5:
        noise = cv2.GaussianBlur(r.normal(0, 1, (h, w)).astype(np.float32), (0, 0), r.uniform(1, 6))
        img += noise * r.uniform(5, 30) / max(1e-3, noise.std())
    if r.random() < 0.2:
        # Faint printed microtext or a pale letter pattern behind the zone.
        for _ in range(int(r.integers(3, 12))):
            x, y = int(r.integers(0, w)), int(r.integers(0, h))
            cv2.putText(img, "".join(r.choice(list(CHARSET), 4)), (x, y), cv2.FONT_HERSHEY_SIMPLEX, r.uniform(0.3, 1.2), float(base - r.uniform(15, 50)), 1)
    return img


def draw_line(r: np.random.Generator, text: str, size: int, neighbours: tuple[str | None, str | None], hard: bool = False) -> np.ndarray:
    """The line in OCR-B on a textured strip, with optional parts of the rows above and below.

    hard=True sometimes draws the filler smaller and thinner than the letters (old cards' printers),
    so a small `<` is still a filler, not a K."""
    fname = str(r.choice(FONT_FILES))
    f = font(fname, size)
    small_filler = None
    if hard and r.random() < 0.4:
        fs = max(8, int(size * r.uniform(0.6, 0.9)))
        small_filler = (font(fname, fs), (size - fs) * r.uniform(0.3, 0.7))
    adv = f.getlength("A")
    pitch = adv * r.uniform(0.92, 1.12)
    asc, desc = f.getmetrics()
    cap = asc * 0.75
    gap = size * r.uniform(0.5, 1.3)  # baseline-to-baseline spacing of the MRZ rows
    ml = int(adv * r.uniform(0.1, 2.5))
    mr = int(adv * r.uniform(0.1, 2.5))
    w = int(ml + mr + pitch * len(text) + adv)
    h = int(asc + desc + 2 * gap + size)
    bg = background(r, h, w)
    ink = float(r.uniform(0, 90))
    layer = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(layer)
    stroke = int(r.choice([0, 0, 0, 1, 1, 2])) if size >= 28 else int(r.choice([0, 0, 1]))
    base_y = gap + size * 0.5
    rows = [(neighbours[0], base_y - gap - size * 0.5), (text, base_y), (neighbours[1], base_y + gap + size * 0.5)]
    for row, y0 in rows:
        if row is None:
            continue
        x = float(ml)
        for c in row:
            if small_filler is not None and c == "<":
                d.text((x, y0 + small_filler[1]), c, fill=255, font=small_filler[0])
            else:
                d.text((x, y0), c, fill=255, font=f, stroke_width=stroke, stroke_fill=255)
            x += pitch + r.normal(0, adv * 0.015)
    mask = np.asarray(layer, np.float32) / 255.0
    if r.random() < 0.3:
        # Thinner strokes (light prints, thermal/laser engraving).
        mask = cv2.erode(mask, np.ones((2, 2), np.uint8))
    img = bg * (1 - mask) + ink * mask
    # Crop: the detector's box around the middle row, loose or tight, sometimes cutting a letter edge.
    top = base_y + (asc - cap) - cap * r.uniform(0.05, 0.7)
    bottom = base_y + asc + cap * r.uniform(0.0, 0.6)
    left = ml - adv * r.uniform(-0.1, min(2.0, ml / adv))
    right = ml + pitch * len(text) + adv * r.uniform(-0.05, 2.0)
    t, b = int(max(0, top)), int(min(h, bottom))
    lft, rgt = int(max(0, left)), int(min(w, right))
    return img[t:b, lft:rgt]


def degrade(r: np.random.Generator, img: np.ndarray, hard: bool = False) -> np.ndarray:
    h, w = img.shape
    # Geometry: rotation, shear and a slight perspective, as a phone held askew gives.
    if r.random() < 0.8:
        pad = int(h * 0.3)
        img = cv2.copyMakeBorder(img, pad, pad, 4, 4, cv2.BORDER_REPLICATE)
        h2, w2 = img.shape
        src = np.float32([[0, 0], [w2, 0], [w2, h2], [0, h2]])
        ang = np.deg2rad(r.normal(0, 0.6))
        shear = r.normal(0, 0.08)
        jitter = lambda s: r.normal(0, s)  # noqa: E731
        dst = []
        cx, cy = w2 / 2, h2 / 2
        for x, y in src:
            x2 = x + shear * (y - cy)
            xr = cx + (x2 - cx) * np.cos(ang) - (y - cy) * np.sin(ang)
            yr = cy + (x2 - cx) * np.sin(ang) + (y - cy) * np.cos(ang)
            dst.append([xr + jitter(h * 0.06), yr + jitter(h * 0.04)])
        M = cv2.getPerspectiveTransform(src, np.float32(dst))
        img = cv2.warpPerspective(img, M, (w2, h2), borderMode=cv2.BORDER_REPLICATE)
        img = img[pad:-pad, 4:-4]
        h, w = img.shape
    # Uneven light: a smooth multiplicative field, sometimes a glare spot.
    if r.random() < 0.6:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = 1 + r.uniform(-0.35, 0.35) * (xx / w - 0.5) + r.uniform(-0.3, 0.3) * (yy / h - 0.5)
        img = img * g
    if r.random() < 0.15:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy, rad = r.uniform(0, w), r.uniform(0, h), r.uniform(h, 4 * h)
        img = img + r.uniform(30, 120) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2))
    # Optics: defocus or motion blur.
    k = r.random()
    if k < 0.45:
        img = cv2.GaussianBlur(img, (0, 0), r.uniform(0.3, 1.8) * h / 40)
    elif k < 0.55:
        n = int(r.integers(3, 8))
        kern = np.zeros((n, n), np.float32)
        kern[n // 2, :] = 1 / n
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, cv2.getRotationMatrix2D((n / 2, n / 2), r.uniform(0, 180), 1), (n, n)))
    # Resolution: low-resolution captures (character height down to ~7 px).
    if hard and r.random() < 0.25:
        # Small scans: the crop itself 12-20 px tall (characters ~8-12 px), upscaled by the service.
        s = r.uniform(12, 20) / max(h, 1)
        if s < 1:
            img = cv2.resize(img, (max(8, int(w * s)), max(6, int(h * s))), interpolation=cv2.INTER_AREA)
            h, w = img.shape
    elif r.random() < 0.5:
        s = r.uniform(0.2, 0.8) * 40 / max(h, 1)
        s = min(1.0, max(s, 10 / max(h, 1)))
        small = cv2.resize(img, (max(8, int(w * s)), max(6, int(h * s))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=int(r.choice([cv2.INTER_LINEAR, cv2.INTER_NEAREST, cv2.INTER_CUBIC])))
    # Sensor noise, contrast.
    if r.random() < 0.7:
        img = img + r.normal(0, r.uniform(2, 18), img.shape)
    if r.random() < 0.3:
        lo, hi = r.uniform(0, 80), r.uniform(170, 255)
        img = lo + img * (hi - lo) / 255
    img = np.clip(img, 0, 255).astype(np.uint8)
    # JPEG.
    if r.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(r.integers(15, 95))])
        img = cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE)
    # Binarised crops (what MRZ tools hand over, and the fixture crops are).
    if r.random() < 0.2:
        if r.random() < 0.5:
            _, img = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        else:
            bs = int(h // 2) * 2 + 1
            img = cv2.adaptiveThreshold(img, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, max(3, bs), int(r.integers(5, 20)))
    return img


def to_input(img: np.ndarray) -> np.ndarray:
    """Grey crop -> HEIGHT tall, width squeezed by SQUEEZE (the same rule the service applies)."""
    h, w = img.shape
    nw = max(16, int(round(w * HEIGHT / h * SQUEEZE)))
    return cv2.resize(img, (nw, HEIGHT), interpolation=cv2.INTER_AREA if h > HEIGHT else cv2.INTER_LINEAR)


def sample(r: np.random.Generator, content: Content) -> tuple[np.ndarray, str]:
    hard = content.hard
    lines = content.lines()
    i = int(r.integers(0, len(lines)))
    text = lines[i]
    above = lines[i - 1] if i > 0 and r.random() < 0.5 else None
    below = lines[i + 1] if i + 1 < len(lines) and r.random() < 0.5 else None
    size = int(r.integers(22, 60))
    if hard and r.random() < 0.3:
        size = int(r.integers(14, 24))
    img = draw_line(r, text, size, (above, below), hard)
    img = degrade(r, img, hard)
    return to_input(img), text


if __name__ == "__main__":
    import sys

    rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    c = Content(rng)
    rows = []
    for _ in range(24):
        im, t = sample(rng, c)
        print(t)
        im = im[:, :900]
        rows.append(np.pad(im, ((0, 2), (0, 900 - im.shape[1])), constant_values=128))
    cv2.imwrite(sys.argv[2] if len(sys.argv) > 2 else "/tmp/mrz-synth.png", np.vstack(rows))
    _ = glob
