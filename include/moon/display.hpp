// A drawn board for people: coordinates, counters, whose turn, hands, clock and result.
#pragma once

#include <string>

#include "moon/position.hpp"

namespace moon {

// The board in ASCII, rank 5 at the top. Squares in `marked` are shown as '*' when empty
// (for instance the counters a move just captured); c3 shows '+' while it must stay empty.
std::string draw(const Position& pos, Bitboard marked = 0);

// One line: side to move, phase, hands, clock against its limit, fullmove; the result if over.
std::string status_line(const Position& pos);

}  // namespace moon
