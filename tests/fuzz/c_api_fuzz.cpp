// Fuzz target: the C API (include/moon/moon.h) as a C caller may misuse it. Input: a program of
// up to 64 calls, each a byte choosing the function and bytes for its arguments: two position
// slots, one engine and one stop signal, NULL pointers, sizes and capacities too small or wrong,
// numbers out of range, rule structs with any values, move and position text of any bytes.
//
// Checked, as moon.h promises: every status is a known one and never MOON_ERROR_INTERNAL; a
// failure comes with a message, writes no output (an empty string into a buffer too small,
// the needed count for a too-small capacity) and leaves the position unchanged; text written
// is NUL-terminated within its buffer; a listed move plays. Searches end by a limit or by the
// callback's stop after its first iteration (a search until stopped by that, or on a position
// that is over by another thread's stops); solves by the progress callback's stop at its first
// call, or by themselves on positions of four counters or fewer with a clock limit of at most
// 20; both at once when a raised stop signal is attached to the engine. Hash sizes are kept to a
// few MiB (or refused ones) so the fuzzer stays fast.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#include "fuzz_input.hpp"
#include "moon/moon.h"

using moon::fuzz::require;

extern "C" const char* status_name_from_c(int status);  // tests/status_from_c.c

namespace {

constexpr unsigned char untouched = 0x5a;

void check_status(moon_status status, const char* function) {
  require(status >= MOON_OK && status <= MOON_ERROR_INTERNAL, "an unknown status", function);
  require(status != MOON_ERROR_INTERNAL, "MOON_ERROR_INTERNAL",
          [&] { return std::string(function) + ": " + moon_last_error(); });
  if (status != MOON_OK) {
    const char* message = moon_last_error();
    require(message && *message, "a failure without a message", function);
  }
}

// A caller's text buffer, filled with a marker to see what a call wrote.
struct Buffer {
  std::array<char, 1200> bytes;
  std::size_t size;
  explicit Buffer(std::size_t n) : size(n) { bytes.fill(char(untouched)); }
  char* data() { return bytes.data(); }
  bool terminated() const { return std::memchr(bytes.data(), 0, size) != nullptr; }
  bool unwritten() const {
    for (std::size_t i = 0; i < bytes.size(); ++i)
      if (bytes[i] != char(untouched)) return false;
    return true;
  }
  // What moon.h promises of a call that writes text.
  void check(moon_status status, const char* function) const {
    check_status(status, function);
    for (std::size_t i = size; i < bytes.size(); ++i)
      require(bytes[i] == char(untouched), "a write past the buffer's size", function);
    if (status == MOON_OK) require(terminated(), "text without its NUL", function);
    else if (status == MOON_ERROR_BUFFER_TOO_SMALL && size > 0) require(bytes[0] == 0, "no empty string", function);
    else require(unwritten(), "output written by a failed call", function);
  }
};

std::string text_of(const moon_position* position) {
  char buffer[MOON_POSITION_TEXT_SIZE];
  check_status(moon_position_to_string(position, buffer, sizeof buffer), "moon_position_to_string");
  return buffer;
}

moon_rules rules_from(moon::fuzz::FuzzInput& in) {
  moon_rules rules;
  rules.slide = std::int8_t(in.byte()) % 3;
  rules.diagonal = std::int8_t(in.byte()) % 3;
  const int high = in.byte(), low = in.byte();  // in this order: the operands of | are unsequenced
  rules.clock_limit = std::int16_t(high << 8 | low);
  return rules;
}

int threads_from(std::uint8_t b) {
  constexpr std::array<int, 6> choices{0, 1, 2, -1, 257, 3};
  return choices[b % choices.size()];
}

std::size_t hash_from(std::uint8_t b, bool zero_allowed) {
  constexpr std::array<std::size_t, 5> choices{1, 2, 65537, SIZE_MAX, 0};
  const std::size_t mb = choices[b % choices.size()];
  return mb == 0 && !zero_allowed ? 1 : mb;
}

void stop_on_iteration(const moon_search_info* info, void* engine) {
  require(info != nullptr, "a search callback without its info");
  require(std::memchr(info->pv, 0, sizeof info->pv) && std::memchr(info->best_move, 0, sizeof info->best_move),
          "search info text without its NUL");
  require(info->lines >= 1 && info->lines <= 64 && info->multipv >= 1 && info->multipv <= info->lines,
          "a search line numbered outside 1 to its iteration's lines");
  check_status(moon_engine_stop(static_cast<moon_engine*>(engine)), "moon_engine_stop (from the callback)");
}

// Ends by the callback's stop after the first iteration; a game that is over has none, so
// another thread stops it (stops that come before the call marks the engine busy are not
// remembered: it stops until the call returns).
moon_status search_until_stopped(moon_engine* engine, const moon_position* position, int multipv,
                                 moon_search_info* out) {
  moon_position_info info;
  const bool over =
      position && moon_position_get_info(position, &info) == MOON_OK && info.legal_move_count == 0;
  std::atomic<bool> returned{false};
  std::thread stopper;
  if (over && engine)
    stopper = std::thread([&] {
      while (!returned.load()) {
        moon_engine_stop(engine);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  const moon_status status = moon_engine_search_until_stopped(engine, position, multipv, stop_on_iteration, engine, out);
  returned = true;
  if (stopper.joinable()) stopper.join();
  return status;
}

void stop_on_progress(const char* text, void* engine) {
  require(text != nullptr, "a progress callback without its text");
  check_status(moon_engine_stop(static_cast<moon_engine*>(engine)), "moon_engine_stop (from the progress callback)");
}

struct Handles {
  std::array<moon_position*, 2> positions{};
  moon_engine* engine = nullptr;
  moon_stop_signal* signal = nullptr;  // freed before or after the engine it is attached to: either is fine
  ~Handles() {
    for (moon_position* p : positions) moon_position_free(p);
    moon_stop_signal_free(signal);
    moon_engine_free(engine);
  }
};

// The stop signal's calls, one chosen by a byte (no other thread runs here, so none is busy).
void signal_call(Handles& h, moon::fuzz::FuzzInput& in, bool null_engine, bool null_signal) {
  moon_stop_signal* signal = null_signal ? nullptr : h.signal;
  switch (in.byte() % 4) {
    case 0: {
      moon_stop_signal* made = nullptr;
      const moon_status s = moon_stop_signal_new(null_engine ? nullptr : &made);
      check_status(s, "moon_stop_signal_new");
      require((s == MOON_OK) == (made != nullptr), "moon_stop_signal_new: a signal iff OK");
      if (made) moon_stop_signal_free(h.signal), h.signal = made;
      break;
    }
    case 1: {
      const moon_status s = moon_stop_signal_raise(signal);
      check_status(s, "moon_stop_signal_raise");
      require((s == MOON_OK) == (signal != nullptr), "moon_stop_signal_raise: OK iff a signal");
      break;
    }
    case 2: {  // attach, or detach with NULL
      moon_engine* engine = null_engine ? nullptr : h.engine;
      const moon_status s = moon_engine_set_stop_signal(engine, signal);
      check_status(s, "moon_engine_set_stop_signal");
      require((s == MOON_OK) == (engine != nullptr), "moon_engine_set_stop_signal: OK iff an engine");
      break;
    }
    case 3: {
      int raised = 7;
      const moon_status s = moon_stop_signal_is_raised(signal, null_engine ? nullptr : &raised);
      check_status(s, "moon_stop_signal_is_raised");
      require(s == MOON_OK ? raised == 0 || raised == 1 : raised == 7, "moon_stop_signal_is_raised: a wrong answer");
      break;
    }
  }
}

bool small_enough_to_solve(const moon_position* position) {
  moon_position_info info;
  if (moon_position_get_info(position, &info) != MOON_OK) return false;
  // A long clock makes even these slow under the sanitizers (2 v 2 at limit 251: 14 s).
  return info.in_hand[0] + info.in_hand[1] == 0 && info.on_board[0] + info.on_board[1] <= 4 &&
         info.clock_limit <= 20;
}

void call(Handles& h, moon::fuzz::FuzzInput& in) {
  const std::uint8_t op = in.byte();
  const std::uint8_t flags = in.byte();  // bit 0: the position slot; bits 1-5: NULL for an argument
  moon_position*& slot = h.positions[flags & 1];
  moon_position* position = (flags & 2) ? nullptr : slot;
  const bool null_out = flags & 4, null_other = flags & 8;
  switch (op % 16) {
    case 0: {  // a new start position
      moon_rules rules = rules_from(in);
      moon_position* made = nullptr;
      const moon_status s = moon_position_new(null_other ? nullptr : &rules, null_out ? nullptr : &made);
      check_status(s, "moon_position_new");
      require(s != MOON_OK || made, "moon_position_new: OK without a position");
      if (made) moon_position_free(slot), slot = made;
      break;
    }
    case 1: {  // a position from text
      moon_rules rules = rules_from(in);
      const std::string text = in.text_until('\n');
      moon_position* made = nullptr;
      const moon_status s = moon_position_from_string(null_other ? nullptr : text.c_str(), (flags & 16) ? nullptr : &rules,
                                                      null_out ? nullptr : &made);
      check_status(s, "moon_position_from_string");
      require((s == MOON_OK) == (made != nullptr), "moon_position_from_string: a position iff OK");
      if (made) {
        // The text up to its first NUL was read; a position read back from its own string is the same.
        moon_position* again = nullptr;
        moon_rules its_rules;
        check_status(moon_position_get_rules(made, &its_rules), "moon_position_get_rules");
        const std::string printed = text_of(made);
        check_status(moon_position_from_string(printed.c_str(), &its_rules, &again), "moon_position_from_string");
        require(again && text_of(again) == printed, "a position string does not read back", printed);
        moon_position_free(again);
        moon_position_free(slot), slot = made;
      }
      break;
    }
    case 2: {
      Buffer buffer(in.byte() % 72);
      buffer.check(moon_position_to_string(position, null_out ? nullptr : buffer.data(), buffer.size),
                   "moon_position_to_string");
      break;
    }
    case 3: {
      const std::size_t capacity = in.byte() % 130;
      std::array<moon_move, 130> moves;
      std::memset(moves.data(), untouched, sizeof moves);
      std::size_t count = 7777;
      const moon_status s = moon_position_legal_moves(position, null_out ? nullptr : moves.data(), capacity,
                                                      null_other ? nullptr : &count);
      check_status(s, "moon_position_legal_moves");
      if (s == MOON_OK) {
        require(count <= capacity && (count == 0 || !null_out), "more moves than the capacity");
        for (std::size_t i = 0; i < count; ++i) {
          require(std::memchr(moves[i].text, 0, sizeof moves[i].text), "a move's text without its NUL");
          moon_position* copy = nullptr;
          check_status(moon_position_copy(position, &copy), "moon_position_copy");
          std::uint32_t captured = 0;
          const moon_status played = moon_position_play(copy, moves[i].text, &captured);
          moon_position_free(copy);
          require(played == MOON_OK, "a listed move does not play", moves[i].text);
          require(captured == moves[i].captures, "a listed move captures other counters", moves[i].text);
        }
      } else if (s == MOON_ERROR_BUFFER_TOO_SMALL) {
        require(count > capacity && count <= MOON_MAX_MOVES, "a wrong count of needed moves");
      } else if (!null_other) {
        require(count == 7777, "a failed call wrote its count");
      }
      break;
    }
    case 4: {
      const std::string text = in.text_until('\n');
      const std::string before = slot ? text_of(slot) : "";
      std::uint32_t captured = 0xdeadbeef;
      const moon_status s =
          moon_position_play(position, null_other ? nullptr : text.c_str(), null_out ? nullptr : &captured);
      check_status(s, "moon_position_play");
      if (s != MOON_OK) {
        require(captured == 0xdeadbeef, "a refused move wrote its captures");
        if (slot) require(text_of(slot) == before, "a refused move changed the position", text);
      } else if (!null_out) {
        require((captured & ~((1u << MOON_SQUARES) - 1)) == 0, "captures off the board");
      }
      break;
    }
    case 5: {
      Buffer buffer(std::size_t(in.byte() * 5 % 1200));
      buffer.check(moon_position_draw(position, null_out ? nullptr : buffer.data(), buffer.size), "moon_position_draw");
      break;
    }
    case 6: {
      const std::uint32_t squares = in.u32();
      Buffer buffer(in.byte() % 90);
      buffer.check(moon_squares_to_string(squares, null_out ? nullptr : buffer.data(), buffer.size),
                   "moon_squares_to_string");
      break;
    }
    case 7: {
      const int depth = std::int8_t(in.byte()) % 4;
      const int threads = threads_from(in.byte());
      std::uint64_t nodes = 0;
      int overflow = -1;
      // Bit 4: divided (moon_perft_divide), with the moves' counts summed by the callback;
      // bit 5: with no callback (NULL may be passed), the same count.
      struct Sum {
        std::uint64_t nodes = 0, calls = 0;
        static void add(const char*, std::uint64_t n, void* self) {
          static_cast<Sum*>(self)->nodes += n;
          ++static_cast<Sum*>(self)->calls;
        }
      } sum;
      // Bit 6 (with bit 4): moon_perft_stoppable with the handles' signal (none, or raised or not).
      const bool divided = flags & 16, no_callback = flags & 32, stoppable = divided && (flags & 64);
      int raised = 0;
      if (stoppable && h.signal) moon_stop_signal_is_raised(h.signal, &raised);
      const moon_status s =
          stoppable ? moon_perft_stoppable(position, depth, threads, h.signal, no_callback ? nullptr : &Sum::add,
                                           &sum, null_out ? nullptr : &nodes, null_other ? nullptr : &overflow)
          : divided ? moon_perft_divide(position, depth, threads, no_callback ? nullptr : &Sum::add, &sum,
                                        null_out ? nullptr : &nodes, null_other ? nullptr : &overflow)
                    : moon_perft(position, depth, threads, null_out ? nullptr : &nodes, null_other ? nullptr : &overflow);
      check_status(s, stoppable ? "moon_perft_stoppable" : divided ? "moon_perft_divide" : "moon_perft");
      // Only a raised signal stops, and only a count with moves to divide by: stopped at once.
      if (s == MOON_ERROR_STOPPED) require(raised && depth > 0, "a perft stopped without a raised signal");
      if (s == MOON_OK && !null_other) require(overflow == 0, "a perft of depth 3 or less overflowed");
      if (s != MOON_OK && !null_other) require(overflow == -1, "a failed perft wrote its overflow flag");
      if (s != MOON_OK) require(sum.calls == 0, "a failed divided perft called back");
      if (s == MOON_OK && divided && depth > 0 && !no_callback && !null_out)
        require(sum.nodes == nodes, "the divided counts do not sum to the total");
      break;
    }
    case 8: {
      moon_position* copy = nullptr;
      const moon_status s = moon_position_copy(position, null_out ? nullptr : &copy);
      check_status(s, "moon_position_copy");
      if (copy) {
        require(text_of(copy) == text_of(position), "a copy differs from its original");
        moon_position*& other = h.positions[(flags & 1) ^ 1];
        moon_position_free(other), other = copy;
      }
      break;
    }
    case 9: {
      moon_position_info info;
      std::memset(&info, untouched, sizeof info);
      const moon_status s = moon_position_get_info(position, null_out ? nullptr : &info);
      check_status(s, "moon_position_get_info");
      if (s == MOON_OK) {
        for (int side = 0; side < 2; ++side)
          require(info.on_board[side] + info.in_hand[side] <= 12 && info.in_hand[side] >= 0, "counts out of range");
        require(info.clock >= 0 && info.clock <= info.clock_limit, "a clock beyond its limit");
        require((info.pieces[0] & info.pieces[1]) == 0, "a square held by both sides");
      }
      moon_rules rules;
      check_status(moon_position_get_rules(position, null_other ? nullptr : &rules), "moon_position_get_rules");
      break;
    }
    case 10: {
      moon_engine_options options;
      options.hash_mb = hash_from(in.byte(), true);
      options.threads = threads_from(in.byte());
      options.solver_hash_mb = hash_from(in.byte(), false);
      if (flags & 16) {  // the options of the engine there is (or of none), changed in place
        check_status(moon_engine_set_options(null_out ? nullptr : h.engine, null_other ? nullptr : &options),
                     "moon_engine_set_options");
        break;
      }
      moon_engine* made = nullptr;
      const moon_status s = moon_engine_new(null_other ? nullptr : &options, null_out ? nullptr : &made);
      check_status(s, "moon_engine_new");
      require((s == MOON_OK) == (made != nullptr), "moon_engine_new: an engine iff OK");
      if (made) moon_engine_free(h.engine), h.engine = made;
      break;
    }
    case 11: {
      moon_search_limits limits{};
      const std::uint8_t which = in.byte();
      limits.depth = (which & 1) ? int(std::int8_t(in.byte())) % 6 : 0;
      limits.nodes = (which & 2) ? in.byte() * 40u : 0;
      limits.movetime_ms = (which & 4) ? std::int8_t(in.byte()) % 8 : 0;
      limits.time_left_ms = (which & 8) ? std::int8_t(in.byte()) * 4 : 0;
      limits.increment_ms = (which & 16) ? std::int8_t(in.byte()) % 3 : 0;
      limits.multipv = (which & 128) ? std::int8_t(in.byte()) % 70 : 0;  // -69 to 69: 1-64 valid, 0 means 1
      moon_search_info info;
      const bool until_stopped = flags & 16;
      const bool no_limits = (which & 32) || (limits.depth <= 0 && limits.nodes == 0 && limits.movetime_ms <= 0 &&
                                              limits.time_left_ms <= 0);
      // A search without a limit ends only by a stop: the callback's, after the first iteration.
      const moon_status s =
          until_stopped ? search_until_stopped(h.engine, position, limits.multipv, null_out ? nullptr : &info)
                        : moon_engine_search(h.engine, position, (which & 32) ? nullptr : &limits,
                                             (which & 64) || no_limits ? stop_on_iteration : nullptr, h.engine,
                                             null_out ? nullptr : &info);
      check_status(s, until_stopped ? "moon_engine_search_until_stopped" : "moon_engine_search");
      if (s == MOON_OK && !null_out)
        require(std::memchr(info.best_move, 0, sizeof info.best_move) && std::memchr(info.pv, 0, sizeof info.pv) &&
                    info.multipv == 1 && info.lines == 1,
                "search result text without its NUL, or not line 1 of 1");
      break;
    }
    case 12: {
      // Without the progress callback's stop, only positions small enough to solve at once.
      const bool stop = (in.byte() & 1) || !position || !small_enough_to_solve(position);
      moon_solve_result result;
      const moon_status s = stop ? moon_engine_solve_with_progress(h.engine, position, stop_on_progress, h.engine,
                                                                   null_out ? nullptr : &result)
                                 : moon_engine_solve(h.engine, position, null_out ? nullptr : &result);
      check_status(s, "moon_engine_solve");
      if (s == MOON_OK && !null_out) {
        require(result.outcome >= MOON_OUTCOME_WIN && result.outcome <= MOON_OUTCOME_LOSS && result.plies >= 0,
                "a solve result out of range");
        require(std::memchr(result.best_move, 0, sizeof result.best_move), "a best move without its NUL");
      }
      break;
    }
    case 13: {
      std::array<moon_move_value, 130> values;
      const std::size_t capacity = in.byte() % 130;
      std::size_t count = 7777;
      const moon_status s = moon_engine_solve_moves(h.engine, position, stop_on_progress, h.engine,
                                                    null_out ? nullptr : values.data(), capacity,
                                                    null_other ? nullptr : &count);
      check_status(s, "moon_engine_solve_moves");
      if (s == MOON_ERROR_BUFFER_TOO_SMALL) require(count > capacity, "a wrong count of needed values");
      break;
    }
    case 14:
      if (flags & 16) {
        signal_call(h, in, null_out, null_other);
        break;
      }
      check_status(moon_engine_clear(null_out ? nullptr : h.engine), "moon_engine_clear");
      check_status(moon_engine_stop(null_other ? nullptr : h.engine), "moon_engine_stop");
      break;
    case 15:
      require(status_name_from_c(std::int8_t(in.byte())) != nullptr, "moon_status_name gave NULL");
      require(moon_version() && *moon_version(), "moon_version gave no text");
      if (flags & 16) moon_engine_free(h.engine), h.engine = nullptr;
      else moon_position_free(slot), slot = nullptr;
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  moon::fuzz::FuzzInput input(data, size);
  Handles handles;
  for (int n = 0; n < 64 && !input.empty(); ++n) call(handles, input);
  return 0;
}
