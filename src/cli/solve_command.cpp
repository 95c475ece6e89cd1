#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/solve_progress.hpp"
#include "moon/memory.hpp"
#include "moon/notation.hpp"
#include "moon/solver.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "solve";
static_assert(announced_solve_table_mb == 256 && default_solve_hash_mb == 64, "the help text below says 256 MiB and 64 MiB");
static_assert(SolveProgress::default_log_interval == std::chrono::seconds(10), "the help text below says 10 s");
static_assert(max_solve_hash_mb == 65536 && max_solve_threads == 256, "the help text below states these ranges");
constexpr std::string_view help =
    "Usage: moon solve [options] [MOVE ...]\n"
    "\n"
    "Proves the game-theoretic value of the position (after playing the MOVEs, if any) for the\n"
    "side to move. Standard output:\n"
    "  value win|draw|loss\n"
    "  distance N       plies to the end of the game under best play: the fastest win, the\n"
    "                   slowest loss, or the shortest drawing line (both sides keeping the draw)\n"
    "  bestmove MOVE    a move that keeps the value and the distance ('none' if the game is over)\n"
    "  nodes N\n"
    "  time_ms N\n"
    "Progress goes to standard error while the solver works: the question it is asking, then the\n"
    "nodes, their rate, the time and the table's fill; on a terminal, a line per question with\n"
    "the figures redrawn in place beneath it, elsewhere a line when the question changes and\n"
    "else one every 10 s. A table of 256 MiB or more gets a line while it is made (every page\n"
    "is written then, about 2 s a GiB). Positions deep in the game solve in moments; positions\n"
    "early in the movement phase or in placement may be out of reach. Ctrl-C stops the solve\n"
    "(nothing is proven then; exit status 130); a second Ctrl-C quits at once, as does the\n"
    "first while the table is being made.\n"
    "\n"
    "Options:\n"
    "  --hash MB          transposition table size in MiB (0-65536, at most the machine's\n"
    "                     memory; default 64; 0: none); one thread uses it from 1 MiB up,\n"
    "                     doubling the part in use as it fills. Much of the solver's speed\n"
    "                     is the table: without one (or with a small one) a solve can take\n"
    "                     tens of times as long, and --moves far longer still\n"
    "  --threads N        solve with N threads sharing the table (1-256; default 1)\n"
    "  --no-distance      prove only win/draw/loss (prints 'distance unknown')\n"
    "  --moves            prove every legal move as well: after bestmove, a line per move, best\n"
    "                     first: 'move MOVE win|draw|loss N', N the distance counting the move\n"
    "                     ('unknown' with --no-distance); about as long as solving the position\n"
    "                     after each move in turn\n"
    "  --quiet            no progress on standard error (the table's line included)\n";

}  // namespace

int solve_command(Args args) {
  PositionOptions where;
  SolveOptions options;
  bool quiet = false, every_move = false;
  std::vector<std::string_view> moves;
  for (ArgReader reader(args); !reader.done();) {
    const CommonArgument common = read_position_or_help(reader, where, name, help);
    if (common.exit_code) return *common.exit_code;
    if (common.read) continue;
    if (reader.flag("--hash")) {
      const auto mb = int_value(reader, "--hash", 0, std::int64_t(max_solve_hash_mb));
      if (!mb) return usage_error(name, mb.error().message);
      options.hash_mb = std::size_t(*mb);
    } else if (reader.flag("--threads")) {
      const auto n = int_value(reader, "--threads", 1, max_solve_threads);
      if (!n) return usage_error(name, n.error().message);
      options.threads = int(*n);
    } else if (reader.bare_flag("--no-distance")) {
      options.distance = false;
    } else if (reader.bare_flag("--quiet")) {
      quiet = true;
    } else if (reader.bare_flag("--moves")) {
      every_move = true;
    } else if (!consume_move_text(reader, moves)) {
      return usage_error(name, reader.unknown());
    }
  }
  const auto start = where.position();
  if (!start) return usage_error(name, start.error().message);
  const auto played = play_move_texts(*start, moves);
  if (!played) return usage_error(name, played.error().message);
  const Position position = *played;

  // Made before the solver, whose threads report to it, and gone after.
  SolveProgress progress(std::cerr, "solve: ", standard_error_terminal());
  if (!quiet) options.progress = [&progress](const std::string& line) { progress.report(line); };
  if (const auto fits = check_table_size(options.hash_mb); !fits) return usage_error(name, fits.error().message);
  const auto print = [&](const SolveResult& result, const std::vector<MoveValue>& move_values) {
    const auto distance = [](int plies) { return plies >= 0 ? std::to_string(plies) : std::string("unknown"); };
    std::cout << "value " << to_string(result.outcome) << "\n"
              << "distance " << distance(result.plies) << "\n"
              << "bestmove " << (result.best.is_null() ? std::string("none") : to_string(result.best)) << "\n";
    for (const MoveValue& v : move_values)
      std::cout << "move " << to_string(v.move) << " " << to_string(v.outcome) << " " << distance(v.plies) << "\n";
    std::cout << "nodes " << result.nodes << "\n"
              << "time_ms " << result.time_ms << std::endl;
    if (!quiet)
      std::cerr << "solve: " << result.nodes << " nodes in " << std::fixed << std::setprecision(3)
                << double(result.time_ms) / 1000.0 << " s, " << std::setprecision(1)
                << (result.time_ms ? double(result.nodes) / double(result.time_ms) / 1000.0 : 0.0) << " Mn/s\n";
    return 0;
  };
  // A game that is over is answered by its rules: no solver, and no table made for nothing.
  if (position.is_over()) return print(over_game_result(position, options.distance), {});
  // Making a large table takes seconds (solver.hpp), which would pass in silence unannounced.
  auto solver = Solver::create(options, true);
  if (!solver) return resource_failure(name, solver.error().message);  // threads the system will not make
  // Only now: Ctrl-C while the table is made (seconds a GiB) kills the program at once, as
  // nothing is proven yet that could be printed.
  const InterruptWatch interrupt(name, "stopping", [&progress](const std::string& notice) { progress.notice(notice); });
  // With --moves the position's value is the best move's.
  std::vector<MoveValue> move_values;
  if (every_move) {
    auto analysis = (*solver)->analyze(position, interrupt.token());
    progress.finish();
    if (!analysis) {
      std::cerr << "moon solve: " << analysis.error().message << "\n";
      return analysis.error().stopped ? interrupted_status : 1;
    }
    move_values = std::move(analysis).value();
  }
  const auto result = move_values.empty() ? (*solver)->solve(position, interrupt.token())
                                          : result_of(move_values);
  progress.finish();
  if (!result) {
    std::cerr << "moon solve: " << result.error().message << "\n";
    return result.error().stopped ? interrupted_status : 1;
  }
  return print(*result, move_values);
}

}  // namespace moon::cli
