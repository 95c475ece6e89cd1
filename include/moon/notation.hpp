// Text forms of RULES.md: squares, moves and the position string.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "moon/expected.hpp"
#include "moon/move.hpp"
#include "moon/position.hpp"
#include "moon/rules.hpp"

namespace moon {

inline constexpr std::string_view start_position_string = "5/5/5/5/5 x 12 12 0 1";

std::string square_name(Square s);                   // "a1" .. "e5"
Expected<Square> parse_square(std::string_view text);

std::string to_string(Move m);  // "b4", "b3c3", "0000" (a pass); "(none)" for the null move
// Reads move text and checks that it is legal in pos; the error says why not.
Expected<Move> parse_move(std::string_view text, const Position& pos);

// The position string, digits merged. The fullmove is read up to max_fullmove and written as at
// most that (it is informational; a game started there may count past it), so that every
// string written reads back.
std::string to_string(const Position& pos);
inline constexpr std::uint32_t max_fullmove = 999'999'999;
// The fullmove as every output shows it (position string, status line, C API): capped as above.
inline int shown_fullmove(const Position& pos) {
  return int(std::min(std::uint32_t(pos.fullmove()), max_fullmove));
}
// Reads a position string under the given rules; nothing is built unless all of it is valid.
Expected<Position> parse_position(std::string_view text, const Rules& rules = {});

std::string to_string(Color c);                       // "x" or "o"
std::string to_string(Result r);                      // "x wins", "o wins", "draw", "none"
std::string to_string(Phase p);                       // "placement", "movement", "over"
std::string squares_text(Bitboard b);                 // "b2 c2", lowest square first

// 'text' in quotes for an error message, control characters and other bytes outside printable
// ASCII shown as \xNN (and a backslash as \\) and text past 80 bytes cut short ("..."), so
// that a message about any input stays one printable line that names what was typed.
std::string quoted(std::string_view text);

}  // namespace moon
