/* pmusim — vectors/ internals shared by the .enc parser (vector_parse.c),
 * the .sim parser (vector_sim.c) and the loader.  Not installed. */
#pragma once

#include "vectors.h"

/* One line being lexed; messages say "file:line: column N: ...". */
typedef struct {
    const char *file;
    guint line;
    const char *s; /* the line (not NUL-terminated) */
    gsize len;
    gsize pos;
} PmsVecLexer;

G_GNUC_PRINTF(3, 4)
gboolean pms_vlex_fail(PmsVecLexer *lx, GError **error, const char *fmt, ...);
void pms_vlex_skip_blanks(PmsVecLexer *lx);
/* Walks the lines of one vector file (both formats). */
typedef struct {
    const char *file;
    const char *data;
    gsize len, off;
    guint line;
    gboolean failed; /* stopped at a line holding a NUL byte (error set) */
} PmsVecLines;
/* The next line holding more than blanks or a comment, as *lx at its first
 * word; FALSE at the end of the data, or with ->failed and an error ("NUL byte
 * in a vector file" + nul_hint) at a line holding a NUL byte. */
gboolean pms_vlex_next_line(PmsVecLines *it, PmsVecLexer *lx, const char *nul_hint, GError **error);
/* A bare word up to the next blank. */
char *pms_vlex_word(PmsVecLexer *lx);
/* STRING: one or more ["N*"]"..." pieces (docs/vectors-format.md). */
gboolean pms_vlex_string(PmsVecLexer *lx, const char *what, GString *out, GError **error);

/* Frees a PmsVector (and its payload). */
void pms_vector_free_one(gpointer v);

/* Parse a .sim file into `out` (PmsVector*, kind PMS_VECTOR_SIM); on error
 * `out` may hold partial vectors that the caller drops. */
gboolean pms_vector_sim_parse(GPtrArray *out, const char *data, gsize len, const char *file, const char *pmu,
                              GError **error);

/* Does stimulus text contain an expectation (a `read` with an expected value
 * or `expect-pmi`)?  A vector without one could never fail. */
gboolean pms_vector_sim_text_has_expectation(const char *text);

/* Move every vector of src to the end of dst (src ends empty). */
void pms_vector_set_take(PmsVectorSet *dst, PmsVectorSet *src);

/* Read the stimulus files the sim vectors of `set` reference: `fetch` returns
 * the text of NAME (from the vector file's folder) or NULL with an error. */
typedef char *(*PmsVecFetchFunc)(const char *name, char **path, gpointer user_data, GError **error);
gboolean pms_vector_sim_resolve(PmsVectorSet *set, PmsVecFetchFunc fetch, gpointer user_data, GError **error);
