"""Type stubs for the compiled core ``yokai_septet._core``."""

from typing import Any, Callable, Optional, Sequence, Union, final

from typing_extensions import disjoint_base

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from ._arena_result import ArenaResult
from ._arena_spec import ArenaSpec

__all__ = [
    "IllegalActionError", "InUseError", "GameInUseError", "VectorEnvInUseError", "Game",
    "Bot", "VectorEnv",
    "analyze", "arena", "_arena_counts",
    "_arena_summary", "_arena_total_games", "_arena_setup", "_arena_game_counts",
    "_imitation_data", "_model_read", "_model_write", "run_cli", "bench_random_playouts",
    "bench_arena", "bench_step_parts", "VARIANTS", "SCORINGS", "EPISODES", "__version__",
]

__version__: str
VARIANTS: list[str]
SCORINGS: list[str]
EPISODES: list[str]

_Int = Union[int, np.integer[Any]]

class IllegalActionError(ValueError):
    """An action that is not legal now; the game is unchanged."""

class InUseError(RuntimeError):
    """An object used by two threads (or by a call from inside another call on it) at
    once; it is unchanged."""

class GameInUseError(InUseError):
    """A Game used by two threads (or by a call from inside another call on it) at once;
    the game is unchanged. Give each thread its own Game (``game.clone()``)."""

class VectorEnvInUseError(InUseError):
    """A VectorEnv used by two threads (or by a call from inside another call on it) at
    once; the env is unchanged. Give each thread its own VectorEnv."""

# PyO3 classes: built by __new__, and not subclassable unless marked `subclass`.
@final
class Game:
    """A game of Yokai Septet (the stable API: docs/api.md)."""

    def __new__(
        cls,
        variant: str = "4p",
        scoring: Optional[str] = "advanced",
        seed: _Int = 0,
        *,
        episode: str = "game",
        max_rounds: Optional[_Int] = None,
    ) -> "Game": ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def scoring(self) -> Optional[str]: ...
    @property
    def seed(self) -> int: ...
    @property
    def episode(self) -> str: ...
    @property
    def max_rounds(self) -> Optional[int]: ...
    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def trick(self) -> list[int]: ...
    @property
    def trump_suit(self) -> Optional[int]: ...
    @property
    def trump_card(self) -> Optional[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def observation_size(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def legal_mask(self, out: Optional[npt.NDArray[np.bool_]] = None) -> npt.NDArray[np.bool_]: ...
    def step(self, a: _Int) -> None: ...
    def step_rewards(self, a: _Int, reward_mode: str = "win") -> list[float]: ...
    def play_bots(
        self, bots: Sequence[Bot], learner_seat: _Int, reward_mode: str = "win"
    ) -> float: ...
    def hand(self, seat: _Int) -> list[int]: ...
    def picks(self, seat: _Int) -> list[int]: ...
    def observation(
        self, seat: Optional[_Int] = None, out: Optional[np.ndarray] = None
    ) -> np.ndarray: ...
    def layout(self) -> list[dict[str, Any]]: ...
    @property
    def state_size(self) -> int: ...
    def state_tensor(self, dtype: str = "float32") -> np.ndarray: ...
    def state_layout(self) -> list[dict[str, Any]]: ...
    def record(self) -> dict[str, Any]: ...
    def record_json(self) -> str: ...
    @staticmethod
    def from_record(rec: Union[dict[str, Any], str]) -> "Game": ...
    @staticmethod
    def from_deal(
        hands: Sequence[Sequence[_Int]],
        trump_card: Optional[_Int] = None,
        variant: str = "4p",
        scoring: Optional[str] = "advanced",
        seed: _Int = 0,
        *,
        episode: str = "game",
        max_rounds: Optional[_Int] = None,
    ) -> "Game": ...
    def apply_deal(self, hands: Sequence[Sequence[_Int]], trump_card: Optional[_Int] = None) -> None: ...
    def redeal(self, hands: Sequence[Sequence[_Int]], trump_card: Optional[_Int] = None) -> None: ...
    def step_in_round(self, a: _Int) -> None: ...
    def received(self, seat: _Int) -> list[int]: ...
    def sample_determinization(self, seat: _Int, seed: Optional[_Int] = None) -> "Game": ...
    def solve(self) -> int: ...
    def solve_moves(self) -> dict[int, int]: ...
    def solve_win(self) -> bool: ...
    def clone(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def to_text(self, seat: Optional[_Int] = None) -> str: ...
    def to_svg(self, seat: Optional[_Int] = None) -> str: ...
    def to_rgb_array(
        self, seat: Optional[_Int] = None, scale: float = 1.0
    ) -> npt.NDArray[np.uint8]: ...
    def to_png(self, seat: Optional[_Int] = None, scale: float = 1.0) -> bytes: ...
    def replay_html(self) -> str: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...
    @staticmethod
    def card_name(card: _Int) -> str: ...
    @staticmethod
    def card_id(code: str) -> int: ...

@final
class Bot:
    """A built-in bot: ``Bot(name, seed=0)``; ``bot.act(game) -> int``."""

    def __new__(cls, name: str, seed: Optional[_Int] = None) -> "Bot": ...
    @staticmethod
    def names() -> list[str]: ...
    @property
    def name(self) -> str: ...
    def act(self, game: Game) -> int: ...
    def reseed(self, seed: _Int) -> None: ...
    def __reduce__(self) -> tuple[type[Bot], tuple[str, int], list[int]]: ...
    def __setstate__(self, state: list[int]) -> None: ...

@disjoint_base
class VectorEnv:
    """Many games stepped in Rust (see ``yokai_septet.VectorEnv``)."""

    def __new__(
        cls,
        num_envs: _Int,
        variant: str = "4p",
        scoring: Optional[str] = "advanced",
        seed: Optional[_Int] = 0,
        *,
        episode: str = "game",
        max_rounds: Optional[_Int] = None,
        self_play: bool = False,
        learner_seat: Optional[_Int] = 0,
        learner_team: Optional[_Int] = None,
        opponents: Union[str, Sequence[str], None] = "random",
        reward_mode: str = "win",
        num_threads: Optional[_Int] = None,
        obs_dtype: str = "float32",
        env_offset: int = 0,
        copy: bool = True,
        state_tensor: bool = False,
        batch_size: Optional[_Int] = None,
        spin_us: Optional[_Int] = None,
        autoreset_mode: Union[str, AutoresetMode, None] = "next_step",
    ) -> "VectorEnv": ...
    @staticmethod
    def _output_spec() -> list[tuple[str, Optional[str], str, str]]: ...
    def reset_all(self, seed: Optional[_Int] = None) -> None: ...
    def step_all(self, actions: npt.NDArray[np.int64]) -> None: ...
    def _reset_some(self, mask: npt.NDArray[np.bool_]) -> None: ...
    # Every output's array (None where not produced), in the order of _output_spec().
    def _step(self, actions: npt.NDArray[np.int64]) -> tuple[Optional[np.ndarray], ...]: ...
    def _outputs(self) -> tuple[Optional[np.ndarray], ...]: ...
    def _check(self, actions: npt.NDArray[np.int64]) -> None: ...
    def _async_reset(self, seed: Optional[_Int] = None) -> None: ...
    def _send(
        self,
        actions: npt.NDArray[np.int64],
        env_ids: Optional[npt.NDArray[np.int64]] = None,
    ) -> None: ...
    def _recv(self) -> tuple[Optional[np.ndarray], ...]: ...
    @property
    def _autoreset_mode(self) -> str: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def spin_us(self) -> Optional[int]: ...
    @spin_us.setter
    def spin_us(self, us: Optional[_Int]) -> None: ...
    @property
    def copy(self) -> bool: ...
    @property
    def states(self) -> Optional[np.ndarray]: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_threads(self) -> int: ...
    @property
    def observations(self) -> np.ndarray: ...
    @property
    def masks(self) -> npt.NDArray[np.bool_]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def terminated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def truncated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def to_play(self) -> npt.NDArray[np.int64]: ...
    def learner_seats(self) -> list[int]: ...
    def episodes(self) -> list[int]: ...
    def game_seed(self, i: int) -> int: ...
    def render_env(self, i: int) -> str: ...
    def bot_actions(
        self, env_ids: Optional[npt.NDArray[np.int64]] = None
    ) -> npt.NDArray[np.int64]: ...
    @property
    def env_offset(self) -> int: ...

_Bots = Union[str, Sequence[str]]

def analyze(rec: Union[dict[str, Any], str], budget: int = ...) -> dict[str, Any]: ...
# The arena functions share the arena's parameters (`arena_fn!` in src/python/arena.rs):
# the line-up, then the deals. A `...` default is Rust's "not given" (the arena's own
# default: "4p", seed 0, "advanced" scoring, 100 rounds, every core).
def arena(
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> ArenaResult: ...
def _arena_counts(
    start: int,
    end: int,
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
) -> dict[str, Any]: ...
def _arena_summary(
    counts: Sequence[dict[str, Any]],
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
    labels: Optional[Sequence[str]] = None,
    seconds: Optional[float] = None,
) -> ArenaResult: ...
def _arena_total_games(
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
) -> int: ...
def _arena_setup(
    index: int,
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
) -> tuple[int, list[int], list[int]]: ...
def _arena_game_counts(
    index: int,
    game: Game,
    decisions: Sequence[int],
    act_nanos: Sequence[int],
    act_max_nanos: Sequence[int],
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
) -> dict[str, Any]: ...
def _imitation_data(
    teacher: str,
    labelled: Sequence[int],
    bots: Optional[_Bots] = None,
    variant: Optional[str] = ...,
    games: Optional[_Int] = None,
    seed: Optional[_Int] = ...,
    *,
    scoring: Optional[str] = ...,
    max_rounds: Optional[_Int] = ...,
    duplicate: bool = ...,
    threads: Optional[_Int] = ...,
    spec: Optional[ArenaSpec] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> dict[str, Any]: ...
def _model_read(
    variant: Optional[str] = None, path: Optional[str] = None
) -> tuple[str, str, list[tuple[Any, Any]], dict[str, str]]: ...
def _model_write(
    path: str, variant: str, inputs: str, layers: Sequence[tuple[Any, Any]],
    metadata: Sequence[tuple[str, str]],
) -> None: ...

def run_cli(
    argv: list[str], load_policy: Optional[Callable[[str], tuple[Any, bool]]] = None
) -> int:
    """Runs the ``yokai-septet`` command-line tool on ``argv`` (program name first) with
    the process's stdin and stdout; returns its exit code."""

# The benchmark functions exist only in a build with the `bench` feature
# (`maturin develop --release --features bench`); benches/*.py use them.
def bench_random_playouts(variant: str, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Random games in Rust on one thread for at least ``seconds``:
    ``(games, decisions, elapsed_seconds)``."""
    ...

def bench_step_parts(
    variant: str, seconds: float, dtype: str = "uint8", num_games: int = 1024
) -> tuple[int, float]:
    """One VectorEnv step's work per env by hand on one thread for at least ``seconds``:
    ``(decisions, elapsed_seconds)``."""
    ...

def bench_arena(variant: str, bots: list[str], games: int, threads: int) -> tuple[int, int, float]:
    """A duplicate arena in Rust on ``threads`` threads (0: one per core):
    ``(games, decisions, elapsed_seconds)``."""
    ...
