#!/usr/bin/env python3
"""Play The Man in the Moon against the engine in a terminal, through libmoon_c and ctypes.

    play.py [--side x|o] [--depth N]   you against the engine: type moves, or 'hint', 'undo'
                                       (your last move and the reply), 'help', 'quit'
    play.py --auto                     the engine against itself (x depth 6, o depth 3: the
                                       game of examples/play_game.c and play_game.cpp)

Moves are read from standard input one per line (or several per line, separated by spaces),
so a game can be scripted: printf 'b4\\nc2\\n' | play.py. The end of input ends the program.
Output is written line by line even into a pipe, so that a program driving the game can wait
for a line (the 'legal:' list, the engine's move) before it answers. (The 'your move:' prompt is
written only when standard input is a terminal.)
The library is found with --library PATH, else $MOON_C_LIBRARY, else the system's search.
"""

import argparse
import ctypes
import ctypes.util
import os
import sys

MOVE_TEXT_SIZE = 8
POSITION_TEXT_SIZE = 64
SQUARES_TEXT_SIZE = 80
DRAW_TEXT_SIZE = 1024
PV_TEXT_SIZE = 512
MAX_MOVES = 128
PHASE_OVER = 2
RESULTS = {1: "x wins", 2: "o wins", 3: "draw"}
SCORE_KINDS = {0: "cp", 1: "win", 2: "loss", 3: "draw"}


# The structs of include/moon/moon.h, field for field.
class Rules(ctypes.Structure):
    _fields_ = [("slide", ctypes.c_int), ("diagonal", ctypes.c_int), ("clock_limit", ctypes.c_int)]


class PositionInfo(ctypes.Structure):
    _fields_ = [
        ("phase", ctypes.c_int),
        ("side_to_move", ctypes.c_int),
        ("on_board", ctypes.c_int * 2),
        ("in_hand", ctypes.c_int * 2),
        ("pieces", ctypes.c_uint32 * 2),
        ("clock", ctypes.c_int),
        ("clock_limit", ctypes.c_int),
        ("fullmove", ctypes.c_int),
        ("result", ctypes.c_int),
        ("legal_move_count", ctypes.c_int),
    ]


class Move(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char * MOVE_TEXT_SIZE), ("captures", ctypes.c_uint32),
                ("capture_count", ctypes.c_int)]


class EngineOptions(ctypes.Structure):
    _fields_ = [("hash_mb", ctypes.c_size_t), ("threads", ctypes.c_int), ("solver_hash_mb", ctypes.c_size_t)]


class SearchLimits(ctypes.Structure):
    _fields_ = [
        ("depth", ctypes.c_int),
        ("nodes", ctypes.c_uint64),
        ("movetime_ms", ctypes.c_int64),
        ("time_left_ms", ctypes.c_int64),
        ("increment_ms", ctypes.c_int64),
        ("multipv", ctypes.c_int),
        ("analysis", ctypes.c_int),
    ]


class SearchInfo(ctypes.Structure):
    _fields_ = [
        ("best_move", ctypes.c_char * MOVE_TEXT_SIZE),
        ("score_kind", ctypes.c_int),
        ("score_value", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("nodes", ctypes.c_uint64),
        ("nps", ctypes.c_uint64),
        ("time_ms", ctypes.c_int64),
        ("pv", ctypes.c_char * PV_TEXT_SIZE),
        ("multipv", ctypes.c_int),
        ("lines", ctypes.c_int),
        ("hashfull", ctypes.c_int),
    ]


# moon_search_callback: called once for each line of each completed iteration.
SEARCH_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.POINTER(SearchInfo), ctypes.c_void_p)


def score_text(info):
    """A search line's score as moon prints it: 'cp 12', 'win 7', 'loss 4' or 'draw'."""
    text = SCORE_KINDS[info.score_kind]
    return text if info.score_kind == 3 else "%s %d" % (text, info.score_value)


class MoonError(Exception):
    """A call of the C API failed; the message is the library's."""


class Library:
    """libmoon_c with the prototypes declared, and each status checked."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        p = ctypes.POINTER
        status = ctypes.c_int
        prototypes = {
            "moon_last_error": (ctypes.c_char_p, []),
            "moon_status_name": (ctypes.c_char_p, [status]),
            "moon_version": (ctypes.c_char_p, []),
            "moon_position_new": (status, [p(Rules), p(ctypes.c_void_p)]),
            "moon_position_copy": (status, [ctypes.c_void_p, p(ctypes.c_void_p)]),
            "moon_position_free": (None, [ctypes.c_void_p]),
            "moon_position_to_string": (status, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]),
            "moon_position_get_info": (status, [ctypes.c_void_p, p(PositionInfo)]),
            "moon_position_legal_moves": (status, [ctypes.c_void_p, p(Move), ctypes.c_size_t,
                                                   p(ctypes.c_size_t)]),
            "moon_position_play": (status, [ctypes.c_void_p, ctypes.c_char_p, p(ctypes.c_uint32)]),
            "moon_position_draw": (status, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]),
            "moon_squares_to_string": (status, [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t]),
            "moon_engine_new": (status, [p(EngineOptions), p(ctypes.c_void_p)]),
            "moon_engine_free": (None, [ctypes.c_void_p]),
            "moon_engine_stop": (status, [ctypes.c_void_p]),
            "moon_engine_search": (status, [ctypes.c_void_p, ctypes.c_void_p, p(SearchLimits), ctypes.c_void_p,
                                            ctypes.c_void_p, p(SearchInfo)]),
        }
        for name, (restype, argtypes) in prototypes.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        self.lib = lib

    def call(self, name, *args):
        status = getattr(self.lib, name)(*args)
        if status != 0:
            raise MoonError("%s: %s" % (self.lib.moon_status_name(status).decode(),
                                        self.lib.moon_last_error().decode()))

    def squares(self, mask):
        text = ctypes.create_string_buffer(SQUARES_TEXT_SIZE)
        self.call("moon_squares_to_string", mask, text, len(text))
        return text.value.decode()


class Game:
    """A position handle: moves, the board and the state, as Python values."""

    def __init__(self, library, handle=None):
        """The start position, or the position `handle` (which the Game then owns)."""
        self.library = library
        if handle is None:
            handle = ctypes.c_void_p()
            library.call("moon_position_new", None, ctypes.byref(handle))
        self.handle = handle

    def copy(self):
        handle = ctypes.c_void_p()
        self.library.call("moon_position_copy", self.handle, ctypes.byref(handle))
        return Game(self.library, handle)

    def close(self):
        """Frees the position; a second call does nothing."""
        if self.handle:
            self.library.lib.moon_position_free(self.handle)
            self.handle = None

    def info(self):
        info = PositionInfo()
        self.library.call("moon_position_get_info", self.handle, ctypes.byref(info))
        return info

    def legal_moves(self):
        moves = (Move * MAX_MOVES)()
        count = ctypes.c_size_t()
        self.library.call("moon_position_legal_moves", self.handle, moves, MAX_MOVES, ctypes.byref(count))
        return [(m.text.decode(), m.captures) for m in moves[:count.value]]

    def play(self, move):
        """Plays the move text; returns the squares captured. MoonError says why a move is refused."""
        captured = ctypes.c_uint32()
        # Bytes that are not text (read from a binary stream) become '?', which the library refuses.
        self.library.call("moon_position_play", self.handle, move.encode("utf-8", "replace"), ctypes.byref(captured))
        return captured.value

    def text(self):
        text = ctypes.create_string_buffer(POSITION_TEXT_SIZE)
        self.library.call("moon_position_to_string", self.handle, text, len(text))
        return text.value.decode()

    def drawing(self):
        text = ctypes.create_string_buffer(DRAW_TEXT_SIZE)
        self.library.call("moon_position_draw", self.handle, text, len(text))
        return text.value.decode()


class Engine:
    """An engine handle searching to a fixed depth."""

    def __init__(self, library, depth, hash_mb):
        self.library = library
        self.limits = SearchLimits(depth=depth)
        self.handle = ctypes.c_void_p()
        options = EngineOptions(hash_mb=hash_mb, threads=1, solver_hash_mb=0)
        library.call("moon_engine_new", ctypes.byref(options), ctypes.byref(self.handle))

    def close(self):
        self.library.lib.moon_engine_free(self.handle)

    def best_move(self, game):
        info = SearchInfo()
        self.library.call("moon_engine_search", self.handle, game.handle, ctypes.byref(self.limits), None, None,
                          ctypes.byref(info))
        return info.best_move.decode(), "depth %d, score %s" % (info.depth, score_text(info))

    def hint(self, game, lines=3):
        """The best move and the next lines - 1 best, from one search of that many lines (multi-PV):
        'b4 (depth 3, score cp 30; then c4 cp 18, d5 cp 12)'."""
        limits = SearchLimits(depth=self.limits.depth, multipv=lines, analysis=1)  # scores wanted
        last = []  # the deepest completed iteration's lines: (move, score text, score kind, value)

        def keep(info, _user_data):
            line = info.contents
            if line.multipv == 1:
                del last[:]
            last.append((line.best_move.decode(), score_text(line), line.score_kind, line.score_value))
            # Once the best line is a win or loss within the depth searched, the search ends, as
            # a search of one line would: the other lines are extras.
            _, _, kind, value = last[0]
            if line.multipv == line.lines and kind in (1, 2) and value <= line.depth:
                self.library.call("moon_engine_stop", self.handle)

        callback = SEARCH_CALLBACK(keep)  # kept alive until the search returns
        info = SearchInfo()
        self.library.call("moon_engine_search", self.handle, game.handle, ctypes.byref(limits),
                          ctypes.cast(callback, ctypes.c_void_p), None, ctypes.byref(info))
        # Each line's score is its own move's (the result's is the position's, a proven draw
        # only when every move is proven): the lines' are shown, all of one kind.
        if last and last[0][0] == info.best_move.decode():
            text = "%s (depth %d, score %s" % (last[0][0], info.depth, last[0][1])
            if len(last) > 1:
                text += "; then " + ", ".join("%s %s" % line[:2] for line in last[1:])
            return text + ")"
        return "%s (depth %d, score %s)" % (info.best_move.decode(), info.depth, score_text(info))


def find_library(explicit):
    for candidate in (explicit, os.environ.get("MOON_C_LIBRARY")):
        if candidate:
            # A path with no directory would make ctypes search the system's directories only.
            return os.path.abspath(candidate) if os.path.exists(candidate) else candidate
    found = ctypes.util.find_library("moon_c")
    if found:
        return found
    sys.exit("play.py: libmoon_c not found; give --library PATH or set MOON_C_LIBRARY")


def move_line(library, ply, side, move, captured):
    line = "%3d. %s %s" % (ply, side, move)
    if captured:
        line += " " * (4 - len(move)) + "  captures " + library.squares(captured)
    return line


def finish(library, game, moves):
    info = game.info()
    print("result: %s (x %d, o %d counters)" % (RESULTS[info.result], info.on_board[0], info.on_board[1]))
    print("moves: " + " ".join(moves))
    print("position: " + game.text())


def auto_game(library):
    """x at depth 6 against o at depth 3, printed as the C and C++ examples print it."""
    engines = [Engine(library, 6, 16), Engine(library, 3, 4)]
    game = Game(library)
    try:
        print("x: depth 6; o: depth 3")
        moves = []
        info = game.info()
        while info.phase != PHASE_OVER:
            side = info.side_to_move
            move, _ = engines[side].best_move(game)
            captured = game.play(move)
            moves.append(move)
            print(move_line(library, len(moves), "xo"[side], move, captured))
            info = game.info()
        finish(library, game, moves)
    finally:
        game.close()
        for engine in engines:
            engine.close()


def read_moves(stream):
    """Yields the words of the input, one at a time, as the game asks for them."""
    for line in stream:
        for word in line.split():
            yield word


def human_game(library, human_side, depth):
    engine = Engine(library, depth, 16)
    game = Game(library)
    words = read_moves(sys.stdin)
    interactive = sys.stdin.isatty()
    snapshots = []  # (the position, the number of moves) before each of your moves, for undo
    try:
        moves = []
        print("You play %s, the engine (depth %d) plays %s. x moves first." % (human_side, depth,
                                                                               "o" if human_side == "x" else "x"))
        info = game.info()
        while info.phase != PHASE_OVER:
            side = "xo"[info.side_to_move]
            if side == human_side:
                print(game.drawing(), end="")
                legal = game.legal_moves()
                print("legal: " + " ".join(m + ("(x%d)" % bin(c).count("1") if c else "") for m, c in legal))
                if interactive:
                    print("your move: ", end="", flush=True)
                move = next(words, None)
                if move is None or move == "quit":
                    print("\nthe game is left unfinished")
                    return
                if move == "help":
                    print("type a move: b4 (place), b3c3 (move; captures are automatic), 0000 (pass); "
                          "or hint, undo, quit")
                    continue
                if move == "hint":
                    print("hint: " + engine.hint(game))
                    continue
                if move == "undo":
                    if not snapshots:
                        print("nothing to undo")
                        continue
                    taken_back = game
                    game, count = snapshots.pop()
                    taken_back.close()
                    del moves[count:]
                    print("taken back: your last move and the engine's reply")
                    info = game.info()
                    continue
                before = game.copy()
                try:
                    captured = game.play(move)
                except MoonError as error:
                    before.close()
                    print("refused: " + str(error))
                    continue
                except BaseException:
                    before.close()
                    raise
                snapshots.append((before, len(moves)))
            else:
                move, why = engine.best_move(game)
                captured = game.play(move)
                print("engine plays %s (%s)" % (move, why))
            moves.append(move)
            print(move_line(library, len(moves), side, move, captured))
            info = game.info()
        print(game.drawing(), end="")
        finish(library, game, moves)
    finally:
        game.close()
        for before, _ in snapshots:
            before.close()
        engine.close()


def main():
    parser = argparse.ArgumentParser(description="Play The Man in the Moon against the moon engine.")
    parser.add_argument("--library", help="path of libmoon_c (default: $MOON_C_LIBRARY or the system's search)")
    parser.add_argument("--auto", action="store_true",
                        help="the engine plays both sides, x at depth 6 and o at depth 3 (the game of "
                             "examples/play_game.c); takes no --side or --depth")
    parser.add_argument("--side", choices=["x", "o"], help="your side (default x, who starts)")
    parser.add_argument("--depth", type=int, help="the engine's search depth (default 4)")
    args = parser.parse_args()
    if args.auto and (args.side is not None or args.depth is not None):
        # Said rather than ignored: the auto game is the fixed one the C and C++ examples play.
        parser.error("--auto plays x at depth 6 against o at depth 3: --side and --depth are for a game against you")
    side = args.side or "x"
    depth = 4 if args.depth is None else args.depth
    if not 1 <= depth <= 100:
        parser.error("--depth must be from 1 to 100")
    # Line by line into a pipe too (Python buffers a pipe's output in blocks otherwise, and a
    # program that waits for a line, such as 'legal:', before it answers would wait for ever).
    sys.stdout.reconfigure(line_buffering=True)
    path = find_library(args.library)
    try:
        library = Library(path)
    except OSError as e:  # not there, or not a library this Python can load
        sys.exit(f"play.py: cannot load libmoon_c from {path}: {e}")
    try:
        if args.auto:
            auto_game(library)
        else:
            human_game(library, side, depth)
    except MoonError as error:
        sys.exit("play.py: " + str(error))


if __name__ == "__main__":
    main()
