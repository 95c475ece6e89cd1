// A whole game between two settings of the engine, through the C++ library (moon::moon).
//
// x searches 6 plies deep, o searches 3 plies deep with a quarter of the table. Both searches
// are single-threaded and limited by depth, so the game is the same on every run (and the same
// as examples/play_game.c and `examples/play.py --auto` play through the C API).
#include <cstdio>
#include <string>

#include "moon/moon.hpp"
#include "moon/search.hpp"

int main() {
  struct Player {
    const char* name;
    moon::Searcher searcher;
    moon::SearchLimits limits;
  };
  Player players[2] = {
      {"x", moon::Searcher({.hash_mb = 16, .threads = 1}), {.depth = 6}},
      {"o", moon::Searcher({.hash_mb = 4, .threads = 1}), {.depth = 3}},
  };
  std::printf("x: depth %d; o: depth %d\n", players[0].limits.depth, players[1].limits.depth);

  moon::Position pos = moon::Position::start();
  std::string moves;
  for (int ply = 1; !pos.is_over(); ++ply) {
    Player& player = players[pos.side_to_move()];
    const auto result = player.searcher.search(pos, player.limits);
    if (!result) {
      std::fprintf(stderr, "search failed: %s\n", result.error().message.c_str());
      return 1;
    }
    const moon::Move move = result->best;
    const moon::Bitboard captured = pos.play(move);
    const std::string text = moon::to_string(move);
    std::printf("%3d. %s %s", ply, player.name, text.c_str());
    if (captured) std::printf("%*s  captures %s", int(4 - text.size()), "", moon::squares_text(captured).c_str());
    std::printf("\n");
    if (!moves.empty()) moves += ' ';
    moves += moon::to_string(move);
  }

  std::printf("result: %s (x %d, o %d counters)\n", moon::to_string(pos.result()).c_str(), pos.count(moon::x),
              pos.count(moon::o));
  std::printf("moves: %s\n", moves.c_str());
  std::printf("position: %s\n", moon::to_string(pos).c_str());
  return 0;
}
