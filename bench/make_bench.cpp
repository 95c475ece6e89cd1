// Copy-make against make/unmake, the choice behind Position (docs/PERFORMANCE.md).
//
// Position is copy-make by design and has no undo, so both strategies are timed on a mirror of
// its state (the same fields, the same size) that plays moves exactly as Position::play does.
// Each drives a plain perft (bulk counting at the last ply only, moves listed with the
// engine's own bitboard helpers), where making and unmaking moves is a large share of the work.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <string>

#include "bench_positions.hpp"
#include "moon/movegen.hpp"
#include "moon/perft.hpp"
#include "moon/position.hpp"
#include "moon/tables.hpp"

namespace {

using namespace moon;
using namespace moon::bench;

using Default = Variant<false, false>;

struct State {
  std::array<Bitboard, 2> pieces;
  Color side;
  std::array<std::uint8_t, 2> in_hand;
  std::uint8_t clock;
  std::uint32_t fullmove;
  Rules rules;
};
static_assert(sizeof(State) == sizeof(Position));

State mirror(const Position& pos) {
  return {{pos.pieces(x), pos.pieces(o)},
          pos.side_to_move(),
          {std::uint8_t(pos.in_hand(x)), std::uint8_t(pos.in_hand(o))},
          std::uint8_t(pos.clock()),
          std::uint32_t(pos.fullmove()),
          pos.rules()};
}

struct Undo {
  Bitboard captured;
  std::uint8_t clock;
};

template <class V>
Undo make(State& s, Move m) {
  const std::uint8_t clock_before = s.clock;
  Bitboard captured = 0;
  switch (m.kind()) {
    case MoveKind::placement:
      s.pieces[s.side] |= square_bb(m.to());
      --s.in_hand[s.side];
      break;
    case MoveKind::movement: {
      const Bitboard us = (s.pieces[s.side] ^ square_bb(m.from())) | square_bb(m.to());
      captured = captures_at<V::diagonal>(m.to(), us, s.pieces[~s.side]);
      s.pieces[s.side] = us;
      s.pieces[~s.side] ^= captured;
      s.clock = captured ? 0 : std::uint8_t(s.clock + 1);
      break;
    }
    case MoveKind::pass:
    case MoveKind::none:
      break;
  }
  s.fullmove += (s.side == o);
  s.side = ~s.side;
  return {captured, clock_before};
}

template <class V>
void unmake(State& s, Move m, Undo undo) {
  s.side = ~s.side;
  s.fullmove -= (s.side == o);
  switch (m.kind()) {
    case MoveKind::placement:
      s.pieces[s.side] ^= square_bb(m.to());
      ++s.in_hand[s.side];
      break;
    case MoveKind::movement:
      s.pieces[s.side] ^= square_bb(m.from()) | square_bb(m.to());
      s.pieces[~s.side] |= undo.captured;
      s.clock = undo.clock;
      break;
    case MoveKind::pass:
    case MoveKind::none:
      break;
  }
}

template <class V>
State after(const State& s, Move m) {
  State next = s;
  make<V>(next, m);
  return next;
}

Bitboard empty_squares(const State& s) { return all_squares & ~(s.pieces[x] | s.pieces[o]); }
bool in_placement(const State& s) { return (s.in_hand[x] | s.in_hand[o]) != 0; }
bool over(const State& s) {
  return !in_placement(s) &&
         (popcount(s.pieces[x]) <= 1 || popcount(s.pieces[o]) <= 1 || s.clock >= s.rules.clock_limit);
}

template <class V>
void generate(const State& s, MoveList& list) {
  list.clear();
  const Bitboard empty = empty_squares(s);
  if (in_placement(s)) {
    for (Square to : squares(empty & ~square_bb(centre))) list.push(Move::placement(to));
    return;
  }
  if (over(s)) return;
  detail::for_each_movement_layer<V>(s.pieces[s.side], empty, [&](Direction d, int distance, Bitboard targets) {
    for (Square to : squares(targets)) list.push(Move::movement(detail::origin(to, d, distance), to));
  });
  if (list.empty()) list.push(Move::pass());
}

template <class V>
std::uint64_t count(const State& s) {
  if (in_placement(s)) return std::uint64_t(popcount(empty_squares(s) & ~square_bb(centre)));
  if (over(s)) return 0;
  const int n = detail::movement_count<V>(s.pieces[s.side], empty_squares(s));
  return n ? std::uint64_t(n) : 1;
}

template <class V>
std::uint64_t perft_copy_make(const State& s, int depth) {
  if (depth == 1) return count<V>(s);
  MoveList list;
  generate<V>(s, list);
  std::uint64_t nodes = 0;
  for (Move m : list) nodes += perft_copy_make<V>(after<V>(s, m), depth - 1);
  return nodes;
}

template <class V>
std::uint64_t perft_make_unmake(State& s, int depth) {
  if (depth == 1) return count<V>(s);
  MoveList list;
  generate<V>(s, list);
  std::uint64_t nodes = 0;
  for (Move m : list) {
    const Undo undo = make<V>(s, m);
    nodes += perft_make_unmake<V>(s, depth - 1);
    unmake<V>(s, m, undo);
  }
  return nodes;
}

enum class Strategy { copy_make, make_unmake };

// Argument: index into the movement positions, then the placement ones. Depth one less than
// the other perft benchmarks: without the engine's bulk counting of two plies these trees
// take longer.
template <Strategy S>
void BM_MakeStrategyPerft(benchmark::State& state) {
  const auto index = std::size_t(state.range(0));
  const BenchPosition& p = index < std::size(movement_positions)
                               ? movement_positions[index]
                               : placement_positions[index - std::size(movement_positions)];
  const Position pos = load(p);
  const int depth = p.depth - 1;
  state.SetLabel(std::string(p.name) + " depth " + std::to_string(depth));
  State s = mirror(pos);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    if constexpr (S == Strategy::copy_make) nodes += perft_copy_make<Default>(s, depth);
    else nodes += perft_make_unmake<Default>(s, depth);
  }
  if (Count(nodes / std::uint64_t(state.iterations())) != perft_count<Default>(pos, depth)) {
    state.SkipWithError("the mirror's perft disagrees with the engine");
    return;
  }
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
void strategy_positions(benchmark::internal::Benchmark* b) {
  for (std::size_t i = 0; i < std::size(movement_positions); ++i) b->Arg(std::int64_t(i));
  b->Arg(std::int64_t(std::size(movement_positions) + 2));  // placement "late"
}
BENCHMARK_TEMPLATE(BM_MakeStrategyPerft, Strategy::copy_make)->Apply(strategy_positions);
BENCHMARK_TEMPLATE(BM_MakeStrategyPerft, Strategy::make_unmake)->Apply(strategy_positions);

}  // namespace
