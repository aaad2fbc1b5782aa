/* pmusim — a spool: text written as it comes into an anonymous temporary
 * file, in several streams (one per key: a report's section, e.g. a PMU's
 * test cases), and copied out stream by stream at the end.  A report whose
 * head needs totals (JUnit's counts, --write-expect's `pmu` lines) is held
 * there, not in memory, so its size does not bound the corpus (issue 21).
 * The file is unlinked as soon as it is made: however the process ends,
 * nothing is left behind. */
#pragma once

#include <glib.h>
#include <stdio.h>

typedef struct PmsSpool PmsSpool;

/* A spool in directory dir (a report's own directory keeps its scratch on
 * the same file system as the report).  NULL with an error when dir takes
 * no new file. */
PmsSpool *pms_spool_new(const char *dir, GError **error);
void pms_spool_free(PmsSpool *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsSpool, pms_spool_free)

/* Text appended to stream `key`; a write error is kept and reported by
 * pms_spool_copy.  Appends to one key in a row are one piece of the file,
 * so a stream costs memory per run of appends, not per append. */
void pms_spool_append(PmsSpool *s, guint key, const char *text, gsize len);
void pms_spool_printf(PmsSpool *s, guint key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* Bytes stream key holds (0 for a key never written). */
guint64 pms_spool_size(const PmsSpool *s, guint key);
/* Stream key's text, in the order appended, written to out (named out_name
 * in a write error's message).  FALSE with an error when an append or this
 * copy failed. */
gboolean pms_spool_copy(PmsSpool *s, guint key, FILE *out, const char *out_name, GError **error);
