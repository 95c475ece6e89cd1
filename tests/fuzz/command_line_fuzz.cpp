// Fuzz target: the moon program's command-line options (src/cli/options.hpp,
// search_options.hpp), parsed as the commands parse them, without running a command. Input:
// arguments separated by NUL bytes (up to 32), then, after an empty argument, engine settings
// and evaluation weights as `moon match --a` and `--a-eval` read them.
//
// The arguments are read as `moon analyze` and `moon play` read them (consume_search_argument():
// the position options, the search limits, the engine options, else a MOVE), up to the first
// error, which must come with a message; an option none takes is named by it (with the option
// meant, if it is a slip: closest_name.hpp). A position the options accept must print as a
// position string that reads back to it, and the MOVEs are played there as the commands play
// them: each accepted, or an error with a message.
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
  std::vector<std::string_view> moves;
  bool refused = false;
  while (!reader.done() && !refused) {
    const std::string_view argument = reader.current();
    const auto read = cli::consume_search_argument(reader, position, limits, options, moves);
    require_message(read, argument);
    refused = !read;
    // An option the reader could not match is left where it was (one matched is consumed, even
    // when its value is bad): the message must name it.
    if (refused && !reader.done() && reader.current().data() == argument.data())
      require(read.error().message.find(moon::quoted(argument)) != std::string::npos,
              "the message for an argument none takes does not name it", argument);
  }
  const auto pos = position.position();
  require_message(pos, "the position options");
  if (pos) {
    const auto again = parse_position(to_string(*pos), pos->rules());
    require(again.has_value() && *again == *pos, "a position from the options does not read back", to_string(*pos));
    if (!refused) require_message(cli::play_move_texts(*pos, moves), "the moves");
  }

  const std::string settings = input.text_until('\0');
  require_message(cli::parse_features(settings), settings);
  const std::string weights = input.rest();
  require_message(cli::parse_weights(weights), weights);
  return 0;
}
