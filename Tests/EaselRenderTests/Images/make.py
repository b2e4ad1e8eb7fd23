"""Writes the photo fixtures (see README.md). Needs Pillow."""
import io
import json

from PIL import Image, ImageDraw, ImageOps

W, H = 16, 8
colours = {"red": (230, 20, 20), "green": (20, 200, 40), "blue": (20, 40, 220), "yellow": (240, 220, 20)}
source = Image.new("RGB", (W, H))
draw = ImageDraw.Draw(source)
draw.rectangle([0, 0, W // 2 - 1, H // 2 - 1], fill=colours["red"])
draw.rectangle([W // 2, 0, W - 1, H // 2 - 1], fill=colours["green"])
draw.rectangle([0, H // 2, W // 2 - 1, H - 1], fill=colours["blue"])
draw.rectangle([W // 2, H // 2, W - 1, H - 1], fill=colours["yellow"])


def nearest(colour):
    return min(colours, key=lambda name: sum((a - b) ** 2 for a, b in zip(colours[name], colour)))


expected = {}
for orientation in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    source.save(buffer, "JPEG", quality=98, exif=exif.tobytes(), subsampling=0)
    open(f"orientation-{orientation}.jpg", "wb").write(buffer.getvalue())
    upright = ImageOps.exif_transpose(Image.open(io.BytesIO(buffer.getvalue())))
    w, h = upright.size
    pixels = upright.load()
    expected[str(orientation)] = {
        "size": [w, h], "topLeft": nearest(pixels[1, 1]), "topRight": nearest(pixels[w - 2, 1]),
        "bottomLeft": nearest(pixels[1, h - 2]),
    }
json.dump(expected, open("orientations.json", "w"), indent=1, sort_keys=True)

alpha = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
draw = ImageDraw.Draw(alpha)
draw.ellipse([2, 2, 17, 17], fill=(220, 30, 30, 128))
draw.rectangle([0, 0, 4, 4], fill=(10, 120, 250, 255))
alpha.save("alpha.webp", "WEBP", lossless=True)
alpha.save("alpha.png", "PNG")

whole = open("orientation-1.jpg", "rb").read()
open("truncated.jpg", "wb").write(whole[: len(whole) // 2])
