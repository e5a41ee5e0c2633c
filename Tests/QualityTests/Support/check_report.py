"""Checks a run report as a person would see it: renders it in headless Chromium, then
parses the HTML for its sections and the screenshot for drawn plots.

Usage: check_report.py REPORT.html OUT.png  -> prints a JSON summary."""
import colorsys
import json
import subprocess
import sys
from html.parser import HTMLParser

from PIL import Image

html_path, png_path = sys.argv[1], sys.argv[2]


class Sections(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.svgs, self.rows, self.in_quality = [], [], 0, False
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id"))
            self.in_quality = attrs.get("id") == "quality"
        elif tag == "svg":
            self.svgs.append(attrs.get("id"))
        elif tag == "tr" and self.in_quality:
            self.rows += 1
        elif tag == "script":
            self.scripts += 1


parser = Sections()
with open(html_path, encoding="utf-8") as handle:
    parser.feed(handle.read())

subprocess.run(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={png_path}",
     "--window-size=1280,3000", "--hide-scrollbars", f"file://{html_path}"],
    check=True, capture_output=True, timeout=120)

image = Image.open(png_path).convert("RGB")
width, height = image.size
pixels = image.load()

# Each SVG is framed by a 1 px #ddd border: find the column of the frames' left edges, take the
# tall runs of border colour down that column, in page order, as the SVG boxes, and follow each
# box's top edge to the right to find its width.
border = (221, 221, 221)
left = next(x for x in range(width // 2) if sum(pixels[x, y] == border for y in range(height)) > 300)
boxes, run_start = [], None
for y in range(height + 1):
    inside = y < height and pixels[left, y] == border
    if inside and run_start is None:
        run_start = y
    elif not inside and run_start is not None:
        if y - run_start >= 100:
            right = left
            while right + 1 < width and pixels[right + 1, run_start] == border:
                right += 1
            boxes.append((run_start, y, right))
        run_start = None

colors = {"red": (0xD6, 0x27, 0x28), "green": (0x2C, 0xA0, 0x2C), "blue": (0x1F, 0x77, 0xB4),
          "orange": (0xFF, 0x7F, 0x0E), "step": (0x5B, 0x6B, 0x7F)}


def hue_saturation(rgb):
    h, _, s = colorsys.rgb_to_hls(*(channel / 255 for channel in rgb))
    return h * 360, s


line_hues = {name: hue_saturation(rgb)[0] for name, rgb in colors.items() if name != "step"}


backgrounds = [(255, 255, 255), (0xF3, 0xF6, 0xFA), (0xE3, 0xEC, 0xF7)]


def ink(box):
    """Pixels of each line colour inside a box, below its title and legend rows: a line pixel
    keeps its colour's hue when anti-aliasing blends it with the pale background; the step bars
    are matched by colour; "any" counts every line pixel whatever its hue."""
    counts = {name: 0 for name in colors}
    counts["any"] = 0
    top, bottom, right = box
    scale = (right - left) / 1000
    for y in range(top + int(26 * scale), bottom):
        for x in range(left + 1, right):
            rgb = pixels[x, y]
            r, g, b = rgb
            # Anything far from the backgrounds inside the plotting area (right of the value
            # labels, above the time axis) is ink, including where translucent lines blend.
            if left + 70 * scale < x < right - 12 * scale and y < bottom - 26 * scale and all(
                    abs(r - br) + abs(g - bg) + abs(b - bb) > 80 for br, bg, bb in backgrounds):
                counts["any"] += 1
            sr, sg, sb = colors["step"]
            if abs(r - sr) + abs(g - sg) + abs(b - sb) < 40:
                counts["step"] += 1
                continue
            hue, saturation = hue_saturation(rgb)
            if saturation < 0.45 or max(rgb) - min(rgb) < 40:
                continue
            for name, target in line_hues.items():
                if min(abs(hue - target), 360 - abs(hue - target)) < 12:
                    counts[name] += 1
                    break
    return counts


svg_ink = {}
for identifier, box in zip(parser.svgs, boxes):
    svg_ink[identifier] = ink(box)

print(json.dumps({
    "sections": parser.sections, "svgs": parser.svgs, "checkRows": parser.rows - 1,
    "scripts": parser.scripts, "svgInk": svg_ink, "boxes": boxes, "size": [width, height],
}))
