// Perft: counting the leaves of the legal-move tree, plain, divided, hashed and threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
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

namespace detail {
constexpr std::uint64_t moves_or_pass(int movements) { return movements ? std::uint64_t(movements) : 1; }

// For every square, how many squares of a set are orthogonally next to it (0 to 4), as three
// bit planes: the count's bit 0, bit 1 and bit 2.
struct NeighbourCounts {
  Bitboard ones, twos, fours;
};

MOON_FORCE_INLINE constexpr NeighbourCounts count_neighbours(Bitboard set) {
  const Bitboard n = shift(set, north), s = shift(set, south), e = shift(set, east), w = shift(set, west);
  const Bitboard ns_ones = n ^ s, ns_twos = n & s, ew_ones = e ^ w, ew_twos = e & w;
  const Bitboard carry = ns_ones & ew_ones;
  return {ns_ones ^ ew_ones, ns_twos ^ ew_twos ^ carry, (ns_twos & ew_twos) | ((ns_twos ^ ew_twos) & carry)};
}

// The sum over the squares of `where` of a(s) * b(s), for two neighbour counts of disjoint sets
// (so a(s) + b(s) <= 4): the bits of fours then never meet a nonzero factor, and the two
// halves of the middle term never overlap (that would take a = b = 3).
MOON_FORCE_INLINE constexpr int sum_of_products(Bitboard where, const NeighbourCounts& a, const NeighbourCounts& b) {
  return popcount(where & a.ones & b.ones) + 2 * popcount(where & ((a.ones & b.twos) | (a.twos & b.ones))) +
         4 * popcount(where & a.twos & b.twos);
}

// The replies to every quiet step of `us` onto the `quiet` squares, summed without visiting
// the steps. After a step from f to t the opponent's `their_moves` lose the steps into t and
// gain those into f: their counters next to t, theirs(t), and next to f, theirs(f). Summed over
// the steps: steps * their_moves - sum over t of ours(t) * theirs(t) + sum over f of
// room(f) * theirs(f), where ours(t) counts our counters next to t and room(f) the quiet
// squares next to f. Exact when no reply is a pass, which their_moves >= 4 guarantees: t has
// one of ours beside it, so theirs(t) <= 3.
MOON_FORCE_INLINE constexpr std::uint64_t quiet_step_replies(Bitboard us, Bitboard them, Bitboard quiet, int their_moves) {
  const NeighbourCounts ours = count_neighbours(us), room = count_neighbours(quiet), theirs = count_neighbours(them);
  const int steps = popcount(quiet & ours.ones) + 2 * popcount(quiet & ours.twos) + 4 * popcount(quiet & ours.fours);
  return std::uint64_t(steps) * std::uint64_t(their_moves) - std::uint64_t(sum_of_products(quiet, ours, theirs)) +
         std::uint64_t(sum_of_products(us, room, theirs));
}

// The last plies of a movement-phase count, on bitboards: `us` to move, `them`, the clock; the
// position is not over. No child Position is built: a movement captures the same counters
// whatever square it leaves (that square is beside the destination, or behind an empty path
// when sliding, so never inside one of its flanks), so one bulk test tells the few capturing
// destinations from the quiet ones, and each child is three words.
template <class V, int Plies>
std::uint64_t movement_perft(Bitboard us, Bitboard them, int clock, int clock_limit) {
  const Bitboard empty = all_squares & ~(us | them);
  if constexpr (Plies == 1) {
    return moves_or_pass(movement_count<V>(us, empty));
  } else {
    const Bitboard capturing = capturing_squares<V::diagonal>(us, them);
    const bool quiet_move_ends_game = clock + 1 >= clock_limit;
    [[maybe_unused]] const int their_moves = Plies == 2 ? movement_count<V>(them, empty) : 0;
    const bool quiet_in_bulk = Plies == 2 && !V::slide && their_moves >= 4;
    std::uint64_t total = 0;
    if (quiet_in_bulk && !quiet_move_ends_game) total = quiet_step_replies(us, them, empty & ~capturing, their_moves);
    bool blocked = true;
    for_each_movement_layer<V>(us, empty, [&](Direction d, int distance, Bitboard targets) {
      blocked = false;
      if (!quiet_move_ends_game && !quiet_in_bulk)
        for (Square to : squares(targets & ~capturing)) {
          const Square from = origin(to, d, distance);
          if constexpr (Plies == 2 && !V::slide) {
            // A step only changes which empty squares the opposing counters next to `to`
            // and next to `from` can step into.
            total += moves_or_pass(their_moves - popcount(neighbours[std::size_t(to)] & them) +
                                   popcount(neighbours[std::size_t(from)] & them));
          } else {
            total += movement_perft<V, Plies - 1>(them, us ^ square_bb(from) ^ square_bb(to), clock + 1, clock_limit);
          }
        }
      for (Square to : squares(targets & capturing)) {
        const Bitboard survivors = them ^ captures_at<V::diagonal>(to, us, them);
        if (popcount(survivors) <= 1) continue;  // the capture ends the game
        const Bitboard moved = square_bb(origin(to, d, distance)) | square_bb(to);
        total += movement_perft<V, Plies - 1>(survivors, us ^ moved, 0, clock_limit);
      }
    });
    // A blocked side passes: the other side moves on the same board, the clock unchanged.
    return blocked ? movement_perft<V, Plies - 1>(them, us, clock, clock_limit) : total;
  }
}

// perft(pos, 2) for a position in the placement phase.
template <class V>
std::uint64_t placement_two_plies(const Position& pos) {
  const Bitboard targets = placement_targets(pos);
  const auto n = std::uint64_t(popcount(targets));
  if (pos.placements_left() > 1) return n * (n - 1);  // every child places on one square fewer
  // The last counter in hand: every child starts the movement phase, the other side to move.
  const Bitboard us = pos.pieces(pos.side_to_move()), them = pos.pieces(~pos.side_to_move());
  if (popcount(us) + 1 <= 1 || popcount(them) <= 1) return 0;
  std::uint64_t total = 0;
  for (Square to : squares(targets)) total += moves_or_pass(movement_count<V>(them, pos.empty() ^ square_bb(to)));
  return total;
}
}  // namespace detail

// The hot recursion: copy-make, no allocation, and the last plies counted in bulk on
// bitboards. It cannot overflow: passing 2^128 would take more than 10^36 bulk counts. The
// depth must not be negative (the wrapper below checks).
template <class V>
Count perft_count(const Position& pos, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return Count(count_moves<V>(pos));
  if (!pos.in_placement() && depth <= 4) {  // deeper, the bitboard plies stopped paying
    if (pos.is_over()) return 0;
    const Bitboard us = pos.pieces(pos.side_to_move()), them = pos.pieces(~pos.side_to_move());
    const int clock = pos.clock(), limit = pos.rules().clock_limit;
    if (depth == 2) return detail::movement_perft<V, 2>(us, them, clock, limit);
    if (depth == 3) return detail::movement_perft<V, 3>(us, them, clock, limit);
    return detail::movement_perft<V, 4>(us, them, clock, limit);
  }
  if (depth == 2) return Count(detail::placement_two_plies<V>(pos));
  MoveList list;
  generate_moves<V>(pos, list);
  Count nodes = 0;
  for (Move m : list) nodes += perft_count<V>(pos.after<V>(m), depth - 1);
  return nodes;
}

// The count of one thread without a table, for any depth from 0 on; a negative depth, which
// has no tree, counts 0 (the recursion above would never end). perft() below checks its depth
// and says what is wrong instead.
inline Count perft_count(const Position& pos, int depth) {
  if (depth < 0) return 0;
  return with_variant(pos.rules(), [&](auto v) { return perft_count<decltype(v)>(pos, depth); });
}

struct DivideEntry {
  Move move;
  Count nodes = 0;
};

struct PerftOptions {
  int threads = 1;          // 1 to max_perft_threads
  std::size_t hash_mb = 0;  // 0: no table; else the table's size in MiB (at most max_perft_hash_mb
                            // and the machine's physical and available memory, memory.hpp)
  // Called from the calling thread as the root work completes: (items done, items in all),
  // the items being the subtrees one or two plies down that the threads share. With threads
  // started, the calling thread looks every 250 ms; the last call is (all, all) once the count
  // is complete (none for a count without items: a depth of 0, a root without moves, or one
  // whose games all end before the plies the items are taken at). None once a stop is
  // requested: the items passed over from then on would count as done.
  std::function<void(std::size_t, std::size_t)> progress{};
  // Called from the calling thread with each root move's count once it is complete, in
  // generation order, while the count goes on (the waiting thread looks every 250 ms): a long
  // divided count shows its lines as they are done, and a count stopped has shown those.
  // The same entries as PerftResult::divide.
  std::function<void(const DivideEntry&)> root_move_done{};
  // A stop requested on it (from any thread, before or during the count) ends the count within
  // a fraction of a millisecond a thread, with the error "perft stopped after I of N root
  // moves" (Error::stopped): root_move_done has been given those I, whose counts are exact, and
  // no other. A count with nothing to do (depth 0: 1; a root without moves: 0) is answered
  // whatever the stop, as it needs no work that a stop could cut short.
  std::stop_token stop{};
  // An exception from progress or root_move_done ends the count as a stop does (the threads
  // are stopped and joined) and is rethrown to the caller of perft().
};

inline constexpr int max_perft_threads = 256;
inline constexpr std::size_t max_perft_hash_mb = 1 << 20;

struct PerftResult {
  Count nodes = 0;
  std::vector<DivideEntry> divide;  // one entry per legal root move, in generation order
  // Threads the system would not start: the count was made without them (by the calling thread
  // if none started), the same count, later.
  int threads_not_started = 0;
};

// What the programs (`moon perft`, the protocol's `go perft`) say of a result whose
// threads_not_started is above 0: "the system would not start 3 of the threads; counted without
// them".
std::string threads_not_started_text(int count);

// Validates the depth, the options and the position's rules (check_rules()); counts with the
// table and threads asked for. The hashed count is exact: the table stores exact keys and
// 128-bit counts, checked on overflow.
Expected<PerftResult> perft(const Position& pos, int depth, const PerftOptions& options = {});

}  // namespace moon
