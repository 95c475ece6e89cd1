#include "protocol/engine.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>
#include <string_view>
#include <system_error>

#include "bounded_line.hpp"
#include "moon/display.hpp"
#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"

#ifndef MOON_VERSION
#define MOON_VERSION "unknown"
#endif

namespace moon::protocol {

namespace {

// The `info solve` line of a finished solve (docs/PROTOCOL.md).
std::string solve_line(const SolveResult& result) {
  return "info solve value " + std::string(to_string(result.outcome)) + " distance " + std::to_string(result.plies) +
         " nodes " + std::to_string(result.nodes) + " time " + std::to_string(result.time_ms) + "\n";
}

// What `go` and `go solve` say first of a position whose game is over.
std::string game_over_line(const Position& pos) {
  return "info string the game is over: " + to_string(pos.result()) + "\n";
}

std::string rules_text(const Rules& rules) {
  return std::string(rules.slide() ? "slide" : "step") + " movement, " +
         (rules.diagonal() ? "orthogonal and diagonal" : "orthogonal") + " captures, clock limit " +
         std::to_string(rules.clock_limit);
}

}  // namespace

Engine::Engine(std::ostream& out) : out_(out), position_(Position::start()) {}

Engine::~Engine() { stop(); }

int Engine::run(std::istream& in) {
  in.tie(nullptr);  // a flush of the output from this thread would race with the worker's lines
  std::string line;
  for (;;) {
    const LineRead status = read_bounded_line(in, line, max_line_length);
    if (status == LineRead::end) break;
    if (status == LineRead::failed) {
      // No more commands can come: what runs is ended (its bestmove written) as at the end of
      // the input, but the session failed, and says why.
      const std::string why = std::strerror(errno);
      stop();
      send_error("cannot read standard input: " + why);
      return 1;
    }
    if (status == LineRead::too_long) {
      send_error("line longer than " + std::to_string(max_line_length) + " characters");
      continue;
    }
    if (!handle(line)) break;
  }
  stop();
  return 0;
}

void Engine::send(std::string_view text) {
  std::lock_guard lock(out_mutex_);
  out_ << text;
  out_.flush();
  // Nobody reads what the task finds any more (the frontend closed the pipe): it stops rather
  // than burn a core until the end of the input ends the session (status 1, main.cpp).
  if (!out_) job_stop_.request_stop();
}

void Engine::send_error(std::string_view message) {
  send("info string error: " + std::string(message) + "\n");
}

void Engine::finish(std::string_view text) {
  {
    // Done before the last line is visible: a frontend that answers `bestmove` at once must
    // find the engine idle.
    std::lock_guard lock(out_mutex_);
    worker_done_ = true;
    out_ << text;
    out_.flush();
  }
  std::lock_guard lock(wake_mutex_);
  wake_.notify_all();
}

bool Engine::busy() {
  if (worker_.joinable() && worker_done_) worker_.join();
  return worker_.joinable();
}

void Engine::stop() {
  if (!worker_.joinable()) return;
  job_stop_.request_stop();  // wakes an infinite search's wait too
  worker_.join();
}

std::stop_token Engine::new_job(const char* kind) {
  job_kind_ = kind;
  worker_done_ = false;
  job_stop_ = std::stop_source();
  return job_stop_.get_token();
}

template <class Task>
void Engine::start_job(const char* kind, std::string closing, Task task) {
  std::string last_resort = "info string error: " + std::string(kind) + " failed\n" + closing;
  const std::stop_token token = new_job(kind);
  try {
    worker_ = std::thread([this, token, last_resort = std::move(last_resort), task = std::move(task)] {
      try {
        finish(task(token));
      } catch (...) {
        finish(last_resort);
      }
    });
  } catch (const std::system_error& e) {
    // No worker, so no job: the engine stays idle, and the `go` ends here.
    worker_done_ = true;
    const std::string command = std::string_view(kind) == "search" ? "go" : "go " + std::string(kind);
    send_error(command + ": the system would not start the " + kind + "'s thread (" + e.what() + ")");
    send(closing);
  }
}

void Engine::wait() {
  {
    std::unique_lock lock(wake_mutex_);
    wake_.wait(lock, [&] { return worker_done_.load(); });
  }
  if (worker_.joinable()) worker_.join();
}

bool Engine::wait_for(std::chrono::milliseconds timeout) {
  {
    std::unique_lock lock(wake_mutex_);
    if (!wake_.wait_for(lock, timeout, [&] { return worker_done_.load(); })) return false;
  }
  if (worker_.joinable()) worker_.join();
  return true;
}

bool Engine::handle(std::string_view line) {
  try {
    const std::vector<std::string_view> words = split_words(line);
    if (words.empty()) return true;
    const std::string_view command = words[0];
    const Words args = Words(words).subspan(1);
    auto no_args = [&] {
      if (args.empty()) return true;
      send_error(std::string(command) + " takes no arguments (got " + moon::quoted(join(args)) + ")");
      return false;
    };
    auto idle = [&] {
      if (!busy()) return true;
      send_error(std::string(command) + " is not allowed while a " + job_kind_ + " runs; send stop first");
      return false;
    };

    if (command == "quit") {
      if (!no_args()) return true;
      stop();
      return false;
    }
    if (command == "isready") {
      if (no_args()) send("readyok\n");
    } else if (command == "stop") {
      if (no_args()) stop();
    } else if (command == "umi") {
      umi(args);
    } else if (command == "d") {
      display(args);
    } else if (command == "setoption") {
      set_option(args);  // Hash and Threads only while idle; the others apply to what follows
    } else if (command == "uminewgame") {
      if (idle()) new_game(args);
    } else if (command == "position") {
      position(args);  // the running search has its own copy
    } else if (command == "go") {
      if (idle()) go(args);
    } else {
      send_error("unknown command " + moon::quoted(command) +
                 " (umi, isready, setoption, uminewgame, position, go, stop, d, quit)");
    }
  } catch (const std::exception& e) {
    send_error(std::string("internal failure: ") + e.what());
  }
  return true;
}

void Engine::umi(Words args) {
  if (!args.empty()) return send_error("umi takes no arguments (got " + moon::quoted(join(args)) + ")");
  send("id name moon " MOON_VERSION "\n"
       "id author the moon developers\n" +
       option_declarations() + "umiok\n");
}

void Engine::set_option(Words args) {
  if (args.empty() || args[0] != "name")
    return send_error(std::string("setoption needs 'name <name> value <value>'") +
                      (!args.empty() && same_name(args[0], "name") ? " (the keywords name and value are lower case)"
                                                                   : ""));
  const auto value_at = std::find(args.begin() + 1, args.end(), "value");
  const Words name(args.begin() + 1, value_at);
  if (name.empty()) return send_error("setoption needs an option name after 'name'");
  if (value_at == args.end() || value_at + 1 == args.end()) {
    // "VALUE" or "Value" in the name: the keyword was there, in the wrong case.
    const bool keyword_case =
        std::any_of(name.begin(), name.end(), [](std::string_view w) { return same_name(w, "value"); });
    return send_error("setoption name " + moon::quoted(join(name)) + " needs 'value <value>'" +
                      (keyword_case ? " (the keywords name and value are lower case)" : ""));
  }
  const auto next = protocol::set_option(options_, join(name), join(Words(value_at + 1, args.end())));
  if (!next) return send_error(next.error().message);

  // One option changes per setoption: nothing to undo when the one change is refused.
  const bool search_table = next->hash_mb != options_.hash_mb || next->threads != options_.threads;
  const bool solver_table = next->solver_hash_mb != options_.solver_hash_mb;
  if ((search_table || solver_table) && busy())
    return send_error("setoption name " + join(name) + " is not allowed while a " + job_kind_ +
                      " runs; send stop first");
  if (search_table) {
    // A larger search table must fit beside the solver's, not made yet, that the next `go solve`
    // makes (the old search table let go by then), as the solver's is checked beside the search's
    // when its size is set. One too large by itself is set_options()'s to report, below.
    if (!solver_ && next->hash_mb > options_.hash_mb && options_.solver_hash_mb && check_table_size(next->hash_mb)) {
      const std::string solver_named = "the solver's " + std::to_string(options_.solver_hash_mb) + " MiB table";
      if (const auto ok = check_table_size_beside(next->hash_mb, options_.hash_mb, options_.solver_hash_mb, solver_named);
          !ok)
        return send_error(ok.error().message);
    }
    SearchOptions search = searcher_.options();
    search.hash_mb = next->hash_mb;
    search.threads = next->threads;
    if (const auto ok = searcher_.set_options(search); !ok) return send_error(ok.error().message);
  }
  if (solver_table) {
    // The solver's table is made by the next `go solve` (which says so if it is large); here its
    // size is only checked, and the solver with the old table goes (its memory counted free).
    const std::size_t released = solver_ ? options_.solver_hash_mb : 0;
    if (const auto ok = check_table_size_after_release(next->solver_hash_mb, released); !ok)
      return send_error(ok.error().message);
    solver_.reset();
  }
  if (next->rules != options_.rules) {
    // The tables' entries hold under the old rules only. Cleared now, as by uminewgame, the next
    // `go` does not spend its time on it (a clear of 2 GiB took 260 ms of a 100 ms move); while
    // a task runs, the next search clears them itself.
    if (!busy()) forget_learnt();
    std::vector<std::string_view> words(position_words_.begin(), position_words_.end());
    const auto replayed = parse_position_command(words, next->rules);
    if (replayed) {
      position_ = *replayed;
    } else {
      position_ = Position::start(next->rules);
      position_words_ = {"startpos"};
      send("info string the position does not exist under the new rules (" + replayed.error().message +
           "); the position is now the start\n");
    }
  }
  options_ = *next;
}

void Engine::new_game(Words args) {
  if (!args.empty()) return send_error("uminewgame takes no arguments (got " + moon::quoted(join(args)) + ")");
  forget_learnt();
}

void Engine::forget_learnt() {
  searcher_.clear();
  if (solver_) solver_->clear();
}

void Engine::position(Words args) {
  const auto pos = parse_position_command(args, options_.rules);
  if (!pos) return send_error("position: " + pos.error().message);
  position_ = *pos;
  position_words_.assign(args.begin(), args.end());
}

void Engine::go(Words args) {
  const auto command = parse_go(args);
  if (!command) return send_error("go: " + command.error().message);
  if (command->perft_depth) return start_perft(*command->perft_depth);
  if (command->solve) return start_solve(command->solve_moves);
  start_search(*command);
}

void Engine::display(Words args) {
  if (!args.empty()) return send_error("d takes no arguments (got " + moon::quoted(join(args)) + ")");
  send(draw(position_) + status_line(position_) + "\nposition: " + to_string(position_) +
       "\nrules: " + rules_text(position_.rules()) + "\n");
}

void Engine::start_search(const GoCommand& go) {
  const auto parsed = search_limits(go, position_.side_to_move(), options_.move_overhead_ms);
  if (!parsed) return send_error("go: " + parsed.error().message);
  SearchLimits limits = *parsed;
  limits.multipv = options_.multipv;
  if (position_.is_over()) {
    const std::string over = game_over_line(position_);
    if (!limits.infinite) return send(over + "bestmove (none)\n");
    send(over);
    return start_job("search", "bestmove (none)\n", [this](std::stop_token token) {
      wait_for_stop(token);  // `go infinite` answers only after `stop`, even here
      return std::string("bestmove (none)\n");
    });
  }
  const MoveList legal = legal_moves(position_);
  if (legal.size() == 1 && go.timed())  // forced: spend no time on it
    return send("info string the only legal move\nbestmove " + to_string(legal[0]) + "\n");

  const Move fallback = legal[0];
  start_job("search", "bestmove " + to_string(fallback) + "\n", [this, pos = position_, limits, fallback](std::stop_token token) {
    std::string last;
    Move best = fallback;
    try {
      const auto result =
          searcher_.search(pos, limits, [this](const SearchInfo& info) { send("info " + to_string(info) + '\n'); }, token);
      if (!result) {
        last = "info string error: " + result.error().message + "\n";
      } else {
        last = "info " + totals_text(*result) + "\n";
        if (!result->best.is_null()) best = result->best;
      }
    } catch (const std::exception& e) {
      last = std::string("info string error: search failed: ") + e.what() + "\n";
    }
    if (limits.infinite) wait_for_stop(token);  // `bestmove` only after `stop`, even when the search ended sooner
    return last + "bestmove " + to_string(best) + "\n";
  });
}

void Engine::wait_for_stop(std::stop_token token) {
  std::unique_lock lock(wake_mutex_);
  wake_.wait(lock, token, [] { return false; });  // returns once the stop is requested
}

void Engine::start_perft(int depth) {
  start_job("perft", "",
            [this, pos = position_, depth, threads = options_.threads](std::stop_token token) {
    try {
      // Threads counting threads (with one, or none started, the worker counts itself; with more
      // it waits for them), each root move's line sent once that move is done, and no table:
      // Hash sizes the search's table, which a count must not double. A stop gives the error
      // "perft stopped after I of N root moves", those I lines sent.
      PerftOptions options;
      options.threads = threads;
      options.stop = token;
      options.root_move_done = [this](const DivideEntry& entry) {
        send(to_string(entry.move) + ": " + to_string(entry.nodes) + "\n");
      };
      const auto result = perft(pos, depth, options);
      if (!result)
        return (result.error().stopped ? "info string " : "info string error: perft failed: ") +
               result.error().message + "\n";
      std::string note;
      if (result->threads_not_started > 0)
        note = "info string perft: " + threads_not_started_text(result->threads_not_started) + "\n";
      return note + "Nodes searched: " + to_string(result->nodes) + "\n";
    } catch (const std::exception& e) {
      return std::string("info string error: perft failed: ") + e.what() + "\n";
    }
  });
}

SolveOptions Engine::solver_options(const EngineOptions& options) {
  SolveOptions solve;
  solve.hash_mb = options.solver_hash_mb;
  solve.threads = options.threads;
  solve.progress = [this](const std::string& text) { send("info string solve: " + text + "\n"); };
  return solve;
}

void Engine::start_solve(bool every_move) {
  // Settled by the rules: answered at once, as `go` answers it, without making the solver's table.
  if (position_.is_over())
    return send(game_over_line(position_) + solve_line(over_game_result(position_)) + "bestmove (none)\n");
  // The solver (and its table) is made or set up on the worker, not here: making a large table
  // takes seconds (solver.hpp), during which `isready` and `stop` must still be answered. While
  // the worker runs, nothing else touches solver_ (what could is refused while busy()).
  start_job("solve", "bestmove (none)\n",
            [this, every_move, pos = position_, options = solver_options(options_)](std::stop_token token) {
    std::string last;
    try {
      // Stopped is what was asked for; anything else (a table, thread or stack the system would
      // not give) is an error, and says so as every error does, even when a stop came meanwhile.
      const auto failed = [&](const Error& e) {
        return std::string(e.stopped ? "info string " : "info string error: go solve: ") + e.message +
               "\nbestmove (none)\n";
      };
      // The table is made here, announced (a progress line) rather than in silence, and a `stop`
      // or `quit` meanwhile ends the making (seconds a GiB).
      if (!solver_) {
        auto made = Solver::create(options, true, token);
        if (!made) return failed(made.error());
        solver_ = std::move(made).value();
      } else if (const auto ok = solver_->set_options(options, token); !ok) {
        return failed(ok.error());
      }
      const auto result = [&]() -> Expected<SolveResult> {
        if (!every_move) return solver_->solve(pos, token);
        // The position's value is its best move's.
        const auto values = solver_->analyze(pos, token);
        if (!values) return values.error();
        for (const MoveValue& v : *values)
          last += "info solve move " + to_string(v.move) + " value " + std::string(to_string(v.outcome)) +
                  " distance " + std::to_string(v.plies) + "\n";
        return result_of(*values);
      }();
      if (!result) last = failed(result.error());
      else last += solve_line(*result) + "bestmove " + (result->best.is_null() ? "(none)" : to_string(result->best)) + "\n";
    } catch (const std::exception& e) {
      last = std::string("info string error: solve failed: ") + e.what() + "\nbestmove (none)\n";
    }
    return last;
  });
}

}  // namespace moon::protocol
