#!/usr/bin/env python3
"""Runs every example of README.md, so that none can go stale.

    Scripts/check-readme.py --ferry PATH [--readme README.md] [--keep]

The README has two kinds of example:

- **Transcripts**: a fenced block with no language whose first line starts
  with `$ `. Each `$ ` line is a command; the lines up to the next `$ ` are
  what it prints (standard output, then standard error). The command runs
  and its output must be those lines exactly.
- **Command blocks**: fenced `sh` blocks. Each line is a command (`#` starts
  a comment); each must exit 0. Their output is not compared: they show
  what to type, not what comes back.

Each block runs in a scratch folder of its own that holds a copy of
`Examples/`, as a user who follows the README in a clone would; a file one
line of a block writes is there for the next lines of that block. `ferry` is the binary
given by --ferry (first on PATH); `LANG=C` so messages are English and no
terminal is attached, so no progress bar shows. A few inputs that the
README names as the user's own (a spreadsheet export, a feed) are made by
`make_users_files` below, before the first example.

Not run, each for its reason:
- lines starting with `swift ` (the build and the tests, which CI runs in
  its own steps; `swift run ferry X` runs as `ferry X`), `install ` and
  `apt-get ` (they change the machine);
- a block right after a line `<!-- readme-check: skip (why) -->`.

Exit status: 0 when every example did what it shows, 1 otherwise, with a
diff of each difference.
"""
import argparse
import difflib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\s*$")
SKIP_MARK = re.compile(r"^<!--\s*readme-check:\s*skip\b.*-->\s*$")
NOT_RUN = ("install ", "apt-get ")


def blocks(text):
    """Yields (line number, language, lines, skipped) for each fenced block."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        skipped = index > 0 and SKIP_MARK.match(lines[index - 1].strip()) is not None
        # A blank line between the mark and the fence is allowed.
        if not skipped and index > 1 and lines[index - 1].strip() == "":
            skipped = SKIP_MARK.match(lines[index - 2].strip()) is not None
        start = index + 1
        end = start
        while end < len(lines) and not FENCE.match(lines[end]):
            end += 1
        yield start, match.group(1), lines[start:end], skipped
        index = end + 1


def make_users_files(folder):
    """The user's own inputs the README's examples name."""
    # An Excel export from Windows with a ragged row ("ferry convert
    # excel-export.csv clean.json --encoding windows-1252 --ragged pad").
    (folder / "excel-export.csv").write_bytes(
        "name,price,sku\r\nCaf\u00e9 cr\u00e8me \u20ac,3.50,GS-9\r\nWii,269.00\r\n".encode("cp1252"))
    # A CSV export of products for the merge example.
    (folder / "export.csv").write_text("name,price,sku\nXbox 360,299.00,GS-1\nWii,269.00,GS-2\n")
    # A JSON feed for the merge example.
    (folder / "feed.json").write_text(
        '[{"name": "Wii", "price": 249.00, "sku": "GS-2"},\n'
        ' {"name": "Wii U", "price": 299.00, "sku": "GS-4"}]\n')
    # A feed that wraps its records in an object (the --records-at examples).
    (folder / "wrapped.json").write_text(
        '{"count": 2, "products": [{"name": "Wii", "price": 269},\n  {"name": "Xbox 360", "price": 299}]}\n')
    # A photo for the edit example.
    shutil.copy(ROOT / "Examples" / "photos" / "wii.png", folder / "wii.png")


def command_of(line):
    """The command a block line runs, or None when it is not run."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    if line.startswith("swift run ferry "):
        return "ferry " + line[len("swift run ferry "):]
    if line.startswith("swift ") or line.startswith(NOT_RUN):
        return None
    return line


def run(command, folder, env):
    completed = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env,
        stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    return completed.returncode, completed.stdout.decode(errors="replace"), completed.stderr.decode(errors="replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ferry", required=True, help="the ferry binary to run")
    parser.add_argument("--readme", default=str(ROOT / "README.md"))
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder and print its path")
    args = parser.parse_args()

    ferry = pathlib.Path(args.ferry).resolve()
    if not os.access(ferry, os.X_OK):
        sys.exit(f"check-readme: {ferry} is not an executable")
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="ferry-readme-"))
    bin_folder = scratch / "bin"
    bin_folder.mkdir()
    (bin_folder / "ferry").symlink_to(ferry)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG="C", PATH=f"{bin_folder}:{os.environ.get('PATH', '/usr/bin:/bin')}")

    def fresh_folder(number):
        folder = scratch / f"block-{number}"
        shutil.copytree(ROOT / "Examples", folder / "Examples",
                        ignore=shutil.ignore_patterns(".build", "spark", "PluginCodec"))
        make_users_files(folder)
        return folder

    readme = pathlib.Path(args.readme)
    failures = 0
    ran = 0
    for start, language, lines, skipped in blocks(readme.read_text()):
        if skipped:
            continue
        where = f"{readme.name}:{start + 1}"
        if language not in ("", "sh"):
            continue
        folder = fresh_folder(start)
        if language == "" and lines and lines[0].startswith("$ "):
            # A transcript: commands and what each prints.
            index = 0
            while index < len(lines):
                command = lines[index][2:]
                shown = []
                index += 1
                while index < len(lines) and not lines[index].startswith("$ "):
                    shown.append(lines[index])
                    index += 1
                while shown and shown[-1] == "":
                    shown.pop()
                status, out, err = run(command, folder, env)
                ran += 1
                printed = (out + err).rstrip("\n").split("\n") if (out + err) else []
                if printed != shown:
                    failures += 1
                    print(f"{where}: `{command}` (exit {status}) printed other lines than the README shows:")
                    sys.stdout.writelines(difflib.unified_diff(
                        [l + "\n" for l in shown], [l + "\n" for l in printed], "README", "ferry"))
        elif language == "sh":
            for offset, line in enumerate(lines):
                command = command_of(line)
                if command is None:
                    continue
                status, out, err = run(command, folder, env)
                ran += 1
                if status != 0:
                    failures += 1
                    print(f"{readme.name}:{start + 1 + offset}: `{command}` exited {status}:\n{out}{err}")
    if args.keep:
        print(f"scratch folder: {scratch}")
    else:
        shutil.rmtree(scratch)
    print(f"check-readme: {ran} commands, {failures} not as the README shows")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
