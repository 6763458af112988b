"""`.ci/run` on a fresh machine: with no chromium on PATH, or no font with runes, it installs
Debian's packages (the assignment of DEBIAN_FRONTEND reaching apt-get, as root and through sudo),
then runs the README's test command with the browser tests required. apt-get, sudo and make are stand-ins that record
how they were called."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDER = """#!/bin/sh
echo "${0##*/} $* DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-} \
REQUIRE=${MEADHALL_REQUIRE_BROWSER:-}" >> "$CALLS"
"""
SUDO = """#!/bin/sh
echo "sudo $*" >> "$CALLS"
exec "$@"
"""


def sandbox(tmp_path: Path, *, uid: int, chromium: bool,
            runes: bool = True) -> tuple[dict[str, str], Path]:
    """A PATH holding only the tools `.ci/run` needs: real dirname and env, stand-ins for the
    rest (id answers `uid`; fc-list names a font with runes when `runes`)."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("dirname", "env"):
        real = shutil.which(tool)
        assert real, tool
        (bin_ / tool).symlink_to(real)
    stubs = {"apt-get": RECORDER, "make": RECORDER, "sudo": SUDO,
             "id": f"#!/bin/sh\necho {uid}\n"}
    if chromium:
        stubs["chromium"] = RECORDER
    stubs["fc-list"] = "#!/bin/sh\necho Junicode\n" if runes else "#!/bin/sh\n"
    for name, text in stubs.items():
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    calls = tmp_path / "calls.txt"
    calls.touch()
    env = {"PATH": str(bin_), "CALLS": str(calls), "HOME": str(tmp_path)}
    return env, calls


def run_ci(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash
    return subprocess.run([bash, str(ROOT / ".ci" / "run")], env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("uid", [0, 1000], ids=["root", "user"])
def test_ci_run_installs_chromium_where_it_is_missing(tmp_path: Path, uid: int) -> None:
    env, calls = sandbox(tmp_path, uid=uid, chromium=False)
    done = run_ci(env)
    assert done.returncode == 0, done.stderr
    lines = calls.read_text().splitlines()
    apt = [line.removeprefix("sudo env DEBIAN_FRONTEND=noninteractive ") for line in lines
           if line.startswith("apt-get")]
    assert apt == [
        "apt-get update -qq DEBIAN_FRONTEND=noninteractive REQUIRE=",
        "apt-get install -y -qq chromium DEBIAN_FRONTEND=noninteractive REQUIRE=",
    ]
    assert any(line.startswith("sudo ") for line in lines) == (uid != 0)
    # The README's test command runs last, with the browser tests required.
    assert lines[-1].startswith("make test ") and lines[-1].endswith("REQUIRE=1")


def test_ci_run_installs_both_packages_in_one_go(tmp_path: Path) -> None:
    env, calls = sandbox(tmp_path, uid=0, chromium=False, runes=False)
    done = run_ci(env)
    assert done.returncode == 0, done.stderr
    apt = [line for line in calls.read_text().splitlines() if line.startswith("apt-get")]
    assert apt == [
        "apt-get update -qq DEBIAN_FRONTEND=noninteractive REQUIRE=",
        "apt-get install -y -qq chromium fonts-junicode DEBIAN_FRONTEND=noninteractive REQUIRE=",
    ]


def test_ci_run_installs_a_runic_font_where_none_is(tmp_path: Path) -> None:
    """Runaljod's runes need a font with the Runic block (fc-list finds none, dpkg is absent)."""
    env, calls = sandbox(tmp_path, uid=0, chromium=True, runes=False)
    done = run_ci(env)
    assert done.returncode == 0, done.stderr
    apt = [line for line in calls.read_text().splitlines() if line.startswith("apt-get")]
    assert apt[-1] == ("apt-get install -y -qq fonts-junicode DEBIAN_FRONTEND=noninteractive "
                       "REQUIRE=")


def test_ci_run_leaves_an_installed_chromium_alone(tmp_path: Path) -> None:
    env, calls = sandbox(tmp_path, uid=0, chromium=True)
    done = run_ci(env)
    assert done.returncode == 0, done.stderr
    lines = calls.read_text().splitlines()
    assert not [line for line in lines if line.startswith("apt-get")]
    assert lines == ["make test DEBIAN_FRONTEND= REQUIRE=1"]


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("make test")


def test_browser_tests_fail_rather_than_skip_when_required(tmp_path: Path) -> None:
    """With MEADHALL_REQUIRE_BROWSER set and no Chromium, the browser module errors."""
    env = dict(os.environ, MEADHALL_REQUIRE_BROWSER="1",
               MEADHALL_CHROMIUM=str(tmp_path / "no-chromium"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "server" / "test_browser.py")],
                          env=env, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode != 0
    assert "BROWSER TESTS NOT RUN" in done.stdout + done.stderr
