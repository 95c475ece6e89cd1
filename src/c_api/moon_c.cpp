// The C API (include/moon/moon.h) over the C++ library: handles own C++ values, every entry
// point catches everything, errors become a status and a per-thread message.
#include "moon/moon.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "moon/display.hpp"
#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "moon/search.hpp"
#include "moon/solver.hpp"

#ifndef MOON_VERSION
#define MOON_VERSION "unknown"
#endif

struct moon_position {
  moon::Position value;
};

struct moon_stop_signal {
  std::stop_source source;  // shared with the engines it is attached to
};

struct moon_engine {
  explicit moon_engine(const moon::SearchOptions& search, const moon::SolveOptions& solve)
      : searcher(search), solve_options(solve) {}

  moon::Searcher searcher;
  moon::SolveOptions solve_options;
  std::unique_ptr<moon::Solver> solver;  // made by the first solve (its table is large); only under a Run
  std::stop_source stop_signal{std::nostopstate};  // moon_engine_set_stop_signal(); none at first
  // The call that runs (a search, solve, clear, set_options or set_stop_signal; see Run), by
  // name (null when none: MOON_ERROR_BUSY names it to another), and that call's own stop
  // source: moon_engine_stop() requests it, so a stop reaches the call that runs and never a
  // later one, and none is lost between the call's start and its search's.
  std::mutex call_mutex;
  const char* running_call = nullptr;
  std::stop_source call_stop{std::nostopstate};
};

namespace {

using namespace moon;

// The message of the last failure on this thread: a fixed buffer, so that recording an
// out-of-memory failure cannot itself fail.
thread_local char last_error_text[MOON_ERROR_TEXT_SIZE] = "";

moon_status fail(moon_status status, std::string_view message) noexcept {
  const std::size_t n = std::min(message.size(), sizeof last_error_text - 1);
  std::memcpy(last_error_text, message.data(), n);
  last_error_text[n] = '\0';
  return status;
}

// The same for "<function>: <message>", put together in the buffer (nothing allocated).
moon_status fail(moon_status status, std::string_view function, std::string_view message) noexcept {
  (void)fail(status, function);
  std::size_t n = std::strlen(last_error_text);
  for (std::string_view part : {std::string_view(": "), message}) {
    const std::size_t copied = std::min(part.size(), sizeof last_error_text - 1 - n);
    std::memcpy(last_error_text + n, part.data(), copied);
    n += copied;
  }
  last_error_text[n] = '\0';
  return status;
}

// Runs the body of the entry point `function`: no exception leaves the library, and its
// message, as every other, starts with the function's name.
template <class Body>
moon_status guarded(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(MOON_ERROR_OUT_OF_MEMORY, function, "out of memory");
  } catch (const std::exception& e) {
    return fail(MOON_ERROR_INTERNAL, function, e.what());
  } catch (...) {
    return fail(MOON_ERROR_INTERNAL, function, "internal error: unknown exception");
  }
}

moon_status null_argument(const char* function, const char* parameter) {
  return fail(MOON_ERROR_INVALID_ARGUMENT, std::string(function) + ": " + parameter + " is NULL");
}

moon_status copy_text(std::string_view text, char* buffer, std::size_t size, const char* function) {
  if (!buffer) return null_argument(function, "buffer");
  if (text.size() >= size) {
    if (size > 0) buffer[0] = '\0';
    return fail(MOON_ERROR_BUFFER_TOO_SMALL, std::string(function) + ": a buffer of " + std::to_string(size) +
                                                 (size == 1 ? " byte" : " bytes") + " cannot hold the " +
                                                 std::to_string(text.size() + 1) + " bytes of the text and its NUL");
  }
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  return MOON_OK;
}

// Copies into a fixed-size field known to be large enough.
template <std::size_t N>
void set_field(char (&field)[N], std::string_view text) {
  const std::size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

Expected<Rules> to_rules(const moon_rules* rules) {
  if (!rules) return Rules{};
  if ((rules->slide != 0 && rules->slide != 1) || (rules->diagonal != 0 && rules->diagonal != 1))
    return Error{"rules: slide and diagonal must be 0 or 1"};
  return make_rules(rules->slide ? Movement::slide : Movement::step,
                    rules->diagonal ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal,
                    rules->clock_limit == 0 ? Rules::default_clock_limit : rules->clock_limit);
}

moon_status new_position(const Position& pos, moon_position** out) {
  *out = new moon_position{pos};
  return MOON_OK;
}

// Moves as text, cut after the last whole move that fits a field of N bytes.
template <std::size_t N>
void set_pv(char (&field)[N], const std::vector<Move>& pv) {
  std::string text;
  for (Move m : pv) {
    const std::string move = to_string(m);
    if (text.size() + 1 + move.size() >= N) break;
    if (!text.empty()) text += ' ';
    text += move;
  }
  set_field(field, text);
}

void set_score(moon_search_info& info, const ScoreInfo& score) {
  info.score_value = score.value;
  switch (score.kind) {
    case ScoreKind::heuristic: info.score_kind = MOON_SCORE_HEURISTIC; break;
    case ScoreKind::win: info.score_kind = MOON_SCORE_WIN; break;
    case ScoreKind::loss: info.score_kind = MOON_SCORE_LOSS; break;
    case ScoreKind::draw: info.score_kind = MOON_SCORE_DRAW; break;
  }
}

moon_search_info to_info(const SearchInfo& in) {
  moon_search_info info{};
  set_field(info.best_move, in.pv.empty() ? "" : to_string(in.pv[0]));
  set_score(info, in.score_info);
  info.depth = in.depth;
  info.nodes = in.nodes;
  info.nps = in.nps;
  info.time_ms = in.time_ms;
  set_pv(info.pv, in.pv);
  info.multipv = in.line;
  info.lines = in.lines;
  info.hashfull = in.hashfull;
  return info;
}

moon_search_info to_info(const SearchResult& in) {
  moon_search_info info{};
  set_field(info.best_move, in.best.is_null() ? "" : to_string(in.best));
  set_score(info, in.score_info);
  info.depth = in.depth;
  info.nodes = in.nodes;
  info.nps = in.nps;
  info.time_ms = in.time_ms;
  set_pv(info.pv, in.pv);
  info.multipv = 1;
  info.lines = 1;
  return info;
}

// Marks the engine busy with one call, `function` (a name with static storage: the engine keeps
// it while the call runs; another call meanwhile gets MOON_ERROR_BUSY, busy()), and gives the
// call a stop token of its own, requested by moon_engine_stop() or by the attached stop signal;
// idle again when it goes out of scope.
class Run {
 public:
  Run(moon_engine& engine, const char* function) : engine_(engine) {
    std::stop_source call;
    {
      const std::lock_guard lock(engine.call_mutex);
      if (engine.running_call) {
        holder_ = engine.running_call;
        return;
      }
      engine.running_call = function;
      engine.call_stop = call;
    }
    acquired_ = true;
    stop_ = call.get_token();
    // Outside the lock: a signal raised already requests the call's stop here and now.
    signal_.emplace(engine.stop_signal.get_token(), RequestStop{call});
  }
  ~Run() {
    if (!acquired_) return;
    signal_.reset();  // waits for a raise running it on another thread
    const std::lock_guard lock(engine_.call_mutex);
    engine_.running_call = nullptr;
    engine_.call_stop = std::stop_source(std::nostopstate);
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  bool acquired() const { return acquired_; }
  // Not acquired: the call that held the engine then.
  const char* holder() const { return holder_; }
  std::stop_token stop_token() const { return stop_; }

 private:
  struct RequestStop {
    std::stop_source source;
    void operator()() { source.request_stop(); }
  };
  moon_engine& engine_;
  bool acquired_ = false;
  const char* holder_ = nullptr;
  std::stop_token stop_;
  std::optional<std::stop_callback<RequestStop>> signal_;
};

// `function` found the engine busy with `run`'s holder.
moon_status busy(const char* function, const Run& run) {
  return fail(MOON_ERROR_BUSY, std::string(function) + ": the engine is busy with " + run.holder());
}

moon_outcome to_outcome(Outcome outcome) {
  return outcome == Outcome::win ? MOON_OUTCOME_WIN : outcome == Outcome::loss ? MOON_OUTCOME_LOSS : MOON_OUTCOME_DRAW;
}

// A solve or analysis that failed: stopped if it was cut short by the call's stop (moon_engine_stop()
// or the attached signal: nothing else stops the engine's solver), else for want of resources
// (a table or threads the system will not give, a proof longer than the threads' stacks), even
// if a stop was requested meanwhile.
moon_status solve_failed(const char* function, const Error& error) {
  return fail(error.stopped ? MOON_ERROR_STOPPED : MOON_ERROR_OUT_OF_MEMORY,
              std::string(function) + ": " + error.message);
}

// Runs body(solver, stop) with the engine busy (stop: the call's token, see Run), its solver
// ready (made by the first solve: its table is large) and the callback set for this call only
// (none: no reports), so that none outlives its call. answer_first() comes first, once the engine
// is known not to be busy (MOON_ERROR_BUSY before any other error but a NULL argument, as moon.h
// says) and before the solver's table is made: a status (an error, or MOON_OK for what needs no
// solver: a game that is over) ends the call; std::nullopt goes on to body.
template <class AnswerFirst, class Body>
moon_status run_solver(const char* function, moon_engine& engine, moon_solve_callback callback, void* user_data,
                       AnswerFirst answer_first, Body body) {
  Run run(engine, function);
  if (!run.acquired()) return busy(function, run);
  if (const std::optional<moon_status> answered = answer_first()) return *answered;
  SolveOptions options = engine.solve_options;
  if (callback) options.progress = [callback, user_data](const std::string& text) { callback(text.c_str(), user_data); };
  if (!engine.solver) {
    // A stop while the table is made (seconds a GiB) ends the making: MOON_ERROR_STOPPED.
    auto made = Solver::create(options, false, run.stop_token());
    if (!made) return solve_failed(function, made.error());
    engine.solver = std::move(made).value();
  } else if (const auto ok = engine.solver->set_options(options); !ok) {  // same size: the callback changes
    return fail(MOON_ERROR_INTERNAL, std::string(function) + ": " + ok.error().message);
  }
  return body(*engine.solver, run.stop_token());
}

moon_status solve(const char* function, moon_engine* engine, const moon_position* position,
                  moon_solve_callback callback, void* user_data, moon_solve_result* out) {
  return guarded(function, [&] {
    if (!engine) return null_argument(function, "engine");
    if (!position) return null_argument(function, "position");
    if (!out) return null_argument(function, "out");
    const auto answer = [&](const SolveResult& result) {
      moon_solve_result r{};
      r.outcome = to_outcome(result.outcome);
      r.plies = result.plies;
      set_field(r.best_move, result.best.is_null() ? "" : to_string(result.best));
      r.nodes = result.nodes;
      r.time_ms = result.time_ms;
      *out = r;
      return MOON_OK;
    };
    // A game that is over is answered by its rules, raised stop signal or not (as a search is).
    const auto over_game = [&]() -> std::optional<moon_status> {
      if (!position->value.is_over()) return std::nullopt;
      return answer(over_game_result(position->value, engine->solve_options.distance));
    };
    return run_solver(function, *engine, callback, user_data, over_game, [&](Solver& solver, std::stop_token stop) {
      const auto result = solver.solve(position->value, stop);
      if (!result) return solve_failed(function, result.error());
      return answer(*result);
    });
  });
}

// The lines a search reports, from moon_search_limits::multipv or its twin argument (0 means 1);
// MOON_OK, or the error for a count out of range.
moon_status set_multipv(const char* function, int multipv, SearchLimits& l) {
  static_assert(max_multipv == 64, "moon.h documents the range");
  if (multipv < 0 || multipv > max_multipv)
    return fail(MOON_ERROR_INVALID_ARGUMENT, std::string(function) + ": multipv must be from 0 to " +
                                                 std::to_string(max_multipv) + ", not " + std::to_string(multipv));
  l.multipv = multipv ? multipv : 1;
  return MOON_OK;
}

// moon_engine_search() and moon_engine_search_until_stopped(): `set_limits` checks the caller's
// limits and writes them into `l`, or returns the status of an error.
template <class SetLimits>
moon_status search(const char* function, moon_engine* engine, const moon_position* position,
                   moon_search_callback callback, void* user_data, moon_search_info* out, SetLimits set_limits) {
  if (!engine) return null_argument(function, "engine");
  if (!position) return null_argument(function, "position");
  if (!out) return null_argument(function, "out");
  // The engine is marked busy first, so that a moon_engine_stop() from now on reaches this call.
  Run run(*engine, function);
  if (!run.acquired()) return busy(function, run);
  SearchLimits l;
  if (const moon_status status = set_limits(l); status != MOON_OK) return status;
  int hashfull = 0;  // at the last completed iteration, for the result (SearchResult has none)
  const auto report = [&](const SearchInfo& info) {
    hashfull = info.hashfull;
    if (!callback) return;
    const moon_search_info c = to_info(info);
    callback(&c, user_data);
  };
  const auto result = engine->searcher.search(position->value, l, report, run.stop_token());
  // The limits are checked before: what is left is helper threads the system will not make.
  if (!result) return fail(MOON_ERROR_OUT_OF_MEMORY, std::string(function) + ": " + result.error().message);
  *out = to_info(*result);
  out->hashfull = hashfull;
  return MOON_OK;
}

}  // namespace

extern "C" {

const char* moon_last_error(void) { return last_error_text; }

const char* moon_status_name(moon_status status) {
  // A C caller may pass any int here (a C enum is an integer), where a C++ enum with these
  // values holds only 0-15: reading `status` as the enum would then be undefined behaviour
  // (UndefinedBehaviorSanitizer's enum check, from the C API fuzz target). Its bytes are read
  // as an integer instead.
  std::underlying_type_t<moon_status> value;
  static_assert(sizeof value == sizeof status);
  std::memcpy(&value, &status, sizeof value);
  switch (value) {
    case MOON_OK: return "MOON_OK";
    case MOON_ERROR_INVALID_ARGUMENT: return "MOON_ERROR_INVALID_ARGUMENT";
    case MOON_ERROR_PARSE: return "MOON_ERROR_PARSE";
    case MOON_ERROR_ILLEGAL_MOVE: return "MOON_ERROR_ILLEGAL_MOVE";
    case MOON_ERROR_BUFFER_TOO_SMALL: return "MOON_ERROR_BUFFER_TOO_SMALL";
    case MOON_ERROR_BUSY: return "MOON_ERROR_BUSY";
    case MOON_ERROR_STOPPED: return "MOON_ERROR_STOPPED";
    case MOON_ERROR_OUT_OF_MEMORY: return "MOON_ERROR_OUT_OF_MEMORY";
    case MOON_ERROR_INTERNAL: return "MOON_ERROR_INTERNAL";
  }
  return "MOON_UNKNOWN_STATUS";
}

const char* moon_version(void) { return MOON_VERSION; }

moon_status moon_position_new(const moon_rules* rules, moon_position** out) {
  return guarded("moon_position_new", [&] {
    if (!out) return null_argument("moon_position_new", "out");
    const auto r = to_rules(rules);
    if (!r) return fail(MOON_ERROR_INVALID_ARGUMENT, "moon_position_new: " + r.error().message);
    return new_position(Position::start(*r), out);
  });
}

moon_status moon_position_from_string(const char* text, const moon_rules* rules, moon_position** out) {
  return guarded("moon_position_from_string", [&] {
    if (!text) return null_argument("moon_position_from_string", "text");
    if (!out) return null_argument("moon_position_from_string", "out");
    const auto r = to_rules(rules);
    if (!r) return fail(MOON_ERROR_INVALID_ARGUMENT, "moon_position_from_string: " + r.error().message);
    const auto pos = parse_position(text, *r);
    if (!pos) return fail(MOON_ERROR_PARSE, pos.error().message);
    return new_position(*pos, out);
  });
}

moon_status moon_position_copy(const moon_position* position, moon_position** out) {
  return guarded("moon_position_copy", [&] {
    if (!position) return null_argument("moon_position_copy", "position");
    if (!out) return null_argument("moon_position_copy", "out");
    return new_position(position->value, out);
  });
}

void moon_position_free(moon_position* position) { delete position; }

moon_status moon_position_to_string(const moon_position* position, char* buffer, size_t size) {
  return guarded("moon_position_to_string", [&] {
    if (!position) return null_argument("moon_position_to_string", "position");
    return copy_text(to_string(position->value), buffer, size, "moon_position_to_string");
  });
}

moon_status moon_position_get_info(const moon_position* position, moon_position_info* out) {
  return guarded("moon_position_get_info", [&] {
    if (!position) return null_argument("moon_position_get_info", "position");
    if (!out) return null_argument("moon_position_get_info", "out");
    const Position& pos = position->value;
    moon_position_info info{};
    info.phase = moon_phase(pos.phase());
    info.side_to_move = pos.side_to_move() == x ? MOON_SIDE_X : MOON_SIDE_O;
    for (Color c : {x, o}) {
      info.on_board[c] = pos.count(c);
      info.in_hand[c] = pos.in_hand(c);
      info.pieces[c] = pos.pieces(c);
    }
    info.clock = pos.clock();
    info.clock_limit = pos.rules().clock_limit;
    info.fullmove = shown_fullmove(pos);
    info.result = moon_result(pos.result());
    info.legal_move_count = count_moves(pos);
    *out = info;
    return MOON_OK;
  });
}

moon_status moon_position_get_rules(const moon_position* position, moon_rules* out) {
  return guarded("moon_position_get_rules", [&] {
    if (!position) return null_argument("moon_position_get_rules", "position");
    if (!out) return null_argument("moon_position_get_rules", "out");
    const Rules& r = position->value.rules();
    *out = moon_rules{r.slide() ? 1 : 0, r.diagonal() ? 1 : 0, r.clock_limit};
    return MOON_OK;
  });
}

moon_status moon_position_legal_moves(const moon_position* position, moon_move* moves, size_t capacity,
                                      size_t* count) {
  return guarded("moon_position_legal_moves", [&] {
    if (!position) return null_argument("moon_position_legal_moves", "position");
    if (!count) return null_argument("moon_position_legal_moves", "count");
    if (!moves && capacity > 0) return null_argument("moon_position_legal_moves", "moves");
    const Position& pos = position->value;
    const MoveList legal = legal_moves(pos);
    if (legal.size() > capacity) {
      *count = legal.size();
      return fail(MOON_ERROR_BUFFER_TOO_SMALL, "moon_position_legal_moves: " + std::to_string(legal.size()) +
                                                   " moves do not fit a capacity of " + std::to_string(capacity));
    }
    for (std::size_t i = 0; i < legal.size(); ++i) {
      moon_move move{};
      set_field(move.text, to_string(legal[i]));
      move.captures = pos.captures_of(legal[i]);
      move.capture_count = popcount(move.captures);
      moves[i] = move;
    }
    *count = legal.size();
    return MOON_OK;
  });
}

moon_status moon_position_play(moon_position* position, const char* move, uint32_t* captured) {
  return guarded("moon_position_play", [&] {
    if (!position) return null_argument("moon_position_play", "position");
    if (!move) return null_argument("moon_position_play", "move");
    const std::string_view text(move);
    const bool well_formed =
        text == "0000" || (text.size() == 2 && parse_square(text)) ||
        (text.size() == 4 && parse_square(text.substr(0, 2)) && parse_square(text.substr(2, 2)));
    const auto parsed = parse_move(text, position->value);
    if (!parsed) return fail(well_formed ? MOON_ERROR_ILLEGAL_MOVE : MOON_ERROR_PARSE, parsed.error().message);
    const Bitboard taken = position->value.play(*parsed);
    if (captured) *captured = taken;
    return MOON_OK;
  });
}

moon_status moon_position_draw(const moon_position* position, char* buffer, size_t size) {
  return guarded("moon_position_draw", [&] {
    if (!position) return null_argument("moon_position_draw", "position");
    return copy_text(draw(position->value) + status_line(position->value) + "\n", buffer, size, "moon_position_draw");
  });
}

moon_status moon_squares_to_string(uint32_t squares, char* buffer, size_t size) {
  return guarded("moon_squares_to_string", [&] {
    if (squares & ~all_squares)
      return fail(MOON_ERROR_INVALID_ARGUMENT, "moon_squares_to_string: bits above 24 are not squares");
    return copy_text(squares_text(squares), buffer, size, "moon_squares_to_string");
  });
}

namespace {

// moon_perft(), moon_perft_divide() and moon_perft_stoppable(): `name` for the messages. With
// `as_done`, on_move is called as each root move's count completes (moon_perft_stoppable()),
// else once the whole count is done.
moon_status count_leaves(const char* name, const moon_position* position, int depth, int threads,
                         const moon_stop_signal* stop, bool as_done, moon_divide_callback on_move, void* user_data,
                         uint64_t* nodes, int* overflow) {
  return guarded(name, [&] {
    if (!position) return null_argument(name, "position");
    if (!nodes) return null_argument(name, "nodes");
    PerftOptions options;
    options.threads = threads;
    if (stop) options.stop = stop->source.get_token();
    const auto call = [&](const DivideEntry& entry) {
      on_move(to_string(entry.move).c_str(), std::uint64_t(entry.nodes), user_data);
    };
    if (on_move && as_done) options.root_move_done = call;
    const auto result = perft(position->value, depth, options);
    if (!result)
      return fail(result.error().stopped ? MOON_ERROR_STOPPED : MOON_ERROR_INVALID_ARGUMENT,
                  std::string(name) + ": " + result.error().message);
    *nodes = std::uint64_t(result->nodes);
    if (overflow) *overflow = (result->nodes >> 64) != 0;
    if (on_move && !as_done)
      for (const DivideEntry& entry : result->divide) call(entry);
    return MOON_OK;
  });
}

}  // namespace

moon_status moon_perft(const moon_position* position, int depth, int threads, uint64_t* nodes, int* overflow) {
  return count_leaves("moon_perft", position, depth, threads, nullptr, false, nullptr, nullptr, nodes, overflow);
}

moon_status moon_perft_divide(const moon_position* position, int depth, int threads, moon_divide_callback on_move,
                              void* user_data, uint64_t* nodes, int* overflow) {
  return count_leaves("moon_perft_divide", position, depth, threads, nullptr, false, on_move, user_data, nodes,
                      overflow);
}

moon_status moon_perft_stoppable(const moon_position* position, int depth, int threads, moon_stop_signal* stop,
                                 moon_divide_callback on_move, void* user_data, uint64_t* nodes, int* overflow) {
  return count_leaves("moon_perft_stoppable", position, depth, threads, stop, true, on_move, user_data, nodes,
                      overflow);
}

// An engine's options as the searcher's and the solver's, checked: MOON_OK, or the failure
// (recorded, naming `function`).
moon_status engine_options(const char* function, const moon_engine_options* options, SearchOptions& search,
                           SolveOptions& solve) {
  const moon_engine_options o = options ? *options : moon_engine_options{};
  search = SearchOptions{};
  if (o.hash_mb) search.hash_mb = o.hash_mb;
  if (o.threads) search.threads = o.threads;
  solve = SolveOptions{};
  if (o.solver_hash_mb) solve.hash_mb = o.solver_hash_mb;
  solve.threads = search.threads;
  // moon.h documents these ranges; one thread count serves both.
  static_assert(max_search_threads == 256 && max_solve_threads == max_search_threads &&
                TranspositionTable::max_mb == 65536 && max_solve_hash_mb == TranspositionTable::max_mb);
  if (o.threads < 0 || o.threads > max_search_threads)
    return fail(MOON_ERROR_INVALID_ARGUMENT, std::string(function) + ": threads must be from 1 to " +
                                                 std::to_string(max_search_threads) + " (0: one), not " +
                                                 std::to_string(o.threads));
  const auto table_size = [&](const char* field, std::size_t mb) {
    return fail(MOON_ERROR_INVALID_ARGUMENT, std::string(function) + ": " + field + " must be from 1 to " +
                                                 std::to_string(TranspositionTable::max_mb) + " MiB (0: the default), not " +
                                                 std::to_string(mb));
  };
  if (search.hash_mb > TranspositionTable::max_mb) return table_size("hash_mb", o.hash_mb);
  if (solve.hash_mb > max_solve_hash_mb) return table_size("solver_hash_mb", o.solver_hash_mb);
  return MOON_OK;
}

// The solver's table is only made by the first solve: its size is checked when it is set, the
// memory of what goes before that solve (`released_mb`: the solver it replaces, a search table
// of another size) counted free, and beside the search table of `search_mb` the same call makes
// (0: none), so that the two tables are checked together.
moon_status check_solver_table(const char* function, const SolveOptions& solve, std::size_t released_mb,
                               std::size_t search_mb) {
  const std::string search_table = "the search's " + std::to_string(search_mb) + " MiB table";
  if (const auto fits = check_table_size_beside(solve.hash_mb, released_mb, search_mb, search_table); !fits)
    return fail(MOON_ERROR_OUT_OF_MEMORY, std::string(function) + ": solver " + fits.error().message);
  return MOON_OK;
}

moon_status moon_engine_new(const moon_engine_options* options, moon_engine** out) {
  return guarded("moon_engine_new", [&] {
    if (!out) return null_argument("moon_engine_new", "out");
    SearchOptions search;
    SolveOptions solve;
    if (const moon_status s = engine_options("moon_engine_new", options, search, solve); s != MOON_OK) return s;
    // A search table too large by itself is set_options()'s to report, below.
    if (check_table_size(search.hash_mb))
      if (const moon_status s = check_solver_table("moon_engine_new", solve, 0, search.hash_mb); s != MOON_OK)
        return s;
    // The Searcher's constructor falls back to a small table when the memory is not there;
    // set_options() says so instead.
    SearchOptions small = search;
    small.hash_mb = 1;
    auto engine = std::make_unique<moon_engine>(small, solve);
    if (const auto ok = engine->searcher.set_options(search); !ok)
      return fail(MOON_ERROR_OUT_OF_MEMORY, "moon_engine_new: " + ok.error().message);
    *out = engine.release();
    return MOON_OK;
  });
}

moon_status moon_engine_set_options(moon_engine* engine, const moon_engine_options* options) {
  constexpr const char* function = "moon_engine_set_options";
  return guarded(function, [&] {
    if (!engine) return null_argument(function, "engine");
    Run run(*engine, function);
    if (!run.acquired()) return busy(function, run);
    SearchOptions search;
    SolveOptions solve;
    if (const moon_status s = engine_options(function, options, search, solve); s != MOON_OK) return s;
    // A solver table still to be made must fit beside the search's table as it will be (one of a
    // new size is made before it, and the old one let go): checked when its size changes, or when
    // the search's table grows while it is not made yet; a change that takes no more memory (the
    // threads, a smaller search table) is not refused for memory that has gone meanwhile. A search
    // table too large by itself is set_options()'s to report.
    const bool new_solver_size = solve.hash_mb != engine->solve_options.hash_mb;
    const bool new_solver = new_solver_size || solve.threads != engine->solve_options.threads;
    const std::size_t search_before = engine->searcher.options().hash_mb;
    const bool new_search_table = search.hash_mb != search_before;
    const bool check_solver = new_solver_size || (!engine->solver && search.hash_mb > search_before);
    if (check_solver && (!new_search_table || check_table_size(search.hash_mb))) {
      const std::size_t released =
          (engine->solver ? engine->solve_options.hash_mb : 0) + (new_search_table ? search_before : 0);
      if (const moon_status s = check_solver_table(function, solve, released, new_search_table ? search.hash_mb : 0);
          s != MOON_OK)
        return s;
    }
    // The search's table and threads first: Searcher::set_options() changes nothing when it
    // fails. Then the solver, which cannot fail here: one with other options is let go, and the
    // next solve makes it anew (its table is made by the first solve, as after moon_engine_new()).
    if (const auto ok = engine->searcher.set_options(search); !ok)
      return fail(MOON_ERROR_OUT_OF_MEMORY, std::string(function) + ": " + ok.error().message);
    if (new_solver) engine->solver.reset();
    engine->solve_options.hash_mb = solve.hash_mb;
    engine->solve_options.threads = solve.threads;
    return MOON_OK;
  });
}

void moon_engine_free(moon_engine* engine) { delete engine; }

moon_status moon_engine_clear(moon_engine* engine) {
  return guarded("moon_engine_clear", [&] {
    if (!engine) return null_argument("moon_engine_clear", "engine");
    Run run(*engine, "moon_engine_clear");
    if (!run.acquired()) return busy("moon_engine_clear", run);
    engine->searcher.clear();
    if (engine->solver) engine->solver->clear();
    return MOON_OK;
  });
}

moon_status moon_engine_search(moon_engine* engine, const moon_position* position, const moon_search_limits* limits,
                               moon_search_callback callback, void* user_data, moon_search_info* out) {
  constexpr const char* function = "moon_engine_search";
  return guarded(function, [&] {
    return search(function, engine, position, callback, user_data, out, [&](SearchLimits& l) {
      if (!limits) return MOON_OK;
      if (limits->depth < 0 || limits->depth > max_search_depth)
        return fail(MOON_ERROR_INVALID_ARGUMENT, std::string(function) + ": depth must be from 0 to " +
                                                     std::to_string(max_search_depth) + ", not " +
                                                     std::to_string(limits->depth));
      static_assert(max_search_depth == 100, "moon.h documents the range");
      // Each time named, with the value refused.
      for (const auto& [name, ms] : {std::pair{"movetime_ms", limits->movetime_ms},
                                     std::pair{"time_left_ms", limits->time_left_ms},
                                     std::pair{"increment_ms", limits->increment_ms}})
        if (ms < 0)
          return fail(MOON_ERROR_INVALID_ARGUMENT,
                      std::string(function) + ": " + name + " must not be negative, not " + std::to_string(ms));
      // An increment alone would leave the search without a limit, in silence.
      if (limits->increment_ms > 0 && limits->time_left_ms == 0)
        return fail(MOON_ERROR_INVALID_ARGUMENT, std::string(function) + ": increment_ms needs time_left_ms");
      l.depth = limits->depth;
      l.nodes = limits->nodes;
      l.movetime_ms = limits->movetime_ms;
      l.time_left_ms = limits->time_left_ms;
      l.increment_ms = limits->increment_ms;
      if (limits->analysis != 0 && limits->analysis != 1)
        return fail(MOON_ERROR_INVALID_ARGUMENT,
                    std::string(function) + ": analysis must be 0 or 1, not " + std::to_string(limits->analysis));
      l.analysis = limits->analysis == 1;
      return set_multipv(function, limits->multipv, l);
    });
  });
}

moon_status moon_engine_search_until_stopped(moon_engine* engine, const moon_position* position, int multipv,
                                             moon_search_callback callback, void* user_data, moon_search_info* out) {
  constexpr const char* function = "moon_engine_search_until_stopped";
  return guarded(function, [&] {
    return search(function, engine, position, callback, user_data, out, [&](SearchLimits& l) {
      l.infinite = true;
      return set_multipv(function, multipv, l);
    });
  });
}

moon_status moon_engine_solve(moon_engine* engine, const moon_position* position, moon_solve_result* out) {
  return solve("moon_engine_solve", engine, position, nullptr, nullptr, out);
}

moon_status moon_engine_solve_with_progress(moon_engine* engine, const moon_position* position,
                                            moon_solve_callback callback, void* user_data, moon_solve_result* out) {
  return solve("moon_engine_solve_with_progress", engine, position, callback, user_data, out);
}

moon_status moon_engine_solve_moves(moon_engine* engine, const moon_position* position, moon_solve_callback callback,
                                    void* user_data, moon_move_value* values, size_t capacity, size_t* count) {
  constexpr const char* function = "moon_engine_solve_moves";
  return guarded(function, [&] {
    if (!engine) return null_argument(function, "engine");
    if (!position) return null_argument(function, "position");
    if (!count) return null_argument(function, "count");
    if (!values && capacity > 0) return null_argument(function, "values");
    // Checked before any proof (and before the table is made): a buffer too small is known from
    // the moves alone, and a game that is over has none to prove.
    const auto from_the_moves = [&]() -> std::optional<moon_status> {
      if (position->value.is_over()) {
        *count = 0;
        return MOON_OK;
      }
      const std::size_t needed = legal_moves(position->value).size();
      if (needed <= capacity) return std::nullopt;
      *count = needed;
      return fail(MOON_ERROR_BUFFER_TOO_SMALL, std::string(function) + ": " + std::to_string(needed) +
                                                   " moves do not fit a capacity of " + std::to_string(capacity));
    };
    return run_solver(function, *engine, callback, user_data, from_the_moves, [&](Solver& solver, std::stop_token stop) {
      const auto result = solver.analyze(position->value, stop);
      if (!result) return solve_failed(function, result.error());
      for (std::size_t i = 0; i < result->size(); ++i) {
        moon_move_value v{};
        set_field(v.move, to_string((*result)[i].move));
        v.outcome = to_outcome((*result)[i].outcome);
        v.plies = (*result)[i].plies;
        values[i] = v;
      }
      *count = result->size();
      return MOON_OK;
    });
  });
}

moon_status moon_stop_signal_new(moon_stop_signal** out) {
  return guarded("moon_stop_signal_new", [&] {
    if (!out) return null_argument("moon_stop_signal_new", "out");
    *out = new moon_stop_signal{};
    return MOON_OK;
  });
}

void moon_stop_signal_free(moon_stop_signal* signal) { delete signal; }

moon_status moon_stop_signal_raise(moon_stop_signal* signal) {
  return guarded("moon_stop_signal_raise", [&] {
    if (!signal) return null_argument("moon_stop_signal_raise", "signal");
    signal->source.request_stop();  // runs the stops of the calls watching it, on this thread
    return MOON_OK;
  });
}

moon_status moon_stop_signal_is_raised(const moon_stop_signal* signal, int* raised) {
  return guarded("moon_stop_signal_is_raised", [&] {
    if (!signal) return null_argument("moon_stop_signal_is_raised", "signal");
    if (!raised) return null_argument("moon_stop_signal_is_raised", "raised");
    *raised = signal->source.stop_requested() ? 1 : 0;
    return MOON_OK;
  });
}

moon_status moon_engine_set_stop_signal(moon_engine* engine, moon_stop_signal* signal) {
  return guarded("moon_engine_set_stop_signal", [&] {
    if (!engine) return null_argument("moon_engine_set_stop_signal", "engine");
    Run run(*engine, "moon_engine_set_stop_signal");
    if (!run.acquired()) return busy("moon_engine_set_stop_signal", run);
    engine->stop_signal = signal ? signal->source : std::stop_source(std::nostopstate);
    return MOON_OK;
  });
}

moon_status moon_engine_stop(moon_engine* engine) {
  return guarded("moon_engine_stop", [&] {
    if (!engine) return null_argument("moon_engine_stop", "engine");
    std::stop_source call{std::nostopstate};
    {
      const std::lock_guard lock(engine->call_mutex);
      call = engine->call_stop;  // no stop state when no call runs
    }
    // Outside the lock: this runs the call's Searcher::stop() or Solver::stop(), on this thread.
    call.request_stop();
    return MOON_OK;
  });
}

}  // extern "C"
