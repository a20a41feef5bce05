"""Follow README.md literally, as a newcomer on a fresh machine would: a fresh clone, a fresh
venv, then every command of its ``bash`` blocks, in order.

Two kinds of command cannot run as written in CI, and are checked instead:
- ``jupyter lab FILE`` / ``jupyter notebook FILE`` start a server and wait for a browser: they
  run with ``--no-browser`` on a free loopback port (and ``--allow-root`` when CI runs as
  root), and must serve FILE (HTTP 200) within 90 s; then they are stopped.
- the test command (``... python -m pytest``) is what ``.ci/run`` itself runs on the same
  clean checkout, so it is not run twice.

Every file a command names with ``-o`` must exist afterwards. Exit status 0 when all passed.

Usage: ``python .ci/newcomer.py`` from the repository root (git must be installed).
"""

import os
import pathlib
import re
import secrets
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
SERVER = re.compile(r"^jupyter (lab|notebook) (\S+)$")


def readme_commands(text):
    """The commands of README.md's ``bash`` blocks, one per line, in order."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                commands.append(line.strip())
    return commands


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_server(kind, path, clone, env):
    """Start ``jupyter <kind> <path>`` headless and wait until it serves ``path``."""
    port, token = free_port(), secrets.token_hex(16)
    command = (f"source .venv/bin/activate && exec jupyter {kind} {shlex.quote(path)} "
               f"--no-browser --port={port} --ServerApp.ip=127.0.0.1")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command += " --allow-root"
    server = subprocess.Popen(["bash", "-c", command], cwd=clone,
                              env={**env, "JUPYTER_TOKEN": token},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    page = "lab/tree" if kind == "lab" else "notebooks"
    name = pathlib.Path(path).name  # given a file, the server's root is the file's folder
    urls = [f"http://127.0.0.1:{port}/{page}/{name}?token={token}",
            f"http://127.0.0.1:{port}/api/contents/{name}?token={token}"]
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"jupyter {kind} exited with {server.returncode}: "
                                   + server.stderr.read().decode(errors="replace")[-2000:])
            try:
                codes = [urllib.request.urlopen(u, timeout=10).status for u in urls]
            except OSError:
                time.sleep(1)
                continue
            if codes == [200, 200]:
                print(f"  ok: jupyter {kind} serves {path}")
                return
            time.sleep(1)
        raise RuntimeError(f"jupyter {kind} did not serve {path} within 90 s")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def main():
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    if not commands:
        print("README.md has no bash commands", file=sys.stderr)
        return 1
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(PIP_QUIET="1", PIP_PROGRESS_BAR="off")  # the install's own log is not the news
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if ".venv" not in p)
    with tempfile.TemporaryDirectory(prefix="newcomer-") as tmp:
        clone = pathlib.Path(tmp) / "minigrad"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        shell = "set -euo pipefail\n"
        for command in commands:
            print(f"$ {command}", flush=True)
            server = SERVER.match(command)
            if server:
                check_server(server[1], server[2], clone, env)
                continue
            if "python -m pytest" in command:
                print("  (the test command: .ci/run runs it on the same clean checkout)")
                continue
            shell += command + "\n"
            done = subprocess.run(["bash", "-c", shell + "true"], cwd=clone, env=env)
            if done.returncode:
                print(f"FAILED: {command} (exit {done.returncode})", file=sys.stderr)
                return 1
            shell = "set -euo pipefail\n" + "".join(
                line + "\n" for line in shell.splitlines()[1:] if "activate" in line)
            for output in re.findall(r"-o (\S+)", command):
                if not (clone / output).exists():
                    print(f"FAILED: {command} wrote no {output}", file=sys.stderr)
                    return 1
                print(f"  ok: wrote {output}")
    print(f"newcomer: {len(commands)} README commands followed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
