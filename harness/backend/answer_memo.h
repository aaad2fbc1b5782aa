/* pmusim harness — a bounded memo of batch-protocol answers, keyed by the
 * exact bytes of the input line.  The builtin backend's answer to a line is a
 * function of the line (models and privilege mask fixed per backend), so a
 * line seen again is answered by one lookup and one copy.  An open-addressing
 * table of tags and offsets into one arena of entries; each entry's answer
 * line starts with the line itself, so a hit touches a table slot and one
 * entry.
 *
 * A memo pays for itself only when lines come back: on a stream of distinct
 * lines its lookups, copies and growing arena are a quarter of the time and
 * never hit.  So it rests after PMS_MEMO_REST_AFTER lookups in a row missed:
 * a resting memo answers nothing and keeps nothing (its caller encodes each
 * line, with the same answer), and only samples the lines it is offered —
 * one in sixteen, chosen by its length and first and last eight bytes (a
 * hash of the whole line only for those), so a line that comes back is
 * sampled again — and wakes when PMS_MEMO_WAKE_REPEATS of a window of
 * PMS_MEMO_WAKE_WINDOW samples were seen before. */
#pragma once

#include <glib.h>

typedef struct PmsAnswerMemo PmsAnswerMemo;

#define PMS_MEMO_REST_AFTER 4096
#define PMS_MEMO_WAKE_WINDOW 64
#define PMS_MEMO_WAKE_REPEATS 8

/* Remember at most max_entries lines of at most max_line bytes each. */
PmsAnswerMemo *pms_answer_memo_new(guint max_entries, gsize max_line);
void pms_answer_memo_free(PmsAnswerMemo *m);
/* Forget every answer (the answers changed: another privilege mask). */
void pms_answer_memo_clear(PmsAnswerMemo *m);

/* Append the remembered answer line of `line` to out; FALSE if there is
 * none or the memo rests.  Counts the misses in a row; a resting memo
 * samples the line here (see above). */
gboolean pms_answer_memo_append(PmsAnswerMemo *m, const char *line, gsize len, GString *out);
/* Remember `answer` (answer_len bytes, starting with the len bytes of line)
 * for line, after pms_answer_memo_append did not find it; nothing when the
 * line is too long, the memo is full or it rests (the lookup sampled the
 * line). */
void pms_answer_memo_put(PmsAnswerMemo *m, const char *line, gsize len, const char *answer, gsize answer_len);
guint pms_answer_memo_size(const PmsAnswerMemo *m);
/* Whether the memo rests (see above). */
gboolean pms_answer_memo_resting(const PmsAnswerMemo *m);
/* How many times the memo went to rest or woke (a clear that wakes it
 * included): a stream that makes it flip back and forth shows here. */
guint pms_answer_memo_transitions(const PmsAnswerMemo *m);
