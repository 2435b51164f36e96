"""benches/encode_ratio.py: the ratios it prints from criterion's JSON."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benches" / "encode_ratio.py"


def write(root, group, bench, mean_ns, elements=None):
    d = root / group / bench / "new"
    d.mkdir(parents=True)
    (d / "estimates.json").write_text(json.dumps({"mean": {"point_estimate": mean_ns}}))
    meta = {"throughput": {"Elements": elements} if elements else None}
    (d / "benchmark.json").write_text(json.dumps(meta))


def run(root):
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True
    )


def test_ratios_are_per_step_and_from_one_run(tmp_path):
    # Playouts report per iteration; the script divides by their step counts.
    write(tmp_path, "4p", "round_step", 500.0, 50)  # 10 ns a step
    write(tmp_path, "4p", "round_step_with_obs_u8", 2000.0, 50)  # +30 ns a step
    write(tmp_path, "4p", "game_step", 1200.0, 100)  # 12 ns a step
    write(tmp_path, "4p", "game_step_with_obs_u8", 3600.0, 100)  # +24 ns a step
    write(tmp_path, "4p", "encode_u8", 25.0)
    write(tmp_path, "4p", "store_floor_u8", 8.0)
    out = run(tmp_path)
    assert out.returncode == 0, out.stderr
    rows = [l for l in out.stdout.splitlines() if l.startswith("| 4p |")]
    assert rows == ["| 4p | u8 | 25.0 | 8.0 | 10.00 | 2.50 | 3.00 | 12.00 | 2.08 | 2.00 |"]


def test_no_results_is_an_error(tmp_path):
    out = run(tmp_path)
    assert out.returncode != 0
    assert "no complete results" in out.stderr
