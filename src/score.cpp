#include "moon/score.hpp"

namespace moon {

std::string to_string(ScoreInfo info) {
  switch (info.kind) {
    case ScoreKind::win: return "win " + std::to_string(info.value);
    case ScoreKind::loss: return "loss " + std::to_string(info.value);
    case ScoreKind::draw: return "draw";
    case ScoreKind::heuristic: break;
  }
  return "cp " + std::to_string(info.value);
}

}  // namespace moon
