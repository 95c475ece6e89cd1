// Fuzz target: the moon program's command-line options (src/cli/options.hpp,
// search_options.hpp), parsed as the commands parse them, without running a command. Input:
// arguments separated by NUL bytes (up to 32), then, after an empty argument, engine settings
// and evaluation weights as `moon match --a` and `--a-eval` read them.
//
// Each argument is offered to the position options, the search limits and the engine options
// in turn, as `moon analyze` does; an error must come with a message, one that none takes is
// named by the message the commands give for it (with the option meant, if it is a slip:
// closest_name.hpp), and a position the options accept must print as a position string that
// reads back to it.
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.hpp"
#include "cli/search_options.hpp"
#include "fuzz_input.hpp"
#include "moon/notation.hpp"

using namespace moon;
using moon::fuzz::require;

namespace {

template <class T>
void require_message(const Expected<T>& result, std::string_view what) {
  if (!result) require(!result.error().message.empty(), "an error without a message", what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  moon::fuzz::FuzzInput input(data, size);
  std::vector<std::string> words;
  while (words.size() < 32 && !input.empty()) {
    std::string word = input.text_until('\0');
    if (word.empty()) break;
    words.push_back(std::move(word));
  }
  const std::vector<std::string_view> args(words.begin(), words.end());

  cli::ArgReader reader(args);
  cli::PositionOptions position;
  SearchLimits limits;
  SearchOptions options;
  while (!reader.done()) {
    const std::string argument(reader.current());
    const auto as_position = position.consume(reader);
    require_message(as_position, argument);
    if (!as_position) break;
    if (*as_position) continue;
    const auto as_limit = cli::consume_limit(reader, limits);
    require_message(as_limit, argument);
    if (!as_limit) break;
    if (*as_limit) continue;
    const auto as_option = cli::consume_engine_option(reader, options);
    require_message(as_option, argument);
    if (!as_option) break;
    if (!*as_option) {
      require(reader.unknown().find(moon::quoted(argument)) != std::string::npos,
              "the message for an argument none takes does not name it", argument);
      reader.skip();
    }
  }
  const auto pos = position.position();
  require_message(pos, "the position options");
  if (pos) {
    const auto again = parse_position(to_string(*pos), pos->rules());
    require(again.has_value() && *again == *pos, "a position from the options does not read back", to_string(*pos));
  }

  const std::string settings = input.text_until('\0');
  require_message(cli::parse_features(settings), settings);
  const std::string weights = input.rest();
  require_message(cli::parse_weights(weights), weights);
  return 0;
}
