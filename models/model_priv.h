/* pmusim models — helpers shared by the files of models/ (not installed). */
#pragma once
#include <glib.h>
#include "model.h"

/* Case-insensitive (ASCII) string hashing for the name indexes, so lookups
 * never allocate an upper-cased copy. */
guint pms_ci_hash(gconstpointer key);
gboolean pms_ci_equal(gconstpointer a, gconstpointer b);
GHashTable *pms_ci_index_new(void);

/* "0x1f" or "31" -> value; FALSE on anything else (sign, junk, overflow). */
gboolean pms_parse_u64(const char *text, guint64 *out);

/* Itanium consistency (model_ia64.c), shared by the loader and the lint.
 * The loader (complete = FALSE) refuses facts that contradict each other or
 * the model, so an accepted model never makes the encoder or the simulator
 * guess; the lint (complete = TRUE) also reports facts that are missing (an
 * event without max_inc or type, a counter without its registers), which a
 * placeholder model may lack (encoder/tests/encu.pmu).  Each appends
 * messages without FILE:LINE. */
void pms_ia64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);
void pms_ia64_event_check(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs);

/* A name or description pattern of a model of several PMUs ([pmu]
 * name_pattern, desc_pattern) for one instance: every "%u" is the instance
 * number, "%%" a '%'.  NULL when the pattern has any other '%'. */
char *pms_model_pattern_format(const char *pattern, guint instance);
/* pms_model_free of a view (model_view.c). */
void pms_model_view_free(PmsModel *v);
