// The fixed positions every benchmark uses, so that figures from different benchmarks and
// runs describe the same work (docs/PERFORMANCE.md quotes them by name).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "moon/notation.hpp"
#include "moon/position.hpp"
#include "moon/rules.hpp"

namespace moon::bench {

// The four rule variants by name, for the benchmarks' template arguments.
using Default = Variant<false, false>;
using Slide = Variant<true, false>;
using Diagonal = Variant<false, true>;
using SlideDiagonal = Variant<true, true>;

struct BenchPosition {
  const char* name;
  const char* text;  // a position string of RULES.md
  int depth;         // the perft depth used for it: a tree of a few million leaves
  // The leaves at that depth under the default rules, as the plain implementation of
  // tests/reference counts them (BM_EngineVsReference compares the two in every iteration):
  // the benchmarks that time the engine's count check it, so that a wrong count cannot pass
  // as a faster one.
  std::uint64_t leaves;
  // The same under the other variants, at variant_depth() below (movement positions only;
  // counted by the reference too): slide, diagonal, slide and diagonal.
  std::uint64_t variant_leaves[3] = {};
  // Default rules one ply deeper, where BM_PerftEntry counts (for the two positions it uses;
  // counted by the reference too); 0 for the others.
  std::uint64_t leaves_one_deeper = 0;
};

// Movement phase, default rules (middle game, sparse ending, dense, clock near the limit).
inline constexpr BenchPosition movement_positions[] = {
    {"middle", "1x1oo/xxoo1/o1ooo/o2xx/1x1xo x 0 0 1 23", 7, 6724298, {2791676, 7224029, 3521265}, 71157061},
    {"sparse", "oo3/o4/x1x2/1xx2/xo2x x 0 0 6 44", 7, 3188544, {15110265, 3152495, 14941179}},
    {"dense", "xxxxo/x3x/o1o1o/ox1xx/ooo1x x 0 0 1 16", 7, 7241752, {4313530, 4953328, 6275184}},
    {"clock", "1xo1o/o3x/1x3/o2o1/ooo1o x 0 0 15 39", 7, 1750051, {5638405, 2278767, 8715736}},
};

// Placement phase: pure placement trees, and one that enters the movement phase at ply 5.
inline constexpr BenchPosition placement_positions[] = {
    {"start", "5/5/5/5/5 x 12 12 0 1", 5, 5100480},
    {"half", "2o2/x2xo/1o1o1/x1x2/2xox o 6 7 0 6", 7, 8648640},
    {"late", "xo1xo/1x1ox/xo1ox/2xxx/oooox o 2 3 0 10", 11, 1545384, {}, 13263168},
};

template <class V>
constexpr Rules rules_of() {
  Rules rules;
  rules.movement = V::slide ? Movement::slide : Movement::step;
  rules.capture_lines = V::diagonal ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal;
  return rules;
}

// Perft depth of the movement positions under a variant: sliding multiplies the branching
// factor, so those trees are cut one ply earlier to stay the same order of size.
template <class V>
constexpr int variant_depth(const BenchPosition& p) {
  return V::slide ? p.depth - 1 : p.depth;
}

// The leaves of a movement position at variant_depth<V>() under variant V.
template <class V>
constexpr std::uint64_t variant_leaves(const BenchPosition& p) {
  if constexpr (!V::slide && !V::diagonal) return p.leaves;
  else return p.variant_leaves[(V::slide ? 1 : 0) + (V::diagonal ? 2 : 0) - 1];
}

// The positions are constants of this file: failing to read one is a bug here, not input.
inline Position load(const BenchPosition& p, const Rules& rules = {}) {
  const auto pos = parse_position(p.text, rules);
  if (!pos) {
    std::fprintf(stderr, "bench position '%s': %s\n", p.text, pos.error().message.c_str());
    std::abort();
  }
  return *pos;
}

inline std::vector<Position> load_all(std::span<const BenchPosition> set, const Rules& rules = {}) {
  std::vector<Position> positions;
  for (const BenchPosition& p : set) positions.push_back(load(p, rules));
  return positions;
}

}  // namespace moon::bench
