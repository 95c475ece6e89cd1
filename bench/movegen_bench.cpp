// Throughput of the pieces of the hot path over a fixed sample of positions: move generation,
// bulk move counting, capture computation and copy-make. What they time is checked first, once
// and untimed, against the plain reference implementation (tests/reference/).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench_positions.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/position.hpp"
#include "moon/tables.hpp"
#include "reference.hpp"
#include "reference_terms.hpp"

namespace {

using namespace moon;
using namespace moon::bench;

// The bench positions of one phase and every position one and two plies below them, under the
// rules of V: a fixed sample with game-over positions and passes in their natural proportion.
template <class V>
std::vector<Position> sample(bool placement) {
  std::vector<Position> positions;
  const auto roots = placement ? std::span<const BenchPosition>(placement_positions)
                               : std::span<const BenchPosition>(movement_positions);
  for (const Position& root : load_all(roots, rules_of<V>())) {
    positions.push_back(root);
    MoveList first, second;
    generate_moves<V>(root, first);
    for (Move m : first) {
      const Position child = root.after<V>(m);
      positions.push_back(child);
      generate_moves<V>(child, second);
      for (Move r : second) positions.push_back(child.after<V>(r));
    }
  }
  return positions;
}

// What the engine says of one sample position, where it differs from the reference: its
// legal moves (listed and counted), each move's captures and next position, and, in the movement
// phase, captures_at() and capturing_squares(), which must agree with captures_of(). "" if all
// agree.
template <class V>
std::string disagreement(const Position& pos) {
  const std::string text = to_string(pos);
  const auto said = [&](const std::string& what) { return "position " + text + ": " + what + " from the reference"; };
  reference::Position ref;
  std::string error;
  if (!reference::parse(text, test::to_reference(pos.rules()), ref, error)) return "the reference cannot read position " + text + ": " + error;

  MoveList list;
  generate_moves<V>(pos, list);
  std::vector<std::string> ours, theirs = reference::legal_moves(ref);
  for (Move m : list) ours.push_back(to_string(m));
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  if (ours != theirs) return said("the legal moves differ");
  if (std::size_t(count_moves<V>(pos)) != theirs.size()) return said("the count of moves differs");

  const Color side = pos.side_to_move();
  const Bitboard us = pos.pieces(side), them = pos.pieces(~side);
  Bitboard arrivals_that_capture = 0;
  for (Move m : list) {
    const std::string move = to_string(m);
    const Bitboard captured = pos.template captures_of<V>(m);
    if (squares_text(captured) != reference::captures(ref, move)) return said(move + "'s captures differ");
    reference::Position next = ref;
    reference::play(next, move);
    if (to_string(pos.template after<V>(m)) != reference::to_string(next)) return said(move + "'s next position differs");
    if (m.kind() == MoveKind::movement) {
      const Bitboard arrived = (us ^ square_bb(m.from())) | square_bb(m.to());
      if (captures_at<V::diagonal>(m.to(), arrived, them) != captured) return said(move + "'s captures_at() differs");
      // An arrival that captures says so of its square, whichever counter makes it.
      if (captured) arrivals_that_capture |= square_bb(m.to());
    }
  }
  if (pos.phase() == Phase::movement) {
    // capturing_squares() may also name occupied squares and squares no counter can reach.
    const Bitboard named = capturing_squares<V::diagonal>(us, them);
    if ((arrivals_that_capture & ~named) != 0) return said("capturing_squares() differs");
    for (Square s : squares(named & ~(us | them)))
      if (captures_at<V::diagonal>(s, us | square_bb(s), them) == 0) return said("capturing_squares() differs");
  }
  return "";
}

// The sample of sample<V>(placement) checked against the reference, once a run: the message of
// the first disagreement, or "".
template <class V>
const std::string& sample_disagreement(bool placement) {
  static std::map<bool, std::string> found;
  if (const auto it = found.find(placement); it != found.end()) return it->second;
  std::string first;
  for (const Position& pos : sample<V>(placement))
    if (first = disagreement<V>(pos); !first.empty()) break;
  return found[placement] = std::move(first);
}

// Skips the benchmark with an error if the engine gets its sample wrong.
template <class V>
bool sample_agrees(benchmark::State& state, bool placement) {
  const std::string& wrong = sample_disagreement<V>(placement);
  if (wrong.empty()) return true;
  state.SkipWithError(wrong.c_str());
  return false;
}

struct PositionMove {
  Position position;
  Move move;
};

// Every legal move of every sample position.
template <class V>
std::vector<PositionMove> sample_moves(bool placement) {
  std::vector<PositionMove> moves;
  for (const Position& pos : sample<V>(placement)) {
    MoveList list;
    generate_moves<V>(pos, list);
    for (Move m : list) moves.push_back({pos, m});
  }
  return moves;
}

void report(benchmark::State& state, const char* what, std::size_t per_iteration) {
  state.counters[what] =
      benchmark::Counter(double(per_iteration) * double(state.iterations()), benchmark::Counter::kIsRate);
}

const char* phase_label(bool placement) { return placement ? "placement sample" : "movement sample"; }

// Argument 0: the movement sample; 1: the placement sample.
template <class V>
void BM_GenerateMoves(benchmark::State& state) {
  const bool placement = state.range(0) != 0;
  if (!sample_agrees<V>(state, placement)) return;
  const std::vector<Position> positions = sample<V>(placement);
  state.SetLabel(phase_label(placement));
  std::size_t moves = 0;
  MoveList list;
  for (const Position& pos : positions) {
    generate_moves<V>(pos, list);
    moves += list.size();
  }
  for (auto _ : state)
    for (const Position& pos : positions) {
      generate_moves<V>(pos, list);
      benchmark::DoNotOptimize(list);
    }
  report(state, "moves/s", moves);
}
BENCHMARK_TEMPLATE(BM_GenerateMoves, Default)->Arg(0)->Arg(1);
BENCHMARK_TEMPLATE(BM_GenerateMoves, Slide)->Arg(0);
BENCHMARK_TEMPLATE(BM_GenerateMoves, Diagonal)->Arg(0);
BENCHMARK_TEMPLATE(BM_GenerateMoves, SlideDiagonal)->Arg(0);

// Bulk counting without listing: the rate counts the moves counted.
template <class V>
void BM_CountMoves(benchmark::State& state) {
  const bool placement = state.range(0) != 0;
  if (!sample_agrees<V>(state, placement)) return;
  const std::vector<Position> positions = sample<V>(placement);
  state.SetLabel(phase_label(placement));
  std::size_t moves = 0;
  for (const Position& pos : positions) moves += std::size_t(count_moves<V>(pos));
  for (auto _ : state)
    for (const Position& pos : positions) benchmark::DoNotOptimize(count_moves<V>(pos));
  report(state, "moves/s", moves);
}
BENCHMARK_TEMPLATE(BM_CountMoves, Default)->Arg(0)->Arg(1);
BENCHMARK_TEMPLATE(BM_CountMoves, Slide)->Arg(0);

// captures_at for the destination of every movement of the sample (the mover already moved).
template <class V>
void BM_CapturesAt(benchmark::State& state) {
  struct Arrival {
    Square to;
    Bitboard us, them;
  };
  if (!sample_agrees<V>(state, false)) return;
  std::vector<Arrival> arrivals;
  for (const auto& [pos, m] : sample_moves<V>(false))
    if (m.kind() == MoveKind::movement) {
      const Color side = pos.side_to_move();
      arrivals.push_back({m.to(), (pos.pieces(side) ^ square_bb(m.from())) | square_bb(m.to()), pos.pieces(~side)});
    }
  for (auto _ : state)
    for (const Arrival& a : arrivals) benchmark::DoNotOptimize(captures_at<V::diagonal>(a.to, a.us, a.them));
  report(state, "moves/s", arrivals.size());
}
BENCHMARK_TEMPLATE(BM_CapturesAt, Default);
BENCHMARK_TEMPLATE(BM_CapturesAt, Diagonal);

// The same question for all destinations of a position at once (what perft's last plies use).
template <class V>
void BM_CapturingSquares(benchmark::State& state) {
  if (!sample_agrees<V>(state, false)) return;
  const std::vector<Position> positions = sample<V>(false);
  for (auto _ : state)
    for (const Position& pos : positions)
      benchmark::DoNotOptimize(
          capturing_squares<V::diagonal>(pos.pieces(pos.side_to_move()), pos.pieces(~pos.side_to_move())));
  report(state, "positions/s", positions.size());
}
BENCHMARK_TEMPLATE(BM_CapturingSquares, Default);
BENCHMARK_TEMPLATE(BM_CapturingSquares, Diagonal);

template <class V>
void BM_CapturesOf(benchmark::State& state) {
  if (!sample_agrees<V>(state, false)) return;
  const std::vector<PositionMove> moves = sample_moves<V>(false);
  for (auto _ : state)
    for (const auto& [pos, m] : moves) benchmark::DoNotOptimize(pos.template captures_of<V>(m));
  report(state, "moves/s", moves.size());
}
BENCHMARK_TEMPLATE(BM_CapturesOf, Default);
BENCHMARK_TEMPLATE(BM_CapturesOf, Diagonal);

// Copy-make: the position after each move of the sample, as perft and search play it.
template <class V>
void BM_CopyMake(benchmark::State& state) {
  const bool placement = state.range(0) != 0;
  if (!sample_agrees<V>(state, placement)) return;
  const std::vector<PositionMove> moves = sample_moves<V>(placement);
  state.SetLabel(phase_label(placement));
  for (auto _ : state)
    for (const auto& [pos, m] : moves) {
      Position child = pos.template after<V>(m);
      benchmark::DoNotOptimize(child);
    }
  report(state, "moves/s", moves.size());
}
BENCHMARK_TEMPLATE(BM_CopyMake, Default)->Arg(0)->Arg(1);
BENCHMARK_TEMPLATE(BM_CopyMake, Diagonal)->Arg(0);

}  // namespace
