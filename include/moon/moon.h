/* The moon C API: the engine for The Man in the Moon (1890) from C, or from any language
 * that can call C (Python's ctypes, for instance). Library: libmoon_c (CMake: moon::moon_c).
 *
 * Conventions
 * - Strict C99. No C++ type and no exception crosses this boundary.
 * - Handles are opaque: moon_position (a game position under its rules) and moon_engine
 *   (a searcher and a solver with their tables). Create them with the functions below and
 *   release them with the matching *_free function (which accepts NULL).
 * - Every function that can fail returns a moon_status: MOON_OK (0) on success. On failure
 *   nothing has changed (no handle is modified, no output is written except on
 *   MOON_ERROR_BUFFER_TOO_SMALL, see below) and moon_last_error() returns a message that
 *   says what is wrong. It starts with the function's name ("moon_position_play: move is
 *   NULL"), except for text refused as a position or a move (MOON_ERROR_PARSE,
 *   MOON_ERROR_ILLEGAL_MOVE), whose message says what is wrong with the text, quoting the part
 *   at fault where one part is, and is meant to be shown as it is to whoever typed it
 *   ("'c3' is illegal: no counter may be placed on c3"; "x would own 15 counters (board and
 *   hand); at most 12").
 *   The only functions without a status are those that cannot fail: the *_free functions,
 *   moon_last_error(), moon_status_name() and moon_version().
 * - Errors are per thread: moon_last_error() describes the last failed call made on the
 *   calling thread, so threads never see each other's messages. A call that succeeds does not
 *   clear it.
 * - Text is ASCII, NUL-terminated. Moves are written as in RULES.md: "b4" (placement),
 *   "b3c3" (movement, captures implied), "0000" (pass). Squares are numbered a1 = 0, b1 = 1,
 *   ..., e5 = 24; a set of squares is a 32-bit mask with bit i for square i.
 * - Output text goes into caller buffers of a given size; when the buffer is too small the call
 *   returns MOON_ERROR_BUFFER_TOO_SMALL and writes an empty string (if size > 0). The *_SIZE
 *   constants below are always large enough.
 *
 * Threads: distinct handles may be used from different threads at the same time. A position
 * must not be changed or freed by one thread while another uses it; it is only read by a
 * search, so one position may be searched by several engines at once. An engine runs one
 * search or solve at a time: while one of its calls that search or solve runs
 * (moon_engine_search(), moon_engine_search_until_stopped(), moon_engine_solve(),
 * moon_engine_solve_with_progress(), moon_engine_solve_moves()), moon_engine_stop() may be called
 * from any thread (or from the call's own callback), and those calls, moon_engine_clear(),
 * moon_engine_set_options() and moon_engine_set_stop_signal() from another thread or from the
 * callback return MOON_ERROR_BUSY (before any other error but a NULL argument: a call refused
 * as busy would not have been checked further); moon_engine_free() must wait until the call has
 * returned.
 * The same holds while moon_engine_clear(), moon_engine_set_options() (seconds for a large
 * table, which moon_engine_stop() does not shorten) or moon_engine_set_stop_signal() runs on
 * another thread: each of these calls then returns MOON_ERROR_BUSY. Its message names the call
 * that holds the engine ("moon_engine_search: the engine is busy with moon_engine_set_options").
 * moon_stop_signal_raise() may be called from any thread at any time.
 */
#ifndef MOON_MOON_H
#define MOON_MOON_H

#include <stddef.h>
#include <stdint.h>

#include "moon/version.h"

#if defined(_WIN32)
#define MOON_API
#else
#define MOON_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- status, errors */

typedef enum moon_status {
  MOON_OK = 0,
  MOON_ERROR_INVALID_ARGUMENT = 1, /* a NULL pointer, a number out of range, ... */
  MOON_ERROR_PARSE = 2,            /* a malformed position string or move text */
  MOON_ERROR_ILLEGAL_MOVE = 3,     /* well-formed move text that is not legal here */
  MOON_ERROR_BUFFER_TOO_SMALL = 4, /* an output buffer cannot hold the text */
  MOON_ERROR_BUSY = 5,             /* the engine is busy with another call (a search, ...) */
  MOON_ERROR_STOPPED = 6,          /* moon_engine_stop() or a stop signal ended a solve (or a
                                      moon_perft_stoppable() count) early; any other failure
                                      keeps its own status, a stop meanwhile or not */
  MOON_ERROR_OUT_OF_MEMORY = 7,    /* a table, the solver's threads or their stacks cannot be had */
  MOON_ERROR_INTERNAL = 8          /* a bug: please report it with the message */
} moon_status;

/* The message of the last failed call on this thread ("" if none), at most
 * MOON_ERROR_TEXT_SIZE - 1 characters (a longer one is cut). Valid until the next failing call
 * on this thread. */
MOON_API const char* moon_last_error(void);

/* "MOON_OK", "MOON_ERROR_PARSE", ...; "MOON_UNKNOWN_STATUS" for other values. */
MOON_API const char* moon_status_name(moon_status status);

/* The version of the library loaded, "MAJOR.MINOR.PATCH" (moon/version.h, included above, gives
 * the headers' as MOON_VERSION_MAJOR, MOON_VERSION_MINOR and MOON_VERSION_PATCH). */
MOON_API const char* moon_version(void);

/* ---------------------------------------------------------------- sizes */

#define MOON_SQUARES 25
#define MOON_POSITION_TEXT_SIZE 64 /* a position string and its NUL */
#define MOON_MOVE_TEXT_SIZE 8      /* a move and its NUL */
#define MOON_SQUARES_TEXT_SIZE 80  /* "a1 b1 ... e5": every square, spaces, NUL */
#define MOON_MAX_MOVES 128         /* room for every legal move (at most 60 in any position) */
#define MOON_PV_TEXT_SIZE 512      /* a principal variation, cut after whole moves */
#define MOON_DRAW_TEXT_SIZE 1024   /* a drawn board and its status line */
#define MOON_ERROR_TEXT_SIZE 512   /* a message of moon_last_error() and its NUL, at most */
#define MOON_MAX_PERFT_DEPTH 255

/* ---------------------------------------------------------------- rules */

/* The rule options of RULES.md. A zero-initialised struct ({0}) is the default game:
 * step movement, orthogonal captures, clock limit 20. */
typedef struct moon_rules {
  int slide;       /* 0: a counter steps one square; 1: it slides like a rook */
  int diagonal;    /* 0: orthogonal capture lines; 1: diagonal lines capture too */
  int clock_limit; /* moves without a capture that end the game, 1-255; 0 means 20 */
} moon_rules;

/* ---------------------------------------------------------------- positions */

typedef struct moon_position moon_position;

typedef enum moon_phase { MOON_PHASE_PLACEMENT = 0, MOON_PHASE_MOVEMENT = 1, MOON_PHASE_OVER = 2 } moon_phase;
typedef enum moon_side { MOON_SIDE_X = 0, MOON_SIDE_O = 1 } moon_side;
typedef enum moon_result {
  MOON_RESULT_NONE = 0, /* the game is not over */
  MOON_RESULT_X_WINS = 1,
  MOON_RESULT_O_WINS = 2,
  MOON_RESULT_DRAW = 3
} moon_result;

/* Everything about a position at a glance. */
typedef struct moon_position_info {
  moon_phase phase;
  moon_side side_to_move;
  int on_board[2];  /* counters on the board, by moon_side */
  int in_hand[2];   /* counters not yet placed, by moon_side */
  uint32_t pieces[2]; /* the squares of each side's counters */
  int clock;        /* movement-phase moves since the last capture */
  int clock_limit;  /* of the rules in force */
  int fullmove;     /* 1, 2, ...: goes up after each turn of o; shown as at most 999999999 */
  moon_result result;
  int legal_move_count; /* 0 when the game is over; a blocked side has 1, the pass */
} moon_position_info;

/* The start position (12 counters in each hand, x to move). rules may be NULL (defaults). */
MOON_API moon_status moon_position_new(const moon_rules* rules, moon_position** out);

/* A position from a position string ("5/5/5/5/5 x 12 12 0 1", RULES.md). rules may be NULL.
 * MOON_ERROR_PARSE with the reason when the text is not a valid position. */
MOON_API moon_status moon_position_from_string(const char* text, const moon_rules* rules, moon_position** out);

/* An independent copy. */
MOON_API moon_status moon_position_copy(const moon_position* position, moon_position** out);

MOON_API void moon_position_free(moon_position* position);

/* The position string, e.g. "5/5/5/5/5 x 12 12 0 1" (MOON_POSITION_TEXT_SIZE bytes suffice). */
MOON_API moon_status moon_position_to_string(const moon_position* position, char* buffer, size_t size);

MOON_API moon_status moon_position_get_info(const moon_position* position, moon_position_info* out);

/* The rules the position is played under (clock_limit is never 0 here). */
MOON_API moon_status moon_position_get_rules(const moon_position* position, moon_rules* out);

/* A legal move and the counters it would capture. */
typedef struct moon_move {
  char text[MOON_MOVE_TEXT_SIZE]; /* "b4", "b3c3" or "0000" */
  uint32_t captures;              /* the squares of the counters it captures */
  int capture_count;
} moon_move;

/* The legal moves, in the engine's generation order, into moves[0 .. *count - 1].
 * capacity MOON_MAX_MOVES always suffices; a smaller one that cannot hold them all gives
 * MOON_ERROR_BUFFER_TOO_SMALL with *count set to the number needed. A game that is over has
 * no moves (*count = 0). moves may be NULL with capacity 0, to count them only. */
MOON_API moon_status moon_position_legal_moves(const moon_position* position, moon_move* moves, size_t capacity,
                                               size_t* count);

/* Plays the move given as text. MOON_ERROR_PARSE for malformed text, MOON_ERROR_ILLEGAL_MOVE
 * with the reason (occupied square, wrong phase, not the mover's counter, ...) for a move that
 * is not legal; the position is then unchanged. captured (may be NULL) receives the squares of
 * the counters the move captured. */
MOON_API moon_status moon_position_play(moon_position* position, const char* move, uint32_t* captured);

/* The board drawn in ASCII and a status line, each line ending in '\n'
 * (MOON_DRAW_TEXT_SIZE bytes suffice). */
MOON_API moon_status moon_position_draw(const moon_position* position, char* buffer, size_t size);

/* The names of the squares in a mask, lowest first, separated by spaces: "b2 c2" (an empty
 * string for 0). A mask with bits above 24, which are no squares, is MOON_ERROR_INVALID_ARGUMENT. */
MOON_API moon_status moon_squares_to_string(uint32_t squares, char* buffer, size_t size);

/* Counts the leaves of the legal-move tree depth plies deep (0 to MOON_MAX_PERFT_DEPTH) with
 * threads threads (1-256). Counts from the start position exceed 64 bits from depth 17 on:
 * *nodes then holds the low 64 bits and *overflow (may be NULL) is set to 1, else to 0.
 * Threads the system will not start are done without (the same count, later). It cannot be stopped
 * (moon_perft_stoppable() can) and uses no table: a deep count blocks the caller for as long as it
 * takes (`moon perft --hash` uses a table). */
MOON_API moon_status moon_perft(const moon_position* position, int depth, int threads, uint64_t* nodes,
                                int* overflow);

/* One legal move of a divided count: its text ("b4", "b3c3", "0000"; valid during the call
 * only) and the leaves below it (depth - 1 plies on; the low 64 bits, as in moon_perft()). */
typedef void (*moon_divide_callback)(const char* move, uint64_t nodes, void* user_data);

/* moon_perft() divided by the legal moves, to find where two move generators disagree (as
 * `moon perft --divide` and the protocol's `go perft` print it): the same *nodes and *overflow,
 * and on_move (may be NULL) called once per legal move, in generation order, on the calling
 * thread once the whole count is done. A depth of 0, or a position whose game is over, has no
 * moves to divide by: no call. On an error, no call and *nodes unchanged. */
MOON_API moon_status moon_perft_divide(const moon_position* position, int depth, int threads,
                                       moon_divide_callback on_move, void* user_data, uint64_t* nodes,
                                       int* overflow);

/* ---------------------------------------------------------------- engines: search and solve */

typedef struct moon_engine moon_engine;

/* A zero-initialised struct ({0}) gives the defaults. A hash size above the machine's physical
 * memory, or above the memory available at the time (other programs', and the engine's own
 * tables, are in it; a solver's table not made yet must fit beside the search's table when a call
 * sets its size or makes the search's larger), is refused by moon_engine_new() and
 * moon_engine_set_options() with
 * MOON_ERROR_OUT_OF_MEMORY, as is one that cannot be allocated (the solver's table is allocated
 * by the first moon_engine_solve(), which then returns MOON_ERROR_OUT_OF_MEMORY if it cannot be
 * had, or MOON_ERROR_STOPPED if a stop came while it was made: every page is written then, about
 * a second or more a GiB). */
typedef struct moon_engine_options {
  size_t hash_mb;       /* the search's transposition table in MiB, 1-65536; 0 means 16 */
  int threads;          /* search and solver threads, 1-256; 0 means 1 (more than the
                           machine's cores makes searches shallower: docs/SEARCH.md) */
  size_t solver_hash_mb; /* the solver's table in MiB, 1-65536; 0 means 64 */
} moon_engine_options;

/* Limits of one search; several may be given, the first reached ends it. A zero-initialised
 * struct has no limit: the search then runs until moon_engine_stop() (or a stop signal), to its
 * maximum depth, or until deeper iterations cannot change its result, whichever comes first: a
 * proven value, or a win or loss found within the depth searched on every line asked, ends it at
 * once (moon_engine_search_until_stopped() waits for the stop instead, as the protocol's
 * `go infinite` does). */
typedef struct moon_search_limits {
  int depth;            /* iterations, 1-100; 0: no limit */
  uint64_t nodes;       /* 0: no limit; exact with one thread; with n, up to an eighth (or n) over */
  int64_t movetime_ms;  /* search this long; 0: no limit */
  int64_t time_left_ms; /* the side to move's clock: the engine budgets its time; 0: unused */
  int64_t increment_ms; /* added to that clock after each move, only with time_left_ms; 0: none */
  int multipv;          /* not a limit: lines per iteration, the best moves each with its score
                           and line (the callback is called once for each, best first), 1-64;
                           0 means 1 */
  int analysis;         /* not a limit: 0 (a move to play): with movetime_ms or time_left_ms, a
                           position with a single legal move is searched to depth 1 only, as
                           there is nothing to choose; 1 (an analysis, for the position's value):
                           it is searched like any other */
} moon_search_limits;

typedef enum moon_score_kind {
  MOON_SCORE_HEURISTIC = 0, /* an estimate: value in centi-counters, side to move's view */
  MOON_SCORE_WIN = 1,       /* proven: the side to move wins in value plies */
  MOON_SCORE_LOSS = 2,      /* proven: the side to move loses in value plies */
  MOON_SCORE_DRAW = 3       /* proven draw: value 0 */
} moon_score_kind;

/* One line of a completed iteration (for the progress callback) or the final result of a search
 * (line 1 of 1: the deepest completed iteration's move, score and line, with the whole search's
 * nodes, nps and time, the unfinished last iteration included). */
typedef struct moon_search_info {
  char best_move[MOON_MOVE_TEXT_SIZE]; /* "" when the game is over */
  moon_score_kind score_kind;
  int score_value;
  int depth;
  uint64_t nodes;
  uint64_t nps;
  int64_t time_ms;
  char pv[MOON_PV_TEXT_SIZE]; /* the expected line, moves separated by spaces */
  int multipv;                /* which line of the iteration (moon_search_limits.multipv): 1 the best */
  int lines;                  /* of how many: the last line of an iteration has multipv == lines */
  int hashfull;               /* the search's table in use, per mille (a sample), when the iteration
                                 completed; in the final result, when the last completed one did */
} moon_search_info;

/* Called on the searching thread after each completed iteration, once for each of its lines
 * (moon_search_limits.multipv), best first. With more than one line asked for, a line's score is
 * its own move's (a proven draw is that move's); with one, the position's. info is valid during
 * the call only (copy what is to be kept). */
typedef void (*moon_search_callback)(const moon_search_info* info, void* user_data);

typedef enum moon_outcome { MOON_OUTCOME_WIN = 0, MOON_OUTCOME_DRAW = 1, MOON_OUTCOME_LOSS = 2 } moon_outcome;

/* The exact value of a position for the side to move. */
typedef struct moon_solve_result {
  moon_outcome outcome;
  int plies; /* to the end under best play: win fastest, loss slowest, draw (solver.hpp) */
  char best_move[MOON_MOVE_TEXT_SIZE]; /* keeps the outcome and distance; "" when over */
  uint64_t nodes;
  int64_t time_ms;
} moon_solve_result;

/* options may be NULL (defaults). */
MOON_API moon_status moon_engine_new(const moon_engine_options* options, moon_engine** out);

/* Changes an engine's table sizes and threads (options as for moon_engine_new(); NULL: the
 * defaults), as a frontend's settings do. A search table of another size starts empty (the same
 * size keeps what it holds); a solver with another table size or thread count is made anew by
 * the next solve. MOON_ERROR_BUSY while a call of the engine runs; on any failure the engine
 * keeps its options and tables. */
MOON_API moon_status moon_engine_set_options(moon_engine* engine, const moon_engine_options* options);

/* Frees the engine and its tables (NULL: does nothing). Not while another thread is inside a call
 * on it: stop that call (moon_engine_stop() or a stop signal) and wait for it to return first. */
MOON_API void moon_engine_free(moon_engine* engine);

/* Forgets the tables and history (a new game). MOON_ERROR_BUSY while it searches or solves. */
MOON_API moon_status moon_engine_clear(moon_engine* engine);

/* Searches the position, blocking until a limit is reached or it is stopped (moon_engine_stop()
 * or a stop signal); *out receives the best move of the deepest completed iteration (its
 * multipv 1) with the position's score: with more than one line asked for, that is a proven
 * draw only when every move's score is proven, where line 1 says draw if its own move is one.
 * Stopped before the first iteration completed, it is the first legal move in the
 * engine's order, not searched, with depth 0 and the position's static evaluation as a
 * heuristic score. limits may be NULL (no limit), callback may be NULL. A position that is over
 * gives best_move "".
 * MOON_ERROR_OUT_OF_MEMORY if the system will not make the engine's helper threads (made as
 * the search begins unless limits->depth is 1: nothing is then searched or reported). Under a
 * limit on the process's address space (ulimit -v), mind that the threads of a solve stay with
 * the engine, each holding up to 256 MiB of it for its stack (reserved, not memory), until
 * moon_engine_set_options() changes the engine's thread count or solver table or the engine is
 * freed: they can leave too little for a later search's helpers. */
MOON_API moon_status moon_engine_search(moon_engine* engine, const moon_position* position,
                                        const moon_search_limits* limits, moon_search_callback callback,
                                        void* user_data, moon_search_info* out);

/* As moon_engine_search() without limits, but returns only once stopped (moon_engine_stop() or a
 * stop signal), even when its result was settled long before or the game is over (best_move "")
 * (the protocol's `go infinite`): a frontend's "analyse" until the user stops it. multipv as in
 * moon_search_limits (0 means 1). */
MOON_API moon_status moon_engine_search_until_stopped(moon_engine* engine, const moon_position* position,
                                                      int multipv, moon_search_callback callback, void* user_data,
                                                      moon_search_info* out);

/* Proves the value of the position, blocking until done; MOON_ERROR_STOPPED if
 * moon_engine_stop() or a stop signal ended it first, MOON_ERROR_OUT_OF_MEMORY if the system will
 * not make the solver's threads or a proof needs longer lines than their stacks hold (the message
 * says which). Deep positions (the start, for instance) can take very long. A game that is over
 * is answered at once by the rules (distance 0, best_move "", 0 nodes), stop or not, without
 * making the solver's table. */
MOON_API moon_status moon_engine_solve(moon_engine* engine, const moon_position* position, moon_solve_result* out);

/* Called at the start of a solve (none for a position whose game is over: nothing to prove) and
 * then about once a second with a line of progress for people
 * (what is being proven, nodes, speed, table fill), on one of the solver's own threads, not the
 * thread that called moon_engine_solve_with_progress() (it waits meanwhile); the callback has
 * 8 MiB of stack to use. The text is valid during the call only. It may call moon_engine_stop(). */
typedef void (*moon_solve_callback)(const char* progress, void* user_data);

/* moon_engine_solve() with progress reports; callback may be NULL. */
MOON_API moon_status moon_engine_solve_with_progress(moon_engine* engine, const moon_position* position,
                                                     moon_solve_callback callback, void* user_data,
                                                     moon_solve_result* out);

/* The proven value of one move for the side that plays it (moon_engine_solve_moves()). */
typedef struct moon_move_value {
  char move[MOON_MOVE_TEXT_SIZE];
  moon_outcome outcome;
  int plies; /* to the end of the game under best play, counting the move itself */
} moon_move_value;

/* Proves the value of every legal move of the position, best first (wins fastest first, then
 * draws shortest first, then losses slowest first): the position after each move is solved in
 * turn, on the engine's solver table, so this takes about as long as those solves. The first
 * value is the position's own. *count receives the number of legal moves (0 when the game is
 * over: answered at once, stop or not, without making the solver's table); capacity
 * MOON_MAX_MOVES always suffices, a smaller one that cannot hold them all gives
 * MOON_ERROR_BUFFER_TOO_SMALL (before any proof) with *count set to the number needed (values
 * may be NULL with capacity 0, to count the moves only). callback may be NULL;
 * moon_engine_stop() or a stop signal ends it with MOON_ERROR_STOPPED. */
MOON_API moon_status moon_engine_solve_moves(moon_engine* engine, const moon_position* position,
                                             moon_solve_callback callback, void* user_data, moon_move_value* values,
                                             size_t capacity, size_t* count);

/* From any thread: ends the search or solve running on this engine soon (within
 * milliseconds); returns at once, without waiting for it. A call that has begun is always
 * reached, even before its search proper has started (a solve's first call, for instance, still
 * making the solver's table). Does nothing when none runs; a later search or solve is not
 * affected. So a frontend that starts a search on a worker thread and stops it at once may stop
 * it before the worker has begun the call, and the stop is lost: use a stop signal (below) for
 * that. */
MOON_API moon_status moon_engine_stop(moon_engine* engine);

/* ---------------------------------------------------------------- stop signals */

/* A stop that holds whenever it comes. Attach a fresh signal to the engine before handing the
 * engine to a worker thread, then raise it from any thread to end the worker's search or solve,
 * even one the worker has not begun yet:
 *
 *   moon_stop_signal* stop;
 *   moon_stop_signal_new(&stop);
 *   moon_engine_set_stop_signal(engine, stop);
 *   ... start the worker (it calls moon_engine_search()) ...
 *   moon_stop_signal_raise(stop);           the user pressed "stop"
 *   ... join the worker ...
 *   moon_engine_set_stop_signal(engine, NULL);
 *   moon_stop_signal_free(stop);
 *
 * A raised signal stays raised: moon_engine_search() then returns at once (MOON_OK, the
 * best-ordered legal move at depth 0, or the move of the deepest completed iteration if it was
 * running), and moon_engine_solve(), moon_engine_solve_with_progress() and
 * moon_engine_solve_moves() return MOON_ERROR_STOPPED (a proof that completes before it looks
 * at the signal is returned, as is a value the solver's table already holds, found at once, and
 * the value of a game that is over).
 * Every later call of an engine it is attached to stops so too: attach a new signal for the
 * next search. One signal may be attached to several engines. */
typedef struct moon_stop_signal moon_stop_signal;

MOON_API moon_status moon_stop_signal_new(moon_stop_signal** out);

/* The engines it is attached to keep watching it (the signal lives on for them); it must not be
 * freed while another thread may raise it. */
MOON_API void moon_stop_signal_free(moon_stop_signal* signal);

/* From any thread; raising it again does nothing more. */
MOON_API moon_status moon_stop_signal_raise(moon_stop_signal* signal);

/* *raised receives 1 once the signal has been raised, else 0. */
MOON_API moon_status moon_stop_signal_is_raised(const moon_stop_signal* signal, int* raised);

/* The engine's searches and solves from now on watch signal as well as moon_engine_stop()
 * (NULL: no signal, the default). MOON_ERROR_BUSY while the engine searches or solves. */
MOON_API moon_status moon_engine_set_stop_signal(moon_engine* engine, moon_stop_signal* signal);

/* moon_perft_divide() that a stop signal ends (stop may be NULL: no stop), with on_move (may be
 * NULL) called as each legal move's count completes, in generation order, on the calling thread,
 * while the count goes on: a long count shows its progress. The signal raised before or during the
 * count ends it within moments (subtrees of more than 4 plies look at it): MOON_ERROR_STOPPED,
 * "moon_perft_stoppable: perft stopped after I of N root moves", on_move having been called for
 * those I moves only (their counts exact) and *nodes and *overflow unchanged; a count with
 * nothing to do (depth 0: 1; a position without moves: 0) is answered, raised or not. The same
 * errors as moon_perft_divide() otherwise, the signal raised or not (an invalid depth is
 * MOON_ERROR_INVALID_ARGUMENT). The signal stays raised: a new one for the next count. */
MOON_API moon_status moon_perft_stoppable(const moon_position* position, int depth, int threads,
                                          moon_stop_signal* stop, moon_divide_callback on_move, void* user_data,
                                          uint64_t* nodes, int* overflow);

#ifdef __cplusplus
}
#endif

#endif /* MOON_MOON_H */
