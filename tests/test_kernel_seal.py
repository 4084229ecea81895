"""A sealed kernel runs only its own notebook's code (janus_widgets.kernel_seal): a real
kernel, two clients — the one that ran the notebook, and another, as a browser's page is
to a Voila kernel."""

from __future__ import annotations

import os


import pytest
from jupyter_client.manager import start_new_kernel


@pytest.fixture
def kernel():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    os.environ.get("PYTHONPATH", "")) if p)}
    manager, owner = start_new_kernel(kernel_name="python3", env=env)
    yield manager, owner
    owner.stop_channels()
    manager.shutdown_kernel(now=True)


def run(client, code: str, timeout: float = 20):
    """Execute ``code``; its stdout and its reply's status (None: no reply came)."""
    msg_id = client.execute(code)
    out, status = "", None
    import queue
    try:
        reply = client.get_shell_msg(timeout=timeout)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = client.get_shell_msg(timeout=timeout)
        status = reply["content"]["status"]
    except queue.Empty:
        return out, None
    while True:
        try:
            msg = client.get_iopub_msg(timeout=2)
        except queue.Empty:
            break
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            out += msg["content"]["text"]
    return out, status


def test_a_sealed_kernel_runs_code_from_its_own_client_only(kernel):
    manager, owner = kernel
    out, status = run(owner, "SECRET = 'the seed'\nfrom janus_widgets.kernel_seal import "
                             "seal, sealed\nprint(seal(only_in_voila=False), sealed())")
    assert status == "ok" and out.split() == ["True", "True"]
    from jupyter_client.session import Session
    # another client, with a session of its own (as a browser's page is to Voila's kernel)
    browser = manager.client(session=Session(key=manager.session.key))
    browser.start_channels()
    try:
        browser.wait_for_ready(timeout=20)             # kernel_info is still answered
        out, status = run(browser, "print(SECRET)", timeout=3)
        assert status is None and "the seed" not in out    # its code never ran
        msg_id = browser.complete("SECR", 4)
        import queue
        with pytest.raises(queue.Empty):                # nor completion or inspection
            while browser.get_shell_msg(timeout=2)["parent_header"]["msg_id"] != msg_id:
                pass
        browser.comm_info()                             # the widgets' questions: answered
        reply = browser.get_shell_msg(timeout=10)
        assert reply["msg_type"] == "comm_info_reply"
    finally:
        browser.stop_channels()
    out, status = run(owner, "print(SECRET)")          # the notebook's own client: runs
    assert status == "ok" and out.strip() == "the seed"


def test_outside_voila_nothing_is_sealed(kernel):
    _, owner = kernel
    out, status = run(owner, "from janus_widgets.kernel_seal import seal, sealed, in_voila\n"
                             "print(in_voila(), seal(), sealed())")
    assert status == "ok" and out.split() == ["False", "False", "False"]
