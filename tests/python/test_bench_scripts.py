"""benches/encode_ratio.py: the ratios it prints from criterion's JSON; benches/python_speed.py: its
rows and tables (medians, step-only and whole loop, the policy rows) on a tiny run."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

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


# ---------------------------------------------------------------- python_speed.py

SPEED = SCRIPT.parent / "python_speed.py"


def speed(*args):
    return subprocess.run([sys.executable, str(SPEED), *args], capture_output=True, text=True,
                          timeout=600)


def test_python_speed_prints_medians_step_only_and_whole_loop_with_a_policy_row():
    out = speed("--vector-only", "--seconds", "0.1", "--windows", "2", "--envs", "64",
                "--threads", "1,2")
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| 64 |")]
    assert [r.split(" | ")[1] for r in rows] == [
        "default, numpy actions", "default, matmul policy (H=64) + numpy actions",
        "default, bot_actions()", "copy=False + step_all, numpy actions"]
    for r in rows:
        # Each thread count's cell is "step-only / whole loop M", then two speed-ups.
        cells = r.strip("| ").split(" | ")
        assert all(" / " in c and c.endswith(" M") for c in cells[2:4]), r
        assert cells[4].endswith("x") and cells[5].endswith("x"), r
    assert "median of 2 windows" in out.stdout and "load average" in out.stdout


def test_python_speed_scaling_and_async_tables():
    out = speed("--scaling", "--seconds", "0.1", "--windows", "2", "--envs", "64",
                "--rounds", "1")
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| 64 |")]
    assert [r.split(" | ")[1] for r in rows] == ["numpy draw", "matmul H=64"]
    out = speed("--async", "--seconds", "0.1", "--windows", "2", "--envs", "64",
                "--batches", "2", "--rounds", "1")
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| 64 |")]
    paths = [r.split(" | ")[3] for r in rows]
    assert paths == ["sync `step`", "async, batch_size = N/2"] * 2


def test_python_speed_real_policies_step_and_send_recv_quiet_and_under_load():
    """--real: numpy's tanh(obs @ W) and the torch MLP (or a note that torch is missing),
    with no thread variable set (the OpenBLAS hints are reported, not changed), `step` and
    send/recv rows with both thread counts; --under-load runs the same with a hog."""
    for extra in ([], ["--under-load"]):
        out = speed("--real", "--seconds", "0.05", "--windows", "2", "--envs", "64",
                    "--rounds", "1", *extra)
        assert out.returncode == 0, out.stderr
        assert "OPENBLAS_NUM_THREADS not set" in out.stdout and "OpenBLAS hints" in out.stdout
        rows = [line.split(" | ") for line in out.stdout.splitlines()
                if line.startswith("| 64 |")]
        policies = ["tanh", "torch"] if importlib.util.find_spec("torch") else ["tanh"]
        assert [(r[1], r[2]) for r in rows] == [
            (p, path) for p in policies for path in ("`step`", "`send`/`recv`, N/2")]
        assert all(r[3].endswith(" M") and r[4].endswith(" M") for r in rows)
        if "torch" not in policies:
            assert "torch rows skipped" in out.stdout
        assert ("under load" in out.stdout) == bool(extra)


def test_python_speed_sb3_rows_or_the_missing_extra():
    out = speed("--sb3", "--seconds", "0.01", "--envs", "4", "--rounds", "1")
    assert out.returncode == 0, out.stderr
    if importlib.util.find_spec("sb3_contrib") is None:
        assert "SB3 rows skipped" in out.stdout
    else:
        rows = [line for line in out.stdout.splitlines() if line.startswith("| 4 |")]
        assert len(rows) == 2 and rows[-1].split(" | ")[1] == "1", rows


# ---------------------------------------------------------------- make_vec_speed.py


def test_make_vec_speed_prints_both_envs_and_the_ratio():
    out = subprocess.run(
        [sys.executable, str(SCRIPT.parent / "make_vec_speed.py"), "--envs", "16",
         "--seconds", "0.05", "--rounds", "1"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "load average" in out.stdout
    for name in ("VectorEnv(N)", "make_vec(vector_entry_point)"):
        line = next(x for x in out.stdout.splitlines() if x.startswith(name))
        assert "k env-steps/s" in line and line.endswith("x)"), line


# ---------------------------------------------------------------- compare_peers.py

PEERS = SCRIPT.parent / "compare_peers.py"


def test_the_normal_build_has_the_bench_functions():
    """The README's `compare_peers.py --here` needs `_core.bench_*` in the build `pip
    install .` makes (issue 60: they were behind a feature the README's install lacked)."""
    from yokai_septet import _core

    games, decisions, dt = _core.bench_random_playouts("4p", 0.01, 1)
    assert games >= 1 and decisions > games and dt > 0
    games, decisions, dt = _core.bench_arena("3p", ["random", "random"], 3, 1)
    assert games == 3 and decisions > 0
    decisions, dt = _core.bench_step_parts("4p", 0.01, "uint8", 8)
    assert decisions >= 8


def test_the_bench_functions_raise_the_package_errors():
    """A bad argument is an ``InvalidValueError`` (so a ``ValueError`` and a
    ``yokai_septet.Error``), as everywhere else in the package."""
    import yokai_septet as ys
    from yokai_septet import _core

    with pytest.raises(ys.InvalidValueError, match='unknown variant "5p"'):
        _core.bench_random_playouts("5p", 0.01, 1)
    with pytest.raises(ys.InvalidValueError, match='unknown dtype "int8"'):
        _core.bench_step_parts("4p", 0.01, "int8", 8)
    with pytest.raises(ys.InvalidValueError, match="no-such-bot"):
        _core.bench_arena("4p", ["no-such-bot", "random"], 1, 1)


def test_compare_peers_here_measures_the_rust_and_arena_rows():
    """Its Rust-core and arena functions, as `--here` calls them in this environment."""
    code = (f"import sys; sys.path.insert(0, {str(PEERS.parent)!r}); import compare_peers as c; "
            "print(c.ys_core(0.01) > 0, c.ys_arena(0.01, 1) > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


def test_the_suite_builds_the_package_apart_from_the_readme_arena():
    """The package builds with a cargo profile of its own (`wheel`, in target/wheel), so the
    README's `cargo run --release` (target/release) does not recompile after the suite or
    `pip install .` (issue 60); the README says so."""
    root = SCRIPT.parents[1]
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    maturin = pyproject[pyproject.index("[tool.maturin]"):].split("\n[", 1)[0]
    assert 'profile = "wheel"' in maturin
    cargo = (root / "Cargo.toml").read_text(encoding="utf-8")
    wheel = cargo[cargo.index("[profile.wheel]"):].split("\n[", 1)[0]
    assert 'inherits = "release"' in wheel
    script = (root / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "CARGO_TARGET_DIR" not in script
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "`target/wheel`" in readme and "cargo run --release -- arena" in readme
