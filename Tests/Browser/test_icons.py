"""The app's icons: PNGs of the sizes the manifest and the layout name, and exactly what
scripts/make-icons.sh draws from the favicon (so they can be drawn again)."""

import pathlib
import struct
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ICONS = ROOT / "Public" / "icons"
SIZES = {"icon-192": 192, "icon-512": 512, "icon-maskable-512": 512, "apple-touch-icon": 180}


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("name", SIZES)
def test_each_icon_is_a_square_png_of_its_size(name):
    assert png_size(ICONS / f"{name}.png") == (SIZES[name], SIZES[name])


def test_the_icons_are_the_ones_the_script_draws(tmp_path):
    assert sorted(p.stem for p in ICONS.glob("*.png")) == sorted(SIZES)
    subprocess.run([str(ROOT / "scripts" / "make-icons.sh"), str(tmp_path)], check=True, capture_output=True)
    for name in SIZES:
        drawn = (tmp_path / f"{name}.png").read_bytes()
        assert drawn == (ICONS / f"{name}.png").read_bytes(), f"{name}.png differs from what the script draws"
