// Throughput of the pieces of the hot path over a fixed sample of positions: move generation,
// bulk move counting, capture computation and copy-make.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <vector>

#include "bench_positions.hpp"
#include "moon/movegen.hpp"
#include "moon/position.hpp"
#include "moon/tables.hpp"

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
