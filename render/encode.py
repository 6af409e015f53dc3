"""PNG encoding tuned for Discord: small files, quickly made."""

from __future__ import annotations

import io

from PIL import Image

PALETTE_COLOURS = 256
PALETTE_SAMPLE = 3  # choose the palette from the picture shrunk 3x each way (9x fewer pixels)
COMPRESS_LEVEL = 3


def _to_palette(image: Image.Image) -> Image.Image:
    """``image`` reduced to at most 256 colours, without dithering.

    The palette is chosen by Pillow's fast octree from the picture shrunk by
    :data:`PALETTE_SAMPLE` (shrinking averages, so antialiased edges keep their in-between
    colours), then every pixel takes its nearest palette colour: as good as an octree over the
    whole picture here (mean error ~1/255) in two thirds of the time.
    """
    sample = image.reduce(PALETTE_SAMPLE) if min(image.size) >= 64 * PALETTE_SAMPLE else image
    palette = sample.quantize(
        PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def to_png(image: Image.Image, palette: bool = True) -> bytes:
    """Encode ``image`` as PNG bytes.

    With ``palette`` (the default) the picture is first reduced to 256 colours: our pictures
    are flat colours, antialiased text and card art, which survive this with no visible change,
    and the file is 3-4x smaller than true colour. zlib level 3: level 6 would save ~20 % of a
    40 KB file for twice the time.
    """
    if palette and image.mode in ("RGB", "RGBA"):
        image = _to_palette(image.convert("RGB") if image.mode == "RGBA" else image)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
