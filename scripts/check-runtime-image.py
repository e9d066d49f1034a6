#!/usr/bin/python3
"""`make check-runtime-image`: the Dockerfile's runtime stage, made without a Docker daemon, runs
the static storyreel on the samples.

    sudo /usr/bin/python3 scripts/check-runtime-image.py STATIC-BINARY [--root DIR] [--mirror URL]

`make check-deploy` (in `make test`) compares package lists; this one runs the binary where the
image would. No Docker daemon runs on these machines, so the runtime stage is rebuilt the way its
base image is made:

1. `debootstrap --variant=minbase bookworm` (what `debian:bookworm-slim` is made from) with
   exactly the packages the Dockerfile's runtime stage installs, plus `passwd` for its `useradd`.
   The root is kept in DIR (default `build/runtime-root`) and reused while that list is the same;
   a DIR this script did not make is refused, never removed.
2. The binary goes to `/usr/local/bin/storyreel`, the samples to `/data`; the user `storyreel`
   (uid 10001) is created as the Dockerfile creates it; `/proc` and `/sys` (read-only) are mounted,
   as Docker mounts them, and unmounted afterwards.
3. As that user, in `/data`: `--version`, `inspect`, `thumbnail` (JPEG and WebP), `cube` (H.264
   and HEVC), `render` of the stories and `validate` of the bundle. Each must exit 0 and write
   what it was asked; `ldd` in the root must find every library, none of the Swift toolchain's.

Needs root (debootstrap, chroot, mount) and a Debian mirror (the one apt uses here, else
deb.debian.org): about a minute and 480 MB the first time. Exits 1 with one line per problem.
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UID = 10001
MARKER = ".storyreel-runtime-root"


def deploy_module():
    """scripts/check-deploy.py, for its Dockerfile parsing and its report (one of each for both
    checks)."""
    spec = importlib.util.spec_from_file_location("check_deploy", os.path.join(ROOT, "scripts", "check-deploy.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def runtime_packages(deploy):
    """The packages the Dockerfile's runtime stage installs, sorted (`deploy`: check-deploy.py)."""
    stages, _ = deploy.dockerfile_stages()
    runtime = stages.get("runtime")
    if runtime is None or not runtime.startswith("FROM debian:bookworm-slim"):
        sys.exit("check-runtime-image: the Dockerfile has no runtime stage `FROM debian:bookworm-slim AS runtime`")
    return sorted(deploy.installed_packages(runtime))


def apt_mirror():
    """The Debian mirror apt uses here (deb822 or one-line sources), else deb.debian.org."""
    for path in ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"]:
        try:
            text = open(path).read()
        except OSError:
            continue
        match = re.search(r"^URIs:\s*(\S+)", text, re.M) or re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+bookworm\b", text, re.M)
        if match:
            return match.group(1)
    return "http://deb.debian.org/debian"


def make_root(root, packages, mirror):
    """A bookworm minbase root with `packages` at `root`, made once per package list."""
    wanted = " ".join(packages) + "\n"
    marker = os.path.join(root, MARKER)
    if os.path.exists(root):
        if not os.path.exists(marker):
            sys.exit(f"check-runtime-image: {root} exists and was not made by this script; give another --root")
        if open(marker).read() == wanted:
            return
        shutil.rmtree(root)
    include = ",".join(packages + ["passwd"])
    print(f"check-runtime-image: debootstrap bookworm ({mirror}) with {include} into {root}", flush=True)
    os.makedirs(root)
    open(marker, "w").write("")  # claims the folder before anything lands in it
    made = subprocess.run(
        ["debootstrap", "--variant=minbase", f"--include={include}", "bookworm", root, mirror],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if made.returncode != 0:
        last = (made.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        sys.exit(f"check-runtime-image: debootstrap failed, {root} left for a look: {last}")
    open(marker, "w").write(wanted)


def user_ids(root):
    """(uid, gid) of the user with uid 10001 in the root's /etc/passwd, or None."""
    for line in open(os.path.join(root, "etc", "passwd")):
        fields = line.split(":")
        if len(fields) > 3 and fields[2] == str(UID):
            return int(fields[2]), int(fields[3])
    return None


def in_root(root, command, user=(UID, UID)):
    """Runs `command` chrooted in `root`, in /data, as `user` (uid, gid), or as root when None."""
    def enter():
        os.chroot(root)
        os.chdir("/data")
        if user is not None:
            os.setgroups([])
            os.setgid(user[1])
            os.setuid(user[0])
    environment = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/data", "LANG": "C.UTF-8"}
    return subprocess.run(command, preexec_fn=enter, env=environment, capture_output=True, text=True, timeout=300)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--root", default=os.path.join(ROOT, "build", "runtime-root"))
    parser.add_argument("--mirror", default=None)
    options = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("check-runtime-image: needs root (debootstrap, chroot, mount): run it with sudo")
    if not os.path.isfile(options.binary) or shutil.which("debootstrap") is None:
        sys.exit("check-runtime-image: give an existing binary, and install debootstrap (apt-get install debootstrap)")
    root = os.path.abspath(options.root)
    deploy = deploy_module()
    packages = runtime_packages(deploy)
    make_root(root, packages, options.mirror or apt_mirror())

    # The image: the binary, the user, the samples in the working folder.
    subprocess.run(["install", "-D", "-m", "755", options.binary, os.path.join(root, "usr/local/bin/storyreel")], check=True)
    data = os.path.join(root, "data")
    shutil.rmtree(data, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "samples"), data)
    if user_ids(root) is None:
        added = in_root(root, ["useradd", "--system", "--uid", str(UID), "--no-create-home", "storyreel"], user=None)
        if added.returncode != 0:
            sys.exit(f"check-runtime-image: useradd failed: {added.stderr.strip()}")
    uid, gid = user_ids(root)
    subprocess.run(["chown", "-R", f"{uid}:{gid}", data], check=True)

    problems = []
    mounted = []
    try:
        for kind, target, flags in [("proc", "proc", []), ("sysfs", "sys", ["-o", "ro"])]:
            subprocess.run(["mount", "-t", kind, *flags, kind, os.path.join(root, target)], check=True)
            mounted.append(os.path.join(root, target))

        linked = in_root(root, ["ldd", "/usr/local/bin/storyreel"], user=None)
        missing = re.findall(r"^\s*(\S+) => not found", linked.stdout, re.M)
        if linked.returncode != 0 or missing:
            problems.append(f"ldd in the root does not find {' '.join(missing) or linked.stderr.strip()}")
        if re.search(r"libswift|libFoundation|libdispatch", linked.stdout):
            problems.append("ldd in the root names a Swift runtime library")

        stories = "stories"
        checks = [
            (["storyreel", "--version"], [], "storyreel "),
            (["storyreel", "inspect", "portrait-h264.mp4"], [], "h264"),
            (["storyreel", "thumbnail", "iphone-hevc-hdr.mov", "-o", "poster.jpg"], ["poster.jpg"], None),
            (["storyreel", "thumbnail", "portrait-h264.mp4", "-o", "poster.webp", "--width", "360"], ["poster.webp"], None),
            (["storyreel", "cube", f"{stories}/ana.lima/IMG_0001.MOV", f"{stories}/ben_k/1.mp4", "-o", "cube.mp4"],
             ["cube.mp4"], None),
            (["storyreel", "cube", f"{stories}/ana.lima/IMG_0001.MOV", f"{stories}/ben_k/1.mp4", "--codec", "hevc",
              "-o", "cube-hevc.mp4"], ["cube-hevc.mp4"], None),
            (["storyreel", "render", stories, "-o", "reel", "--quiet"], ["reel/manifest.json", "reel/index.html"], None),
            (["storyreel", "validate", "reel"], [], "valid"),
        ]
        for command, outputs, expected in checks:
            ran = in_root(root, command, user=(uid, gid))
            shown = " ".join(command)
            if ran.returncode != 0:
                last = (ran.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
                problems.append(f"`{shown}` exited {ran.returncode}: {last}")
                continue
            if expected is not None and expected not in ran.stdout:
                problems.append(f"`{shown}` printed {ran.stdout.strip()[:200]!r}, without {expected!r}")
            for output in outputs:
                path = os.path.join(data, output)
                if not os.path.isfile(path) or os.path.getsize(path) == 0:
                    problems.append(f"`{shown}` did not write {output}")
        transitions = os.path.join(data, "reel", "transitions")
        if not os.path.isdir(transitions) or not os.listdir(transitions):
            problems.append("render wrote no transitions")
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", target])

    deploy.report(
        "check-runtime-image", problems, f"bookworm minbase with {' '.join(packages)}; as uid {UID}: "
        f"{len(checks)} commands ran, `ldd` finds every library, none of the toolchain's")


if __name__ == "__main__":
    main()
