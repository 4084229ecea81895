"""Tournaments on a Dask cluster: ``run_tournament(executor=client.get_executor())``.

A real local cluster of two worker processes (the way a class or a lab runs a
study on several machines, only smaller) must give exactly the games the same
call plays in this process.
"""

from __future__ import annotations

import pytest

try:
    import distributed
except ImportError:  # pragma: no cover - the test extra installs it
    pytest.fail("Dask's distributed is needed: pip install -e '.[test]'", pytrace=False)

from janus_widgets.analysis.tournament import run_tournament  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_a_dask_cluster_plays_the_same_games_as_one_process(client):
    executor = client.get_executor()
    kwargs = dict(bots=["greedy", "random"], games=24, seed=7, rotate_seats=True,
                  progress=False, chunk=4)
    with distributed.get_task_stream(client) as stream:
        remote = run_tournament("jinns", players=3, executor=executor, **kwargs)
    local = run_tournament("jinns", players=3, processes=1, **kwargs)
    assert remote.rows == local.rows
    assert remote.metrics() == local.metrics()
    # The six chunks of four games ran as tasks on the two worker processes.
    tasks = [t for t in stream.data if t["key"].startswith("_play_chunk")]
    assert len(tasks) == 6
    assert {t["worker"] for t in tasks} == set(client.scheduler_info()["workers"])


def test_the_cluster_runs_every_game_and_a_named_mcts_bot(client):
    executor = client.get_executor()
    for name in ("janus", "janus-cards", "jactus"):
        kwargs = dict(bots=["mcts:20", "greedy"], games=4, seed=3, progress=False,
                      max_plies=600, chunk=1)
        remote = run_tournament(name, executor=executor, **kwargs)
        local = run_tournament(name, **kwargs)
        assert remote.rows == local.rows, name
