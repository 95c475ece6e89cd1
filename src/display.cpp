#include "moon/display.hpp"

#include "moon/notation.hpp"

namespace moon {

std::string draw(const Position& pos, Bitboard marked) {
  const std::string files = "    a   b   c   d   e\n";
  const std::string rule = "  +---+---+---+---+---+\n";
  std::string text = files + rule;
  for (int rank = 4; rank >= 0; --rank) {
    const char label = char('1' + rank);
    text += label;
    text += " |";
    for (int file = 0; file < 5; ++file) {
      const Square s = make_square(file, rank);
      const Bitboard b = square_bb(s);
      char c = ' ';
      if (pos.pieces(x) & b) c = 'x';
      else if (pos.pieces(o) & b) c = 'o';
      else if (marked & b) c = '*';
      else if (s == centre && pos.in_placement()) c = '+';
      text += ' ';
      text += c;
      text += " |";
    }
    text += ' ';
    text += label;
    text += '\n';
    text += rule;
  }
  return text + files;
}

std::string status_line(const Position& pos) {
  std::string text;
  const Phase phase = pos.phase();
  if (phase == Phase::over) {
    text = "game over: " + to_string(pos.result()) + " (x " + std::to_string(pos.count(x)) + ", o " +
           std::to_string(pos.count(o)) + " counters)";
  } else {
    text = to_string(pos.side_to_move()) + " to move, " + to_string(phase) + " phase";
  }
  if (pos.in_placement())
    text += "; in hand x " + std::to_string(pos.in_hand(x)) + ", o " + std::to_string(pos.in_hand(o));
  text += "; clock " + std::to_string(pos.clock()) + "/" + std::to_string(pos.rules().clock_limit);
  text += "; move " + std::to_string(shown_fullmove(pos));
  return text;
}

}  // namespace moon
