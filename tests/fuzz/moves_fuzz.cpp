// Fuzz target: move text, the engine against the plain reference implementation
// (tests/reference/). Input: a byte choosing a start position (every phase and variant), then
// lines of move text played in turn.
//
// Both must accept and refuse the same text in the same position. An accepted move must be
// legal, its printed text must read back to it, and both must reach the same position; a
// refused one must come with a message and change nothing (parse_move takes the position by
// const reference, and the next line is read in the same position).
#include <array>
#include <string>

#include "fuzz_input.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "reference.hpp"
#include "reference_terms.hpp"

using namespace moon;
using moon::fuzz::require;

namespace {

struct Start {
  Rules rules;
  const char* text;
};

constexpr Rules slide{Movement::slide, CaptureLines::orthogonal, 20};
constexpr Rules diagonal{Movement::step, CaptureLines::orthogonal_and_diagonal, 20};
constexpr Rules limit_3{Movement::step, CaptureLines::orthogonal, 3};

constexpr std::array<Start, 16> starts{{
    {{}, "5/5/5/5/5 x 12 12 0 1"},
    {{}, "5/1xo2/5/5/1x1ox o 9 10 0 3"},
    {{}, "xo1xo/1x1ox/xo1ox/2xxx/oooox o 2 3 0 10"},
    {{}, "xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12"},
    {{}, "xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13"},
    {{}, "o1oox/xx2o/2o1x/xx1ox/x1oxo x 0 0 0 25"},
    {{}, "1oo2/x1o1o/xx3/oo1ox/o1o1x o 0 0 1 25"},
    {{}, "2x2/o3o/5/1x3/2o1x o 0 0 12 50"},
    {{}, "xo2o/1x1xo/2o2/x1x2/o3x x 0 0 19 31"},
    {{}, "5/1x3/2o2/3x1/5 x 0 0 3 40"},
    {slide, "oooxx/o1x2/x1xoo/o1x1x/ooo1x o 0 0 11 25"},
    {slide, "x1oo1/o1x1o/o1o2/1o1oo/o1ox1 o 0 0 1 25"},
    {diagonal, "1oxx1/oo2x/2xx1/ooxx1/xx1oo x 0 0 9 27"},
    {diagonal, "2xx1/5/ooo2/2o1o/5 o 0 0 19 37"},
    {limit_3, "oo1o1/1o1oo/o2xx/xxxxo/ox1xx x 0 0 1 22"},
    {{Movement::slide, CaptureLines::orthogonal_and_diagonal, 20}, "5/5/5/5/5 x 3 3 0 1"},
}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  moon::fuzz::FuzzInput input(data, size);
  const Start& start = starts[input.byte() % starts.size()];
  const auto parsed = parse_position(start.text, start.rules);
  require(parsed.has_value(), "a start position of the target is refused", start.text);
  Position ours = *parsed;
  reference::Position theirs;
  std::string error;
  require(reference::parse(start.text, test::to_reference(start.rules), theirs, error),
          "the reference refuses a start position", error);

  for (int line = 0; line < 64 && !input.empty(); ++line) {
    const std::string text = input.text_until('\n');
    const std::string where = "'" + text + "' in " + to_string(ours);
    const auto move = parse_move(text, ours);
    reference::Position their_next = theirs;
    const bool they_accept = reference::play(their_next, text);
    require(move.has_value() == they_accept, "the engine and the reference disagree on accepting a move",
            where + ": engine " + (move ? std::string("accepts") : "refuses: " + move.error().message));
    if (!move) {
      require(!move.error().message.empty(), "a refusal without a message", where);
      continue;
    }
    require(legal_moves(ours).contains(*move), "an accepted move is not among the legal moves", where);
    const auto reread = parse_move(to_string(*move), ours);
    require(reread.has_value() && *reread == *move, "an accepted move's printed text does not read back to it",
            where + " -> " + to_string(*move));
    ours.play(*move);
    theirs = their_next;
    require(to_string(ours) == reference::to_string(theirs), "the position after a move differs", where);
  }
  return 0;
}
