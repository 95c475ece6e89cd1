// moon solve's progress on standard error. While it proves, the solver reports about once a
// second a line "<question> | <counts>" (solve_progress_separator, solver.hpp): the question it
// is asking, with what it has proven so far, then the nodes, their rate, the time and the
// table's fill. A solve of an hour would write thousands of such lines, mostly repeating the
// question, so:
// - on a terminal, each question gets a line of its own, and its counts a line beneath that is
//   redrawn in place (kept, with its last figures, when the next question comes);
// - elsewhere (a log, a pipe), a line when the question changes, and while it does not, at most
//   one every `log_interval`.
// Lines without counts (the table being made) are written as they come, either way.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace moon::cli {

class SolveProgress {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds default_log_interval{10};

  // `terminal_columns`: empty if `out` is not a terminal, else the terminal's width now (asked at
  // every redraw, as a window may be resized; 0 or less if unknown: 80 is assumed). Every line
  // starts with `label` ("solve: ").
  SolveProgress(std::ostream& out, std::string label, std::function<int()> terminal_columns,
                std::chrono::seconds log_interval = default_log_interval);

  // One of the solver's progress lines (safe from any thread).
  void report(const std::string& line, Clock::time_point now = Clock::now());
  // A line of its own (Ctrl-C's notice), written whole: on a terminal, the counts line is ended
  // first (kept) and the next counts start beneath the notice.
  void notice(std::string_view text);
  // Ends the counts line on a terminal, so that what follows (the result, an error) starts a line
  // of its own; call it before writing anything else to the terminal.
  void finish();

 private:
  // With mutex_ held: "\n" if a counts line is open (closed by it, and kept), else nothing; put
  // before the next text, in the same write.
  std::string close_counts_line();

  std::ostream& out_;
  std::string label_;
  std::function<int()> terminal_columns_;
  std::chrono::seconds log_interval_;

  std::mutex mutex_;
  std::string question_;               // the last question written
  bool counts_line_open_ = false;      // terminal: the cursor is at the end of a counts line
  std::optional<Clock::time_point> last_logged_;  // log: when the last line was written
};

// The terminal_columns for standard error: empty if it is not a terminal.
std::function<int()> standard_error_terminal();

}  // namespace moon::cli
