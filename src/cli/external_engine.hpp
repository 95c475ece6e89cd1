// An engine in another program, played through the protocol (docs/PROTOCOL.md): moon match's
// way to set one build of moon, or any engine that speaks the protocol, against another.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "cli/engine_process.hpp"
#include "moon/expected.hpp"
#include "moon/move.hpp"
#include "moon/position.hpp"
#include "moon/search.hpp"

namespace moon::cli {

// Both sides' clocks in a game played under a time control: the time each has left and the
// increment each gets after every move. Kept in microseconds, so that a move quicker than a
// millisecond is charged what it took (in milliseconds it was free, and a fast engine's clock
// only grew); engines are told whole milliseconds.
struct GameClocks {
  std::int64_t x_us = 0, o_us = 0, increment_us = 0;

  // A clock grows by at most 10^15 us a move (--tc's increment): kept below this, a clock plus
  // an increment never overflows, and no engine is told apart by more (max_limit_ms is less).
  static constexpr std::int64_t max_us = std::int64_t{1} << 62;

  std::int64_t left_us(Color side) const { return side == x ? x_us : o_us; }
  static constexpr std::int64_t ms(std::int64_t us) { return us / 1000; }
  // A move that took longer than its side had left loses the game on time.
  bool late(Color side, std::chrono::microseconds took) const { return took.count() > left_us(side); }
  // A move in time: its side is charged what it took, then given the increment.
  void charge(Color side, std::chrono::microseconds took) {
    std::int64_t& left = side == x ? x_us : o_us;
    left = std::min(left - took.count() + increment_us, max_us);
  }
};

// An engine's answer to a search: its move, or none because the search was stopped first, or
// because, under a clock, it answered after its time had run out (its move is then not read).
struct EngineReply {
  enum class Kind { move, stopped, late } kind = Kind::move;
  Move move;
  std::chrono::microseconds took{0};  // from the search's start to the answer
};

class ExternalEngine {
 public:
  // How long an engine may take to answer `umi`, and `isready` (which waits for its table).
  static constexpr std::chrono::seconds handshake_timeout{10};
  static constexpr std::chrono::seconds ready_timeout{60};
  // Beyond a move time, how long the engine may take to send its bestmove (pipes, a busy
  // machine, a table cleared at the search's start).
  static constexpr std::chrono::seconds move_grace{5};

  // Starts `command` (EngineProcess), checks that it answers `umi` with `umiok`, and sets its
  // Hash option to hash_mb if it has one (an engine without one is refused only where
  // `hash_required`: the size was asked for), its Move Overhead to 0 if it has one (it gets the
  // time an engine in this process gets) and, where they are not the defaults, the rule options
  // (an engine that does not offer an option the rules need is refused), then waits for
  // `readyok`. Errors say what the engine did instead (or that `stop` was requested meanwhile).
  static Expected<ExternalEngine> start(const std::string& command, const Rules& rules, std::size_t hash_mb,
                                        bool hash_required, std::stop_token stop = {});

  ExternalEngine(ExternalEngine&&) noexcept = default;
  ExternalEngine& operator=(ExternalEngine&&) = delete;
  // Sends `quit`; the process is then ended (EngineProcess).
  ~ExternalEngine();

  // The name the engine gave (`id name`), or "" if none.
  const std::string& name() const { return name_; }

  // `uminewgame`, then waits for `readyok`: true once it came, false if `stop` was requested
  // first.
  Expected<bool> new_game(std::stop_token stop = {});

  // The engine's move in `position`, reached from `start` by `moves`, under `limits` (depth,
  // nodes, movetime) and, if given, the game's clocks (`go xtime .. otime .. xinc .. oinc ..`).
  // Stopped if `stop` was requested first (the engine is then told to stop and its answer
  // awaited briefly); late if, under the clocks, it answered after its time ran out. An error
  // if the engine ends, sends no answer within the move time (or the time its clock has left)
  // and move_grace, or answers with a move that is not legal there (the error names it).
  Expected<EngineReply> best_move(const Position& start, std::span<const Move> moves, const Position& position,
                                  const SearchLimits& limits, const GameClocks* clocks, std::stop_token stop);

 private:
  explicit ExternalEngine(EngineProcess process) : process_(std::move(process)) {}
  // Reads lines until one for which `done` holds (kept in `line`), the deadline or `stop`.
  enum class Wait { found, ended, timed_out, stopped, too_long };
  template <class Done>
  Wait wait_for(Done done, EngineProcess::Clock::time_point deadline, std::string& line,
                std::stop_token stop = {});
  // "it ended (exit status 1)", or "no answer in 10 s", for an error message.
  std::string failure(Wait wait, std::chrono::milliseconds waited);

  EngineProcess process_;
  std::string name_;
  std::vector<std::string> options_;  // the names of the options it offers
};

}  // namespace moon::cli
