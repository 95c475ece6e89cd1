// Perft: counting the leaves of the legal-move tree, plain, divided, hashed and threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "moon/expected.hpp"
#include "moon/movegen.hpp"
#include "moon/position.hpp"

namespace moon {

// Perft counts pass 2^64 from the start position at depth 17, so they are 128-bit.
__extension__ using Count = unsigned __int128;

std::string to_string(Count n);  // decimal

inline constexpr int max_perft_depth = 255;

// The hot recursion: bulk counting at the last ply, copy-make, no allocation. It cannot
// overflow: passing 2^128 would take more than 10^36 bulk counts.
template <class V>
Count perft_count(const Position& pos, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return Count(count_moves<V>(pos));
  MoveList list;
  generate_moves<V>(pos, list);
  Count nodes = 0;
  for (Move m : list) nodes += perft_count<V>(pos.after<V>(m), depth - 1);
  return nodes;
}

inline Count perft_count(const Position& pos, int depth) {
  return with_variant(pos.rules(), [&](auto v) { return perft_count<decltype(v)>(pos, depth); });
}

struct PerftOptions {
  int threads = 1;          // 1 to max_perft_threads
  std::size_t hash_mb = 0;  // 0: no table; else the table's size in MiB (at most max_perft_hash_mb)
  // Called from the calling thread as the root work completes: (items done, items in all).
  std::function<void(std::size_t, std::size_t)> progress;
};

inline constexpr int max_perft_threads = 256;
inline constexpr std::size_t max_perft_hash_mb = 1 << 20;

struct DivideEntry {
  Move move;
  Count nodes = 0;
};

struct PerftResult {
  Count nodes = 0;
  std::vector<DivideEntry> divide;  // one entry per legal root move, in generation order
};

// Validates the depth and options; counts with the table and threads asked for. The hashed
// count is exact: the table stores exact keys and 128-bit counts, checked on overflow.
Expected<PerftResult> perft(const Position& pos, int depth, const PerftOptions& options = {});

}  // namespace moon
