#include <iostream>
#include <vector>

#include "cli/commands.hpp"
#include "moon/display.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "show";
constexpr std::string_view help =
    "Usage: moon show [options] [MOVE ...]\n"
    "\n"
    "Plays the moves in order from the position, draws the board (the counters the last\n"
    "move captured are marked '*'), prints the position string and lists the legal moves\n"
    "with the counters each would capture. Moves: b4 (placement), b3c3 (movement), 0000 (pass).\n"
    "\n"
    "Options:\n";

}  // namespace

int show_command(Args args) {
  PositionOptions where;
  std::vector<std::string_view> moves;
  for (ArgReader reader(args); !reader.done();) {
    const CommonArgument common = read_position_or_help(reader, where, name, help);
    if (common.exit_code) return *common.exit_code;
    if (common.read) continue;
    if (!consume_move_text(reader, moves)) return usage_error(name, reader.unknown());
  }
  const auto start = where.position();
  if (!start) return usage_error(name, start.error().message);
  Bitboard last_captures = 0;
  const auto played = play_move_texts(*start, moves, &last_captures);
  if (!played) return usage_error(name, played.error().message);
  const Position current = *played;

  std::cout << draw(current, last_captures) << status_line(current) << "\n"
            << "position: " << to_string(current) << "\n";
  const MoveList legal = legal_moves(current);
  std::cout << "legal moves (" << legal.size() << "):";
  if (legal.empty()) std::cout << " none";
  std::cout << "\n";
  for (Move m : legal) {
    std::cout << "  " << to_string(m);
    if (const Bitboard captured = current.captures_of(m)) std::cout << "  captures " << squares_text(captured);
    std::cout << "\n";
  }
  return 0;
}

}  // namespace moon::cli
