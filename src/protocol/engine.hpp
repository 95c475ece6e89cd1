// `moon protocol`: a UCI-style line protocol over a pair of streams (docs/PROTOCOL.md).
//
// Commands are read and answered on the calling thread; a search, a solve or a perft runs on one
// worker thread, so that `isready`, `stop`, `d` and `quit` are answered while it runs, and
// `position` and the rule options set up the next search. Every
// line written is whole and flushed: output from the two threads never interleaves within a
// line. A command that is malformed, unknown or not allowed now is answered with
// `info string error: <what is wrong>` and changes nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "moon/position.hpp"
#include "moon/search.hpp"
#include "moon/solver.hpp"
#include "protocol/commands.hpp"
#include "protocol/options.hpp"
#include "protocol/words.hpp"

namespace moon::protocol {

// Longer input lines are refused whole (a game's longest `position ... moves` line is a few KB).
inline constexpr std::size_t max_line_length = 1 << 20;

class Engine {
 public:
  explicit Engine(std::ostream& out);
  ~Engine();  // stops a running task and waits for it
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Answers the commands of `in` until `quit` or the end of input; a search still running then
  // is stopped and its `bestmove` written. Returns the exit status, 0.
  int run(std::istream& in);

  // Answers one line (without its newline); false after `quit`.
  bool handle(std::string_view line);

  // Waits until the running search, solve or perft ends by itself (tests; never returns for
  // `go infinite` without a `stop`).
  void wait();
  // The same for at most `timeout`: false if the task still runs then.
  bool wait_for(std::chrono::milliseconds timeout);

 private:
  void send(std::string_view text);          // whole lines, flushed
  void send_error(std::string_view message);  // "info string error: ..."
  void finish(std::string_view text);         // the worker's last lines: marks it done first

  bool busy();   // a task runs (a finished worker is joined first)
  void stop();   // ends the running task and waits until its last line is written

  void umi(Words args);
  void set_option(Words args);
  void new_game(Words args);
  void forget_learnt();  // the search's table and history, the solver's table (not while busy)
  void position(Words args);
  void go(Words args);
  void display(Words args);
  // Before a worker starts: not done, a fresh stop source; `kind` ("search", "solve", "perft")
  // names the job in the refusals of commands that must wait for it.
  std::stop_token new_job(const char* kind);
  // Starts a job on the worker: `task(token)` returns the job's last lines for finish(), which end
  // with `closing` ("bestmove ...", or nothing for a perft). Were it to throw anyway (its own
  // errors it reports itself; this is building that text failing for want of memory),
  // "info string error: <kind> failed" and `closing`, made before the worker starts, are written
  // instead: an exception leaving a thread would end the program, and a job that never finished
  // would keep the engine busy for good. Where the system will not start the worker, the error
  // says so and `closing` follows at once: a frontend waiting for `bestmove` gets it.
  template <class Task>
  void start_job(const char* kind, std::string closing, Task task);
  void wait_for_stop(std::stop_token token);  // on a worker: until the job's stop is requested
  void start_search(const GoCommand& go);
  void start_perft(int depth);
  void start_solve(bool every_move);
  SolveOptions solver_options(const EngineOptions& options);  // its progress goes to `info string`

  std::ostream& out_;
  std::mutex out_mutex_;

  EngineOptions options_;
  std::vector<std::string> position_words_{"startpos"};  // replayed when a rule option changes
  Position position_;
  Searcher searcher_;
  std::unique_ptr<Solver> solver_;  // made by the first `go solve` (its table is large)

  std::thread worker_;
  std::atomic<bool> worker_done_{true};
  const char* job_kind_ = "search";  // the running (or last) job's, read on the main thread only
  std::stop_source job_stop_;  // a fresh one per job (new_job()): `stop` ends it even before it begins
  std::mutex wake_mutex_;
  std::condition_variable_any wake_;  // the worker done; an infinite search's wait for its stop
};

}  // namespace moon::protocol
