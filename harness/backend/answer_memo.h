/* pmusim harness — a bounded memo of batch-protocol answers, keyed by the
 * exact bytes of the input line.  The builtin backend's answer to a line is a
 * function of the line (models and privilege mask fixed per backend), so a
 * line seen again is answered by one lookup and one copy.  An open-addressing
 * table of tags and offsets into one arena of entries; each entry's answer
 * line starts with the line itself, so a hit touches a table slot and one
 * entry. */
#pragma once

#include <glib.h>

typedef struct PmsAnswerMemo PmsAnswerMemo;

/* Remember at most max_entries lines of at most max_line bytes each. */
PmsAnswerMemo *pms_answer_memo_new(guint max_entries, gsize max_line);
void pms_answer_memo_free(PmsAnswerMemo *m);
/* Forget every answer (the answers changed: another privilege mask). */
void pms_answer_memo_clear(PmsAnswerMemo *m);

/* Append the remembered answer line of `line` to out; FALSE if there is none. */
gboolean pms_answer_memo_append(const PmsAnswerMemo *m, const char *line, gsize len, GString *out);
/* Remember `answer` (answer_len bytes, starting with the len bytes of line)
 * for line; nothing when the line is too long or the memo is full. */
void pms_answer_memo_put(PmsAnswerMemo *m, const char *line, gsize len, const char *answer, gsize answer_len);
guint pms_answer_memo_size(const PmsAnswerMemo *m);
