"""Type stubs of the dpbai package (see the docstrings in __init__.py for examples)."""

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import os

import numpy as np
import numpy.typing as npt

from . import divergence as divergence
from . import special as special

__version__: str

ThresholdFn = Callable[[float, float, float, float, float, float, float, float], float]
ProgressArg = Union[None, bool, Callable[[int, int], Any]]

class Record(Dict[str, Any]):
    def __getattr__(self, name: str) -> Any: ...
    @classmethod
    def wrap(cls, obj: Any) -> Any: ...

class Certified(Record):
    value: float
    lower: float
    upper: float
    allocation: npt.NDArray[np.float64]

class Bounds(Record):
    family: str
    sigma: float
    means: npt.NDArray[np.float64]
    best_arm: int
    delta: float
    beta: float
    eps: Optional[float]
    t_kl: Certified
    t_kl_gaussian: Certified
    t_kl_beta: Certified
    t_tv: Certified
    t_tv2: Certified
    t_local: Optional[Certified]
    t_global: Optional[Certified]
    t_kl_g_eps: Optional[Certified]
    t_kl_beta_g_eps: Optional[Certified]
    hardness_h: float
    eps_switch_local: float
    eps_switch_global: float
    eps_switch_per_arm: npt.NDArray[np.float64]
    log_factor: float
    sample_lower_bounds: Record
    upper_bounds: Record
    def times(self) -> Dict[str, Certified]: ...
    def to_pandas(self) -> Any: ...

def bounds(
    means: Sequence[float],
    *,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    eps: Optional[float] = None,
    delta: float = 0.01,
    beta: float = 0.5,
) -> Bounds: ...

class EpsCurves(Dict[str, npt.NDArray[np.float64]]):
    def to_pandas(self) -> Any: ...

def eps_curves(
    means: Sequence[float],
    eps: Union[Sequence[float], npt.NDArray[np.float64]],
    *,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    delta: float = 0.01,
    beta: float = 0.5,
) -> EpsCurves: ...

class RunResult(Record):
    tau: npt.NDArray[np.uint64]
    recommendation: npt.NDArray[np.int64]
    stopped: npt.NDArray[np.bool_]
    rounds: npt.NDArray[np.float64]
    summary: Record
    def to_pandas(self) -> Any: ...

def run(
    algo: str,
    means: Sequence[float],
    *,
    delta: float,
    runs: int,
    seed: int,
    eps: Optional[float] = None,
    threads: Optional[int] = None,
    rules: str = "paper",
    max_steps: Optional[int] = None,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    gamma: Optional[float] = None,
    beta: float = 0.5,
    options: Optional[Mapping[str, Union[str, bool]]] = None,
    threshold: Union[None, str, ThresholdFn] = None,
    step_by_step: bool = False,
    progress: ProgressArg = None,
) -> RunResult: ...

class DeltaAudit(Record):
    verdict: str
    runs: int
    errors: int
    unstopped: int
    instances: List[Record]
    def to_pandas(self) -> Any: ...

class DpAudit(Record):
    verdict: str
    eps_lower: float
    def to_pandas(self) -> Any: ...

def audit_delta(
    algo: str,
    means_or_battery: Union[str, Sequence[float], Sequence[Sequence[float]]],
    *,
    delta: float,
    threshold: Union[None, str, ThresholdFn] = None,
    eps: Optional[float] = None,
    gamma: Optional[float] = None,
    rules: str = "paper",
    alpha: float = 1e-3,
    seed: int = 1,
    runs: int = 1000,
    until_decided: bool = False,
    first: int = 100,
    budget: Optional[int] = None,
    max_steps: Optional[int] = None,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = None,
    sampling: str = "algorithm",
) -> DeltaAudit: ...

def audit_dp(
    mechanism: Callable[..., Any],
    neighbours: Optional[Tuple[Any, Any]] = None,
    *,
    eps: float,
    gamma: Optional[float] = None,
    runs: int = 200_000,
    alpha: float = 1e-3,
    vectorized: bool = False,
    space: Optional[Tuple[Any, Any]] = None,
    pairs: int = 16,
    screen_runs: Optional[int] = None,
    seed: int = 1,
    progress: ProgressArg = None,
) -> DpAudit: ...

class ExperimentResults(List[Record]):
    out_dir: Optional[str]
    def column(self, name: str) -> npt.NDArray[Any]: ...
    def to_pandas(self) -> Any: ...

def experiment(
    config_or_path: Union[str, "os.PathLike[str]"],
    *,
    out_dir: Union[None, str, "os.PathLike[str]"] = None,
    runs: Optional[int] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = None,
) -> ExperimentResults: ...

def threshold_presets() -> Dict[str, str]: ...
