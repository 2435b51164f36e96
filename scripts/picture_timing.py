"""Per-call cost of the pictures (docs/performance.md, "Pictures"), next to a peer measured
in the same run: cloning a game and applying one action.

    python scripts/picture_timing.py
"""
import timeit, numpy as np, gymnasium as gym, yokai_septet as ys

g = ys.Game("4p", seed=7)
rng = np.random.default_rng(7)
for _ in range(30):
    g.step(int(rng.choice(g.legal_actions())))

def best(stmt, number):
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number

def step_peer():
    h = g.clone(); h.step(h.legal_actions()[0])

t_step = best(step_peer, 2000)
rows = {
    "clone + one step (peer)": t_step,
    "to_text()": best(lambda: g.to_text(), 2000),
    "to_svg()": best(lambda: g.to_svg(), 500),
    "to_svg(seat=0)": best(lambda: g.to_svg(seat=0), 500),
    "to_rgb_array()": best(lambda: g.to_rgb_array(), 20),
    "to_rgb_array(scale=0.5)": best(lambda: g.to_rgb_array(scale=0.5), 20),
}
env = gym.make("YokaiSeptet-v0", render_mode="rgb_array")
env.reset(seed=0)
rows["gym env.render() rgb_array"] = best(lambda: env.render(), 20)
bots = [ys.Bot("heuristic", seed=p) for p in range(4)]
h = ys.Game("4p", seed=5, max_rounds=4)
while h.phase != "over":
    h.step(bots[h.current_player].act(h))
rows[f"replay_html() ({len(h.record()['rounds'])} rounds)"] = best(lambda: h.replay_html(), 3)
for k, v in rows.items():
    print(f"| {k} | {v*1e6:,.1f} µs | {v/t_step:,.0f}× |")
