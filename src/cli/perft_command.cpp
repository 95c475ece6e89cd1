#include <algorithm>
#include <cctype>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "moon/memory.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "perft";
static_assert(max_perft_hash_mb == 1048576 && max_perft_threads == 256, "the help text below states these ranges");
constexpr std::string_view help =
    "Usage: moon perft [options] DEPTH [MOVE ...]\n"
    "\n"
    "Counts the leaf nodes of the legal-move tree DEPTH plies deep (0-255), from the\n"
    "position after the MOVEs if any are given: to follow a --divide that disagrees\n"
    "down its line, e.g. 'moon perft --divide 4 b4', then 'moon perft --divide 3 b4 c4'.\n"
    "The last line of standard output is 'Nodes searched: N'; time and speed go to\n"
    "standard error, with progress while a long count runs on a terminal. Ctrl-C stops\n"
    "the count (exit status 130), the --divide lines already printed kept.\n"
    "\n"
    "Options:\n"
    "  --divide           also print '<move>: <count>' for each legal root move, in the\n"
    "                     engine's generation order (sort both lists to compare them\n"
    "                     with another program's), each as soon as its count is done\n"
    "  --hash MB          use a transposition table of MB mebibytes (0-1048576, at most the\n"
    "                     machine's memory; default 0: none)\n"
    "  --threads N        count with N threads (1-256; default 1)\n";

// The progress line on a terminal ("perft: 12/576 subtrees counted", redrawn in place), which
// other text written to the terminal clears first. Written from the counting thread and from
// Ctrl-C's watcher: one at a time.
class ProgressLine {
 public:
  explicit ProgressLine(bool on_terminal) : on_terminal_(on_terminal) {}

  void show(std::size_t done, std::size_t total) {
    if (!on_terminal_) return;
    const std::lock_guard lock(mutex_);
    std::cerr << "\rperft: " << done << "/" << total << " subtrees counted" << std::flush;
    open_ = true;
  }
  // Before writing anything else to the terminal (standard output may be the terminal too).
  void clear() {
    const std::lock_guard lock(mutex_);
    clear_locked();
  }
  // A whole line of standard error, the progress line cleared first.
  void write(const std::string& line) {
    const std::lock_guard lock(mutex_);
    clear_locked();
    std::cerr << line << std::flush;
  }

 private:
  void clear_locked() {
    if (open_) std::cerr << "\r\033[K" << std::flush;
    open_ = false;
  }

  bool on_terminal_;
  std::mutex mutex_;
  bool open_ = false;  // the cursor is at the end of a progress line
};

}  // namespace

int perft_command(Args args) {
  PositionOptions where;
  PerftOptions options;
  bool divide = false;
  std::optional<int> depth;
  std::vector<std::string_view> moves;
  for (ArgReader reader(args); !reader.done();) {
    const CommonArgument common = read_position_or_help(reader, where, name, help);
    if (common.exit_code) return *common.exit_code;
    if (common.read) continue;
    if (reader.bare_flag("--divide")) {
      divide = true;
    } else if (reader.flag("--hash")) {
      const auto mb = int_value(reader, "--hash", 0, std::int64_t(max_perft_hash_mb));
      if (!mb) return usage_error(name, mb.error().message);
      options.hash_mb = std::size_t(*mb);
    } else if (reader.flag("--threads")) {
      const auto n = int_value(reader, "--threads", 1, max_perft_threads);
      if (!n) return usage_error(name, n.error().message);
      options.threads = int(*n);
    } else if (reader.current().size() > 1 && reader.current()[0] == '-' && !std::isdigit(static_cast<unsigned char>(reader.current()[1]))) {
      return usage_error(name, reader.unknown());
    } else if (depth) {
      // After the depth: moves. A number is a second depth, but for the pass.
      const std::string_view arg = reader.current();
      if (!arg.empty() && arg != "0000" &&
          std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return usage_error(name, "more than one DEPTH given (" + moon::quoted(arg) + ")");
      // A dash and a digit ("-1") is no move: refused, not left unread (the loop never ended).
      if (!consume_move_text(reader, moves)) return usage_error(name, reader.unknown());
    } else {
      const auto d = parse_whole_number(reader.current(), "DEPTH", 0, max_perft_depth);
      if (!d) return usage_error(name, d.error().message);
      depth = int(*d);
      reader.skip();
    }
  }
  // The position first: in `moon perft --fen 2`, --fen took the depth as its position string.
  const auto start_position = where.position();
  if (!start_position) return usage_error(name, start_position.error().message);
  if (!depth) return usage_error(name, "missing DEPTH");
  const auto pos = play_move_texts(*start_position, moves);
  if (!pos) return usage_error(name, pos.error().message);
  if (const auto fits = check_table_size(options.hash_mb); !fits) return usage_error(name, fits.error().message);

  ProgressLine progress_line(isatty(STDERR_FILENO));
  // Ctrl-C stops the count (a second one kills the program): the root moves' lines already
  // written stay, and the last words say how far it got. The notice comes from the watcher's
  // thread, so it goes through progress_line, which the counting thread writes too.
  const InterruptWatch interrupt(name, "stopping", [&progress_line](const std::string& notice) {
    progress_line.write(notice);
  });
  options.stop = interrupt.token();
  options.progress = [&progress_line](std::size_t done, std::size_t total) { progress_line.show(done, total); };
  // Each root move's line as soon as its count is done (flushed: Ctrl-C or a closed pipe keeps
  // those already shown), not all at the end: a validator following a long divided count sees
  // where it is, and one that stops it keeps the lines it has.
  if (divide)
    options.root_move_done = [&progress_line](const DivideEntry& entry) {
      progress_line.clear();
      std::cout << to_string(entry.move) << ": " << to_string(entry.nodes) << std::endl;
    };
  const auto start = std::chrono::steady_clock::now();
  const auto result = perft(*pos, *depth, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress_line.clear();
  if (!result && result.error().stopped) {
    std::cerr << "moon perft: " << result.error().message << ", in " << std::fixed << std::setprecision(3)
              << seconds << " s\n";
    return interrupted_status;
  }
  // The input is checked above: what is left is a table that cannot be allocated, or a count past
  // 128 bits.
  if (!result) return resource_failure(name, result.error().message);
  if (result->threads_not_started)
    std::cerr << "perft: " << threads_not_started_text(result->threads_not_started) << "\n";

  std::cerr << std::fixed << std::setprecision(3) << "time " << seconds << " s, "
            << std::setprecision(0) << double(result->nodes) / std::max(seconds, 1e-9) << " nodes/s\n";
  std::cout << "Nodes searched: " << to_string(result->nodes) << std::endl;
  return 0;
}

}  // namespace moon::cli
