"""``yokai_septet.plots``: importable without matplotlib (a clear error when a plot is
drawn), and, with matplotlib (marker ``plots``), real PNG files."""

from __future__ import annotations

import subprocess
import sys

import pytest

import yokai_septet as ys


def test_plots_import_without_matplotlib_and_say_what_is_missing():
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "import yokai_septet.plots as p\n"
        "try:\n"
        "    p.elo_bars('x.png', {'a': 1.0})\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "needs matplotlib" in out.stdout


def test_elo_ratings_read_an_arena_report():
    from yokai_septet.plots import elo_ratings

    report = ys.arena(["heuristic", "random"], "4p", games=8, seed=1)
    elo = elo_ratings(report)
    assert set(elo) == {"heuristic", "random"}
    assert elo == {e["bot"]: e["elo"] for e in report["entries"]}
    with pytest.raises(TypeError):
        elo_ratings([1, 2])


PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.plots
def test_elo_bars_and_learning_curve_write_pngs(tmp_path):
    from yokai_septet.plots import elo_bars, learning_curve

    report = ys.arena(["heuristic", "random"], "4p", games=16, seed=2)
    p = elo_bars(tmp_path / "elo.png", report, title="arena")
    assert open(p, "rb").read(8) == PNG
    p = learning_curve(tmp_path / "curve.png", [0, 1, 2], {"vs random": [0.4, 0.6, 0.7]},
                       hlines={"parity": 0.5}, ylim=(0, 1))
    assert open(p, "rb").read(8) == PNG
    with pytest.raises(ValueError, match="points"):
        learning_curve(tmp_path / "bad.png", [0, 1], {"a": [1.0]})
