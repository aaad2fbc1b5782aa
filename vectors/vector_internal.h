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

/* Takes one parsed vector (owned from then on); FALSE with an error stops the parse. */
typedef gboolean (*PmsVecEachFunc)(PmsVector *v, gpointer user_data, GError **error);
/* Parse a .enc file vector by vector: each is handed to `each` as soon as its
 * line is parsed, so a file is never held as vectors (the streaming runner). */
gboolean pms_vector_enc_parse_each(PmsVectorKind kind, const char *data, gsize len, const char *file, const char *pmu,
                                   PmsVecEachFunc each, gpointer user_data, GError **error);

/* Frees a PmsVector (and its payload). */
void pms_vector_free_one(gpointer v);

/* Parse a .sim file into `out` (PmsVector*, kind PMS_VECTOR_SIM); on error
 * `out` may hold partial vectors that the caller drops. */
gboolean pms_vector_sim_parse(GPtrArray *out, const char *data, gsize len, const char *file, const char *pmu,
                              GError **error);

/* Does stimulus text contain an expectation (a `read` with an expected value
 * or `expect-pmi`)?  A vector without one could never fail. */
gboolean pms_vector_sim_text_has_expectation(const char *text);

/* Move every vector of set to the end of out (set ends empty). */
void pms_vector_set_steal_all(PmsVectorSet *set, GPtrArray *out);
/* Move every vector of src to the end of dst (src ends empty). */
void pms_vector_set_take(PmsVectorSet *dst, PmsVectorSet *src);

/* Read the stimulus files the sim vectors of `set` reference: `fetch` returns
 * the text of NAME (from the vector file's folder) or NULL with an error. */
typedef char *(*PmsVecFetchFunc)(const char *name, char **path, gpointer user_data, GError **error);
gboolean pms_vector_sim_resolve(PmsVectorSet *set, PmsVecFetchFunc fetch, gpointer user_data, GError **error);

/* What is done with each vector file the loader finds: its text, its name
 * in messages, its PMU, and where the stimulus files it references are read
 * from (fetch, with `dir`). */
typedef gboolean (*PmsVecFileFunc)(PmsVectorKind kind, const char *data, gsize len, const char *name, const char *pmu,
                                   PmsVecFetchFunc fetch, const char *dir, gpointer user_data, GError **error);
/* Every built-in vector file of the given kinds, in report order (sorted by
 * PMU, then file), one at a time. */
gboolean pms_vector_each_builtin_file(guint kinds_mask, PmsVecFileFunc fn, gpointer user_data, GError **error);
/* Every vector file of a directory laid out like vectors/ (pms_vector_set_load_dir). */
gboolean pms_vector_each_dir_file(const char *dir, PmsVecFileFunc fn, gpointer user_data, GError **error);

/* Run one vector: NULL when it passed, else the failure message (*crashed,
 * *cause set as in PmsVectorOutcome). */
char *pms_vector_run_one(const PmsVector *v, const PmsVectorOps *ops, gboolean *crashed, char **cause);
