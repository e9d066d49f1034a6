#!/usr/bin/python3
"""A seeded mutation fuzzer for storyreel's `inspect`, `thumbnail` and `cube`.

    /usr/bin/python3 scripts/fuzz.py [--count 2000] [--seed 1] [--bin PATH] [--jobs 2]
                                     [--timeout 5] [--slack 10] [--out build/fuzz]

Every input is a mutation of one of the clips in `samples/` and `samples/stories/*/` (the
stories' avatar JPEGs are used as cube faces). Input number i is made by a random generator
seeded with "SEED:i" alone, so a run is deterministic for a seed, whatever the order in which
the inputs run, and the first N inputs of a longer run are exactly a run of N (`make test`
runs the first 200 of `make fuzz`'s 2,000).

Mutations (one to three per input), all found by walking the MP4 box tree of the sample:
- bit flips; byte and 4-byte big-endian overwrites with interesting values (0, 1, 0x7f/0x80,
  0xff…, 2^29 and just over, 2^30−1, 2^31−1, 2^31, 2^32−1, the file's size and sizes near it);
- atom edits: the 4-byte size before a type such as `stsz`, `stco`, `co64`, `stts`, `ctts`,
  `elst`, `tkhd`, `mdhd`, `hvcC`, `avcC`; a 4- or 8-byte word inside such an atom; an entry of
  a sample table (`stsz` sizes, `stco`/`co64` offsets, `stts`/`ctts` times, `stsc`, `stss`,
  `elst`); a named field (timescales, durations, entry counts, the sample size, a sample
  entry's width and height, avcC's NAL length size…); the type itself renamed;
- truncation (anywhere, at an atom boundary, to a few bytes); a chunk duplicated, removed, or
  spliced in from another sample; random bytes inserted; an empty file.

Each input runs one command of the built binary (`--bin`, else `$STORYREEL_BIN`, else
`.build/release/storyreel`), in a folder of its own, with small outputs (64-pixel posters, a
64x64 three-frame cube) and `--timeout` seconds. The run FAILS (exit 1) when any input:

- exits by a signal (a Swift trap, a segfault, an abort);
- hangs: is still running `--slack` seconds after its `--timeout` (it is then killed);
- exits with a code outside the documented set {0, 64, 65, 66, 73, 74};
- leaves something behind: a temporary file (`*.storyreel-tmp`) or any dot-file in the folder,
  an output file (or cube's `--frames-dir` folder) after a failure, or changes its input;
- exits 0 without writing what was asked (a poster, a clip, a JSON array).

Each failure is one line on stdout naming the seed and index, the command and what happened,
and a reproducer folder under OUT/crashes/ holding the input(s), `command.txt` (the command,
the seed file and the mutations) and `stderr.txt`. Nothing is allow-listed.
"""

import argparse
import concurrent.futures
import json
import os
import random
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALLOWED_EXITS = {0, 64, 65, 66, 73, 74}
CLIP_EXTENSIONS = (".mov", ".mp4", ".m4v")
STILL_EXTENSIONS = (".jpg", ".jpeg", ".png")

# Atoms whose children follow their 8-byte header; `meta` has 4 bytes of version and flags first.
CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"udta", b"dinf", b"mvex", b"moof", b"traf"}
# Sample entries: 8-byte header, then 78 (visual) or 28 (audio) bytes, then child atoms (avcC, hvcC, colr…).
VISUAL_ENTRIES = {b"avc1", b"avc3", b"hvc1", b"hev1", b"mp4v", b"jpeg", b"png ", b"dvh1", b"dvhe"}
AUDIO_ENTRIES = {b"mp4a", b"ac-3", b"ec-3", b"alac", b"Opus"}
# The atoms whose fields decide sizes, offsets, counts and durations: the fuzzer's favourite targets.
TABLES = [b"stsz", b"stco", b"co64", b"stts", b"ctts", b"stsc", b"stss", b"elst", b"tkhd", b"mdhd",
          b"mvhd", b"hvcC", b"avcC", b"stsd", b"hdlr", b"colr", b"mdat"]
# Named fields (offset from the atom's start, width in bytes) of version-0 atoms and sample entries.
FIELDS = {
    b"mvhd": [(20, 4, "timescale"), (24, 4, "duration")],
    b"tkhd": [(28, 4, "duration"), (48, 4, "matrix a"), (52, 4, "matrix b"), (84, 4, "width"),
              (88, 4, "height")],
    b"mdhd": [(20, 4, "timescale"), (24, 4, "duration")],
    b"stts": [(12, 4, "entry count"), (16, 4, "first sample count"), (20, 4, "first sample delta")],
    b"ctts": [(12, 4, "entry count"), (16, 4, "first sample count"), (20, 4, "first sample offset")],
    b"stsc": [(12, 4, "entry count"), (16, 4, "first chunk"), (20, 4, "samples per chunk"),
              (24, 4, "sample description index")],
    b"stsz": [(12, 4, "sample size"), (16, 4, "sample count"), (20, 4, "first entry"), (24, 4, "second entry")],
    b"stco": [(12, 4, "entry count"), (16, 4, "first chunk offset")],
    b"co64": [(12, 4, "entry count"), (16, 8, "first chunk offset")],
    b"stss": [(12, 4, "entry count"), (16, 4, "first sync sample")],
    b"elst": [(12, 4, "entry count"), (16, 4, "segment duration"), (20, 4, "media time"), (24, 4, "media rate")],
    b"stsd": [(12, 4, "entry count")],
    b"avc1": [(32, 2, "width"), (34, 2, "height"), (82, 2, "depth")],
    b"hvc1": [(32, 2, "width"), (34, 2, "height"), (82, 2, "depth")],
    b"avcC": [(8, 1, "version"), (9, 1, "profile"), (13, 1, "length size"), (14, 1, "SPS count"),
              (15, 2, "SPS length")],
    b"hvcC": [(8, 1, "version"), (29, 1, "length size"), (30, 1, "array count")],
}
# Sample tables: where their entries start (from the atom's start) and how long each entry is.
INDEX_TABLES = {b"stsz": (20, 4), b"stco": (16, 4), b"co64": (16, 8), b"stts": (16, 8), b"ctts": (16, 8),
                b"stsc": (16, 12), b"stss": (16, 4), b"elst": (16, 12)}
RENAMES = [b"free", b"skip", b"moov", b"mdat", b"trak", b"stco", b"co64", b"stsz", b"avc1", b"hvc1",
           b"mp4a", b"uuid", b"wide", b"\0\0\0\0"]


def interesting_u32(rng, file_size, current=None):
    """A value that tends to break size and offset arithmetic."""
    values = [0, 1, 2, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
              1 << 29, (1 << 29) + 1, (1 << 30) - 1, 1 << 30, (1 << 31) - 1, 1 << 31, (1 << 31) + 1,
              (1 << 32) - 2, (1 << 32) - 1, file_size, file_size - 1, file_size + 1, file_size - 8,
              file_size // 2, rng.randrange(1 << 29, 1 << 30), rng.randrange(1 << 32)]
    if current is not None:
        values += [current + 1, current - 1, current * 2, current + 8, current - 8]
    return rng.choice(values) % (1 << 32)


def interesting_u64(rng, file_size):
    """An 8-byte value for 64-bit offsets, durations and large sizes."""
    return rng.choice([0, 1, file_size, file_size + 1, 1 << 32, (1 << 32) + 8, (1 << 63) - 1, 1 << 63,
                       (1 << 64) - 1, rng.randrange(1 << 64)]) % (1 << 64)


def walk_atoms(data, start=0, end=None, depth=0, found=None):
    """Every well-formed atom under [start, end): (offset, size, type). Stops at the first bad size."""
    found = [] if found is None else found
    end = len(data) if end is None else end
    offset = start
    while offset + 8 <= end and depth < 12:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1 and offset + 16 <= end:
            size, header = struct.unpack(">Q", data[offset + 8:offset + 16])[0], 16
        elif size == 0:
            size = end - offset
        if size < header or offset + size > end:
            break
        found.append((offset, size, kind))
        body = offset + header
        if kind in CONTAINERS:
            walk_atoms(data, body, offset + size, depth + 1, found)
        elif kind == b"meta":
            walk_atoms(data, body + 4, offset + size, depth + 1, found)
        elif kind == b"stsd":
            walk_atoms(data, body + 8, offset + size, depth + 1, found)
        elif kind in VISUAL_ENTRIES:
            walk_atoms(data, body + 78, offset + size, depth + 1, found)
        elif kind in AUDIO_ENTRIES:
            walk_atoms(data, body + 28, offset + size, depth + 1, found)
        offset += size
    return found


def pick_atom(rng, data, prefer_tables):
    """An atom of `data`, favouring the tables; None when the file has no atom structure left."""
    atoms = walk_atoms(bytes(data))
    if not atoms:
        return None
    if prefer_tables:
        tables = [atom for atom in atoms if atom[2] in TABLES]
        if tables and rng.random() < 0.85:
            return rng.choice(tables)
    return rng.choice(atoms)


def put(data, offset, raw):
    """Overwrites bytes at `offset` (clipped to the file)."""
    raw = raw[:max(0, len(data) - offset)]
    data[offset:offset + len(raw)] = raw


def mutate_once(rng, data, others):
    """Applies one random mutation to `data` (a bytearray) and says what it did."""
    size = len(data)
    kind = rng.choices(
        ["bitflip", "byte", "int32", "atom-size", "atom-field", "atom-field", "atom-type", "truncate",
         "duplicate", "remove", "insert", "splice", "empty", "known-field", "table-entry"],
        weights=[10, 6, 10, 12, 12, 8, 4, 8, 5, 5, 3, 3, 1, 15, 30])[0]
    if size == 0 and kind not in ("insert", "splice"):
        kind = "splice"
    if kind == "bitflip":
        flips = [rng.randrange(size * 8) for _ in range(rng.randint(1, 8))]
        for bit in flips:
            data[bit // 8] ^= 1 << (bit % 8)
        return "bit flips at byte " + ",".join(f"{bit // 8:#x}.{bit % 8}" for bit in flips)
    if kind == "byte":
        offset = rng.randrange(size)
        value = rng.choice([0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF])
        count = rng.randint(1, 4)
        put(data, offset, bytes([value]) * count)
        return f"{count} byte(s) at {offset:#x} set to {value:#04x}"
    if kind == "int32":
        offset = rng.randrange(max(1, size - 3))
        value = interesting_u32(rng, size)
        put(data, offset, struct.pack(">I", value))
        return f"4-byte big-endian {value:#x} written at {offset:#x}"
    if kind == "table-entry":
        # An entry of a sample table: what the demuxer turns into index entries (sizes, offsets, times).
        atoms = [atom for atom in walk_atoms(bytes(data)) if atom[2] in INDEX_TABLES]
        if not atoms:
            return mutate_once(rng, data, others)
        offset, atom_size, atom_type = rng.choice(atoms)
        first, stride = INDEX_TABLES[atom_type]
        entries = (atom_size - first) // stride
        if entries < 1:
            return mutate_once(rng, data, others)
        entry = rng.randrange(entries)
        field = offset + first + stride * entry + 4 * rng.randrange(max(1, min(stride, 8) // 4))
        value = interesting_u32(rng, size, int.from_bytes(data[field:field + 4], "big"))
        put(data, field, struct.pack(">I", value))
        return f"entry {entry} of '{atom_type.decode('latin-1')}' (at {field:#x}) set to {value:#x}"
    if kind == "known-field":
        atoms = [atom for atom in walk_atoms(bytes(data)) if atom[2] in FIELDS]
        if not atoms:
            return mutate_once(rng, data, others)
        offset, atom_size, atom_type = rng.choice(atoms)
        at, width, field_name = rng.choice(FIELDS[atom_type])
        if at + width > atom_size:
            return mutate_once(rng, data, others)
        if width == 8:
            value = interesting_u64(rng, size)
        else:
            current = int.from_bytes(data[offset + at:offset + at + width], "big")
            value = interesting_u32(rng, size, current) % (1 << (8 * width))
            if width < 4 and rng.random() < 0.5:
                limit = 1 << (8 * width)
                value = rng.choice([0, 1, limit - 1, limit // 2, 16000 % limit])
        put(data, offset + at, value.to_bytes(width, "big"))
        return f"{field_name} of '{atom_type.decode('latin-1')}' at {offset + at:#x} set to {value:#x}"
    if kind in ("atom-size", "atom-field", "atom-type"):
        atom = pick_atom(rng, data, prefer_tables=True)
        if atom is None:
            return mutate_once(rng, data, others)
        offset, atom_size, atom_type = atom
        name = atom_type.decode("latin-1")
        if kind == "atom-size":
            current = struct.unpack(">I", data[offset:offset + 4])[0]
            value = interesting_u32(rng, size, current)
            put(data, offset, struct.pack(">I", value))
            return f"size of '{name}' at {offset:#x} changed from {current} to {value:#x}"
        if kind == "atom-type":
            new = rng.choice(RENAMES)
            put(data, offset + 4, new)
            return f"type of '{name}' at {offset:#x} renamed to {new!r}"
        # A field inside the atom: a 4-byte-aligned word after the header (or, sometimes, 8 bytes).
        words = (atom_size - 8) // 4
        if words < 1:
            return mutate_once(rng, data, others)
        field = offset + 8 + 4 * rng.randrange(min(words, 4096))
        if rng.random() < 0.15 and field + 8 <= offset + atom_size:
            value = interesting_u64(rng, size)
            put(data, field, struct.pack(">Q", value))
            return f"8-byte field at {field:#x} (+{field - offset} in '{name}') set to {value:#x}"
        current = struct.unpack(">I", bytes(data[field:field + 4]).ljust(4, b"\0"))[0]
        value = interesting_u32(rng, size, current)
        put(data, field, struct.pack(">I", value))
        return f"4-byte field at {field:#x} (+{field - offset} in '{name}') changed from {current} to {value:#x}"
    if kind == "truncate":
        how = rng.random()
        atom = pick_atom(rng, data, prefer_tables=False) if how < 0.4 else None
        if atom is not None:
            length = atom[0] + rng.choice([0, 4, 8, atom[1] // 2, atom[1] - 1])
        elif how < 0.55:
            length = rng.randrange(min(size, 64))
        else:
            length = rng.randrange(size)
        del data[length:]
        return f"truncated to {length} bytes"
    if kind == "duplicate":
        start = rng.randrange(size)
        length = rng.randint(1, min(4096, size - start))
        target = rng.randrange(size + 1)
        data[target:target] = data[start:start + length]
        return f"{length} bytes from {start:#x} duplicated at {target:#x}"
    if kind == "remove":
        start = rng.randrange(size)
        length = rng.randint(1, min(4096, size - start))
        del data[start:start + length]
        return f"{length} bytes removed at {start:#x}"
    if kind == "insert":
        target = rng.randrange(size + 1)
        length = rng.randint(1, 64)
        data[target:target] = bytes(rng.randrange(256) for _ in range(length))
        return f"{length} random bytes inserted at {target:#x}"
    if kind == "splice":
        name, other = rng.choice(others)
        start = rng.randrange(len(other))
        length = rng.randint(1, min(8192, len(other) - start))
        target = rng.randrange(size + 1)
        data[target:target] = other[start:start + length]
        return f"{length} bytes from {name} at {start:#x} spliced in at {target:#x}"
    data[:] = b""
    return "emptied"


def make_case(seed, index, clips, stills):
    """The command and mutated input for input number `index`: a pure function of (seed, index)."""
    rng = random.Random(f"{seed}:{index}")
    command = rng.choices(["inspect", "thumbnail", "cube"], weights=[40, 35, 25])[0]
    pool = clips + stills if command == "cube" else clips
    source = rng.choice(pool)
    data = bytearray(source[1])
    mutations = [mutate_once(rng, data, clips) for _ in range(rng.choice([1, 1, 1, 1, 2, 2, 3]))]
    extension = os.path.splitext(source[0])[1]
    case = {"index": index, "command": command, "source": source[0], "mutations": mutations,
            "inputs": {"input" + extension: bytes(data)}}
    timeout_placeholder = "{timeout}"
    if command == "inspect":
        arguments = ["inspect", "--jobs", "1", "--timeout", timeout_placeholder]
        if rng.random() < 0.7:
            arguments.append("--json")
        arguments.append("input" + extension)
        if rng.random() < 0.2:
            good = rng.choice(clips)
            good_name = "good" + os.path.splitext(good[0])[1]
            case["inputs"][good_name] = good[1]
            arguments.append(good_name)
        case["expect"] = []
    elif command == "thumbnail":
        variant = rng.choice([
            (["-o", "out/poster.jpg"], "out/poster.jpg"),
            (["-o", "out/poster.png", "--at", "50%"], "out/poster.png"),
            (["-o", "out/poster.webp", "--at", "99", "--height", "64"], "out/poster.webp"),
            (["-o", "out/poster.jpg", "--at", "0"], "out/poster.jpg"),
            (["--out-dir", "out/posters", "--format", "png"], "out/posters/input.png"),
        ])
        arguments = ["thumbnail", "input" + extension] + variant[0]
        arguments += ["--width", "64", "--jobs", "1", "--timeout", timeout_placeholder]
        case["expect"] = [variant[1]]
    else:
        good = rng.choice(clips + stills[:1])
        good_name = "face" + os.path.splitext(good[0])[1]
        case["inputs"][good_name] = good[1]
        pair = ["input" + extension, good_name]
        if rng.random() < 0.5:
            pair.reverse()
        arguments = ["cube"] + pair + ["--size", "64x64", "--duration", "0.2", "--fps", "15"]
        arguments += ["--timeout", timeout_placeholder, "--quiet"]
        expect = []
        outputs = rng.choice([["video"], ["video"], ["video", "filmstrip"], ["frames"], ["video", "frames"]])
        if "video" in outputs:
            arguments += ["-o", "out/cube.mp4"]
            expect.append("out/cube.mp4")
        if "filmstrip" in outputs:
            arguments += ["--filmstrip", "out/strip.png"]
            expect.append("out/strip.png")
        if "frames" in outputs:
            arguments += ["--frames-dir", "out/frames"]
            expect.append("out/frames/frame_0000.png")
            case["frames_dir"] = "out/frames"
        if rng.random() < 0.3:
            arguments += ["--direction", "backward"]
        if rng.random() < 0.1:
            arguments += ["--codec", "hevc"]
        case["expect"] = expect
    case["arguments"] = arguments
    return case


def describe_exit(code):
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return f"exit {code}"


def first_fatal_line(stderr):
    """Swift's `Fatal error: …` line, or the last stderr line: what a reader needs to group failures."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "Fatal error" in line or "fatal error" in line:
            return line.strip()[:240]
    return lines[-1].strip()[:240] if lines else "(nothing on stderr)"


def leftovers(folder, inputs):
    """Dot-files and temp files anywhere in the case folder, and every non-input file, relative.
    The records of what storyreel wrote in a folder it was given (cube `--frames-dir`'s
    `.storyreel-frames`, thumbnail `--out-dir`'s `.storyreel-posters`) are outputs."""
    hidden, files = [], []
    for directory, folders, names in os.walk(folder):
        for name in folders + names:
            relative = os.path.relpath(os.path.join(directory, name), folder)
            if name in (".storyreel-frames", ".storyreel-posters") and name in names:
                continue
            if name.startswith(".") or name.endswith(".storyreel-tmp"):
                hidden.append(relative)
        for name in names:
            relative = os.path.relpath(os.path.join(directory, name), folder)
            if relative not in inputs:
                files.append(relative)
    return sorted(hidden), sorted(files)


def run_case(case, binary, work, timeout, slack):
    """Runs one case in a fresh folder; returns a list of problems (empty when it passed)."""
    folder = os.path.join(work, f"{case['index']:06d}")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "out"))
    for name, data in case["inputs"].items():
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(data)
    arguments = [argument.replace("{timeout}", str(timeout)) for argument in case["arguments"]]
    environment = dict(os.environ)
    environment.setdefault("SWIFT_BACKTRACE", "enable=no")
    started = time.monotonic()
    process = subprocess.Popen([binary] + arguments, cwd=folder, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
                               start_new_session=True)
    hung = False
    try:
        stdout, stderr = process.communicate(timeout=timeout + slack)
    except subprocess.TimeoutExpired:
        hung = True
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
    seconds = time.monotonic() - started
    code = process.returncode
    stdout = stdout.decode("utf-8", "replace")
    stderr = stderr.decode("utf-8", "replace")
    problems = []
    if hung:
        problems.append(f"hang: still running {timeout + slack} s after the start (--timeout {timeout}); killed")
    elif code < 0:
        problems.append(f"{describe_exit(code)}: {first_fatal_line(stderr)}")
    elif code not in ALLOWED_EXITS:
        problems.append(f"exit {code}, outside {sorted(ALLOWED_EXITS)}: {first_fatal_line(stderr)}")
    if not hung:
        hidden, files = leftovers(folder, set(case["inputs"]))
        if hidden:
            problems.append("left hidden or temporary files: " + ", ".join(hidden))
        if code != 0 and files:
            problems.append(f"{describe_exit(code)} but left output files: " + ", ".join(files[:5]))
        if code != 0 and "frames_dir" in case and os.path.isdir(os.path.join(folder, case["frames_dir"])):
            problems.append(f"{describe_exit(code)} but left the --frames-dir folder it created")
        for name, data in case["inputs"].items():
            with open(os.path.join(folder, name), "rb") as handle:
                if handle.read() != data:
                    problems.append(f"changed its input {name}")
        if code == 0:
            missing = [path for path in case["expect"]
                       if not os.path.isfile(os.path.join(folder, path))
                       or os.path.getsize(os.path.join(folder, path)) == 0]
            if missing:
                problems.append("exit 0 without writing " + ", ".join(missing))
            if case["command"] == "inspect" and "--json" in arguments and not stdout.lstrip().startswith("["):
                problems.append("exit 0 without a JSON array on stdout")
    return {"problems": problems, "arguments": arguments, "stderr": stderr, "code": code, "seconds": seconds,
            "folder": folder}


def save_reproducer(case, outcome, seed, binary, crashes):
    """Copies a failing case's inputs to crashes/ with its command and stderr; returns the folder."""
    folder = os.path.join(crashes, f"seed{seed}-{case['index']:06d}-{case['command']}")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, data in case["inputs"].items():
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(data)
    with open(os.path.join(folder, "command.txt"), "w") as handle:
        handle.write(f"seed {seed}, index {case['index']}: {case['command']}\n")
        handle.write(f"made from {case['source']} by:\n")
        for mutation in case["mutations"]:
            handle.write(f"  - {mutation}\n")
        handle.write("problems:\n")
        for problem in outcome["problems"]:
            handle.write(f"  - {problem}\n")
        handle.write(f"rerun (in this folder, with an empty out/):\n  mkdir -p out && "
                     f"{shlex.join([binary] + outcome['arguments'])}\n")
    with open(os.path.join(folder, "stderr.txt"), "w") as handle:
        handle.write(outcome["stderr"])
    return folder


def shown(path):
    """`path` relative to the package when it is inside it, else absolute."""
    relative = os.path.relpath(path, ROOT)
    return path if relative.startswith("..") else relative


def load_corpus():
    """(relative path, bytes) of every sample clip and every story avatar, sorted by path."""
    clips, stills = [], []
    folders = [os.path.join(ROOT, "samples")]
    stories = os.path.join(ROOT, "samples", "stories")
    if os.path.isdir(stories):
        folders += sorted(os.path.join(stories, name) for name in os.listdir(stories))
    for folder in folders:
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not os.path.isfile(path) or name.startswith("."):
                continue
            with open(path, "rb") as handle:
                entry = (os.path.relpath(path, ROOT), handle.read())
            if name.lower().endswith(CLIP_EXTENSIONS):
                clips.append(entry)
            elif name.lower().endswith(STILL_EXTENSIONS):
                stills.append(entry)
    return clips, stills


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="inputs to run (default 2000)")
    parser.add_argument("--seed", default="1", help="the seed (default 1)")
    parser.add_argument("--bin", default=os.environ.get("STORYREEL_BIN") or
                        os.path.join(ROOT, ".build", "release", "storyreel"), help="the storyreel binary")
    parser.add_argument("--jobs", type=int, default=2, help="inputs run at once (default 2)")
    parser.add_argument("--timeout", type=float, default=5, help="storyreel's --timeout (default 5 s)")
    parser.add_argument("--slack", type=float, default=10, help="seconds past --timeout before a hang (10)")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "fuzz"), help="work and crash folder")
    parser.add_argument("--log", help="also write one JSON line per input (exit, seconds, stderr) to this file")
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    if not os.access(binary, os.X_OK):
        sys.exit(f"fuzz: no storyreel binary at {binary}; build it or set STORYREEL_BIN")
    clips, stills = load_corpus()
    if not clips:
        sys.exit("fuzz: no sample clips under samples/")
    work = os.path.join(options.out, "work")
    crashes = os.path.join(options.out, "crashes")
    for folder in (work, crashes):  # reproducers of an earlier run would be mistaken for this one's
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    print(f"fuzz: {options.count} inputs, seed {options.seed}, {len(clips)} clips + {len(stills)} stills, "
          f"{binary}, {options.jobs} workers", flush=True)
    started = time.monotonic()
    failures = []
    counts = {}

    def one(index):
        case = make_case(options.seed, index, clips, stills)
        outcome = run_case(case, binary, work, options.timeout, options.slack)
        if outcome["problems"]:
            outcome["reproducer"] = save_reproducer(case, outcome, options.seed, binary, crashes)
        shutil.rmtree(outcome["folder"], ignore_errors=True)
        return case, outcome

    log = open(options.log, "w") if options.log else None
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for case, outcome in pool.map(one, range(options.count)):
            done += 1
            counts[case["command"]] = counts.get(case["command"], 0) + 1
            if log:
                record = {"index": case["index"], "command": case["command"], "source": case["source"],
                          "mutations": case["mutations"], "arguments": outcome["arguments"],
                          "exit": outcome["code"], "seconds": round(outcome["seconds"], 3),
                          "problems": outcome["problems"], "stderr": outcome["stderr"][-2000:]}
                log.write(json.dumps(record) + "\n")
            if outcome["problems"]:
                failures.append((case, outcome))
                print(f"FAIL seed={options.seed} index={case['index']} {case['command']}: "
                      f"{'; '.join(outcome['problems'])} | {case['source']}: {'; '.join(case['mutations'])} "
                      f"| reproducer {shown(outcome['reproducer'])}/", flush=True)
            if done % 200 == 0 and done < options.count:
                print(f"fuzz: {done}/{options.count} run, {len(failures)} failed, "
                      f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    if log:
        log.close()
    shutil.rmtree(work, ignore_errors=True)
    elapsed = time.monotonic() - started
    ran = ", ".join(f"{counts[name]} {name}" for name in sorted(counts))
    print(f"fuzz: {options.count} inputs ({ran}) in {elapsed:.0f} s: {len(failures)} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
