/* pmusim — run an in-process encoder inside a forked child so that a crash
 * (SIGSEGV in a foreign library) costs one line, not the run. */
#pragma once

#include <glib.h>
#include "backend.h"

/* Runs in the child once after fork; FALSE (with a message) when the encoder
 * cannot start there. */
typedef gboolean (*PmsWorkerInitFn)(void *ctx, char **message);
/* Runs in the child for every line. */
typedef void (*PmsWorkerServeFn)(void *ctx, const char *line, PmsBackendResult *out);

typedef struct PmsWorker PmsWorker;

/* Start the child and wait for its init to report; NULL + error if it fails. */
PmsWorker *pms_worker_new(PmsWorkerInitFn init, PmsWorkerServeFn serve, void *ctx, guint timeout_ms, GError **error);
/* Encode one line in the child.  When the child dies, answers garbage or takes
 * longer than the timeout, the line is answered BACKEND_CRASH, the child is
 * killed and a fresh one is started for the next line. */
void pms_worker_encode(PmsWorker *w, const char *line, PmsBackendResult *out);
void pms_worker_free(PmsWorker *w);
