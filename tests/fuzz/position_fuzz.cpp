// Fuzz target: position strings, the engine against the plain reference implementation
// (tests/reference/). Input: a byte of rule bits (1: slide, 2: diagonal), a byte of clock limit
// (0: the default), then the text.
//
// Both must accept and refuse the same texts. For an accepted one they must agree on its
// printed form, whether it is over and who won, the legal moves, what each captures and leads
// to, and perft to depth 2; the printed form must read back to the same position, and each
// move's text back to the same move.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "reference.hpp"
#include "reference_terms.hpp"

using namespace moon;
using moon::fuzz::require;

namespace {

void compare_moves(const Position& ours, const reference::Position& theirs, const std::string& where) {
  std::vector<std::string> our_moves;
  for (Move m : legal_moves(ours)) our_moves.push_back(to_string(m));
  std::vector<std::string> their_moves = reference::legal_moves(theirs);
  std::sort(our_moves.begin(), our_moves.end());
  std::sort(their_moves.begin(), their_moves.end());
  require(our_moves == their_moves, "the legal moves differ from the reference's", where);
  require(std::adjacent_find(our_moves.begin(), our_moves.end()) == our_moves.end(), "a move listed twice", where);

  for (Move m : legal_moves(ours)) {
    const std::string text = to_string(m);
    const auto detail = [&] { return where + " " + text; };  // made only if a check fails
    const auto read = parse_move(text, ours);
    require(read.has_value() && *read == m, "a legal move's text does not read back to it", detail);
    Position next = ours;
    const Bitboard captured = next.play(m);
    require(squares_text(captured) == reference::captures(theirs, text), "captures differ from the reference's", detail);
    reference::Position their_next = theirs;
    require(reference::play(their_next, text), "the reference refuses a legal move", detail);
    require(to_string(next) == reference::to_string(their_next), "the position after a move differs", detail);
  }
  for (int depth = 1; depth <= 2; ++depth)
    require(to_string(perft_count(ours, depth)) == std::to_string(reference::perft(theirs, depth)),
            "perft differs from the reference's", [&] { return where + " depth " + std::to_string(depth); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  moon::fuzz::FuzzInput input(data, size);
  const std::uint8_t variant = input.byte();
  const std::uint8_t limit = input.byte();
  const auto rules = make_rules((variant & 1) ? Movement::slide : Movement::step,
                                (variant & 2) ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal,
                                limit == 0 ? Rules::default_clock_limit : limit);
  require(rules.has_value(), "make_rules refuses a limit in 1..255");
  const std::string text = input.rest();

  const auto ours = parse_position(text, *rules);
  reference::Position theirs;
  std::string their_error;
  const bool they_accept = reference::parse(text, test::to_reference(*rules), theirs, their_error);
  const std::string where = "'" + text + "' (limit " + std::to_string(rules->clock_limit) + ")";
  require(ours.has_value() == they_accept, "the engine and the reference disagree on accepting a position string", [&] {
    return where + ": engine " + (ours ? std::string("accepts") : "refuses: " + ours.error().message) + "; reference " +
           (they_accept ? std::string("accepts") : "refuses: " + their_error);
  });
  if (!ours) {
    require(!ours.error().message.empty(), "a refusal without a message", where);
    return 0;
  }

  const std::string printed = to_string(*ours);
  const auto with_printed = [&] { return where + " -> " + printed; };
  require(printed == reference::to_string(theirs), "the printed form differs from the reference's", with_printed);
  const auto reread = parse_position(printed, *rules);
  require(reread.has_value() && *reread == *ours, "the printed form does not read back to the same position",
          with_printed);
  require(ours->is_over() == reference::is_over(theirs), "game over differs from the reference", where);
  require(test::reference_result(ours->result()) == reference::result(theirs), "the result differs from the reference's", where);
  compare_moves(*ours, theirs, where);
  return 0;
}
