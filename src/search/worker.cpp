// The principal variation search of one thread.
//
// Every node also reports whether its score is proven: true when no heuristic value took part
// below it (every leaf reached was a game end, or a proven table entry). A proven score is a
// true bound on the game's value at any depth, so such table entries are used whatever depth
// is asked, and a proven root score of 0 is an exact draw.
#include "worker.hpp"

#include <algorithm>

#include "moon/evaluation.hpp"
#include "moon/movegen.hpp"
#include "move_picker.hpp"

namespace moon::search {

namespace {

constexpr int history_limit = 1 << 14;

void add_history(int& entry, int bonus) {
  entry += bonus - entry * (bonus < 0 ? -bonus : bonus) / history_limit;
}

}  // namespace

void Worker::clear() {
  for (auto& k : killers_) k = {Move(), Move()};
  for (auto& h : history_) h.fill(0);
}

bool Worker::count_node_and_check() {
  const std::uint64_t n = nodes_.load(std::memory_order_relaxed) + 1;
  nodes_.store(n, std::memory_order_relaxed);
  if (shared_.node_limit && n >= shared_.node_limit) shared_.abort.store(true, std::memory_order_relaxed);
  // Every thread watches the clock: with more threads than cores, the main thread may wait
  // for a core long past the limit while the others search on (256 threads on 2 cores, 200 ms:
  // 390 ms when only the main thread looked).
  if ((n & 1023) == 0 && shared_.hard_limit_ms && shared_.elapsed_ms() >= shared_.hard_limit_ms)
    shared_.abort.store(true, std::memory_order_relaxed);
  // And the sum over all threads, for the same reason: when only the main thread summed, 256
  // threads on 2 cores searched 824 k nodes for --nodes 100000 (each helper up to the limit
  // alone). The interval is 1024 but for small limits with many threads (node_check_interval()).
  if (shared_.node_limit && (n & (shared_.node_check_interval - 1)) == 0 && shared_.total_nodes &&
      shared_.total_nodes() >= shared_.node_limit)
    shared_.abort.store(true, std::memory_order_relaxed);
  return aborted();
}

void Worker::copy_pv(int ply, Move m) {
  const auto p = std::size_t(ply);
  pv_[p][p] = m;
  for (auto i = p + 1; i < std::size_t(pv_length_[p + 1]); ++i) pv_[p][i] = pv_[p + 1][i];
  pv_length_[p] = std::max(pv_length_[p + 1], ply + 1);
}

void Worker::update_quiet_stats(const Position& pos, Move best, int depth, int ply, const Move* tried,
                                int tried_count) {
  const SearchFeatures& f = shared_.features;
  auto& killers = killers_[std::size_t(ply)];
  if (f.killers && killers[0] != best) {
    killers[1] = killers[0];
    killers[0] = best;
  }
  if (f.history) {
    auto& h = history_[pos.side_to_move()];
    const int bonus = std::min(depth * depth, 400);
    add_history(h[best.raw()], bonus * 16);
    for (int i = 0; i < tried_count; ++i) add_history(h[tried[i].raw()], -bonus * 16);
  }
}

template <class V>
Score Worker::quiescence(const Position& pos, int ply, Score alpha, Score beta, bool& proven) {
  pv_length_[std::size_t(ply)] = ply;
  proven = false;
  if (count_node_and_check()) return 0;
  if (pos.is_over()) {
    proven = true;
    return terminal_score(pos, ply);
  }
  const Score stand = evaluate<V>(pos, shared_.weights);
  if (pos.in_placement() || ply >= max_ply) return stand;
  // With one move left on the clock every quiet move ends the game: search them all (the
  // children are game ends or captures), so no heuristic value stands in for them.
  const bool last_quiet_move = pos.clock() + 1 >= pos.rules().clock_limit;
  Score best = -score_infinite;
  bool all_proven = last_quiet_move;
  if (!last_quiet_move) {
    best = stand;
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
  }
  const Score original_alpha = alpha;
  MovePicker<V> picker(pos, shared_.features, Move(), killers_[std::size_t(ply)], history_[pos.side_to_move()],
                       !last_quiet_move);
  Move best_move;
  for (Move m = picker.next(); !m.is_null(); m = picker.next()) {
    bool child_proven = false;
    const Score s = -quiescence<V>(pos.after<V>(m), ply + 1, -beta, -alpha, child_proven);
    if (aborted()) return 0;
    all_proven &= child_proven;
    if (s > best) {
      best = s;
      best_move = m;
      if (s > alpha) {
        alpha = s;
        copy_pv(ply, m);
        if (s >= beta) break;
      }
    }
  }
  proven = all_proven;
  // A proven result here (the last quiet move, every reply searched) is stored, for a later
  // visit to take instead of searching it again: moon bench's count is 0.16% lower with it
  // (5233082 nodes, 5241368 without). Decisive lines no longer need it to run to the game's
  // end: they are copied whole (search()), and completed from the table where it holds them.
  if (proven && shared_.features.transposition_table) {
    const Bound bound = best >= beta ? Bound::lower : best > original_alpha ? Bound::exact : Bound::upper;
    shared_.table.store(pos.key(), pos.hash(), best_move, score_to_table(best, ply), 0, bound, true);
  }
  return best;
}

template <class V>
Score Worker::search(const Position& pos, int depth, int ply, Score alpha, Score beta, bool pv_node, bool& proven) {
  const SearchFeatures& f = shared_.features;
  if (depth <= 0 && f.quiescence) return quiescence<V>(pos, ply, alpha, beta, proven);
  pv_length_[std::size_t(ply)] = ply;
  proven = false;
  if (count_node_and_check()) return 0;
  if (pos.is_over()) {
    proven = true;
    return terminal_score(pos, ply);
  }
  if (depth <= 0 || ply >= max_ply) return evaluate<V>(pos, shared_.weights);

  const Score alpha_given = alpha;
  if (f.alpha_beta) {
    // No result is better than winning, or worse than losing, with the next move.
    alpha = std::max(alpha, loss_in(ply + 1));
    beta = std::min(beta, win_in(ply + 1));
    if (alpha >= beta) {
      proven = true;
      return alpha;
    }
  }

  const std::uint64_t key = pos.key(), hash = pos.hash();
  Move table_move;
  if (f.transposition_table) {
    TableEntry e;
    if (shared_.table.probe(key, hash, e)) {
      table_move = e.move;
      const Score s = score_from_table(e.score, ply);
      const bool deep_enough = e.proven || e.depth >= depth;
      const bool may_cut = f.alpha_beta && (!pv_node || (e.proven && e.bound == Bound::exact));
      if (deep_enough && may_cut &&
          (e.bound == Bound::exact || (e.bound == Bound::lower && s >= beta) || (e.bound == Bound::upper && s <= alpha))) {
        proven = e.proven;
        return s;
      }
    }
  }

  const Score original_alpha = alpha;
  MovePicker<V> picker(pos, f, table_move, killers_[std::size_t(ply)], history_[pos.side_to_move()]);
  Score best = -score_infinite;
  Move best_move;
  bool all_proven = true;
  std::array<Move, MoveList::capacity> quiets_tried;
  int quiet_count = 0;
  int index = 0;
  for (Move m = picker.next(); !m.is_null(); m = picker.next(), ++index) {
    const bool quiet = picker.last_captures() == 0;
    const Position child = pos.after<V>(m);
    bool child_proven = false;
    Score s;
    if (!f.alpha_beta) {
      s = -search<V>(child, depth - 1, ply + 1, -score_infinite, score_infinite, true, child_proven);
    } else if (index == 0 || !f.principal_variation) {
      // Without PVS the leftmost path stands for the principal variation.
      s = -search<V>(child, depth - 1, ply + 1, -beta, -alpha, pv_node && index == 0, child_proven);
    } else {
      s = -search<V>(child, depth - 1, ply + 1, -alpha - 1, -alpha, false, child_proven);
      if (s > alpha && s < beta && !aborted())
        s = -search<V>(child, depth - 1, ply + 1, -beta, -alpha, pv_node, child_proven);
    }
    if (aborted()) return 0;
    all_proven &= child_proven;
    if (s > best) {
      best = s;
      best_move = m;
      if (s > alpha) {
        copy_pv(ply, m);
        if (f.alpha_beta) alpha = s;
        if (f.alpha_beta && s >= beta) {
          if (quiet) update_quiet_stats(pos, m, depth, ply, quiets_tried.data(), quiet_count);
          break;
        }
      } else if (s > alpha_given) {
        // Alpha as given would have risen: it was the bound above (no result worse than losing
        // with the next move) that set alpha, and the loser's last turn scores exactly that. Its
        // line must still hold the move: without the table, nothing mends the line afterwards.
        copy_pv(ply, m);
      }
    }
    if (quiet) quiets_tried[std::size_t(quiet_count++)] = m;
  }
  proven = all_proven;

  if (f.transposition_table) {
    const Bound bound = best >= beta ? Bound::lower : best > original_alpha ? Bound::exact : Bound::upper;
    shared_.table.store(key, hash, best_move, score_to_table(best, ply), depth, bound, proven);
  }
  return best;
}

template <class V>
void Worker::order_root_moves(const Position& root) {
  TableEntry e;
  Move table_move;
  if (shared_.features.transposition_table && shared_.table.probe(root.key(), root.hash(), e)) table_move = e.move;
  MovePicker<V> picker(root, shared_.features, table_move, killers_[0], history_[root.side_to_move()]);
  root_moves_.clear();
  for (Move m = picker.next(); !m.is_null(); m = picker.next())
    root_moves_.push_back({m, -score_infinite, false, false, {}});
}

template <class V>
bool Worker::search_root(const Position& root, int depth, Iteration& out) {
  const SearchFeatures& f = shared_.features;
  pv_length_[0] = 0;
  // Multi-PV: the first `lines` moves are searched with a full window, and every later one
  // against the lines-th best score so far (with one line, the best: plain PVS). A move that
  // beats it gets its exact value; one that does not is only bounded, and cannot be among the
  // best `lines` (the first `lines` moves' exact scores are at least as good).
  const std::size_t lines = std::min(std::size_t(std::max(shared_.multipv, 1)), root_moves_.size());
  std::vector<Score> top;  // the exact scores so far, best first, at most `lines`
  top.reserve(lines + 1);
  const Score beta = score_infinite;
  bool all_proven = true;
  for (std::size_t i = 0; i < root_moves_.size(); ++i) {
    RootMove& rm = root_moves_[i];
    const Position child = root.after<V>(rm.move);
    const Score alpha = f.alpha_beta && top.size() == lines ? top.back() : -score_infinite;
    bool child_proven = false;
    Score s;
    if (!f.alpha_beta) {
      s = -search<V>(child, depth - 1, 1, -score_infinite, score_infinite, true, child_proven);
    } else if (i < lines || !f.principal_variation) {
      s = -search<V>(child, depth - 1, 1, -beta, -alpha, i < lines, child_proven);
    } else {
      s = -search<V>(child, depth - 1, 1, -alpha - 1, -alpha, false, child_proven);
      if (s > alpha && !aborted()) s = -search<V>(child, depth - 1, 1, -beta, -alpha, true, child_proven);
    }
    if (aborted()) return false;
    all_proven &= child_proven;
    rm.score = s;
    rm.exact = i < lines || s > alpha;
    rm.proven = rm.exact && child_proven;
    rm.pv.clear();
    if (rm.exact) {
      copy_pv(0, rm.move);
      rm.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
      top.insert(std::upper_bound(top.begin(), top.end(), s, std::greater<>()), s);
      if (top.size() > lines) top.pop_back();
    }
  }
  // Best first, exact scores before bounds of the same value; the others keep their order
  // among equals (their scores are upper bounds).
  std::stable_sort(root_moves_.begin(), root_moves_.end(), [](const RootMove& a, const RootMove& b) {
    return a.score != b.score ? a.score > b.score : a.exact > b.exact;
  });
  const Score best = root_moves_.front().score;
  if (f.transposition_table)
    shared_.table.store(root.key(), root.hash(), root_moves_.front().move, best, depth, Bound::exact, all_proven);
  out.depth = depth;
  out.score = best;
  out.proven = all_proven;
  out.lines.clear();
  for (std::size_t i = 0; i < lines; ++i) {
    const RootMove& rm = root_moves_[i];
    // One line asked for: its score is the position's, proven only if every move's was. More:
    // each line's is its own move's.
    const bool proven = shared_.multipv == 1 ? all_proven : rm.proven;
    // A win or loss runs to the game's end, which the quiescence search may reach beyond the
    // depth (as far as the table still holds the line); any other line stops at the depth.
    const int pv_length = proven || is_proven_decisive(rm.score) ? max_ply : depth;
    std::vector<Move> pv = extend_pv_from_table(root, rm.pv, pv_length);
    if (id_ == 0 && is_proven_decisive(rm.score)) complete_decisive_line<V>(root, pv, rm.score);
    out.lines.push_back(Line{rm.score, proven, std::move(pv)});
  }
  out.pv = out.lines.front().pv;
  return true;
}

std::vector<Move> Worker::extend_pv_from_table(const Position& root, std::vector<Move> pv, int max_length) const {
  if (!shared_.features.transposition_table) return pv;
  Position pos = root;
  for (Move m : pv) pos.play(m);
  TableEntry e;
  while (int(pv.size()) < max_length && !pos.is_over() && shared_.table.probe(pos.key(), pos.hash(), e) &&
         legal_moves(pos).contains(e.move)) {
    pv.push_back(e.move);
    pos.play(e.move);
  }
  return pv;
}

template <class V>
void Worker::complete_decisive_line(const Position& root, std::vector<Move>& pv, Score score) {
  // The table's walk can go wrong two ways. It stops where an entry on the line was overwritten
  // (a small table, helper threads): a loss in 10 once came with 8 moves, the game not over at
  // their end. And it can follow a move that wins, but not as fast as the line's score says: an
  // entry stored by a null-window search holds a bound ("a win in at most 12") and the move that
  // proved it, so a line scored a loss in 8 once went wrong at its 6th move and could not be
  // finished. So each move of the line after the first is checked by a null-window search to
  // the plies left around the result it must keep (the quickest win, the longest defence); a
  // move that fails it, or a missing one, is replaced by the first legal move that passes. The
  // first move is the line's own (one line a root move, scored by the search itself) and is
  // neither checked nor replaced. A line that ends the game after exactly its distance is
  // checked too: a slow win and a blunder in reply would end it so as well, and the line is to
  // be best play.
  // Only the main thread's lines are reported. A search stopped meanwhile, or a result the
  // checks cannot keep (no move passes), leaves the line as the table gave it.
  const SearchFeatures& f = shared_.features;
  if (!f.alpha_beta || !f.transposition_table || pv.empty()) return;
  const bool root_wins = score > 0;
  const int plies = score_info(score).value;
  std::vector<Move> line;
  line.reserve(std::size_t(plies));
  Position pos = root;
  while (int(line.size()) < plies && !pos.is_over()) {
    const int left = plies - int(line.size());
    const bool mover_wins = root_wins == (line.size() % 2 == 0);
    const Score target = mover_wins ? win_in(left) : loss_in(left);  // from the mover's view
    const auto keeps_result = [&](Move m) {
      bool proven = false;
      return -search<V>(pos.after<V>(m), left - 1, 1, -target, -target + 1, false, proven) >= target;
    };
    const MoveList moves = legal_moves(pos);
    const Move given = line.size() < pv.size() ? pv[line.size()] : Move();
    // The root move is the line's own, its score the search's: nothing to check or replace.
    Move keeps = line.empty() ? given : Move();
    if (keeps.is_null() && moves.contains(given) && keeps_result(given)) keeps = given;
    for (std::size_t i = 0; keeps.is_null() && i < moves.size() && !aborted(); ++i)
      if (moves[i] != given && keeps_result(moves[i])) keeps = moves[i];
    if (aborted() || keeps.is_null()) return;
    line.push_back(keeps);
    pos.play(keeps);
  }
  pv = std::move(line);
}

template <class V>
Iteration Worker::run_variant(const Position& root, int max_depth,
                              const std::function<bool(const Iteration&)>& on_iteration) {
  order_root_moves<V>(root);
  Iteration last;
  int depth = id_ == 0 ? 1 : 1 + id_ % 2;
  for (; depth <= max_depth && !aborted(); ++depth) {
    if (id_ == 0) {
      shared_.main_depth.store(depth, std::memory_order_relaxed);
    } else {
      // Helpers run ahead of the main thread on alternate depths, filling the table for it.
      depth = std::max(depth, shared_.main_depth.load(std::memory_order_relaxed) + id_ % 2);
      if (depth > max_depth) break;
    }
    Iteration it;
    if (!search_root<V>(root, depth, it)) break;
    last = std::move(it);
    if (id_ == 0 && on_iteration && !on_iteration(last)) break;
  }
  return last;
}

Iteration Worker::run(const Position& root, int max_depth, const std::function<bool(const Iteration&)>& on_iteration) {
  return with_variant(root.rules(), [&](auto v) { return run_variant<decltype(v)>(root, max_depth, on_iteration); });
}

}  // namespace moon::search
