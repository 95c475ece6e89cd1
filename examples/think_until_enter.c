/* Thinks about a position until Enter is pressed, through the C API (moon::moon_c) and POSIX
 * threads, as a frontend's "analyse" button would: a worker thread searches until stopped
 * (moon_engine_search_until_stopped(): even once deeper iterations cannot change its result, a
 * win found within the depth searched say, it waits for the stop) and prints each completed
 * iteration; the main thread waits for a line on standard input (or its end), raises a stop
 * signal and prints the worker's best move.
 *
 * The signal is attached to the engine before the worker starts, so a stop that comes before
 * the worker has even begun its search still ends it. moon_engine_stop() could not promise that:
 * it does nothing while no search runs, and the search would then run on.
 *
 *   example_think_until_enter [POSITION]     (default: the start position)
 *   echo | example_think_until_enter '4x/5/xo2o/3x1/2x2 x'
 */
#define _POSIX_C_SOURCE 200809L /* pthreads, with the compiler in strict C99 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "moon/moon.h"

struct job {
  moon_engine* engine;
  const moon_position* position;
  moon_search_info result;
  moon_status status;
  char message[MOON_ERROR_TEXT_SIZE]; /* moon_last_error() is per thread: the worker's, kept for main */
};

static void print_score(const moon_search_info* info) {
  switch (info->score_kind) {
    case MOON_SCORE_WIN: printf("win in %d", info->score_value); break;
    case MOON_SCORE_LOSS: printf("loss in %d", info->score_value); break;
    case MOON_SCORE_DRAW: printf("draw"); break;
    default: printf("cp %d", info->score_value); break; /* centi-counters, side to move's view */
  }
}

/* On the worker thread, after each completed iteration. */
static void print_iteration(const moon_search_info* info, void* user_data) {
  (void)user_data;
  printf("depth %d score ", info->depth);
  print_score(info);
  printf(" nodes %llu pv %s\n", (unsigned long long)info->nodes, info->pv);
  fflush(stdout);
}

static void* think(void* argument) {
  struct job* job = argument;
  job->status = moon_engine_search_until_stopped(job->engine, job->position, 1, print_iteration, NULL, &job->result);
  if (job->status != MOON_OK) {
    strncpy(job->message, moon_last_error(), sizeof job->message - 1);
    job->message[sizeof job->message - 1] = '\0';
  }
  return NULL;
}

static int report(const char* call, moon_status status) {
  fprintf(stderr, "%s: %s: %s\n", call, moon_status_name(status), moon_last_error());
  return 1;
}

int main(int argc, char** argv) {
  moon_engine* engine = NULL;
  moon_position* position = NULL;
  moon_stop_signal* stop = NULL;
  struct job job;
  pthread_t worker;
  moon_status status;
  int exit_status = 0;
  int c;

  if (argc > 2) {
    fprintf(stderr, "usage: %s [POSITION]\n", argv[0]);
    return 2;
  }
  status = argc == 2 ? moon_position_from_string(argv[1], NULL, &position) : moon_position_new(NULL, &position);
  if (status != MOON_OK) return report("reading the position", status);
  if ((status = moon_engine_new(NULL, &engine)) != MOON_OK) {
    exit_status = report("making the engine", status);
    goto done;
  }
  /* A fresh signal for this search, attached while the engine is still this thread's alone. */
  if ((status = moon_stop_signal_new(&stop)) != MOON_OK ||
      (status = moon_engine_set_stop_signal(engine, stop)) != MOON_OK) {
    exit_status = report("making the stop signal", status);
    goto done;
  }

  job.engine = engine;
  job.position = position;
  job.status = MOON_ERROR_INTERNAL;
  printf("thinking; press Enter to stop\n");
  fflush(stdout);
  if (pthread_create(&worker, NULL, think, &job) != 0) {
    fprintf(stderr, "cannot start the worker thread\n");
    exit_status = 1;
    goto done;
  }
  while ((c = getchar()) != EOF && c != '\n') {
  }
  moon_stop_signal_raise(stop); /* from this thread, while the worker may not have begun yet */
  pthread_join(worker, NULL);

  if (job.status != MOON_OK) {
    fprintf(stderr, "thinking: %s: %s\n", moon_status_name(job.status), job.message);
    exit_status = 1;
    goto done;
  }
  if (!job.result.best_move[0]) {
    /* A game that is over: nothing to search; the score is its result. */
    printf("the game is over: %s\n", job.result.score_kind == MOON_SCORE_WIN    ? "the side to move has won"
                                      : job.result.score_kind == MOON_SCORE_LOSS ? "the side to move has lost"
                                                                                  : "drawn");
  } else if (job.result.depth == 0) {
    /* Stopped before the first iteration completed: the move is the engine's first choice in
     * its move order, legal but not searched, and the score only the static evaluation. */
    printf("stopped before the first iteration, no score\n");
  } else {
    printf("stopped at depth %d, score ", job.result.depth);
    print_score(&job.result);
    printf("\n");
  }
  printf("bestmove %s\n", job.result.best_move[0] ? job.result.best_move : "(none)");

done:
  moon_engine_free(engine); /* the engine lets go of the signal too */
  moon_stop_signal_free(stop);
  moon_position_free(position);
  return exit_status;
}
