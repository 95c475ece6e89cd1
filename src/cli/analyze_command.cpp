#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/search_options.hpp"
#include "moon/memory.hpp"
#include "moon/notation.hpp"
#include "moon/search.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "analyze";
constexpr std::string_view help =
    "Usage: moon analyze [options] [MOVE ...]\n"
    "\n"
    "Searches the position (after playing the MOVEs, if any) and prints a line per completed\n"
    "iteration:\n"
    "  depth D score S nodes N nps R time MS hashfull H pv MOVE ...\n"
    "where S is 'cp N' (heuristic, centi-counters, side to move's view), 'win N' / 'loss N'\n"
    "(proven: the game ends in N plies) or 'draw' (proven). With --multipv K, K lines per\n"
    "iteration, 'depth D multipv 1 score ...' for the best move to 'multipv K', each move with\n"
    "its own score and line. Then the whole search's totals, the iteration it did not finish\n"
    "included:\n"
    "  total nodes N nps R time MS\n"
    "and as the last line 'bestmove MOVE' (when the game is over, the lines 'game over:\n"
    "RESULT' and 'bestmove none'). Without a limit it searches for 1000 ms. A single legal\n"
    "move is searched like any other: the value is what is asked for.\n"
    "Ctrl-C stops the search: the bestmove line comes from the iterations completed, and the\n"
    "exit status is 130. A second Ctrl-C quits at once, as does the first while the table is\n"
    "being made (a --hash of 256 MiB or more is announced on standard error: it takes\n"
    "seconds).\n"
    "\n"
    "Options:\n";
static_assert(max_multipv == 64, "multipv_help states this range");
constexpr std::string_view multipv_help =
    "  --multipv K        report the K best moves, each with its score and line (1-64;\n"
    "                     default 1; a position with fewer legal moves reports them all)\n";

}  // namespace

int analyze_command(Args args) {
  PositionOptions where;
  SearchLimits limits;
  SearchOptions options;
  std::vector<std::string_view> moves;
  for (ArgReader reader(args); !reader.done();) {
    if (reader.bare_flag("--help") || reader.bare_flag("-h")) {
      std::cout << help << position_options_help << limit_options_help << multipv_help << engine_options_help;
      return 0;
    }
    if (reader.flag("--multipv")) {
      const auto k = int_value(reader, "--multipv", 1, max_multipv);
      if (!k) return usage_error(name, k.error().message);
      limits.multipv = int(*k);
      continue;
    }
    if (const auto read = consume_search_argument(reader, where, limits, options, moves); !read)
      return usage_error(name, read.error().message);
  }
  const auto start = where.position();
  if (!start) return usage_error(name, start.error().message);
  const auto pos = play_move_texts(*start, moves);
  if (!pos) return usage_error(name, pos.error().message);
  if (!has_limit(limits)) limits.movetime_ms = 1000;
  limits.analysis = true;  // a forced move is searched too: its value is what is asked for

  // A size the machine cannot hold is bad input; one it will not give now is a failure. (The
  // searcher starts with the smallest table; set_options() says why a size was refused.)
  if (const auto fits = check_table_size(options.hash_mb); !fits) return usage_error(name, fits.error().message);
  Searcher searcher(with_smallest_table(options));
  if (const auto ok = set_search_options(name, searcher, options); !ok)
    return resource_failure(name, ok.error().message);
  // Only now: Ctrl-C while a large table is made kills the program at once (nothing to print).
  const InterruptWatch interrupt(name);
  const auto print = [](const SearchInfo& info) { std::cout << to_string(info) << std::endl; };
  const auto result = searcher.search(*pos, limits, print, interrupt.token());
  // The limits are checked above: what is left is helper threads the system will not make.
  if (!result) return resource_failure(name, result.error().message);
  if (result->best.is_null()) {
    std::cout << "game over: " << to_string(pos->result()) << "\nbestmove none\n";
    return 0;
  }
  std::cout << "total " << totals_text(*result) << "\nbestmove " << to_string(result->best) << std::endl;
  return interrupt.interrupted() ? interrupted_status : 0;
}

}  // namespace moon::cli
