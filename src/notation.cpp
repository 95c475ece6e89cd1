#include "moon/notation.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "moon/movegen.hpp"
#include "split_fields.hpp"

namespace moon {

// Assembles a Position field by field; only parse_position() uses it, after validating.
struct PositionBuilder {
  static Position build(std::array<Bitboard, 2> pieces, Color side, std::array<int, 2> hands, int clock,
                        std::uint32_t fullmove, const Rules& rules) {
    Position p;
    p.pieces_ = pieces;
    p.side_ = side;
    p.in_hand_ = {std::uint8_t(hands[x]), std::uint8_t(hands[o])};
    p.clock_ = std::uint8_t(clock);
    p.fullmove_ = fullmove;
    p.rules_ = rules;
    return p;
  }
};

std::string quoted(std::string_view text) {
  constexpr std::size_t max_shown = 80;
  std::string q(1, '\'');
  // A byte outside printable ASCII as \xNN, a backslash or a quote after a backslash, so that
  // nothing the user did not type shows up ("é" once read '??' and was said to be the unknown
  // character '?') and the closing quote is the only bare one (a quote once showed as ''').
  constexpr std::string_view hex = "0123456789abcdef";
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f) {
      q += "\\x";
      q += hex[c >> 4];
      q += hex[c & 15];
    } else {
      if (c == '\\' || c == '\'') q += '\\';
      q += char(c);
    }
  }
  if (text.size() > max_shown) q += "...";
  q += '\'';
  return q;
}

namespace {

// A whole number made of digits only, within [low, high].
Expected<std::int64_t> parse_count(std::string_view text, std::string_view what, std::int64_t low,
                                   std::int64_t high) {
  const std::string range = " must be a whole number from " + std::to_string(low) + " to " + std::to_string(high);
  if (text.empty()) return Error{std::string(what) + " is empty; it" + range};
  for (char c : text)
    if (c < '0' || c > '9') return Error{std::string(what) + " " + moon::quoted(text) + range};
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < low || value > high)
    return Error{std::string(what) + " " + moon::quoted(text) + range};
  return value;
}

struct Board {
  std::array<Bitboard, 2> pieces{};
};

Expected<Board> parse_board(std::string_view text) {
  const auto ranks = split_fields(text, '/');
  if (ranks.size() != 5)
    return Error{"board " + moon::quoted(text) + " has " + std::to_string(ranks.size()) +
                 (ranks.size() == 1 ? " rank" : " ranks") + "; it needs exactly 5"};
  Board board;
  for (int rank = 4; rank >= 0; --rank) {  // ranks are written from 5 down to 1
    const std::string_view written = ranks[std::size_t(4 - rank)];
    const std::string rank_name = "rank " + std::to_string(rank + 1);
    int file = 0;
    for (char c : written) {
      if (c >= '1' && c <= '5') {
        file += c - '0';
      } else if (c == 'x' || c == 'o') {
        if (file < 5) board.pieces[c == 'x' ? x : o] |= square_bb(make_square(file, rank));
        ++file;
      } else {
        return Error{rank_name + " " + moon::quoted(written) + " has the unknown character " + moon::quoted({&c, 1}) +
                     " (use x, o and the digits 1-5)"};
      }
      if (file > 5) break;
    }
    if (file != 5)
      return Error{rank_name + " " + moon::quoted(written) + (file > 5 ? " covers more than 5 squares" : " covers only ") +
                   (file > 5 ? "" : std::to_string(file) + (file == 1 ? " square" : " squares")) +
                   "; each rank covers exactly 5"};
  }
  return board;
}

std::string movement_error(const Position& pos, Square from, Square to) {
  const Color us = pos.side_to_move();
  const Bitboard mine = pos.pieces(us), theirs = pos.pieces(~us);
  const std::string name = square_name(from), target = square_name(to);
  if (theirs & square_bb(from)) return name + " holds " + to_string(~us) + "'s counter, not " + to_string(us) + "'s";
  if (!(mine & square_bb(from))) return "there is no " + to_string(us) + " counter on " + name;
  if (from == to) return "a move must go to another square";
  if (pos.occupied() & square_bb(to)) return target + " is occupied";
  if (file_of(from) != file_of(to) && rank_of(from) != rank_of(to)) {
    const bool diagonal = std::abs(file_of(from) - file_of(to)) == std::abs(rank_of(from) - rank_of(to));
    if (diagonal) return "counters move along a rank or a file, never diagonally (" + name + " to " + target + ")";
    return "counters move along a rank or a file, and " + name + " and " + target + " share neither";
  }
  if (!pos.rules().slide()) return "a counter moves one square at a time (" + name + " to " + target + ")";
  return "the way from " + name + " to " + target + " is blocked";
}

}  // namespace

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

Expected<Square> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'e' || text[1] < '1' || text[1] > '5') {
    // 'B4' reads as the square b4 to a person: the case is what is wrong, so say that.
    const bool upper_case = text.size() == 2 && text[0] >= 'A' && text[0] <= 'E' && text[1] >= '1' && text[1] <= '5';
    if (upper_case) return Error{moon::quoted(text) + " is not a square: squares are written in lower case (" +
                                 char(text[0] - 'A' + 'a') + text[1] + ")"};
    return Error{moon::quoted(text) + " is not a square (a1 to e5)"};
  }
  return make_square(text[0] - 'a', text[1] - '1');
}

std::string to_string(Move m) {
  switch (m.kind()) {
    case MoveKind::placement: return square_name(m.to());
    case MoveKind::movement: return square_name(m.from()) + square_name(m.to());
    case MoveKind::pass: return "0000";
    case MoveKind::none: break;
  }
  return "(none)";
}

Expected<Move> parse_move(std::string_view text, const Position& pos) {
  const std::string shown = moon::quoted(text);
  Move move;
  if (text == "0000") {
    move = Move::pass();
  } else if (text == "pass") {  // what a person may well type (moon play takes it as a word)
    return Error{shown + " is not move text: the pass is written 0000"};
  } else if (text.size() == 2) {
    const auto to = parse_square(text);
    if (!to) return Error{shown + " is not a move: " + to.error().message};
    move = Move::placement(*to);
  } else if (text.size() == 4) {
    const auto from = parse_square(text.substr(0, 2));
    const auto to = parse_square(text.substr(2, 2));
    if (!from || !to) return Error{shown + " is not a move: " + (from ? to : from).error().message};
    move = Move::movement(*from, *to);
  } else {
    return Error{shown + " is not a move (a placement like b4, a movement like b3c3, or the pass 0000)"};
  }

  const MoveList legal = legal_moves(pos);
  if (legal.contains(move)) return move;

  const std::string why = shown + " is illegal: ";
  if (pos.is_over()) return Error{why + "the game is over"};
  const std::string side = to_string(pos.side_to_move());
  if (pos.in_placement()) {
    if (move.kind() != MoveKind::placement)
      return Error{why + "counters are still in hand, so " + side + " must place one (a single square like b4)"};
    if (move.to() == centre) return Error{why + "no counter may be placed on c3"};
    return Error{why + square_name(move.to()) + " is occupied"};
  }
  if (move.kind() == MoveKind::placement)
    return Error{why + "all counters are placed; a move goes from a square to a square, like b3c3"};
  if (move.kind() == MoveKind::pass) return Error{why + side + " is not blocked, so it may not pass"};
  if (legal[0] == Move::pass()) return Error{why + side + " is blocked and must pass (0000)"};
  return Error{why + movement_error(pos, move.from(), move.to())};
}

std::string to_string(const Position& pos) {
  std::string text;
  for (int rank = 4; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < 5; ++file) {
      const Bitboard b = square_bb(make_square(file, rank));
      const char c = (pos.pieces(x) & b) ? 'x' : (pos.pieces(o) & b) ? 'o' : '.';
      if (c == '.') {
        ++empty_run;
        continue;
      }
      if (empty_run) text += char('0' + empty_run);
      empty_run = 0;
      text += c;
    }
    if (empty_run) text += char('0' + empty_run);
    if (rank) text += '/';
  }
  text += ' ' + to_string(pos.side_to_move());
  text += ' ' + std::to_string(pos.in_hand(x)) + ' ' + std::to_string(pos.in_hand(o));
  text += ' ' + std::to_string(pos.clock()) + ' ' + std::to_string(shown_fullmove(pos));
  return text;
}

Expected<Position> parse_position(std::string_view text, const Rules& rules) {
  if (const auto valid = make_rules(rules.movement, rules.capture_lines, rules.clock_limit); !valid) return valid.error();
  if (text.empty()) return Error{"the position string is empty"};
  const auto fields = split_fields(text, ' ');
  // What is hard to see in a pasted string is named: a tab, a line end, stray spaces.
  if (const auto at = text.find_first_of("\t\r\n"); at != std::string_view::npos)
    return Error{"position string " + moon::quoted(text) + " has " +
                 (text[at] == '\t' ? "a tab" : text[at] == '\r' ? "a carriage return" : "a line break") +
                 ": fields are separated by single spaces"};
  if (text.find_first_not_of(' ') == std::string_view::npos)
    return Error{"the position string " + moon::quoted(text) + " is only spaces"};
  if (std::any_of(fields.begin(), fields.end(), [](std::string_view f) { return f.empty(); })) {
    std::vector<std::string> strays;
    if (text.front() == ' ') strays.push_back("starts with a space");
    if (text.find("  ") != std::string_view::npos) strays.push_back("has two spaces in a row");
    if (text.back() == ' ') strays.push_back("ends with a space");
    std::string what;
    for (const std::string& stray : strays) what += (what.empty() ? " " : " and ") + stray;
    return Error{"position string " + moon::quoted(text) + what + ": fields are separated by single spaces"};
  }
  if (fields.size() != 6 && fields.size() != 2)
    return Error{"position string " + moon::quoted(text) + " has " + std::to_string(fields.size()) +
                 (fields.size() == 1 ? " field" : " fields") +
                 "; it needs 6 (board side x-hand o-hand clock fullmove) or 2 (board side)"};

  const auto board = parse_board(fields[0]);
  if (!board) return board.error();
  if (fields[1] != "x" && fields[1] != "o") return Error{"side to move " + moon::quoted(fields[1]) + " must be x or o"};
  const Color side = fields[1] == "x" ? x : o;

  std::array<int, 2> hands{0, 0};
  int clock = 0;
  std::uint32_t fullmove = 1;
  if (fields.size() == 6) {
    const auto hx = parse_count(fields[2], "x in hand", 0, counters_per_side);
    if (!hx) return hx.error();
    const auto ho = parse_count(fields[3], "o in hand", 0, counters_per_side);
    if (!ho) return ho.error();
    const auto c = parse_count(fields[4], "clock", 0, rules.clock_limit);
    if (!c) return Error{c.error().message + " (the rules' clock limit)"};
    const auto f = parse_count(fields[5], "fullmove", 1, max_fullmove);
    if (!f) return f.error();
    hands = {int(*hx), int(*ho)};
    clock = int(*c);
    fullmove = std::uint32_t(*f);
  }

  for (Color c : {x, o}) {
    const int owned = popcount(board->pieces[c]) + hands[c];
    if (owned > counters_per_side)
      return Error{to_string(c) + " would own " + std::to_string(owned) + " counters (board and hand); at most 12"};
  }
  if (hands[x] || hands[o]) {
    if ((board->pieces[x] | board->pieces[o]) & square_bb(centre))
      return Error{"a counter stands on c3 while counters are still in hand"};
    if (clock != 0) return Error{"the clock must be 0 while counters are still in hand"};
    const bool fits = side == x ? hands[x] == hands[o] : hands[o] == hands[x] + 1;
    if (!fits)
      return Error{"hands " + std::to_string(hands[x]) + " and " + std::to_string(hands[o]) + " do not fit the " +
                   "alternation: with x to move both hands are equal, with o to move o holds one more"};
  }
  return PositionBuilder::build(board->pieces, side, hands, clock, fullmove, rules);
}

std::string to_string(Color c) { return c == x ? "x" : "o"; }

std::string to_string(Result r) {
  switch (r) {
    case Result::x_wins: return "x wins";
    case Result::o_wins: return "o wins";
    case Result::draw: return "draw";
    case Result::none: break;
  }
  return "none";
}

std::string to_string(Phase p) {
  switch (p) {
    case Phase::placement: return "placement";
    case Phase::movement: return "movement";
    case Phase::over: return "over";
  }
  return "?";
}

std::string squares_text(Bitboard b) {
  std::string text;
  for (Square s : squares(b)) {
    if (!text.empty()) text += ' ';
    text += square_name(s);
  }
  return text;
}

}  // namespace moon
