#include "cli/solve_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <utility>

#include "moon/solver.hpp"

namespace moon::cli {

namespace {

constexpr int assumed_columns = 80;

}  // namespace

SolveProgress::SolveProgress(std::ostream& out, std::string label, std::function<int()> terminal_columns,
                             std::chrono::seconds log_interval)
    : out_(out), label_(std::move(label)), terminal_columns_(std::move(terminal_columns)), log_interval_(log_interval) {}

std::string SolveProgress::close_counts_line() {
  if (!counts_line_open_) return {};
  counts_line_open_ = false;
  return "\n";
}

void SolveProgress::report(const std::string& line, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  const auto separator = line.rfind(solve_progress_separator);
  // Each write is one string, flushed: the stream is unbuffered standard error, shared with the
  // interrupt's notice, and a line must not be split by another thread's.
  if (separator == std::string::npos) {
    std::string text = close_counts_line();
    text += label_ + line + "\n";
    out_ << text << std::flush;
    question_.clear();
    return;
  }
  const std::string question = line.substr(0, separator);
  const std::string counts = line.substr(separator + solve_progress_separator.size());
  const bool new_question = question != question_;
  question_ = question;
  if (!terminal_columns_) {
    if (!new_question && last_logged_ && now - *last_logged_ < log_interval_) return;
    out_ << (label_ + line + "\n") << std::flush;
    last_logged_ = now;
    return;
  }
  std::string text;
  if (new_question) {
    text = close_counts_line();  // the last counts stay
    text += label_ + question + "\n";
  }
  // Redrawn from the line's start, cleared to its end, and no wider than the terminal: a line
  // that wrapped could not be redrawn in place.
  std::string drawn = label_ + "  " + counts;
  int columns = terminal_columns_();
  if (columns <= 0) columns = assumed_columns;
  if (drawn.size() >= std::size_t(columns)) drawn.resize(std::size_t(columns - 1));
  text += "\r\033[K" + drawn;
  out_ << text << std::flush;
  counts_line_open_ = true;
}

void SolveProgress::notice(std::string_view text) {
  std::lock_guard lock(mutex_);
  std::string written = close_counts_line();
  written += text;
  out_ << written << std::flush;
}

void SolveProgress::finish() {
  std::lock_guard lock(mutex_);
  if (const std::string end = close_counts_line(); !end.empty()) out_ << end << std::flush;
}

std::function<int()> standard_error_terminal() {
  if (!isatty(STDERR_FILENO)) return {};
  return [] {
    winsize size{};
    return ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 ? int(size.ws_col) : 0;
  };
}

}  // namespace moon::cli
