#include "cli/external_engine.hpp"

#include <algorithm>
#include <sstream>

#include "moon/notation.hpp"

namespace moon::cli {

namespace {

using Clock = EngineProcess::Clock;

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> result;
  for (std::string w; in >> w;) result.push_back(w);
  return result;
}

// The words of w from `first` on, up to `end` if given, joined by single spaces: the name in
// "option name <name> type ..." (which may hold spaces: "Clock Limit"), or in "id name <name>".
std::string joined(const std::vector<std::string>& w, std::size_t first, std::string_view end = {}) {
  std::string text;
  for (std::size_t i = first; i < w.size() && w[i] != end; ++i) {
    if (!text.empty()) text += ' ';
    text += w[i];
  }
  return text;
}

constexpr std::string_view error_prefix = "info string error:";
constexpr std::size_t max_name_bytes = 100, max_options = 256;

// The message of an error line (one that starts with error_prefix), for ours: without the
// spaces before it, cut short if it is long (an engine's output is not to be trusted), and
// never empty.
std::string error_message(std::string_view line) {
  constexpr std::size_t max_shown = 200;
  std::string_view message = line.substr(error_prefix.size());
  message.remove_prefix(std::min(message.size(), message.find_first_not_of(' ')));
  if (message.empty()) return "(no message)";
  return message.size() > max_shown ? std::string(message.substr(0, max_shown)) + "..." : std::string(message);
}

}  // namespace

template <class Done>
ExternalEngine::Wait ExternalEngine::wait_for(Done done, Clock::time_point deadline, std::string& line,
                                              std::stop_token stop) {
  for (;;) {
    if (stop.stop_requested()) return Wait::stopped;
    // In slices, so that a stop request is seen within 50 ms.
    const auto slice = std::min(deadline, Clock::now() + std::chrono::milliseconds(50));
    switch (process_.read_line(slice, line)) {
      case EngineProcess::ReadStatus::line:
        if (done(line)) return Wait::found;
        break;
      case EngineProcess::ReadStatus::ended:
        return Wait::ended;
      case EngineProcess::ReadStatus::too_long:
        return Wait::too_long;
      case EngineProcess::ReadStatus::timed_out:
        if (Clock::now() >= deadline) return Wait::timed_out;
        break;
    }
  }
}

std::string ExternalEngine::failure(Wait wait, std::chrono::milliseconds waited) {
  if (wait == Wait::ended) {
    // Its output ends when it does, or when it closes it and goes on (then it is killed).
    const std::string how = process_.how_it_ended();
    return how == "still running" ? "it closed its output (still running)" : "it ended (" + how + ")";
  }
  if (wait == Wait::too_long)
    return "it wrote more than " + std::to_string(EngineProcess::max_line_bytes >> 20) + " MiB without a newline";
  const auto ms = waited.count();
  return "no answer in " + (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms");
}

Expected<ExternalEngine> ExternalEngine::start(const std::string& command, const Rules& rules, std::size_t hash_mb,
                                               bool hash_required, std::stop_token stop) {
  auto process = EngineProcess::start(command);
  if (!process) return process.error();
  ExternalEngine engine(std::move(*process));
  std::string line;
  engine.process_.send("umi");  // if it has ended already, the wait for its answer says so
  const auto waited = engine.wait_for(
      [&](const std::string& l) {
        const auto w = words(l);
        // Within bounds whatever it writes: a name for the report, the options it offers.
        if (w.size() >= 3 && w[0] == "id" && w[1] == "name") engine.name_ = joined(w, 2).substr(0, max_name_bytes);
        if (w.size() >= 3 && w[0] == "option" && w[1] == "name" && engine.options_.size() < max_options)
          engine.options_.push_back(joined(w, 2, "type").substr(0, max_name_bytes));
        return w.size() == 1 && w[0] == "umiok";
      },
      Clock::now() + handshake_timeout, line, stop);
  if (waited == Wait::stopped) return Error{"stopped while it started"};
  if (waited != Wait::found) return Error{"it did not answer 'umi' with 'umiok': " + engine.failure(waited, handshake_timeout)};

  const auto offers = [&](const std::string& name) {
    return std::find(engine.options_.begin(), engine.options_.end(), name) != engine.options_.end();
  };
  // The settings the engine must take: those of the rules, and a table size asked for. Any
  // other engine plays with a table of the match's size if it has the option, its own if not.
  std::vector<std::pair<std::string, std::string>> settings;
  if (hash_required || offers("Hash")) settings.emplace_back("Hash", std::to_string(hash_mb));
  if (rules.slide()) settings.emplace_back("Movement", "slide");
  if (rules.diagonal()) settings.emplace_back("Diagonal Captures", "true");
  if (rules.clock_limit != Rules::default_clock_limit)
    settings.emplace_back("Clock Limit", std::to_string(rules.clock_limit));
  // The same time as an engine in this process: an allowance for pipes is move_grace's job.
  if (offers("Move Overhead")) settings.emplace_back("Move Overhead", "0");
  for (const auto& [name, value] : settings) {
    if (!offers(name))
      return Error{"it does not offer the option '" + name + "' (needed for " + name + " " + value + ")"};
    engine.process_.send("setoption name " + name + " value " + value);
  }
  // The answer to every option comes before readyok: an error among them refuses the engine.
  engine.process_.send("isready");
  std::string refused;
  const auto ready = engine.wait_for(
      [&](const std::string& l) {
        if (l.starts_with(error_prefix) && refused.empty()) refused = error_message(l);
        return l == "readyok";
      },
      Clock::now() + ready_timeout, line, stop);
  if (ready == Wait::stopped) return Error{"stopped while it started"};
  if (ready != Wait::found) return Error{"it did not answer 'isready' with 'readyok': " + engine.failure(ready, ready_timeout)};
  if (!refused.empty()) return Error{"it refused its options: " + refused};
  return engine;
}

ExternalEngine::~ExternalEngine() { process_.send("quit"); }

Expected<bool> ExternalEngine::new_game(std::stop_token stop) {
  std::string line;
  if (!process_.send("uminewgame") || !process_.send("isready"))
    return Error{"it stopped reading its input (" + process_.how_it_ended() + ")"};
  const auto ready =
      wait_for([](const std::string& l) { return l == "readyok"; }, Clock::now() + ready_timeout, line, stop);
  if (ready == Wait::stopped) return false;
  if (ready != Wait::found) return Error{"it did not answer 'isready' with 'readyok': " + failure(ready, ready_timeout)};
  return true;
}

Expected<EngineReply> ExternalEngine::best_move(const Position& start, std::span<const Move> moves,
                                                const Position& position, const SearchLimits& limits,
                                                const GameClocks* clocks, std::stop_token stop) {
  std::string command = "position fen " + to_string(start);
  if (!moves.empty()) command += " moves";
  for (Move m : moves) {
    command += ' ';
    command += to_string(m);
  }
  std::string go = "go";
  if (limits.depth > 0) go += " depth " + std::to_string(limits.depth);
  if (limits.nodes > 0) go += " nodes " + std::to_string(limits.nodes);
  if (limits.movetime_ms > 0) go += " movetime " + std::to_string(limits.movetime_ms);
  // A clock can grow past what the protocol takes (max_limit_ms, some 31 years: --tc allows
  // 10^9 s and as much again a move); no search is told apart by more, so that is sent.
  const auto capped = [](std::int64_t ms) { return std::min(ms, max_limit_ms); };
  if (clocks) {
    const auto ms_text = [&](std::int64_t us) { return std::to_string(capped(GameClocks::ms(us))); };
    go += " xtime " + ms_text(clocks->x_us) + " otime " + ms_text(clocks->o_us);
    if (GameClocks::ms(clocks->increment_us) > 0)
      go += " xinc " + ms_text(clocks->increment_us) + " oinc " + ms_text(clocks->increment_us);
  }
  if (!process_.send(command) || !process_.send(go))
    return Error{"it stopped reading its input (" + process_.how_it_ended() + ")"};
  const auto started = Clock::now();

  // Without a move time or a clock the search has no time bound: only Ctrl-C ends a wait that
  // is too long.
  const std::int64_t time_ms = clocks ? GameClocks::ms(clocks->left_us(position.side_to_move())) : limits.movetime_ms;
  const auto allowed = std::chrono::milliseconds(capped(time_ms)) + move_grace;  // no overflow in nanoseconds
  const auto deadline = clocks || time_ms > 0 ? Clock::now() + allowed : Clock::time_point::max();
  std::string line, refused;
  // A protocol engine answers a line it rejects with an error and nothing else: no bestmove
  // would come.
  const auto is_bestmove = [&](const std::string& l) {
    if (l.starts_with(error_prefix)) {
      refused = error_message(l);
      return true;
    }
    return l.starts_with("bestmove ") || l == "bestmove";
  };
  const Wait waited = wait_for(is_bestmove, deadline, line, stop);
  EngineReply reply;
  reply.took = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
  if (waited == Wait::stopped) {
    process_.send("stop");
    wait_for(is_bestmove, Clock::now() + std::chrono::seconds(2), line);
    reply.kind = EngineReply::Kind::stopped;
    return reply;
  }
  if (waited != Wait::found) return Error{"it sent no bestmove for '" + go + "': " + failure(waited, allowed)};
  if (!refused.empty()) return Error{"it refused '" + command + "' or '" + go + "': " + refused};
  if (clocks && clocks->late(position.side_to_move(), reply.took)) {
    reply.kind = EngineReply::Kind::late;
    return reply;
  }
  const auto w = words(line);
  const std::string text = w.size() > 1 ? w[1] : "";
  const auto move = parse_move(text, position);
  if (!move)
    return Error{"it answered " + moon::quoted(line) + " in the position " + to_string(position) + ": " + move.error().message};
  reply.move = *move;
  return reply;
}

}  // namespace moon::cli
