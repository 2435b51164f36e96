"""Training agents for yokai-septet: the shared pieces, and one file per method on top.

Run a method from the repository root as a module, e.g. ``python -m training.ppo
training/configs/ppo-4p.toml --decisions 20M`` (``pip install ".[train]"`` first).

Shared pieces:

- ``config``: a method's TOML config, checked against the method's key table;
- ``nets``: the ``nn`` bot's MLP (the policy every method trains) and the privileged
  critic's inputs;
- ``rollouts``: self-play on ``VectorEnv`` with a share of built-in bots and earlier
  checkpoints, each decision handed over with its round's return;
- ``advantages``: GAE(lambda) over a side's decisions in a round;
- ``evaluate``: duplicate-deal evaluations and learning curves;
- ``runs``: a run's folder (resumable state, checkpoints kept to the last few and the
  best, the curve) and its budget (``--decisions``, ``--segments``, ``--minutes``).

Methods: ``ppo`` (PPO with a privileged critic), ``variance`` (the measurement that chose
it: how much of a decision's return each critic explains). The other recipes run the same
way: ``python -m training.train_value CONFIG --out DIR`` (the search's value model),
``python -m training.finetune_passing MODEL --out DIR`` (a pass-only stage).
"""
