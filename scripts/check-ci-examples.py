#!/usr/bin/python3
"""`make check-ci-examples`: the CI and Kubernetes examples of docs/bundles.md ("Sharding over CI
machines") are real and agree with the Dockerfile. Debian's python3-yaml parses the YAML.

- .github/workflows/render-example.yml parses; docs/bundles.md shows it verbatim in a ```yaml block.
- Its build job runs in the Dockerfile's Swift image, caches `.build` (actions/cache) before it
  builds storyreel with --static-swift-stdlib, and uploads the binary.
- Every job that runs storyreel runs in `container: debian:12`, needs the build job (directly or
  through another job), installs the FFmpeg runtime libraries the Dockerfile's runtime stage
  installs (and nothing outside that list), and downloads the binary before its first run.
- The Kubernetes Job of docs/bundles.md parses, and its image is the one that page's
  `docker build -t` line builds from the Dockerfile.

Exits 1 with one line per problem.
"""
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOW = ".github/workflows/render-example.yml"
# The page that shows the workflow and the Kubernetes Job (the README's guide links to it).
EXAMPLES = "docs/bundles.md"
FFMPEG_RUNTIME = {"libavformat59", "libavcodec59", "libswscale6", "libavutil57"}
problems = []


def read(path):
    with open(os.path.join(ROOT, path)) as file:
        return file.read()


def dockerfile():
    """The Dockerfile's SWIFT_IMAGE default and its runtime stage's apt-get install packages."""
    text = read("Dockerfile")
    image = re.search(r"^ARG SWIFT_IMAGE=(\S+)$", text, re.M)
    runtime = re.split(r"^(?=FROM )", text, flags=re.M)
    runtime = next((stage for stage in runtime if re.match(r"FROM \S+ AS runtime", stage)), "")
    packages = set()
    for command in re.findall(r"apt-get install([^&\n]*)", runtime.replace("\\\n", " ")):
        packages |= {word for word in command.split() if not word.startswith("-")}
    return (image.group(1) if image else None), packages


def apt_packages(command):
    packages = set()
    for part in re.findall(r"apt-get install([^&\n]*)", command):
        packages |= {word for word in part.split() if not word.startswith("-")}
    return packages


def check_workflow(text, swift_image, runtime_packages):
    try:
        workflow = yaml.safe_load(text)
    except yaml.YAMLError as error:
        problems.append(f"{WORKFLOW}: not valid YAML: {error}".replace("\n", " "))
        return
    jobs = workflow.get("jobs") if isinstance(workflow, dict) else None
    if not isinstance(jobs, dict) or not jobs:
        problems.append(f"{WORKFLOW}: no jobs")
        return
    # PyYAML reads the key `on` as the boolean True (YAML 1.1).
    if "on" not in workflow and True not in workflow:
        problems.append(f"{WORKFLOW}: no `on:` trigger")

    def needs(name):
        value = jobs.get(name, {}).get("needs", [])
        return [value] if isinstance(value, str) else list(value)

    def ancestors(name, seen=()):
        found = set()
        for parent in needs(name):
            if parent not in seen:
                found |= {parent} | ancestors(parent, seen + (parent,))
        return found

    builders = set()
    for name, job in jobs.items():
        steps = job.get("steps", [])
        runs = [step.get("run", "") for step in steps]
        building = [index for index, run in enumerate(runs) if re.search(r"\bswift build\b", run)]
        if not building:
            continue
        builders.add(name)
        if job.get("container") != swift_image:
            problems.append(f"{WORKFLOW}: job {name} builds in {job.get('container')}, not the Dockerfile's {swift_image}")
        if not any("--static-swift-stdlib" in runs[index] for index in building):
            problems.append(f"{WORKFLOW}: job {name} does not build with --static-swift-stdlib")
        caches = [
            index for index, step in enumerate(steps)
            if str(step.get("uses", "")).startswith("actions/cache@")
            and ".build" in str(step.get("with", {}).get("path", "")).split()
        ]
        if not caches or min(caches) > min(building):
            problems.append(f"{WORKFLOW}: job {name} does not restore a cache of .build before it builds")
        if not any(str(step.get("uses", "")).startswith("actions/upload-artifact@") for step in steps[min(building):]):
            problems.append(f"{WORKFLOW}: job {name} does not upload the binary it builds")
    if not builders:
        problems.append(f"{WORKFLOW}: no job builds storyreel")

    for name, job in jobs.items():
        steps = job.get("steps", [])
        runs = [step.get("run", "") or "" for step in steps]
        first = next((index for index, run in enumerate(runs) if re.search(r"(^|[;&|]\s*)storyreel\s", run, re.M)), None)
        if first is None:
            continue
        if job.get("container") != "debian:12":
            problems.append(f"{WORKFLOW}: job {name} runs storyreel in {job.get('container')}, not debian:12")
        if not ancestors(name) & builders:
            problems.append(f"{WORKFLOW}: job {name} runs storyreel without needing the job that builds it")
        downloads = [
            index for index, step in enumerate(steps)
            if str(step.get("uses", "")).startswith("actions/download-artifact@")
            and step.get("with", {}).get("name") == "storyreel"
        ]
        if not downloads or min(downloads) > first:
            problems.append(f"{WORKFLOW}: job {name} runs storyreel before downloading it")
        installed = set().union(*(apt_packages(run) for run in runs[:first]))
        if not FFMPEG_RUNTIME <= installed:
            problems.append(f"{WORKFLOW}: job {name} does not install {' '.join(sorted(FFMPEG_RUNTIME - installed))}")
        if not installed <= runtime_packages:
            extra = " ".join(sorted(installed - runtime_packages))
            problems.append(f"{WORKFLOW}: job {name} installs {extra}, which the Dockerfile's runtime stage does not")


def yaml_blocks(page):
    return re.findall(r"^```yaml\n(.*?)^```$", page, re.M | re.S)


def check_examples(page, workflow_text):
    blocks = yaml_blocks(page)
    if workflow_text not in blocks:
        problems.append(f"{EXAMPLES}: no ```yaml block is {WORKFLOW} verbatim")
    jobs = []
    for block in blocks:
        try:
            document = yaml.safe_load(block)
        except yaml.YAMLError as error:
            problems.append(f"{EXAMPLES}: a ```yaml block is not valid YAML: {error}".replace("\n", " "))
            continue
        if isinstance(document, dict) and document.get("kind") == "Job":
            jobs.append(document)
    if len(jobs) != 1:
        problems.append(f"{EXAMPLES}: expected one Kubernetes Job, found {len(jobs)}")
        return
    containers = jobs[0].get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    images = {container.get("image") for container in containers}
    built = set(re.findall(r"docker build -t (\S+) \.", page))
    if not images or not images <= built:
        problems.append(f"{EXAMPLES}: the Kubernetes Job's image {sorted(map(str, images))} is not one `docker build -t IMAGE .` builds")


def main():
    swift_image, runtime_packages = dockerfile()
    if swift_image is None or not runtime_packages:
        problems.append("Dockerfile: no SWIFT_IMAGE argument or no runtime stage packages")
    workflow_text = read(WORKFLOW)
    check_workflow(workflow_text, swift_image, runtime_packages)
    check_examples(read(EXAMPLES), workflow_text)
    for problem in problems:
        print(f"check-ci-examples: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-ci-examples: ok: {WORKFLOW} parses and is in {EXAMPLES}; the Kubernetes Job runs the Dockerfile's image")


main()
