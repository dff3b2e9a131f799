"""The catalogue's sound files: MP3, mono, a few seconds, under 100 KB, and exactly what
scripts/make-sounds.sh makes from its parameters (so they can be rebuilt)."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOUNDS = ROOT / "Public" / "sounds"
NAMES = ["bell", "bowl", "gong", "chime", "wood-block"]


def soxi(option, path):
    return subprocess.run(["soxi", option, str(path)], check=True, capture_output=True, text=True).stdout.strip()


@pytest.mark.parametrize("name", NAMES)
def test_each_sound_is_a_short_small_mono_mp3(name):
    path = SOUNDS / f"{name}.mp3"
    assert path.stat().st_size < 100_000
    assert soxi("-t", path) == "mp3"
    assert soxi("-c", path) == "1"
    assert 0.2 <= float(soxi("-D", path)) <= 6.0


def test_the_files_are_the_ones_the_script_makes(tmp_path):
    assert sorted(p.stem for p in SOUNDS.glob("*.mp3")) == sorted(NAMES)
    subprocess.run([str(ROOT / "scripts" / "make-sounds.sh"), str(tmp_path)], check=True, capture_output=True)
    for name in NAMES:
        made = (tmp_path / f"{name}.mp3").read_bytes()
        assert made == (SOUNDS / f"{name}.mp3").read_bytes(), f"{name}.mp3 differs from what the script makes"
