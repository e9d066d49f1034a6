#!/usr/bin/python3
"""`make check-deploy`: the statically linked storyreel runs without the Swift toolchain, and the
Dockerfile's runtime stage installs exactly the Debian packages of the libraries it links.

    /usr/bin/python3 scripts/check-deploy.py STATIC-BINARY

1. Installs STATIC-BINARY as `make install` does (`install -m 755`) into a temporary prefix far
   from the toolchain and the build tree.
2. Its RUNPATH/RPATH holds only `$ORIGIN` entries; `ldd` finds every library, none of them in the
   toolchain (no libswiftCore, no libFoundation).
3. It runs with a clean environment and LD_LIBRARY_PATH pointing at an empty folder: `inspect` on
   samples/edit-list.mp4 exits 0 and names the codec. That run also says (LD_DEBUG=files,libs) which
   libraries the binary loads itself when it first reads media (libavformat and libavcodec,
   CFFmpegOnDemand): they are not in its NEEDED list, and must be there all the same.
4. Each library in its NEEDED list (the binary's own, as `ldd` resolves them) and each it loads
   on demand maps with `dpkg -S` to a Debian package; that set equals the packages the
   Dockerfile's runtime stage installs.
5. The Dockerfile's Swift image is the version of the toolchain here (`swift --version`).

No Docker daemon is needed. Exits 1 with one line per problem.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
problems = []


def run(arguments, **options):
    return subprocess.run(arguments, capture_output=True, text=True, **options)


def toolchain_root():
    """The Swift toolchain's usr/ folder, from the swift on PATH (or $SWIFT)."""
    swift = shutil.which(os.environ.get("SWIFT", "swift"))
    if swift is None:
        return None
    return os.path.dirname(os.path.dirname(os.path.realpath(swift)))


def dynamic_section(binary):
    """NEEDED names and RUNPATH/RPATH entries, from `readelf -d`."""
    output = run(["readelf", "-d", binary]).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", output)
    paths = []
    for entry in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]", output):
        paths += [part for part in entry.split(":") if part]
    return needed, paths


def ldd(binary, environment):
    """name -> resolved path (None when not found), from `ldd`."""
    resolved = {}
    for line in run(["ldd", binary], env=environment).stdout.splitlines():
        line = line.strip()
        match = re.match(r"(\S+) => (not found|(\S+) \(0x[0-9a-f]+\))", line)
        if match:
            resolved[match.group(1)] = match.group(3)
        elif line.startswith("/"):
            path = line.split()[0]
            resolved[os.path.basename(path)] = path
    return resolved


def debian_package(path):
    """The package owning `path`, trying the /usr-merged spellings of it."""
    candidates = [path]
    if not path.startswith("/usr/"):
        candidates.append("/usr" + path)
    candidates.append(os.path.realpath(path))
    for candidate in candidates:
        result = run(["dpkg", "-S", candidate])
        if result.returncode == 0:
            return result.stdout.split(":", 1)[0].strip()
    return None


def report(tool, problems, summary):
    """Prints each problem as one line on stderr and exits 1, or prints `tool: ok: summary`."""
    for problem in problems:
        print(f"{tool}: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"{tool}: ok: {summary}")


def dockerfile_stages():
    """The Dockerfile as {stage name: text}, and its SWIFT_IMAGE default."""
    text = open(os.path.join(ROOT, "Dockerfile")).read()
    image = re.search(r"^ARG SWIFT_IMAGE=(\S+)$", text, re.M)
    stages = {}
    for block in re.split(r"^(?=FROM )", text, flags=re.M)[1:]:
        name = re.match(r"FROM \S+(?: AS (\S+))?", block)
        stages[name.group(1) if name else "?"] = block
    return stages, image.group(1) if image else None


def installed_packages(stage):
    """The packages a stage's `apt-get install` lines name (options left out)."""
    joined = stage.replace("\\\n", " ")
    packages = set()
    for command in re.findall(r"apt-get install([^&\n]*)", joined):
        packages |= {word for word in command.split() if not word.startswith("-")}
    return packages


def main():
    if len(sys.argv) != 2 or not os.path.isfile(sys.argv[1]):
        sys.exit("usage: check-deploy.py STATIC-BINARY (an existing file)")
    toolchain = toolchain_root()
    with tempfile.TemporaryDirectory(prefix="storyreel-deploy-") as prefix:
        installed = os.path.join(prefix, "bin", "storyreel")
        os.makedirs(os.path.dirname(installed))
        subprocess.run(["install", "-m", "755", sys.argv[1], installed], check=True)
        empty = os.path.join(prefix, "empty")
        os.makedirs(empty)
        environment = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": empty, "HOME": prefix}

        needed, runpath = dynamic_section(installed)
        if not needed:
            problems.append(f"readelf found no NEEDED libraries in {sys.argv[1]}: not a dynamic ELF binary?")
        for entry in runpath:
            if entry != "$ORIGIN" and not entry.startswith("$ORIGIN/"):
                problems.append(f"RUNPATH entry {entry} is outside the binary's folder (build with --static-swift-stdlib)")

        resolved = ldd(installed, environment)
        for name, path in sorted(resolved.items()):
            if path is None:
                problems.append(f"ldd: {name} not found")
            elif re.match(r"lib(swift|Foundation|dispatch|BlocksRuntime|_FoundationICU)", name) or (
                toolchain and os.path.realpath(path).startswith(toolchain + "/")
            ):
                problems.append(f"ldd: {name} comes from the Swift toolchain ({path})")

        ran = run(
            [installed, "inspect", os.path.join(ROOT, "samples", "edit-list.mp4")],
            env=dict(environment, LD_DEBUG="files,libs"), cwd=prefix)
        if ran.returncode != 0 or "h264" not in ran.stdout:
            errors = "; ".join(line for line in ran.stderr.splitlines() if not re.match(r"\s*\d+:", line) and line.strip())
            problems.append(f"the installed binary does not run without the toolchain: {ran.returncode} {errors}")
        # `file=libavformat.so.59 [0];  dynamically loaded by /…/storyreel [0]`, then the paths
        # tried for it (`trying file=/lib/…/libavformat.so.59`), the last one that exists found.
        loaded = re.findall(r"file=(\S+) \[0\];\s+dynamically loaded by " + re.escape(installed) + r" ", ran.stderr)
        if not loaded:
            problems.append("the installed binary loaded no library on demand (want libavformat and libavcodec)")
        for name in loaded:
            found = re.findall(r"trying file=(\S+/" + re.escape(name) + r")\n", ran.stderr)
            existing = [path for path in found if os.path.exists(path)]
            resolved[name] = existing[-1] if existing else None

        wanted = {}
        for name in needed + loaded:
            path = resolved.get(name)
            package = debian_package(path) if path else None
            if package is None:
                problems.append(f"no Debian package owns {name} ({path})")
            else:
                wanted.setdefault(package, []).append(name)

    stages, image = dockerfile_stages()
    runtime = stages.get("runtime")
    if runtime is None or not runtime.startswith("FROM debian:bookworm-slim"):
        problems.append("Dockerfile: no runtime stage `FROM debian:bookworm-slim AS runtime`")
    else:
        listed = installed_packages(runtime)
        for package in sorted(set(wanted) - listed):
            problems.append(f"Dockerfile runtime stage lacks {package} (for {', '.join(wanted[package])})")
        for package in sorted(listed - set(wanted)):
            problems.append(f"Dockerfile runtime stage installs {package}, which the binary neither links nor loads")
    build = stages.get("build", "")
    if "--static-swift-stdlib" not in build:
        problems.append("Dockerfile: the build stage does not build with --static-swift-stdlib")
    version = re.search(r"Swift version (\d+\.\d+(?:\.\d+)?)", run([os.environ.get("SWIFT", "swift"), "--version"]).stdout)
    if version is None or image != f"swift:{version.group(1)}-bookworm":
        problems.append(
            f"Dockerfile: SWIFT_IMAGE is {image}, the toolchain here is "
            f"{version.group(1) if version else 'unknown'} (want swift:VERSION-bookworm)")

    report("check-deploy", problems, f"no toolchain libraries, RUNPATH {':'.join(runpath) or '(none)'}, "
           f"runtime packages {' '.join(sorted(wanted))}")


if __name__ == "__main__":
    main()
