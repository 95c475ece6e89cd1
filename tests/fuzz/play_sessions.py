#!/usr/bin/env python3
"""Random sessions of `moon play`, whose loop reads standard input and searches for each engine
move, so it has no in-process fuzz target: random flags (some invalid), then lines of moves,
commands, empty lines, garbage bytes and very long lines. Each session must end by itself with
exit status 0 (the game ended or was abandoned) or 2 (a refused flag), within the time limit,
without a sanitizer report. The seed makes the sessions the same on every run.

usage: play_sessions.py MOON_PROGRAM SESSIONS SEED
"""
import random
import subprocess
import sys

SQUARES = [f + r for f in "abcde" for r in "12345"]
FENS = ["5/5/5/5/5 x 12 12 0 1", "xo3/5/2x2/5/o4 x", "1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9",
        "xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13", "5/1x3/2o2/3x1/5 x 0 0 3 40",
        "2x2/o3o/5/1x3/2o1x o 0 0 12 50", "xo2o/1x1xo/2o2/x1x2/o3x x 0 0 19 31", "bad fen", ""]
WORDS = ["undo", "hint", "moves", "quit", "0000", "", " ", "UNDO", "b4 c4", "\x00", "\xff\xfe", "x" * 5000,
         "help", "?"]


def session(rng, moon):
    args = [moon, "play", "--depth", str(rng.choice([1, 1, 2, 2, 0]))]
    if rng.random() < 0.5:
        args += ["--side", rng.choice(["x", "o", "x", "o", "z"])]
    if rng.random() < 0.6:
        args += ["--fen", rng.choice(FENS)]
    if rng.random() < 0.2:
        args.append("--slide")
    if rng.random() < 0.2:
        args.append("--diagonal")
    if rng.random() < 0.2:
        args += ["--clock-limit", str(rng.choice([1, 2, 3, 255, 256, 0]))]
    lines = []
    for _ in range(rng.randint(0, 60)):
        r = rng.random()
        if r < 0.45:
            lines.append(rng.choice(SQUARES))
        elif r < 0.8:
            lines.append(rng.choice(SQUARES) + rng.choice(SQUARES))
        else:
            lines.append(rng.choice(WORDS))
    text = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
    return args, text.encode("latin1")


def main():
    moon, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    statuses = {}
    for _ in range(count):
        args, data = session(rng, moon)
        try:
            run = subprocess.run(args, input=data, capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            print("a session did not end within 60 s:", args, data[:200])
            return 1
        err = run.stderr.decode("latin1")
        if run.returncode not in (0, 2) or "Sanitizer" in err or "runtime error" in err:
            print("exit status", run.returncode, args, data[:300], err[-3000:])
            return 1
        statuses[run.returncode] = statuses.get(run.returncode, 0) + 1
    print(f"{count} sessions: {statuses.get(0, 0)} ended with status 0, {statuses.get(2, 0)} with 2")
    # Both kinds must occur, or the sessions no longer reach what they are meant to.
    return 0 if statuses.get(0) and statuses.get(2) else 1


if __name__ == "__main__":
    sys.exit(main())
