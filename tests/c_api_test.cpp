// The C API (include/moon/moon.h), called as a C program would call libmoon_c.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "machine_memory.hpp"
#include "moon/moon.h"

extern "C" const char* status_name_from_c(int status);  // status_from_c.c

using namespace std::chrono_literals;

namespace {

// A position handle freed at the end of the scope.
struct PositionHandle {
  moon_position* p = nullptr;
  ~PositionHandle() { moon_position_free(p); }
};
struct EngineHandle {
  moon_engine* e = nullptr;
  ~EngineHandle() { moon_engine_free(e); }
};

std::string text_of(const moon_position* p) {
  char buffer[MOON_POSITION_TEXT_SIZE];
  REQUIRE(moon_position_to_string(p, buffer, sizeof buffer) == MOON_OK);
  return buffer;
}

bool contains(const char* text, const char* part) { return std::strstr(text, part) != nullptr; }

// x to move; x's c2c1 closes b1 between c1 and a1 and leaves o with one counter (e5): the win.
constexpr const char* one_move_win = "4o/5/5/2x2/xo3 x";

// The engine solves: one_move_win is a win, by c2c1.
void solves_the_one_move_win(moon_engine* engine) {
  PositionHandle pos;
  REQUIRE(moon_position_from_string(one_move_win, nullptr, &pos.p) == MOON_OK);
  moon_solve_result solved;
  REQUIRE(moon_engine_solve(engine, pos.p, &solved) == MOON_OK);
  CHECK(solved.outcome == MOON_OUTCOME_WIN);
  CHECK(std::string(solved.best_move) == "c2c1");
}

}  // namespace

TEST_CASE("C API: the start position, its info and its text") {
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  CHECK(text_of(pos.p) == "5/5/5/5/5 x 12 12 0 1");
  moon_position_info info;
  REQUIRE(moon_position_get_info(pos.p, &info) == MOON_OK);
  CHECK(info.phase == MOON_PHASE_PLACEMENT);
  CHECK(info.side_to_move == MOON_SIDE_X);
  CHECK(info.in_hand[MOON_SIDE_X] == 12);
  CHECK(info.in_hand[MOON_SIDE_O] == 12);
  CHECK(info.on_board[MOON_SIDE_X] == 0);
  CHECK(info.pieces[MOON_SIDE_O] == 0);
  CHECK(info.clock == 0);
  CHECK(info.clock_limit == 20);
  CHECK(info.fullmove == 1);
  CHECK(info.result == MOON_RESULT_NONE);
  CHECK(info.legal_move_count == 24);
  // The library loaded is the version of the headers it was built with.
  CHECK(std::string(moon_version()) == std::to_string(MOON_VERSION_MAJOR) + "." + std::to_string(MOON_VERSION_MINOR) +
                                           "." + std::to_string(MOON_VERSION_PATCH));
}

TEST_CASE("C API: a fullmove counted past the largest read shows as the string writes it") {
  PositionHandle pos;
  REQUIRE(moon_position_from_string("xx3/oo3/5/5/5 o 0 0 0 999999999", nullptr, &pos.p) == MOON_OK);
  REQUIRE(moon_position_play(pos.p, "a4a3", nullptr) == MOON_OK);
  moon_position_info info;
  REQUIRE(moon_position_get_info(pos.p, &info) == MOON_OK);
  CHECK(info.fullmove == 999999999);
  CHECK(text_of(pos.p) == "xx3/1o3/o4/5/5 x 0 0 1 999999999");
}

TEST_CASE("C API: rules are validated and kept by the position") {
  PositionHandle pos;
  moon_rules rules = {1, 1, 40};
  REQUIRE(moon_position_new(&rules, &pos.p) == MOON_OK);
  moon_rules back = {0, 0, 0};
  REQUIRE(moon_position_get_rules(pos.p, &back) == MOON_OK);
  CHECK(back.slide == 1);
  CHECK(back.diagonal == 1);
  CHECK(back.clock_limit == 40);

  PositionHandle defaults;
  moon_rules zero = {0, 0, 0};
  REQUIRE(moon_position_new(&zero, &defaults.p) == MOON_OK);
  REQUIRE(moon_position_get_rules(defaults.p, &back) == MOON_OK);
  CHECK(back.clock_limit == 20);

  moon_position* none = nullptr;
  moon_rules bad_clock = {0, 0, 256};
  CHECK(moon_position_new(&bad_clock, &none) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(contains(moon_last_error(), "clock limit 256"));
  moon_rules bad_flag = {2, 0, 0};
  CHECK(moon_position_new(&bad_flag, &none) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(none == nullptr);
  moon_rules bad_diagonal = {0, 2, 0};
  CHECK(moon_position_new(&bad_diagonal, &none) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_position_new: rules: slide and diagonal must be 0 or 1");
  CHECK(none == nullptr);
}

TEST_CASE("C API: position strings are parsed, and refused with the reason") {
  PositionHandle pos;
  REQUIRE(moon_position_from_string("1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9", nullptr, &pos.p) == MOON_OK);
  CHECK(text_of(pos.p) == "1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9");

  moon_position* none = nullptr;
  CHECK(moon_position_from_string("5/5/5/5/5 x 12 12 0", nullptr, &none) == MOON_ERROR_PARSE);
  CHECK(contains(moon_last_error(), "fields"));
  CHECK(moon_position_from_string("5/5/5/5/5 z", nullptr, &none) == MOON_ERROR_PARSE);
  CHECK(contains(moon_last_error(), "side to move"));
  CHECK(moon_position_from_string("xx3/5/5/5/5 x 0 0 21 1", nullptr, &none) == MOON_ERROR_PARSE);
  CHECK(contains(moon_last_error(), "clock"));
  CHECK(none == nullptr);
}

TEST_CASE("C API: legal moves with their captures, and playing them") {
  PositionHandle pos;
  REQUIRE(moon_position_from_string(one_move_win, nullptr, &pos.p) == MOON_OK);
  moon_move moves[MOON_MAX_MOVES];
  size_t count = 0;
  REQUIRE(moon_position_legal_moves(pos.p, moves, MOON_MAX_MOVES, &count) == MOON_OK);
  // a1 can only go up; c2 can go to b2, d2, c3 and c1.
  std::vector<std::string> texts;
  for (size_t i = 0; i < count; ++i) texts.push_back(moves[i].text);
  std::sort(texts.begin(), texts.end());
  CHECK(texts == std::vector<std::string>{"a1a2", "c2b2", "c2c1", "c2c3", "c2d2"});
  for (size_t i = 0; i < count; ++i) {
    CAPTURE(moves[i].text);
    const bool capturing = std::string(moves[i].text) == "c2c1";
    CHECK(moves[i].captures == (capturing ? 1u << 1 : 0u));  // b1 is square 1
    CHECK(moves[i].capture_count == (capturing ? 1 : 0));
  }

  size_t needed = 0;
  CHECK(moon_position_legal_moves(pos.p, moves, 2, &needed) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(needed == 5);
  needed = 0;  // no buffer at all: the count only
  CHECK(moon_position_legal_moves(pos.p, nullptr, 0, &needed) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(needed == 5);
  CHECK(moon_position_legal_moves(pos.p, nullptr, 1, &needed) == MOON_ERROR_INVALID_ARGUMENT);

  uint32_t captured = 0;
  REQUIRE(moon_position_play(pos.p, "c2c1", &captured) == MOON_OK);
  CHECK(captured == 1u << 1);
  char squares[MOON_SQUARES_TEXT_SIZE];
  REQUIRE(moon_squares_to_string(captured, squares, sizeof squares) == MOON_OK);
  CHECK(std::string(squares) == "b1");
  moon_position_info info;
  REQUIRE(moon_position_get_info(pos.p, &info) == MOON_OK);
  CHECK(info.phase == MOON_PHASE_OVER);
  CHECK(info.result == MOON_RESULT_X_WINS);
  CHECK(info.on_board[MOON_SIDE_O] == 1);
  CHECK(info.legal_move_count == 0);
  REQUIRE(moon_position_legal_moves(pos.p, moves, MOON_MAX_MOVES, &count) == MOON_OK);
  CHECK(count == 0);
}

TEST_CASE("C API: a refused move says why and changes nothing") {
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  REQUIRE(moon_position_play(pos.p, "b4", nullptr) == MOON_OK);
  const std::string before = text_of(pos.p);
  CHECK(moon_position_play(pos.p, "b4", nullptr) == MOON_ERROR_ILLEGAL_MOVE);
  CHECK(contains(moon_last_error(), "occupied"));
  CHECK(moon_position_play(pos.p, "c3", nullptr) == MOON_ERROR_ILLEGAL_MOVE);
  // Refused text: a message to show to whoever typed it, as moon.h says (no function's name).
  CHECK(std::string(moon_last_error()) == "'c3' is illegal: no counter may be placed on c3");
  CHECK(moon_position_play(pos.p, "b4b5", nullptr) == MOON_ERROR_ILLEGAL_MOVE);
  // A pass is well-formed text, illegal here: the status says which.
  CHECK(moon_position_play(pos.p, "0000", nullptr) == MOON_ERROR_ILLEGAL_MOVE);
  CHECK(std::string(moon_last_error()).starts_with("'0000' is illegal"));
  CHECK(moon_position_play(pos.p, "z9", nullptr) == MOON_ERROR_PARSE);
  CHECK(std::string(moon_last_error()).starts_with("'z9' is not a move"));
  // Other errors name the function.
  CHECK(moon_position_play(pos.p, nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_position_play: move is NULL");
  CHECK(moon_position_play(pos.p, "", nullptr) == MOON_ERROR_PARSE);
  CHECK(moon_position_play(pos.p, "b4c4d4", nullptr) == MOON_ERROR_PARSE);
  CHECK(text_of(pos.p) == before);
}

TEST_CASE("C API: a copy is independent") {
  PositionHandle a, b;
  REQUIRE(moon_position_new(nullptr, &a.p) == MOON_OK);
  REQUIRE(moon_position_copy(a.p, &b.p) == MOON_OK);
  REQUIRE(moon_position_play(b.p, "a1", nullptr) == MOON_OK);
  CHECK(text_of(a.p) == "5/5/5/5/5 x 12 12 0 1");
  CHECK(text_of(b.p) == "5/5/5/5/x4 o 11 12 0 1");
}

TEST_CASE("C API: buffers that are too small, NULL arguments, the board drawn") {
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  char small[5] = "abcd";
  CHECK(moon_position_to_string(pos.p, small, sizeof small) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(small[0] == '\0');
  CHECK(std::string(moon_last_error()) ==
        "moon_position_to_string: a buffer of 5 bytes cannot hold the 22 bytes of the text and its NUL");
  char one[1] = {'Z'};
  CHECK(moon_position_to_string(pos.p, one, 1) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(one[0] == '\0');
  CHECK(contains(moon_last_error(), " a buffer of 1 byte cannot hold the 22 bytes"));
  // One byte short (the text's 21 characters without room for its end): refused, and nothing
  // written past the size given; the size needed is enough.
  char exact[32];
  std::memset(exact, 'Z', sizeof exact);
  CHECK(moon_position_to_string(pos.p, exact, 21) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(exact[21] == 'Z');
  REQUIRE(moon_position_to_string(pos.p, exact, 22) == MOON_OK);
  CHECK(std::string(exact) == "5/5/5/5/5 x 12 12 0 1");

  CHECK(moon_position_to_string(nullptr, small, sizeof small) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(contains(moon_last_error(), "position is NULL"));
  CHECK(moon_position_to_string(pos.p, nullptr, 10) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_position_new(nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_position_play(pos.p, nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_squares_to_string(1u << 25, small, sizeof small) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_squares_to_string: bits above 24 are not squares");
  CHECK(moon_squares_to_string(0, small, sizeof small) == MOON_OK);
  CHECK(std::string(small).empty());
  moon_position_free(nullptr);
  moon_engine_free(nullptr);

  char board[MOON_DRAW_TEXT_SIZE];
  REQUIRE(moon_position_draw(pos.p, board, sizeof board) == MOON_OK);
  CHECK(contains(board, "a   b   c   d   e"));
  CHECK(contains(board, "x to move"));
  CHECK(std::string(moon_status_name(MOON_ERROR_ILLEGAL_MOVE)) == "MOON_ERROR_ILLEGAL_MOVE");
  CHECK(std::string(status_name_from_c(99)) == "MOON_UNKNOWN_STATUS");
  CHECK(std::string(status_name_from_c(-1)) == "MOON_UNKNOWN_STATUS");
  CHECK(std::string(status_name_from_c(MOON_ERROR_INTERNAL)) == "MOON_ERROR_INTERNAL");
}

TEST_CASE("C API: the last error belongs to the thread that made the call") {
  moon_position* none = nullptr;
  CHECK(moon_position_from_string("nonsense", nullptr, &none) == MOON_ERROR_PARSE);
  const std::string mine = moon_last_error();
  std::string theirs = "unset";
  std::thread([&] {
    theirs = moon_last_error();
    moon_position_from_string("5/5/5/5/5 q", nullptr, &none);
  }).join();
  CHECK(theirs.empty());
  CHECK(moon_last_error() == mine);
}

TEST_CASE("C API: perft") {
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  uint64_t nodes = 0;
  int overflow = -1;
  REQUIRE(moon_perft(pos.p, 4, 2, &nodes, &overflow) == MOON_OK);
  CHECK(nodes == 24 * 23 * 22 * 21);  // 24!/20! (RULES.md)
  CHECK(overflow == 0);
  REQUIRE(moon_perft(pos.p, 0, 1, &nodes, nullptr) == MOON_OK);
  CHECK(nodes == 1);
  CHECK(moon_perft(pos.p, -1, 1, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_perft(pos.p, 256, 1, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_perft(pos.p, 2, 0, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("C API: perft divided by the legal moves, each count that of the position after it") {
  struct Divided {
    std::vector<std::pair<std::string, uint64_t>> moves;
    static void add(const char* move, uint64_t nodes, void* self) {
      static_cast<Divided*>(self)->moves.emplace_back(move, nodes);
    }
  };
  // A movement position with captures about (x to move, clock 3) and a placement one.
  for (const char* text : {"1ox2/o2x1/o1x1x/2ox1/3ox x 0 0 3 30", "5/1xo2/5/5/5 x 11 11 0 2"}) {
    CAPTURE(text);
    PositionHandle pos;
    REQUIRE(moon_position_from_string(text, nullptr, &pos.p) == MOON_OK);
    for (int depth = 1; depth <= 3; ++depth) {
      Divided divided;
      uint64_t total = 0, whole = 0;
      int overflow = -1;
      REQUIRE(moon_perft_divide(pos.p, depth, 2, &Divided::add, &divided, &total, &overflow) == MOON_OK);
      REQUIRE(moon_perft(pos.p, depth, 1, &whole, nullptr) == MOON_OK);
      CHECK(total == whole);
      CHECK(overflow == 0);
      // One call per legal move, in generation order; each count is the position after it.
      moon_move legal[MOON_MAX_MOVES];
      size_t count = 0;
      REQUIRE(moon_position_legal_moves(pos.p, legal, MOON_MAX_MOVES, &count) == MOON_OK);
      REQUIRE(divided.moves.size() == count);
      uint64_t sum = 0;
      for (size_t i = 0; i < count; ++i) {
        CHECK(divided.moves[i].first == legal[i].text);
        PositionHandle child;
        REQUIRE(moon_position_copy(pos.p, &child.p) == MOON_OK);
        REQUIRE(moon_position_play(child.p, legal[i].text, nullptr) == MOON_OK);
        uint64_t below = 0;
        REQUIRE(moon_perft(child.p, depth - 1, 1, &below, nullptr) == MOON_OK);
        CHECK(divided.moves[i].second == below);
        sum += divided.moves[i].second;
      }
      CHECK(sum == total);
    }
  }
  // Nothing to divide by: depth 0 (one leaf), a game that is over (none). No callback: the count.
  PositionHandle start, over;
  REQUIRE(moon_position_new(nullptr, &start.p) == MOON_OK);
  REQUIRE(moon_position_from_string("xx3/5/5/5/4o x", nullptr, &over.p) == MOON_OK);
  Divided none;
  uint64_t nodes = 7;
  REQUIRE(moon_perft_divide(start.p, 0, 1, &Divided::add, &none, &nodes, nullptr) == MOON_OK);
  CHECK(nodes == 1);
  REQUIRE(moon_perft_divide(over.p, 3, 1, &Divided::add, &none, &nodes, nullptr) == MOON_OK);
  CHECK(nodes == 0);
  CHECK(none.moves.empty());
  REQUIRE(moon_perft_divide(start.p, 2, 1, nullptr, nullptr, &nodes, nullptr) == MOON_OK);
  CHECK(nodes == 24 * 23);
  // Refused: no call, the count unchanged.
  nodes = 7;
  CHECK(moon_perft_divide(start.p, -1, 1, &Divided::add, &none, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()).rfind("moon_perft_divide: ", 0) == 0);
  CHECK(moon_perft_divide(start.p, 2, 0, &Divided::add, &none, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_perft_divide(nullptr, 2, 1, &Divided::add, &none, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_perft_divide(start.p, 2, 1, &Divided::add, &none, nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(nodes == 7);
  CHECK(none.moves.empty());
}

TEST_CASE("C API: a stoppable perft gives each move's count as it completes, and a stop signal ends it" *
          doctest::test_suite("threads")) {
  struct Divided {
    std::vector<std::pair<std::string, uint64_t>> moves;
    moon_stop_signal* raise_after_two = nullptr;
    static void add(const char* move, uint64_t nodes, void* self) {
      auto& d = *static_cast<Divided*>(self);
      d.moves.emplace_back(move, nodes);
      if (d.moves.size() == 2 && d.raise_after_two) moon_stop_signal_raise(d.raise_after_two);
    }
  };
  PositionHandle pos;
  REQUIRE(moon_position_from_string("x1o2/1ox2/2x1o/o1x2/1o2x x", nullptr, &pos.p) == MOON_OK);
  moon_move legal[MOON_MAX_MOVES];
  size_t count = 0;
  REQUIRE(moon_position_legal_moves(pos.p, legal, MOON_MAX_MOVES, &count) == MOON_OK);
  const std::string of_all = " of " + std::to_string(count) + " root moves";
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    // No signal: moon_perft_divide()'s count and calls.
    Divided whole, divided;
    uint64_t total = 0, expected = 0;
    int overflow = -1;
    REQUIRE(moon_perft_stoppable(pos.p, 5, threads, nullptr, &Divided::add, &whole, &total, &overflow) == MOON_OK);
    REQUIRE(moon_perft_divide(pos.p, 5, threads, &Divided::add, &divided, &expected, nullptr) == MOON_OK);
    CHECK(total == expected);
    CHECK(overflow == 0);
    CHECK(whole.moves == divided.moves);
    // Raised before: nothing counted, nothing called, the outputs unchanged.
    moon_stop_signal* early = nullptr;
    REQUIRE(moon_stop_signal_new(&early) == MOON_OK);
    REQUIRE(moon_stop_signal_raise(early) == MOON_OK);
    Divided none;
    uint64_t nodes = 7;
    overflow = -1;
    CHECK(moon_perft_stoppable(pos.p, 200, threads, early, &Divided::add, &none, &nodes, &overflow) ==
          MOON_ERROR_STOPPED);
    CHECK(std::string(moon_last_error()) == "moon_perft_stoppable: perft stopped after 0" + of_all);
    CHECK(none.moves.empty());
    CHECK(nodes == 7);
    CHECK(overflow == -1);
    // A raised signal does not make an invalid depth a stop.
    CHECK(moon_perft_stoppable(pos.p, 256, threads, early, &Divided::add, &none, &nodes, &overflow) ==
          MOON_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(moon_last_error()) == "moon_perft_stoppable: depth 256 must be from 0 to 255");
    CHECK(none.moves.empty());
    // Nothing to count, nothing a stop could cut short: answered, raised or not.
    CHECK(moon_perft_stoppable(pos.p, 0, threads, early, &Divided::add, &none, &nodes, &overflow) == MOON_OK);
    CHECK(nodes == 1);
    CHECK(overflow == 0);
    CHECK(none.moves.empty());
    moon_stop_signal_free(early);
    // Raised by the callback after the second move: those two, exact, and no third.
    moon_stop_signal* signal = nullptr;
    REQUIRE(moon_stop_signal_new(&signal) == MOON_OK);
    Divided two;
    two.raise_after_two = signal;
    CHECK(moon_perft_stoppable(pos.p, 5, threads, signal, &Divided::add, &two, &nodes, nullptr) == MOON_ERROR_STOPPED);
    CHECK(std::string(moon_last_error()) == "moon_perft_stoppable: perft stopped after 2" + of_all);
    REQUIRE(two.moves.size() == 2);
    CHECK(two.moves[0] == whole.moves[0]);
    CHECK(two.moves[1] == whole.moves[1]);
    moon_stop_signal_free(signal);
    // Raised from another thread in the middle of a count that would take hours.
    REQUIRE(moon_stop_signal_new(&signal) == MOON_OK);
    std::thread raiser([signal] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      moon_stop_signal_raise(signal);
    });
    const auto asked = std::chrono::steady_clock::now();
    CHECK(moon_perft_stoppable(pos.p, 16, threads, signal, nullptr, nullptr, &nodes, nullptr) == MOON_ERROR_STOPPED);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count() < 10.0);  // generous
    raiser.join();
    moon_stop_signal_free(signal);
  }
  // Refused as moon_perft_divide() refuses, named for this call.
  uint64_t nodes = 7;
  CHECK(moon_perft_stoppable(pos.p, -1, 1, nullptr, nullptr, nullptr, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()).rfind("moon_perft_stoppable: ", 0) == 0);
  CHECK(moon_perft_stoppable(nullptr, 2, 1, nullptr, nullptr, nullptr, &nodes, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_perft_stoppable(pos.p, 2, 1, nullptr, nullptr, nullptr, nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(nodes == 7);
}

TEST_CASE("C API: search to a depth reports each iteration and returns a legal move") {
  EngineHandle engine;
  moon_engine_options options = {4, 1, 0};
  REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  REQUIRE(moon_position_play(pos.p, "b4", nullptr) == MOON_OK);

  std::vector<int> depths;
  const moon_search_callback record = [](const moon_search_info* info, void* user) {
    static_cast<std::vector<int>*>(user)->push_back(info->depth);
  };
  moon_search_limits limits = {3, 0, 0, 0, 0, 0, 0};
  moon_search_info result;
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, record, &depths, &result) == MOON_OK);
  CHECK(depths == std::vector<int>{1, 2, 3});
  CHECK(result.depth == 3);
  CHECK(result.score_kind == MOON_SCORE_HEURISTIC);
  CHECK(std::string(result.pv).rfind(result.best_move, 0) == 0);
  PositionHandle copy;
  REQUIRE(moon_position_copy(pos.p, &copy.p) == MOON_OK);
  CHECK(moon_position_play(copy.p, result.best_move, nullptr) == MOON_OK);

  CHECK(result.multipv == 1);

  // Multi-PV: three lines an iteration, in order, each its own move; the result is line 1's.
  struct Lines {
    std::vector<std::pair<int, int>> depth_and_line;
    std::vector<std::string> firsts;  // of the last iteration
  } lines;
  const moon_search_callback record_lines = [](const moon_search_info* info, void* user) {
    auto& l = *static_cast<Lines*>(user);
    CHECK(info->lines == 3);
    l.depth_and_line.emplace_back(info->depth, info->multipv);
    if (info->multipv == 1) l.firsts.clear();
    l.firsts.emplace_back(info->best_move);
  };
  limits.multipv = 3;
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, record_lines, &lines, &result) == MOON_OK);
  CHECK(lines.depth_and_line ==
        std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {3, 3}});
  REQUIRE(lines.firsts.size() == 3);
  CHECK(lines.firsts[0] == result.best_move);
  CHECK(lines.firsts[1] != lines.firsts[0]);
  CHECK(lines.firsts[2] != lines.firsts[0]);
  CHECK(lines.firsts[2] != lines.firsts[1]);
  CHECK(result.multipv == 1);
  CHECK(result.lines == 1);

  moon_search_limits bad = {101, 0, 0, 0, 0, 0, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search: depth must be from 0 to 100, not 101");
  // Each refused field named, with its value.
  bad = moon_search_limits{0, 0, -1, 0, 0, 0, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search: movetime_ms must not be negative, not -1");
  bad = moon_search_limits{0, 0, 0, -5, 0, 0, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search: time_left_ms must not be negative, not -5");
  bad = moon_search_limits{0, 0, 0, 100, -2, 0, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search: increment_ms must not be negative, not -2");
  // The whole range is taken: 64 lines asked of a position with fewer moves gives them all.
  moon_search_limits most_lines = {1, 0, 0, 0, 0, 64, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &most_lines, nullptr, nullptr, &result) == MOON_OK);
  for (int multipv : {-1, 65}) {
    bad = moon_search_limits{3, 0, 0, 0, 0, multipv, 0};
    CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(moon_last_error()) ==
          "moon_engine_search: multipv must be from 0 to 64, not " + std::to_string(multipv));
  }
  // An increment without the clock it adds to would leave the search without a limit.
  bad = moon_search_limits{0, 0, 0, 0, 5, 0, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search: increment_ms needs time_left_ms");
  bad = moon_search_limits{0, 0, 0, 200, 5, 0, 0};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_OK);
  bad = moon_search_limits{3, 0, 0, 0, 0, 0, 2};
  CHECK(moon_engine_search(engine.e, pos.p, &bad, nullptr, nullptr, &result) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search: analysis must be 0 or 1, not 2");
  moon_engine_options too_many = {0, 1000, 0};
  moon_engine* none = nullptr;
  CHECK(moon_engine_new(&too_many, &none) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_engine_clear(engine.e) == MOON_OK);
}

TEST_CASE("C API: an engine's options changed in place: checked, refused while busy, nothing changed on failure") {
  EngineHandle engine;
  REQUIRE(moon_engine_new(nullptr, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_from_string("4x/5/xo2o/3x1/2x2 x", nullptr, &pos.p) == MOON_OK);  // x wins in 13
  moon_solve_result before;
  REQUIRE(moon_engine_solve(engine.e, pos.p, &before) == MOON_OK);

  CHECK(moon_engine_set_options(nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_set_options: engine is NULL");
  moon_engine_options bad = {0, 257, 0};
  CHECK(moon_engine_set_options(engine.e, &bad) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_set_options: threads must be from 1 to 256 (0: one), not 257");
  bad = moon_engine_options{0, -1, 0};
  CHECK(moon_engine_set_options(engine.e, &bad) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_set_options: threads must be from 1 to 256 (0: one), not -1");
  // Each table's size by its field, with the value refused.
  bad = moon_engine_options{65537, 1, 0};
  CHECK(moon_engine_set_options(engine.e, &bad) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) ==
        "moon_engine_set_options: hash_mb must be from 1 to 65536 MiB (0: the default), not 65537");
  bad = moon_engine_options{1, 1, 65537};
  CHECK(moon_engine_set_options(engine.e, &bad) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) ==
        "moon_engine_set_options: solver_hash_mb must be from 1 to 65536 MiB (0: the default), not 65537");
  // Nothing changed: the solver's table was neither made again nor cleared, and still holds the
  // proof, which a second solve reads in a sliver of the first one's nodes.
  moon_solve_result kept;
  REQUIRE(moon_engine_solve(engine.e, pos.p, &kept) == MOON_OK);
  CHECK(kept.plies == before.plies);
  CHECK(kept.nodes * 10 < before.nodes);
  MESSAGE("first solve ", before.nodes, " nodes, after the refused changes ", kept.nodes);

  // Two threads and other tables: the search and the solve give the same answers.
  moon_engine_options changed = {2, 2, 3};
  REQUIRE(moon_engine_set_options(engine.e, &changed) == MOON_OK);
  moon_search_limits limits{};
  limits.depth = 14;
  moon_search_info result;
  int reported_fill = -1;
  const auto keep_fill = [](const moon_search_info* info, void* user) { *static_cast<int*>(user) = info->hashfull; };
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, keep_fill, &reported_fill, &result) == MOON_OK);
  CHECK(result.score_kind == MOON_SCORE_WIN);
  CHECK(result.score_value == 13);
  // The 2 MiB table's fill, as the last iteration reported it.
  CHECK(result.hashfull > 0);
  CHECK(result.hashfull <= 1000);
  CHECK(result.hashfull == reported_fill);
  moon_solve_result after;
  REQUIRE(moon_engine_solve(engine.e, pos.p, &after) == MOON_OK);
  CHECK(after.outcome == before.outcome);
  CHECK(after.plies == before.plies);
  REQUIRE(moon_engine_set_options(engine.e, nullptr) == MOON_OK);  // the defaults again
  REQUIRE(moon_engine_solve(engine.e, pos.p, &after) == MOON_OK);
  CHECK(after.plies == 13);

  // From the search's own callback: busy, and the search goes on with its options.
  struct Seen {
    moon_engine* engine;
    moon_status status = MOON_OK;
  } seen{engine.e};
  const auto try_change = [](const moon_search_info*, void* user) {
    auto* s = static_cast<Seen*>(user);
    if (s->status == MOON_OK) s->status = moon_engine_set_options(s->engine, nullptr);
  };
  limits.depth = 3;
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, try_change, &seen, &result) == MOON_OK);
  CHECK(seen.status == MOON_ERROR_BUSY);
  // The message names the call that holds the engine.
  CHECK(std::string(moon_last_error()) == "moon_engine_set_options: the engine is busy with moon_engine_search");

  // From a solve's progress report: busy with that solve, for every call that needs the engine.
  struct Tried {
    moon_engine* engine;
    const moon_position* position;
    bool done = false;
    std::vector<std::pair<moon_status, std::string>> answers;
  } tried{engine.e, pos.p, false, {}};
  const auto try_all = [](const char*, void* user) {
    auto* t = static_cast<Tried*>(user);
    if (t->done) return;
    t->done = true;
    const auto note = [t](moon_status status) { t->answers.emplace_back(status, moon_last_error()); };
    moon_search_info info;
    moon_solve_result solved;
    note(moon_engine_search(t->engine, t->position, nullptr, nullptr, nullptr, &info));
    note(moon_engine_solve(t->engine, t->position, &solved));
    note(moon_engine_clear(t->engine));
    note(moon_engine_set_options(t->engine, nullptr));
    note(moon_engine_set_stop_signal(t->engine, nullptr));
    // Busy comes before the arguments' other errors: invalid options, a buffer too small (whose
    // count is then not written).
    const moon_engine_options invalid = {16, -5, 64};
    note(moon_engine_set_options(t->engine, &invalid));
    std::size_t count = 99;
    note(moon_engine_solve_moves(t->engine, t->position, nullptr, nullptr, nullptr, 0, &count));
    if (count != 99) t->answers.emplace_back(MOON_OK, "count written: " + std::to_string(count));
  };
  REQUIRE(moon_engine_clear(engine.e) == MOON_OK);  // so that the solve reports progress
  REQUIRE(moon_engine_solve_with_progress(engine.e, pos.p, try_all, &tried, &after) == MOON_OK);
  CHECK(after.plies == 13);
  const std::vector<std::pair<moon_status, std::string>> expected = {
      {MOON_ERROR_BUSY, "moon_engine_search: the engine is busy with moon_engine_solve_with_progress"},
      {MOON_ERROR_BUSY, "moon_engine_solve: the engine is busy with moon_engine_solve_with_progress"},
      {MOON_ERROR_BUSY, "moon_engine_clear: the engine is busy with moon_engine_solve_with_progress"},
      {MOON_ERROR_BUSY, "moon_engine_set_options: the engine is busy with moon_engine_solve_with_progress"},
      {MOON_ERROR_BUSY, "moon_engine_set_stop_signal: the engine is busy with moon_engine_solve_with_progress"},
      {MOON_ERROR_BUSY, "moon_engine_set_options: the engine is busy with moon_engine_solve_with_progress"},
      {MOON_ERROR_BUSY, "moon_engine_solve_moves: the engine is busy with moon_engine_solve_with_progress"},
  };
  CHECK(tried.answers == expected);
}

TEST_CASE("C API: a single legal move under a move time: depth 1 for a move to play, its value for an analysis") {
  EngineHandle engine;
  REQUIRE(moon_engine_new(nullptr, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_from_string("3ox/4o/5/o4/xo3 x 0 0 0 1", nullptr, &pos.p) == MOON_OK);  // x must pass
  moon_search_limits limits{};
  limits.movetime_ms = 60000;
  moon_search_info result;
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_OK);
  CHECK(std::string(result.best_move) == "0000");
  CHECK(result.depth == 1);
  CHECK(result.score_kind == MOON_SCORE_HEURISTIC);
  limits.analysis = 1;
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_OK);  // proven at once
  CHECK(std::string(result.best_move) == "0000");
  CHECK(result.score_kind == MOON_SCORE_LOSS);
  CHECK(result.score_value == 4);
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("C API: helper threads the system will not make: MOON_ERROR_OUT_OF_MEMORY, and the engine still works") {
  EngineHandle engine;
  moon_engine_options many = {1, 200, 1};
  REQUIRE(moon_engine_new(&many, &engine.e) == MOON_OK);
  PositionHandle pos, start_position;
  REQUIRE(moon_position_from_string(one_move_win, nullptr, &pos.p) == MOON_OK);
  REQUIRE(moon_position_new(nullptr, &start_position.p) == MOON_OK);
  moon_search_limits limits{};
  limits.depth = 2;
  moon_search_info result;
  {
    const moon::test::AddressSpaceGuard guard(256);  // not room for 199 stacks of 8 MiB
    int reported = 0;
    const auto count_report = [](const moon_search_info*, void* user) { ++*static_cast<int*>(user); };
    CHECK(moon_engine_search(engine.e, start_position.p, &limits, count_report, &reported, &result) ==
          MOON_ERROR_OUT_OF_MEMORY);
    CHECK(std::string(moon_last_error()).rfind("moon_engine_search: cannot start the 199 helper threads of a 200-thread search (", 0) == 0);
    CHECK(reported == 0);  // refused before anything was searched or reported
    // The helpers are made before the search, even where depth 1 will settle it (a win in 1);
    // a search limited to depth 1 needs none.
    CHECK(moon_engine_search(engine.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_ERROR_OUT_OF_MEMORY);
    limits.depth = 1;
    CHECK(moon_engine_search(engine.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_OK);
    CHECK(std::string(result.best_move) == "c2c1");
    limits.depth = 2;
  }
  REQUIRE(moon_engine_search(engine.e, start_position.p, &limits, nullptr, nullptr, &result) == MOON_OK);
  CHECK(result.depth == 2);

  // perft counts without the threads it cannot start (at first an uncaught std::system_error:
  // MOON_ERROR_INTERNAL): the same count.
  PositionHandle start;
  REQUIRE(moon_position_new(nullptr, &start.p) == MOON_OK);
  std::uint64_t nodes = 7;
  int overflow = 7;
  {
    const moon::test::AddressSpaceGuard guard(256);  // not room for 256 stacks of 8 MiB
    CHECK(moon_perft(start.p, 5, 256, &nodes, &overflow) == MOON_OK);
  }
  CHECK(nodes == 5100480);  // perft(5) from the start, as tests/data/perft-reference.txt gives
  CHECK(overflow == 0);
}
#endif

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("C API: a solver table that cannot be had: MOON_ERROR_OUT_OF_MEMORY, and the engine still solves") {
  // The solver's table is made by the first solve, and again by the first after a change of its
  // size; either may find the memory gone. The status says so (not "stopped", not "internal").
  PositionHandle pos;
  REQUIRE(moon_position_from_string(one_move_win, nullptr, &pos.p) == MOON_OK);
  moon_solve_result solved;
  const auto solve_without_room = [&](moon_engine* engine) {
    const moon::test::AddressSpaceGuard guard(256);  // not room for 512 MiB
    CHECK(moon_engine_solve(engine, pos.p, &solved) == MOON_ERROR_OUT_OF_MEMORY);
    CHECK(std::string(moon_last_error()) == "moon_engine_solve: cannot allocate a 512 MiB hash table");
  };
  EngineHandle first;
  moon_engine_options large = {1, 1, 512};
  REQUIRE(moon_engine_new(&large, &first.e) == MOON_OK);
  solve_without_room(first.e);
  REQUIRE(moon_engine_solve(first.e, pos.p, &solved) == MOON_OK);  // with the room back
  CHECK(std::string(solved.best_move) == "c2c1");

  EngineHandle resized;
  moon_engine_options small = {1, 1, 1};
  REQUIRE(moon_engine_new(&small, &resized.e) == MOON_OK);
  REQUIRE(moon_engine_solve(resized.e, pos.p, &solved) == MOON_OK);
  REQUIRE(moon_engine_set_options(resized.e, &large) == MOON_OK);
  solve_without_room(resized.e);
  REQUIRE(moon_engine_solve(resized.e, pos.p, &solved) == MOON_OK);
  CHECK(std::string(solved.best_move) == "c2c1");
}

TEST_CASE("C API: memory that runs out: MOON_ERROR_OUT_OF_MEMORY, with the function's name") {
  // Positions made until the process's address space, 8 MiB more than it has, is full (and the
  // heap memory earlier tests gave back): the failing call's message is read before anything
  // else may allocate.
  std::vector<moon_position*> made;
  made.reserve(std::size_t{1} << 24);
  moon_status status = MOON_OK;
  char message[MOON_ERROR_TEXT_SIZE] = "";
  {
    const moon::test::AddressSpaceGuard guard(8);
    while (made.size() < made.capacity()) {
      moon_position* p = nullptr;
      status = moon_position_new(nullptr, &p);
      if (status != MOON_OK) {
        std::strncpy(message, moon_last_error(), sizeof message - 1);
        break;
      }
      made.push_back(p);
    }
  }
  for (moon_position* p : made) moon_position_free(p);
  REQUIRE(made.size() < made.capacity());  // it ran out
  CHECK(status == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(std::string(message) == "moon_position_new: out of memory");
}
#endif

TEST_CASE("C API: hash sizes above the machine's memory are refused by moon_engine_new" *
          doctest::skip(moon::test::over_memory_mb() == 0)) {
  const std::size_t over = moon::test::over_memory_mb();
  const moon::test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  moon_engine* engine = nullptr;
  moon_engine_options search = {over, 1, 0};
  CHECK(moon_engine_new(&search, &engine) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(engine == nullptr);
  CHECK(std::string(moon_last_error()) == "moon_engine_new: " + moon::test::over_memory_message(over));
  // The top of the documented range, 65536, is in range: refused for this machine's memory, not
  // as an invalid argument (the test runs only where the memory is below it).
  moon_engine_options top = {65536, 1, 0};
  CHECK(moon_engine_new(&top, &engine) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(std::string(moon_last_error()) == "moon_engine_new: " + moon::test::over_memory_message(65536));
  CHECK(engine == nullptr);
  moon_engine_options solver = {0, 1, over};  // the solver's table, made only by the first solve
  CHECK(moon_engine_new(&solver, &engine) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(engine == nullptr);
  CHECK(std::string(moon_last_error()) == "moon_engine_new: solver " + moon::test::over_memory_message(over));

  // Sizes that fit are taken, and the engine solves (its solver made at the first solve).
  EngineHandle fits;
  moon_engine_options small = {2, 1, 2};
  REQUIRE(moon_engine_new(&small, &fits.e) == MOON_OK);
  solves_the_one_move_win(fits.e);
}

#ifndef MOON_SANITIZE_BUILD  // the guard does nothing under the sanitizers: no unguarded try
TEST_CASE("C API: hash sizes above the memory available now are refused by moon_engine_new and set_options" *
          doctest::skip(moon::test::over_available_mb() == 0)) {
  const std::size_t size = moon::test::over_available_mb();
  const moon::test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  const std::string available_now = " MiB is more than the memory available now (";
  moon_engine* engine = nullptr;
  moon_engine_options search = {size, 1, 0};
  CHECK(moon_engine_new(&search, &engine) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(engine == nullptr);
  const std::string size_text = std::to_string(size);
  CHECK(std::string(moon_last_error()).starts_with("moon_engine_new: hash size " + size_text + available_now));
  moon_engine_options solver = {0, 1, size};
  CHECK(moon_engine_new(&solver, &engine) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(std::string(moon_last_error()).starts_with("moon_engine_new: solver hash size " + size_text + available_now));

  // An engine with small tables keeps them, and its solver, when a change asks for too much.
  EngineHandle kept;
  moon_engine_options small = {2, 1, 2};
  REQUIRE(moon_engine_new(&small, &kept.e) == MOON_OK);
  solves_the_one_move_win(kept.e);
  for (const moon_engine_options& too_much : {moon_engine_options{size, 1, 2}, moon_engine_options{2, 1, size}}) {
    CHECK(moon_engine_set_options(kept.e, &too_much) == MOON_ERROR_OUT_OF_MEMORY);
    CHECK(std::string(moon_last_error()).find(available_now) != std::string::npos);
  }
  solves_the_one_move_win(kept.e);
  // Options that change no table's size are taken.
  moon_engine_options same = {2, 2, 2};
  CHECK(moon_engine_set_options(kept.e, &same) == MOON_OK);
}

TEST_CASE("C API: the search's and the solver's tables are checked together, in moon_engine_new and set_options" *
          doctest::skip(moon::test::three_fifths_available_mb() == 0)) {
  const std::size_t size = moon::test::three_fifths_available_mb();
  const moon::test::AddressSpaceGuard guard;  // were they not refused, an allocation would fail, not kill
  const std::string together = "solver hash size " + std::to_string(size) + " MiB and the search's " +
                               std::to_string(size) + " MiB table together are more than the memory available now (";
  moon_engine* engine = nullptr;
  const moon_engine_options both = {size, 1, size};
  CHECK(moon_engine_new(&both, &engine) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(engine == nullptr);
  CHECK(std::string(moon_last_error()).starts_with("moon_engine_new: " + together));

  // Set in one call on an engine with small tables, whether or not its solver was made yet; the
  // engine keeps its tables and solves.
  for (const bool solved_first : {false, true}) {
    CAPTURE(solved_first);
    EngineHandle kept;
    const moon_engine_options small = {2, 1, 2};
    REQUIRE(moon_engine_new(&small, &kept.e) == MOON_OK);
    if (solved_first) solves_the_one_move_win(kept.e);
    CHECK(moon_engine_set_options(kept.e, &both) == MOON_ERROR_OUT_OF_MEMORY);
    CHECK(std::string(moon_last_error()).starts_with("moon_engine_set_options: " + together));
    PositionHandle pos;
    REQUIRE(moon_position_from_string(one_move_win, nullptr, &pos.p) == MOON_OK);
    moon_search_limits limits = {1, 0, 0, 0, 0, 0, 0};
    moon_search_info result;
    REQUIRE(moon_engine_search(kept.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_OK);
    solves_the_one_move_win(kept.e);
  }
  // A large solver's table not made yet, then a search table as large: refused, as together.
  EngineHandle pending;
  const moon_engine_options large_solver = {2, 1, size};
  REQUIRE(moon_engine_new(&large_solver, &pending.e) == MOON_OK);
  CHECK(moon_engine_set_options(pending.e, &both) == MOON_ERROR_OUT_OF_MEMORY);
  CHECK(std::string(moon_last_error()).starts_with("moon_engine_set_options: " + together));
}
#endif

TEST_CASE("C API: a won position is found; a finished game has no best move") {
  EngineHandle engine;
  REQUIRE(moon_engine_new(nullptr, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_from_string(one_move_win, nullptr, &pos.p) == MOON_OK);
  moon_search_limits limits = {4, 0, 0, 0, 0, 0, 0};
  moon_search_info result;
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_OK);
  CHECK(std::string(result.best_move) == "c2c1");
  CHECK(result.score_kind == MOON_SCORE_WIN);
  CHECK(result.score_value == 1);

  moon_solve_result solved;
  REQUIRE(moon_engine_solve(engine.e, pos.p, &solved) == MOON_OK);
  CHECK(solved.outcome == MOON_OUTCOME_WIN);
  CHECK(solved.plies == 1);
  CHECK(std::string(solved.best_move) == "c2c1");

  REQUIRE(moon_position_play(pos.p, "c2c1", nullptr) == MOON_OK);
  REQUIRE(moon_engine_search(engine.e, pos.p, &limits, nullptr, nullptr, &result) == MOON_OK);
  CHECK(std::string(result.best_move).empty());
  REQUIRE(moon_engine_solve(engine.e, pos.p, &solved) == MOON_OK);
  CHECK(solved.plies == 0);
  CHECK(std::string(solved.best_move).empty());
}

TEST_CASE("C API: stop ends a search or a solve from another thread; the engine is busy meanwhile") {
  EngineHandle engine;
  moon_engine_options options = {4, 1, 4};
  REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  CHECK(moon_engine_stop(engine.e) == MOON_OK);  // nothing runs: nothing happens

  for (int round = 0; round < 5; ++round) {
    std::atomic<bool> done{false};
    moon_status status = MOON_ERROR_INTERNAL;
    moon_search_info result;
    std::thread searching([&] {
      do status = moon_engine_search(engine.e, pos.p, nullptr, nullptr, nullptr, &result);  // no limit
      while (status == MOON_ERROR_BUSY);  // a clear of round 0 got in first
      done = true;
    });
    if (round == 0) {
      // Once a clear is refused as busy, the search has begun (no sleep that a slow machine
      // could outlast: this thread's own search would then take the engine, and never end).
      while (moon_engine_clear(engine.e) != MOON_ERROR_BUSY) std::this_thread::yield();
      CHECK_FALSE(done);
      moon_search_info other;
      CHECK(moon_engine_search(engine.e, pos.p, nullptr, nullptr, nullptr, &other) == MOON_ERROR_BUSY);
      CHECK(moon_engine_clear(engine.e) == MOON_ERROR_BUSY);
    }
    while (!done) {
      CHECK(moon_engine_stop(engine.e) == MOON_OK);
      std::this_thread::sleep_for(1ms);
    }
    searching.join();
    CHECK(status == MOON_OK);
    CHECK(std::strlen(result.best_move) == 2);
  }

  // A stop made while idle does not touch the next search.
  moon_search_limits depth2 = {2, 0, 0, 0, 0, 0, 0};
  moon_search_info result;
  REQUIRE(moon_engine_search(engine.e, pos.p, &depth2, nullptr, nullptr, &result) == MOON_OK);
  CHECK(result.depth == 2);

  // The full game is far too deep to solve in a test: stop ends it with MOON_ERROR_STOPPED.
  moon_status status = MOON_OK;
  std::string message;
  moon_solve_result solved;
  std::thread solving([&] {
    do status = moon_engine_solve(engine.e, pos.p, &solved);
    while (status == MOON_ERROR_BUSY);
    message = moon_last_error();
  });
  while (moon_engine_clear(engine.e) != MOON_ERROR_BUSY) std::this_thread::yield();  // the solve has begun
  CHECK(moon_engine_stop(engine.e) == MOON_OK);
  solving.join();
  CHECK(status == MOON_ERROR_STOPPED);
  CHECK(contains(message.c_str(), "stopped"));
}

namespace {

struct SignalHandle {
  moon_stop_signal* s = nullptr;
  ~SignalHandle() { moon_stop_signal_free(s); }
};

// Runs call() on another thread, then after_start() on this one, and waits up to 30 s for the
// call: a stop that was lost fails the check, and the call is then ended with
// moon_engine_stop() instead of hanging the suite.
template <class Call, class AfterStart = void (*)()>
void returns_promptly(moon_engine* engine, Call call, AfterStart after_start = [] {}) {
  std::atomic<bool> done{false};
  std::thread worker([&] {
    call();
    done = true;
  });
  after_start();
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!done && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  CHECK(done.load());
  while (!done) {
    moon_engine_stop(engine);
    std::this_thread::sleep_for(1ms);
  }
  worker.join();
}

}  // namespace

TEST_CASE("C API: one moon_engine_stop() reaches a call that has only just begun") {
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);  // far too deep to finish unstopped
  // The main thread learns that the worker's call has begun when moon_engine_clear() is refused
  // as busy, and stops it then, once. A solve on a new engine makes its solver's 64 MiB table
  // first, within the call, so the stop mostly comes before the solve proper has begun. (A clear
  // that gets in before the call makes it busy: the worker tries again.)
  for (int round = 0; round < 20; ++round) {
    const bool solve = round % 2 == 1;
    EngineHandle engine;
    moon_engine_options options = {4, 1, 64};
    REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
    moon_status status = MOON_ERROR_INTERNAL;
    const auto call = [&] {
      moon_search_info searched;
      moon_solve_result solved;
      do
        status = solve ? moon_engine_solve(engine.e, pos.p, &solved)
                       : moon_engine_search(engine.e, pos.p, nullptr, nullptr, nullptr, &searched);  // no limit
      while (status == MOON_ERROR_BUSY);
    };
    returns_promptly(engine.e, call, [&] {
      while (moon_engine_clear(engine.e) != MOON_ERROR_BUSY) std::this_thread::yield();
      CHECK(moon_engine_stop(engine.e) == MOON_OK);
    });
    CHECK(status == (solve ? MOON_ERROR_STOPPED : MOON_OK));
  }
}

TEST_CASE("C API: a search until stopped ends only at the stop, once settled or on a finished game") {
  EngineHandle engine;
  moon_engine_options options = {4, 1, 4};
  REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
  PositionHandle won;
  REQUIRE(moon_position_from_string(one_move_win, nullptr, &won.p) == MOON_OK);
  // Without limits, moon_engine_search() returns by itself: the win in 1 is settled at depth 1.
  moon_search_info result;
  REQUIRE(moon_engine_search(engine.e, won.p, nullptr, nullptr, nullptr, &result) == MOON_OK);
  CHECK(result.score_kind == MOON_SCORE_WIN);

  // Until stopped, it is still inside the call 300 ms later, busy; the stop ends it. `iterations`
  // counts the callback's calls. (Busy is waited for first: on a loaded machine the call may not
  // have begun within 300 ms, and a stop before it begins would be ignored.)
  int iterations = 0;
  const auto until_stop = [&](const moon_position* position) {
    const auto count = [](const moon_search_info*, void* counter) { ++*static_cast<int*>(counter); };
    moon_status status = MOON_ERROR_INTERNAL;
    std::atomic<bool> returned{false};
    iterations = 0;
    returns_promptly(engine.e, [&] {
      do status = moon_engine_search_until_stopped(engine.e, position, 0, count, &iterations, &result);
      while (status == MOON_ERROR_BUSY);  // a clear of the waiting loop below got in first
      returned = true;
    }, [&] {
      while (moon_engine_clear(engine.e) != MOON_ERROR_BUSY) std::this_thread::yield();
      std::this_thread::sleep_for(300ms);
      CHECK_FALSE(returned.load());
      CHECK(moon_engine_clear(engine.e) == MOON_ERROR_BUSY);
      CHECK(moon_engine_stop(engine.e) == MOON_OK);
    });
    return status;
  };
  CHECK(until_stop(won.p) == MOON_OK);
  CHECK(iterations >= 1);
  CHECK(std::string(result.best_move) == "c2c1");
  CHECK(result.score_kind == MOON_SCORE_WIN);
  CHECK(result.score_value == 1);

  // A game that is over has nothing to search, and still waits for the stop (as `go infinite`).
  PositionHandle over;
  REQUIRE(moon_position_from_string("xx3/5/5/5/o4 o", nullptr, &over.p) == MOON_OK);
  CHECK(until_stop(over.p) == MOON_OK);
  CHECK(iterations == 0);
  CHECK(std::string(result.best_move).empty());

  // Its arguments are checked as moon_engine_search()'s.
  CHECK(moon_engine_search_until_stopped(engine.e, won.p, 65, nullptr, nullptr, &result) ==
        MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search_until_stopped: multipv must be from 0 to 64, not 65");
  CHECK(moon_engine_search_until_stopped(engine.e, nullptr, 1, nullptr, nullptr, &result) ==
        MOON_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(moon_last_error()) == "moon_engine_search_until_stopped: position is NULL");
}

TEST_CASE("C API: a raised stop signal still lets a solve return a value its table holds") {
  EngineHandle engine;
  moon_engine_options options = {1, 1, 1};
  REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_from_string("1x1x1/4x/1x3/ox1ox/2o2 x", nullptr, &pos.p) == MOON_OK);
  moon_solve_result first, again;
  REQUIRE(moon_engine_solve(engine.e, pos.p, &first) == MOON_OK);
  SignalHandle signal;
  REQUIRE(moon_stop_signal_new(&signal.s) == MOON_OK);
  REQUIRE(moon_stop_signal_raise(signal.s) == MOON_OK);
  REQUIRE(moon_engine_set_stop_signal(engine.e, signal.s) == MOON_OK);
  REQUIRE(moon_engine_solve(engine.e, pos.p, &again) == MOON_OK);  // read off the table (moon.h)
  CHECK(again.outcome == first.outcome);
  CHECK(again.plies == first.plies);
  CHECK(std::string(again.best_move) == first.best_move);
  // A position the table does not hold is stopped.
  PositionHandle other;
  REQUIRE(moon_position_from_string("4x/x4/xo2o/1x1x1/2xo1 x", nullptr, &other.p) == MOON_OK);
  CHECK(moon_engine_solve(engine.e, other.p, &again) == MOON_ERROR_STOPPED);
}

TEST_CASE("C API: a game that is over is solved by its rules at once, stop signal or not, on a fresh engine too") {
  // Before, the first solve made the solver's table first: a raised signal stopped that making
  // (MOON_ERROR_STOPPED), and once the table was there the same call answered MOON_OK.
  PositionHandle over;  // o to move, down to one counter: x has won
  REQUIRE(moon_position_from_string("xx3/5/5/5/o4 o", nullptr, &over.p) == MOON_OK);
  SignalHandle signal;
  REQUIRE(moon_stop_signal_new(&signal.s) == MOON_OK);
  REQUIRE(moon_stop_signal_raise(signal.s) == MOON_OK);
  for (const bool raised : {false, true}) {
    CAPTURE(raised);
    EngineHandle engine;
    moon_engine_options options = {1, 1, 1};
    REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
    if (raised) REQUIRE(moon_engine_set_stop_signal(engine.e, signal.s) == MOON_OK);
    moon_solve_result solved;
    std::memset(&solved, 0x5a, sizeof solved);
    REQUIRE(moon_engine_solve(engine.e, over.p, &solved) == MOON_OK);
    CHECK(solved.outcome == MOON_OUTCOME_LOSS);
    CHECK(solved.plies == 0);
    CHECK(std::string(solved.best_move).empty());
    CHECK(solved.nodes == 0);
    std::size_t count = 99;
    CHECK(moon_engine_solve_moves(engine.e, over.p, nullptr, nullptr, nullptr, 0, &count) == MOON_OK);
    CHECK(count == 0);
    int reports = 0;
    const auto count_report = [](const char*, void* user) { ++*static_cast<int*>(user); };
    CHECK(moon_engine_solve_with_progress(engine.e, over.p, count_report, &reports, &solved) == MOON_OK);
    CHECK(reports == 0);  // nothing to prove (moon.h)
  }
}

TEST_CASE("C API: a stop signal ends a search or a solve, even raised before the call begins") {
  EngineHandle engine;
  moon_engine_options options = {4, 1, 4};
  REQUIRE(moon_engine_new(&options, &engine.e) == MOON_OK);
  PositionHandle start;  // far too deep to search or solve to the end
  REQUIRE(moon_position_new(nullptr, &start.p) == MOON_OK);
  moon_search_limits depth2 = {2, 0, 0, 0, 0, 0, 0};
  moon_search_info result;

  SignalHandle signal;
  REQUIRE(moon_stop_signal_new(&signal.s) == MOON_OK);
  int raised = -1;
  REQUIRE(moon_stop_signal_is_raised(signal.s, &raised) == MOON_OK);
  CHECK(raised == 0);
  REQUIRE(moon_engine_set_stop_signal(engine.e, signal.s) == MOON_OK);
  // Attached but not raised: nothing changes.
  REQUIRE(moon_engine_search(engine.e, start.p, &depth2, nullptr, nullptr, &result) == MOON_OK);
  CHECK(result.depth == 2);

  // Raised before the worker has begun: its search without limits, its solves, all return at once.
  REQUIRE(moon_stop_signal_raise(signal.s) == MOON_OK);
  REQUIRE(moon_stop_signal_is_raised(signal.s, &raised) == MOON_OK);
  CHECK(raised == 1);
  CHECK(moon_stop_signal_raise(signal.s) == MOON_OK);  // again: nothing more
  moon_status searched = MOON_ERROR_INTERNAL, solved = MOON_OK, solved_moves = MOON_OK;
  std::string message;
  returns_promptly(engine.e, [&] {
    searched = moon_engine_search(engine.e, start.p, nullptr, nullptr, nullptr, &result);
    moon_solve_result value;
    solved = moon_engine_solve(engine.e, start.p, &value);
    message = moon_last_error();
    moon_move_value values[MOON_MAX_MOVES];
    std::size_t count = 0;
    solved_moves = moon_engine_solve_moves(engine.e, start.p, nullptr, nullptr, values, MOON_MAX_MOVES, &count);
  });
  CHECK(searched == MOON_OK);
  CHECK(result.depth == 0);
  CHECK(std::strlen(result.best_move) == 2);  // a placement, legal but not searched (moon.h)
  CHECK(result.score_kind == MOON_SCORE_HEURISTIC);
  CHECK(result.score_value == 0);  // the start's static evaluation: the sides are alike
  CHECK(solved == MOON_ERROR_STOPPED);
  // The engine's first solve makes the solver's table: the stop ends that too.
  CHECK(message == "moon_engine_solve: stopped while making the 4 MiB table");
  CHECK(solved_moves == MOON_ERROR_STOPPED);

  // Freed by the caller, the signal lives on for the engine, still raised; detached, it is gone.
  moon_stop_signal_free(signal.s);
  signal.s = nullptr;
  REQUIRE(moon_engine_search(engine.e, start.p, &depth2, nullptr, nullptr, &result) == MOON_OK);
  CHECK(result.depth == 0);
  REQUIRE(moon_engine_set_stop_signal(engine.e, nullptr) == MOON_OK);
  REQUIRE(moon_engine_search(engine.e, start.p, &depth2, nullptr, nullptr, &result) == MOON_OK);
  CHECK(result.depth == 2);

  // A fresh signal raised while the search runs, from another thread; one signal, two engines.
  EngineHandle second;
  REQUIRE(moon_engine_new(&options, &second.e) == MOON_OK);
  SignalHandle fresh;
  REQUIRE(moon_stop_signal_new(&fresh.s) == MOON_OK);
  REQUIRE(moon_engine_set_stop_signal(engine.e, fresh.s) == MOON_OK);
  REQUIRE(moon_engine_set_stop_signal(second.e, fresh.s) == MOON_OK);
  std::atomic<bool> started{false};
  const moon_search_callback note_start = [](const moon_search_info*, void* user) {
    *static_cast<std::atomic<bool>*>(user) = true;
  };
  moon_status first = MOON_ERROR_INTERNAL, other = MOON_OK;
  std::thread raiser([&] {
    while (!started) std::this_thread::yield();
    CHECK(moon_engine_set_stop_signal(engine.e, nullptr) == MOON_ERROR_BUSY);  // not while it searches
    CHECK(moon_stop_signal_raise(fresh.s) == MOON_OK);
  });
  returns_promptly(engine.e, [&] {
    first = moon_engine_search(engine.e, start.p, nullptr, note_start, &started, &result);  // no limit
  });
  raiser.join();
  CHECK(first == MOON_OK);
  CHECK(result.depth >= 1);
  moon_solve_result value;
  returns_promptly(second.e, [&] { other = moon_engine_solve(second.e, start.p, &value); });
  CHECK(other == MOON_ERROR_STOPPED);

  CHECK(moon_stop_signal_new(nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_stop_signal_raise(nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_stop_signal_is_raised(nullptr, &raised) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_stop_signal_is_raised(fresh.s, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_engine_set_stop_signal(nullptr, fresh.s) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(contains(moon_last_error(), "moon_engine_set_stop_signal: engine is NULL"));
  moon_stop_signal_free(nullptr);  // does nothing, as the other frees
}

TEST_CASE("C API: stop from the search's own callback") {
  EngineHandle engine;
  REQUIRE(moon_engine_new(nullptr, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_new(nullptr, &pos.p) == MOON_OK);
  const moon_search_callback stop_at_2 = [](const moon_search_info* info, void* user) {
    if (info->depth >= 2) moon_engine_stop(static_cast<moon_engine*>(user));
  };
  moon_search_info result;
  REQUIRE(moon_engine_search(engine.e, pos.p, nullptr, stop_at_2, engine.e, &result) == MOON_OK);
  CHECK(result.depth >= 2);
  CHECK(result.depth <= 3);
}

TEST_CASE("C API: a solve with progress reports, the same result, and a stop from its own callback") {
  EngineHandle engine;
  REQUIRE(moon_engine_new(nullptr, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_from_string("4x/5/xo2o/3x1/2x2 x", nullptr, &pos.p) == MOON_OK);  // a win in 13
  struct Reports {
    std::vector<std::string> lines;
  } reports;
  const moon_solve_callback record = [](const char* progress, void* user) {
    static_cast<Reports*>(user)->lines.emplace_back(progress);
  };
  moon_solve_result with, without;
  REQUIRE(moon_engine_solve_with_progress(engine.e, pos.p, record, &reports, &with) == MOON_OK);
  REQUIRE(!reports.lines.empty());  // the first report comes at the start
  for (const auto& line : reports.lines) CHECK(contains(line.c_str(), " nodes, "));
  CHECK(with.outcome == MOON_OUTCOME_WIN);
  CHECK(with.plies == 13);

  // Without a callback, nothing is reported (the last one is not kept) and the result is the same.
  const std::size_t reported = reports.lines.size();
  REQUIRE(moon_engine_solve(engine.e, pos.p, &without) == MOON_OK);
  CHECK(reports.lines.size() == reported);
  CHECK(without.outcome == with.outcome);
  CHECK(without.plies == with.plies);
  REQUIRE(moon_engine_solve_with_progress(engine.e, pos.p, nullptr, nullptr, &without) == MOON_OK);
  CHECK(without.plies == with.plies);

  // The start position is far out of reach: the callback's stop ends the solve at its first report.
  PositionHandle start;
  REQUIRE(moon_position_new(nullptr, &start.p) == MOON_OK);
  const moon_solve_callback stop_at_once = [](const char*, void* user) { moon_engine_stop(static_cast<moon_engine*>(user)); };
  CHECK(moon_engine_solve_with_progress(engine.e, start.p, stop_at_once, engine.e, &without) == MOON_ERROR_STOPPED);
  CHECK(contains(moon_last_error(), "moon_engine_solve_with_progress: "));
  CHECK(moon_engine_solve_with_progress(nullptr, start.p, nullptr, nullptr, &without) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_engine_solve_with_progress(engine.e, start.p, nullptr, nullptr, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("C API: every move's proven value, best first; a buffer too small; a stop") {
  EngineHandle engine;
  REQUIRE(moon_engine_new(nullptr, &engine.e) == MOON_OK);
  PositionHandle pos;
  REQUIRE(moon_position_from_string("4x/5/xo2o/3x1/2x2 x", nullptr, &pos.p) == MOON_OK);  // a win in 13
  moon_position_info info;
  REQUIRE(moon_position_get_info(pos.p, &info) == MOON_OK);
  moon_move_value values[MOON_MAX_MOVES];
  std::size_t count = 0;
  REQUIRE(moon_engine_solve_moves(engine.e, pos.p, nullptr, nullptr, values, MOON_MAX_MOVES, &count) == MOON_OK);
  REQUIRE(count == std::size_t(info.legal_move_count));
  CHECK(values[0].outcome == MOON_OUTCOME_WIN);
  CHECK(values[0].plies == 13);
  for (std::size_t i = 0; i < count; ++i) {
    INFO(values[i].move);
    // The position after the move, solved on its own: the other side's view, one ply less.
    PositionHandle after;
    REQUIRE(moon_position_copy(pos.p, &after.p) == MOON_OK);
    REQUIRE(moon_position_play(after.p, values[i].move, nullptr) == MOON_OK);
    moon_solve_result solved;
    REQUIRE(moon_engine_solve(engine.e, after.p, &solved) == MOON_OK);
    const moon_outcome mine = solved.outcome == MOON_OUTCOME_WIN    ? MOON_OUTCOME_LOSS
                              : solved.outcome == MOON_OUTCOME_LOSS ? MOON_OUTCOME_WIN
                                                                    : MOON_OUTCOME_DRAW;
    CHECK(values[i].outcome == mine);
    CHECK(values[i].plies == solved.plies + 1);
    if (i > 0 && values[i].outcome == values[i - 1].outcome && mine == MOON_OUTCOME_WIN)
      CHECK(values[i].plies >= values[i - 1].plies);  // the fastest wins first
  }

  // Too small a buffer: refused before any proof, with the count needed.
  std::size_t needed = 0;
  CHECK(moon_engine_solve_moves(engine.e, pos.p, nullptr, nullptr, values, 2, &needed) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(needed == count);
  needed = 0;
  CHECK(moon_engine_solve_moves(engine.e, pos.p, nullptr, nullptr, nullptr, 0, &needed) == MOON_ERROR_BUFFER_TOO_SMALL);
  CHECK(needed == count);
  CHECK(contains(moon_last_error(), "moon_engine_solve_moves: "));
  CHECK(moon_engine_solve_moves(engine.e, pos.p, nullptr, nullptr, nullptr, 4, &needed) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_engine_solve_moves(engine.e, pos.p, nullptr, nullptr, values, 4, nullptr) == MOON_ERROR_INVALID_ARGUMENT);
  CHECK(moon_engine_solve_moves(nullptr, pos.p, nullptr, nullptr, values, 4, &needed) == MOON_ERROR_INVALID_ARGUMENT);

  // Across outcomes too: wins before draws (one position), draws before losses (another),
  // losses slowest first.
  const auto rank = [](const moon_move_value& v) {
    return v.outcome == MOON_OUTCOME_WIN ? v.plies : v.outcome == MOON_OUTCOME_DRAW ? 1000 + v.plies : 3000 - v.plies;
  };
  for (const char* fen : {"1x3/x4/2o1x/4o/5 x", "5/o3o/x3x/o4/1x3 o 0 0 2 1"}) {
    INFO(fen);
    PositionHandle mixed;
    REQUIRE(moon_position_from_string(fen, nullptr, &mixed.p) == MOON_OK);
    REQUIRE(moon_engine_solve_moves(engine.e, mixed.p, nullptr, nullptr, values, MOON_MAX_MOVES, &count) == MOON_OK);
    REQUIRE(count >= 2);
    CHECK(values[0].outcome != values[count - 1].outcome);
    for (std::size_t i = 1; i < count; ++i) CHECK(rank(values[i - 1]) <= rank(values[i]));
  }

  // A game that is over has no moves.
  PositionHandle over;
  REQUIRE(moon_position_from_string("4o/5/5/2x2/x4 o", nullptr, &over.p) == MOON_OK);
  CHECK(moon_engine_solve_moves(engine.e, over.p, nullptr, nullptr, nullptr, 0, &count) == MOON_OK);
  CHECK(count == 0);

  // The start position is far out of reach: a stop from the first progress report ends it.
  PositionHandle start;
  REQUIRE(moon_position_new(nullptr, &start.p) == MOON_OK);
  const moon_solve_callback stop_at_once = [](const char*, void* user) { moon_engine_stop(static_cast<moon_engine*>(user)); };
  CHECK(moon_engine_solve_moves(engine.e, start.p, stop_at_once, engine.e, values, MOON_MAX_MOVES, &count) ==
        MOON_ERROR_STOPPED);
  CHECK(contains(moon_last_error(), "moon_engine_solve_moves: "));
}
