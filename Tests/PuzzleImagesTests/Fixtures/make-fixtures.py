#!/usr/bin/env python3
"""Makes the decoder reference fixtures in this folder (run it here; it is not
part of the build or CI). Needs netpbm (pnmtopng, pngtopnm), libjpeg-turbo's
cjpeg/djpeg/jpegtran and Pillow:

    apt-get install -y libjpeg-turbo-progs netpbm && pip install pillow

Each NAME.png / NAME.jpg gets NAME.ppm, the pixels our decoder must give:
PNG exactly, from pngtopnm's samples and alpha blended over grey 128 with
the formula in PNGRows.swift; JPEG from `djpeg -dct int` (libjpeg-turbo's
islow IDCT and fancy upsampling, the default), turned by the EXIF orientation
(Adobe CMYK from Pillow's decode; the 1 Mpx one as a CRC-32 in a .crc file).
"""
import io, os, random, subprocess, sys, tempfile

W, H = 23, 19
BG = 128
tmp = tempfile.mkdtemp()
rng = random.Random(18)

def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, check=True).stdout

def read_pnm(data):
    """(width, height, maxval, channels, samples) of a P4/P5/P6 stream."""
    fields, i = [], 2
    magic = data[:2]
    need = 2 if magic == b"P4" else 3
    while len(fields) < need:
        while data[i:i+1].isspace(): i += 1
        if data[i:i+1] == b"#":
            while data[i:i+1] != b"\n": i += 1
            continue
        j = i
        while not data[j:j+1].isspace(): j += 1
        fields.append(int(data[i:j])); i = j
    i += 1
    w, h = fields[0], fields[1]
    if magic == b"P4":
        row = (w + 7) // 8
        s = [0 if (data[i + y*row + x//8] >> (7 - x % 8)) & 1 else 1 for y in range(h) for x in range(w)]
        return w, h, 1, 1, s
    maxv = fields[2]
    ch = 3 if magic == b"P6" else 1
    n = w * h * ch
    if maxv > 255:
        s = [data[i+2*k] << 8 | data[i+2*k+1] for k in range(n)]
    else:
        s = list(data[i:i+n])
    return w, h, maxv, ch, s

def write_ppm(path, w, h, rgb):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h) + bytes(rgb))

def png_expected(png):
    w, h, m, ch, s = read_pnm(run(["pngtopnm"], open(png, "rb").read()))
    _, _, ma, _, a = read_pnm(run(["pngtopnm", "-alpha"], open(png, "rb").read()))
    data = open(png, "rb").read()
    if data[25] == 2 and b"tRNS" in data:
        # pngtopnm -alpha ignores an RGB colour key: apply it to its samples.
        t = data.index(b"tRNS") + 4
        key = [data[t + 2*c] << 8 | data[t + 2*c + 1] for c in range(3)]
        a = [0 if s[p*3:p*3+3] == key else ma for p in range(w * h)]
    out = []
    for p in range(w * h):
        al = a[p]
        for c in range(3):
            v = s[p * ch + (c if ch == 3 else 0)]
            out.append((v * al * 255 + BG * m * (ma - al) + m * ma // 2) // (m * ma))
    return w, h, out

def noisy(v, maxv):
    return min(maxv, max(0, v + rng.randint(-maxv // 8, maxv // 8)))

def pgm(path, maxv, w=W, h=H):
    rows = [" ".join(str(noisy((x * maxv // (w-1) + y * maxv // (h-1)) // 2, maxv)) for x in range(w)) for y in range(h)]
    open(path, "w").write(f"P2\n{w} {h}\n{maxv}\n" + "\n".join(rows) + "\n")

def ppm(path, maxv, w=W, h=H):
    rows = []
    for y in range(h):
        rows.append(" ".join("%d %d %d" % (noisy(x * maxv // (w-1), maxv), noisy(y * maxv // (h-1), maxv),
                                          noisy((w - 1 - x) * maxv // (w-1) // 2 + y * maxv // (h-1) // 2, maxv)) for x in range(w)))
    open(path, "w").write(f"P3\n{w} {h}\n{maxv}\n" + "\n".join(rows) + "\n")

def alpha(path, maxv, w=W, h=H):
    # Opaque, clear and half-way pixels in bands, so blending is exercised.
    rows = [" ".join(str([maxv, 0, maxv // 3, noisy(maxv // 2, maxv)][(x + y) % 4]) for x in range(w)) for y in range(h)]
    open(path, "w").write(f"P2\n{w} {h}\n{maxv}\n" + "\n".join(rows) + "\n")

def save_png(name, data):
    open(name + ".png", "wb").write(data)
    w, h, rgb = png_expected(name + ".png")
    write_ppm(name + ".ppm", w, h, rgb)

def pngs():
    for depth, maxv in [(1, 1), (2, 3), (4, 15), (8, 255), (16, 65535)]:
        pgm(f"{tmp}/g{depth}.pgm", maxv)
        for inter in ["", "-interlace"]:
            suffix = "-adam7" if inter else ""
            save_png(f"png-grey{depth}{suffix}", run(["pnmtopng"] + ([inter] if inter else []) + [f"{tmp}/g{depth}.pgm"]))
    for depth, maxv in [(8, 255), (16, 65535)]:
        ppm(f"{tmp}/c{depth}.ppm", maxv)
        alpha(f"{tmp}/a{depth}.pgm", maxv)
        for inter in [[], ["-interlace"]]:
            suffix = "-adam7" if inter else ""
            save_png(f"png-rgb{depth}{suffix}", run(["pnmtopng"] + inter + [f"{tmp}/c{depth}.ppm"]))
            save_png(f"png-rgba{depth}{suffix}", run(["pnmtopng"] + inter + [f"-alpha={tmp}/a{depth}.pgm", f"{tmp}/c{depth}.ppm"]))
            save_png(f"png-greyalpha{depth}{suffix}", run(["pnmtopng"] + inter + [f"-alpha={tmp}/a{depth}.pgm", f"{tmp}/g{depth}.pgm"]))
    # Colour-key transparency (tRNS on grey and RGB).
    save_png("png-grey8-trns", run(["pnmtopng", "-transparent=gray50", f"{tmp}/g8.pgm"]))
    # Palettes of 1, 2, 4 and 8 bits, with and without tRNS, from Pillow.
    from PIL import Image
    src = Image.open(io.BytesIO(run(["pnmtopng", f"{tmp}/c8.ppm"]))).convert("RGB")
    for bits in [1, 2, 4, 8]:
        pal = src.quantize(colors=1 << bits)
        for trns in [False, True]:
            name = f"png-palette{bits}" + ("-trns" if trns else "")
            b = io.BytesIO()
            extra = {"transparency": bytes([0, 255, 100][: min(3, 1 << bits)])} if trns else {}
            pal.save(b, "PNG", bits=bits, optimize=False, **extra)
            save_png(name, b.getvalue())
            # Pillow does not interlace palettes; pnmtopng picks a palette of
            # the same depth (and tRNS from the alpha) for so few colours.
            open(f"{tmp}/p.ppm", "wb").write(run(["pngtopnm"], b.getvalue()))
            open(f"{tmp}/p.pgm", "wb").write(run(["pngtopnm", "-alpha"], b.getvalue()))
            save_png(name + "-adam7", run(["pnmtopng", "-interlace"] + ([f"-alpha={tmp}/p.pgm"] if trns else []) + [f"{tmp}/p.ppm"]))
    # Stored (uncompressed) deflate blocks, and an RGB colour key.
    b = io.BytesIO(); src.save(b, "PNG", compress_level=0); save_png("png-rgb8-stored", b.getvalue())
    b = io.BytesIO(); src.save(b, "PNG", transparency=src.getpixel((3, 4))); save_png("png-rgb8-trns", b.getvalue())

def jpeg_source(path, w, h):
    """A photo-like picture: smooth colour fields, edges and noise."""
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            r = 128 + int(100 * ((x * 7 + y * 3) % 64 - 32) / 32)
            g = 255 * y // (h - 1) if (x // 9 + y // 7) % 2 else 60
            b = (x * y * 255) // ((w - 1) * (h - 1))
            row.append("%d %d %d" % (noisy(r, 255), noisy(g, 255), noisy(b, 255)))
        rows.append(" ".join(row))
    open(path, "w").write(f"P3\n{w} {h}\n255\n" + "\n".join(rows) + "\n")

def orient(w, h, rgb, o):
    px = [rgb[i*3:i*3+3] for i in range(w*h)]
    ow, oh = (h, w) if o >= 5 else (w, h)
    out = []
    for y in range(oh):
        for x in range(ow):
            sx, sy = {1: (x, y), 2: (w-1-x, y), 3: (w-1-x, h-1-y), 4: (x, h-1-y), 5: (y, x), 6: (y, h-1-x),
                      7: (w-1-y, h-1-x), 8: (w-1-y, x)}[o]
            out += px[sy*w+sx]
    return ow, oh, out

def exif(orientation):
    # APP1 "Exif": a big-endian TIFF header and IFD0 with one SHORT tag, 0x0112.
    tiff = b"MM\x00\x2a\x00\x00\x00\x08" + b"\x00\x01" + b"\x01\x12\x00\x03\x00\x00\x00\x01" + bytes([0, orientation, 0, 0]) + b"\x00\x00\x00\x00"
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body

def save_jpeg(name, data, orientation=1):
    if orientation != 1:
        data = data[:2] + exif(orientation) + data[2:]
    open(name + ".jpg", "wb").write(data)
    w, h, m, ch, s = read_pnm(run(["djpeg", "-dct", "int", "-pnm"], data))
    rgb = s if ch == 3 else [v for v in s for _ in range(3)]
    w, h, rgb = orient(w, h, rgb, orientation)
    write_ppm(name + ".ppm", w, h, rgb)

def jpegs():
    w, h = 45, 37   # not a multiple of any MCU size: edge blocks and padding
    jpeg_source(f"{tmp}/j.ppm", w, h)
    src = f"{tmp}/j.ppm"
    for sampling, label in [("1x1", "444"), ("2x1", "422"), ("2x2", "420"), ("1x2", "440"), ("4x1", "411")]:
        save_jpeg(f"jpeg-baseline-{label}", run(["cjpeg", "-quality", "85", "-sample", sampling, src]))
    save_jpeg("jpeg-progressive-420", run(["cjpeg", "-quality", "90", "-progressive", "-sample", "2x2", src]))
    save_jpeg("jpeg-progressive-444", run(["cjpeg", "-quality", "75", "-progressive", "-sample", "1x1", src]))
    save_jpeg("jpeg-restart-420", run(["cjpeg", "-quality", "85", "-restart", "2B", "-sample", "2x2", src]))
    save_jpeg("jpeg-progressive-restart", run(["cjpeg", "-quality", "85", "-progressive", "-restart", "1B", src]))
    save_jpeg("jpeg-grey", run(["cjpeg", "-quality", "85", "-grayscale", src]))
    save_jpeg("jpeg-grey-progressive", run(["cjpeg", "-quality", "85", "-grayscale", "-progressive", src]))
    save_jpeg("jpeg-optimized-q100", run(["cjpeg", "-quality", "100", "-optimize", "-sample", "1x1", src]))
    for o in range(2, 9):
        save_jpeg(f"jpeg-exif-{o}", run(["cjpeg", "-quality", "80", "-sample", "2x2", src]), orientation=o)

def cmyk_jpeg():
    """Adobe CMYK (inverted, as Photoshop writes it) from Pillow; djpeg cannot
    write CMYK as RGB, so the expected pixels are Pillow's own decode."""
    from PIL import Image
    src = Image.open(f"{tmp}/j.ppm").convert("CMYK")
    b = io.BytesIO()
    src.save(b, "JPEG", quality=90)
    open("jpeg-adobe-cmyk.jpg", "wb").write(b.getvalue())
    rgb = Image.open(io.BytesIO(b.getvalue())).convert("RGB")
    write_ppm("jpeg-adobe-cmyk.ppm", rgb.width, rgb.height, rgb.tobytes())

def large_jpeg():
    """A 1 Mpx JPEG (decoded in bands on several cores): its expected pixels
    are kept as the CRC-32 of djpeg's RGB samples, not as a 3 MB PPM."""
    import zlib
    from PIL import Image, ImageDraw, ImageFilter
    rng = random.Random(1100)   # its own generator: the same file whichever parts run
    img = Image.new("RGB", (1100, 1000))
    d = ImageDraw.Draw(img)
    for i in range(40):
        x, y, r = rng.randrange(1100), rng.randrange(1000), rng.randint(20, 300)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    img = img.filter(ImageFilter.GaussianBlur(6))
    img.save(f"{tmp}/large.ppm")
    data = run(["cjpeg", "-quality", "60", "-sample", "2x2", f"{tmp}/large.ppm"])
    open("jpeg-large-420.jpg", "wb").write(data)
    w, h, m, ch, s = read_pnm(run(["djpeg", "-dct", "int", "-pnm"], data))
    open("jpeg-large-420.crc", "w").write("%d %d %08x\n" % (w, h, zlib.crc32(bytes(s))))


def smooth_jpegs():
    """Photo-like pictures (a sky, hills, soft shapes), where decoding at a
    reduced scale and box-shrinking the whole agree within a few levels:
    FittedDecodeTests' strict cases, baseline and progressive."""
    import math
    from PIL import Image, ImageDraw, ImageFilter
    W, H = 320, 240
    img = Image.new("RGB", (W, H))
    px = img.load()
    for y in range(H):
        for x in range(W):
            r = int(90 + 80 * y / H + 20 * math.sin(x / 37.0)); g = int(140 + 50 * math.sin(y / 53.0 + x / 71.0)); b = int(220 - 100 * y / H)
            if y > H * 0.6 + 18 * math.sin(x / 29.0):
                r, g, b = int(60 + 40 * math.sin(x / 19.0)), int(120 + 30 * math.cos(y / 13.0)), int(50 + 20 * math.sin((x + y) / 23.0))
            px[x, y] = (max(0, min(255, r)), max(0, min(255, g)), max(0, min(255, b)))
    d = ImageDraw.Draw(img)
    d.ellipse((200, 30, 260, 90), fill=(250, 230, 120))
    d.rectangle((40, 110, 110, 170), fill=(180, 60, 50))
    img = img.filter(ImageFilter.GaussianBlur(1.5))
    img.save("smooth-420.jpg", quality=90, subsampling=2)
    img.save("smooth-444.jpg", quality=90, subsampling=0)
    img.save("smooth-progressive.jpg", quality=90, subsampling=2, progressive=True)

os.chdir(os.path.dirname(os.path.abspath(__file__)))
pngs()
jpegs()
cmyk_jpeg()
large_jpeg()
smooth_jpegs()
