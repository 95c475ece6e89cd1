#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "machine_memory.hpp"
#include "perft_data.hpp"

using namespace moon;

namespace {

Position pos(const std::string& text, const Rules& rules = {}) {
  const auto p = parse_position(text, rules);
  REQUIRE_MESSAGE(p.has_value(), (text + ": " + (p ? std::string() : p.error().message)));
  return *p;
}

PerftOptions options(int threads, std::size_t hash_mb = 0) {
  PerftOptions o;
  o.threads = threads;
  o.hash_mb = hash_mb;
  return o;
}

#ifdef MOON_SANITIZE_BUILD
constexpr std::uint64_t largest_file_count = 2'000'000;  // the sanitizers are ~10x slower
#else
constexpr std::uint64_t largest_file_count = ~std::uint64_t{0};
#endif

// Checks every count of a perft data file against the engine.
void check_file(const std::string& path) {
  const auto cases = test::read_perft_file(path);
  REQUIRE_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto p = parse_position(c.position, c.rules);
    REQUIRE_MESSAGE(p.has_value(), c.position);
    CHECK(to_string(*p) == c.position);
    for (std::size_t i = 0; i < c.counts.size() && c.counts[i] <= largest_file_count; ++i) {
      INFO("line ", c.line, ": ", c.flags, "|", c.position, " depth ", i + 1);
      CHECK(to_string(perft_count(*p, int(i) + 1)) == std::to_string(c.counts[i]));
    }
  }
}

// A decimal number of up to 39 digits.
Count parse_count(const std::string& digits) {
  Count n = 0;
  for (char c : digits) {
    REQUIRE((c >= '0' && c <= '9'));
    n = n * 10 + Count(c - '0');
  }
  return n;
}

// The "# perft(N) = COUNT" lines of perft-reference.txt's comment.
std::map<int, Count> counts_beyond_64_bits() {
  std::ifstream in(MOON_TEST_DATA "/perft-reference.txt");
  REQUIRE(in.good());
  std::map<int, Count> counts;
  for (std::string line; std::getline(in, line);) {
    const std::string prefix = "# perft(";
    if (line.rfind(prefix, 0) != 0) continue;
    const auto close = line.find(") = ");
    REQUIRE(close != std::string::npos);
    counts[std::stoi(line.substr(prefix.size(), close - prefix.size()))] = parse_count(line.substr(close + 4));
  }
  return counts;
}

#ifdef MOON_SANITIZE_BUILD
constexpr int deepest_identity_depth = 25;
#else
constexpr int deepest_identity_depth = 28;
#endif

}  // namespace

TEST_CASE("perft from the start is 24!/(24-n)! for depths 1 to 6") {
  const Position start = Position::start();
  Count expected = 1;
  for (int depth = 1; depth <= 6; ++depth) {
    expected *= Count(25 - depth);
    CHECK(perft_count(start, depth) == expected);
  }
}

TEST_CASE("every count of the independent reference file") { check_file(MOON_TEST_DATA "/perft-reference.txt"); }

TEST_CASE("every count of perft-positions.txt (computed by the plain reference implementation)") {
  check_file(MOON_TEST_DATA "/perft-positions.txt");
}

TEST_CASE("depth 0 counts 1, a game-over position 0 at any depth") {
  CHECK(perft_count(Position::start(), 0) == 1);
  const auto zero = perft(Position::start(), 0);
  REQUIRE(zero.has_value());
  CHECK(zero->nodes == 1);
  CHECK(zero->divide.empty());

  const Position over = pos("4x/1x3/xx1o1/5/o1o1x x 0 0 20 46");
  CHECK(perft_count(over, 0) == 1);
  for (int depth : {1, 2, 7, max_perft_depth}) {
    const auto r = perft(over, depth, options(2, 1));
    REQUIRE(r.has_value());
    CHECK(r->nodes == 0);
    CHECK(r->divide.empty());
  }
}

TEST_CASE("hashed and threaded perft equal the plain count; divide lists each root move once" *
          doctest::test_suite("threads")) {
  struct Case {
    std::string text;
    Rules rules;
    int depth;
  };
  const Rules slide_diagonal{Movement::slide, CaptureLines::orthogonal_and_diagonal, 20};
  const Rules limit_1{Movement::step, CaptureLines::orthogonal, 1};
  const std::vector<Case> cases = {
      {std::string(start_position_string), {}, 5},
      {"1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9", {}, 8},
      {"xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12", {}, 8},
      {"xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13", {}, 9},  // a single root move: the pass
      {"o1oox/xx2o/2o1x/xx1ox/x1oxo x 0 0 0 25", {}, 6},
      {"xo2o/1x1xo/2o2/x1x2/o3x x 0 0 19 31", {}, 6},
      {"xxoox/1o2o/o1x2/2x1x/o1oxo x 0 0 1 19", slide_diagonal, 5},
      {"xo1xo/1xxox/xo1ox/1oxxx/oooox o 1 2 0 11", limit_1, 12},
      {"5/5/5/5/5 x 2 2 0 1", {}, 2},
      {"5/5/5/5/5 x 2 2 0 1", {}, 1},
  };
  for (const Case& c : cases) {
    INFO(c.text, " depth ", c.depth);
    const Position p = pos(c.text, c.rules);
    const Count plain = perft_count(p, c.depth);
    const MoveList root = legal_moves(p);
    for (PerftOptions opts : {options(1), options(1, 4), options(2), options(3), options(3, 1), options(2, 16)}) {
      INFO("threads ", opts.threads, ", hash ", opts.hash_mb, " MiB");
      // Each root move's entry is given as soon as it is complete, in generation order, on the
      // calling thread: the same entries as the result's divide.
      std::vector<DivideEntry> given;
      const std::thread::id caller = std::this_thread::get_id();
      bool on_caller = true;
      opts.root_move_done = [&](const DivideEntry& e) {
        given.push_back(e);
        on_caller &= std::this_thread::get_id() == caller;
      };
      const auto r = perft(p, c.depth, opts);
      REQUIRE(r.has_value());
      CHECK(r->nodes == plain);
      REQUIRE(r->divide.size() == root.size());
      CHECK(on_caller);
      REQUIRE(given.size() == root.size());
      for (std::size_t i = 0; i < root.size(); ++i)
        CHECK((given[i].move == r->divide[i].move && given[i].nodes == r->divide[i].nodes));
      Count sum = 0;
      std::set<std::uint16_t> listed;
      for (std::size_t i = 0; i < root.size(); ++i) {
        const DivideEntry& e = r->divide[i];
        CHECK(e.move == root[i]);  // in generation order
        CHECK(listed.insert(e.move.raw()).second);
        CHECK(e.nodes == perft_count(p.after(e.move), c.depth - 1));
        sum += e.nodes;
      }
      CHECK(sum == r->nodes);
    }
  }
}

TEST_CASE("a count with no root moves to divide by gives none to root_move_done") {
  int calls = 0;
  PerftOptions opts = options(2);
  opts.root_move_done = [&](const DivideEntry&) { ++calls; };
  const auto zero_depth = perft(Position::start(), 0, opts);
  REQUIRE(zero_depth.has_value());
  CHECK(zero_depth->nodes == 1);
  const auto over = perft(pos("xxxxx/o4/5/5/5 o"), 3, opts);  // o has one counter: over
  REQUIRE(over.has_value());
  CHECK(over->nodes == 0);
  CHECK(calls == 0);
}

TEST_CASE("perft: a stop ends the count, with the root moves counted so far and no other" *
          doctest::test_suite("threads")) {
  const Position p = pos("x1o2/1ox2/2x1o/o1x2/1o2x x");  // many moves: 11 times more nodes a ply
  const MoveList root = legal_moves(p);
  const std::string of_all = " of " + std::to_string(root.size()) + " root moves";
  for (PerftOptions opts : {options(1), options(2), options(3, 16)}) {
    INFO("threads ", opts.threads, ", hash ", opts.hash_mb, " MiB");
    std::vector<DivideEntry> given;
    opts.root_move_done = [&](const DivideEntry& e) { given.push_back(e); };
    {
      // Asked before the count began: nothing counted, whatever the depth.
      std::stop_source source;
      source.request_stop();
      opts.stop = source.get_token();
      const auto r = perft(p, 200, opts);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().message == "perft stopped after 0" + of_all);
      CHECK(r.error().stopped);
      CHECK(given.empty());
      // A stop does not hide a failure: an invalid depth is an error, not a stop.
      const auto invalid = perft(p, max_perft_depth + 1, opts);
      REQUIRE_FALSE(invalid.has_value());
      CHECK(invalid.error().message.starts_with("depth "));
      CHECK_FALSE(invalid.error().stopped);
      // Nothing to count (depth 0; a game over, no root moves) is answered: no work to cut short.
      const auto trivial = perft(p, 0, opts);
      REQUIRE(trivial.has_value());
      CHECK(trivial->nodes == 1);
      const auto over = parse_position("xx3/5/5/5/4o x");
      REQUIRE(over.has_value());
      const auto none = perft(*over, 3, opts);
      REQUIRE(none.has_value());
      CHECK(none->nodes == 0);
      CHECK(given.empty());
    }
    {
      // Asked once the second root move is given: those two, exact, and no third.
      std::stop_source source;
      opts.stop = source.get_token();
      opts.root_move_done = [&](const DivideEntry& e) {
        given.push_back(e);
        if (given.size() == 2) source.request_stop();
      };
      const auto r = perft(p, 6, opts);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().message == "perft stopped after 2" + of_all);
      CHECK(r.error().stopped);
      REQUIRE(given.size() == 2);
      for (std::size_t i = 0; i < 2; ++i) {
        CHECK(given[i].move == root[i]);
        CHECK(given[i].nodes == perft_count(p.after(root[i]), 5));
      }
      // The same options without a stop: the whole count.
      given.clear();
      opts.stop = {};
      const auto whole = perft(p, 6, opts);
      REQUIRE(whole.has_value());
      CHECK(whole->nodes == perft_count(p, 6));
    }
  }
}

TEST_CASE("perft: a stop or an exception from a callback ends the count in moments, not at its end" *
          doctest::test_suite("threads")) {
  // Depth 10 here: 131 subtrees of 8 plies shared by the threads, each a small part of the
  // whole. The first progress report comes once some are done; from then, the count must end
  // within a few such times, where going on to the end would take hundreds of them. Compared with
  // the time to the first report, not a fixed time: the same on a slow (sanitized) build.
  const Position p = pos("x1o2/1ox2/2x1o/o1x2/1o2x x");
  using Clock = std::chrono::steady_clock;
  for (const bool throws : {false, true}) {
    for (int threads : {1, 2}) {
      INFO("threads ", threads, throws ? ", a callback throws" : ", stopped");
      PerftOptions opts = options(threads);
      std::stop_source source;
      opts.stop = source.get_token();
      const auto start = Clock::now();
      Clock::time_point first_report{};
      std::size_t reports = 0;
      opts.progress = [&](std::size_t done, std::size_t all) {
        CHECK(done < all);  // the last report, (all, all), would come only at the end
        if (reports++ > 0) return;
        first_report = Clock::now();
        if (throws) throw std::runtime_error("enough");
        source.request_stop();
      };
      bool thrown = false;
      try {
        const auto r = perft(p, 10, opts);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().message.rfind("perft stopped after ", 0) == 0);
      } catch (const std::runtime_error& e) {
        thrown = true;
        CHECK(std::string(e.what()) == "enough");
      }
      CHECK(thrown == throws);
      const auto ended = Clock::now();
      // None after the stop: the items passed over then were not counted.
      CHECK(reports == 1);
      CHECK(ended - first_report < 10 * (first_report - start) + std::chrono::seconds(1));
    }
  }
  // In the middle of the subtrees: at depth 16 each would take hours; a stop from another thread
  // ends them within a fraction of a millisecond.
  for (int threads : {1, 2}) {
    INFO("threads ", threads);
    PerftOptions opts = options(threads);
    std::stop_source source;
    opts.stop = source.get_token();
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      source.request_stop();
    });
    const auto started = Clock::now();
    const auto r = perft(p, 16, opts);
    const auto ended = Clock::now();
    stopper.join();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "perft stopped after 0 of " + std::to_string(legal_moves(p).size()) + " root moves");
    CHECK(std::chrono::duration<double>(ended - started).count() < 10.0);  // generous
  }
  // Progress ends with (all, all) when the count is complete.
  for (int threads : {1, 2}) {
    PerftOptions opts = options(threads);
    std::size_t last_done = 0, last_all = 1;
    opts.progress = [&](std::size_t done, std::size_t all) {
      last_done = done;
      last_all = all;
    };
    REQUIRE(perft(p, 5, opts).has_value());
    CHECK(last_done == last_all);
  }
}

TEST_CASE("the same table over repeated hashed counts stays exact") {
  // Positions that differ only in clock or hands must not share table entries.
  for (const char* text : {"oo2x/x2xx/o1xx1/ooo1o/xx1xx o 0 0 18 25", "oo2x/x2xx/o1xx1/ooo1o/xx1xx o 0 0 0 25",
                           "xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12"}) {
    INFO(text);
    const Position p = pos(text);
    for (int depth = 3; depth <= 7; ++depth) {
      const auto r = perft(p, depth, options(2, 1));
      REQUIRE(r.has_value());
      CHECK(r->nodes == perft_count(p, depth));
    }
  }
}

TEST_CASE("hashed counts stay exact under every variant with a short clock") {
  // A clock limit of 3 ends many lines within the count, so that the table holds positions that
  // differ only in their clock (and, in placement, in their hands), for every movement and
  // capture rule: an entry that ignored the clock under one variant would give a wrong count.
  for (const Movement movement : {Movement::step, Movement::slide})
    for (const CaptureLines lines : {CaptureLines::orthogonal, CaptureLines::orthogonal_and_diagonal}) {
      const Rules rules{movement, lines, 3};
      for (const char* text : {"xo2o/1x1xo/2o2/x1x2/o3x x 0 0 0 31", "x1o2/1x1o1/5/o1x1o/1x1x1 o 1 2 0 20"}) {
        const Position p = pos(text, rules);
        const std::string label = std::string(text) + (rules.slide() ? " --slide" : "") +
                                  (rules.diagonal() ? " --diagonal" : "") + " --clock-limit 3";
        INFO(label);
        const Count plain = perft_count(p, 7);
        for (const PerftOptions& opts : {options(1, 1), options(2, 1)}) {
          const auto r = perft(p, 7, opts);
          REQUIRE(r.has_value());
          CHECK(r->nodes == plain);
        }
      }
    }
}

TEST_CASE("invalid perft options are refused with a message") {
  const Position start = Position::start();
  struct Case {
    int depth;
    PerftOptions settings;
    const char* names;
  };
  const Case cases[] = {
      {-1, options(1), "depth"},
      {-1000, options(1), "depth"},
      {max_perft_depth + 1, options(1), "depth"},
      {1000, options(1), "depth"},
      {3, options(0), "threads"},
      {3, options(-2), "threads"},
      {3, options(max_perft_threads + 1), "threads"},
      {3, options(1, max_perft_hash_mb + 1), " MiB must be at most "},  // the range, not the machine's memory
  };
  for (const Case& c : cases) {
    INFO("depth ", c.depth, " threads ", c.settings.threads, " hash ", c.settings.hash_mb);
    const auto r = perft(start, c.depth, c.settings);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message.find(c.names) != std::string::npos);
  }
  // The edges of the ranges are accepted.
  CHECK(perft(start, 1, options(max_perft_threads)).has_value());
  CHECK(perft(pos("5/1x3/2o2/3x1/5 x"), max_perft_depth).has_value());
}

TEST_CASE("perft_count() of a negative depth is 0, at once") {
  CHECK(perft_count(Position::start(), -1) == 0);
  CHECK(perft_count(pos("1x1oo/xxoo1/o1ooo/o2xx/1x1xo x 0 0 1 23"), -5) == 0);
  CHECK(perft_count(Position::start(), 0) == 1);
}

TEST_CASE("a perft table above the machine's memory is refused before it is allocated" *
          doctest::skip(test::over_memory_mb() == 0)) {
  const std::size_t over = test::over_memory_mb();
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  const auto r = perft(Position::start(), 2, options(1, over));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == test::over_memory_message(over));
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory leaves no address-space limit to set
TEST_CASE("a perft table is made only for counts deep enough to use it (depth 6 on)" *
          doctest::skip(test::over_memory_mb() != 0 && test::over_memory_mb() <= 512)) {
  // 512 MiB cannot be had under this limit: a count that made its table would fail.
  const test::AddressSpaceGuard guard(128);
  const auto shallow = perft(Position::start(), 5, options(1, 512));
  REQUIRE(shallow.has_value());
  CHECK(shallow->nodes == 5100480);
  const auto deep = perft(Position::start(), 6, options(1, 512));
  REQUIRE_FALSE(deep.has_value());
  CHECK(deep.error().message == "cannot allocate a 512 MiB perft table");
}

TEST_CASE("perft counts without the threads the system will not start: the same count") {
  Count nodes = 0, divided = 0;
  int not_started = 0;
  {
    const test::AddressSpaceGuard guard(256);
    const auto r = perft(Position::start(), 5, options(256));
    REQUIRE(r.has_value());
    nodes = r->nodes;
    for (const DivideEntry& e : r->divide) divided += e.nodes;
    not_started = r->threads_not_started;
  }
  CHECK(nodes == 5100480);  // as tests/data/perft-reference.txt gives
  CHECK(divided == nodes);
  // 256 stacks of the default size do not fit in 256 MiB more address space: some threads were
  // refused.
  if (test::default_thread_stacks_take_2_mib()) CHECK(not_started > 0);
}
#endif

TEST_CASE("the programs' words for threads the system would not start") {
  CHECK(threads_not_started_text(3) == "the system would not start 3 of the threads; counted without them");
}

TEST_CASE("to_string of 128-bit counts") {
  CHECK(to_string(Count(0)) == "0");
  CHECK(to_string(Count(7)) == "7");
  CHECK(to_string(Count(~std::uint64_t{0})) == "18446744073709551615");
  CHECK(to_string(Count(~std::uint64_t{0}) + 1) == "18446744073709551616");
  CHECK(to_string(~Count(0)) == "340282366920938463463374607431768211455");
  Count ten_to_30 = 1;
  for (int i = 0; i < 30; ++i) ten_to_30 *= 10;
  std::string one_and_30_zeros(31, '0');
  one_and_30_zeros[0] = '1';
  CHECK(to_string(ten_to_30) == one_and_30_zeros);
  CHECK(to_string(parse_count("143661550568966612582400000")) == "143661550568966612582400000");
}

TEST_CASE("perft from the start beyond 2^64: 12!*12! times the sum over all final placements") {
  // Placement order does not change the position after the 24 placements, and each final
  // placement (12 x and 12 o on the 24 squares other than c3) is reached by 12! orders of x's
  // placements times 12! of o's, so perft(24 + k) = 12!^2 * sum over placements of perft(P, k).
  const auto expected = counts_beyond_64_bits();
  const int deepest = deepest_identity_depth - 24;
  for (int k = 1; k <= deepest; ++k) REQUIRE(expected.count(24 + k) == 1);

  std::array<Square, 24> outside_centre{};
  for (int i = 0, s = 0; s < square_count; ++s)
    if (s != centre) outside_centre[std::size_t(i++)] = s;

  // Every 24-bit mask with 12 bits set (Gosper's hack) chooses x's squares; split over two threads.
  // (Not in the test suite "threads" that CI runs under ThreadSanitizer: the threads share only
  // the masks, read-only, and the run would take many minutes there.)
  std::vector<std::uint32_t> masks;
  masks.reserve(2'704'156);
  for (std::uint32_t m = (1u << 12) - 1; m < (1u << 24);) {
    masks.push_back(m);
    const std::uint32_t low = m & -m, ripple = m + low;
    m = ripple | (((m ^ ripple) >> 2) / low);
  }
  REQUIRE(masks.size() == 2'704'156);

  const auto sum_over = [&](std::size_t begin, std::size_t end, std::array<Count, 8>& sums) {
    for (std::size_t i = begin; i < end; ++i) {
      Position p = Position::start();
      std::array<Square, 12> xs{}, os{};
      for (int b = 0, nx = 0, no = 0; b < 24; ++b) {
        if ((masks[i] >> b) & 1) xs[std::size_t(nx++)] = outside_centre[std::size_t(b)];
        else os[std::size_t(no++)] = outside_centre[std::size_t(b)];
      }
      for (std::size_t j = 0; j < 12; ++j) {
        p.play<Variant<false, false>>(Move::placement(xs[j]));
        p.play<Variant<false, false>>(Move::placement(os[j]));
      }
      for (int k = 1; k <= deepest; ++k) sums[std::size_t(k)] += perft_count<Variant<false, false>>(p, k);
    }
  };
  const auto started = std::chrono::steady_clock::now();
  std::array<Count, 8> first{}, second{};
  {
    std::jthread helper([&] { sum_over(0, masks.size() / 2, first); });
    sum_over(masks.size() / 2, masks.size(), second);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE("perft(25.." << 24 + deepest << ") by the identity in " << seconds << " s");

  // The last placement really leads to the movement phase with x to move.
  Position sample = Position::start();
  for (int s : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24})
    sample.play(Move::placement(s));
  CHECK(sample.phase() == Phase::movement);
  CHECK(sample.side_to_move() == x);

  Count factorial_12 = 1;
  for (int i = 2; i <= 12; ++i) factorial_12 *= Count(i);
  for (int k = 1; k <= deepest; ++k) {
    INFO("perft(", 24 + k, ")");
    const Count total = factorial_12 * factorial_12 * (first[std::size_t(k)] + second[std::size_t(k)]);
    CHECK(to_string(total) == to_string(expected.at(24 + k)));
  }
}
