// The Elo difference a match result suggests, with a 95% error margin (normal approximation
// of the mean game score; each game scores 1, 1/2 or 0).
#pragma once

#include <cmath>
#include <limits>

namespace moon::cli {

struct EloEstimate {
  double score = 0;   // mean game score of the first engine, 0 to 1
  double elo = 0;     // +inf / -inf when every game was won / lost
  double margin = 0;  // half the width of the 95% interval; +inf when it reaches a bound or all
                      // games had one result
  // The 95% interval's ends themselves, which lie unevenly about elo (the score-to-Elo curve
  // bends: 15 wins, 1 draw and 4 losses give +214.8, from +69.5 to +516.4); meaningful only where
  // margin is finite.
  double low = 0, high = 0;
};

inline double elo_of_score(double p) {
  if (p <= 0) return -std::numeric_limits<double>::infinity();
  if (p >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / p - 1.0);
}

inline EloEstimate estimate_elo(int wins, int draws, int losses) {
  EloEstimate e;
  const int n = wins + draws + losses;
  if (n == 0) return e;
  const double p = (wins + 0.5 * draws) / n;
  const double variance = (wins * (1 - p) * (1 - p) + draws * (0.5 - p) * (0.5 - p) + losses * p * p) / n;
  const double half_width = 1.959964 * std::sqrt(variance / n);
  e.score = p;
  e.elo = elo_of_score(p);
  e.low = elo_of_score(p - half_width);
  e.high = elo_of_score(p + half_width);
  // Games all of one result (all drawn, say) have no spread to measure: a margin of 0 would claim
  // a certainty that a few games cannot give, so the margin is unknown (infinite) there.
  const bool one_result = wins == n || draws == n || losses == n;
  e.margin = std::isfinite(e.low) && std::isfinite(e.high) && !one_result ? (e.high - e.low) / 2
                                                                           : std::numeric_limits<double>::infinity();
  return e;
}

}  // namespace moon::cli
