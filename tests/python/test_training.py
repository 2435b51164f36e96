"""Short trainings on the Rust-stepped batch: sb3-contrib's MaskablePPO through
yokai_septet.sb3.SB3VecEnv, and the CleanRL-style loop of examples/cleanrl_ppo.py on
VectorEnv itself, and the baseline pipeline of training/train_baseline.py. They need torch (the ``train`` extra), so they are marked ``training``
and left out of the default run:

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_training.py
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.training

import yokai_septet as ys  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TRAIN_BASELINE = ROOT / "training" / "train_baseline.py"


def _load_script(path: Path):
    """A repository script (not a package module) imported by its path."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_train_baseline(config: Path, out: Path, **kwargs):
    """``python training/train_baseline.py CONFIG --out OUT``, as a user runs it (from the
    repository root, where the configs' ``init`` paths start)."""
    return subprocess.run([sys.executable, str(TRAIN_BASELINE), str(config), "--out", str(out)],
                          **{"cwd": ROOT, **kwargs})


@pytest.mark.parametrize("variant", ["4p", "3p", "seal", "seal-short"])
def test_sb3_check_env_passes_on_the_default_env(variant):
    """SB3's checker, like gymnasium's, steps unmasked random actions: the env as users
    make it, with no extra argument, passes (illegal_action="lose", the default)."""
    import gymnasium
    from stable_baselines3.common.env_checker import check_env

    check_env(gymnasium.make("YokaiSeptet-v0", variant=variant))


def test_maskable_ppo_trains_on_the_vector_env_with_its_masks():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from yokai_septet.sb3 import SB3VecEnv

    # "raise": a masked policy never plays an illegal action, and this proves it.
    env = SB3VecEnv(8, variant="4p", seed=1, episode="round", opponents="random",
                    obs_dtype="uint8", num_threads=2, illegal_action="raise")
    assert is_masking_supported(env)
    calls = []
    original = env.env_method

    def counting_env_method(name, *args, **kwargs):
        calls.append(name)
        return original(name, *args, **kwargs)

    env.env_method = counting_env_method
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=2, seed=0,
                        device="cpu")
    model.learn(total_timesteps=1024)  # an illegal action would raise IllegalActionError
    assert model.num_timesteps >= 1024
    assert calls.count("action_masks") >= 1024 // 8  # masks asked before every step
    obs = env.reset()
    for _ in range(50):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(8), actions].all()
        obs, rewards, dones, infos = env.step(actions)
        assert rewards.shape == (8,) and len(infos) == 8


def test_sb3_vec_env_refuses_self_play():
    from yokai_septet.sb3 import SB3VecEnv

    with pytest.raises(ValueError, match="learner mode"):
        SB3VecEnv(2, self_play=True)


def test_sb3_vec_env_refuses_what_sb3_cannot_step():
    from yokai_septet.sb3 import SB3VecEnv

    with pytest.raises(ValueError, match="autoreset_mode=SAME_STEP, got NEXT_STEP"):
        SB3VecEnv(2, autoreset_mode="next_step")
    with pytest.raises(ValueError, match="copy=True"):
        SB3VecEnv(env=ys.VectorEnv(2, copy=False, autoreset_mode="same_step"))


def test_sb3_vec_env_warns_once_where_torch_threads_oversubscribe_the_cores(monkeypatch):
    """torch's threads + the env's threads > cores: one RuntimeWarning naming the fix;
    torch's own thread count is left as it was. torch on one thread: no warning."""
    import warnings

    import torch
    from yokai_septet import sb3

    before = torch.get_num_threads()
    monkeypatch.setattr(sb3, "_warned_oversubscribed", False)
    monkeypatch.setattr(sb3, "_cores", lambda: 2)
    monkeypatch.setattr(torch, "get_num_threads", lambda: 2)
    with pytest.warns(RuntimeWarning, match=r"torch runs on 2 threads .* on 2 cores.*"
                                            r"torch\.set_num_threads\(1\)"):
        sb3.SB3VecEnv(2, num_threads=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3.SB3VecEnv(2, num_threads=2)  # once per process
        monkeypatch.setattr(sb3, "_warned_oversubscribed", False)
        monkeypatch.setattr(torch, "get_num_threads", lambda: 1)
        sb3.SB3VecEnv(2, num_threads=2)  # torch on one thread: nothing to say
        monkeypatch.setattr(torch, "get_num_threads", lambda: 2)
        monkeypatch.setattr(sb3, "_cores", lambda: 16)
        sb3.SB3VecEnv(2, num_threads=2)  # enough cores
    monkeypatch.undo()
    assert torch.get_num_threads() == before


# 4-player games cut after two rounds: some end by the rules (terminated), most are cut.
CUT_GAMES = dict(variant="4p", seed=5, episode="game", max_rounds=2, opponents="random",
                 obs_dtype="uint8", num_threads=1)


def test_sb3_vec_env_hands_sb3_the_last_observation_of_every_ended_episode():
    """On a step that ends env i's episode, infos[i] holds its last observation
    (``terminal_observation``) and whether the round cap cut it (``TimeLimit.truncated``),
    as SB3's DummyVecEnv writes them; other envs' infos are empty. The reference: the same
    games on a VectorEnv in NEXT_STEP mode, whose ending step returns that observation
    itself (its next step, whose action it ignores, starts the next game)."""
    from yokai_septet.sb3 import SB3VecEnv

    n = 8
    env = SB3VecEnv(n, **CUT_GAMES)
    env.reset()
    rng = np.random.default_rng(0)
    played: list[list[int]] = [[] for _ in range(n)]
    got: list[list] = [[] for _ in range(n)]
    for _ in range(150):
        masks = env.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, _, dones, infos = env.step(actions)
        for i in range(n):
            played[i].append(int(actions[i]))
            if dones[i]:
                assert set(infos[i]) == {"terminal_observation", "TimeLimit.truncated"}
                last = infos[i]["terminal_observation"]
                assert last.shape == env.observation_space.shape
                assert last.dtype == env.observation_space.dtype
                got[i].append((last.copy(), infos[i]["TimeLimit.truncated"]))
            else:
                assert infos[i] == {}

    ref = ys.VectorEnv(n, autoreset_mode="next_step", **CUT_GAMES)
    _, info = ref.reset()
    at = [0] * n
    held = np.zeros(n, bool)
    expected: list[list] = [[] for _ in range(n)]
    while any(at[i] < len(played[i]) for i in range(n)):
        replayed = np.array([not held[i] and at[i] < len(played[i]) for i in range(n)])
        actions = info["action_mask"].argmax(axis=1)  # ignored where held; unused envs else
        for i in np.flatnonzero(replayed):
            actions[i] = played[i][at[i]]
            at[i] += 1
        obs, _, term, trunc, info = ref.step(actions)
        for i in np.flatnonzero(replayed & (term | trunc)):
            expected[i].append((obs[i].copy(), bool(trunc[i])))
        held = term | trunc
    for i in range(n):
        assert len(got[i]) == len(expected[i]) > 0
        for (last, cut), (ref_last, ref_cut) in zip(got[i], expected[i]):
            assert np.array_equal(last, ref_last) and cut == ref_cut
    cuts = [cut for g in got for _, cut in g]
    assert True in cuts and False in cuts  # both kinds of ending were checked


def test_maskable_ppo_bootstraps_the_cut_episodes_and_vec_monitor_counts_them():
    """SB3's rollout adds gamma * V(terminal_observation) to the reward of each step that
    the round cap cut (``TimeLimit.truncated``): one value prediction per cut episode, on
    that episode's last observation, besides one for the whole batch at the rollout's
    end. VecMonitor's episode statistics count every ended episode."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor

    from yokai_septet.sb3 import SB3VecEnv

    class CutEpisodes(VecEnvWrapper):
        """Records the terminal observation of every cut episode, in order."""

        def __init__(self, venv):
            super().__init__(venv)
            self.cut: list = []

        def reset(self):
            return self.venv.reset()

        def step_wait(self):
            obs, rewards, dones, infos = self.venv.step_wait()
            self.cut += [info["terminal_observation"] for info in infos
                         if info.get("TimeLimit.truncated")]
            return obs, rewards, dones, infos

    n = 8
    cut = CutEpisodes(SB3VecEnv(n, **CUT_GAMES))
    model = MaskablePPO("MlpPolicy", VecMonitor(cut), n_steps=32, batch_size=64, n_epochs=1,
                        seed=0, device="cpu")
    valued = []
    predict_values = model.policy.predict_values

    def recording_predict_values(obs):
        valued.append(obs.detach().cpu().numpy().copy())
        return predict_values(obs)

    model.policy.predict_values = recording_predict_values
    model.learn(total_timesteps=2 * 32 * n)
    singles = [v[0] for v in valued if v.shape[0] == 1]
    assert len(valued) - len(singles) == 2  # one batch per rollout
    assert len(singles) == len(cut.cut) > 0
    for v, last in zip(singles, cut.cut):
        assert np.array_equal(v, last.astype(np.float32))
    assert len(model.ep_info_buffer) > len(cut.cut)  # cut and terminated episodes


def test_cleanrl_style_ppo_example_trains_on_vector_env():
    mod = _load_script(ROOT / "examples" / "cleanrl_ppo.py")
    out = mod.train(total_steps=4096, num_envs=16, num_steps=32, threads=2)
    assert out["updates"] == 8
    assert out["episodes"] > 16 and out["truncated"] == 0  # single rounds are never cut
    assert np.isfinite(out["mean_return_first"]) and np.isfinite(out["mean_return_last"])
    assert isinstance(ys.VectorEnv(2), __import__("gymnasium").vector.VectorEnv)


def test_cleanrl_style_ppo_example_bootstraps_the_games_the_round_cap_cuts():
    """examples/cleanrl_ppo.py adds gamma * V(last observation) to the reward of a step
    whose game the round cap cut, reading that observation from infos["final_obs"]; a
    game the rules ended, and a step that ended nothing, get nothing. Training on cut
    games runs."""
    import torch

    mod = _load_script(ROOT / "examples" / "cleanrl_ppo.py")
    envs = ys.VectorEnv(8, "4p", seed=2, episode="game", max_rounds=2, opponents="random",
                        obs_dtype="uint8", num_threads=1, autoreset_mode="same_step")
    agent = mod.Agent(envs.single_observation_space.shape[0], envs.single_action_space.n)
    _, info = envs.reset(seed=2)
    rng = np.random.default_rng(0)
    seen = {"cut": 0, "ended": 0}
    for _ in range(200):
        mask = info["action_mask"]
        _, _, term, trunc, info = envs.step((rng.random(mask.shape) * mask).argmax(axis=1))
        bonus = mod.truncation_bonus(agent, trunc, info, 0.9)
        for i in range(8):
            if trunc[i]:
                last = torch.as_tensor(info["final_obs"][i], dtype=torch.float32)[None]
                with torch.no_grad():
                    value = agent.value(last).item()  # alone, not in a batch: float noise
                assert bonus[i].item() == pytest.approx(0.9 * value, rel=1e-4, abs=1e-6)
                seen["cut"] += 1
            else:
                assert bonus[i].item() == 0.0
                seen["ended"] += int(term[i])
    assert seen["cut"] > 0 and seen["ended"] > 0
    out = mod.train(total_steps=1024, num_envs=8, num_steps=32, threads=1, episode="game",
                    max_rounds=1)
    assert out["updates"] == 4 and 0 < out["truncated"] <= out["episodes"]
    assert np.isfinite(out["mean_return_last"])


# The [finetune] settings of a tiny run: 3 PPO updates on 8 tables, evaluated after the
# second and the third.
TINY_FINETUNE = {"updates": 3, "envs": 8, "steps": 16, "critic_warmup": 1, "eval_every": 2,
                 "minibatch": 64}


@pytest.mark.parametrize("variant", ["4p", "seal-short", "seal"])
def test_the_baseline_pipeline_trains_a_model_the_nn_bot_plays(tmp_path, variant):
    """training/train_baseline.py end to end on a tiny copy of a shipped config: every
    stage runs, the model it writes plays as ``nn:PATH``, the learning curve has a point
    per stage, and the search labels come from games played by the config's ``players``
    (the teacher in 4p, the heuristic in seal-short). A config with a ``[finetune]``
    section (every shipped one) ends with PPO, whose evaluated checkpoints are kept."""
    import tomllib

    config = (ROOT / "training" / "configs" / f"{variant}.toml").read_text()
    tiny = tmp_path / "tiny.toml"
    sizes = {"[pretrain]": 6, "[bootstrap]": 4, "[dagger]": 4, "[eval]": 20}
    section, lines = None, []
    for line in config.splitlines():
        if line.startswith("["):
            section = line.strip()
        if line.startswith(("games = ", "pass_games = ")) and section in sizes:
            line = line.split(" = ")[0] + f" = {sizes[section]}"
        key = line.split(" = ")[0]
        if key == "pass_teacher":
            line = 'pass_teacher = "pimc:1/14"'
        elif section == "[finetune]" and key in TINY_FINETUNE:
            line = f"{key} = {TINY_FINETUNE[key]}"
        elif section != "[finetune]":
            line = {"iterations = 0": "iterations = 1", "epochs = 4": "epochs = 1",
                    "epochs = 3": "epochs = 1"}.get(line, line)
        lines.append(line)
    tiny.write_text("\n".join(lines))
    out = tmp_path / "run"
    _run_train_baseline(tiny, out, check=True, timeout=600)
    curve = json.loads((out / "curve.json").read_text())["curve"]
    cfg = tomllib.loads(config)
    ppo = ["ppo 2", "ppo 3"] if "finetune" in cfg else []
    assert [p["stage"] for p in curve] == ["untrained", "pretrain", "bootstrap", "dagger 1"] + ppo
    assert curve[3]["labels"] > curve[1]["labels"] > 0
    assert curve[3]["search_labels"] > curve[2]["search_labels"] > 0
    from yokai_septet import models

    m = models.load(out / "student.safetensors")
    assert m.variant == variant and m.metadata["stage"] == (ppo or ["dagger 1"])[-1]
    if ppo:
        assert 0 < curve[-2]["train"]["decisions"] < curve[-1]["train"]["decisions"]
        assert m.metadata["ppo_decisions"] == str(curve[-1]["train"]["decisions"])
        kept = models.load(out / "student-ppo-2.safetensors")
        assert kept.metadata["stage"] == "ppo 2"
        assert not all(np.array_equal(a, b) for (a, _), (b, _) in zip(kept.layers, m.layers))
    assert m.inputs == "observation+heuristic"  # as the shipped configs say
    players = cfg["bootstrap"].get("players", cfg["teacher"])
    key = json.loads(str(np.load(out / "bootstrap.npz")["key"]))
    assert key["bots"] == [players, players] and key["teacher"] == cfg["teacher"]
    assert m.metadata["search_players"] == players
    s = ys.arena([f"nn:{out / 'student.safetensors'}", "random"], variant=variant, games=10,
                 threads=1)
    assert s["games"] == 10


def test_the_plot_names_every_imitation_stage_and_the_last_ppo_checkpoint():
    tb = _load_script(TRAIN_BASELINE)
    curve = ([{"stage": s, "train": {}} for s in ("untrained", "pretrain", "bootstrap")]
             + [{"stage": f"ppo {u}", "train": {"decisions": u}} for u in range(50, 1050, 50)])
    ticks = tb.plot_ticks(curve)
    assert ticks[:3] == [0, 1, 2]  # a long PPO run does not crowd out where it started
    assert ticks[-1] == len(curve) - 1 and len(ticks) <= 12
    assert ticks == sorted(set(ticks))
    assert len(ticks) == 3 + 7  # 20 checkpoints, every third counted back from the last
    assert tb.plot_ticks(curve[:3]) == [0, 1, 2]
    continued = [{"stage": "init", "train": {}}] + curve[3:]  # a run with `init`
    ticks = tb.plot_ticks(continued)
    assert ticks[0] == 0 and ticks[-1] == 20
    dagger = [{"stage": f"dagger {k}", "train": {}} for k in range(12)] + curve[3:]
    assert tb.plot_ticks(dagger)[-1] == len(dagger) - 1  # the final model, even then


def test_the_cosine_schedule_decays_the_learning_rate_from_one_to_zero():
    tb = _load_script(TRAIN_BASELINE)
    cosine = tb.lr_factor("cosine", 100)
    assert cosine(0) == 1.0 and abs(cosine(50) - 0.5) < 1e-12 and cosine(100) == 0.0
    assert all(cosine(t) >= cosine(t + 1) for t in range(100))
    assert tb.lr_factor("constant", 100)(100) == 1.0
    with pytest.raises(ValueError, match="schedule 'linear'"):
        tb.lr_factor("linear", 100)


@pytest.mark.parametrize("schedule", ["constant", "cosine"])
def test_training_steps_the_schedule_once_per_batch_to_its_end(monkeypatch, schedule):
    """train() on a few heuristic games: the optimizer takes one step per batch, and the
    learning rate ends at zero with the cosine, where it started with a constant rate."""
    from yokai_septet import models

    tb = _load_script(TRAIN_BASELINE)
    made = []

    class Recorded(tb.torch.optim.AdamW):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.steps = 0
            made.append(self)

        def step(self, *args, **kwargs):
            self.steps += 1
            return super().step(*args, **kwargs)

    monkeypatch.setattr(tb.torch.optim, "AdamW", Recorded)
    d = models.imitation_data(["heuristic", "heuristic"], "heuristic", labelled=[0, 1],
                              variant="4p", games=2, seed=0, max_rounds=1, threads=1)
    data = tb.Data()
    data.add(d)
    actions = d["masks"].shape[1]
    inputs = "observation+heuristic"
    net = tb.make_net(d["observations"].shape[1] + actions, [8], actions)
    cfg = {"epochs": 2, "batch_size": 16, "learning_rate": 0.01, "weight_decay": 0.0,
           "schedule": schedule}
    tb.train(net, data, cfg, np.random.default_rng(0), inputs)
    fit = len(data) - len(data) // 20
    (opt,) = made
    assert opt.steps == 2 * -(-fit // 16)
    assert opt.param_groups[0]["lr"] == (0.0 if schedule == "cosine" else 0.01)


def test_a_config_with_an_unknown_schedule_is_refused_before_any_work(tmp_path):
    config = (ROOT / "training" / "configs" / "4p.toml").read_text()
    bad = tmp_path / "bad.toml"
    lines = [line for line in config.splitlines() if not line.startswith("schedule = ")]
    at = lines.index("[train]") + 1
    bad.write_text("\n".join(lines[:at] + ['schedule = "linear"'] + lines[at:]))
    out = tmp_path / "run"
    r = _run_train_baseline(bad, out, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert f"{bad}: [train] schedule = 'linear', expected one of" in r.stderr
    assert not out.exists()


def test_a_config_with_an_unknown_target_is_refused_before_any_work(tmp_path):
    config = (ROOT / "training" / "configs" / "tiny-exit.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(config.replace('target = "visits"', 'target = "policy"'))
    out = tmp_path / "run"
    r = _run_train_baseline(bad, out, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"{bad}: [train] target = 'policy', expected one of ('values', 'visits')" in r.stderr
    assert not out.exists()


def test_visit_targets_are_the_searchs_visit_shares_where_it_reported_them():
    """``[train] target = "visits"``: a row with a tree search's visits imitates their
    shares (whatever its values, temperature or margin say); a row without falls back to
    the values' softmax, or the teacher's card where it did not search."""
    import torch

    tb = _load_script(TRAIN_BASELINE)
    nan = float("nan")
    masks = torch.tensor([[True, True, True], [True, True, False], [True, False, True]])
    labels = torch.tensor([1, 0, 2])
    values = torch.tensor([[0.1, 0.5, 0.2], [0.3, 0.0, nan], [nan, nan, nan]])
    visits = torch.tensor([[0.25, 0.7, 0.05], [nan, nan, nan], [nan, nan, nan]])
    heur = torch.tensor([0, 0, 0])
    for margin in (0.0, 10.0):
        t = tb.targets(masks, labels, values, heur, 0.1, margin, visits)
        torch.testing.assert_close(t[0], torch.tensor([0.25, 0.7, 0.05]))
        without = tb.targets(masks, labels, values, heur, 0.1, margin)
        torch.testing.assert_close(t[1:], without[1:])
        assert not torch.equal(t[0], without[0])
    torch.testing.assert_close(without[2], torch.tensor([0.0, 0.0, 1.0]))  # its card


def test_a_label_file_cached_before_visits_were_recorded_is_reused_without_them(tmp_path):
    """A run folder's label chunks from before ``visits`` existed (hours of ``pimc``) are
    read as they are, with no visits, not generated again."""
    import json

    tb = _load_script(TRAIN_BASELINE)
    kwargs = dict(bots=["pimc"] * 2, teacher="pimc", labelled=[0, 1], variant="4p", games=9)
    old = {"observations": np.zeros((2, 5), np.uint8), "masks": np.ones((2, 3), bool),
           "labels": np.array([0, 2]), "values": np.array([[0.1, 0.2, 0.3]] * 2, np.float32),
           "heuristic": np.array([1, 1])}
    np.savez(tmp_path / "chunk.npz", key=json.dumps(kwargs, sort_keys=True), **old)
    got = tb.gather(tmp_path, "chunk", threads=1, **kwargs)  # 9 pimc games if not reused
    assert set(got) == set(tb.Data.KEYS)
    assert np.isnan(got["visits"]).all() and got["visits"].shape == (2, 3)
    np.testing.assert_array_equal(got["values"], old["values"])


def test_a_config_that_is_not_toml_is_refused_with_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "4p"\nvariant = "3p"\n')
    r = _run_train_baseline(bad, tmp_path / "run", capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"{bad}: " in r.stderr and "line 2" in r.stderr


def torch_equal(a, b) -> bool:
    return bool((a == b).all())


def _finetune(variant: str, net, tb=None, **cfg):
    """train_baseline.finetune() on ``net`` with a tiny configuration (seed 3); returns
    the stages it evaluated. ``tb``: the loaded script, when a test has patched it."""
    tb = tb or _load_script(TRAIN_BASELINE)
    full = {"opponent": "heuristic", "envs": 8, "steps": 16, "max_rounds": 30,
            "temperature": 0.2, "learning_rate": 1e-3, "critic_learning_rate": 1e-3,
            "critic_warmup": 0, "clip": 0.1, "epochs": 2, "minibatch": 64,
            "gae_lambda": 0.95, "updates": 2, "eval_every": 1, **cfg}
    assert set(full) - {"schedule"} == set(tb.FINETUNE_KEYS)
    seen = []
    tb.torch.manual_seed(3)
    tb.finetune(net, variant, "observation+heuristic", full, 3,
                lambda stage, stats: seen.append((stage, stats)))
    return seen


@pytest.mark.parametrize("variant", ["4p", "3p"])
def test_ppo_finetuning_is_reproducible_and_leaves_the_policy_alone_while_the_critic_warms_up(
        variant):
    """Same seed, same start: the same weights after PPO. With ``critic_warmup`` covering
    every update, the policy is exactly the model it started from; without it, it moves.
    3p has one learner seat per table, the 4-player variants a team of two."""
    import copy

    from yokai_septet import models

    start = models.load(variant).to_torch()
    weights = [p.detach().clone() for p in start.parameters()]

    def params(net):
        return [p.detach() for p in net.parameters()]

    warm = copy.deepcopy(start)
    _finetune(variant, warm, critic_warmup=2)
    assert all(torch_equal(a, b) for a, b in zip(params(warm), weights))
    first, second = copy.deepcopy(start), copy.deepcopy(start)
    seen = _finetune(variant, first)
    _finetune(variant, second)
    assert all(torch_equal(a, b) for a, b in zip(params(first), params(second)))
    assert not all(torch_equal(a, b) for a, b in zip(params(first), weights))
    assert [stage for stage, _ in seen] == ["ppo 1", "ppo 2"]
    assert 0 < seen[0][1]["decisions"] < seen[1][1]["decisions"]


@pytest.mark.parametrize("schedule, rates", [
    ("constant", [1.0]),
    ("cosine", [1.0, 0.75, 0.25]),  # 0.5 (1 + cos(pi k / 3)) for policy updates k = 0, 1, 2
])
def test_ppo_steps_the_policy_at_the_scheduled_rate_after_the_critic_warms_up(
        monkeypatch, schedule, rates):
    """The policy's optimiser steps only after ``critic_warmup`` updates, at
    ``learning_rate`` times the schedule's factor over the updates that remain; the
    critic's rate stays constant."""
    from yokai_septet import models

    tb = _load_script(TRAIN_BASELINE)
    net = models.load("4p").to_torch()
    seen: list = []

    class Recording(tb.torch.optim.Adam):
        def step(self, *args, **kwargs):
            mine = self.param_groups[0]["params"][0] is next(net.parameters())
            seen.append((mine, self.param_groups[0]["lr"]))
            return super().step(*args, **kwargs)

    monkeypatch.setattr(tb.torch.optim, "Adam", Recording)
    _finetune("4p", net, tb=tb, updates=4, critic_warmup=1, learning_rate=1e-3,
              critic_learning_rate=2e-3, schedule=schedule)
    policy = [lr for mine, lr in seen if mine]
    critic = [lr for mine, lr in seen if not mine]
    # The policy's steps, one run of equal rates per update (minibatches vary in number).
    runs = [lr for i, lr in enumerate(policy) if i == 0 or lr != policy[i - 1]]
    assert runs == pytest.approx([1e-3 * r for r in rates])
    assert set(critic) == {2e-3}
    first = next(i for i, (mine, _) in enumerate(seen) if mine)
    assert first > 0 and len(critic) > len(policy)  # the warm-up update stepped the critic alone


def _replacing(prefix: str, new):
    """A line edit for _assert_refused: a line starting with ``prefix`` becomes ``new``
    (None: dropped)."""
    return lambda line: new if line.startswith(prefix) else line


@pytest.mark.parametrize("config, edit, message", [
    ("seal.toml", _replacing("clip = ", None), "[finetune] lacks clip"),
    ("seal.toml", _replacing('opponent = "heuristic"', 'opponent = "pimc"'),
     "[finetune] opponent = 'pimc', expected 'heuristic' for a network that reads"),
    ("seal.toml", _replacing("temperature = 0.2", "temperature = 0"),
     "[finetune] temperature = 0, expected > 0"),
    ("seal.toml", _replacing("eval_every = ", "eval_every = 0"),
     "[finetune] eval_every = 0, expected a positive integer"),
    ("seal.toml", _replacing("updates = ", 'updates = "300"'),
     "[finetune] updates = '300', expected a positive integer"),
    ("seal.toml", _replacing("clip = ", 'clip = 0.1\nschedule = "linear"'),
     "[finetune] schedule = 'linear', expected one of"),
    ("seal-short.toml", _replacing("pass_teacher", None),
     "[bootstrap] pass_games is set but pass_teacher is missing"),
    ("seal-short.toml", _replacing("pass_teacher", 'pass_teacher = "pimc:1/"'),
     "[bootstrap] pass_teacher = 'pimc:1/': bad bot name 'pimc:1/': the pass suffix '/' is neither"),
    ("seal-short.toml", _replacing("games = 9000", "games = 0"),
     "[bootstrap] pass_games needs bootstrap games beside it"),
    ("seal-short.toml", _replacing("pass_games", "pass_games = 3000.0"),
     "[bootstrap] pass_games = 3000.0, expected a positive integer"),
    ("seal-short.toml", _replacing("pass_games", 'pass_games = "3000"'),
     "[bootstrap] pass_games = '3000', expected a positive integer"),
])
def test_a_bad_finetune_or_pass_setting_is_refused_before_any_work(tmp_path, config, edit, message):
    _assert_refused(tmp_path, config, edit, message)


def _assert_refused(tmp_path, config: str, edit, message: str) -> None:
    """training/configs/CONFIG with ``edit`` applied to each line (None drops it) is
    refused with ``message``, without a traceback and before the run folder is made."""
    text = (ROOT / "training" / "configs" / config).read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text("\n".join(line for line in map(edit, text.splitlines()) if line is not None))
    out = tmp_path / "run"
    r = _run_train_baseline(bad, out, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"{bad}: {message}" in r.stderr, r.stderr
    assert not out.exists()


def _continued_config(tmp_path, init, **finetune) -> Path:
    """training/configs/seal-short-continued.toml with its ``init`` replaced, tiny PPO
    settings and ``finetune`` on top."""
    config = (ROOT / "training" / "configs" / "seal-short-continued.toml").read_text()
    edits = {**TINY_FINETUNE, **finetune}
    lines = []
    for line in config.splitlines():
        key = line.split(" = ")[0]
        if key == "init":
            line = f"init = {str(init)!r}"
        elif key == "games":
            line = "games = 20"
        elif key in edits:
            line = f"{key} = {edits[key]}"
        lines.append(line)
    path = tmp_path / "continued.toml"
    path.write_text("\n".join(lines))
    return path


def test_a_config_with_init_goes_on_from_that_models_weights(tmp_path):
    """``init = PATH`` starts from the saved model: with the critic warming up through
    every update the policy is still exactly that model, and the metadata names the file
    and its hash. With the policy learning, it moves away from it."""
    import hashlib
    import shutil

    from yokai_septet import models

    start = tmp_path / "start.safetensors"
    shutil.copyfile(ROOT / "crates" / "yokai-septet-models" / "models" / "seal-short.safetensors", start)
    shipped = models.load(start)
    cfg = _continued_config(tmp_path, start, critic_warmup=3)
    out = tmp_path / "frozen"
    _run_train_baseline(cfg, out, check=True, timeout=600)
    curve = json.loads((out / "curve.json").read_text())["curve"]
    assert [p["stage"] for p in curve] == ["init", "ppo 2", "ppo 3"]
    m = models.load(out / "student.safetensors")
    assert all(np.array_equal(a, b) and np.array_equal(c, d)
               for (a, c), (b, d) in zip(m.layers, shipped.layers))
    assert m.metadata["init"] == "start.safetensors"
    assert m.metadata["init_sha256"] == hashlib.sha256(start.read_bytes()).hexdigest()
    assert m.metadata["stage"] == "ppo 3" and int(m.metadata["ppo_decisions"]) > 0
    out = tmp_path / "learning"
    _run_train_baseline(_continued_config(tmp_path, start), out, check=True, timeout=600)
    m = models.load(out / "student.safetensors")
    assert not all(np.array_equal(a, b) for (a, _), (b, _) in zip(m.layers, shipped.layers))


def _pass_picks(npz) -> np.ndarray:
    """Which decisions of a cached imitation dataset are passing picks."""
    phase = next(f for f in ys.Game(variant="seal-short").layout() if f["name"] == "phase")
    return npz["observations"][:, phase["offset"]] == 1


def test_passing_picks_are_learned_from_a_search_that_gives_them_a_budget(tmp_path):
    """``[bootstrap] pass_games`` (training/configs/seal-short.toml): the passing picks of
    those games, labelled by ``pass_teacher`` (a ``pimc:N/P`` that searched every one of
    them), replace the bootstrap teacher's passing picks (``pimc`` passes as the
    heuristic), whose card decisions stay. The metadata names the pass teacher and counts
    its labels."""
    from yokai_septet import models

    config = (ROOT / "training" / "configs" / "seal-short.toml").read_text()
    sizes = {"[pretrain]": 4, "[bootstrap]": 3, "[eval]": 10}
    section, lines = None, []
    for line in config.splitlines():
        if line.startswith("["):
            section = line.strip()
        key = line.split(" = ")[0]
        if key in ("games", "pass_games") and section in sizes:
            line = f"{key} = {sizes[section]}"
        elif key == "pass_teacher":
            line = 'pass_teacher = "pimc:1/14"'
        elif key == "updates":
            line = "updates = 0"
        lines.append(line)
    tiny = tmp_path / "tiny.toml"
    tiny.write_text("\n".join(lines))
    out = tmp_path / "run"
    _run_train_baseline(tiny, out, check=True, timeout=600)

    passes = np.load(out / "passes.npz")
    picks = _pass_picks(passes)
    assert json.loads(str(passes["key"]))["teacher"] == "pimc:1/14"
    assert 0 < picks.sum() < len(picks)
    # The search valued every card of the hand at every passing pick.
    assert np.array_equal(~np.isnan(passes["values"][picks]), passes["masks"][picks])
    boot = np.load(out / "bootstrap.npz")
    assert _pass_picks(boot).any()  # dropped: the teacher's are the heuristic's
    search_labels = int(picks.sum() + (~_pass_picks(boot)).sum())
    m = models.load(out / "student.safetensors")
    assert m.metadata["pass_teacher"] == "pimc:1/14"
    assert m.metadata["pass_labels"] == str(int(picks.sum()))
    assert m.metadata["search_labels"] == str(search_labels)
    curve = json.loads((out / "curve.json").read_text())["curve"]
    assert [p["stage"] for p in curve] == ["untrained", "pretrain", "bootstrap"]
    assert curve[-1]["search_labels"] == search_labels


def test_a_run_that_would_overwrite_its_init_model_is_refused(tmp_path):
    import shutil

    out = tmp_path / "run"
    out.mkdir()
    init = out / "student.safetensors"
    shutil.copyfile(ROOT / "crates" / "yokai-septet-models" / "models" / "seal-short.safetensors", init)
    before = init.read_bytes()
    bad = _continued_config(tmp_path, init)
    r = _run_train_baseline(bad, out, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "is the student.safetensors this run writes" in r.stderr
    assert init.read_bytes() == before and sorted(out.iterdir()) == [init]


@pytest.mark.parametrize("model, message", [
    ("missing.safetensors", "no such file"),
    ("4p.safetensors", "its variant is '4p', the config's 'seal-short'"),
    ("garbage.safetensors", "not a safetensors file"),
    ("narrow.safetensors", "its hidden is [64], the config's [512, 256]"),
])
def test_an_init_model_that_does_not_fit_the_config_is_refused_before_any_work(
        tmp_path, model, message):
    import shutil

    init = tmp_path / model
    if model == "garbage.safetensors":
        init.write_bytes(b"garbage")
    if model == "narrow.safetensors":  # the right variant and inputs, one hidden layer of 64
        from yokai_septet import models

        shipped = models.load("seal-short")
        inputs, actions = shipped.layers[0][0].shape[1], shipped.layers[-1][1].shape[0]
        layers = [(np.zeros((64, inputs)), np.zeros(64)),
                  (np.zeros((actions, 64)), np.zeros(actions))]
        models.Model("seal-short", layers, {}, shipped.inputs).save(init)
    if model == "4p.safetensors":
        shutil.copyfile(ROOT / "crates" / "yokai-septet-models" / "models" / "4p.safetensors", init)
    bad = _continued_config(tmp_path, init)
    out = tmp_path / "run"
    r = _run_train_baseline(bad, out, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"{bad}: init = '{init}': " in r.stderr and message in r.stderr
    assert not out.exists()


def test_ppo_advantages_end_at_the_game_and_hold_back_the_decision_still_in_flight():
    """gae() on a hand-made rollout of two tables. Table 0: decisions a (value 0.5), b
    (0.2), whose game is then won (+1), and c (0.7), the first of the next game, still in
    flight. Table 1: d (0.1) then e (0.4), in flight. With lambda 1 an advantage is the
    return minus the value: a and b return 1; d returns e's value, which bootstraps it;
    c and e are held, with no advantage yet. With lambda 0 a's target is b's value."""
    tb = _load_script(TRAIN_BASELINE)
    #               a    d    b    e    c      (the order they were taken in)
    env_of = np.array([0, 1, 0, 1, 0])
    bounds = [0, 2, 4, 5]  # table steps: {a, d}, {b, e}, {c}
    rew = np.array([0, 0, 1, 0, 0], np.float32)
    done = np.array([False, False, True, False, False])
    value = np.array([0.5, 0.1, 0.2, 0.4, 0.7], np.float32)
    last = np.array([4, 3])
    adv, held = tb.gae(rew, done, value, env_of, bounds, last, 1.0)
    assert held.tolist() == [False, False, False, True, True]
    assert np.allclose(adv, [0.5, 0.3, 0.8, 0.0, 0.0])
    adv0, _ = tb.gae(rew, done, value, env_of, bounds, last, 0.0)
    assert np.allclose(adv0[0], 0.2 - 0.5)


class _ScriptedTables:
    """A stand-in for ``ys.VectorEnv(self_play=True)`` whose every step is known. Table
    ``i``'s seat to move at step ``t`` is ``(t + i // 2) % seats``; its ``g``-th game lasts
    ``6 + i`` steps and is won by side ``(i + g) % sides`` (+1 to that side's seats, -1 to
    the others'), except its third, stopped by the round cap (truncated, 0 to everyone).
    The bots' card is 0, which the mask forbids, so a card other than 0 was the learner's.
    It records, per step, the tables the learner should have moved at and those it did."""

    def __init__(self, n: int, variant: str, **_kwargs):
        self.n, self.seats = n, (3 if variant == "3p" else 4)
        self.sides = 3 if variant == "3p" else 2
        self.single_action_space_n = 8
        self.clock, self.t, self.games = (np.zeros(n, int) for _ in range(3))
        self.expected, self.moved = [], []

    def _now(self):
        tables = np.arange(self.n)
        mask = np.zeros((self.n, 8), bool)
        mask[:, 1:4] = True
        info = {"to_play": (self.clock + tables // 2) % self.seats, "action_mask": mask,
                "state": np.stack([self.clock, self.t, tables], 1).astype(np.float32)}
        return np.zeros((self.n, 5), np.uint8) + self.t[:, None].astype(np.uint8), info

    def reset(self):
        return self._now()

    def bot_actions(self):
        return np.zeros(self.n, np.int64)

    def step(self, actions):
        tables = np.arange(self.n)
        self.expected.append(np.flatnonzero((self.clock + tables // 2) % self.seats % self.sides
                                            == tables % self.sides))
        self.moved.append(np.flatnonzero(np.asarray(actions) != 0))
        self.clock += 1
        self.t += 1
        ended = self.t == 6 + tables
        capped = ended & (self.games == 2)
        r = np.zeros((self.n, self.seats), np.float32)
        for i in np.flatnonzero(ended & ~capped):
            winner = (i + self.games[i]) % self.sides
            r[i] = np.where(np.arange(self.seats) % self.sides == winner, 1.0, -1.0)
        self.games[ended] += 1
        self.t[ended] = 0
        obs, info = self._now()
        return obs, r, ended & ~capped, capped, info


@pytest.mark.parametrize("variant", ["4p", "3p"])
def test_ppo_learns_at_its_own_seats_and_is_paid_its_own_sides_outcome(monkeypatch, variant):
    """finetune() on scripted tables: table ``i``'s learner is the seats with
    ``seat % sides == i % sides`` (one team, or one seat in 3p), so it must move there and
    nowhere else; each game's outcome for that side (0 for a truncated game) must land,
    once, on the learner's last decision of that game, and nowhere else, also where that
    decision was held over a rollout's end and its game ended in the next rollout."""
    from types import SimpleNamespace

    from yokai_septet import models

    tb = _load_script(TRAIN_BASELINE)
    tables: list = []

    def make(n, variant, **kwargs):
        tables.append(_ScriptedTables(n, variant, **kwargs))
        return tables[-1]

    monkeypatch.setattr(tb, "ys", SimpleNamespace(VectorEnv=make))
    rollouts = []
    real_gae = tb.gae

    def recording_gae(rew, done, value, env_of, bounds, last, lam):
        adv, hold = real_gae(rew, done, value, env_of, bounds, last, lam)
        rollouts.append((rew.copy(), done.copy(), env_of.copy(), hold.copy()))
        return adv, hold

    monkeypatch.setattr(tb, "gae", recording_gae)
    width = models.features(np.zeros((1, 5)), np.zeros(1, int), "observation+heuristic",
                            8).shape[1]
    seen = _finetune(variant, tb.make_net(width, [16], 8), tb=tb, envs=6, steps=16,
                     updates=3, eval_every=3)
    (env,) = tables
    assert len(env.moved) == 48
    for expected, moved in zip(env.expected, env.moved):
        assert moved.tolist() == expected.tolist()
    # Every decision once: each rollout's trained ones, then the last rollout's held ones.
    resolved = [(e[~h], r[~h], d[~h]) for r, d, e, h in rollouts]
    r, d, e, h = rollouts[-1]
    resolved.append((e[h], r[h], d[h]))
    env_of, rew, done = (np.concatenate(col) for col in zip(*resolved))
    assert len(env_of) == sum(len(m) for m in env.moved) == seen[-1][1]["decisions"]
    sides = env.sides
    wins = 0
    for i in range(env.n):
        mine = np.flatnonzero(env_of == i)
        outcomes = [0.0 if g == 2 else 1.0 if (i + g) % sides == i % sides else -1.0
                    for g in range(env.games[i])]
        assert rew[mine][done[mine]].tolist() == outcomes
        assert (rew[mine][~done[mine]] == 0).all()
        wins += outcomes.count(1.0)
    assert seen[-1][1]["sampled_win_rate"] == pytest.approx(wins / env.games.sum())
    # The schedule does exercise a game that ends after its last decision was held over.
    assert any(rollouts[k][1][:rollouts[k - 1][3].sum()].any() for k in range(1, len(rollouts)))


# ---- Expert iteration: training/configs/tiny-exit.toml

TINY_EXIT = ROOT / "training" / "configs" / "tiny-exit.toml"


def _exit_run(out: Path) -> tuple:
    """The stages, models and evaluations of a finished expert-iteration run in ``out``."""
    from yokai_septet import models

    curve = json.loads((out / "curve.json").read_text())["curve"]
    stages = [p["stage"] for p in curve]
    evals = [(p["eval"], p["vs"]) for p in curve]
    weights = {f.name: [w for layer in models.load(f).layers for w in layer]
               for f in sorted(out.glob("student*.safetensors"))}
    return stages, evals, weights, [p["labels"] for p in curve]


def _same_run(a: tuple, b: tuple) -> bool:
    if a[0] != b[0] or a[1] != b[1] or a[3] != b[3] or a[2].keys() != b[2].keys():
        return False
    return all(len(x) == len(y) and all(np.array_equal(p, q) for p, q in zip(x, y))
               for x, y in ((a[2][k], b[2][k]) for k in a[2]))


def test_expert_iteration_killed_and_restarted_gives_the_uninterrupted_run(tmp_path):
    """tiny-exit.toml end to end: each iteration's student plays, the teacher labels, the
    new model is evaluated against the fixed opponents. A run killed after its first
    iteration and started again with the same command goes on from its checkpoint (model,
    optimizer, replay window, curve, random state) and ends with exactly the models and
    evaluations of a run never interrupted."""
    import signal
    import time
    import tomllib

    import torch

    cfg = tomllib.loads(TINY_EXIT.read_text())
    whole = tmp_path / "whole"
    _run_train_baseline(TINY_EXIT, whole, check=True, timeout=600, capture_output=True)
    run = _exit_run(whole)
    n = cfg["expert_iteration"]["iterations"]
    assert run[0] == ["init"] + [f"exit {k}" for k in range(1, n + 1)]
    assert all(set(vs) == set(cfg["eval"]["opponents"]) for _, vs in run[1])
    assert all(b > a for a, b in zip(run[3][1:], run[3][2:]))  # labels accumulate
    assert set(run[2]) == {"student.safetensors"} | {
        f"student-exit-{k}.safetensors" for k in range(n + 1)}
    assert not all(np.array_equal(p, q) for p, q in
                   zip(run[2]["student-exit-0.safetensors"], run[2]["student.safetensors"]))
    from yokai_septet import models

    meta = models.load(whole / "student.safetensors").metadata
    assert meta["stage"] == f"exit {n}" and meta["exit_teacher"] == cfg["expert_iteration"]["teacher"]
    assert int(meta["exit_labels"]) == run[3][-1]
    s = ys.arena([f"nn:{whole / 'student.safetensors'}", "random"], games=4, threads=1)
    assert s["games"] == 4

    # Killed once the first iteration's checkpoint is written (the second one is under way).
    broken = tmp_path / "broken"
    proc = subprocess.Popen([sys.executable, str(TRAIN_BASELINE), str(TINY_EXIT), "--out",
                             str(broken)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    state = broken / "exit-state.pt"
    while not state.exists() and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert torch.load(state, weights_only=False)["iteration"] < n  # it did stop part-way
    r = _run_train_baseline(TINY_EXIT, broken, timeout=600, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "resuming" in r.stdout
    assert _same_run(_exit_run(broken), run)

    # The same command on a finished run changes nothing; another config is refused.
    r = _run_train_baseline(TINY_EXIT, broken, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and _same_run(_exit_run(broken), run)
    other = tmp_path / "other.toml"
    other.write_text(TINY_EXIT.read_text().replace("games = 4", "games = 5"))
    r = _run_train_baseline(other, broken, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"{other}: {broken} holds the checkpoint (exit-state.pt) of a run of another config" \
        in r.stderr
    assert "its expert_iteration was" in r.stderr
    if importlib.util.find_spec("matplotlib"):
        assert (whole / "learning_curve.png").stat().st_size > 0


def test_a_resumed_run_may_go_further_or_use_other_threads_but_nothing_else():
    import tomllib

    tb = _load_script(TRAIN_BASELINE)
    cfg = tomllib.loads(TINY_EXIT.read_text())
    further = {**cfg, "threads": 2,
               "expert_iteration": {**cfg["expert_iteration"], "iterations": 9}}
    assert tb.resume_problem(cfg, further) == ""
    assert tb.resume_problem(cfg, {**cfg, "seed": 2}) == "its seed was 1"
    other = {**cfg, "train": {**cfg["train"], "learning_rate": 0.1}}
    assert tb.resume_problem(cfg, other).startswith("its train was {")


@pytest.mark.parametrize("edit, message", [
    (_replacing("window = ", "window_size = 2"),
     "[expert_iteration] window_size: unknown key, expected one of iterations, teacher,"),
    (_replacing("teacher = ", None),
     "[expert_iteration] lacks teacher"),
    (_replacing("teacher = ", 'teacher = "nosuchbot:{student}"'),
     "[expert_iteration] teacher = 'nosuchbot:{student}': unknown bot"),
    (_replacing("players = ", 'players = "nn:{model}"'),
     "[expert_iteration] players = 'nn:{model}': its only field may be {student}"),
    (_replacing("games = 4", "games = 0"),
     "[expert_iteration] games = 0, expected a positive integer"),
    (_replacing("opponents = ", 'opponents = ["nn:{student}"]'),
     "[eval] opponents = 'nn:{student}': a fixed opponent, expected no {student} in it"),
    (_replacing("opponents = ", 'opponents = "pimc"'),
     "[eval] opponents = 'pimc', expected a list of bot names"),
    (_replacing("window = ", "window = 2\nepochs = 1.5"),
     "[expert_iteration] epochs = 1.5, expected a positive integer"),
])
def test_a_bad_expert_iteration_setting_is_refused_before_any_work(tmp_path, edit, message):
    _assert_refused(tmp_path, "tiny-exit.toml", edit, message)


def test_the_passing_stage_moves_the_picks_and_keeps_every_card_decision(tmp_path):
    """training.finetune_passing: the added units are shut outside passing, so the Rust
    `nn` bot of the new model plays every card the old one plays; the metadata records
    the pass labels beside the old model's."""
    from yokai_septet import models

    start = ROOT / "crates" / "yokai-septet-models" / "models" / "4p.safetensors"
    out = tmp_path / "run"
    run = subprocess.run([sys.executable, "-m", "training.finetune_passing", str(start), "--out",
                          str(out), "--games",
                          "2", "--epochs", "2", "--teacher", "pimc:1/14", "--threads", "1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["card_gates_closed"] and report["card_argmax_identical"], report
    new, old = models.load(str(out / "student.safetensors")), models.load(str(start))
    assert new.metadata["pass_teacher"] == "pimc:1/14"
    assert int(new.metadata["pass_labels"]) == report["pass_labels_fit"] > 0
    assert new.metadata["trained_by"] == old.metadata["trained_by"]
    assert new.layers[0][0].shape[0] == old.layers[0][0].shape[0] + 64
    mine, shipped = ys.Bot(f"nn:{out / 'student.safetensors'}"), ys.Bot("nn")
    heuristic = ys.Bot("heuristic")
    played = 0
    for seed in range(3):
        g = ys.Game(variant="4p", seed=seed)
        while not g.is_over and g.round <= 1:
            if g.phase == "pass":
                g.step(heuristic.act(g))
                continue
            assert mine.act(g) == shipped.act(g)
            played += 1
            g.step(shipped.act(g))
    assert played > 100
